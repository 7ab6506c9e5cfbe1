#pragma once

#include <context/compactionplan.h>

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace Ui {

/// "Compact now": shows what a compaction would summarise and what it would keep verbatim
/// (AgentCore::planCompaction), with optional instructions for the summary ("keep the API
/// design discussion"), before anything happens. Compact emits compactRequested() and
/// accepts; the dialog itself changes nothing. Compact is disabled, with the reason in the
/// dialog, when there is nothing to compact yet or while the agent works (a compaction made
/// now is appended while idle, see AgentCore::ContextManager::compactNow).
class CompactDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompactDialog)
public:
    explicit CompactDialog(QWidget *parent = nullptr);

    /// The preview: planCompaction(conversation, edits, keepRecentTokens).
    void setConversation(const QList<AgentCore::Message> &conversation,
                         const AgentCore::ContextEdits &edits,
                         qint64 keepRecentTokens);
    /// The preview as a value (nullopt: nothing can be compacted yet).
    void setPlan(const std::optional<AgentCore::CompactionPlan> &plan);
    /// While the agent works (or a summary is being written), Compact waits: \a reason says why
    /// (empty: it may go ahead).
    void setBlockedReason(const QString &reason);

    QString instructions() const;
    /// "42 messages, about 12.3k tokens" for each side; empty without a plan.
    QString summarisedFigures() const;
    QString keptFigures() const;
    /// Why Compact is disabled, as shown; empty when it is enabled.
    QString disabledReason() const;
    QPushButton *compactButton() const { return m_compact; }
    QLineEdit *instructionsEdit() const { return m_instructions; }
    QListWidget *summarisedList() const { return m_summarisedList; }
    QListWidget *keptList() const { return m_keptList; }

    /// One line for \a message in the lists: who said it and its first line.
    static QString describe(const AgentCore::Message &message);

signals:
    /// The user chose Compact, with what the summary must keep (may be empty).
    void compactRequested(const QString &instructions);

private:
    void update();

    std::optional<AgentCore::CompactionPlan> m_plan;
    QString m_blockedReason;
    QLineEdit *m_instructions = nullptr;
    QLabel *m_summarisedHeading = nullptr;
    QListWidget *m_summarisedList = nullptr;
    QLabel *m_keptHeading = nullptr;
    QListWidget *m_keptList = nullptr;
    QLabel *m_reason = nullptr;
    QPushButton *m_compact = nullptr;
};

} // namespace Ui
