#include "sandboxtest.h"

#include "testfiles.h"

#include <loop/agenttypes.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

namespace TestSupport {

OutsideDir::OutsideDir()
    : m_dir(QCoreApplication::applicationDirPath() + QStringLiteral("/sandbox-test-XXXXXX"))
{}

QString OutsideDir::path() const
{
    return QFileInfo(m_dir.path()).canonicalFilePath();
}

QString OutsideDir::file(const QString &relative) const
{
    return path() + QLatin1Char('/') + relative;
}

bool OutsideDir::write(const QString &relative, const QByteArray &bytes) const
{
    QDir().mkpath(QFileInfo(file(relative)).path());
    QFile out(file(relative));
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

QByteArray OutsideDir::read(const QString &relative) const
{
    return fileBytes(file(relative));
}

bool sandboxed(const AgentCore::ToolResult &result)
{
    return result.details.toJson().value(QLatin1String("sandboxed")).toBool();
}

} // namespace TestSupport
