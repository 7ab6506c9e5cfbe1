#pragma once

#include "modelclient.h"

#include <atomic>

namespace AgentCore {

/// The "Demo (offline)" model: what the window uses when no provider is configured, so a
/// fresh machine shows the whole flow. It lists and reads files in parallel, proposes an edit
/// for review, runs `git status --short` and answers with a summary that says it was the
/// offline demo; later requests get a short scripted reply (see DemoScript for the plan).
///
/// Stateless across calls: each complete() derives its message from the context alone, so one
/// client serves any number of conversations. complete() runs on the calling (worker) thread,
/// streams the message in small pieces with a short pause between them (abortable: an abort
/// returns at once with StopReason::Aborted and the partial content), and never touches the
/// network or the file system. Messages carry api, provider and model "demo", and an
/// estimated usage at no cost. Never throws.
class DemoModelClient final : public ModelClient
{
public:
    static constexpr int defaultChunkPauseMs = 15;

    /// \a chunkPauseMs: pause after each streamed piece; 0 streams at once (tests).
    explicit DemoModelClient(int chunkPauseMs = defaultChunkPauseMs);

    /// Safe from any thread; takes effect at the next complete().
    void setChunkPauseMs(int ms);
    int chunkPauseMs() const;

    /// The model's name for people, e.g. in the status bar: says it is offline and scripted.
    static QString label();
    /// "demo": the api, provider and model of its messages.
    static QString name();

    Message complete(const Context &context,
                     const AbortToken &abort,
                     const StreamEventSink &sink) override;

private:
    std::atomic_int m_chunkPauseMs;
};

} // namespace AgentCore
