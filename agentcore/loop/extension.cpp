#include "extension.h"
#include "translation.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <exception>
#include <utility>

namespace AgentCore {

namespace {

QString exceptionText(const std::exception_ptr &error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception &exception) {
        return QString::fromUtf8(exception.what());
    } catch (...) {
    }
    return LoopTr::tr("unknown error");
}

// Extensions may come from outside the core: a throwing hook must not skip the after() of
// the others, so each hook is fenced on its own.
std::optional<ToolResult> runBefore(Extension &extension, ToolCallContext &context)
{
    try {
        return extension.before(context);
    } catch (...) {
        return ToolResult::makeError(
            LoopTr::tr("The %1 extension failed before %2 ran (%3), so the call was not made.")
                .arg(extension.name(), context.toolName, exceptionText(std::current_exception())));
    }
}

void runAfter(Extension &extension,
              const ToolCallContext &context,
              const ToolResult &result,
              qint64 durationMs)
{
    try {
        extension.after(context, result, durationMs);
    } catch (...) {
        // Nothing to tell the model: the call already has its result.
    }
}

} // namespace

ToolMiddleware makeExtensionMiddleware(QList<ExtensionPtr> extensions)
{
    extensions.removeAll(nullptr);
    return [extensions = std::move(extensions)](ToolCallContext &context, const ToolNext &next) {
        QElapsedTimer timer;
        timer.start();
        std::optional<ToolResult> result;
        for (const ExtensionPtr &extension : extensions) {
            result = runBefore(*extension, context);
            if (result)
                break;
        }
        if (!result)
            result = next(context);
        const qint64 durationMs = timer.elapsed();
        for (auto it = extensions.crbegin(); it != extensions.crend(); ++it)
            runAfter(**it, context, *result, durationMs);
        return *result;
    };
}

} // namespace AgentCore
