#include "ai/modelcatalog.h"
#include "ai/picture.h"
#include "ai/requestbuilder.h"

#include "requestbuildertest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_requestbuilderpictures {

namespace {

// "iVBORw0KGgo=" is the PNG signature: 8 bytes, enough for a request.
const QByteArray pictureData = QByteArrayLiteral("iVBORw0KGgo=");

Message userWithPicture()
{
    Message user = Message::makeUser(QStringLiteral("what is wrong with this layout?"));
    user.content.prepend(ContentBlock::makeImage(QStringLiteral("image/png"), pictureData));
    return user;
}

QString compact(const QJsonValue &value)
{
    return QString::fromUtf8(value.isObject()
                                 ? QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)
                                 : QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
}

// A PNG header of \a width x \a height: the signature and the IHDR chunk.
QByteArray pngHeader(quint32 width, quint32 height)
{
    QByteArray bytes("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
    for (quint32 value : {width, height}) {
        for (int shift = 24; shift >= 0; shift -= 8)
            bytes.append(char((value >> shift) & 0xFF));
    }
    return bytes + QByteArray("\x08\x06\0\0\0", 5);
}

} // namespace

class tst_RequestBuilderPictures : public QObject
{
    Q_OBJECT

private slots:
    void userPictureGoesAsTheApiWantsIt_data();
    void userPictureGoesAsTheApiWantsIt();
    void textOnlyModelGetsANoteInstead_data();
    void textOnlyModelGetsANoteInstead();
    void chatToolPicturesFollowForAVisionModel();
    void capabilityTable_data();
    void capabilityTable();
    void limitsPerProvider();
    void probeReadsTheHeaders();
    void asIsRefusesWhatDoesNotFit();
};

// The user's picture is an image block in Anthropic's messages, an image_url part in Chat
// Completions and an input_image in Responses, before the text as the message has it.
void tst_RequestBuilderPictures::userPictureGoesAsTheApiWantsIt_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QByteArray>("expected"); // the user turn's content as sent

    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages) << "claude-sonnet-4-5"
                               << QByteArray(R"([
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
        {"type": "text", "text": "what is wrong with this layout?", "cache_control": {"type": "ephemeral"}}])");
    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat) << "gpt-4o" << QByteArray(R"([
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "text", "text": "what is wrong with this layout?"}])");
    QTest::newRow("openai-responses") << int(WireApi::OpenAiResponses) << "gpt-5" << QByteArray(R"([
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
        {"type": "input_text", "text": "what is wrong with this layout?"}])");
}

void tst_RequestBuilderPictures::userPictureGoesAsTheApiWantsIt()
{
    QFETCH(int, api);
    QFETCH(QString, model);
    QFETCH(QByteArray, expected);

    const ProviderConfig config = requestConfig(WireApi(api), QStringLiteral("p"), model);
    Context context;
    context.messages = {userWithPicture()};
    const QJsonObject body = bodyOf(buildRequest(config, context));
    QJsonValue sent;
    for (const QJsonValue &turn : requestTurns(WireApi(api), body)) {
        if (turn.toObject().value("role") == "user")
            sent = turn.toObject().value("content");
    }
    const QJsonArray wanted = QJsonDocument::fromJson(expected).array();
    QVERIFY(!wanted.isEmpty());
    QCOMPARE(compact(sent), compact(wanted));
    QCOMPARE(apiRuleViolation(WireApi(api), body), QString());
}

// A model known to read text only would refuse the request: the picture goes as a line that
// says so, from the user and from a tool alike, and nothing of the picture is in the body.
void tst_RequestBuilderPictures::textOnlyModelGetsANoteInstead_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("model");

    QTest::newRow("openai-chat, deepseek-chat") << int(WireApi::OpenAiChat) << "deepseek-chat";
    QTest::newRow("anthropic, deepseek's anthropic API")
        << int(WireApi::AnthropicMessages) << "deepseek-reasoner";
    QTest::newRow("openai-responses, o3-mini") << int(WireApi::OpenAiResponses) << "o3-mini";
}

void tst_RequestBuilderPictures::textOnlyModelGetsANoteInstead()
{
    QFETCH(int, api);
    QFETCH(QString, model);

    const ProviderConfig config = requestConfig(WireApi(api), QStringLiteral("deepseek"), model);
    QVERIFY(!takesPictures(config));
    Message result = Message::makeToolResult("call_1", "Read", "shot.png: PNG, 8 × 8", false);
    result.content.append(ContentBlock::makeImage(QStringLiteral("image/png"), pictureData));
    Context context;
    context.messages = {userWithPicture(),
                        assistantFrom(config, {ContentBlock::makeToolCall("call_1", "Read", {})}),
                        result};
    const QByteArray body = buildRequest(config, context).body;
    QVERIFY2(!body.contains(pictureData), body.constData());
    const QByteArray note = QStringLiteral("[a picture (image/png, 1 KB) was not sent: %1 takes no "
                                           "pictures]")
                                .arg(model)
                                .toUtf8();
    QCOMPARE(body.count(note), 2); // the user's and the tool's
    QVERIFY(body.contains("what is wrong with this layout?"));
    QCOMPARE(apiRuleViolation(WireApi(api), bodyOf(buildRequest(config, context))), QString());
}

// A tool message of Chat Completions carries text only: to a model known to see, the pictures
// of the tools' results follow in one user message after them.
void tst_RequestBuilderPictures::chatToolPicturesFollowForAVisionModel()
{
    const ProviderConfig config = requestConfig(WireApi::OpenAiChat, "openai", "gpt-4.1");
    Message result = Message::makeToolResult("call_1", "Read", "shot.png: PNG, 8 × 8", false);
    result.content.append(ContentBlock::makeImage(QStringLiteral("image/png"), pictureData));
    Context context;
    context.messages = {Message::makeUser("look at shot.png"),
                        assistantFrom(config, {ContentBlock::makeToolCall("call_1", "Read", {})}),
                        result};
    const QJsonObject body = bodyOf(buildRequest(config, context));
    const QJsonArray messages = body.value("messages").toArray();
    QCOMPARE(messages.size(), 4);
    QCOMPARE(messages.at(2).toObject().value("role").toString(), "tool");
    QVERIFY(messages.at(2).toObject().value("content").toString().contains("next message"));
    const QJsonObject after = messages.at(3).toObject();
    QCOMPARE(after.value("role").toString(), "user");
    const QJsonArray parts = after.value("content").toArray();
    QCOMPARE(parts.size(), 2);
    QCOMPARE(parts.at(1).toObject().value("image_url").toObject().value("url").toString(),
             "data:image/png;base64,iVBORw0KGgo=");
    QCOMPARE(apiRuleViolation(WireApi::OpenAiChat, body), QString());
}

void tst_RequestBuilderPictures::capabilityTable_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("input");

    const int yes = int(PictureInput::Yes);
    const int no = int(PictureInput::No);
    const int unknown = int(PictureInput::Unknown);
    QTest::newRow("sonnet") << "anthropic"
                            << "claude-sonnet-4-5-20250929" << yes;
    QTest::newRow("gpt-4o") << "openai"
                            << "gpt-4o-mini" << yes;
    QTest::newRow("gpt-4.1 via openrouter") << "openrouter"
                                            << "openai/gpt-4.1" << yes;
    QTest::newRow("gpt-5.1") << "openai"
                             << "gpt-5.1" << yes;
    QTest::newRow("first gpt-4") << "openai"
                                 << "gpt-4-0613" << no;
    QTest::newRow("o3-mini") << "openai"
                             << "o3-mini" << no;
    QTest::newRow("o3") << "openai"
                        << "o3" << yes;
    QTest::newRow("deepseek-chat") << "deepseek"
                                   << "deepseek-chat" << no;
    QTest::newRow("gemini") << "openrouter"
                            << "google/gemini-2.5-pro" << yes;
    QTest::newRow("ollama llava") << "ollama"
                                  << "llava:13b" << yes;
    QTest::newRow("ollama qwen vl") << "ollama"
                                    << "qwen2.5-vl:7b" << yes;
    QTest::newRow("ollama, any other") << "ollama"
                                       << "qwen2.5-coder:7b" << unknown;
    QTest::newRow("ollama, named like gpt-4") << "ollama"
                                              << "gpt-4" << unknown;
    QTest::newRow("unknown") << "acme"
                             << "acme-1" << unknown;
}

void tst_RequestBuilderPictures::capabilityTable()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(int, input);
    QCOMPARE(int(pictureInput(provider, model)), input);
}

void tst_RequestBuilderPictures::limitsPerProvider()
{
    const PictureLimits anthropic = pictureLimits(
        requestConfig(WireApi::AnthropicMessages, "anthropic", "claude"));
    QCOMPARE(anthropic.maxLongEdge, 1568);
    QCOMPARE(anthropic.maxShortEdge, 0);
    QCOMPARE(anthropic.maxBase64, qsizetype(5 * 1024 * 1024));
    for (WireApi api : {WireApi::OpenAiChat, WireApi::OpenAiResponses}) {
        const PictureLimits openAi = pictureLimits(requestConfig(api, "openai", "gpt-5"));
        QCOMPARE(openAi.maxLongEdge, 2048);
        QCOMPARE(openAi.maxShortEdge, 768);
        QCOMPARE(openAi.maxBase64, qsizetype(5 * 1024 * 1024));
    }
}

void tst_RequestBuilderPictures::probeReadsTheHeaders()
{
    PictureInfo png = PictureInfo::probe(pngHeader(2560, 1440));
    QCOMPARE(png.mimeType, "image/png");
    QCOMPARE(png.width, 2560);
    QCOMPARE(png.height, 1440);

    const PictureInfo gif = PictureInfo::probe(QByteArray("GIF89a\x20\x03\x58\x02\0\0", 12));
    QCOMPARE(gif.mimeType, "image/gif");
    QCOMPARE(gif.width, 800);
    QCOMPARE(gif.height, 600);

    // SOI, an APP0 of 16 bytes, then SOF0: precision, height 480, width 640.
    QByteArray jpeg("\xFF\xD8\xFF\xE0\x00\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0", 20);
    jpeg += QByteArray("\xFF\xC0\x00\x11\x08\x01\xE0\x02\x80\x03", 10);
    jpeg += QByteArray(16, '\0');
    const PictureInfo jpg = PictureInfo::probe(jpeg);
    QCOMPARE(jpg.mimeType, "image/jpeg");
    QCOMPARE(jpg.width, 640);
    QCOMPARE(jpg.height, 480);

    // A lossless WebP: the 14-bit width and height less one, packed.
    const quint32 bits = (300 - 1) | ((200 - 1) << 14);
    QByteArray webp("RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f", 21);
    for (int shift = 0; shift < 32; shift += 8)
        webp.append(char((bits >> shift) & 0xFF));
    const PictureInfo lossless = PictureInfo::probe(webp);
    QCOMPARE(lossless.mimeType, "image/webp");
    QCOMPARE(lossless.width, 300);
    QCOMPARE(lossless.height, 200);

    QVERIFY(!PictureInfo::probe("just text").isValid());
    QVERIFY(PictureInfo::probe("just text").mimeType.isEmpty());
    QCOMPARE(pictureTypeOfFileName("Shot.JPG"), "image/jpeg");
    QCOMPARE(pictureTypeOfFileName("notes.txt"), QString());
}

void tst_RequestBuilderPictures::asIsRefusesWhatDoesNotFit()
{
    const PreparedPicture small = PreparedPicture::asIs(pngHeader(100, 50), PictureLimits());
    QVERIFY2(small.ok(), qPrintable(small.error));
    QCOMPARE(small.block.mimeType, "image/png");
    QCOMPARE(small.width, 100);

    const PreparedPicture large = PreparedPicture::asIs(pngHeader(4000, 3000), PictureLimits());
    QVERIFY(!large.ok());
    QVERIFY2(large.error.contains("4000 × 3000"), qPrintable(large.error));

    const PreparedPicture broken = PreparedPicture::asIs("\x89PNG\r\n\x1a\n", PictureLimits());
    QVERIFY(!broken.ok());
    QVERIFY2(broken.error.contains("broken PNG"), qPrintable(broken.error));
    QVERIFY(!PreparedPicture::asIs("hello", PictureLimits()).ok());
}

AGENTDESK_GUILESS_TEST_MAIN(tst_RequestBuilderPictures)

} // namespace tst_requestbuilderpictures

#include "tst_requestbuilderpictures.moc"
