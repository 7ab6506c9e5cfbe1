#include "contextsnapshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QLocale>

namespace Ui {

using AgentCore::ContentBlock;
using AgentCore::Message;

namespace {

// The preview shows the beginning: enough to recognise an item, never a 100 KB output.
constexpr qsizetype previewChars = 4000;
constexpr qsizetype titleChars = 90;

QString firstLine(const QString &text)
{
    const QString trimmed = text.trimmed();
    QString line = trimmed.section(u'\n', 0, 0).simplified();
    if (line.size() > titleChars)
        line = line.left(titleChars - 1) + u'\u2026';
    return line;
}

// What a call was about, in a few words: its first string argument (a path, a command).
QString callSubject(const ContentBlock &call)
{
    for (auto it = call.arguments.constBegin(); it != call.arguments.constEnd(); ++it) {
        if (it.value().isString())
            return firstLine(it.value().toString());
    }
    return {};
}

QString blocksText(const Message &message)
{
    QStringList parts;
    for (const ContentBlock &block : message.content) {
        switch (block.type) {
        case ContentBlock::Type::Text:
            parts.append(block.text);
            break;
        case ContentBlock::Type::Thinking:
            parts.append(ContextSnapshot::tr("[thinking] %1").arg(block.text));
            break;
        case ContentBlock::Type::ToolCall:
            parts.append(QStringLiteral("%1 %2").arg(block.name,
                                                     QString::fromUtf8(
                                                         QJsonDocument(block.arguments)
                                                             .toJson(QJsonDocument::Compact))));
            break;
        case ContentBlock::Type::Image:
            parts.append(ContextSnapshot::tr("[picture, %1]").arg(block.mimeType));
            break;
        }
        if (parts.join(u'\n').size() > previewChars)
            break;
    }
    return parts.join(u'\n').left(previewChars);
}

} // namespace

QString ContextSnapshot::previewOf(const Message &message)
{
    return blocksText(message);
}

ContextSnapshot ContextSnapshot::of(const AgentCore::ContextMeter &meter,
                                    const QList<AgentCore::InstructionFile> &instructions,
                                    std::optional<qint64> window,
                                    const QString &skills,
                                    const QList<AgentCore::ToolOfferEntry> &tools)
{
    ContextSnapshot snapshot;
    snapshot.total = meter.tokens().total;
    snapshot.window = window;
    snapshot.calibration = meter.calibration().ratio();
    snapshot.calibrationReplies = meter.calibration().observations();
    const AgentCore::Context &context = meter.context();
    int position = 0;
    const auto add = [&](ContextItem item) {
        item.position = ++position;
        snapshot.items.append(std::move(item));
    };

    if (!context.systemPrompt.isEmpty()) {
        // The instructions are part of the prompt's text: their share is taken out of it.
        qint64 promptTokens = meter.estimate(context.systemPrompt);
        QList<ContextItem> files;
        for (const AgentCore::InstructionFile &file : instructions) {
            ContextItem item;
            item.kind = ContextItem::Kind::Instructions;
            const QFileInfo info(file.path);
            item.title = tr("%1 (%2)").arg(info.fileName(), QDir::toNativeSeparators(info.path()));
            item.preview = file.text.left(previewChars);
            item.tokens = std::min(meter.estimate(file.text), promptTokens);
            promptTokens -= item.tokens;
            files.append(item);
        }
        if (!skills.isEmpty()) {
            ContextItem item;
            item.kind = ContextItem::Kind::Skills;
            const qsizetype count = skills.count(QLatin1String("\n- "));
            //: The context view's row of the skills listed in the system prompt
            item.title = count == 1 ? tr("Skills (1, names and descriptions)")
                                    : tr("Skills (%1, names and descriptions)").arg(count);
            item.preview = skills.trimmed().left(previewChars);
            item.tokens = std::min(meter.estimate(skills), promptTokens);
            promptTokens -= item.tokens;
            files.append(item);
        }
        ContextItem prompt;
        prompt.kind = ContextItem::Kind::SystemPrompt;
        prompt.title = instructions.isEmpty() && skills.isEmpty() ? tr("System prompt")
                       : skills.isEmpty() ? tr("System prompt (without the project "
                                               "instructions)")
                                          : tr("System prompt (without the project "
                                               "instructions and skills)");
        prompt.preview = context.systemPrompt.left(previewChars);
        prompt.tokens = promptTokens;
        add(prompt);
        for (const ContextItem &file : std::as_const(files))
            add(file);
    }
    QHash<QString, AgentCore::ToolOfferEntry> offer;
    for (const AgentCore::ToolOfferEntry &entry : tools)
        offer.insert(entry.name, entry);
    for (const AgentCore::ToolDefinition &tool : context.tools) {
        ContextItem item;
        item.kind = ContextItem::Kind::Tool;
        item.title = tr("Tool: %1").arg(tool.name);
        item.preview = tool.description.left(previewChars);
        item.tokens = meter.estimate(tool);
        if (const auto entry = offer.constFind(tool.name); entry != offer.constEnd()) {
            const QString bytes = QLocale().toString(qint64(entry->bytes));
            //: The context view's state of a tool definition the request carries
            item.state = entry->loaded ? tr("Loaded with ToolSearch, %1 bytes").arg(bytes)
                                       : tr("%1 bytes").arg(bytes);
        }
        add(item);
    }
    // The deferred tools: not in the request, only named in ToolSearch's listing.
    for (const AgentCore::ToolOfferEntry &entry : tools) {
        if (!entry.deferred || entry.loaded)
            continue;
        ContextItem item;
        item.kind = ContextItem::Kind::Tool;
        item.deferred = true;
        item.title = tr("Tool: %1").arg(entry.name);
        //: The context view's state of a tool the request names without its definition
        item.state = tr("Deferred (%1 bytes whole)").arg(QLocale().toString(qint64(entry.bytes)));
        item.preview = entry.summary.isEmpty()
                           ? tr("Offered once Bash runs a command in the background.")
                           : tr("Only named in ToolSearch's listing until the model loads it:\n%1")
                                 .arg(entry.summary);
        snapshot.items.append(item); // position 0: not in the request
    }

    QHash<QString, QString> subjects; // call id -> "Bash: ls -la"
    for (qsizetype index = 0; index < context.messages.size(); ++index) {
        const Message &message = context.messages.at(index);
        ContextItem item;
        item.messageIndex = index;
        item.tokens = meter.estimate(message);
        item.preview = blocksText(message);
        switch (message.role) {
        case Message::Role::User:
            item.kind = ContextItem::Kind::User;
            item.title = tr("You: %1").arg(firstLine(message.text()));
            break;
        case Message::Role::Assistant: {
            item.kind = ContextItem::Kind::Assistant;
            QStringList calls;
            for (const ContentBlock &call : message.toolCalls()) {
                calls.append(call.name);
                const QString subject = callSubject(call);
                subjects.insert(call.id,
                                subject.isEmpty() ? call.name
                                                  : tr("%1: %2").arg(call.name, subject));
            }
            const QString text = firstLine(message.text());
            if (!text.isEmpty())
                item.title = tr("Assistant: %1").arg(text);
            else if (!calls.isEmpty())
                item.title = tr("Assistant: calls %1").arg(calls.join(QStringLiteral(", ")));
            else
                item.title = tr("Assistant");
            break;
        }
        case Message::Role::ToolResult:
            item.kind = ContextItem::Kind::ToolOutput;
            item.toolCallId = message.toolCallId;
            item.pagedChars = message.pagedChars;
            item.title = tr("Output of %1").arg(subjects.value(message.toolCallId, message.toolName));
            break;
        case Message::Role::Custom:
            item.kind = ContextItem::Kind::Note;
            item.title = tr("%1: %2").arg(message.customType, firstLine(message.text()));
            break;
        }
        add(item);
    }
    return snapshot;
}

} // namespace Ui
