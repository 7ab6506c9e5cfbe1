#pragma once

#include "modelclient.h"
#include "providerconfig.h"

#include <QByteArray>
#include <QDateTime>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace AgentCore {

/// The ModelClient that talks HTTP + SSE to a real provider.
/// complete() must always be called from the same thread (the agent's worker), which owns
/// the network access manager. Retries 429/503/529 and connection resets with backoff
/// (honouring Retry-After), bounded by the config and abortable, emitting Retry events.
///
/// Retries happen only before any event of a response body reached the assembler, so output is
/// never duplicated; a connection closed before, during or after the headers is retried like a
/// refused one. The message ends cleanly only with the provider's final event (for Chat
/// Completions, or its finish_reason followed by a clean end of the body): a body that ends
/// without it is a connection lost mid-stream (an Error keeping the partial content). A clean
/// end (no transport error) closes a last event that no blank line followed, if its payload is
/// whole, as the SDKs keep it; a body cut inside an event never completes the message.
/// The backoff is retryBaseDelayMs * 2^n plus up to 25 % jitter, capped by
/// retryMaxDelayMs; a server's Retry-After / retry-after-ms is used as given, and one longer
/// than retryMaxDelayMs is not waited for (the error stands and says how long was asked).
/// Besides the idle timeout, requestTimeoutMs bounds the whole request; the memory limits of
/// ProviderConfig end a request at once when a line, an event or a tool call's arguments grow
/// past them. Error messages in every event and in the final message hold only what the server
/// sent and the host name, with the API key redacted (redactSecret()).
class HttpModelClient final : public ModelClient
{
public:
    explicit HttpModelClient(ProviderConfig config);
    /// Destroy it on the thread that called complete(), or after that thread finished;
    /// otherwise the network access manager is left to that thread's event loop.
    ~HttpModelClient() override;

    const ProviderConfig &config() const { return m_config; }
    /// Takes effect at the next complete(); call between requests, on the worker thread.
    void setConfig(const ProviderConfig &config) { m_config = config; }

    Message complete(const Context &context,
                     const AbortToken &abort,
                     const StreamEventSink &sink) override;

private:
    ProviderConfig m_config;
    std::unique_ptr<QNetworkAccessManager> m_network;
};

/// The wait a response asks for before a retry, in ms: \a retryAfterMs (the retry-after-ms
/// header, OpenAI and Anthropic) when readable, else \a retryAfter (Retry-After: delay seconds,
/// or an HTTP date taken relative to \a now). nullopt when neither is present or readable.
/// Never negative.
std::optional<qint64> retryAfterDelayMs(const QByteArray &retryAfterMs,
                                        const QByteArray &retryAfter,
                                        const QDateTime &now);

} // namespace AgentCore
