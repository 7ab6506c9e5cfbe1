#include "lspserverconfig.h"

#include <QFileInfo>
#include <QStandardPaths>

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
