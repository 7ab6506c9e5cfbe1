#pragma once

#include "aborttoken.h"
#include "types.h"

namespace AgentCore {

/// A model the agent loop can call: the seam between the loop and the network, so tests and
/// the offline demo can script a model.
///
/// complete() blocks the calling (worker) thread, spinning a local event loop for its I/O;
/// it emits stream events through \a sink on that thread as they arrive, and always returns
/// the assembled assistant message: failures are a stopReason (Error, Aborted,
/// ContextOverflow) with errorMessage, never an exception. Partial content is kept.
class ModelClient
{
public:
    virtual ~ModelClient() = default;

    virtual Message complete(const Context &context,
                             const AbortToken &abort,
                             const StreamEventSink &sink)
        = 0;
};

} // namespace AgentCore
