#include "checkpointdiff.h"

namespace AgentCore {

namespace {

bool looksBinary(const QByteArray &bytes)
{
    return bytes.left(8000).contains('\0');
}

} // namespace

bool CheckpointFileChange::isBinary() const
{
    return looksBinary(oldBytes) || looksBinary(newBytes);
}

} // namespace AgentCore
