#pragma once

#include <ai/types.h>

#include <optional>

namespace AgentCore {

/// One compaction of a conversation: the summary that stands in for its older part in every
/// later request. History stays append-only: a compaction is a message appended to the
/// conversation (Message::Role::Custom, customType "compaction", the summary as its text), and
/// the messages it covers stay where they were, so the session file keeps the originals and the
/// window can show them. contextView() (context/contextview.h) is what applies it to a request.
struct Compaction
{
    /// The customType of a compaction message.
    static QString customType();

    QString summary;
    /// The compaction covers the messages [0, coveredCount) of the whole conversation, counted
    /// on the raw append-only list (the compaction message itself and everything before it
    /// included, earlier compactions too). The messages from coveredCount up to the compaction
    /// message are the kept tail, sent verbatim after the summary.
    qsizetype coveredCount = 0;
    QString instructions; ///< what the user asked the summary to keep ("compact now"); may be empty
    QString api;          ///< of the model that wrote the summary
    QString provider;
    QString model;
    Usage usage; ///< what the summary request cost: part of the session's cost
    qint64 timestamp = 0;

    /// The compaction \a message records; nullopt for any other message (or one whose data is
    /// unreadable: it is then shown, but never applied).
    static std::optional<Compaction> of(const Message &message);
    /// The message to append to the conversation. Its usage, api, provider and model are the
    /// summary request's (Message's own fields, so a session's cost sums them like a reply's).
    Message toMessage() const;

    friend bool operator==(const Compaction &, const Compaction &) = default;
};

} // namespace AgentCore
