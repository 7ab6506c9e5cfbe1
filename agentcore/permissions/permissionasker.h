#pragma once

#include "permissionrequest.h"

#include <ai/aborttoken.h>

#include <optional>

namespace AgentCore {

/// Asks a person about a tool call. Called on the thread running the tool call (a pool thread
/// or the worker thread); blocks until answered. Returns nullopt when \a abort fired first.
/// Implementations are thread-safe (parallel calls may ask at once; they are answered in any
/// order).
class PermissionAsker
{
public:
    virtual ~PermissionAsker() = default;
    virtual std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                                const AbortToken &abort)
        = 0;
};

} // namespace AgentCore
