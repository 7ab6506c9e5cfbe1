#pragma once

#include "types.h"

#include <QJsonObject>

namespace AgentCore {

/// The normalized JSON of an assistant message, exactly the schema of
/// shared/fixtures/README.md: content (text / thinking+signature / toolCall), stopReason,
/// providerStopReason, usage {input, output, cacheRead, cacheWrite}, refusal (only when set),
/// errorMessage (only when stopReason is error).
QJsonObject toNormalizedJson(const Message &assistant);

/// Any message as one JSON object with a "role" ("user", "assistant", "toolResult", "custom");
/// an assistant message carries the normalized fields plus api, provider, model, usage.cost,
/// timestamp. messageFromJson(messageToJson(m)) == m.
///
/// The format (the session store writes it; keep it stable):
///   role        "user" | "assistant" | "toolResult" | "custom"
///   timestamp   integer, ms since the epoch
///   content     [{"type":"text","text":s}
///                | {"type":"thinking","thinking":s,"signature":s|null[,"redacted":true]}
///                | {"type":"toolCall","id":s,"name":s,"arguments":{...}
///                   [,"argumentsError":s (only when set)]
///                   [,"providerId":s (only when set: the provider's id of a renamed call)]}]
///   assistant   stopReason (stopReasonName), providerStopReason (s|null),
///               usage {input, output, cacheRead, cacheWrite, cost}, api, provider, model,
///               responseId; errorMessage, refusal, protocolViolation (true),
///               protocolViolationDetail, discardedUsage (as usage) only when set
///   user        origin ("steering" | "followUp"; missing for a prompt, and read as one)
///   toolResult  toolCallId, toolName, isError; details (ToolDetails::toJson) only when any
///   custom      customType
///   pagedChars  integer, only on a stub (Message::isPaged): never written as if it were the
///               whole message. Nothing AgentDesk writes to a session, a copy or a model may be
///               a stub (SessionLog refuses one); the field is there so that one that slips
///               through is seen as what it is, and round-trips.
/// A field of another role is written too when it differs from its default, so every
/// Message round-trips. Readers ignore unknown keys.
QJsonObject messageToJson(const Message &message);
/// Returns false and leaves \a message untouched when \a json is not a message (unknown role,
/// content that is not an array of known blocks, unknown stopReason); \a error says why.
bool messageFromJson(const QJsonObject &json, Message *message, QString *error = nullptr);

} // namespace AgentCore
