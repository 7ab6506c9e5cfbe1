#include "proposalproblemsview.h"

#include "common/themecolors.h"

namespace Ui {

ProposalProblemsView::ProposalProblemsView(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("proposalProblems"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    hide();
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.future().isValid() && m_watcher.future().resultCount() > 0)
            present(m_watcher.result());
    });
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        bool ok = false;
        const int line = link.section(u':', 1).toInt(&ok);
        if (link.startsWith(QLatin1String("line:")) && ok)
            emit lineActivated(line);
    });
}

void ProposalProblemsView::watch(const QFuture<AgentCore::ProposalCheck> &check)
{
    m_result.reset();
    m_watcher.setFuture(check);
    if (!check.isValid()) {
        hide();
        return;
    }
    //: Above a review's diff while a language server checks the proposed change
    setText(muted(tr("Checking the change with the language server…")));
    setVisible(true);
    if (check.isFinished() && check.resultCount() > 0)
        present(check.result());
}

void ProposalProblemsView::present(const AgentCore::ProposalCheck &check)
{
    m_result = check;
    const ThemeColors colors = ThemeColors::of(palette());
    if (!check.error.isEmpty()) {
        setText(muted(tr("%1 could not check this change: %2.").arg(check.checker, check.error)));
        emit problemsFound({});
        return;
    }
    if (check.introduced.isEmpty()) {
        setText(QStringLiteral("<span style='color:%1'>%2</span>")
                    .arg(colors.success.name(),
                         tr("%1 finds no new problems in this change.")
                             .arg(check.checker.toHtmlEscaped())));
        emit problemsFound({});
        return;
    }
    QStringList counts;
    if (const int errors = check.errorCount())
        counts.append(tr("%n new error(s)", nullptr, errors));
    if (const int warnings = check.warningCount())
        counts.append(tr("%n new warning(s)", nullptr, warnings));
    QString html = QStringLiteral("<b>%1</b>")
                       .arg(tr("%1 finds %2 in this change:")
                                .arg(check.checker.toHtmlEscaped(), counts.join(tr(" and "))));
    for (qsizetype i = 0; i < check.introduced.size() && i < maxShown; ++i) {
        const AgentCore::ProposalProblem &problem = check.introduced.at(i);
        html += QStringLiteral("<br><span style='color:%1'>%2</span> "
                               "<a href='line:%3'>%4</a> %5")
                    .arg((problem.isError ? colors.error : colors.warning).name(),
                         problem.isError ? tr("error") : tr("warning"))
                    .arg(problem.line)
                    .arg(tr("line %1").arg(problem.line), problem.message.toHtmlEscaped());
    }
    if (check.introduced.size() > maxShown)
        html += QStringLiteral("<br>")
                + tr("and %n more", nullptr, int(check.introduced.size() - maxShown));
    setText(html);
    emit problemsFound(check.introduced);
}

QString ProposalProblemsView::muted(const QString &text) const
{
    // In the text, not the palette: a palette change here would come back as one.
    return QStringLiteral("<span style='color:%1'>%2</span>")
        .arg(ThemeColors::of(palette()).muted.name(), text.toHtmlEscaped());
}

void ProposalProblemsView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) { // its colours are the palette's
        if (m_result)
            present(*m_result);
        else if (m_watcher.future().isValid())
            setText(muted(tr("Checking the change with the language server…")));
    }
    QLabel::changeEvent(event);
}

} // namespace Ui

#include "moc_proposalproblemsview.cpp"
