#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>
#include <utility>

namespace Ui {

/// Calls \a done with \a future's result on \a context's thread once it is finished, unless
/// \a context is gone by then (a closed dialog, a deleted window: nothing is called) or the
/// future was cancelled. A QFutureWatcher owned by \a context rather than
/// QFuture::then(context, ...): on Qt 6.4 a continuation whose context is deleted first
/// asserts (fixed in later Qt).
template<typename T, typename Done>
void whenFinished(QObject *context, const QFuture<T> &future, Done done)
{
    auto watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher,
                     &QFutureWatcherBase::finished,
                     context,
                     [watcher, done = std::move(done)]() mutable {
                         watcher->deleteLater();
                         QFuture<T> finished = watcher->future();
                         if (finished.isCanceled())
                             return;
                         if constexpr (std::is_void_v<T>)
                             done();
                         else if constexpr (std::is_copy_constructible_v<T>)
                             done(finished.result());
                         else // move-only (a lock taken on the worker): this is its one reader
                             done(finished.takeResult());
                     });
    watcher->setFuture(future);
}

/// The one way the widgets hand work that blocks (git, a file read, a process wait) off the UI
/// thread: \a work runs on a thread of the global pool (QtConcurrent::run), and \a done gets
/// its result on \a context's thread (whenFinished()), unless \a context is gone by then.
/// Returns the work's future. \a work must not touch widgets or \a context: it gets copies of
/// what it needs.
template<typename Work, typename Done>
auto runInBackground(QObject *context, Work work, Done done)
{
    using Result = std::invoke_result_t<Work>;
    QFuture<Result> future = QtConcurrent::run(std::move(work));
    whenFinished(context, future, std::move(done));
    return future;
}

} // namespace Ui
