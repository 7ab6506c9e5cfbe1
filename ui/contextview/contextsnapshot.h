#pragma once

#include <coding/systemprompt.h>
#include <coding/tooldeferral.h>
#include <context/contextmeter.h>

#include <QCoreApplication>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace Ui {

/// One thing a request carries, with what it costs of the window.
struct ContextItem
{
    enum class Kind {
        SystemPrompt, ///< the system prompt without the project instructions
        Instructions, ///< one AGENTS.md / CLAUDE.md inside the system prompt
        Skills,       ///< the skills' names and descriptions inside the system prompt
        Tool,         ///< one tool definition
        User,
        Assistant,
        ToolOutput,
        Note, ///< a custom message (a compaction's summary, a reminder)
    };
    Kind kind = Kind::User;
    QString title;   ///< one line: "Bash output: ls -la", "AGENTS.md (/repo)"
    QString preview; ///< the item's beginning, as a person reads it
    qint64 tokens = 0;
    int position = 0;            ///< its place in the request, from 1
    qsizetype messageIndex = -1; ///< into the conversation; -1 for the preamble
    QString toolCallId;          ///< a tool output's call
    /// A paged tool output (AgentCore::Message::pagedChars): preview holds only the stub's
    /// beginning; the whole is read from the session file when it is shown. -1: whole.
    qsizetype pagedChars = -1;
    /// A tool's: its bytes, and whether it was loaded with ToolSearch or is deferred (named in
    /// ToolSearch's listing only: not in the request, position 0).
    QString state;
    bool deferred = false;

    friend bool operator==(const ContextItem &, const ContextItem &) = default;
};

/// What the user chose to change about the context, as the context view shows it: tool
/// outputs removed from future requests (by their call id) and messages kept verbatim through
/// compactions (by their index in the conversation). Whoever applies them keeps this state;
/// the view only shows it and asks for changes. The same fields as the compaction's
/// AgentCore::ContextEdits (another branch), which replaces it once both are merged.
struct ContextEdits
{
    QSet<QString> droppedToolOutputs;
    QSet<qsizetype> pinnedMessages;
    friend bool operator==(const ContextEdits &, const ContextEdits &) = default;
};

/// What fills one conversation's context window, item by item: a plain value for the context
/// view, built from the session's ContextMeter.
struct ContextSnapshot
{
    Q_DECLARE_TR_FUNCTIONS(ContextSnapshot)
public:
    QList<ContextItem> items; ///< in request order
    qint64 total = 0;         ///< ContextMeter::tokens(): what the status bar shows
    std::optional<qint64> window;
    double calibration = 1; ///< TokenCalibration::ratio()
    int calibrationReplies = 0;

    /// Items of \a meter's context; \a instructions and \a skills (the skills' part of the
    /// prompt, AgentCore::Skills::promptSection()) are shown apart from the system prompt that
    /// holds them. Each item's tokens are the meter's calibrated estimate.
    /// What an item of \a message previews: its beginning, as a person reads it.
    static QString previewOf(const AgentCore::Message &message);

    static ContextSnapshot of(const AgentCore::ContextMeter &meter,
                              const QList<AgentCore::InstructionFile> &instructions,
                              std::optional<qint64> window,
                              const QString &skills = {},
                              const QList<AgentCore::ToolOfferEntry> &tools = {});
};

} // namespace Ui
