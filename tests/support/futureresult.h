#pragma once

#include <QDeadlineTimer>
#include <QFuture>
#include <QTest>

namespace TestSupport {

/// The result of \a future, whose work ends on this thread's event loop (a window's action that
/// reads files on a worker thread and shows the result on the UI thread): events are processed
/// until it is finished. \a fallback when it is cancelled or not finished within \a timeoutMs.
template<typename T>
T futureResult(QFuture<T> future, T fallback = {}, int timeoutMs = 30'000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!future.isFinished() && !deadline.hasExpired())
        QTest::qWait(5);
    if (!future.isFinished() || future.isCanceled() || future.resultCount() == 0)
        return fallback;
    return future.result();
}

} // namespace TestSupport
