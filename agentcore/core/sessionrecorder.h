#pragma once

#include "sessionlog.h"

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QTimer>

#include <memory>

namespace AgentCore {

class Agent;
class PermissionPolicy;
struct AgentEvent;

/// Keeps one conversation's session file up to date while its Agent works: appends each
/// message as it ends, forces the file to disk at each turn end, and appends the session's
/// state whenever it changed: the steering messages not yet taken, the leftover steering
/// (Agent::leftoverSteering) and the follow-up queue (and whether it is paused), as soon as
/// they are accepted; whether a run is going on; the
/// permission mode and the rules the user allowed for this session; and what the window adds
/// (the model, the title, the draft). The answer being streamed is written as a partial record
/// at most once a second, so a crash leaves what the user saw of it.
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
    /// \a state: the state the session was resumed with (empty for a new one); its keys that
    /// the recorder does not own (model, title, ...) are kept.
    SessionRecorder(Agent *agent,
                    std::shared_ptr<PermissionPolicy> policy,
                    QString path,
                    QJsonObject header,
                    QJsonObject state,
                    QObject *parent = nullptr);
    ~SessionRecorder() override;

    QString path() const { return m_path; }
    /// Writes to \a log, already open (and locked) by the window that resumed the session,
    /// instead of opening the file with the first message.
    void adopt(std::unique_ptr<SessionLog> log);
    /// Appends \a messages that are not the Agent's events (interruption()'s repair).
    void record(const QList<Message> &messages);
    /// The state as it would be written now.
    QJsonObject state() const;

    /// Sets a key of the state the window owns ("model", "title"); written at once when the
    /// file exists, else with the first message.
    void setStateValue(const QString &key, const QJsonValue &value);
    /// Something the state is made of changed outside the Agent (the permission mode, a rule).
    void refreshState();

    /// Applies a resumed state to a new Agent and its policy: the follow-up queue and its pause,
    /// the mode and the session's rules. Steering, left over or not yet taken, becomes the
    /// agent's leftover steering: never sent without the user. Problems (a rule that no longer parses) go to \a warnings.
    static void restore(const QJsonObject &state,
                        Agent &agent,
                        PermissionPolicy &policy,
                        QStringList *warnings);

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
    bool ensureOpen();
    void writeStateIfChanged();
    void sync();
    void fail(const QString &message);

    Agent *m_agent;
    std::shared_ptr<PermissionPolicy> m_policy;
    QString m_path;
    QJsonObject m_header;
    QJsonObject m_extra;   // keys the window owns
    QJsonObject m_written; // the last state in the file
    std::unique_ptr<SessionLog> m_log;
    bool m_failed = false;
    bool m_running = false;
    // The answer being streamed: text and thinking blocks by content index.
    std::optional<Message> m_partial;
    QMap<int, ContentBlock> m_partialBlocks;
    QList<qsizetype> m_partialWrittenLengths; // of m_partialBlocks' texts, in order
    bool m_partialDirty = false;
    bool m_partialWritten = false;
    QTimer *m_partialTimer = nullptr;
};

} // namespace AgentCore
