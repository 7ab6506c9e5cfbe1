#pragma once

#include <QByteArray>
#include <QString>

namespace TestSupport {

/// The bytes of the file at \a path, or "<missing>" when it cannot be read: a file that went
/// away never compares equal to one that was read before, even an empty one, and a failing
/// QCOMPARE says which it was.
QByteArray fileBytes(const QString &path);

} // namespace TestSupport
