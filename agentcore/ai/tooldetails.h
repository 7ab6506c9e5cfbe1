#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace AgentCore {

/// What a tool call reports for the people watching it; never sent to a model. The parts the
/// window reads are typed fields; whatever else a tool reports (counts, flags, the command)
/// stays key by key in `other`, shown as it is.
///
/// A session file and the JSON stream hold it as the one JSON object they always held
/// (toJson/fromJson, only there): each field is the key named in its comment, written only
/// when it is not its default (which is what an older reader takes for a missing key), and
/// fromJson takes those keys back out of the object, also from files written before the fields.
struct ToolDetails
{
    QString path;             ///< "path": the file or directory the call worked on, absolute
    QString displayPath;      ///< "displayPath": the same as the user knows it
    bool created = false;     ///< "created": Write made a new file
    QString diff;             ///< "diff": the unified diff of Edit, Write or a partial change
    int additions = 0;        ///< "additions": lines the diff adds
    int deletions = 0;        ///< "deletions": lines the diff removes
    QString logPath;          ///< "logPath": the file Bash kept the whole output in
    bool aborted = false;     ///< "aborted": the user stopped the call; the output is what it had
    bool interrupted = false; ///< "interrupted": the app ended while the call ran
    QJsonObject other;        ///< every other key, as the tool wrote it

    /// Nothing reported: a session writes no "details" key.
    bool isEmpty() const { return *this == ToolDetails(); }
    QJsonObject toJson() const;
    /// Anything but an object (null, a missing key) gives empty details.
    static ToolDetails fromJson(const QJsonValue &json);
    friend bool operator==(const ToolDetails &, const ToolDetails &) = default;
};

} // namespace AgentCore
