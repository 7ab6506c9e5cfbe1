#include "userguidedialog.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QEvent>
#include <QImage>
#include <QListWidget>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

namespace {

constexpr int blockRole = Qt::UserRole + 1;

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes.
QString anchorOf(const QString &heading)
{
    QString anchor = heading.toLower();
    anchor.remove(QRegularExpression(QStringLiteral("[^\\w\\- ]")));
    anchor.replace(QLatin1Char(' '), QLatin1Char('-'));
    return anchor;
}

} // namespace

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_contents(new QListWidget(this))
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("AgentDesk User Guide"));
    resize(1000, 700);

    m_contents->setObjectName(QStringLiteral("guideContents"));
    m_contents->setAccessibleName(tr("Sections"));
    m_contents->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_contents->setTextElideMode(Qt::ElideRight);
    m_text->setObjectName(QStringLiteral("guideText"));
    m_text->setAccessibleName(tr("User guide"));
    m_text->setOpenLinks(false);
    m_text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the text wraps, pictures fit
    m_text->installEventFilter(this);
    connect(m_text, &QTextBrowser::anchorClicked, this, &UserGuideDialog::followLink);
    m_text->setSource(guideUrl(), QTextDocument::MarkdownResource);
    if (m_text->document()->isEmpty())
        m_text->setPlainText(
            tr("The user guide is missing from this build (%1).").arg(guideUrl().toString()));
    listSections();
    connect(m_contents, &QListWidget::currentRowChanged, this, [this](int row) {
        if (QListWidgetItem *item = m_contents->item(row))
            showSection(item->text());
    });

    auto splitter = new QSplitter(this);
    splitter->addWidget(m_contents);
    splitter->addWidget(m_text);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({250, 750});
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
}

QUrl UserGuideDialog::guideUrl()
{
    return QUrl(QStringLiteral("qrc:/guide/guide.md"));
}

void UserGuideDialog::listSections()
{
    m_contents->clear();
    const QTextDocument *document = m_text->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() != 2)
            continue;
        auto item = new QListWidgetItem(block.text(), m_contents);
        item->setData(blockRole, block.position());
    }
}

bool UserGuideDialog::showSection(const QString &heading)
{
    const QTextDocument *document = m_text->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0
            || (block.text() != heading && anchorOf(block.text()) != heading))
            continue;
        QTextCursor cursor(block);
        m_text->setTextCursor(cursor);
        const QRectF where = document->documentLayout()->blockBoundingRect(block);
        m_text->verticalScrollBar()->setValue(int(where.top()));
        return true;
    }
    return false;
}

bool UserGuideDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_text && event->type() == QEvent::Resize)
        fitImages();
    return QDialog::eventFilter(watched, event);
}

void UserGuideDialog::fitImages()
{
    QTextDocument *document = m_text->document();
    // The guide is long: the room is what is left beside its scroll bar, whether or not the
    // first layout has shown it yet (else the bar, coming, would make the pictures too wide).
    const int room = int(m_text->contentsRect().width()
                         - m_text->verticalScrollBar()->sizeHint().width()
                         - 2 * document->documentMargin())
                     - 4;
    if (room < 100)
        return;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat format = fragment.charFormat().toImageFormat();
            const QUrl url = document->baseUrl().resolved(QUrl(format.name()));
            if (!m_originals.contains(format.name()))
                m_originals
                    .insert(format.name(),
                            document->resource(QTextDocument::ImageResource, url).value<QImage>());
            const QImage original = m_originals.value(format.name());
            if (original.isNull())
                continue;
            const int width = std::min(original.width(), room);
            if (format.width() == width)
                continue;
            // Scaled here, smoothly: the document would draw a wide picture scaled pixel by
            // pixel.
            const QImage shown = width == original.width()
                                     ? original
                                     : original.scaledToWidth(width, Qt::SmoothTransformation);
            document->addResource(QTextDocument::ImageResource, url, shown);
            format.setWidth(shown.width());
            format.setHeight(shown.height());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
}

void UserGuideDialog::followLink(const QUrl &url)
{
    if (url.isRelative() && url.path().isEmpty() && url.hasFragment()) {
        showSection(url.fragment());
        return;
    }
    if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")
        || url.scheme() == QLatin1String("mailto")) {
        QDesktopServices::openUrl(url);
        return;
    }
    // Another file of docs/ is not in the app: nothing to open offline.
}

} // namespace Ui

#include "moc_userguidedialog.cpp"
