#include "modelname.h"

#include <QStringList>

namespace AgentCore {

bool isLocalProvider(const QString &provider)
{
    static const QStringList local{QStringLiteral("ollama"),
                                   QStringLiteral("llamacpp"),
                                   QStringLiteral("llama.cpp"),
                                   QStringLiteral("llama-cpp"),
                                   QStringLiteral("vllm"),
                                   QStringLiteral("lmstudio"),
                                   QStringLiteral("local")};
    return local.contains(provider, Qt::CaseInsensitive);
}

QByteArray normalizedModelId(const QString &model)
{
    QString name = model.trimmed().toLower();
    name = name.mid(name.lastIndexOf(u'/') + 1);
    const qsizetype vendor = name.indexOf(QLatin1StringView("anthropic."));
    if (vendor >= 0)
        name = name.mid(vendor + qsizetype(sizeof("anthropic.") - 1));
    name.replace(u'.', u'-');
    return name.toUtf8();
}

bool matchesModelFamily(std::string_view normalizedId, std::string_view family)
{
    if (normalizedId.substr(0, family.size()) != family)
        return false;
    if (normalizedId.size() == family.size())
        return true;
    const char next = normalizedId[family.size()];
    return next == '-' || next == ':' || next == '@';
}

} // namespace AgentCore
