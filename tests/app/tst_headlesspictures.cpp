// agentdesk --print and pictures: Read of a PNG returns the picture, scaled to the provider's
// limits, and the next request carries it as each wire API wants it (Anthropic an image block
// in the tool_result, Responses an input_image in the output, Chat Completions a user message
// with an image_url after the tool's); a model that takes no pictures gets a note instead; the
// session keeps the picture beside its file, and --continue sends it again from there. The
// harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <ai/picture.h>
#include <session/sessionpictures.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesspictures {

namespace {

quint32 crc32Of(const QByteArray &bytes)
{
    quint32 crc = 0xFFFFFFFFu;
    for (const char byte : bytes) {
        crc ^= quint8(byte);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray bigEndian32(quint32 value)
{
    QByteArray bytes;
    for (int shift = 24; shift >= 0; shift -= 8)
        bytes.append(char((value >> shift) & 0xFF));
    return bytes;
}

QByteArray pngChunk(const QByteArray &type, const QByteArray &data)
{
    return bigEndian32(quint32(data.size())) + type + data + bigEndian32(crc32Of(type + data));
}

// A real PNG of \a width x \a height red pixels, wider than any provider takes as it is.
QByteArray redPng(int width, int height)
{
    QByteArray header = bigEndian32(quint32(width)) + bigEndian32(quint32(height));
    header += QByteArray("\x08\x02\0\0\0", 5); // 8-bit RGB
    QByteArray row(1, '\0');
    for (int x = 0; x < width; ++x)
        row += QByteArray("\xff\x10\x10", 3);
    QByteArray raw;
    for (int y = 0; y < height; ++y)
        raw += row;
    const QByteArray zlib = qCompress(raw).mid(4); // qCompress puts the length first
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", header) + pngChunk("IDAT", zlib)
           + pngChunk("IEND", {});
}

ReplyToolCall readShot()
{
    return {QStringLiteral("call_shot"),
            QStringLiteral("Read"),
            {{QStringLiteral("file_path"), QStringLiteral("shot.png")}}};
}

void useModel(HeadlessRun &run, const QString &model)
{
    const qsizetype at = run.arguments.indexOf(QStringLiteral("--model"));
    run.arguments[at + 1] = model;
}

// The base64 of the picture the request \a body carries after the tool's result, as \a api
// puts it; empty when none.
QByteArray pictureSent(ReplyApi api, const QByteArray &body)
{
    const QJsonObject request = QJsonDocument::fromJson(body).object();
    const auto fromDataUrl = [](const QString &url) {
        return url.startsWith(QLatin1String("data:image/png;base64,"))
                   ? url.section(u',', 1).toLatin1()
                   : QByteArray();
    };
    if (api == ReplyApi::AnthropicMessages) {
        for (const QJsonValue &message : request.value("messages").toArray()) {
            for (const QJsonValue &block : message.toObject().value("content").toArray()) {
                if (block.toObject().value("type") != QLatin1String("tool_result"))
                    continue;
                for (const QJsonValue &part : block.toObject().value("content").toArray()) {
                    const QJsonObject source = part.toObject().value("source").toObject();
                    if (part.toObject().value("type") == QLatin1String("image")
                        && source.value("media_type") == QLatin1String("image/png"))
                        return source.value("data").toString().toLatin1();
                }
            }
        }
    } else if (api == ReplyApi::OpenAiResponses) {
        for (const QJsonValue &item : request.value("input").toArray()) {
            for (const QJsonValue &part : item.toObject().value("output").toArray()) {
                if (part.toObject().value("type") == QLatin1String("input_image"))
                    return fromDataUrl(part.toObject().value("image_url").toString());
            }
        }
    } else {
        bool afterTool = false;
        for (const QJsonValue &value : request.value("messages").toArray()) {
            const QJsonObject message = value.toObject();
            if (message.value("role") == QLatin1String("tool"))
                afterTool = true;
            if (!afterTool || message.value("role") != QLatin1String("user"))
                continue;
            for (const QJsonValue &part : message.value("content").toArray()) {
                if (part.toObject().value("type") == QLatin1String("image_url"))
                    return fromDataUrl(
                        part.toObject().value("image_url").toObject().value("url").toString());
            }
        }
    }
    return {};
}

} // namespace

class tst_HeadlessPictures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void readPictureGoesAsEachApiWantsIt_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("longEdge"); // the provider's limit

        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages << "claude-sonnet-4-5" << 1568;
        QTest::newRow("openai-chat") << ReplyApi::OpenAiChat << "gpt-4o" << 2048;
        QTest::newRow("openai-responses") << ReplyApi::OpenAiResponses << "gpt-5" << 2048;
    }

    void readPictureGoesAsEachApiWantsIt()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, model);
        QFETCH(int, longEdge);

        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(sandbox.write(QStringLiteral("shot.png"), redPng(3000, 40)));
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(scriptedReply(api, QStringLiteral("Looking."), {readShot()}));
        server.enqueue(scriptedReply(api, QStringLiteral("It is a red bar.")));
        HeadlessRun run(sandbox, server, api, {}, QStringLiteral("What is in shot.png?"));
        useModel(run, model);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);

        const QByteArray body = server.requests().at(1).body;
        const QByteArray sent = pictureSent(api, body);
        QVERIFY2(!sent.isEmpty(), body.left(3000).constData());
        // Scaled down to the provider's long edge, keeping its shape, as a real PNG.
        const AgentCore::PictureInfo info = AgentCore::PictureInfo::probe(
            QByteArray::fromBase64(sent));
        QCOMPARE(info.mimeType, QStringLiteral("image/png"));
        QCOMPARE(info.width, longEdge);
        QCOMPARE(info.height, qRound(40.0 * longEdge / 3000));
        QVERIFY2(body.contains("shot.png: PNG, 3000 \xC3\x97 40 scaled to"),
                 body.left(3000).constData());

        // The session keeps the picture beside its file, not in it.
        const QStringList sessions = sandbox.sessionFiles();
        QCOMPARE(sessions.size(), 1);
        QFile file(sessions.constFirst());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(sent.left(200)));
        const QDir pictures(AgentCore::SessionPictures::directoryOf(sessions.constFirst()));
        QCOMPARE(pictures.entryList(QDir::Files).size(), 1);

        // Going on with it sends the picture again, read back from beside the file.
        server.enqueue(scriptedReply(api, QStringLiteral("Still red.")));
        HeadlessRun again(sandbox,
                          server,
                          api,
                          {QStringLiteral("--continue")},
                          QStringLiteral("And now?"));
        useModel(again, model);
        again.start();
        QVERIFY(again.finish());
        QVERIFY2(again.exitCode() == 0, qPrintable(again.report()));
        QCOMPARE(server.requests().size(), 3);
        QCOMPARE(pictureSent(api, server.requests().at(2).body), sent);
    }

    // A model known to read text only gets a note in the picture's place: its request is not
    // refused, and it can tell the user why it did not look.
    void aTextOnlyModelGetsANote()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(sandbox.write(QStringLiteral("shot.png"), redPng(64, 64)));
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Looking."), {readShot()}));
        server.enqueue(scriptedReply(api, QStringLiteral("I cannot see pictures.")));
        HeadlessRun run(sandbox, server, api, {}, QStringLiteral("What is in shot.png?"));
        useModel(run, QStringLiteral("deepseek-chat"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray body = server.requests().at(1).body;
        QVERIFY2(!body.contains("image_url") && !body.contains("base64,"), body.constData());
        QVERIFY2(body.contains("was not sent: deepseek-chat takes no pictures]"), body.constData());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessPictures)

} // namespace tst_headlesspictures

#include "tst_headlesspictures.moc"
