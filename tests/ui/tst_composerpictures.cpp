// Pictures in the message box, with real widgets offscreen: pasted image data becomes a
// thumbnail (scaled to the model's limits off the UI thread), Delete on the focused thumbnail
// removes it, a dropped picture file is added, and Enter sends the text with its pictures.
// In the window, through a scripted provider on 127.0.0.1: the request carries the picture as
// each wire API wants it, the conversation shows it, the session keeps it beside its file; a
// model that takes no pictures holds the message with a note instead of a refused request.
#include <ai/picture.h>
#include <composer/composer.h>
#include <composer/composerpictures.h>
#include <composer/picturestrip.h>
#include <conversation/conversationview.h>
#include <conversation/messageitem.h>
#include <page/conversationpage.h>
#include <session/sessionpictures.h>
#include <window/mainwindow.h>

#include "../tools/toolstest.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <testmain.h>

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace tst_composerpictures {

using Ui::Composer;
using Ui::ComposerPictures;
using Ui::PictureStrip;
using namespace TestSupport;

namespace {

constexpr int pictureTimeoutMs = 10'000;

QImage gradient(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x)
            image.setPixel(x, y, qRgb(x * 255 / width, y * 255 / height, 128));
    }
    return image;
}

void paste(Composer &composer, const QImage &image)
{
    auto mime = new QMimeData;
    mime->setImageData(image);
    QApplication::clipboard()->setMimeData(mime);
    composer.paste();
}

void drop(Composer &composer, const QString &path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = composer.viewport()->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(composer.viewport(), &enter);
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(composer.viewport(), &dropped);
}

// The picture's base64 in the first user message of a request of \a api; empty when none.
QByteArray userPicture(ReplyApi api, const QByteArray &body)
{
    const QJsonObject request = QJsonDocument::fromJson(body).object();
    const QJsonArray turns = request.value(api == ReplyApi::OpenAiResponses ? "input" : "messages")
                                 .toArray();
    for (const QJsonValue &turn : turns) {
        if (turn.toObject().value("role") != QLatin1String("user"))
            continue;
        for (const QJsonValue &value : turn.toObject().value("content").toArray()) {
            const QJsonObject part = value.toObject();
            const QString type = part.value("type").toString();
            if (type == QLatin1String("image")) // Anthropic
                return part.value("source").toObject().value("data").toString().toLatin1();
            if (type == QLatin1String("image_url")) // Chat Completions
                return part.value("image_url")
                    .toObject()
                    .value("url")
                    .toString()
                    .section(u',', 1)
                    .toLatin1();
            if (type == QLatin1String("input_image")) // Responses
                return part.value("image_url").toString().section(u',', 1).toLatin1();
        }
    }
    return {};
}

} // namespace

class tst_ComposerPictures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_composerpictures"));
    }

    void pasteRemoveDropAndSend();
    void aRefusedModelHoldsTheMessage();
    void windowSendsThePicture_data();
    void windowSendsThePicture();
    void aTextOnlyModelHoldsItInTheWindow();
};

void tst_ComposerPictures::pasteRemoveDropAndSend()
{
    QWidget window;
    Composer composer(&window);
    PictureStrip strip(composer.pictures(), &window);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    composer.setFocus();
    QVERIFY(!strip.isVisible());

    // Pasted image data: scaled to the limits (1568 px on the long edge by default).
    paste(composer, gradient(3136, 400));
    QTRY_COMPARE_WITH_TIMEOUT(composer.pictures()->count(), 1, pictureTimeoutMs);
    QVERIFY(composer.toPlainText().isEmpty()); // a picture, not text
    const AgentCore::PreparedPicture pasted = composer.pictures()->pictures().at(0).picture;
    QCOMPARE(pasted.width, 1568);
    QCOMPARE(pasted.height, 200);
    QVERIFY(pasted.wasScaled());
    QCOMPARE(strip.thumbnails().size(), 1);
    QVERIFY(strip.isVisible());

    // Delete on the focused thumbnail removes it.
    QWidget *thumbnail = strip.thumbnails().at(0);
    thumbnail->setFocus();
    QTRY_VERIFY(thumbnail->hasFocus());
    QTest::keyClick(thumbnail, Qt::Key_Delete);
    QCOMPARE(composer.pictures()->count(), 0);
    QTRY_VERIFY(!strip.isVisible());

    // A picture file dropped from a file manager.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("layout.png"));
    QVERIFY(gradient(320, 200).save(file));
    drop(composer, file);
    QTRY_COMPARE_WITH_TIMEOUT(composer.pictures()->count(), 1, pictureTimeoutMs);
    QCOMPARE(composer.pictures()->pictures().at(0).name, QStringLiteral("layout.png"));
    QVERIFY(!composer.pictures()->pictures().at(0).picture.wasScaled());
    // Its remove button is there for the mouse and the keyboard alike.
    QCOMPARE(strip.focusables().size(), 2);

    // Enter sends the text with the picture, and the box is empty again.
    QSignalSpy submitted(&composer, &Composer::submitted);
    composer.setFocus();
    QTest::keyClicks(&composer, QStringLiteral("why is this cut off?"));
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(submitted.at(0).at(0).toString(), QStringLiteral("why is this cut off?"));
    const auto pictures = submitted.at(0).at(1).value<QList<AgentCore::ContentBlock>>();
    QCOMPARE(pictures.size(), 1);
    QCOMPARE(pictures.at(0).mimeType, QStringLiteral("image/png"));
    QCOMPARE(composer.pictures()->count(), 0);
    QVERIFY(composer.toPlainText().isEmpty());
}

void tst_ComposerPictures::aRefusedModelHoldsTheMessage()
{
    Composer composer;
    composer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&composer));
    composer.setPictureRefusal(QStringLiteral("deepseek-chat takes no pictures."));
    paste(composer, gradient(40, 30));
    QTRY_COMPARE_WITH_TIMEOUT(composer.pictures()->count(), 1, pictureTimeoutMs);
    QSignalSpy submitted(&composer, &Composer::submitted);
    QSignalSpy failed(&composer, &Composer::sendFailed);
    QTest::keyClicks(&composer, QStringLiteral("look"));
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(composer.pictures()->count(), 1); // nothing is lost
    QCOMPARE(composer.toPlainText(), QStringLiteral("look"));
    // Text alone still goes.
    composer.pictures()->remove(0);
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.size(), 1);
}

void tst_ComposerPictures::windowSendsThePicture_data()
{
    QTest::addColumn<ReplyApi>("api");
    QTest::addColumn<QString>("model");
    QTest::newRow("anthropic") << ReplyApi::AnthropicMessages << "claude-sonnet-4-5";
    QTest::newRow("openai-chat") << ReplyApi::OpenAiChat << "gpt-4.1";
    QTest::newRow("openai-responses") << ReplyApi::OpenAiResponses << "gpt-5";
}

void tst_ComposerPictures::windowSendsThePicture()
{
    QFETCH(ReplyApi, api);
    QFETCH(QString, model);
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    QTemporaryDir sessions;
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(scriptedReply(api, QStringLiteral("The button overlaps the edge.")));

    Ui::AgentSetup setup;
    AgentCore::ProviderConfig provider;
    provider.api = api == ReplyApi::AnthropicMessages ? AgentCore::WireApi::AnthropicMessages
                   : api == ReplyApi::OpenAiChat      ? AgentCore::WireApi::OpenAiChat
                                                      : AgentCore::WireApi::OpenAiResponses;
    provider.provider = api == ReplyApi::AnthropicMessages ? QStringLiteral("anthropic")
                                                           : QStringLiteral("openai");
    provider.baseUrl = api == ReplyApi::AnthropicMessages ? server.url()
                                                          : server.url(QStringLiteral("/v1"));
    provider.apiKey = QStringLiteral("test-key");
    provider.model = model;
    setup.model.provider = provider;
    setup.model.label = model;
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.sessionsDirectory = sessions.path();
    Ui::MainWindow window(setup);
    window.resize(1100, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openRepository(repo.root()));
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), pictureTimeoutMs);
    Ui::ConversationPage *page = window.conversationPage();
    Composer *composer = page->composer();
    composer->setFocus();

    paste(*composer, gradient(200, 100));
    QTRY_COMPARE_WITH_TIMEOUT(composer->pictures()->count(), 1, pictureTimeoutMs);
    QTRY_VERIFY(page->pictureStrip()->isVisible());
    const QByteArray picture = composer->pictures()->blocks().at(0).data;
    QTest::keyClicks(composer, QStringLiteral("what is wrong here?"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, pictureTimeoutMs);
    QCOMPARE(userPicture(api, server.requests().at(0).body), picture);
    QTRY_VERIFY(!page->pictureStrip()->isVisible());

    // The conversation shows the user's picture.
    const Ui::ConversationView *view = page->conversation();
    QTRY_VERIFY(view->itemCount() > 0);
    const Ui::MessageItem *user = nullptr;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::User)
            user = static_cast<const Ui::MessageItem *>(view->itemAt(i));
    }
    QVERIFY(user);
    QCOMPARE(user->pictures().size(), 1);
    QCOMPARE(user->pictures().at(0).size(), QSize(200, 100));

    // The session keeps it beside its file.
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->state(),
                              Ui::AgentSession::State::Idle,
                              pictureTimeoutMs);
    const QString path = window.session()->sessionPath();
    QTRY_COMPARE(QDir(AgentCore::SessionPictures::directoryOf(path)).entryList(QDir::Files).size(),
                 1);
}

void tst_ComposerPictures::aTextOnlyModelHoldsItInTheWindow()
{
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    QTemporaryDir sessions;
    HttpTestServer server;
    QVERIFY(server.isListening());
    Ui::AgentSetup setup;
    AgentCore::ProviderConfig provider;
    provider.api = AgentCore::WireApi::OpenAiChat;
    provider.provider = QStringLiteral("deepseek");
    provider.baseUrl = server.url(QStringLiteral("/v1"));
    provider.apiKey = QStringLiteral("test-key");
    provider.model = QStringLiteral("deepseek-chat");
    setup.model.provider = provider;
    setup.model.label = provider.model;
    setup.sessionsDirectory = sessions.path();
    Ui::MainWindow window(setup);
    window.resize(1100, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openRepository(repo.root()));
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), pictureTimeoutMs);
    Ui::ConversationPage *page = window.conversationPage();
    Composer *composer = page->composer();
    composer->setFocus();
    paste(*composer, gradient(64, 48));
    QTRY_COMPARE_WITH_TIMEOUT(composer->pictures()->count(), 1, pictureTimeoutMs);
    QTest::keyClicks(composer, QStringLiteral("what is this?"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_VERIFY(page->mcpNotice()->isVisible());
    QVERIFY2(page->mcpNotice()->text().contains(QStringLiteral("deepseek-chat takes no pictures")),
             qPrintable(page->mcpNotice()->text()));
    QTest::qWait(200);
    QCOMPARE(server.requests().size(), 0); // nothing was sent, nothing refused
    QCOMPARE(composer->pictures()->count(), 1);
    QCOMPARE(composer->toPlainText(), QStringLiteral("what is this?"));
}

AGENTDESK_TEST_MAIN(tst_ComposerPictures)

} // namespace tst_composerpictures

#include "tst_composerpictures.moc"
