#include "bashreviewview.h"

#include "common/codehighlighter.h"
#include "reviewanswerbar.h"

#include "common/themecolors.h"

#include <QDir>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScrollBar>
#include <QStyle>
#include <QTextLayout>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

namespace {

QString timeoutText(int milliseconds)
{
    if (milliseconds <= 0)
        return BashReviewView::tr("none");
    if (milliseconds == 60000)
        return BashReviewView::tr("1 minute");
    if (milliseconds % 60000 == 0)
        return BashReviewView::tr("%1 minutes").arg(milliseconds / 60000);
    if (milliseconds == 1000)
        return BashReviewView::tr("1 second");
    if (milliseconds % 1000 == 0)
        return BashReviewView::tr("%1 seconds").arg(milliseconds / 1000);
    return BashReviewView::tr("%1 ms").arg(milliseconds);
}

// The simple command as it runs: its words, then where its input and output go (`> file`),
// which SimpleCommand::text leaves out (rules match the words alone).
QString withRedirections(const AgentCore::SimpleCommand &command)
{
    QString text = command.text;
    for (const AgentCore::BashRedirection &redirection : command.redirections) {
        // A duplicated descriptor reads as one word (2>&1); a file after a space (> out.txt).
        const bool descriptor = redirection.op.endsWith(QLatin1Char('&'))
                                && !redirection.target.isEmpty()
                                && (redirection.target.front().isDigit()
                                    || redirection.target == QLatin1String("-"));
        text += QLatin1Char(' ') + redirection.op + (descriptor ? QString() : QStringLiteral(" "))
                + redirection.target;
    }
    return text;
}

QColor riskColor(const QPalette &palette)
{
    return ThemeColors::of(palette).warning;
}

} // namespace

BashReviewView::BashReviewView(QWidget *parent)
    : QWidget(parent)
    , m_description(new QLabel(this))
    , m_reason(new QLabel(this))
    , m_command(new QPlainTextEdit(this))
    , m_notUnderstood(new QLabel(this))
    , m_commands(new QTreeWidget(this))
    , m_context(new QLabel(this))
    , m_sandbox(new QLabel(this))
    , m_answers(new ReviewAnswerBar(this))
{
    auto title = new QLabel(tr("Run a shell command"), this);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    title->setFont(titleFont);
    m_description->setObjectName(QStringLiteral("commandDescription"));
    m_description->setTextFormat(Qt::PlainText);
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reason->setObjectName(QStringLiteral("reviewReason"));
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setForegroundRole(QPalette::PlaceholderText);
    m_reason->setWordWrap(true);

    m_command->setObjectName(QStringLiteral("commandText"));
    m_command->setReadOnly(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    new CodeHighlighter(QStringLiteral("Bash"), m_command->palette(), m_command->document());
    m_command->installEventFilter(this);

    m_notUnderstood->setObjectName(QStringLiteral("notUnderstood"));
    m_notUnderstood->setWordWrap(true);
    m_notUnderstood->setTextFormat(Qt::PlainText);
    m_notUnderstood->setAutoFillBackground(true);
    m_notUnderstood->setContentsMargins(8, 6, 8, 6);

    m_commands->setObjectName(QStringLiteral("commandList"));
    m_commands->setColumnCount(2);
    m_commands->setHeaderLabels({tr("Command"), tr("Worth a look")});
    m_commands->setRootIsDecorated(false);
    m_commands->setSelectionMode(QAbstractItemView::NoSelection);
    m_commands->setFocusPolicy(Qt::NoFocus);
    m_commands->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_commands->header()->setStretchLastSection(true);

    m_context->setObjectName(QStringLiteral("commandContext"));
    m_context->setTextFormat(Qt::PlainText);
    m_context->setForegroundRole(QPalette::PlaceholderText);
    m_context->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_sandbox->setObjectName(QStringLiteral("sandboxState"));
    m_sandbox->setTextFormat(Qt::PlainText);
    m_sandbox->setWordWrap(true);
    m_sandbox->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_description);
    layout->addWidget(m_reason);
    layout->addWidget(m_command);
    layout->addWidget(m_context);
    layout->addWidget(m_sandbox);
    layout->addWidget(m_notUnderstood);
    layout->addWidget(m_commands, 1);
    layout->addStretch(); // takes the room when there is no command list
    layout->addWidget(m_answers);

    m_answers->addShortcuts(this);
    connect(m_answers,
            &ReviewAnswerBar::answered,
            this,
            [this](const AgentCore::PermissionAnswer &answer) {
                emit answered(m_request.id, answer);
            });
}

void BashReviewView::setRequest(const AgentCore::PermissionRequest &request)
{
    m_request = request;
    const QString command = request.bash
                                ? request.bash->command
                                : request.arguments.value(QLatin1String("command")).toString();
    m_command->setPlainText(command);
    fitCommandHeight();
    // The model's own words for what the command is for; the command below says what it does.
    // Cut before simplified(): the model may send megabytes, and a label wraps all of them.
    constexpr qsizetype maxDescription = 400;
    QString description = request.arguments.value(QLatin1String("description"))
                              .toString()
                              .left(maxDescription + 1)
                              .simplified();
    if (description.size() > maxDescription)
        description = description.left(maxDescription - 1) + QChar(0x2026);
    m_description->setText(description.isEmpty() ? QString()
                                                 : tr("The agent says: %1").arg(description));
    m_description->setToolTip(tr("The description the agent gave with the command; check it "
                                 "against the command itself"));
    m_description->setVisible(!description.isEmpty());
    m_reason->setText(request.reason);
    // A command that was not understood says so (and why) in the box below: the policy's
    // reason ("could not be analysed: ...") would say it twice.
    const bool understood = request.bash && request.bash->understood;
    m_reason->setVisible(!request.reason.isEmpty() && understood);
    // A background command has no time limit: it runs until stopped or the session ends.
    const bool background = request.arguments.value(QLatin1String("run_in_background")).toBool();
    m_context->setText(background
                           ? tr("In %1  ·  In the background, until stopped or the session ends")
                                 .arg(QDir::toNativeSeparators(request.workingDirectory))
                           : tr("In %1  ·  Timeout %2")
                                 .arg(QDir::toNativeSeparators(request.workingDirectory),
                                      timeoutText(request.timeoutMs)));
    m_context->setToolTip(tr("Working directory and time limit of the command"));
    // Where it runs matters as much as what it is: a command outside the sandbox has the
    // user's rights, so that case stands out in the warning colour.
    m_sandbox->setVisible(request.sandbox.has_value());
    if (request.sandbox) {
        m_sandbox->setText(request.sandbox->summary());
        QPalette palette = m_sandbox->palette();
        palette.setColor(QPalette::WindowText,
                         request.sandbox->sandboxed()
                             ? this->palette().color(QPalette::PlaceholderText)
                             : riskColor(this->palette()));
        m_sandbox->setPalette(palette);
        m_sandbox->setToolTip(
            request.sandbox->sandboxed()
                ? tr("In the sandbox the command cannot change files outside the repository or "
                     "read your keys (~/.ssh, ~/.gnupg, the keyring, cloud credentials).")
                : tr("Without the sandbox the command runs with all your rights."));
    }
    fillCommands();
    m_answers->setRequest(request);
}

// As tall as the command, within reason: a one-liner gets no big empty box, a long command
// up to maxCommandLines lines and a scroll bar beyond. Measured here, at the box's width, as
// the box wraps it: the document's own line count is only right for the blocks it laid out
// at its current size, so a box two lines high stayed two lines high.
void BashReviewView::fitCommandHeight()
{
    constexpr int maxCommandLines = 12;
    const int margin = int(m_command->document()->documentMargin());
    const QMargins margins = m_command->contentsMargins();
    // From the box's own width: on its resize the viewport has not followed yet.
    const QScrollBar *bar = m_command->verticalScrollBar();
    const int inside = m_command->width() - 2 * m_command->frameWidth() - margins.left()
                       - margins.right() - (bar->isVisible() ? bar->width() : 0) - 2 * margin;
    const qreal width = qMax(40, inside);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    int lines = 0;
    const QStringList paragraphs = m_command->toPlainText().split(QLatin1Char('\n'));
    for (const QString &paragraph : paragraphs) {
        QTextLayout layout(paragraph, m_command->font());
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid() && lines <= maxCommandLines;
             line = layout.createLine()) {
            line.setLineWidth(width);
            ++lines;
        }
        layout.endLayout();
        if (lines > maxCommandLines)
            break;
    }
    lines = std::clamp(lines, 1, maxCommandLines);
    const QFontMetrics metrics(m_command->font());
    m_command->setFixedHeight(lines * metrics.lineSpacing() + 2 * margin + margins.top()
                              + margins.bottom() + 2 * m_command->frameWidth() + 2);
}

bool BashReviewView::eventFilter(QObject *watched, QEvent *event)
{
    // Another width wraps the command into another number of lines.
    if (watched == m_command && event->type() == QEvent::Resize) {
        const auto resize = static_cast<QResizeEvent *>(event);
        if (resize->size().width() != resize->oldSize().width())
            fitCommandHeight();
    }
    return QWidget::eventFilter(watched, event);
}

void BashReviewView::fillCommands()
{
    m_commands->clear();
    const bool understood = m_request.bash && m_request.bash->understood;
    if (!understood) {
        QString problem = m_request.bash && !m_request.bash->problem.isEmpty()
                              ? m_request.bash->problem
                              : tr("no analysis");
        while (problem.endsWith(QLatin1Char('.'))) // the sentence below adds its own
            problem.chop(1);
        m_notUnderstood->setText(
            tr("Not understood: %1. AgentDesk cannot tell what this command does; read it "
               "yourself before allowing it. No rule can cover it.")
                .arg(problem));
        QPalette pal = m_notUnderstood->palette();
        pal.setColor(QPalette::Window,
                     ThemeColors::mix(pal.color(QPalette::Base), riskColor(pal), 0.15));
        m_notUnderstood->setPalette(pal);
    }
    m_notUnderstood->setVisible(!understood);
    if (!m_request.bash)
        return;

    const QColor warn = riskColor(palette());
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QFont code = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QList<AgentCore::SimpleCommand> &commands = m_request.bash->commands;
    for (int i = 0; i < commands.size(); ++i) {
        auto item = new QTreeWidgetItem(m_commands);
        item->setText(0, withRedirections(commands.at(i)));
        item->setFont(0, code);
        QStringList notes;
        for (const AgentCore::BashRiskNote &note : m_request.bash->risks) {
            if (note.commandIndex == i)
                notes.append(note.explanation.isEmpty() ? AgentCore::bashRiskName(note.risk)
                                                        : note.explanation);
        }
        if (!notes.isEmpty()) {
            item->setText(1, notes.join(QStringLiteral("; ")));
            item->setIcon(1, warning);
            item->setForeground(1, warn);
            item->setToolTip(1, notes.join(QLatin1Char('\n')));
        }
    }
    // Risks that belong to no single command still need to be seen.
    for (const AgentCore::BashRiskNote &note : m_request.bash->risks) {
        if (note.commandIndex >= 0 && note.commandIndex < commands.size())
            continue;
        auto item = new QTreeWidgetItem(m_commands);
        item->setText(0, tr("(whole command)"));
        item->setText(1,
                      note.explanation.isEmpty() ? AgentCore::bashRiskName(note.risk)
                                                 : note.explanation);
        item->setIcon(1, warning);
        item->setForeground(1, warn);
    }
    // The second column only when something is worth a look: no empty column.
    bool anyNote = false;
    for (int i = 0; i < m_commands->topLevelItemCount(); ++i)
        anyNote = anyNote || !m_commands->topLevelItem(i)->text(1).isEmpty();
    m_commands->setColumnHidden(1, !anyNote);
    m_commands->header()->setStretchLastSection(anyNote);
    m_commands->header()->setSectionResizeMode(0,
                                               anyNote ? QHeaderView::ResizeToContents
                                                       : QHeaderView::Stretch);
    m_commands->setVisible(m_commands->topLevelItemCount() > 0);
}

} // namespace Ui

#include "moc_bashreviewview.cpp"
