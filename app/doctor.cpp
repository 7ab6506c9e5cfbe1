#include "doctor.h"
#include "translation.h"

#include "commandline.h"

#include <ai/providerconfig.h>
#include <i18n/translations.h>
#include <keys/keystore.h>
#include <mcp/mcpconfig.h>
#include <settings/appsettings.h>
#include <tools/sandboxnotice.h>
#include <tools/sandboxprobe.h>
#include <tools/shelloverlay.h>

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>

namespace App {

namespace {

constexpr int processTimeoutMs = 10'000;
constexpr int networkTimeoutMs = 15'000;

// The first line of what \a program prints for \a arguments, or empty when it did not run.
QString firstLineOf(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(processTimeoutMs)) {
        process.kill();
        process.waitForFinished(1'000);
        return {};
    }
    return QString::fromLocal8Bit(process.readAll()).section(u'\n', 0, 0).trimmed();
}

QString statusWord(DoctorCheck::Status status)
{
    switch (status) {
    case DoctorCheck::Status::Ok:
        return QStringLiteral("ok     ");
    case DoctorCheck::Status::Missing:
        return QStringLiteral("MISSING");
    case DoctorCheck::Status::Warning:
        return QStringLiteral("warning");
    }
    return {};
}

void printLine(const QString &text)
{
    const QByteArray bytes = text.toLocal8Bit() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

} // namespace

PackageManager PackageManager::fromOsRelease(const QByteArray &osRelease)
{
    PackageManager result;
    QStringList ids;
    for (const QByteArray &rawLine : osRelease.split('\n')) {
        const QString line = QString::fromUtf8(rawLine).trimmed();
        const qsizetype equals = line.indexOf(u'=');
        if (equals <= 0)
            continue;
        const QString key = line.left(equals);
        QString value = line.mid(equals + 1);
        if (value.size() >= 2 && (value.startsWith(u'"') || value.startsWith(u'\'')))
            value = value.mid(1, value.size() - 2);
        if (key == QLatin1String("ID") || key == QLatin1String("ID_LIKE"))
            ids += value.toLower().split(u' ', Qt::SkipEmptyParts);
        else if (key == QLatin1String("PRETTY_NAME"))
            result.distribution = value;
    }
    for (const QString &id : std::as_const(ids)) {
        if (id == QLatin1String("debian") || id == QLatin1String("ubuntu"))
            result.kind = Kind::Apt;
        else if (id == QLatin1String("fedora") || id == QLatin1String("rhel"))
            result.kind = Kind::Dnf;
        else if (id == QLatin1String("arch"))
            result.kind = Kind::Pacman;
        if (result.kind != Kind::Unknown)
            break;
    }
    return result;
}

QString PackageManager::installCommand(const QString &apt,
                                       const QString &dnf,
                                       const QString &pacman) const
{
    switch (kind) {
    case Kind::Apt:
        return QStringLiteral("sudo apt-get install ") + apt;
    case Kind::Dnf:
        return QStringLiteral("sudo dnf install ") + dnf;
    case Kind::Pacman:
        return QStringLiteral("sudo pacman -S ") + pacman;
    case Kind::Unknown:
        break;
    }
    return AppTr::tr("install the package %1 (Debian, Ubuntu), %2 (Fedora) or %3 (Arch)")
        .arg(apt, dnf, pacman);
}

Doctor::Doctor(const CommandLine &commandLine, QProcessEnvironment environment)
    : m_commandLine(commandLine)
    , m_environment(std::move(environment))
{
    QFile osRelease(QStringLiteral("/etc/os-release"));
    if (osRelease.open(QIODevice::ReadOnly))
        m_packages = PackageManager::fromOsRelease(osRelease.read(64 * 1024));
}

QList<DoctorCheck> Doctor::run() const
{
    QList<DoctorCheck> checks;
    checks << bubblewrap() << shellOverlay()
           << program(QStringLiteral("git"),
                      QStringLiteral("git"),
                      true,
                      QStringLiteral("git"),
                      AppTr::tr("reviews, checkpoints and worktrees need it"))
           << program(QStringLiteral("ripgrep"),
                      QStringLiteral("rg"),
                      false,
                      QStringLiteral("ripgrep"),
                      AppTr::tr("without it Grep uses its slower built-in search"))
           << keyring() << fonts() << provider();
    checks += mcpServers();
    return checks;
}

DoctorCheck Doctor::bubblewrap() const
{
    DoctorCheck check{QStringLiteral("bubblewrap"), DoctorCheck::Status::Ok, {}, {}};
    const AgentCore::SandboxProbe::Result probe = AgentCore::SandboxProbe::probe();
    if (probe.bwrapPath.isEmpty()) {
        check.status = DoctorCheck::Status::Missing;
        check.detail = AppTr::tr("bwrap is not on PATH: Bash commands cannot run in the sandbox.");
        check.install = m_packages.installCommand(QStringLiteral("bubblewrap"),
                                                  QStringLiteral("bubblewrap"),
                                                  QStringLiteral("bubblewrap"));
        return check;
    }
    const QString version = firstLineOf(probe.bwrapPath, {QStringLiteral("--version")});
    if (!probe.available) {
        check.status = DoctorCheck::Status::Missing;
        check.detail = AppTr::tr("%1 (%2) is installed but cannot make its sandbox here: %3")
                           .arg(probe.bwrapPath, version, probe.error);
        check.install = AgentCore::SandboxNotice::advice();
        return check;
    }
    check.detail = AppTr::tr("%1 (%2): the sandbox works here.").arg(probe.bwrapPath, version);
    return check;
}

DoctorCheck Doctor::shellOverlay() const
{
    DoctorCheck check{AppTr::tr("shell-writes review"), DoctorCheck::Status::Ok, {}, {}};
    if (AgentCore::SandboxProbe::probe().bwrapPath.isEmpty()) {
        check.status = DoctorCheck::Status::Warning;
        check.detail = AppTr::tr("needs bubblewrap: without it, commands write directly.");
        return check;
    }
    const QString reason = AgentCore::ShellOverlay::unsupportedReason();
    if (!reason.isEmpty()) {
        check.status = DoctorCheck::Status::Warning;
        check.detail = AppTr::tr("%1 Commands write directly instead.").arg(reason);
        return check;
    }
    check.detail = AppTr::tr("commands can run on an overlay of the repository.");
    return check;
}

DoctorCheck Doctor::program(const QString &name,
                            const QString &executable,
                            bool needed,
                            const QString &package,
                            const QString &why) const
{
    DoctorCheck check{name, DoctorCheck::Status::Ok, {}, {}};
    const QString path = QStandardPaths::findExecutable(executable);
    if (path.isEmpty()) {
        check.status = needed ? DoctorCheck::Status::Missing : DoctorCheck::Status::Warning;
        check.detail = AppTr::tr("%1 is not on PATH: %2.").arg(executable, why);
        check.install = m_packages.installCommand(package, package, package);
        return check;
    }
    check.detail = QStringLiteral("%1 (%2)").arg(path,
                                                 firstLineOf(path, {QStringLiteral("--version")}));
    return check;
}

DoctorCheck Doctor::keyring() const
{
    DoctorCheck check{AppTr::tr("keyring"), DoctorCheck::Status::Ok, {}, {}};
    const QString service = QStringLiteral("org.freedesktop.secrets");
    QDBusConnection bus = QDBusConnection::sessionBus();
    QDBusConnectionInterface *busInterface = bus.isConnected() ? bus.interface() : nullptr;
    const bool reachable = busInterface
                           && (busInterface->isServiceRegistered(service).value()
                               || busInterface->activatableServiceNames().value().contains(service));
    if (reachable) {
        check.detail = AppTr::tr("a Secret Service answers on the session bus: API keys are kept "
                                 "encrypted.");
        return check;
    }
    check.status = DoctorCheck::Status::Warning;
    check.detail = bus.isConnected()
                       ? AppTr::tr("no Secret Service on the session bus: API keys are kept in a "
                                   "file only you can read.")
                       : AppTr::tr("no session bus: API keys are kept in a file only you can "
                                   "read.");
    check.install = m_packages.installCommand(QStringLiteral("gnome-keyring"),
                                              QStringLiteral("gnome-keyring"),
                                              QStringLiteral("gnome-keyring"));
    return check;
}

DoctorCheck Doctor::fonts() const
{
    const QString language = Ui::Translations::resolve(Ui::AppSettings::load(QSettings()).language);
    const QString fontLanguage = QLocale(language).name().section(u'_', 0, 0);
    DoctorCheck check{AppTr::tr("fonts"), DoctorCheck::Status::Ok, {}, {}};
    const bool english = fontLanguage == QLatin1String("en");
    const QString fcList = QStandardPaths::findExecutable(QStringLiteral("fc-list"));
    if (fcList.isEmpty()) {
        check.status = DoctorCheck::Status::Warning;
        check.detail = AppTr::tr("fc-list is not on PATH: the fonts for %1 cannot be checked.")
                           .arg(language);
        check.install = m_packages.installCommand(QStringLiteral("fontconfig"),
                                                  QStringLiteral("fontconfig"),
                                                  QStringLiteral("fontconfig"));
        return check;
    }
    QProcess process;
    process.start(fcList, {QStringLiteral(":lang=") + fontLanguage, QStringLiteral("family")});
    const bool ran = process.waitForFinished(processTimeoutMs);
    const QStringList families = QString::fromLocal8Bit(process.readAllStandardOutput())
                                     .split(u'\n', Qt::SkipEmptyParts);
    if (ran && !families.isEmpty()) {
        check.detail = AppTr::tr("%n font(s) for the UI language (%1).", nullptr, families.size())
                           .arg(language);
        return check;
    }
    // Without fonts for its script a language other than English shows boxes.
    check.status = english ? DoctorCheck::Status::Warning : DoctorCheck::Status::Missing;
    check.detail = AppTr::tr("no font for the UI language (%1).").arg(language);
    check.install = english
                        ? m_packages.installCommand(QStringLiteral("fonts-noto-core"),
                                                    QStringLiteral("google-noto-sans-fonts"),
                                                    QStringLiteral("noto-fonts"))
                        : m_packages.installCommand(QStringLiteral("fonts-noto-cjk"),
                                                    QStringLiteral("google-noto-sans-cjk-fonts"),
                                                    QStringLiteral("noto-fonts-cjk"));
    return check;
}

DoctorCheck Doctor::provider() const
{
    DoctorCheck check{AppTr::tr("provider"), DoctorCheck::Status::Ok, {}, {}};
    AgentCore::ProviderConfig config;
    const PrintOptions &options = m_commandLine.print;
    if (options.modelGiven) {
        QString error;
        const std::optional<AgentCore::ProviderConfig> given = options.providerConfig(m_environment,
                                                                                      &error);
        if (!given) {
            check.status = DoctorCheck::Status::Missing;
            check.detail = error;
            return check;
        }
        config = *given;
    } else {
        const std::optional<Ui::ModelSelection> selection = Ui::AppSettings::load(QSettings()).model;
        if (!selection) {
            check.detail = AppTr::tr("none configured: the window runs the offline demo.");
            return check;
        }
        // The key as the window reads it: the key store, else the provider's variable.
        QString key;
        Ui::KeyStore *keys = Ui::KeyStore::createDefault(nullptr);
        QEventLoop loop;
        keys->readKey(selection->keyAccount(), &loop, [&](const Ui::KeyResult &result) {
            key = result.key;
            loop.quit();
        });
        QTimer::singleShot(networkTimeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        delete keys;
        if (key.isEmpty() && !selection->keyVariable().isEmpty())
            key = m_environment.value(selection->keyVariable());
        if (key.isEmpty() && selection->needsKey()) {
            check.status = DoctorCheck::Status::Missing;
            check.detail = AppTr::tr("%1: no API key (add it in Settings, or set %2).")
                               .arg(selection->label(), selection->keyVariable());
            return check;
        }
        config = selection->providerConfig(key);
    }

    // One GET of the models endpoint: it needs the key, costs nothing, and starts no model.
    QUrl url = config.baseUrl;
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    QNetworkRequest request;
    if (config.api == AgentCore::WireApi::AnthropicMessages) {
        url.setPath(path + QStringLiteral("/v1/models"));
        if (!config.apiKey.isEmpty())
            request.setRawHeader("x-api-key", config.apiKey.toUtf8());
        request.setRawHeader("anthropic-version", "2023-06-01");
    } else {
        url.setPath(path + QStringLiteral("/models"));
        if (!config.apiKey.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + config.apiKey.toUtf8());
    }
    request.setUrl(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(networkTimeoutMs);
    QNetworkAccessManager network;
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString where = url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
    if (status >= 200 && status < 300) {
        check.detail
            = AppTr::tr("%1 answers (GET %2: HTTP %3).").arg(config.model, where).arg(status);
    } else {
        check.status = DoctorCheck::Status::Missing;
        check.detail = AgentCore::redactSecret(
            status == 0 ? AppTr::tr("cannot reach %1: %2").arg(where, reply->errorString())
            : status == 401 || status == 403
                ? AppTr::tr("%1 refused the API key (HTTP %2).").arg(where).arg(status)
                : AppTr::tr("GET %1 answered HTTP %2.").arg(where).arg(status),
            config.apiKey);
    }
    reply->deleteLater();
    return check;
}

QList<DoctorCheck> Doctor::mcpServers() const
{
    QList<AgentCore::McpConfig> configs;
    configs.append(
        AgentCore::McpConfig::load(AgentCore::McpConfig::projectFile(m_commandLine.repository),
                                   true));
    const QString user = Ui::AppSettings::load(QSettings()).mcpServers;
    if (!user.trimmed().isEmpty())
        configs.append(AgentCore::McpConfig::parse(user.toUtf8(), AppTr::tr("your settings")));
    for (const QString &file : m_commandLine.print.mcpConfigFiles)
        configs.append(AgentCore::McpConfig::load(file, false));

    QList<DoctorCheck> checks;
    for (const AgentCore::McpConfig &config : std::as_const(configs)) {
        if (!config.error.isEmpty()) {
            checks.append({AppTr::tr("MCP"), DoctorCheck::Status::Missing, config.error, {}});
            continue;
        }
        for (const AgentCore::McpServerConfig &server : config.servers) {
            DoctorCheck check{AppTr::tr("MCP server \"%1\"").arg(server.name),
                              DoctorCheck::Status::Ok,
                              {},
                              {}};
            if (server.type != QLatin1String("stdio")) {
                check.detail = AppTr::tr("%1 (not checked: a remote server).").arg(server.url);
            } else if (const QString path = QStandardPaths::findExecutable(server.command);
                       path.isEmpty() && !QFileInfo(server.command).isExecutable()) {
                check.status = DoctorCheck::Status::Missing;
                check.detail = AppTr::tr("%1 (%2): the command %3 is not on PATH.")
                                   .arg(server.commandLine(), server.source, server.command);
                if (server.command == QLatin1String("npx")
                    || server.command == QLatin1String("node"))
                    check.install = m_packages.installCommand(QStringLiteral("nodejs npm"),
                                                              QStringLiteral("nodejs npm"),
                                                              QStringLiteral("nodejs npm"));
                else if (server.command == QLatin1String("uvx")
                         || server.command == QLatin1String("uv"))
                    check.install = AppTr::tr("install uv: https://docs.astral.sh/uv/");
                else if (server.command.startsWith(QLatin1String("python")))
                    check.install = m_packages.installCommand(QStringLiteral("python3"),
                                                              QStringLiteral("python3"),
                                                              QStringLiteral("python"));
            } else {
                check.detail = QStringLiteral("%1 (%2)").arg(server.commandLine(), server.source);
            }
            checks.append(check);
        }
    }
    return checks;
}

int Doctor::runAndPrint(const CommandLine &commandLine)
{
    const Doctor doctor(commandLine, QProcessEnvironment::systemEnvironment());
    printLine(AppTr::tr("AgentDesk %1 on %2")
                  .arg(QStringLiteral(AGENTDESK_VERSION),
                       doctor.m_packages.distribution.isEmpty() ? QStringLiteral("Linux")
                                                                : doctor.m_packages.distribution));
    bool failed = false;
    for (const DoctorCheck &check : doctor.run()) {
        printLine(
            QStringLiteral("%1 %2: %3").arg(statusWord(check.status), check.name, check.detail));
        if (!check.install.isEmpty())
            printLine(QStringLiteral("        ") + AppTr::tr("to fix: %1").arg(check.install));
        failed = failed || check.status == DoctorCheck::Status::Missing;
    }
    printLine(failed ? AppTr::tr("Something AgentDesk needs is missing (MISSING above).")
                     : AppTr::tr("Everything AgentDesk needs is here."));
    return failed ? 1 : 0;
}

} // namespace App
