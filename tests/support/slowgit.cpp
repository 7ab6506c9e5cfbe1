#include "slowgit.h"

#include <QFile>
#include <QStandardPaths>

namespace TestSupport {

SlowGit::SlowGit(int delayMs)
    : m_path(qgetenv("PATH"))
{
    const QString realGit = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (realGit.isEmpty() || !m_bin.isValid())
        return;
    QFile script(m_bin.filePath(QStringLiteral("git")));
    if (!script.open(QIODevice::WriteOnly))
        return;
    const QByteArray seconds = QByteArray::number(delayMs / 1000.0, 'f', 3);
    script.write("#!/bin/sh\nsleep " + seconds + "\nexec '" + realGit.toUtf8() + "' \"$@\"\n");
    script.close();
    if (!script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return;
    // Qt 6.8 takes a QByteArrayView, which a QStringBuilder does not convert to.
    qputenv("PATH", QByteArray(m_bin.path().toUtf8() + ':' + m_path));
    m_valid = true;
}

SlowGit::~SlowGit()
{
    qputenv("PATH", m_path);
}

} // namespace TestSupport
