#include "streameventlog.h"

#include <QThread>

namespace TestSupport {

using namespace AgentCore;

StreamEventSink StreamEventLog::sink()
{
    return [this](const StreamEvent &event) {
        QMutexLocker locker(&mutex);
        events.append(event);
        threads.append(QThread::currentThread());
    };
}

QList<StreamEvent> StreamEventLog::ofType(StreamEvent::Type type) const
{
    QMutexLocker locker(&mutex);
    QList<StreamEvent> result;
    for (const StreamEvent &event : events) {
        if (event.type == type)
            result.append(event);
    }
    return result;
}

} // namespace TestSupport
