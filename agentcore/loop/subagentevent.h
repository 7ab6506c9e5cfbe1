#pragma once

#include "agenttypes.h"

#include <QMetaType>
#include <QStringList>

namespace AgentCore {

/// One event of a subagent (a child run the Task tool started), as the session tells it: the
/// child's own event, exactly as its loop emitted it, and which child it belongs to. A value
/// type; crosses threads.
struct SubagentEvent
{
    /// The Task call ids from the outermost: ["call_1"] for a child of the main agent,
    /// ["call_1","call_7"] for its child.
    QStringList path;
    QString agentType;   ///< "explore", "general", a Markdown type's name
    QString description; ///< the Task call's description
    AgentEvent event;    ///< the child's own event

    /// The path joined with "/": the key of SessionLog::Contents::subagents.
    QString key() const { return path.join(QLatin1Char('/')); }
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::SubagentEvent)
