#include "compactdialog.h"

#include "common/usagelabel.h"

#include <context/contextview.h>

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace Ui {

namespace {
QString shortFirstLine(const QString &text)
{
    const QString trimmed = text.trimmed();
    const QString line = trimmed.section(QLatin1Char('\n'), 0, 0);
    return line.size() > 160 ? line.left(159) + QChar(0x2026) : line;
}

QString figures(int messages, qint64 tokens)
{
    //: "12 messages, about 3.4k tokens": one side of a compaction's preview
    return CompactDialog::tr("%n message(s), about %1 tokens", nullptr, messages)
        .arg(UsageLabel::compactNumber(tokens, QLocale()));
}
} // namespace

CompactDialog::CompactDialog(QWidget *parent)
    : QDialog(parent)
    , m_instructions(new QLineEdit(this))
    , m_summarisedHeading(new QLabel(this))
    , m_summarisedList(new QListWidget(this))
    , m_keptHeading(new QLabel(this))
    , m_keptList(new QListWidget(this))
    , m_reason(new QLabel(this))
{
    setObjectName(QStringLiteral("compactDialog"));
    setWindowTitle(tr("Compact the Conversation"));
    auto intro = new QLabel(tr("A summary written by the model will stand in for the older part "
                               "of the conversation in every later request. The originals stay "
                               "in the session and in the window."),
                            this);
    intro->setWordWrap(true);

    auto instructionsLabel = new QLabel(tr("&What the summary must keep (optional):"), this);
    instructionsLabel->setBuddy(m_instructions);
    m_instructions->setObjectName(QStringLiteral("compactInstructions"));
    //: Example instructions for a compaction's summary
    m_instructions->setPlaceholderText(tr("e.g. keep the API design discussion"));
    m_instructions->setClearButtonEnabled(true);

    m_summarisedHeading->setObjectName(QStringLiteral("summarisedHeading"));
    m_summarisedHeading->setBuddy(m_summarisedList);
    m_summarisedList->setObjectName(QStringLiteral("summarisedList"));
    m_summarisedList->setAccessibleName(tr("Messages to summarise"));
    m_keptHeading->setObjectName(QStringLiteral("keptHeading"));
    m_keptHeading->setBuddy(m_keptList);
    m_keptList->setObjectName(QStringLiteral("keptList"));
    m_keptList->setAccessibleName(tr("Messages kept verbatim"));
    for (QListWidget *list : {m_summarisedList, m_keptList}) {
        list->setUniformItemSizes(true); // a long conversation's list stays quick
        list->setTextElideMode(Qt::ElideRight);
    }
    auto sides = new QHBoxLayout;
    auto summarisedSide = new QVBoxLayout;
    summarisedSide->addWidget(m_summarisedHeading);
    summarisedSide->addWidget(m_summarisedList);
    auto keptSide = new QVBoxLayout;
    keptSide->addWidget(m_keptHeading);
    keptSide->addWidget(m_keptList);
    sides->addLayout(summarisedSide);
    sides->addLayout(keptSide);

    m_reason->setObjectName(QStringLiteral("compactDisabledReason"));
    m_reason->setWordWrap(true);
    QFont bold = m_reason->font();
    bold.setBold(true);
    m_reason->setFont(bold);

    auto buttons = new QDialogButtonBox(this);
    //: The button that starts a compaction
    m_compact = buttons->addButton(tr("&Compact"), QDialogButtonBox::AcceptRole);
    m_compact->setObjectName(QStringLiteral("compactButton"));
    m_compact->setDefault(true);
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (!m_compact->isEnabled())
            return;
        emit compactRequested(instructions());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(instructionsLabel);
    layout->addWidget(m_instructions);
    layout->addLayout(sides, 1);
    layout->addWidget(m_reason);
    layout->addWidget(buttons);
    resize(760, 520);
    m_instructions->setFocus();
    update();
}

void CompactDialog::setConversation(const QList<AgentCore::Message> &conversation,
                                    const AgentCore::ContextEdits &edits,
                                    qint64 keepRecentTokens)
{
    setPlan(AgentCore::planCompaction(conversation, edits, keepRecentTokens));
}

void CompactDialog::setPlan(const std::optional<AgentCore::CompactionPlan> &plan)
{
    m_plan = plan;
    m_summarisedList->clear();
    m_keptList->clear();
    if (m_plan) {
        QStringList summarised;
        summarised.reserve(m_plan->summarised.size());
        for (const AgentCore::Message &message : std::as_const(m_plan->summarised))
            summarised << describe(message);
        m_summarisedList->addItems(summarised);
        QStringList kept;
        kept.reserve(m_plan->kept.size());
        for (const AgentCore::Message &message : std::as_const(m_plan->kept))
            kept << describe(message);
        m_keptList->addItems(kept);
    }
    update();
}

void CompactDialog::setBlockedReason(const QString &reason)
{
    m_blockedReason = reason;
    update();
}

QString CompactDialog::instructions() const
{
    return m_instructions->text().trimmed();
}

QString CompactDialog::summarisedFigures() const
{
    return m_plan ? figures(int(m_plan->summarised.size()), m_plan->summarisedTokens) : QString();
}

QString CompactDialog::keptFigures() const
{
    return m_plan ? figures(int(m_plan->kept.size()), m_plan->keptTokens) : QString();
}

QString CompactDialog::disabledReason() const
{
    if (!m_blockedReason.isEmpty())
        return m_blockedReason;
    if (!m_plan)
        return tr("Nothing to compact yet: the conversation is a single turn, or nothing was "
                  "added since the last summary.");
    return {};
}

void CompactDialog::update()
{
    //: Heading of the messages a compaction's summary replaces
    m_summarisedHeading->setText(m_plan ? tr("&Summarised: %1").arg(summarisedFigures())
                                        : tr("&Summarised: nothing"));
    //: Heading of the recent messages a compaction keeps as they are
    m_keptHeading->setText(m_plan ? tr("&Kept verbatim: %1").arg(keptFigures())
                                  : tr("&Kept verbatim: everything"));
    const QString reason = disabledReason();
    m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
    m_compact->setEnabled(reason.isEmpty());
    m_compact->setToolTip(reason);
}

QString CompactDialog::describe(const AgentCore::Message &message)
{
    using AgentCore::Message;
    if (AgentCore::isCompactionMessage(message)) {
        // A plan's earlier summary is the view's summary message (contextView): a paragraph
        // that says what it is, then the summary.
        const QString text = message.text();
        const qsizetype paragraph = text.indexOf(QStringLiteral("\n\n"));
        //: The summary of an earlier compaction, which a new one summarises again
        return tr("Earlier summary: %1")
            .arg(shortFirstLine(paragraph < 0 ? text : text.mid(paragraph + 2)));
    }
    switch (message.role) {
    case Message::Role::User:
        return tr("You: %1").arg(shortFirstLine(message.text()));
    case Message::Role::Assistant: {
        const QString text = shortFirstLine(message.text());
        if (!text.isEmpty())
            return tr("Agent: %1").arg(text);
        QStringList tools;
        for (const AgentCore::ContentBlock &call : message.toolCalls())
            tools << call.name;
        //: A reply that only calls tools: "Agent calls Read, Bash"
        return tr("Agent calls %1").arg(tools.join(QStringLiteral(", ")));
    }
    case Message::Role::ToolResult:
        //: A tool's output in the compaction preview: "Bash: 3 files changed"
        return tr("%1: %2").arg(message.toolName, shortFirstLine(message.text()));
    case Message::Role::Custom:
        return tr("Note: %1").arg(shortFirstLine(message.text()));
    }
    return shortFirstLine(message.text());
}

} // namespace Ui

#include "moc_compactdialog.cpp"
