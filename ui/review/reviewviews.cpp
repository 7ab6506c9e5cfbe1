#include "reviewviews.h"
#include "common/translation.h"

#include "bashreviewview.h"
#include "common/elidedlabel.h"
#include "diffreviewview.h"
#include "reviewanswerbar.h"
#include "shellwritesreviewview.h"

#include "common/toolargumentstext.h"
#include <loop/toolkind.h>

#include <QCoreApplication>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace Ui {

namespace {

// The strings kept their context when the views moved here from ReviewQueue.

bool showsDiff(const AgentCore::PermissionRequest &request)
{
    return AgentCore::changesFile(AgentCore::toolKind(request.toolName))
           && !request.filePath.isEmpty();
}

// Any other tool (a read outside the repository, an MCP tool): what and why, and the
// answer buttons.
QWidget *createPlainView(const AgentCore::PermissionRequest &request,
                         QWidget *parent,
                         const ReviewAnswered &onAnswered)
{
    auto page = new QWidget(parent);
    // One line, cut to the width: a long path must not widen the window.
    auto title = new ElidedLabel(page);
    title->setText(request.displayPath.isEmpty()
                       ? UiTr::tr("Use %1").arg(request.toolName)
                       : UiTr::tr("%1 %2").arg(request.toolName, request.displayPath));
    title->setElideMode(Qt::ElideMiddle);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto reason = new QLabel(request.reason, page);
    reason->setTextFormat(Qt::PlainText);
    reason->setWordWrap(true);
    reason->setForegroundRole(QPalette::PlaceholderText);
    // What the call will do is in its arguments (an MCP tool's name says little): the user
    // approves what they read, bounded and escaped, never blind.
    auto arguments = new QPlainTextEdit(page);
    arguments->setObjectName(QStringLiteral("reviewArguments"));
    arguments->setReadOnly(true);
    arguments->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    arguments->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    arguments->setPlainText(ToolArgumentsText::format(request.arguments));
    //: Screen reader: the box that shows a reviewed tool call's arguments
    arguments->setAccessibleName(UiTr::tr("Arguments"));
    auto answers = new ReviewAnswerBar(page);
    answers->setRequest(request);
    answers->addShortcuts(page);
    auto layout = new QVBoxLayout(page);
    layout->addWidget(title);
    layout->addWidget(reason);
    layout->addWidget(arguments, 1);
    layout->addWidget(answers);
    const quint64 id = request.id;
    QObject::connect(answers,
                     &ReviewAnswerBar::answered,
                     page,
                     [onAnswered, id](const AgentCore::PermissionAnswer &answer) {
                         onAnswered(id, answer, {});
                     });
    return page;
}

QWidget *createView(const AgentCore::PermissionRequest &request,
                    QWidget *parent,
                    const ReviewAnswered &onAnswered)
{
    const auto withoutHunks = [onAnswered](quint64 id, const AgentCore::PermissionAnswer &answer) {
        onAnswered(id, answer, {});
    };
    if (showsDiff(request)) {
        auto view = new DiffReviewView(parent);
        view->setRequest(request);
        QObject::connect(view, &DiffReviewView::answered, view, onAnswered);
        return view;
    }
    if (!request.shellWrites.isEmpty()) {
        auto view = new ShellWritesReviewView(parent);
        view->setRequest(request);
        QObject::connect(view, &ShellWritesReviewView::answered, view, withoutHunks);
        return view;
    }
    if (AgentCore::toolKind(request.toolName) == AgentCore::ToolKind::Bash) {
        auto view = new BashReviewView(parent);
        view->setRequest(request);
        QObject::connect(view, &BashReviewView::answered, view, withoutHunks);
        return view;
    }
    return createPlainView(request, parent, onAnswered);
}

} // namespace

QWidget *createReviewView(const AgentCore::PermissionRequest &request,
                          QWidget *parent,
                          const ReviewAnswered &onAnswered)
{
    QWidget *view = createView(request, parent, onAnswered);
    // What a screen reader announces when the review gets the focus.
    //: Screen reader: a tool call waiting for review ("Review: Edit src/calc.cpp")
    QString name = request.displayPath.isEmpty()
                       ? UiTr::tr("Review: %1").arg(request.toolName)
                       : UiTr::tr("Review: %1 %2").arg(request.toolName, request.displayPath);
    if (!request.subagent.isEmpty()) {
        // A subagent's call: who asks is said above the review, in every list of reviews.
        auto framed = new QWidget(parent);
        //: Above a review: the subagent that makes the call ("explore: Find the parser")
        auto asker = new QLabel(UiTr::tr("Asked by subagent %1").arg(request.subagent), framed);
        asker->setObjectName(QStringLiteral("reviewSubagent"));
        asker->setTextFormat(Qt::PlainText);
        asker->setWordWrap(true);
        QFont font = asker->font();
        font.setBold(true);
        asker->setFont(font);
        asker->setForegroundRole(QPalette::Link);
        view->setParent(framed);
        auto layout = new QVBoxLayout(framed);
        // The label lines up with the review's own title.
        const int indent = view->layout() ? view->layout()->contentsMargins().left() : 0;
        layout->setContentsMargins(0, 6, 0, 0);
        asker->setContentsMargins(indent, 0, indent, 0);
        layout->setSpacing(0);
        layout->addWidget(asker);
        layout->addWidget(view, 1);
        //: Screen reader: a subagent's tool call waiting for review
        name = UiTr::tr("%1, asked by subagent %2").arg(name, request.subagent);
        view->setAccessibleName(name);
        view = framed;
    }
    view->setAccessibleName(name);
    view->setAccessibleDescription(request.reason);
    return view;
}

ReviewAnswerBar *reviewAnswerBar(const QWidget *view)
{
    return view ? view->findChild<ReviewAnswerBar *>() : nullptr;
}

} // namespace Ui
