#pragma once

#include "permissionrequest.h"

#include <tools/toolworkspace.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace AgentCore {

/// The ground PartialChange and EditedChange share: what Edit or Write would do to a file
/// now, and the call of the same tool that makes the file's text exactly some other text than
/// the one the model proposed. Reads files; writes nothing. Any thread.
namespace ChangeArguments {

/// What Edit or Write would do with some arguments (EditTool::prepare, WriteTool::prepare).
struct Prepared
{
    ResolvedPath path;
    QByteArray after; ///< the bytes the tool would write
    QByteArray oldBody;
    QByteArray newBody;
    QString error;
};
Prepared prepare(const ToolWorkspace &workspace,
                 const QString &toolName,
                 const QJsonObject &arguments);

/// A body's text with LF line ends, as a reviewer is shown it.
QString lfText(const QByteArray &body);

/// \a request's call rewritten so that the tool turns request.oldText into \a text (LF line
/// ends): a Write of \a text, or an Edit of the lines from the first difference to the last,
/// with as much unchanged context around them as makes them unique in the file.
QJsonObject forText(const PermissionRequest &request, const QString &text);

} // namespace ChangeArguments

} // namespace AgentCore
