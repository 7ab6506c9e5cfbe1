#pragma once

#include <QJsonObject>
#include <QString>

namespace Ui {

/// A tool call's arguments as a person reads them before approving it: indented JSON, keys in
/// the model's order as QJsonObject keeps them (sorted). The arguments are untrusted (an MCP
/// server names the tool, the model writes the values), so what is shown is bounded whatever
/// they hold: nesting past maxDepth, members past maxMembers, strings past maxStringChars and
/// lines past maxLines are cut, each cut saying what it left out; characters that could make
/// the text read differently from what it is (bidi controls, other invisible format
/// characters, control characters) are shown escaped. Pure; any thread.
struct ToolArgumentsText
{
    static constexpr int maxDepth = 6;
    static constexpr int maxMembers = 50;
    static constexpr int maxStringChars = 2000;
    static constexpr int maxLines = 200;

    /// "{}" for no arguments.
    static QString format(const QJsonObject &arguments);
};

} // namespace Ui
