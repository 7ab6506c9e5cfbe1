#pragma once

#include <ai/types.h>

#include <QList>
#include <QMutex>

QT_FORWARD_DECLARE_CLASS(QThread)

namespace TestSupport {

/// Collects the stream events of one ModelClient::complete() call, with the threads they came
/// on. Read events and threads directly once the call returned; ofType() also while it runs
/// (the sink locks, so any thread may call it).
struct StreamEventLog
{
    QList<AgentCore::StreamEvent> events;
    QList<QThread *> threads;
    mutable QMutex mutex;

    /// A sink appending to this log; the log must outlive every call of it.
    AgentCore::StreamEventSink sink();
    QList<AgentCore::StreamEvent> ofType(AgentCore::StreamEvent::Type type) const;
};

} // namespace TestSupport
