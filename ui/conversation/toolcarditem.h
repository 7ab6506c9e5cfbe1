#pragma once

#include "conversationitem.h"
#include "lineblock.h"

#include <loop/agenttypes.h>

#include <QImage>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace AgentCore {
class SessionPages;
}

namespace Ui {

/// One tool call: name and key argument, a spinner and clock while it runs, its output (live
/// for Bash, capped to the first and last lines until expanded) or its error, Edit and Write
/// diffs with coloured +/- lines, and the remaining details behind a toggle. A call the user
/// stopped (details.aborted) keeps the output it had and says "stopped". Pictures a tool returned
/// (an MCP server's screenshot) are shown below its output, scaled down, as the model got them.
class ToolCardItem : public ConversationItem
{
public:
    enum class State {
        Pending, ///< the model is still writing the call, or it waits for its turn
        Running,
        Succeeded,
        Failed,
        NotRun,  ///< the run ended before the call was executed
        Stopped, ///< the user stopped it while it ran: its output until then stays
    };

    ToolCardItem(const QString &toolCallId, const QString &toolName);

    Kind kind() const override { return Kind::ToolCard; }
    QString plainText() const override;
    /// How the header names \a toolName: an MCP tool (mcp__server__tool) as "server › tool".
    static QString displayName(const QString &toolName);

    QString toolCallId() const { return m_toolCallId; }
    QString toolName() const { return m_toolName; }
    const QJsonObject &arguments() const { return m_arguments; }
    State state() const { return m_state; }
    /// The argument that says what the call is about: command, pattern or path.
    QString keyArgument() const;
    /// A tool that is not built in (an MCP server's): its arguments as the card shows them,
    /// all of them (ToolArgumentsText), capped while collapsed; empty for the built-in tools,
    /// whose header names what they act on.
    QString argumentsText() const { return m_argumentLines.visibleText(); }
    /// The output or diff as shown (capped while collapsed).
    QString outputText() const { return m_output.visibleText(); }
    bool hasDiff() const { return m_hasDiff; }
    /// An output that is not a diff, whole or paged.
    bool hasOutput() const { return !m_hasDiff && (!m_output.isEmpty() || isPaged()); }
    /// The user edited the proposed change before it was applied (the result's "userEdited"):
    /// the header says "applied with your changes", and the diff is what landed.
    bool isUserEdited() const { return m_userEdited; }
    /// The pictures of the result, as shown (at most maxPictureSize); a null image for one
    /// that could not be read.
    const QList<QImage> &pictures() const { return m_pictures; }
    static constexpr QSize maxPictureSize{480, 240};
    /// What the header says on the right: "waiting", "not run", "stopped", or the time taken.
    QString stateText(qint64 nowMs) const;

    void setArguments(const QJsonObject &arguments);
    void setRunning(qint64 nowMs);
    /// Output so far (the partial result of tool_execution_update).
    void setPartialResult(const AgentCore::ToolResult &partial);
    void setResult(const AgentCore::ToolResult &result, qint64 nowMs);
    void setNotRun();
    /// A hook ran for this call (PreToolUse, PostToolUse): \a summary ("PreToolUse ./check.sh:
    /// blocked (exit 2), 40 ms") is listed in the details, \a output below it.
    void addHookRun(const QString &summary, const QString &output);
    int hookRunCount() const { return int(m_hookRuns.size()); }
    /// The details as shown (the hooks first, then the result's; capped while collapsed).
    QString detailsShownText() const { return m_details.visibleText(); }
    /// Expanding the output of a paged card (isPaged()) asks for its whole text: the card
    /// says it is loading until setLoaded() or setLoadFailed(); folding it shows the preview
    /// again and drops the whole text.
    void setOutputExpanded(bool expanded);
    bool isOutputExpanded() const { return m_output.isExpanded() || m_page == Page::Loading; }
    void setDetailsExpanded(bool expanded);

    /// Where the card's output is (AgentCore::SessionPages): whole in the card, or only its
    /// beginning with the whole text in the session file (a stub's preview), being loaded,
    /// loaded (the card expanded), or failed to load (the error shows in its place).
    enum class Page { Whole, Preview, Loading, Loaded, Failed };
    Page page() const { return m_page; }
    bool isPaged() const { return m_pagedChars >= 0; }
    /// The whole output's length in characters (a stub's pagedChars); -1 when not paged.
    qsizetype pagedChars() const { return m_pagedChars; }
    /// After setResult() of a stub (AgentCore::Message::pagedChars): its content is the
    /// preview, \a pagedChars the whole text's length.
    void setPaged(qsizetype pagedChars);
    /// The card holds a whole output long enough to page (SessionPages::pageAbove): what
    /// cutToPreview() would drop.
    bool holdsLargeOutput() const;
    /// Drops the whole output for its preview (SessionPages::stub), once the session file
    /// holds it; false when there is nothing to cut or the output is shown expanded. With
    /// \a pages (the file's index), the card keeps the preview the session's histories share
    /// (SessionPages::stubOf) rather than a copy of its own.
    bool cutToPreview(const AgentCore::SessionPages *pages = nullptr);
    /// Non-zero once: the ticket of a load the card wants (its output was expanded); the
    /// caller loads it and hands it back with setLoaded() or setLoadFailed().
    quint64 takeLoadRequest();
    /// The ticket of the load the card waits for; 0 when it waits for none. A load that
    /// comes back for another ticket (the card was folded, or replaced) is dropped.
    quint64 loadTicket() const { return m_page == Page::Loading ? m_loadTicket : 0; }
    /// A paged output read back whole (SessionPages::load), its pictures decoded: made off
    /// the UI thread, so that the card only swaps its text in.
    struct LoadedOutput
    {
        QString text;
        bool isError = false;
        QList<QImage> pictures;
        QStringList pictureNames;
    };
    /// The pictures of \a content decoded at most maxPictureSize, and their names; any thread.
    static void readPictures(const QList<AgentCore::ContentBlock> &content,
                             QList<QImage> *pictures,
                             QStringList *names);
    /// false (nothing changes) unless the card waits for \a ticket.
    bool setLoaded(quint64 ticket, const LoadedOutput &output);
    bool setLoadFailed(quint64 ticket, const QString &error);
    /// The whole output as the tool returned it when the card holds it (not a preview).
    std::optional<QString> wholeOutput() const;
    /// The characters of output the card holds (a preview's, once paged).
    qsizetype heldOutputChars() const { return m_output.givenText().size(); }
    /// The output the card holds (a preview's, once paged), shared.
    const QString &heldOutput() const { return m_output.givenText(); }
    /// The output's "show all" row, in item coordinates once laid out; empty without one.
    QRect outputToggleRect() const { return m_geometry.outputToggle; }

    void paint(QPainter *painter,
               const QRect &clip,
               const ConversationStyle &style,
               qint64 nowMs) const override;
    bool click(QPoint pos) override;
    bool isClickable(QPoint pos) const override;
    bool isAnimating() const override { return m_state == State::Running; }

protected:
    int estimateHeight(int width, const ConversationStyle &style) const override;
    int doLayout(int width, const ConversationStyle &style) override;
    void releaseLayout() override;
    /// The state's icon (a spinner, a check, a cross, a stop square) in \a rect.
    void paintStatus(QPainter *painter,
                     const QRect &rect,
                     const ConversationStyle &style,
                     qint64 nowMs) const;

private:
    /// Where everything goes, in item coordinates.
    struct Geometry
    {
        QRect card;
        QRect header;
        QRect arguments;
        QRect argumentsToggle;
        QRect output;
        QRect outputToggle;
        QList<QRect> pictures;
        QRect detailsHeader;
        QRect details;
        QRect detailsToggle;
    };

    Geometry computeGeometry(int width, const ConversationStyle &style) const;
    void paintHeader(QPainter *painter, const ConversationStyle &style, qint64 nowMs) const;
    QString elapsedText(qint64 nowMs) const;
    /// The output lines of a result's text, styled for the tool (an error, a file's code).
    void showOutputText(const QString &text, bool isError, bool stopped);
    void showPreview();
    QString pagedLabel() const;

    QString m_toolCallId;
    QString m_toolName;
    QJsonObject m_arguments;
    LineBlock m_argumentLines;
    State m_state = State::Pending;
    qint64 m_startMs = -1;
    qint64 m_endMs = -1;
    LineBlock m_output;
    LineBlock m_details;
    bool m_hasDiff = false;
    bool m_userEdited = false;
    int m_additions = 0;
    int m_deletions = 0;
    bool m_detailsExpanded = false;
    QString m_resultDetails; ///< the result's details, before the hooks' lines
    QStringList m_hookRuns;  ///< one entry per hook that ran, with its output
    QList<QImage> m_pictures;
    QStringList m_pictureNames; ///< "image/png, 640 × 480": for plainText() and unreadable ones

    Geometry m_geometry;

    Page m_page = Page::Whole;
    qsizetype m_pagedChars = -1;
    QString m_preview; ///< a paged output's beginning, shown while folded
    bool m_previewIsError = false;
    bool m_stopped = false; ///< details.aborted: the output is what ran until the stop
    quint64 m_loadTicket = 0;
    bool m_loadRequested = false;
};

} // namespace Ui
