#include "demoscript.h"
#include "translation.h"

#include "demotask.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <optional>

namespace AgentCore {

namespace {

using Call = DemoTask::Call;

const QString LsName = QStringLiteral("LS");
const QString GlobName = QStringLiteral("Glob");
const QString ReadName = QStringLiteral("Read");
const QString EditName = QStringLiteral("Edit");
const QString WriteName = QStringLiteral("Write");
const QString BashName = QStringLiteral("Bash");
const QString StatusCommand = QStringLiteral("git status --short");

constexpr int maxTurns = 6; // explore, read, change, revise, command, answer
constexpr int maxAnchorLength = 200;
constexpr int minLinesForSecondHunk = 8; // after the first line: two hunks, not one
constexpr int maxEditedLines = 200;
constexpr int maxBodyLineLength = 1000;

enum class Step { Explore, Read, Change, Revise, Command, Answer };

/// \a text on one line, cut to \a max characters, in quotation marks.
QString quoted(const QString &text, int max = 160)
{
    QString line = text.simplified();
    if (line.size() > max)
        line = line.left(max - 1) + QChar(0x2026);
    return AiTr::tr("\u201c%1\u201d").arg(line);
}

QString firstLine(const QString &text)
{
    return text.trimmed().section(QLatin1Char('\n'), 0, 0);
}

QString code(const QString &text)
{
    return QLatin1Char('`') + text + QLatin1Char('`');
}

QString filePathOf(const Call &call)
{
    return call.call.arguments.value(QLatin1String("file_path")).toString();
}

bool isReadme(const QString &path)
{
    return QFileInfo(path).fileName().startsWith(QLatin1String("readme"), Qt::CaseInsensitive);
}

// Files whose text a believable note can go into without breaking anything.
bool isDocument(const QString &path)
{
    static const QSet<QString> extensions{QStringLiteral("md"),
                                          QStringLiteral("markdown"),
                                          QStringLiteral("rst"),
                                          QStringLiteral("adoc"),
                                          QStringLiteral("org"),
                                          QStringLiteral("txt")};
    static const QSet<QString> names{QStringLiteral("readme"),
                                     QStringLiteral("changelog"),
                                     QStringLiteral("changes"),
                                     QStringLiteral("news"),
                                     QStringLiteral("authors"),
                                     QStringLiteral("contributing"),
                                     QStringLiteral("todo"),
                                     QStringLiteral("notes"),
                                     QStringLiteral("history"),
                                     QStringLiteral("install")};
    const QFileInfo info(path);
    const QString name = info.fileName().toLower();
    if (path.endsWith(QLatin1Char('/')) || name == QLatin1String("cmakelists.txt")
        || name.startsWith(QLatin1String("requirements")))
        return false;
    if (isReadme(name))
        return true;
    return info.suffix().isEmpty() ? names.contains(name)
                                   : extensions.contains(info.suffix().toLower());
}

// README first, then the other documents in the order they were listed.
QStringList readCandidates(const QList<Call> &calls)
{
    QStringList listed;
    for (const Call &call : calls) {
        if (!call.succeeded())
            continue;
        if (call.call.name == GlobName)
            listed += DemoTask::globPaths(call.resultText());
        else if (call.call.name == LsName)
            listed += DemoTask::lsEntries(call.resultText());
    }
    QStringList documents;
    for (const QString &path : std::as_const(listed)) {
        if (isDocument(path) && !documents.contains(path))
            documents.append(path);
    }
    std::stable_sort(documents.begin(), documents.end(), [](const QString &a, const QString &b) {
        // The demo's own notes come next: a later task updates the note it left there.
        const auto rank = [](const QString &p) {
            if (p == DemoScript::notesFileName())
                return 1;
            return isReadme(p) ? (p.contains(QLatin1Char('/')) ? 1 : 0) : 2;
        };
        return rank(a) < rank(b);
    });
    return documents;
}

struct EditPlan
{
    QString path;
    QString oldString;
    QString newString;
    /// The note goes in at the top and a closing line further down, with enough unchanged
    /// lines between them for two hunks in the review.
    bool twoPlaces = false;
    /// A later task's update of the note an earlier one left.
    bool updatesNote = false;
};

// Where the closing line goes: after the first \a rest lines that end a paragraph, at least
// minLinesForSecondHunk lines down (far enough from the note for a hunk of its own with three
// lines of context on each side) and at most maxEditedLines (the lines between are sent whole
// in old_string and new_string). All of \a rest when it is the whole rest of the file and
// short enough. 0: there is no such place.
qsizetype closingPlace(const QStringList &rest, bool restIsWholeFile)
{
    qsizetype usable = std::min<qsizetype>(rest.size(), maxEditedLines);
    for (qsizetype i = 0; i < usable; ++i) {
        if (rest.at(i).size() > maxBodyLineLength) // Read may have cut it: it would not match
            usable = i;
    }
    if (usable < minLinesForSecondHunk)
        return 0;
    if (restIsWholeFile && usable == rest.size())
        return usable;
    for (qsizetype end = minLinesForSecondHunk; end <= usable && end < rest.size(); ++end) {
        const bool endsParagraph = !rest.at(end - 1).trimmed().isEmpty()
                                   && rest.at(end).trimmed().isEmpty();
        if (endsParagraph)
            return end;
    }
    return usable; // one long paragraph: the line still goes in, as a paragraph of its own
}

// Inserts the note after the file's first meaningful line: old_string is that line (with a
// setext underline when it has one), unique in what was shown so the Edit applies cleanly.
// When enough lines follow it also adds a closing line further down (at the end of a file of
// up to maxEditedLines lines, else at the end of a paragraph), so that the change has two
// hunks to review one by one; old_string then runs from the anchor to that place. A file that
// has the note already (a later task) gets its note updated instead. \a lines: what Read
// showed (or what the demo wrote); \a complete: that is all of the file.
std::optional<EditPlan> planEdit(const QString &path, const QStringList &lines, bool complete)
{
    // Only the part Read showed is known: a line unique there may repeat further down, and
    // then the Edit fails and the demo goes on without it.
    const QString whole = lines.join(QLatin1Char('\n'));
    const QString note = DemoScript::note();
    if (whole.count(note) == 1)
        return EditPlan{path, note, DemoScript::secondNote(), false, true};
    if (whole.contains(note) || whole.contains(DemoScript::secondNote()))
        return std::nullopt;
    const auto isFence = [](const QString &line) { return line.trimmed() == QLatin1String("---"); };
    qsizetype i = 0;
    if (!lines.isEmpty() && isFence(lines.first())) { // front matter: the note goes after it
        i = 1;
        while (i < lines.size() && !isFence(lines.at(i)))
            ++i;
        ++i;
    }
    const auto isUnderline = [](const QString &line) {
        const QString t = line.trimmed();
        return t.size() >= 2
               && (t.count(QLatin1Char('=')) == t.size() || t.count(QLatin1Char('-')) == t.size());
    };
    for (; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        if (line.trimmed().isEmpty() || line.size() > maxAnchorLength)
            continue;
        QString anchor = line;
        const bool underlined = i + 1 < lines.size() && isUnderline(lines.at(i + 1));
        if (underlined)
            anchor += QLatin1Char('\n') + lines.at(i + 1);
        const qsizetype next = underlined ? i + 2 : i + 1;
        if (whole.count(anchor) != 1)
            continue;
        const bool textFollows = next < lines.size() && !lines.at(next).trimmed().isEmpty();
        QString replacement = anchor + QStringLiteral("\n\n") + note;
        if (textFollows)
            replacement += QLatin1Char('\n');
        QStringList rest = lines.mid(next);
        if (complete) {
            while (!rest.isEmpty() && rest.last().trimmed().isEmpty())
                rest.removeLast();
        }
        const qsizetype end = closingPlace(rest, complete);
        if (end == 0)
            return EditPlan{path, anchor, replacement};
        const QString body = rest.mid(0, end).join(QLatin1Char('\n'));
        QString closing = QStringLiteral("\n\n") + DemoScript::closingNote();
        if (end < rest.size() && !rest.at(end).trimmed().isEmpty())
            closing += QLatin1Char('\n'); // a paragraph of its own, before the text going on
        return EditPlan{path,
                        anchor + QLatin1Char('\n') + body,
                        replacement + QLatin1Char('\n') + body + closing,
                        true};
    }
    return std::nullopt;
}

std::optional<EditPlan> planEdit(const Call &read)
{
    // Read ends with a note ("[Showing lines ...]") when it did not show the whole file.
    const bool complete = !read.resultText().contains(QLatin1String("\n["));
    return planEdit(filePathOf(read), DemoTask::readLines(read.resultText()), complete);
}

Step stepAfter(const QList<Call> &calls)
{
    Step step = Step::Explore;
    for (const Call &call : calls) {
        const QString &name = call.call.name;
        Step after = Step::Answer;
        if (name == LsName || name == GlobName)
            after = Step::Read;
        else if (name == ReadName)
            after = Step::Change;
        else if (name == WriteName)
            after = Step::Revise;
        else if (name == EditName)
            after = Step::Command;
        step = std::max(step, after);
    }
    return step;
}

ContentBlock toolCall(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return ContentBlock::makeToolCall(id, name, arguments);
}

// The permission layer's words for a reviewer's "no" (see PermissionMiddleware), as the user
// reads them, or in English.
bool isDenial(const QString &text)
{
    const QString translated = QCoreApplication::translate("AgentCore::Permissions",
                                                           "The user denied %1.")
                                   .section(QLatin1String("%1"), 0, 0);
    return (!translated.isEmpty() && text.startsWith(translated))
           || text.contains(QLatin1String("user denied"), Qt::CaseInsensitive);
}

QString documentPattern()
{
    return QStringLiteral("**/*.{md,txt,rst}");
}

// What the demo writes when no file it read can show a change in two places: long enough for
// its edit to (revise()).
QString notesContent()
{
    return AiTr::tr("# Demo notes\n\nAgentDesk's offline demo proposed this file: it is a "
                    "scripted model that looks around, proposes changes for you to review and "
                    "runs a command.\n\n## What it did\n\n- It listed the repository and "
                    "searched it for documentation.\n- It read a README or another text file "
                    "when there was one.\n- It wrote this file, then proposed an edit of it in "
                    "two places.\n- It ran `git status --short` to show what changed.\n\n## "
                    "Next\n\nTo let a real model work on this repository, open Settings\u2026 in "
                    "the Agent menu.\n");
}

// Builds the message for one step; a step that cannot be taken (no tool, nothing to read)
// returns nullopt and the next step is tried.
class Planner
{
public:
    explicit Planner(const Context &context)
        : m_context(context)
        , m_task(context.messages)
    {
        for (const ToolDefinition &tool : context.tools)
            m_tools.insert(tool.name);
    }

    Message next() const
    {
        Step step = m_task.assistantTurns() >= maxTurns - 1 ? Step::Answer
                                                            : stepAfter(m_task.lastCalls());
        for (;; step = Step(int(step) + 1)) {
            std::optional<Message> message;
            switch (step) {
            case Step::Explore:
                message = explore();
                break;
            case Step::Read:
                message = read();
                break;
            case Step::Change:
                message = change();
                break;
            case Step::Revise:
                message = revise();
                break;
            case Step::Command:
                message = command();
                break;
            case Step::Answer:
                return answer();
            }
            if (message)
                return *message;
        }
    }

private:
    bool has(const QString &tool) const { return m_tools.contains(tool); }

    QString id(int n) const
    {
        return QStringLiteral("demo_%1_%2").arg(m_context.messages.size()).arg(n);
    }

    // Steering arrives as user messages after the last turn: say it was heard.
    QString acknowledged(const QString &text) const
    {
        const QStringList steering = m_task.steering();
        if (steering.isEmpty())
            return text;
        return AiTr::tr("You said: %1. Noted. This scripted demo cannot change its plan, so I'll "
                        "carry on.")
                   .arg(quoted(steering.join(QLatin1Char(' '))))
               + QStringLiteral("\n\n") + text;
    }

    Message withCalls(const QString &text, const QList<ContentBlock> &calls) const
    {
        Message message;
        message.role = Message::Role::Assistant;
        message.content.append(ContentBlock::makeText(acknowledged(text)));
        message.content.append(calls);
        message.stopReason = calls.isEmpty() ? StopReason::Stop : StopReason::ToolUse;
        return message;
    }

    std::optional<Message> explore() const
    {
        QList<ContentBlock> calls;
        if (has(LsName))
            calls.append(toolCall(id(1), LsName, {{QStringLiteral("path"), QStringLiteral(".")}}));
        if (has(GlobName)) {
            calls.append(
                toolCall(id(2), GlobName, {{QStringLiteral("pattern"), documentPattern()}}));
        }
        if (calls.isEmpty())
            return std::nullopt;
        // A new task in the same conversation: another run, saying what it is about.
        if (m_task.followsFinishedTask()) {
            return withCalls(AiTr::tr("On to the next task: %1. I'll look at the repository "
                                      "again.")
                                 .arg(quoted(m_task.request().join(QLatin1Char(' ')))),
                             calls);
        }
        return withCalls(AiTr::tr("I'll start by looking at the repository."), calls);
    }

    std::optional<Message> read() const
    {
        const QStringList files = readCandidates(m_task.lastCalls()).mid(0, 2);
        if (files.isEmpty() || !has(ReadName))
            return std::nullopt;
        QList<ContentBlock> calls;
        for (const QString &file : files)
            calls.append(toolCall(id(int(calls.size()) + 1),
                                  ReadName,
                                  {{QStringLiteral("file_path"), file}}));
        QString text;
        if (files.size() == 2) {
            text = isReadme(files.first())
                       ? AiTr::tr("There is a README, %1. I'll read it and %2 at the same time.")
                       : AiTr::tr("There is no README, but there are text files. I'll read %1 "
                                  "and %2 at the same time.");
            text = text.arg(code(files.at(0)), code(files.at(1)));
        } else {
            text = isReadme(files.first())
                       ? AiTr::tr("There is a README, %1. I'll read it.")
                       : AiTr::tr("There is no README, but there is a text file. I'll read %1.");
            text = text.arg(code(files.first()));
        }
        return withCalls(text, calls);
    }

    Message editMessage(const EditPlan &plan, const QString &text) const
    {
        const QJsonObject arguments{{QStringLiteral("file_path"), plan.path},
                                    {QStringLiteral("old_string"), plan.oldString},
                                    {QStringLiteral("new_string"), plan.newString}};
        return withCalls(text, {toolCall(id(1), EditName, arguments)});
    }

    // The edit of a file that was read: one whose change has two hunks (or that updates the
    // note of an earlier task). A file too short for that gets the demo's own notes instead
    // (written, then edited in two places: revise()), so the review shows hunks to take or
    // leave one by one whatever the repository holds.
    std::optional<Message> change() const
    {
        const QList<Call> calls = m_task.lastCalls();
        QString tooShort; // a file that was read but offers only one place for the note
        QString unusable; // a file that was read but offers no line to edit after
        std::optional<EditPlan> onePlace;
        for (const Call &call : calls) {
            if (call.call.name != ReadName || !call.succeeded())
                continue;
            const std::optional<EditPlan> plan = planEdit(call);
            if (plan && has(EditName) && (plan->twoPlaces || plan->updatesNote)) {
                return editMessage(*plan,
                                   plan->twoPlaces
                                       ? AiTr::tr("I'll add a short note after the first line "
                                                  "of %1 and a closing line further down: two "
                                                  "changes you can review and take or leave one "
                                                  "by one.")
                                             .arg(code(plan->path))
                                       : AiTr::tr("I'll add a short note after the first line "
                                                  "of %1. You can review the change before it "
                                                  "is applied.")
                                             .arg(code(plan->path)));
            }
            if (plan && !onePlace)
                onePlace = plan;
            QString &why = plan ? tooShort : unusable;
            if (why.isEmpty())
                why = filePathOf(call);
        }
        if (!has(WriteName) || !has(EditName)) {
            // The notes cannot be both written and edited: the one change there is.
            if (onePlace && has(EditName)) {
                return editMessage(*onePlace,
                                   AiTr::tr("I'll add a short note after the first line of %1. "
                                            "You can review the change before it is applied.")
                                       .arg(code(onePlace->path)));
            }
            if (!has(WriteName))
                return std::nullopt;
            return withCalls(AiTr::tr("I'll propose a new file, %1. You can review it before it "
                                      "is written.")
                                 .arg(code(DemoScript::notesFileName())),
                             {notesCall()});
        }
        const QString notes = code(DemoScript::notesFileName());
        QString text;
        if (!tooShort.isEmpty()) {
            text = AiTr::tr("%1 is too short to show a change in two places, so I'll propose a "
                            "new file, %2, and then an edit of it. You can review each before it "
                            "is applied.")
                       .arg(code(tooShort), notes);
        } else if (!unusable.isEmpty()) {
            text = AiTr::tr("%1 has no line I can safely add a note after, so I'll propose a new "
                            "file, %2, and then an edit of it. You can review each before it is "
                            "applied.")
                       .arg(code(unusable), notes);
        } else {
            text = AiTr::tr("I found no text file to edit, so I'll propose a new file, %1, and "
                            "then an edit of it. You can review each before it is applied.")
                       .arg(notes);
        }
        return withCalls(text, {notesCall()});
    }

    ContentBlock notesCall() const
    {
        const QJsonObject arguments{{QStringLiteral("file_path"), DemoScript::notesFileName()},
                                    {QStringLiteral("content"), notesContent()}};
        return toolCall(id(1), WriteName, arguments);
    }

    // After the demo wrote its notes: the edit with two hunks that the file it read could not
    // give.
    std::optional<Message> revise() const
    {
        if (!has(EditName))
            return std::nullopt;
        for (const Call &call : m_task.lastCalls()) {
            if (call.call.name != WriteName || !call.succeeded())
                continue;
            const QString path = filePathOf(call);
            const QString content = call.call.arguments.value(QLatin1String("content")).toString();
            QStringList lines = content.split(QLatin1Char('\n'));
            if (content.endsWith(QLatin1Char('\n')))
                lines.removeLast();
            if (const std::optional<EditPlan> plan = planEdit(path, lines, true)) {
                return editMessage(*plan,
                                   AiTr::tr("Now the edit: a note after the first line of %1 "
                                            "and a closing line at its end, two changes you can "
                                            "review and take or leave one by one.")
                                       .arg(code(path)));
            }
        }
        return std::nullopt;
    }

    std::optional<Message> command() const
    {
        if (!has(BashName))
            return std::nullopt;
        QString text = AiTr::tr("Let me check the working tree.");
        for (const Call &call : m_task.lastCalls()) {
            if (call.call.name == EditName || call.call.name == WriteName) {
                text = call.succeeded() ? AiTr::tr("The change is in. Let me check the working "
                                                   "tree.")
                                        : AiTr::tr("The change was not applied; I'll go on and "
                                                   "check the working tree.");
            }
        }
        const QJsonObject arguments{{QStringLiteral("command"), StatusCommand},
                                    {QStringLiteral("description"),
                                     AiTr::tr("Show which files changed")}};
        return withCalls(text, {toolCall(id(1), BashName, arguments)});
    }

    Message answer() const;

    const Context &m_context;
    DemoTask m_task;
    QSet<QString> m_tools;
};

QString changeLine(const Call &call)
{
    const QString file = code(filePathOf(call));
    const bool edit = call.call.name == EditName;
    if (call.succeeded()) {
        return edit ? AiTr::tr("**Edited** %1: the edit was applied (a note near its start).")
                          .arg(file)
                    : AiTr::tr("**Created** %1.").arg(file);
    }
    const QString reason = quoted(firstLine(call.resultText()));
    if (isDenial(call.resultText())) {
        return edit ? AiTr::tr("**Edit rejected**: you rejected the change to %1, so the file is "
                               "unchanged (%2).")
                          .arg(file, reason)
                    : AiTr::tr("**Write rejected**: you rejected %1, so it was not written (%2).")
                          .arg(file, reason);
    }
    return edit ? AiTr::tr("**Edit not applied**: %1 is unchanged (%2).").arg(file, reason)
                : AiTr::tr("**Write not applied**: %1 was not written (%2).").arg(file, reason);
}

QString fenced(const QString &output)
{
    // Only the ends: git's short format starts with a space for a change that is not staged.
    QString text = output;
    while (text.startsWith(QLatin1Char('\n')))
        text.remove(0, 1);
    while (!text.isEmpty() && text.back().isSpace())
        text.chop(1);
    QStringList lines = text.split(QLatin1Char('\n'));
    constexpr int maxLines = 8;
    if (lines.size() > maxLines) {
        lines = lines.mid(0, maxLines);
        lines.append(QString(QChar(0x2026)));
    }
    return QStringLiteral("```\n") + lines.join(QLatin1Char('\n')) + QStringLiteral("\n```");
}

Message Planner::answer() const
{
    QStringList bullets;
    QStringList read;
    qsizetype readAt = -1;
    bool proposedChange = false;
    QString output;
    for (const Call &call : m_task.allCalls()) {
        const QString &name = call.call.name;
        if (name == EditName || name == WriteName) {
            proposedChange = true;
            bullets.append(changeLine(call));
        } else if (!call.succeeded()) {
            const QString what = name == BashName ? code(
                                     call.call.arguments.value(QLatin1String("command")).toString())
                                                  : code(name);
            bullets.append(
                AiTr::tr("%1 did not work: %2").arg(what, quoted(firstLine(call.resultText()))));
        } else if (name == LsName) {
            const int entries = int(DemoTask::lsEntries(call.resultText()).size());
            bullets.append(AiTr::tr("**Listed** the top level of the repository (%n entries).",
                                    nullptr,
                                    entries));
        } else if (name == GlobName) {
            const int files = int(DemoTask::globPaths(call.resultText()).size());
            bullets.append(
                AiTr::tr("**Searched** for documentation with %1: found %n files.", nullptr, files)
                    .arg(code(documentPattern())));
        } else if (name == ReadName) {
            if (read.isEmpty()) { // the reads of the task share one line, where the first was
                readAt = bullets.size();
                bullets.append(QString());
            }
            read.append(code(filePathOf(call)));
        } else if (name == BashName) {
            bullets.append(AiTr::tr("**Ran** %1; it printed:").arg(code(StatusCommand)));
            output = fenced(call.resultText());
        }
    }
    if (!proposedChange && !has(EditName) && !has(WriteName))
        bullets.append(AiTr::tr("**No edit proposed**: editing is not available in this mode."));
    if (readAt >= 0)
        bullets[readAt] = AiTr::tr("**Read** %1.")
                              .arg(read.size() == 2
                                       ? AiTr::tr("%1 and %2").arg(read.first(), read.last())
                                       : read.join(QStringLiteral(", ")));
    if (bullets.isEmpty())
        bullets.append(AiTr::tr("Nothing: no tool was available to me."));

    QString text = AiTr::tr("Here is what I did:") + QStringLiteral("\n\n- ")
                   + bullets.join(QStringLiteral("\n- "));
    if (!output.isEmpty())
        text += QStringLiteral("\n\n") + output;
    text += QStringLiteral("\n\n")
            + AiTr::tr(
                "*This was AgentDesk's offline demo: a scripted model that follows the same "
                "plan in any repository. To use a real model, open **Settings\u2026** in the "
                "Agent menu or click the model button in the status bar.*");
    return withCalls(text, {});
}

} // namespace

DemoScript::DemoScript(const Context &context)
    : m_context(context)
{}

QString DemoScript::note()
{
    return AiTr::tr("> Tried with AgentDesk's offline demo.");
}

QString DemoScript::secondNote()
{
    return AiTr::tr("> Tried twice with AgentDesk's offline demo.");
}

QString DemoScript::closingNote()
{
    return AiTr::tr("*The note at the top was added by AgentDesk's offline demo.*");
}

QString DemoScript::notesFileName()
{
    return QStringLiteral("DEMO_NOTES.md");
}

Message DemoScript::next() const
{
    return Planner(m_context).next();
}

} // namespace AgentCore
