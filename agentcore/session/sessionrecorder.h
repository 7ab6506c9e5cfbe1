#pragma once

#include "sessionlog.h"
#include "sessionresumption.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace AgentCore {

class Agent;
struct AgentEvent;

/// Keeps one conversation's session file up to date while its Agent works: appends each
/// message as it ends, forces the file to disk at each turn end, and appends the session's
/// state whenever it changed: the steering messages not yet taken, the leftover steering
/// (Agent::leftoverSteering) and the follow-up queue (and whether it is paused), as soon as
/// they are accepted; whether a run is going on; the keys other layers own, asked for through
/// a StateSource (the permission mode and the rules the user allowed for this session); and
/// what the window adds (the model, the title, the draft). The answer being streamed is written
/// as a partial record
/// at most once a second, so a crash leaves what the user saw of it; so is the output a
/// running call has shown (a Bash command's, its last maxToolOutputChars) until its result,
/// first after a second, then less and less often (at most every 30 s: an hour of a chatty
/// build adds about 2 MB to the file, not 60).
///
/// The file is created with the first message, so a conversation that never started leaves
/// nothing behind. A write that fails is reported once through failed(); the conversation goes
/// on. Lives on the Agent's thread; \a agent must outlive it (make it the agent's child, or
/// destroy it first).
class SessionRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionRecorder)
public:
    /// Gives the keys of the state another layer owns, as they are now. Asked each time the
    /// state may have changed; its keys override the window's keys of the same name.
    using StateSource = std::function<QJsonObject()>;

    /// \a state: the state the session was resumed with (empty for a new one); its keys that
    /// the recorder does not own (model, title, ...) are kept. \a source may be empty.
    SessionRecorder(Agent *agent,
                    StateSource source,
                    QString path,
                    QJsonObject header,
                    QJsonObject state,
                    QObject *parent = nullptr);
    ~SessionRecorder() override;

    QString path() const { return m_path; }
    /// Where the tool results written from now on are indexed (SessionLog::setPages); they
    /// are kept in tree() as stubs.
    void setPages(std::shared_ptr<SessionPages> pages);
    /// Writes to \a log, already open (and locked) by the window that resumed the session,
    /// instead of opening the file with the first message.
    void adopt(std::unique_ptr<SessionLog> log);
    /// Writes to the session \a resumption took over, beginning with its repair (what closes a
    /// run a crash cut off), before anything else is written.
    void adopt(SessionResumption resumption);
    /// Appends \a messages that are not the Agent's events (interruption()'s repair).
    void record(const QList<Message> &messages);
    /// Appends one finished message of the subagent at \a key (its path joined with "/").
    void recordSubagent(const QString &key, const Message &message);
    /// The state as it would be written now.
    QJsonObject state() const;

    /// At most this much of a running call's output is kept in the file (its end: what the
    /// card showed last), written again as it grows: after a second, then less often.
    static constexpr qsizetype maxToolOutputChars = 16 * 1024;

    /// The session's branches as written (the resumed file's and what was appended since):
    /// every message recorded with its id (SessionLog::appendMessage). Empty while the file's
    /// active leaf is unknown: then nothing can be switched to.
    const SessionTree &tree() const { return m_tree; }
    /// The id of the active branch's last message ("": none yet); nullopt when the branches
    /// are not known (no file yet, or a file adopted without its contents).
    std::optional<QString> activeLeaf() const;
    /// The active branch ends at \a leaf from now on (an id of tree(), or "" for an empty
    /// branch): written at once as a branch record, synced; the next message follows \a leaf.
    /// The agent's history is the caller's to replace. false when \a leaf is unknown or the
    /// file cannot be written (failed() says why).
    bool switchBranch(const QString &leaf);

    /// Sets a key of the state the window owns ("model", "title"); written at once when the
    /// file exists, else with the first message.
    void setStateValue(const QString &key, const QJsonValue &value);
    /// Something the state is made of changed outside the Agent (what the StateSource gives).
    void refreshState();

    /// Applies a resumed state to a new Agent: the follow-up queue and its pause. Steering,
    /// left over or not yet taken, becomes the agent's leftover steering: never sent without
    /// the user. The StateSource's owner restores its own keys.
    static void restore(const QJsonObject &state, Agent &agent);

    /// What closes a run that a crash (or closing the window mid-run) cut off, for a session
    /// resumed by its only writer: an error result for each tool call of the last answer that
    /// has none, the streamed answer that never ended (marked as interrupted), or, when the
    /// run left neither, a note that it did not finish. Empty when the last run ended.
    static QList<Message> interruption(const SessionLog::Contents &contents);

signals:
    /// The file cannot be written; said once per kind of failure, the conversation goes on.
    void failed(const QString &message);

private:
    void onEvent(const AgentEvent &event);
    void notePartial(const AgentEvent &event);
    void writePartial();
    void noteToolOutput(const AgentEvent &event);
    void writeToolOutputs();
    bool ensureOpen();
    /// Appends \a message to the active branch, in the file and in m_tree.
    bool appendToBranch(const Message &message, QString *error);
    void writeStateIfChanged();
    void sync();
    void fail(const QString &message);

    Agent *m_agent;
    StateSource m_source;
    QString m_path;
    QJsonObject m_header;
    QJsonObject m_extra;   // keys the window owns
    QJsonObject m_written; // the last state in the file
    std::unique_ptr<SessionLog> m_log;
    std::shared_ptr<SessionPages> m_pages;
    SessionTree m_tree; // every branch written, kept as messages are appended
    bool m_failed = false;
    bool m_running = false;
    // The answer being streamed: text and thinking blocks by content index.
    std::optional<Message> m_partial;
    QMap<int, ContentBlock> m_partialBlocks;
    QList<qsizetype> m_partialWrittenLengths; // of m_partialBlocks' texts, in order
    bool m_partialDirty = false;
    bool m_partialWritten = false;
    QTimer *m_partialTimer = nullptr;
    QHash<QString, QString> m_toolOutputs; // running calls' output not yet written, by call id
    QTimer *m_toolOutputTimer = nullptr;   // its interval grows with each write
};

} // namespace AgentCore
