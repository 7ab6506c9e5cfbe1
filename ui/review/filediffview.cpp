#include "filediffview.h"

#include "common/background.h"
#include "common/syntaxcolorizer.h"
#include "difflayout.h"
#include "difftextview.h"

#include "common/themecolors.h"

#include <process/gitprocess.h>
#include <tools/textfile.h>
#include <tools/unifieddiff.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

namespace {

enum class Baseline { Found, NotInHead, NoGit };

// The file's content in HEAD. Raw blob bytes (cat-file, not show: no textconv, no pager),
// through GitProcess: the repository's configuration runs nothing.
Baseline headContent(const QString &root, const QString &relative, QByteArray *content)
{
    const AgentCore::GitProcess::Result blob
        = AgentCore::GitProcess::run({QStringLiteral("cat-file"), // off the UI thread
                                      QStringLiteral("blob"),
                                      QStringLiteral("HEAD:") + relative},
                                     root,
                                     30'000);
    if (!blob.startError.isEmpty())
        return Baseline::NoGit;
    if (blob.exitCode != 0)
        return Baseline::NotInHead; // not in HEAD, or no commit yet: the session made it
    *content = blob.out;
    return Baseline::Found;
}

QString asText(const QByteArray &bytes)
{
    return AgentCore::TextFile::fromBytes(AgentCore::TextFile::toLf(bytes)).text();
}

} // namespace

struct FileDiffView::FileRead
{
    enum class Problem { None, Missing, NotAFile, TooLarge, Unreadable, Binary };
    Problem problem = Problem::None;
    qint64 size = 0;
    QString error; ///< Unreadable: why
    Baseline baseline = Baseline::NotInHead;
    AgentCore::UnifiedDiff diff;
};

FileDiffView::FileDiffView(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_stats(new QLabel(this))
    , m_note(new QLabel(this))
    , m_openInEditor(new QToolButton(this))
    , m_revert(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
    , m_diff(new DiffTextView(this))
    , m_error(new QLabel(this))
{
    setObjectName(QStringLiteral("fileDiffView"));
    m_title->setObjectName(QStringLiteral("fileDiffTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_stats->setObjectName(QStringLiteral("fileDiffStats"));
    m_stats->setTextFormat(Qt::RichText);
    m_note->setObjectName(QStringLiteral("fileDiffBaseline"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setWordWrap(true);
    m_openInEditor->setObjectName(QStringLiteral("openInEditorButton"));
    m_openInEditor->setText(tr("Open in &Editor"));
    m_openInEditor->setToolTip(tr("Open the file with the desktop's editor"));
    m_openInEditor->setAutoRaise(true);
    m_revert->setObjectName(QStringLiteral("revertFileButton"));
    m_revert->setText(tr("&Revert This File"));
    m_revert->setToolTip(tr("Bring the file back to how it was before the agent first changed "
                            "it in this session; every other file stays as it is"));
    m_revert->setAutoRaise(true);
    m_revert->hide(); // setRevertable()
    m_diff->setObjectName(QStringLiteral("fileDiffText"));
    m_error->setObjectName(QStringLiteral("fileDiffError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setAlignment(Qt::AlignCenter);
    m_error->setMargin(24);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_diff);
    m_stack->addWidget(m_error);

    auto header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addWidget(m_stats);
    header->addStretch();
    header->addWidget(m_revert);
    header->addWidget(m_openInEditor);
    auto layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_note);
    layout->addWidget(m_stack, 1);

    connect(m_openInEditor, &QToolButton::clicked, this, [this] {
        emit openInEditorRequested(m_path);
    });
    connect(m_revert, &QToolButton::clicked, this, [this] { emit revertRequested(m_path); });
}

void FileDiffView::setRevertable(bool revertable)
{
    m_revert->setVisible(revertable);
}

FileDiffView::~FileDiffView() = default;

void FileDiffView::showFile(const QString &repositoryRoot, const QString &filePath)
{
    m_path = filePath;
    m_additions = 0;
    m_deletions = 0;
    const QDir root(repositoryRoot);
    const QString relative = root.relativeFilePath(filePath);
    const bool inside = !relative.startsWith(QLatin1String("../"))
                        && relative != QLatin1String("..") && !QDir::isAbsolutePath(relative);
    const QString shown = QDir::toNativeSeparators(inside ? relative : filePath);
    m_title->setText(tr("Changes to %1").arg(shown));
    m_stats->clear();
    m_openInEditor->setEnabled(false);
    m_diff->setPane({});
    m_error->clear();
    m_stack->setCurrentWidget(m_diff);
    m_note->setText(tr("Reading the file and its last commit…"));
    m_loading = true;
    const quint64 request = ++m_request;
    runInBackground(
        this,
        [repositoryRoot, filePath, relative = inside ? relative : QString()] {
            return readFile(repositoryRoot, filePath, relative);
        },
        [this, request, shown](const FileRead &read) {
            if (request != m_request) // another file was asked for meanwhile
                return;
            m_loading = false;
            showRead(read, shown);
        });
}

FileDiffView::FileRead FileDiffView::readFile(const QString &repositoryRoot,
                                              const QString &filePath,
                                              const QString &relative)
{
    FileRead read;
    const QFileInfo info(filePath);
    if (!info.exists()) {
        read.problem = FileRead::Problem::Missing;
        return read;
    }
    if (!info.isFile()) {
        read.problem = FileRead::Problem::NotAFile;
        return read;
    }
    read.size = info.size();
    if (read.size > maxBytes) {
        read.problem = FileRead::Problem::TooLarge;
        return read;
    }
    QFile file(filePath); // off the UI thread
    if (!file.open(QIODevice::ReadOnly)) {
        read.problem = FileRead::Problem::Unreadable;
        read.error = file.errorString();
        return read;
    }
    const QByteArray now = file.readAll();
    QByteArray before;
    // Outside the repository: no baseline, a new file.
    read.baseline = relative.isEmpty() ? Baseline::NotInHead
                                       : headContent(repositoryRoot, relative, &before);
    if (AgentCore::TextFile::looksBinary(now) || AgentCore::TextFile::looksBinary(before)) {
        read.problem = FileRead::Problem::Binary;
        return read;
    }
    read.diff = AgentCore::UnifiedDiff::compute(asText(before), asText(now));
    return read;
}

void FileDiffView::showRead(const FileRead &read, const QString &shown)
{
    using Problem = FileRead::Problem;
    m_note->clear();
    m_openInEditor->setEnabled(read.problem != Problem::Missing
                               && read.problem != Problem::NotAFile);
    switch (read.problem) {
    case Problem::None:
        break;
    case Problem::Missing:
        fail(tr("%1 no longer exists: it was deleted or moved after the session changed it.")
                 .arg(shown));
        break;
    case Problem::NotAFile:
        fail(tr("%1 is no longer a file.").arg(shown));
        break;
    case Problem::TooLarge:
        fail(tr("%1 is too large to show here (%2).")
                 .arg(shown, AgentCore::TextFile::sizeText(read.size)));
        break;
    case Problem::Unreadable:
        fail(tr("Cannot read %1: %2").arg(shown, read.error));
        break;
    case Problem::Binary:
        fail(tr("%1 is a binary file: its changes cannot be shown as text.").arg(shown));
        break;
    }
    if (read.problem != Problem::None) {
        emit fileShown(false);
        return;
    }
    switch (read.baseline) {
    case Baseline::Found:
        m_note->setText(tr("Compared with the last commit (HEAD); changes not committed before "
                           "this session show too."));
        break;
    case Baseline::NotInHead:
        m_note->setText(tr("Not in the last commit: shown as a new file."));
        break;
    case Baseline::NoGit:
        m_note->setText(tr("git could not be run: shown as a new file."));
        break;
    }
    if (!showDiff(QFileInfo(m_path).fileName(), read.diff)) {
        fail(tr("%1 is the same as in the last commit: the session's changes to it were undone "
                "or committed.")
                 .arg(shown));
    }
    emit fileShown(true); // nothing failed, even when there is nothing to show
}

bool FileDiffView::showChange(const QString &title,
                              const QString &note,
                              const QString &fileName,
                              const QByteArray &before,
                              const QByteArray &after)
{
    m_path.clear();
    m_additions = 0;
    m_deletions = 0;
    m_title->setText(title);
    m_stats->clear();
    m_note->setText(note);
    m_openInEditor->setEnabled(false);
    // A line diff of a huge file would hold the window for seconds.
    if (const qint64 size = std::max(before.size(), after.size()); size > maxBytes) {
        fail(tr("%1 is too large to show here (%2).")
                 .arg(fileName, AgentCore::TextFile::sizeText(size)));
        return false;
    }
    if (AgentCore::TextFile::looksBinary(before) || AgentCore::TextFile::looksBinary(after)) {
        fail(tr("%1 is a binary file: its changes cannot be shown as text.").arg(fileName));
        return false;
    }
    if (!showDiff(fileName, AgentCore::UnifiedDiff::compute(asText(before), asText(after))))
        fail(tr("No difference in the text of %1 (its mode may differ).").arg(fileName));
    return true;
}

bool FileDiffView::showDiff(const QString &fileName, const AgentCore::UnifiedDiff &diff)
{
    m_additions = diff.additions();
    m_deletions = diff.deletions();
    if (diff.isEmpty())
        return false;
    SyntaxColorizer colorizer(palette());
    colorizer.setLanguageForFileName(QFileInfo(fileName).fileName());
    m_diff->setPane(DiffLayout::unified(diff, colorizer));
    m_stack->setCurrentWidget(m_diff);
    m_error->clear();
    const ThemeColors colors = ThemeColors::of(palette());
    m_stats->setText(QStringLiteral("<span style='color:%1'>+%2</span>&nbsp;&nbsp;"
                                    "<span style='color:%3'>&minus;%4</span>")
                         .arg(colors.addedText.name())
                         .arg(m_additions)
                         .arg(colors.removedText.name())
                         .arg(m_deletions));
    return true;
}

void FileDiffView::fail(const QString &message)
{
    m_diff->setPane({});
    m_error->setText(message);
    m_stack->setCurrentWidget(m_error);
}

QString FileDiffView::errorText() const
{
    return m_stack->currentWidget() == m_error ? m_error->text() : QString();
}

QString FileDiffView::title() const
{
    return m_title->text();
}

QString FileDiffView::baselineNote() const
{
    return m_note->text();
}

QString FileDiffView::diffText() const
{
    return m_stack->currentWidget() == m_diff ? m_diff->pane().text : QString();
}

} // namespace Ui

#include "moc_filediffview.cpp"
