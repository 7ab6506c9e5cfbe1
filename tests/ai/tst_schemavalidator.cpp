#include "ai/schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_schemavalidator {

namespace {

QJsonObject json(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (!document.isObject())
        qFatal("bad test JSON %s: %s", text.constData(), qPrintable(error.errorString()));
    return document.object();
}

// Shaped like the coding tools' own schemas.
QHash<QString, ToolDefinition> tools()
{
    QHash<QString, ToolDefinition> tools;
    const auto add = [&tools](const char *name, const QByteArray &schema) {
        tools.insert(QLatin1String(name), {QLatin1String(name), u"test tool"_s, json(schema)});
    };
    add("Edit", R"({"type": "object", "properties": {
            "file_path": {"type": "string"},
            "old_string": {"type": "string"},
            "new_string": {"type": "string"},
            "replace_all": {"type": "boolean", "default": false}},
        "required": ["file_path", "old_string", "new_string"],
        "additionalProperties": false})");
    add("Read", R"({"type": "object", "properties": {
            "file_path": {"type": "string"},
            "offset": {"type": "integer", "minimum": 1},
            "limit": {"type": "integer", "minimum": 1, "maximum": 2000}},
        "required": ["file_path"], "additionalProperties": false})");
    add("Bash", R"({"type": "object", "properties": {
            "command": {"type": "string"},
            "timeout": {"type": "number", "minimum": 1000, "maximum": 600000},
            "run_in_background": {"type": "boolean", "default": false},
            "shell": {"enum": ["bash", "sh"], "default": "bash"}},
        "required": ["command"], "additionalProperties": false})");
    add("MultiEdit", R"({"type": "object", "properties": {
            "file_path": {"type": "string"},
            "edits": {"type": "array", "items": {"type": "object", "properties": {
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean", "default": false}},
              "required": ["old_string", "new_string"], "additionalProperties": false}}},
        "required": ["file_path", "edits"], "additionalProperties": false})");
    add("TodoWrite", R"({"type": "object", "properties": {
            "todos": {"type": "array", "items": {"type": "object", "properties": {
                "content": {"type": "string"},
                "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                "priority": {"type": "integer", "enum": [1, 2, 3], "default": 2}},
              "required": ["content", "status"]}},
            "note": {"type": ["string", "null"]},
            "tag": {"type": ["string", "number", "null"]},
            "options": {"type": "object", "properties": {
                "depth": {"type": "integer", "default": 3},
                "style": {"type": "object", "properties": {"color": {"default": "auto"}}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}},
        "required": ["todos"]})");
    add("Free", R"({})");
    return tools;
}

} // namespace

class tst_SchemaValidator : public QObject
{
    Q_OBJECT

private slots:
    void validate_data();
    void validate();
    void manyProblemsAreCapped();
    void longValuesAreTruncated();
};

void tst_SchemaValidator::validate_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QByteArray>("arguments");
    QTest::addColumn<QString>("error");     // empty: valid
    QTest::addColumn<QByteArray>("filled"); // valid: the arguments with defaults

    const auto valid = [](const char *name,
                          const char *tool,
                          const QByteArray &arguments,
                          const QByteArray &filled) {
        QTest::newRow(name) << QString::fromLatin1(tool) << arguments << QString() << filled;
    };
    const auto invalid =
        [](const char *name, const char *tool, const QByteArray &arguments, const QString &error) {
            QTest::newRow(name) << QString::fromLatin1(tool) << arguments << error << QByteArray();
        };

    valid("edit: default filled",
          "Edit",
          R"({"file_path": "a", "old_string": "b", "new_string": ""})",
          R"({"file_path": "a", "old_string": "b", "new_string": "", "replace_all": false})");
    valid("edit: given value kept",
          "Edit",
          R"({"file_path": "a", "old_string": "b", "new_string": "c", "replace_all": true})",
          R"({"file_path": "a", "old_string": "b", "new_string": "c", "replace_all": true})");
    invalid(
        "edit: missing and wrong type",
        "Edit",
        R"({"file_path": "a", "new_string": "c", "replace_all": "yes"})",
        uR"(Invalid arguments for Edit: /old_string is required; /replace_all must be a boolean, got "yes")"_s);
    invalid(
        "edit: misspelled property",
        "Edit",
        R"({"filepath": "a", "old_string": "b", "new_string": "c"})",
        uR"(Invalid arguments for Edit: /file_path is required; unexpected property "filepath" (allowed: "file_path", "new_string", "old_string", "replace_all"))"_s);
    invalid(
        "edit: two unexpected properties",
        "Edit",
        R"({"file_path": "a", "old_string": "b", "new_string": "c", "dry_run": true, "mode": 1})",
        uR"(Invalid arguments for Edit: unexpected properties "dry_run", "mode" (allowed: "file_path", "new_string", "old_string", "replace_all"))"_s);
    invalid(
        "edit: null is not a string",
        "Edit",
        R"({"file_path": null, "old_string": "b", "new_string": ["c", 1]})",
        uR"(Invalid arguments for Edit: /file_path must be a string, got null; /new_string must be a string, got ["c",1])"_s);
    invalid(
        "edit: everything missing",
        "Edit",
        "{}",
        uR"(Invalid arguments for Edit: /file_path is required; /old_string is required; /new_string is required)"_s);

    valid("read: integral double is an integer",
          "Read",
          R"({"file_path": "a", "offset": 3.0})",
          R"({"file_path": "a", "offset": 3})");
    invalid("read: fraction is not an integer",
            "Read",
            R"({"file_path": "a", "offset": 3.5})",
            uR"(Invalid arguments for Read: /offset must be an integer, got 3.5)"_s);
    invalid("read: integer as string",
            "Read",
            R"({"file_path": "a", "limit": "100"})",
            uR"(Invalid arguments for Read: /limit must be an integer, got "100")"_s);
    invalid(
        "read: below minimum",
        "Read",
        R"({"file_path": "a", "offset": 0, "limit": 0})",
        uR"(Invalid arguments for Read: /limit must be at least 1, got 0; /offset must be at least 1, got 0)"_s);
    invalid("read: above maximum",
            "Read",
            R"({"file_path": "a", "limit": 5000})",
            uR"(Invalid arguments for Read: /limit must be at most 2000, got 5000)"_s);
    invalid("read: path as number",
            "Read",
            R"({"file_path": 42})",
            uR"(Invalid arguments for Read: /file_path must be a string, got 42)"_s);

    valid("bash: defaults incl. enum",
          "Bash",
          R"({"command": "ls", "timeout": 1500.5})",
          R"({"command": "ls", "timeout": 1500.5, "run_in_background": false, "shell": "bash"})");
    invalid("bash: enum",
            "Bash",
            R"({"command": "ls", "shell": "zsh"})",
            uR"(Invalid arguments for Bash: /shell must be one of "bash", "sh", got "zsh")"_s);
    invalid("bash: number range",
            "Bash",
            R"({"command": "ls", "timeout": 1e9})",
            uR"(Invalid arguments for Bash: /timeout must be at most 600000, got 1000000000)"_s);

    valid("multiedit: defaults in every item",
          "MultiEdit",
          R"({"file_path": "f", "edits": [{"old_string": "a", "new_string": "b"},
                                          {"old_string": "c", "new_string": "d", "replace_all": true}]})",
          R"({"file_path": "f", "edits": [{"old_string": "a", "new_string": "b", "replace_all": false},
                                          {"old_string": "c", "new_string": "d", "replace_all": true}]})");
    invalid(
        "multiedit: problems in items",
        "MultiEdit",
        R"({"file_path": "f", "edits": [{"new_string": "b"},
                                            {"old_string": "c", "new_string": "d", "replace_all": "no"},
                                            {"old_string": "e", "new_string": "f", "path": "x"},
                                            "g"]})",
        uR"(Invalid arguments for MultiEdit: /edits/0/old_string is required; /edits/1/replace_all must be a boolean, got "no"; /edits/2 has unexpected property "path" (allowed: "new_string", "old_string", "replace_all"); /edits/3 must be an object, got "g")"_s);
    invalid(
        "multiedit: object instead of array",
        "MultiEdit",
        R"({"file_path": "f", "edits": {"old_string": "a", "new_string": "b"}})",
        uR"(Invalid arguments for MultiEdit: /edits must be an array, got {"new_string":"b","old_string":"a"})"_s);

    valid("todo: nested defaults only in present objects",
          "TodoWrite",
          R"({"todos": [{"content": "x", "status": "pending"}], "options": {"style": {}}})",
          R"({"todos": [{"content": "x", "status": "pending", "priority": 2}],
              "options": {"depth": 3, "style": {"color": "auto"}}})");
    valid("todo: absent object stays absent",
          "TodoWrite",
          R"({"todos": [], "note": null})",
          R"({"todos": [], "note": null})");
    valid(
        "todo: extra properties allowed by default",
        "TodoWrite",
        R"({"todos": [{"content": "x", "status": "completed", "priority": 1.0, "id": 7}], "x": 1})",
        R"({"todos": [{"content": "x", "status": "completed", "priority": 1.0, "id": 7}], "x": 1})");
    invalid(
        "todo: enum inside items",
        "TodoWrite",
        R"({"todos": [{"content": "x", "status": "done", "priority": 5}]})",
        uR"(Invalid arguments for TodoWrite: /todos/0/priority must be one of 1, 2, 3, got 5; /todos/0/status must be one of "pending", "in_progress", "completed", got "done")"_s);
    invalid(
        "todo: type lists",
        "TodoWrite",
        R"({"todos": [], "note": 5, "tag": false})",
        uR"(Invalid arguments for TodoWrite: /note must be a string or null, got 5; /tag must be a string, a number or null, got false)"_s);
    invalid("todo: additionalProperties schema, pointer escaping",
            "TodoWrite",
            R"({"todos": [], "labels": {"ok": "fine", "a/b~c": 1}})",
            uR"(Invalid arguments for TodoWrite: /labels/a~1b~0c must be a string, got 1)"_s);

    valid("no schema accepts anything",
          "Free",
          R"({"anything": [1, {"x": null}]})",
          R"({"anything": [1, {"x": null}]})");
}

void tst_SchemaValidator::validate()
{
    QFETCH(QString, tool);
    QFETCH(QByteArray, arguments);
    QFETCH(QString, error);
    QFETCH(QByteArray, filled);

    const ArgumentValidation result = validateToolArguments(tools().value(tool), json(arguments));
    QCOMPARE(result.error, error);
    QCOMPARE(result.ok, error.isEmpty());
    if (result.ok) {
        QCOMPARE(QJsonDocument(result.arguments).toJson(QJsonDocument::Compact),
                 QJsonDocument(json(filled)).toJson(QJsonDocument::Compact));
        // Filled-in arguments are themselves valid (the agent validates again after middlewares).
        QVERIFY(validateToolArguments(tools().value(tool), result.arguments).ok);
    }
}

void tst_SchemaValidator::manyProblemsAreCapped()
{
    QJsonArray edits;
    for (int i = 0; i < 25; ++i)
        edits.append(i);
    const QJsonObject arguments{{"file_path"_L1, "f"_L1}, {"edits"_L1, edits}};
    const ArgumentValidation result = validateToolArguments(tools().value(u"MultiEdit"_s),
                                                            arguments);
    QVERIFY(!result.ok);
    QVERIFY(result.error.startsWith(
        "Invalid arguments for MultiEdit: /edits/0 must be an object, got 0; "_L1));
    QVERIFY(result.error.contains("/edits/19 must be an object, got 19; "_L1));
    QVERIFY(!result.error.contains("/edits/20"_L1));
    QVERIFY(result.error.endsWith("; 5 more problems not shown"_L1));
}

void tst_SchemaValidator::longValuesAreTruncated()
{
    const QString longCommand = u"echo "_s + QString(200, u'x');
    const QJsonObject arguments{{"command"_L1, QJsonArray{longCommand}}};
    const ArgumentValidation result = validateToolArguments(tools().value(u"Bash"_s), arguments);
    const QString shown = uR"(["echo )"_s + QString(50, u'x') + "..."_L1;
    QCOMPARE(result.error, u"Invalid arguments for Bash: /command must be a string, got "_s + shown);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_SchemaValidator)

} // namespace tst_schemavalidator

#include "tst_schemavalidator.moc"
