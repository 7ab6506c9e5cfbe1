#pragma once

#include "providerconfig.h"

#include <QByteArray>
#include <QString>

namespace AgentCore {

/// Result of reading a non-2xx response.
struct HttpError
{
    QString message;              ///< readable, from the body ("Anthropic: overloaded (529)")
    bool contextOverflow = false; ///< the request exceeded the model's context window
    bool retryable = false;       ///< 429, 503, 529 and similar transient statuses
};

/// Reads a provider's error body (JSON or text) into a readable message. Pure; thread-safe.
HttpError describeHttpError(const ProviderConfig &config, int httpStatus, const QByteArray &body);

/// What an HTTP error body says, for any server a user can point AgentDesk at: the message of a
/// JSON error in the shapes providers and compatible servers use (OpenAI, Anthropic, Ollama,
/// vLLM, FastAPI's "detail", OpenRouter's wrapped upstream error, Google's array), else the
/// title or visible text of an HTML error page, else the body's text. One line, at most 500
/// characters (then an ellipsis); empty when the body says nothing. describeHttpError's detail.
/// Pure; thread-safe.
QString readableErrorBody(const QByteArray &body);

/// True when an error a provider streamed instead of the reply (Anthropic's "error" event,
/// Responses' response.failed, a Chat Completions chunk with "error") says the request did not
/// fit the context window, by the same codes and phrases as describeHttpError's
/// contextOverflow. \a message is the error's text or its whole JSON body, \a code its code or
/// type when the caller read one. Pure; thread-safe.
bool isContextOverflowError(const QString &message, const QString &code = {});

} // namespace AgentCore
