#pragma once

#include "contextsnapshot.h"

#include <QDialog>

#include <memory>

namespace AgentCore {
class SessionPages;
}

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Ui {

/// What fills the context window: the system prompt, the project instructions, each tool
/// definition and every message and tool output with its tokens, largest first (every column
/// sorts), the total against the window as a bar, and the beginning of the selected item.
/// The user may drop a tool output from future requests or pin a message (kept verbatim
/// through compactions): the dialog only asks (dropRequested, pinRequested) and shows the
/// state it is given (setEdits): a dropped output greyed, "removed from context", a pinned
/// message marked. Everything works by keyboard: the list has the focus, Delete drops,
/// Space pins or unpins, Esc closes. UI thread.
class ContextDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextDialog)
public:
    /// The columns of list(), for tests and sorting.
    enum Column { ItemColumn, KindColumn, TokensColumn, ShareColumn, StateColumn, PositionColumn };

    explicit ContextDialog(QWidget *parent = nullptr);
    ~ContextDialog() override;

    /// Shows \a snapshot, keeping the selected item and the sort order.
    void setSnapshot(const ContextSnapshot &snapshot);
    void setEdits(const ContextEdits &edits);
    /// Whether dropping and pinning can be applied (something acts on the signals); without,
    /// the buttons are disabled and say why.
    void setEditsAvailable(bool available);

    /// Where the session file's paged tool outputs are (AgentCore::CodingSession::pages()):
    /// a paged output's beginning is read from there, off the UI thread, when it is selected.
    void setPages(std::shared_ptr<const AgentCore::SessionPages> pages);

    const ContextSnapshot &snapshot() const { return m_snapshot; }
    /// The preview of the selected item as shown (a paged one's once read).
    QString previewText() const;
    QTreeWidget *list() const { return m_list; }
    /// The item of a row of list().
    const ContextItem *itemOf(const QTreeWidgetItem *row) const;
    QString totalText() const;

signals:
    /// Remove the output of tool call \a toolCallId from future requests.
    void dropRequested(const QString &toolCallId);
    /// Keep message \a messageIndex verbatim (\a pinned), or no longer (false).
    void pinRequested(qsizetype messageIndex, bool pinned);

private:
    void rebuild();
    void updateRow(QTreeWidgetItem *row);
    void selectionChanged();
    void dropSelected();
    void pinSelected();
    void loadPreview(const ContextItem &item);

    ContextSnapshot m_snapshot;
    ContextEdits m_edits;
    bool m_editsAvailable = true;
    QLabel *m_total = nullptr;
    QProgressBar *m_bar = nullptr;
    QLabel *m_note = nullptr;
    QTreeWidget *m_list = nullptr;
    QLabel *m_previewTitle = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QPushButton *m_drop = nullptr;
    QPushButton *m_pin = nullptr;
    std::shared_ptr<const AgentCore::SessionPages> m_pages;
    QString m_loadedId; ///< the paged output last read, and its preview
    QString m_loadedPreview;
    quint64 m_previewLoad = 0; ///< the selection's load: one that comes back for another is dropped
};

} // namespace Ui
