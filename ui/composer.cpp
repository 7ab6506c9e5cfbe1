#include "composer.h"

#include "repositoryfiles.h"

#include <QAbstractTextDocumentLayout>
#include <QKeyEvent>
#include <QListView>
#include <QScreen>
#include <QStringListModel>
#include <QTextBlock>

#include <algorithm>

namespace Ui {

namespace {

constexpr int maxCompletions = 50;
constexpr int visibleCompletions = 10;

bool isEnter(const QKeyEvent *event)
{
    return event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
}

} // namespace

Composer::Composer(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_files(new RepositoryFiles(this))
    , m_popup(new QListView(this))
    , m_matches(new QStringListModel(this))
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
    connect(m_popup, &QListView::clicked, this, [this](const QModelIndex &index) {
        acceptCompletion(index.row());
    });

    connect(m_files, &RepositoryFiles::pathsChanged, this, [this] { updateCompletion(true); });
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

QStringList Composer::completions() const
{
    return isCompletionVisible() ? m_matches->stringList() : QStringList();
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
    const QString text = toPlainText().trimmed();
    if (text.isEmpty())
        return;
    clear();
    if (!m_running)
        emit submitted(text);
    else if (asFollowUp)
        emit followUpQueued(text);
    else
        emit steered(text);
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

void Composer::updateCompletion(bool mayOpen)
{
    if (m_insertingCompletion)
        return;
    const int start = mentionStart();
    if (start < 0 || !hasFocus()) {
        hideCompletion();
        return;
    }
    if (!isCompletionVisible() && (!mayOpen || m_completionDismissed))
        return;
    if (!isCompletionVisible() && !m_files->isListing())
        m_files->refresh(); // shows the last list now, the fresh one when it is ready
    QTextCursor cursor = textCursor();
    cursor.setPosition(start, QTextCursor::KeepAnchor);
    const QStringList matches = RepositoryFiles::match(m_files->paths(),
                                                       cursor.selectedText(),
                                                       maxCompletions);
    if (matches.isEmpty()) {
        hideCompletion();
        return;
    }
    m_matches->setStringList(matches);
    m_popup->setCurrentIndex(m_matches->index(0));
    showCompletion();
}

void Composer::showCompletion()
{
    const int rows = std::min<int>(int(m_matches->rowCount()), visibleCompletions);
    const int rowHeight = std::max(m_popup->sizeHintForRow(0), fontMetrics().height());
    const int frame = 2 * m_popup->frameWidth();
    const QSize size(std::max(std::min(width(), 520), 280), rows * rowHeight + frame);

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
    m_popup->setCurrentIndex(m_matches->index(std::clamp(current + delta, 0, count - 1)));
}

void Composer::acceptCompletion(int row)
{
    const int start = mentionStart();
    const QString path = m_matches->index(row).data().toString();
    hideCompletion();
    if (start < 0 || path.isEmpty())
        return;
    QTextCursor cursor = textCursor();
    const QChar next = document()->characterAt(cursor.position());
    const bool spaceFollows = next == QLatin1Char(' ') || next == QLatin1Char('\t');
    cursor.setPosition(start, QTextCursor::KeepAnchor);
    m_insertingCompletion = true;
    // The cursor ends after a space: the mention is complete, the list stays closed.
    cursor.insertText(spaceFollows ? path : path + QLatin1Char(' '));
    if (spaceFollows)
        cursor.movePosition(QTextCursor::NextCharacter);
    setTextCursor(cursor);
    m_insertingCompletion = false;
}

} // namespace Ui
