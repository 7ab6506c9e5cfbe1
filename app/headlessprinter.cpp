#include "headlessprinter.h"
#include "translation.h"

#include "streamjson.h"

#include <ai/messagejson.h>
#include <context/compaction.h>

#include <QCoreApplication>
#include <QJsonArray>
#include <QMutex>

#include <csignal>
#include <cstdio>

namespace App {

using AgentCore::AgentEvent;
using AgentCore::Message;
using AgentCore::StopReason;

namespace {

// Lines from the tool threads and the main thread never interleave.
QMutex outputMutex;

// "Read src/main.cpp", "Bash git status": what a tool call is about, on one short line.
QString callSummary(const QString &tool, const QJsonObject &arguments)
{
    for (const char *key : {"command", "file_path", "pattern", "path", "description"}) {
        QString value = arguments.value(QLatin1String(key)).toString();
        if (value.isEmpty())
            continue;
        value = value.section(u'\n', 0, 0);
        if (value.size() > 120)
            value = value.left(117) + QStringLiteral("...");
        return tool + u' ' + value;
    }
    return tool;
}

QJsonObject usageJson(const AgentCore::Usage &usage)
{
    return {{QStringLiteral("input"), usage.input},
            {QStringLiteral("output"), usage.output},
            {QStringLiteral("cacheRead"), usage.cacheRead},
            {QStringLiteral("cacheWrite"), usage.cacheWrite},
            {QStringLiteral("cost"), usage.cost}};
}

AgentCore::Usage billed(const Message &message)
{
    AgentCore::Usage usage = message.usage;
    usage += message.discardedUsage;
    return usage;
}

QString firstLine(const QString &text)
{
    const QString line = text.trimmed().section(u'\n', 0, 0);
    return line.size() > 200 ? line.left(197) + QStringLiteral("...") : line;
}

// Why the run ended, for stderr; empty for a natural end.
QString outcomeMessage(const Message *last, int signalNumber, int maxTurns)
{
    if (signalNumber == SIGINT)
        return AppTr::tr("interrupted: the run was aborted.");
    if (signalNumber != 0)
        return AppTr::tr("terminated: the run was aborted.");
    if (!last)
        return AppTr::tr("the run ended without an answer from the model.");
    switch (last->stopReason) {
    case StopReason::Stop:
    case StopReason::ToolUse:
        return {};
    case StopReason::TurnLimit:
        return AppTr::tr("stopped after %n turn(s): the limit set with --max-turns.",
                         nullptr,
                         maxTurns);
    case StopReason::Length:
        return AppTr::tr("the answer was cut off at the model's output limit.");
    case StopReason::Refusal:
        return AppTr::tr("the model refused: %1")
            .arg(last->refusal.isEmpty() ? last->text() : last->refusal);
    case StopReason::Aborted:
        return AppTr::tr("the run was aborted.");
    case StopReason::Error:
    case StopReason::ContextOverflow:
        break;
    }
    return AppTr::tr("the run failed: %1").arg(last->errorMessage);
}

} // namespace

const Message *lastAssistant(const QList<Message> &messages)
{
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isAssistant())
            return &*it;
    }
    return nullptr;
}

void headlessStdout(const QByteArray &bytes)
{
    QMutexLocker locker(&outputMutex);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void headlessStderr(const QString &text)
{
    const QByteArray bytes = (QStringLiteral("agentdesk: ") + text + u'\n').toLocal8Bit();
    QMutexLocker locker(&outputMutex);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

HeadlessPrinter::HeadlessPrinter(OutputFormat format,
                                 int maxTurns,
                                 std::function<QJsonObject()> startInfo,
                                 std::function<int(const QList<Message> &)> exitCode)
    : m_format(format)
    , m_maxTurns(maxTurns)
    , m_startInfo(std::move(startInfo))
    , m_exitCode(std::move(exitCode))
{}

void HeadlessPrinter::event(const AgentEvent &event)
{
    if (m_finished)
        return;
    if (m_format != OutputFormat::StreamJson) {
        textActivity(event);
        return;
    }
    // A long run's outputs are on disk by its end (the loop pages them): read back, for
    // whoever reads the stream.
    QJsonObject json;
    if (event.type == AgentEvent::Type::AgentEnd
        && AgentCore::MessagePages::holdsStub(event.newMessages)) {
        AgentEvent whole = event;
        whole.newMessages = AgentCore::MessagePages::whole(event.newMessages, m_pages.get());
        json = StreamJson::fromEvent(whole);
    } else {
        json = StreamJson::fromEvent(event);
    }
    if (event.type == AgentEvent::Type::AgentStart) {
        const QJsonObject info = m_startInfo();
        for (auto it = info.begin(); it != info.end(); ++it)
            json.insert(it.key(), it.value());
    } else if (event.type == AgentEvent::Type::AgentEnd) {
        json.insert(u"exitCode", m_exitCode(event.newMessages));
        // The run's totals: its own replies and its subagents'.
        AgentCore::Usage total = m_subagentUsage;
        for (const Message &message : event.newMessages) {
            if (message.isAssistant())
                total += billed(message);
        }
        json.insert(u"usage", usageJson(total));
        json.insert(u"subagentUsage", usageJson(m_subagentUsage));
        m_subagentUsage = {};
    }
    headlessStdout(StreamJson::line(json));
}

void HeadlessPrinter::subagentEvent(const AgentCore::SubagentEvent &event)
{
    if (event.event.type == AgentEvent::Type::MessageEnd && event.event.message.isAssistant())
        m_subagentUsage += billed(event.event.message);
    if (m_finished || m_format != OutputFormat::StreamJson || event.path.isEmpty())
        return;
    QJsonObject json = StreamJson::fromEvent(event.event);
    // As Claude Code's stream-json: the call that started the subagent.
    json.insert(u"parent_tool_use_id", event.path.last());
    json.insert(u"subagentPath", QJsonArray::fromStringList(event.path));
    json.insert(u"subagentType", event.agentType);
    headlessStdout(StreamJson::line(json));
}

void HeadlessPrinter::checkpointRecorded(const AgentCore::Checkpoint &checkpoint)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        QJsonObject json = checkpoint.toJson();
        json.insert(QStringLiteral("type"), QStringLiteral("checkpoint"));
        headlessStdout(StreamJson::line(json));
    } else if (!checkpoint.skipped.isEmpty()) {
        QStringList paths;
        for (const AgentCore::SkippedFile &file : checkpoint.skipped)
            paths.append(file.path);
        headlessStderr(AppTr::tr("warning: checkpoint %1 does not cover %2 (over the size cap or "
                                 "unreadable)")
                           .arg(checkpoint.id.left(12), paths.join(QStringLiteral(", "))));
    }
}

void HeadlessPrinter::checkpointFailed(const QString &problem)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        headlessStdout(StreamJson::line({{QStringLiteral("type"), QStringLiteral("checkpoint")},
                                         {QStringLiteral("error"), problem}}));
    } else {
        headlessStderr(AppTr::tr("warning: %1").arg(problem));
    }
}

void HeadlessPrinter::hookRan(const AgentCore::HookRun &run)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        headlessStdout(StreamJson::line(run.toJson()));
    } else if (run.blocks() || run.failed()) {
        headlessStderr(AppTr::tr("hook %1 (%2): %3")
                           .arg(AgentCore::hookEventNameText(run.hook.event),
                                run.hook.command,
                                run.outcomeText()));
    }
}

void HeadlessPrinter::compactionStarted(bool waiting)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        headlessStdout(
            StreamJson::line({{QStringLiteral("type"), QStringLiteral("compaction_start")},
                              {QStringLiteral("waiting"), waiting}}));
    } else if (waiting) {
        headlessStderr(AppTr::tr("Compacting: the conversation no longer fits the model's context "
                                 "window; summarising its older part first."));
    } else {
        headlessStderr(AppTr::tr("Summarising the conversation's older part in the background."));
    }
}

void HeadlessPrinter::compactionFailed(const QString &problem)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        headlessStdout(StreamJson::line({{QStringLiteral("type"), QStringLiteral("compaction_end")},
                                         {QStringLiteral("error"), problem}}));
    } else {
        headlessStderr(AppTr::tr("warning: the conversation was not compacted: %1").arg(problem));
    }
}

void HeadlessPrinter::compacted(const Message &message)
{
    const std::optional<AgentCore::Compaction> compaction = AgentCore::Compaction::of(message);
    if (!compaction)
        return;
    if (m_format == OutputFormat::StreamJson) {
        headlessStdout(StreamJson::line(
            {{QStringLiteral("type"), QStringLiteral("compaction_end")},
             {QStringLiteral("coveredCount"), qint64(compaction->coveredCount)},
             {QStringLiteral("model"), compaction->model},
             {QStringLiteral("usage"),
              AgentCore::messageToJson(message).value(QLatin1StringView("usage"))}}));
    } else {
        headlessStderr(AppTr::tr("Compacted: a summary stands for the first %n message(s) in the "
                                 "requests from now on.",
                                 nullptr,
                                 int(compaction->coveredCount)));
    }
}

void HeadlessPrinter::textActivity(const AgentEvent &event)
{
    switch (event.type) {
    case AgentEvent::Type::ToolExecutionStart:
        headlessStderr(QStringLiteral("> ") + callSummary(event.toolName, event.arguments));
        break;
    case AgentEvent::Type::ToolExecutionEnd:
        if (event.isError)
            headlessStderr(
                AppTr::tr("%1 failed: %2").arg(event.toolName, firstLine(event.result.text())));
        break;
    case AgentEvent::Type::MessageUpdate:
        if (event.streamEvent.type == AgentCore::StreamEvent::Type::Retry) {
            headlessStderr(AppTr::tr("%1; retrying in %2 s.")
                               .arg(event.streamEvent.errorMessage)
                               .arg((event.streamEvent.retryDelayMs + 999) / 1000));
        }
        break;
    default:
        break;
    }
}

void HeadlessPrinter::finish(const QList<Message> &newMessages,
                             int signalNumber,
                             int code,
                             const QString &sessionId)
{
    m_finished = true;
    const Message *last = lastAssistant(newMessages);
    if (const QString message = outcomeMessage(last, signalNumber, m_maxTurns); !message.isEmpty())
        headlessStderr(message);
    if (m_format == OutputFormat::Text && !sessionId.isEmpty()) {
        // stdout is the answer only; where the run was kept goes with the activity.
        headlessStderr(
            AppTr::tr("session %1 (continue it with --continue or --resume %1)").arg(sessionId));
    }
    if (m_format == OutputFormat::Text && code == 0 && last) {
        QByteArray text = last->text().toUtf8();
        if (!text.endsWith('\n'))
            text += '\n';
        headlessStdout(text);
    }
}

} // namespace App
