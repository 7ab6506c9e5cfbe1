#pragma once

#include <ai/types.h>
#include <coding/customcommand.h>

#include <QPlainTextEdit>
#include <QPointer>

#include <optional>

QT_BEGIN_NAMESPACE
class QListView;
class QStandardItemModel;
QT_END_NAMESPACE

namespace AgentCore {
struct McpExpansion;
}

namespace Ui {

class ComposerPictures;
class McpCompletions;
class McpExpansionJob;
class RepositoryFiles;

/// The message box at the bottom of a conversation. Grows with its text up to a few lines.
///
/// Idle, Enter sends the text (submitted). While the agent runs, Enter steers the task
/// (steered), Alt+Enter queues a follow-up (followUpQueued) and Esc asks to stop
/// (stopRequested). Shift+Enter always starts a new line. Empty text is never sent; sent text
/// is cleared. The placeholder says what Enter does now.
///
/// `@` at the start of a word opens a list of the repository's files (setRepositoryRoot),
/// filtered as the user types; Tab or Enter puts the chosen path after the `@`, Esc closes the
/// list. The files are listed off the UI thread.
///
/// With MCP servers (setMcpCompletions), `@` also offers their resources as `SERVER:URI`, and
/// `/` at the very start offers their prompts as `/SERVER:PROMPT `. A message naming one of
/// them is expanded before it goes (expandMcpReferences, on a worker thread): meanwhile the box
/// is read-only (fetchingChanged) and Esc cancels; what is sent is the expanded text. When it
/// cannot be expanded nothing is sent, the text stays and sendFailed() says why. Any other
/// message goes at once, as before.
///
/// Pictures pasted (Ctrl+V of image data) or dropped (picture files from a file manager) are
/// not text: they go to pictures(), made ready off the UI thread, shown above the box by a
/// PictureStrip, and sent with the text as its image blocks. A message may be pictures alone.
/// One sent while a picture is still being prepared goes once it is ready. While
/// setPictureRefusal() says why the model cannot take them, a message with pictures is not
/// sent (sendFailed() says why) and stays, pictures and all.
class Composer final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Composer)
public:
    /// At most this many lines are shown before the box scrolls.
    static constexpr int maxVisibleLines = 6;

    explicit Composer(QWidget *parent = nullptr);
    ~Composer() override;

    void setRunning(bool running);
    bool isRunning() const { return m_running; }
    /// A review waits for an answer: the placeholder says which keys answer it (the owner
    /// forwards them, see ConversationPage).
    void setReviewWaiting(bool waiting);

    /// The repository whose files `@` offers; listing them starts now, in the background.
    void setRepositoryRoot(const QString &root);
    /// The file list behind `@` (for the owner to refresh, and for tests).
    RepositoryFiles *repositoryFiles() const { return m_files; }

    /// The MCP servers' resources and prompts to offer; null: none. Not owned.
    void setMcpCompletions(McpCompletions *completions);
    /// The session's custom commands, offered by `/` before the MCP prompts as "/NAME ", with
    /// their argument hints and descriptions. The session expands them when they are sent.
    void setCustomCommands(const QList<AgentCore::CustomCommand> &commands);
    /// Sends the text as Enter does while idle (the Send button).
    void submit();
    /// The message's MCP prompt or resources are being fetched; it goes when they are there.
    bool isFetching() const;
    /// Stops fetching: nothing is sent, the text stays.
    void cancelFetching();

    /// What the `@` or `/` list would put in, in its order (empty when it is closed): paths,
    /// "SERVER:URI" of resources, "/NAME " of custom commands, "/SERVER:PROMPT " of prompts.
    QStringList completions() const;
    /// The details the list shows after each entry (a description), in the same order.
    QStringList completionDetails() const;
    bool isCompletionVisible() const;

    /// The pictures of the message being written (owned by the composer).
    ComposerPictures *pictures() const { return m_pictures; }
    /// Non-empty: the model takes no pictures; a message with pictures is held with this.
    void setPictureRefusal(const QString &refusal) { m_pictureRefusal = refusal; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// \a pictures: the message's image blocks (empty: text alone).
    void submitted(const QString &text, const QList<AgentCore::ContentBlock> &pictures);
    void steered(const QString &text, const QList<AgentCore::ContentBlock> &pictures);
    void followUpQueued(const QString &text, const QList<AgentCore::ContentBlock> &pictures);
    void stopRequested();
    void fetchingChanged(bool fetching);
    /// The message was not sent: its MCP references could not be expanded (\a error says why).
    void sendFailed(const QString &error);

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;

private:
    enum class SendMode { Submit, Steer, FollowUp };
    enum class CompletionKind { Mention, Command };

    bool handleCompletionKey(QKeyEvent *event);
    void send(bool asFollowUp);
    void emitSent(SendMode mode,
                  const QString &text,
                  const QList<AgentCore::ContentBlock> &pictures);
    /// Hands \a source's pictures to pictures(); false when it holds none.
    bool takePictures(const QMimeData *source);
    void onExpanded(const AgentCore::McpExpansion &expansion);
    void updatePlaceholder();
    void updateHeight();
    int heightForLines(int lines) const;

    /// Where the `@` word under the cursor starts (the position after the `@`), or -1.
    int mentionStart() const;
    /// Where the `/` command word at the very start ends before the cursor (1), or -1.
    int commandStart() const;
    void addCompletion(const QString &text,
                       const QString &label,
                       const QString &detail = {},
                       const QString &toolTip = {});
    void updateCompletion(bool mayOpen);
    void showCompletion();
    void hideCompletion();
    void moveCompletionSelection(int delta);
    void acceptCompletion(int row);

    bool m_running = false;
    bool m_reviewWaiting = false;
    RepositoryFiles *m_files = nullptr;
    QListView *m_popup = nullptr;
    QStandardItemModel *m_matches = nullptr;
    CompletionKind m_completionKind = CompletionKind::Mention;
    QPointer<McpCompletions> m_mcp;
    QList<AgentCore::CustomCommand> m_commands;
    McpExpansionJob *m_expansion = nullptr;
    SendMode m_fetchingMode = SendMode::Submit;
    QList<AgentCore::ContentBlock> m_fetchingPictures;
    ComposerPictures *m_pictures = nullptr;
    QString m_pictureRefusal;
    std::optional<bool> m_sendWhenPrepared; // sent while a picture was prepared: asFollowUp
    bool m_insertingCompletion = false;
    bool m_completionDismissed = false; // Esc closed the list: a new listing does not reopen it
};

} // namespace Ui
