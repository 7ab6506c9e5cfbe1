#include "lspserverconfig.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QStandardPaths>

#include <algorithm>

namespace AgentCore {

namespace {

QString suffixOf(const QString &path)
{
    return QFileInfo(path).suffix().toLower();
}

} // namespace

bool LspServerConfig::handles(const QString &path) const
{
    return suffixes.contains(suffixOf(path));
}

LspServerConfig LspServerConfig::forRepository(const QString &root) const
{
    const QString database = QStringLiteral("compile_commands.json");
    const QDir repository(root);
    const bool named = std::any_of(args.cbegin(), args.cend(), [](const QString &arg) {
        return arg.startsWith(QLatin1String("--compile-commands-dir"));
    });
    if (QFileInfo(command).fileName() != QLatin1String("clangd") || named
        || repository.exists(database) || repository.exists(QStringLiteral("build/") + database))
        return *this;
    QFileInfo newest;
    const QFileInfoList builds = QDir(repository.filePath(QStringLiteral("build")))
                                     .entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo &build : builds) {
        const QFileInfo candidate(QDir(build.filePath()).filePath(database));
        if (candidate.isFile()
            && (!newest.exists() || candidate.lastModified() > newest.lastModified()))
            newest = candidate;
    }
    if (!newest.exists())
        return *this;
    LspServerConfig adapted = *this;
    adapted.args.append(QStringLiteral("--compile-commands-dir=") + newest.absolutePath());
    return adapted;
}

QJsonObject LspServerConfig::toJson() const
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("command"), command},
            {QStringLiteral("args"), QJsonArray::fromStringList(args)},
            {QStringLiteral("suffixes"), QJsonArray::fromStringList(suffixes)}};
}

std::optional<LspServerConfig> LspServerConfig::fromJson(const QJsonObject &json)
{
    constexpr qsizetype maxNameChars = 200;
    constexpr qsizetype maxArgs = 50;
    constexpr qsizetype maxArgChars = 1000;
    constexpr qsizetype maxSuffixes = 50;
    LspServerConfig config;
    config.name = json.value(QLatin1String("name")).toString().trimmed();
    config.command = json.value(QLatin1String("command")).toString().trimmed();
    if (config.name.size() > maxNameChars || config.command.size() > maxNameChars)
        return std::nullopt;
    const QJsonArray args = json.value(QLatin1String("args")).toArray();
    if (args.size() > maxArgs)
        return std::nullopt;
    for (const QJsonValue &arg : args) {
        if (!arg.isString() || arg.toString().size() > maxArgChars)
            return std::nullopt;
        config.args.append(arg.toString());
    }
    const QJsonArray suffixes = json.value(QLatin1String("suffixes")).toArray();
    for (qsizetype i = 0; i < suffixes.size() && i < maxSuffixes; ++i) {
        const QString suffix = suffixes.at(i).toString().trimmed().toLower();
        const bool word = !suffix.isEmpty() && suffix.size() <= 20
                          && std::all_of(suffix.cbegin(), suffix.cend(), [](QChar c) {
                                 return c.isLetterOrNumber() || c == u'+' || c == u'_';
                             });
        if (!word)
            return std::nullopt;
        if (!config.suffixes.contains(suffix))
            config.suffixes.append(suffix);
    }
    if (!config.isValid())
        return std::nullopt;
    return config;
}

QList<LspServerConfig> LspServerConfig::defaults()
{
    const QStringList cFamily{QStringLiteral("c"),
                              QStringLiteral("h"),
                              QStringLiteral("cc"),
                              QStringLiteral("cpp"),
                              QStringLiteral("cxx"),
                              QStringLiteral("hh"),
                              QStringLiteral("hpp"),
                              QStringLiteral("hxx")};
    const QStringList python{QStringLiteral("py"), QStringLiteral("pyi")};
    return {
        // No background index: on a large repository it would take the machine's cores for
        // minutes; the files AgentDesk opens are parsed with their compile commands all the same.
        {QStringLiteral("clangd"),
         QStringLiteral("clangd"),
         {QStringLiteral("--log=error"), QStringLiteral("--background-index=false")},
         cFamily},
        {QStringLiteral("pylsp"), QStringLiteral("pylsp"), {}, python},
        {QStringLiteral("pyright"),
         QStringLiteral("pyright-langserver"),
         {QStringLiteral("--stdio")},
         python},
        {QStringLiteral("typescript-language-server"),
         QStringLiteral("typescript-language-server"),
         {QStringLiteral("--stdio")},
         {QStringLiteral("ts"),
          QStringLiteral("tsx"),
          QStringLiteral("js"),
          QStringLiteral("jsx"),
          QStringLiteral("mts"),
          QStringLiteral("cts")}},
        {QStringLiteral("rust-analyzer"),
         QStringLiteral("rust-analyzer"),
         {},
         {QStringLiteral("rs")}},
        {QStringLiteral("gopls"), QStringLiteral("gopls"), {}, {QStringLiteral("go")}},
    };
}

QList<LspServerConfig> LspServerConfig::available(const QList<LspServerConfig> &configs,
                                                  const QProcessEnvironment &environment)
{
    const QStringList path = environment.value(QStringLiteral("PATH"))
                                 .split(QLatin1Char(':'), Qt::SkipEmptyParts);
    QList<LspServerConfig> found;
    QStringList served;
    for (const LspServerConfig &config : configs) {
        if (!config.isValid())
            continue;
        QStringList own;
        for (const QString &suffix : config.suffixes) {
            if (!served.contains(suffix))
                own.append(suffix);
        }
        if (own.isEmpty())
            continue;
        const QString program = config.command.contains(QLatin1Char('/'))
                                    ? (QFileInfo(config.command).isExecutable() ? config.command
                                                                                : QString())
                                    : QStandardPaths::findExecutable(config.command, path);
        if (program.isEmpty())
            continue;
        LspServerConfig kept = config;
        kept.command = program;
        kept.suffixes = own;
        served += own;
        found.append(kept);
    }
    return found;
}

QString LspServerConfig::languageId(const QString &path)
{
    const QString suffix = suffixOf(path);
    if (suffix == QLatin1String("c"))
        return QStringLiteral("c");
    if (suffix == QLatin1String("py") || suffix == QLatin1String("pyi"))
        return QStringLiteral("python");
    if (suffix == QLatin1String("ts") || suffix == QLatin1String("mts")
        || suffix == QLatin1String("cts"))
        return QStringLiteral("typescript");
    if (suffix == QLatin1String("tsx"))
        return QStringLiteral("typescriptreact");
    if (suffix == QLatin1String("js"))
        return QStringLiteral("javascript");
    if (suffix == QLatin1String("jsx"))
        return QStringLiteral("javascriptreact");
    if (suffix == QLatin1String("rs"))
        return QStringLiteral("rust");
    if (suffix == QLatin1String("go"))
        return QStringLiteral("go");
    return QStringLiteral("cpp"); // the C family's other suffixes, headers included
}

} // namespace AgentCore
