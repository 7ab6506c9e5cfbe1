#include "composer.h"

#include "composerpictures.h"
#include "mcp/mcpcompletions.h"
#include "mcp/mcpexpansionjob.h"
#include "repositoryfiles.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QKeyEvent>
#include <QListView>
#include <QMimeData>
#include <QPainter>
#include <QScreen>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QTextBlock>

#include <algorithm>

namespace Ui {

namespace {

constexpr int maxCompletions = 50;
constexpr int visibleCompletions = 10;
// Resources among the files of an `@` that names no server yet: the files come first.
constexpr int resourcesAmongFiles = 10;
constexpr int insertRole = Qt::UserRole;
constexpr int detailRole = Qt::UserRole + 1;

/// An entry as its reference, then its detail (a resource's name, a prompt's description)
/// dimmed after it; the detail is cut first when the row is too narrow.
class CompletionDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter,
               const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        const QString detail = index.data(detailRole).toString();
        if (detail.isEmpty()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const QString label = item.text;
        item.text.clear();
        const QWidget *widget = item.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);
        const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget)
                               .adjusted(3, 0, -3, 0);
        const QFontMetrics metrics(item.font);
        const int gap = metrics.horizontalAdvance(QStringLiteral("   "));
        // horizontalAdvance() rounds: a label given just that is elided by elidedText().
        const int labelWidth = std::min(metrics.horizontalAdvance(label) + 2,
                                        std::max(rect.width() * 3 / 5,
                                                 rect.width() - gap
                                                     - metrics.horizontalAdvance(detail)));
        const bool selected = item.state & QStyle::State_Selected;
        const QPalette::ColorGroup group = item.state & QStyle::State_Enabled ? QPalette::Normal
                                                                              : QPalette::Disabled;
        painter->save();
        painter->setFont(item.font);
        painter->setPen(
            item.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
        painter->drawText(QRect(rect.left(), rect.top(), labelWidth, rect.height()),
                          Qt::AlignVCenter | Qt::AlignLeft,
                          metrics.elidedText(label, Qt::ElideMiddle, labelWidth));
        const QRect detailRect(rect.left() + labelWidth + gap,
                               rect.top(),
                               std::max(0, rect.width() - labelWidth - gap),
                               rect.height());
        painter->setPen(
            item.palette.color(group,
                               selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
        painter->drawText(detailRect,
                          Qt::AlignVCenter | Qt::AlignLeft,
                          metrics.elidedText(detail, Qt::ElideRight, detailRect.width()));
        painter->restore();
    }
};

bool isEnter(const QKeyEvent *event)
{
    return event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
}

} // namespace

Composer::Composer(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_files(new RepositoryFiles(this))
    , m_popup(new QListView(this))
    , m_matches(new QStandardItemModel(this))
    , m_expansion(new McpExpansionJob(this))
    , m_pictures(new ComposerPictures(this))
{
    setObjectName(QStringLiteral("composer"));
    setTabChangesFocus(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    document()->setDocumentMargin(6);

    // A tool window that never takes the focus: the user keeps typing in the composer, which
    // steers the list with the arrow keys.
    m_popup->setObjectName(QStringLiteral("mentionPopup"));
    m_popup->setWindowFlags(Qt::ToolTip | Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus);
    m_popup->setAttribute(Qt::WA_ShowWithoutActivating);
    m_popup->setFocusPolicy(Qt::NoFocus);
    m_popup->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_popup->setSelectionMode(QAbstractItemView::SingleSelection);
    m_popup->setUniformItemSizes(true);
    m_popup->setTextElideMode(Qt::ElideMiddle);
    m_popup->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_popup->setModel(m_matches);
    m_popup->setItemDelegate(new CompletionDelegate(m_popup));
    connect(m_popup, &QListView::clicked, this, [this](const QModelIndex &index) {
        acceptCompletion(index.row());
    });

    connect(m_files, &RepositoryFiles::pathsChanged, this, [this] { updateCompletion(true); });
    connect(m_expansion, &McpExpansionJob::finished, this, &Composer::onExpanded);
    // A message sent while a picture was being prepared goes once it is there.
    connect(m_pictures, &ComposerPictures::preparingChanged, this, [this](bool preparing) {
        if (!preparing && m_sendWhenPrepared)
            send(*std::exchange(m_sendWhenPrepared, std::nullopt));
    });
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        m_completionDismissed = false;
        updateCompletion(true);
        updateHeight();
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        if (isCompletionVisible())
            updateCompletion(false);
    });
    connect(document()->documentLayout(),
            &QAbstractTextDocumentLayout::documentSizeChanged,
            this,
            &Composer::updateHeight);

    updatePlaceholder();
    updateHeight();
}

Composer::~Composer() = default;

void Composer::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    updatePlaceholder();
}

void Composer::setReviewWaiting(bool waiting)
{
    if (m_reviewWaiting == waiting)
        return;
    m_reviewWaiting = waiting;
    updatePlaceholder();
}

void Composer::setRepositoryRoot(const QString &root)
{
    m_files->setRoot(root);
}

void Composer::setMcpCompletions(McpCompletions *completions)
{
    if (m_mcp == completions)
        return;
    if (m_mcp)
        m_mcp->disconnect(this);
    m_mcp = completions;
    // A server became ready or its list changed: an open list follows.
    if (m_mcp) {
        connect(m_mcp, &McpCompletions::changed, this, [this] { updateCompletion(true); });
    }
}

void Composer::setCustomCommands(const QList<AgentCore::CustomCommand> &commands)
{
    m_commands = commands;
    updateCompletion(false);
}

void Composer::submit()
{
    send(false);
}

bool Composer::isFetching() const
{
    return m_expansion->isRunning();
}

void Composer::cancelFetching()
{
    if (!isFetching())
        return;
    m_expansion->cancel();
    setReadOnly(false);
    emit fetchingChanged(false);
}

QStringList Composer::completions() const
{
    QStringList texts;
    for (int row = 0; isCompletionVisible() && row < m_matches->rowCount(); ++row)
        texts.append(m_matches->index(row, 0).data(insertRole).toString());
    return texts;
}

QStringList Composer::completionDetails() const
{
    QStringList details;
    for (int row = 0; isCompletionVisible() && row < m_matches->rowCount(); ++row)
        details.append(m_matches->index(row, 0).data(detailRole).toString());
    return details;
}

bool Composer::isCompletionVisible() const
{
    return m_popup->isVisible();
}

QSize Composer::sizeHint() const
{
    return {QPlainTextEdit::sizeHint().width(), height()};
}

QSize Composer::minimumSizeHint() const
{
    return {QPlainTextEdit::minimumSizeHint().width(), heightForLines(1)};
}

bool Composer::event(QEvent *event)
{
    // Tab would move the focus before keyPressEvent sees it.
    if (event->type() == QEvent::KeyPress && isCompletionVisible()) {
        auto keyEvent = static_cast<QKeyEvent *>(event);
        if (keyEvent->key() == Qt::Key_Tab && handleCompletionKey(keyEvent))
            return true;
    }
    return QPlainTextEdit::event(event);
}

void Composer::keyPressEvent(QKeyEvent *event)
{
    if (isCompletionVisible() && handleCompletionKey(event))
        return;

    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    if (isFetching()) {
        // Read-only meanwhile; Esc takes the message back, Enter must not add a line.
        if (event->key() == Qt::Key_Escape && modifiers == Qt::NoModifier)
            cancelFetching();
        if (event->key() == Qt::Key_Escape || isEnter(event)) {
            event->accept();
            return;
        }
    }
    if (isEnter(event)) {
        if (modifiers & Qt::ShiftModifier) {
            // A plain newline, not the line separator QPlainTextEdit puts for Shift+Enter.
            insertPlainText(QStringLiteral("\n"));
        } else {
            send(m_running && (modifiers & Qt::AltModifier));
        }
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape && modifiers == Qt::NoModifier && m_running) {
        emit stopRequested();
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void Composer::focusOutEvent(QFocusEvent *event)
{
    hideCompletion();
    QPlainTextEdit::focusOutEvent(event);
}

bool Composer::handleCompletionKey(QKeyEvent *event)
{
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    switch (event->key()) {
    case Qt::Key_Up:
        moveCompletionSelection(-1);
        return true;
    case Qt::Key_Down:
        moveCompletionSelection(1);
        return true;
    case Qt::Key_PageUp:
        moveCompletionSelection(-visibleCompletions);
        return true;
    case Qt::Key_PageDown:
        moveCompletionSelection(visibleCompletions);
        return true;
    case Qt::Key_Escape:
        m_completionDismissed = true; // until the text changes, even when a new listing arrives
        hideCompletion();
        return true;
    case Qt::Key_Tab:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (modifiers != Qt::NoModifier)
            return false;
        acceptCompletion(m_popup->currentIndex().isValid() ? m_popup->currentIndex().row() : 0);
        return true;
    default:
        return false;
    }
}

void Composer::send(bool asFollowUp)
{
    if (isFetching())
        return;
    const QString text = toPlainText().trimmed();
    if (text.isEmpty() && m_pictures->isEmpty() && !m_pictures->isPreparing())
        return;
    if (m_pictures->isPreparing()) {
        m_sendWhenPrepared = asFollowUp;
        return;
    }
    if (!m_pictures->isEmpty() && !m_pictureRefusal.isEmpty()) {
        emit sendFailed(m_pictureRefusal); // held: the text and the pictures stay
        return;
    }
    const QList<AgentCore::ContentBlock> pictures = m_pictures->blocks();
    const SendMode mode = !m_running   ? SendMode::Submit
                          : asFollowUp ? SendMode::FollowUp
                                       : SendMode::Steer;
    // Only a message naming a server's prompt or resource waits for it; any other goes now.
    // Steering and follow-ups are expanded the same way, when they are sent: a follow-up is
    // queued with the prompt's and resources' text as they were then.
    if (m_mcp && m_mcp->references(text)) {
        QString problem;
        const auto clients = m_mcp->clientsFor(text, &problem);
        if (!problem.isEmpty()) {
            emit sendFailed(problem);
            return;
        }
        hideCompletion();
        m_fetchingMode = mode;
        m_fetchingPictures = pictures;
        setReadOnly(true);
        m_expansion->start(text, clients);
        emit fetchingChanged(true);
        return;
    }
    clear();
    m_pictures->clear();
    emitSent(mode, text, pictures);
}

void Composer::emitSent(SendMode mode,
                        const QString &text,
                        const QList<AgentCore::ContentBlock> &pictures)
{
    switch (mode) {
    case SendMode::Submit:
        emit submitted(text, pictures);
        break;
    case SendMode::Steer:
        emit steered(text, pictures);
        break;
    case SendMode::FollowUp:
        emit followUpQueued(text, pictures);
        break;
    }
}

bool Composer::takePictures(const QMimeData *source)
{
    // Picture files first (a file manager's drop or copy); other files stay text, their paths.
    QStringList files;
    for (const QUrl &url : source->urls()) {
        if (url.isLocalFile() && !AgentCore::pictureTypeOfFileName(url.toLocalFile()).isEmpty())
            files.append(url.toLocalFile());
    }
    if (!files.isEmpty()) {
        for (const QString &file : std::as_const(files))
            m_pictures->addFile(file);
        return true;
    }
    // Text wins over a picture of it: a spreadsheet's cells come as both.
    if (source->hasText() && !source->text().trimmed().isEmpty())
        return false;
    //: The name of a picture pasted into the message box from the clipboard
    const QString pasted = tr("Pasted picture");
    for (const char *type : {"image/png", "image/jpeg", "image/gif", "image/webp"}) {
        if (source->hasFormat(QLatin1String(type))) {
            m_pictures->addData(source->data(QLatin1String(type)), pasted);
            return true;
        }
    }
    if (source->hasImage()) {
        m_pictures->addImage(qvariant_cast<QImage>(source->imageData()), pasted);
        return true;
    }
    return false;
}

bool Composer::canInsertFromMimeData(const QMimeData *source) const
{
    const QList<QUrl> urls = source->urls();
    const bool pictureFiles = std::any_of(urls.cbegin(), urls.cend(), [](const QUrl &url) {
        return url.isLocalFile() && !AgentCore::pictureTypeOfFileName(url.toLocalFile()).isEmpty();
    });
    return pictureFiles || source->hasImage() || QPlainTextEdit::canInsertFromMimeData(source);
}

void Composer::insertFromMimeData(const QMimeData *source)
{
    if (!isReadOnly() && takePictures(source))
        return;
    QPlainTextEdit::insertFromMimeData(source);
}

void Composer::onExpanded(const AgentCore::McpExpansion &expansion)
{
    setReadOnly(false);
    emit fetchingChanged(false);
    if (!expansion.ok()) {
        emit sendFailed(expansion.error);
        return;
    }
    clear();
    m_pictures->clear();
    // What the model gets, and what the conversation shows: the prompt's text and the
    // resources attached.
    emitSent(m_fetchingMode, expansion.text, std::exchange(m_fetchingPictures, {}));
}

void Composer::updatePlaceholder()
{
    // Esc does not stop while a review waits: the placeholder must not promise it.
    const QString full
        = m_reviewWaiting
              ? tr("A review waits: Ctrl+Enter allows · Esc to deny with feedback · Ctrl+. stops")
          : m_running
              ? tr("Enter steers the running task · Alt+Enter queues a follow-up · Esc stops")
              : tr("Ask the agent · Enter sends · Shift+Enter adds a line · @ mentions a file");
    // The box is one line high while empty: a hint that wraps is cut in half. In a narrow
    // window the hints go from the end, whole, until the rest fits.
    const int room = viewport()->width() - int(2 * document()->documentMargin()) - 4;
    const QString separator = QStringLiteral(" · ");
    QStringList parts = full.split(separator);
    QString shown = full;
    while (parts.size() > 1 && fontMetrics().horizontalAdvance(shown) > room) {
        parts.removeLast();
        shown = parts.join(separator);
    }
    if (shown != placeholderText())
        setPlaceholderText(shown);
}

void Composer::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updatePlaceholder();
}

int Composer::heightForLines(int lines) const
{
    const QMargins margins = contentsMargins();
    return lines * fontMetrics().lineSpacing() + int(2 * document()->documentMargin())
           + margins.top() + margins.bottom() + 2;
}

void Composer::updateHeight()
{
    // QPlainTextEdit's document layout measures its height in lines.
    const int textLines = int(document()->documentLayout()->documentSize().height());
    const int lines = std::clamp(textLines, 1, maxVisibleLines);
    // A scroll bar only once the box stopped growing: before, it would only eat the width.
    setVerticalScrollBarPolicy(textLines > maxVisibleLines ? Qt::ScrollBarAsNeeded
                                                           : Qt::ScrollBarAlwaysOff);
    const int height = heightForLines(lines);
    if (height != this->height()) {
        setFixedHeight(height);
        updateGeometry();
    }
}

int Composer::mentionStart() const
{
    const QTextCursor cursor = textCursor();
    if (cursor.hasSelection())
        return -1;
    const QString line = cursor.block().text().left(cursor.positionInBlock());
    for (qsizetype i = line.size() - 1; i >= 0; --i) {
        const QChar c = line.at(i);
        if (c.isSpace())
            return -1;
        if (c == QLatin1Char('@')) {
            if (i > 0 && !line.at(i - 1).isSpace())
                return -1; // an e-mail address or a decorator, not a mention
            return cursor.block().position() + int(i) + 1;
        }
    }
    return -1;
}

int Composer::commandStart() const
{
    const QTextCursor cursor = textCursor();
    if ((!m_mcp && m_commands.isEmpty()) || cursor.hasSelection() || cursor.blockNumber() != 0)
        return -1;
    const QString line = cursor.block().text().left(cursor.positionInBlock());
    if (!line.startsWith(QLatin1Char('/')))
        return -1;
    if (std::any_of(line.cbegin(), line.cend(), [](QChar c) { return c.isSpace(); }))
        return -1; // the prompt's arguments are being typed
    return 1;
}

void Composer::addCompletion(const QString &text,
                             const QString &label,
                             const QString &detail,
                             const QString &toolTip)
{
    auto item = new QStandardItem(label);
    item->setData(text, insertRole);
    item->setData(detail, detailRole);
    item->setData(detail.isEmpty() ? label : label + QStringLiteral(", ") + detail,
                  Qt::AccessibleTextRole);
    if (!toolTip.isEmpty())
        item->setToolTip(toolTip);
    item->setEditable(false);
    m_matches->appendRow(item);
}

void Composer::updateCompletion(bool mayOpen)
{
    if (m_insertingCompletion)
        return;
    CompletionKind kind = CompletionKind::Mention;
    int start = mentionStart();
    if (start < 0) {
        kind = CompletionKind::Command;
        start = commandStart();
    }
    if (start < 0 || !hasFocus() || isFetching()) {
        hideCompletion();
        return;
    }
    if (!isCompletionVisible() && (!mayOpen || m_completionDismissed))
        return;
    QTextCursor cursor = textCursor();
    cursor.setPosition(start, QTextCursor::KeepAnchor);
    const QString typed = cursor.selectedText();
    m_matches->clear();
    m_completionKind = kind;
    if (kind == CompletionKind::Command) {
        // The custom commands first, those starting with what was typed before the others.
        QList<const AgentCore::CustomCommand *> starting;
        QList<const AgentCore::CustomCommand *> containing;
        for (const AgentCore::CustomCommand &command : std::as_const(m_commands)) {
            if (command.name.startsWith(typed, Qt::CaseInsensitive))
                starting.append(&command);
            else if (command.name.contains(typed, Qt::CaseInsensitive))
                containing.append(&command);
        }
        for (const AgentCore::CustomCommand *command : starting + containing) {
            if (m_matches->rowCount() >= maxCompletions)
                break;
            QString label = u'/' + command->name;
            if (!command->argumentHint.isEmpty())
                label += u' ' + command->argumentHint;
            //: The tool tip of a custom command in the composer's / list: where it comes from
            const QString origin = command->scope == AgentCore::CustomCommand::Scope::User
                                       ? tr("Your command: %1").arg(command->path)
                                       : tr("This repository's command: %1").arg(command->path);
            addCompletion(u'/' + command->name + u' ',
                          label,
                          command->description,
                          command->description.isEmpty()
                              ? origin
                              : QString(command->description + u'\n' + origin));
        }
        if (m_mcp) {
            for (const McpCompletion &prompt : m_mcp->prompts(typed, maxCompletions))
                addCompletion(prompt.text, prompt.label, prompt.detail, prompt.toolTip);
        }
    } else {
        if (!isCompletionVisible() && !m_files->isListing())
            m_files->refresh(); // shows the last list now, the fresh one when it is ready
        const QList<McpCompletion> resources = m_mcp ? m_mcp->resources(typed, maxCompletions)
                                                     : QList<McpCompletion>();
        const QStringList paths = RepositoryFiles::match(m_files->paths(), typed, maxCompletions);
        // `@server:` is a server's: its resources first. Otherwise the files, and a few
        // resources after them.
        const bool namesServer = typed.contains(QLatin1Char(':')) && !resources.isEmpty();
        const qsizetype shownResources
            = std::min<qsizetype>(resources.size(),
                                  namesServer ? maxCompletions
                                              : std::max<qsizetype>(resourcesAmongFiles,
                                                                    maxCompletions - paths.size()));
        const qsizetype shownPaths = std::min<qsizetype>(paths.size(),
                                                         maxCompletions - shownResources);
        const auto addResources = [&] {
            for (const McpCompletion &resource : resources.first(shownResources))
                addCompletion(resource.text, resource.label, resource.detail, resource.toolTip);
        };
        if (namesServer)
            addResources();
        for (const QString &path : paths.first(shownPaths))
            addCompletion(path, path);
        if (!namesServer)
            addResources();
    }
    if (m_matches->rowCount() == 0) {
        hideCompletion();
        return;
    }
    m_popup->setCurrentIndex(m_matches->index(0, 0));
    showCompletion();
}

void Composer::showCompletion()
{
    const int rows = std::min<int>(int(m_matches->rowCount()), visibleCompletions);
    const int rowHeight = std::max(m_popup->sizeHintForRow(0), fontMetrics().height());
    const int frame = 2 * m_popup->frameWidth();
    // Resources and prompts have a detail after their reference: room for it.
    const bool details = !m_matches->index(0, 0).data(detailRole).toString().isEmpty()
                         || !m_matches->index(rows - 1, 0).data(detailRole).toString().isEmpty();
    const QSize size(std::max(std::min(width(), details ? 680 : 520), 280),
                     rows * rowHeight + frame);

    // Above the cursor: the composer sits at the bottom of the window.
    const QRect caret = cursorRect();
    QPoint topLeft = viewport()->mapToGlobal(QPoint(caret.left(), caret.top() - size.height()));
    const QScreen *screen = this->screen();
    if (screen) {
        const QRect available = screen->availableGeometry();
        if (topLeft.y() < available.top())
            topLeft.setY(viewport()->mapToGlobal(caret.bottomLeft()).y());
        topLeft.setX(std::clamp(topLeft.x(), available.left(), available.right() - size.width()));
    }
    m_popup->setGeometry(QRect(topLeft, size));
    if (!m_popup->isVisible())
        m_popup->show();
}

void Composer::hideCompletion()
{
    if (m_popup->isVisible())
        m_popup->hide();
}

void Composer::moveCompletionSelection(int delta)
{
    const int count = m_matches->rowCount();
    if (count == 0)
        return;
    const int current = m_popup->currentIndex().isValid() ? m_popup->currentIndex().row() : 0;
    m_popup->setCurrentIndex(m_matches->index(std::clamp(current + delta, 0, count - 1), 0));
}

void Composer::acceptCompletion(int row)
{
    // A command replaces its `/` too: the entry is the whole "/SERVER:PROMPT ".
    const int start = m_completionKind == CompletionKind::Command ? commandStart() - 1
                                                                  : mentionStart();
    QString path = m_matches->index(row, 0).data(insertRole).toString();
    hideCompletion();
    if (start < 0 || path.isEmpty())
        return;
    if (path.endsWith(QLatin1Char(' ')))
        path.chop(1);
    QTextCursor cursor = textCursor();
    const QChar next = document()->characterAt(cursor.position());
    const bool spaceFollows = next == QLatin1Char(' ') || next == QLatin1Char('\t');
    cursor.setPosition(start, QTextCursor::KeepAnchor);
    m_insertingCompletion = true;
    // The cursor ends after a space: the mention is complete, the list stays closed; after a
    // prompt, the user types its arguments there.
    cursor.insertText(spaceFollows ? path : path + QLatin1Char(' '));
    if (spaceFollows)
        cursor.movePosition(QTextCursor::NextCharacter);
    setTextCursor(cursor);
    m_insertingCompletion = false;
}

} // namespace Ui

#include "moc_composer.cpp"
