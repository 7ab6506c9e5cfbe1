// Read of a picture file returns the picture: an image block after a line naming its kind,
// size and dimensions, made to fit the workspace's limits by its scaler (the window's and
// headless run's decode with QtGui; without one, what fits goes as it is). A broken, too large
// or unscalable picture is an error that says so.
#include "toolstest.h"

#include <testmain.h>
#include <tools/readtool.h>

#include <QFile>
#include <QTest>

using namespace AgentCore;

namespace tst_readpictures {

namespace {

// A real 2 x 2 PNG (red pixels), 73 bytes.
const QByteArray smallPng = QByteArray::fromBase64(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5"
    "ErkJggg==");

// A PNG's header claiming \a width x \a height: enough for what is read before decoding.
QByteArray pngClaiming(quint32 width, quint32 height)
{
    QByteArray bytes = smallPng;
    for (int i = 0; i < 4; ++i) {
        bytes[16 + i] = char((width >> (24 - 8 * i)) & 0xFF);
        bytes[20 + i] = char((height >> (24 - 8 * i)) & 0xFF);
    }
    return bytes;
}

QList<ContentBlock> imagesOf(const ToolResult &result)
{
    QList<ContentBlock> images;
    for (const ContentBlock &block : result.content) {
        if (block.isImage())
            images.append(block);
    }
    return images;
}

} // namespace

class tst_ReadPictures : public QObject
{
    Q_OBJECT

private slots:
    void aPngComesBackAsAPicture()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("docs/shot.png"), smallPng));
        ReadTool tool(repo.workspace());
        const ToolResult result = ToolsTest::call(tool, {{"file_path", "docs/shot.png"}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        const QList<ContentBlock> images = imagesOf(result);
        QCOMPARE(images.size(), 1);
        QCOMPARE(images.at(0).mimeType, QStringLiteral("image/png"));
        QCOMPARE(images.at(0).data, smallPng.toBase64());
        QCOMPARE(result.text(), QStringLiteral("docs/shot.png: PNG, 2 × 2, 1 KB"));
        QCOMPARE(result.details.toJson().value("displayPath").toString(), "docs/shot.png");
    }

    void theScalerMakesItFitTheLimits()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("big.JPG"), pngClaiming(4000, 3000)));
        PictureLimits seen;
        PictureLimits limits;
        limits.maxLongEdge = 2048;
        limits.maxShortEdge = 768;
        repo.workspace()->setPictures(
            [&seen](const QByteArray &bytes, const PictureLimits &given) {
                seen = given;
                PreparedPicture picture;
                picture.original = PictureInfo::probe(bytes);
                picture.width = 1024;
                picture.height = 768;
                picture.bytes = smallPng.size();
                picture.block = ContentBlock::makeImage("image/png", smallPng.toBase64());
                return picture;
            },
            limits);
        ReadTool tool(repo.workspace());
        const ToolResult result = ToolsTest::call(tool, {{"file_path", "big.JPG"}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(seen, limits);
        QCOMPARE(imagesOf(result).size(), 1);
        QCOMPARE(result.text(),
                 QStringLiteral("big.JPG: PNG, 4000 × 3000 scaled to 1024 × 768, 1 KB"));
    }

    void withoutAScalerALargePictureIsRefused()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("big.png"), pngClaiming(4000, 3000)));
        ReadTool tool(repo.workspace());
        const ToolResult result = ToolsTest::call(tool, {{"file_path", "big.png"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains("4000 × 3000"), qPrintable(result.text()));
        QVERIFY(imagesOf(result).isEmpty());
    }

    void aBrokenPictureIsAClearError()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("shot.png"), "this is no picture\n"));
        QVERIFY(repo.write(QStringLiteral("cut.gif"), "GIF89a"));
        ReadTool tool(repo.workspace());
        const ToolResult text = ToolsTest::call(tool, {{"file_path", "shot.png"}});
        QVERIFY(text.isError);
        QCOMPARE(text.text(),
                 QStringLiteral("shot.png cannot be sent as a picture: it is not a PNG, JPEG, "
                                "GIF or WebP picture"));
        const ToolResult cut = ToolsTest::call(tool, {{"file_path", "cut.gif"}});
        QVERIFY(cut.isError);
        QVERIFY2(cut.text().contains("broken GIF"), qPrintable(cut.text()));
    }

    void aHugeFileIsNotRead()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("huge.webp"), "RIFF"));
        QFile file(repo.path(QStringLiteral("huge.webp")));
        QVERIFY(file.resize(maxPictureFileBytes + 1)); // sparse: nothing is written
        ReadTool tool(repo.workspace());
        const ToolResult result = ToolsTest::call(tool, {{"file_path", "huge.webp"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains("too large"), qPrintable(result.text()));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ReadPictures)

} // namespace tst_readpictures

#include "tst_readpictures.moc"
