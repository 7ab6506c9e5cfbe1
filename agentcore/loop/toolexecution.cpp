#include "toolexecution.h"
#include "translation.h"

#include <ai/schemavalidator.h>

#include <QCoreApplication>
#include <QStringList>

#include <exception>

namespace AgentCore {

namespace {

QString availableTools(const RunTools &tools)
{
    QStringList names = tools.keys();
    names.sort();
    return names.isEmpty() ? LoopTr::tr("none") : names.join(QLatin1String(", "));
}

// Exceptions stop here: a failing layer or tool becomes a result the model can read.
template<typename Function>
ToolResult guarded(const QString &toolName, Function &&function)
{
    try {
        return function();
    } catch (const std::exception &error) {
        return ToolResult::makeError(
            LoopTr::tr("Tool %1 failed: %2").arg(toolName, QString::fromUtf8(error.what())));
    } catch (...) {
        return ToolResult::makeError(
            LoopTr::tr("Tool %1 failed with an unknown error.").arg(toolName));
    }
}

ToolResult runEffect(const ToolJob &job, ToolCallContext &context);

// The effect has happened by the time afterEffect runs: a hook that fails must not turn it
// into a failure (the model would redo an edit that was made). Its failure is logged and
// added to the result as a note, so neither the model nor the user is left believing the
// journal knows of the change.
void noteEffect(const EffectBoundary &effects, const ToolCallContext &context, ToolResult &result)
{
    QString failure;
    try {
        effects.afterEffect(context, result);
        return;
    } catch (const std::exception &error) {
        failure = QString::fromUtf8(error.what());
    } catch (...) {
        failure = LoopTr::tr("unknown error");
    }
    qWarning("afterEffect hook failed after %s (%s): %s",
             qPrintable(context.toolName),
             qPrintable(context.toolCallId),
             qPrintable(failure));
    const QString note = LoopTr::tr(
                             "[Note: %1 finished as reported above, but recording its effect "
                             "afterwards failed: %2]")
                             .arg(context.toolName, failure);
    // A block of its own: a middleware that words the result anew keeps it.
    result.content.append(
        ContentBlock::makeText(result.text().isEmpty() ? note : QStringLiteral("\n\n") + note));
}

ToolResult runTool(const ToolJob &job, ToolCallContext &context)
{
    if (context.abort.isAborted())
        return abortedToolResult();
    // The second validation: a middleware may have rewritten the arguments into ones the tool
    // cannot take; that is the middleware's bug, reported as such.
    if (context.arguments == job.validatedArguments)
        return runEffect(job, context);
    const ArgumentValidation validation = job.tool->compiledSchema().validate(context.toolName,
                                                                              context.arguments);
    if (!validation.ok) {
        return ToolResult::makeError(
            LoopTr::tr("Contract error: a tool middleware rewrote the arguments of %1 into invalid "
                       "ones, so it was not run. %2")
                .arg(context.toolName, validation.error));
    }
    context.arguments = validation.arguments;
    return runEffect(job, context);
}

ToolResult runEffect(const ToolJob &job, ToolCallContext &context)
{
    const bool effect = job.tool->hasSideEffects();
    if (effect && job.effects.beforeEffect)
        job.effects.beforeEffect(context);
    ToolResult result = guarded(context.toolName, [&] { return job.tool->execute(context); });
    if (effect && job.effects.afterEffect)
        noteEffect(job.effects, context, result);
    return result;
}

ToolResult runLayer(const ToolJob &job, qsizetype layer, ToolCallContext &context)
{
    if (layer == job.middlewares.size())
        return runTool(job, context);
    const ToolNext next = [&job, layer](ToolCallContext &inner) {
        return guarded(inner.toolName, [&] { return runLayer(job, layer + 1, inner); });
    };
    return job.middlewares.at(layer)(context, next);
}

} // namespace

ToolResult abortedToolResult()
{
    ToolResult result = ToolResult::makeError(LoopTr::tr("Tool execution aborted."));
    result.details.aborted = true;
    return result;
}

ToolResult stoppedToolResult(const std::optional<ToolResult> &partial)
{
    if (!partial)
        return abortedToolResult();
    QString text = partial->text();
    while (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    if (text.isEmpty())
        return abortedToolResult();
    // The output is what the user watched; the model must learn the same, and that the tool
    // did not finish (its effects may be partial).
    text += QLatin1Char('\n');
    text += LoopTr::tr(
        "[Stopped by the user while still running; the output above is what the tool "
        "produced until then.]");
    ToolDetails details = partial->details;
    details.aborted = true;
    ToolResult result = ToolResult::makeText(text, details);
    result.isError = true;
    return result;
}

PreparedToolCall prepareToolCall(const ContentBlock &call, const RunTools &tools)
{
    PreparedToolCall prepared;
    prepared.call = call;
    const auto found = tools.constFind(call.name);
    if (found == tools.constEnd()) {
        prepared.failed = ToolResult::makeError(
            LoopTr::tr("Tool %1 not found. Available tools: %2.")
                .arg(call.name, availableTools(tools)));
        return prepared;
    }
    prepared.tool = found->tool;
    prepared.schema = found->schema;
    // Arguments that could not be read are not {}: validating them would tell the model that
    // a field is missing when its JSON is broken.
    if (!call.argumentsError.isEmpty()) {
        prepared.failed = ToolResult::makeError(call.argumentsError);
        return prepared;
    }
    const ArgumentValidation validation = prepared.schema.validate(call.name, call.arguments);
    if (!validation.ok)
        prepared.failed = ToolResult::makeError(validation.error);
    else
        prepared.arguments = validation.arguments;
    return prepared;
}

ToolResult executeToolCall(ToolJob job)
{
    if (job.context.abort.isAborted())
        return abortedToolResult();
    ToolCallContext &context = job.context;
    return guarded(context.toolName, [&] { return runLayer(job, 0, context); });
}

} // namespace AgentCore
