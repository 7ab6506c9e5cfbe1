#include "toolcarditem.h"

#include "common/picturecodec.h"
#include "common/translation.h"

#include "conversationstyle.h"

#include "common/toolargumentstext.h"

#include <session/sessionpages.h>

#include <QBuffer>
#include <QCoreApplication>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace Ui {

static constexpr int StatusSize = 14;
static constexpr int OutputPadding = 4;

// The lines inside the shaded output box.
static QRect outputLines(const QRect &box)
{
    return box.adjusted(0, OutputPadding, 0, -OutputPadding);
}

ToolCardItem::ToolCardItem(const QString &toolCallId, const QString &toolName)
    : m_toolCallId(toolCallId)
    , m_toolName(toolName)
{
    m_details.setCap(12, 0);
    m_argumentLines.setStyle(LineBlock::Style::Output);
    m_argumentLines.setCap(6, 0);
}

QString ToolCardItem::displayName(const QString &toolName)
{
    // mcp__<server>__<tool>: what permission rules name, but a person reads "server › tool".
    static const QLatin1String prefix("mcp__");
    if (!toolName.startsWith(prefix))
        return toolName;
    const qsizetype split = toolName.indexOf(QLatin1String("__"), prefix.size());
    if (split <= prefix.size() || split + 2 >= toolName.size())
        return toolName;
    return QStringLiteral("%1 \u203a %2")
        .arg(toolName.mid(prefix.size(), split - prefix.size()), toolName.mid(split + 2));
}

QString ToolCardItem::plainText() const
{
    QString text = displayName(m_toolName);
    if (const QString key = keyArgument(); !key.isEmpty())
        text += QLatin1Char(' ') + key;
    if (m_userEdited)
        text += QLatin1String(" (") + UiTr::tr("applied with your changes") + QLatin1Char(')');
    if (!m_argumentLines.isEmpty())
        text += QLatin1Char('\n') + m_argumentLines.visibleText();
    if (!m_output.isEmpty())
        text += QLatin1Char('\n') + m_output.visibleText();
    for (const QString &picture : m_pictureNames)
        text += QLatin1Char('\n') + UiTr::tr("[picture: %1]").arg(picture);
    return text;
}

// A tool's picture scaled to fit maxPictureSize as it is decoded (a 5 MB screenshot is never
// held at full size), and how it is named; \a *image stays null when it cannot be read.
static QString readPicture(const AgentCore::ContentBlock &block, QImage *image)
{
    *image = PictureCodec::decode(block, ToolCardItem::maxPictureSize);
    if (image->isNull())
        return UiTr::tr("%1, unreadable").arg(block.mimeType);
    const AgentCore::PictureInfo info = AgentCore::PictureInfo::probe(
        QByteArray::fromBase64(block.data));
    return UiTr::tr("%1, %2 × %3").arg(block.mimeType).arg(info.width).arg(info.height);
}

QString ToolCardItem::keyArgument() const
{
    for (const char *name : {"command", "pattern", "file_path", "path", "url", "query"}) {
        const QJsonValue value = m_arguments.value(QLatin1String(name));
        if (value.isString() && !value.toString().isEmpty())
            return value.toString().section(QLatin1Char('\n'), 0, 0);
    }
    for (auto it = m_arguments.begin(); it != m_arguments.end(); ++it) {
        if (it.value().isString())
            return it.value().toString().section(QLatin1Char('\n'), 0, 0);
    }
    return {};
}

void ToolCardItem::setArguments(const QJsonObject &arguments)
{
    m_arguments = arguments;
    // A built-in tool's header says what it acts on; any other tool's name says little, and
    // the user reads all it was given, as the review showed it.
    if (AgentCore::toolKind(m_toolName) == AgentCore::ToolKind::Other && !arguments.isEmpty())
        m_argumentLines.setText(ToolArgumentsText::format(arguments));
    else
        m_argumentLines.setText({});
    invalidate();
}

void ToolCardItem::setRunning(qint64 nowMs)
{
    m_state = State::Running;
    m_startMs = nowMs;
    invalidate();
}

void ToolCardItem::setPartialResult(const AgentCore::ToolResult &partial)
{
    m_output.setStyle(LineBlock::Style::Output);
    m_output.setCap(4, 8);
    m_output.setCodeFileName({});
    m_output.setNoteLines(0, 0);
    m_output.setText(partial.text());
    invalidate();
}

// Everything the tool reported but the diff, key by key as the session holds it: the typed
// fields the card already draws are listed too, so nothing the tool said is hidden.
static QString detailsText(const AgentCore::ToolDetails &typed)
{
    QJsonObject details = typed.toJson();
    details.remove(QLatin1String("diff"));
    QStringList lines;
    for (auto it = details.begin(); it != details.end(); ++it) {
        const QJsonValue value = it.value();
        QString shown;
        if (value.isString())
            shown = value.toString();
        else if (value.isDouble())
            shown = QString::number(value.toDouble());
        else if (value.isBool())
            shown = value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else if (value.isArray())
            shown = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        else if (value.isObject())
            shown = QString::fromUtf8(
                QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        lines << it.key() + QStringLiteral(": ") + shown;
    }
    return lines.join(QLatin1Char('\n'));
}

void ToolCardItem::setResult(const AgentCore::ToolResult &result, qint64 nowMs)
{
    const AgentCore::ToolDetails &details = result.details;
    const bool stopped = details.aborted;
    m_state = stopped ? State::Stopped : result.isError ? State::Failed : State::Succeeded;
    if (m_startMs >= 0)
        m_endMs = nowMs;
    const QString &diff = details.diff;
    m_hasDiff = !result.isError && !diff.isEmpty();
    m_userEdited = !result.isError && details.other.value(QLatin1String("userEdited")).toBool();
    m_additions = details.additions;
    m_deletions = details.deletions;
    if (m_hasDiff) {
        m_output.setStyle(LineBlock::Style::Diff);
        m_output.setCap(16, 0);
        // The header already names the file: the diff starts at its first hunk.
        const qsizetype hunk = diff.indexOf(QLatin1String("@@"));
        m_output.setText(hunk > 0 ? diff.mid(hunk) : diff);
    } else {
        showOutputText(result.text(), result.isError, stopped);
    }
    m_page = Page::Whole;
    m_pagedChars = -1;
    m_preview.clear();
    m_loadTicket = 0;
    m_loadRequested = false;
    m_previewIsError = result.isError;
    m_stopped = stopped;
    m_resultDetails = detailsText(details);
    m_details.setText(QStringList(m_hookRuns + QStringList{m_resultDetails}).join(u'\n').trimmed());
    readPictures(result.content, &m_pictures, &m_pictureNames);
    invalidate();
}

void ToolCardItem::readPictures(const QList<AgentCore::ContentBlock> &content,
                                QList<QImage> *pictures,
                                QStringList *names)
{
    pictures->clear();
    names->clear();
    for (const AgentCore::ContentBlock &block : content) {
        if (!block.isImage() || block.data.isEmpty()) // a stub's picture is in the file
            continue;
        QImage image;
        names->append(readPicture(block, &image));
        pictures->append(image);
    }
}

void ToolCardItem::showOutputText(const QString &text, bool isError, bool stopped)
{
    m_output.setPagedLabel({});
    // Stopped output is what the command printed, not an error message.
    m_output.setStyle(isError && !stopped ? LineBlock::Style::Error : LineBlock::Style::Output);
    m_output.setCap(4, 4);
    // A file's lines read like the code blocks of an answer: coloured for its language.
    const AgentCore::ToolKind kind = AgentCore::toolKind(m_toolName);
    const bool read = !isError && kind == AgentCore::ToolKind::Read;
    m_output.setCodeFileName(read ? m_arguments.value(QLatin1String("file_path")).toString()
                                  : QString());
    // Glob and Grep start with a summary ("Found 15 files.") and may end with notes
    // ("[Showing the first 100 of 250 files. ...]"): "show all" counts the results only.
    int leading = 0;
    int trailing = 0;
    if (!isError && (kind == AgentCore::ToolKind::Glob || kind == AgentCore::ToolKind::Grep)
        && text.contains(QLatin1Char('\n'))) {
        leading = 1;
        const QStringList lines = text.trimmed().split(QLatin1Char('\n'));
        for (qsizetype i = lines.size() - 1; i > 0 && lines.at(i).startsWith(QLatin1Char('['))
                                             && lines.at(i).endsWith(QLatin1Char(']'));
             --i) {
            ++trailing;
        }
    }
    m_output.setNoteLines(leading, trailing);
    m_output.setText(text);
}

void ToolCardItem::setPaged(qsizetype pagedChars)
{
    if (pagedChars < 0 || m_hasDiff)
        return;
    m_pagedChars = pagedChars;
    m_preview = m_output.givenText();
    showPreview();
}

QString ToolCardItem::pagedLabel() const
{
    switch (m_page) {
    case Page::Loading:
        //: A tool card's row while the whole output is read from the session file
        return UiTr::tr("Loading the whole output\u2026");
    case Page::Failed:
        //: A tool card whose whole output could not be read: back to its beginning
        return UiTr::tr("Show the beginning again");
    case Page::Whole:
    case Page::Preview:
    case Page::Loaded:
        break;
    }
    const qsizetype more = qMax<qsizetype>(0, m_pagedChars - m_output.text().size());
    //: A tool card's output of which only the beginning is shown: %1 how much more (a size)
    return UiTr::tr("\u22ef %1 more (show all)")
        .arg(QLocale().formattedDataSize(more, 1, QLocale::DataSizeTraditionalFormat));
}

// The beginning of a paged output, folded: the whole text is dropped.
void ToolCardItem::showPreview()
{
    m_page = Page::Preview;
    m_loadTicket = 0;
    m_loadRequested = false;
    showOutputText(m_preview, m_previewIsError, m_stopped);
    m_output.setExpanded(false);
    m_output.setPagedLabel(pagedLabel());
    m_pictures.clear();
    m_pictureNames.clear();
    invalidate();
}

bool ToolCardItem::holdsLargeOutput() const
{
    return m_page == Page::Whole && !m_hasDiff
           && (m_output.text().size() > AgentCore::SessionPages::pageAbove || !m_pictures.isEmpty());
}

bool ToolCardItem::cutToPreview(const AgentCore::SessionPages *pages)
{
    if (!holdsLargeOutput() || m_output.isExpanded())
        return false;
    AgentCore::Message whole;
    whole.role = AgentCore::Message::Role::ToolResult;
    whole.toolCallId = m_toolCallId;
    whole.content = {AgentCore::ContentBlock::makeText(m_output.givenText())};
    if (!m_pictures.isEmpty()) // any picture pages the result
        whole.content.append(AgentCore::ContentBlock::makeImage(QStringLiteral("image/png"), {}));
    const AgentCore::Message stub = pages ? pages->stubOf(whole)
                                          : AgentCore::SessionPages::stub(whole);
    if (!stub.isPaged())
        return false;
    m_pagedChars = stub.pagedChars;
    m_preview = stub.text();
    showPreview();
    return true;
}

quint64 ToolCardItem::takeLoadRequest()
{
    if (!m_loadRequested || m_page != Page::Loading)
        return 0;
    m_loadRequested = false;
    return m_loadTicket;
}

bool ToolCardItem::setLoaded(quint64 ticket, const LoadedOutput &output)
{
    if (ticket == 0 || loadTicket() != ticket)
        return false;
    m_page = Page::Loaded;
    m_loadTicket = 0;
    showOutputText(output.text, output.isError, m_stopped);
    m_output.setExpanded(true);
    m_pictures = output.pictures;
    m_pictureNames = output.pictureNames;
    invalidate();
    return true;
}

bool ToolCardItem::setLoadFailed(quint64 ticket, const QString &error)
{
    if (ticket == 0 || loadTicket() != ticket)
        return false;
    m_page = Page::Failed;
    m_loadTicket = 0;
    m_output.setStyle(LineBlock::Style::Error);
    m_output.setCodeFileName({});
    m_output.setNoteLines(0, 0);
    m_output.setText(error);
    m_output.setExpanded(false);
    m_output.setPagedLabel(pagedLabel());
    invalidate();
    return true;
}

std::optional<QString> ToolCardItem::wholeOutput() const
{
    if (m_hasDiff || m_page == Page::Preview || m_page == Page::Loading || m_page == Page::Failed)
        return std::nullopt;
    return m_output.givenText();
}

void ToolCardItem::setNotRun()
{
    if (m_state != State::Pending && m_state != State::Running)
        return;
    m_state = State::NotRun;
    invalidate();
}

void ToolCardItem::setOutputExpanded(bool expanded)
{
    if (isPaged()) {
        if (!expanded && m_page != Page::Preview) {
            showPreview();
        } else if (expanded && (m_page == Page::Preview || m_page == Page::Failed)) {
            static quint64 tickets = 0;
            if (m_page == Page::Failed)
                showPreview();
            m_page = Page::Loading;
            m_loadTicket = ++tickets;
            m_loadRequested = true;
            m_output.setPagedLabel(pagedLabel());
            invalidate();
        }
        return;
    }
    m_output.setExpanded(expanded);
    invalidate();
}

void ToolCardItem::setDetailsExpanded(bool expanded)
{
    m_detailsExpanded = expanded;
    invalidate();
}

// A card is laid out with arithmetic only (its text is painted line by line), so the
// estimate is exact.
int ToolCardItem::estimateHeight(int width, const ConversationStyle &style) const
{
    return computeGeometry(width, style).card.height();
}

int ToolCardItem::doLayout(int width, const ConversationStyle &style)
{
    m_geometry = computeGeometry(width, style);
    return m_geometry.card.height();
}

ToolCardItem::Geometry ToolCardItem::computeGeometry(int width, const ConversationStyle &style) const
{
    Geometry g;
    const int inner = width - 2 * style.padding;
    int y = style.padding;
    g.header = QRect(style.padding, y, inner, qMax(StatusSize, style.bodyMetrics.height()));
    y += g.header.height();
    if (!m_argumentLines.isEmpty()) {
        y += style.spacing;
        g.arguments = QRect(style.padding,
                            y,
                            inner,
                            m_argumentLines.height(style) + 2 * OutputPadding);
        y += g.arguments.height();
        g.argumentsToggle = m_argumentLines.toggleRect(outputLines(g.arguments), style);
    }
    if (!m_output.isEmpty()) {
        y += style.spacing;
        g.output = QRect(style.padding, y, inner, m_output.height(style) + 2 * OutputPadding);
        y += g.output.height();
        g.outputToggle = m_output.toggleRect(outputLines(g.output), style);
    }
    // The pictures in rows, each at most the card's width.
    int x = style.padding;
    int rowHeight = 0;
    for (const QImage &picture : m_pictures) {
        QSize size = picture.isNull() ? QSize(120, style.smallMetrics.height() * 2)
                                      : picture.size();
        if (size.width() > inner)
            size = size.scaled(inner, size.height(), Qt::KeepAspectRatio);
        if (rowHeight == 0 || x + size.width() > style.padding + inner) {
            y += rowHeight + style.spacing;
            x = style.padding;
            rowHeight = 0;
        }
        g.pictures.append(QRect(QPoint(x, y), size));
        x += size.width() + style.spacing;
        rowHeight = qMax(rowHeight, size.height());
    }
    y += rowHeight;
    if (!m_details.isEmpty()) {
        y += style.spacing;
        g.detailsHeader = QRect(style.padding, y, inner, style.smallMetrics.height());
        y += g.detailsHeader.height();
        if (m_detailsExpanded) {
            y += style.spacing / 2;
            g.details = QRect(style.padding, y, inner, m_details.height(style));
            y += g.details.height();
            g.detailsToggle = m_details.toggleRect(g.details, style);
        }
    }
    y += style.padding;
    g.card = QRect(0, 0, width, y);
    return g;
}

void ToolCardItem::releaseLayout()
{
    m_output.release();
    m_argumentLines.release();
    m_details.release();
}

QString ToolCardItem::elapsedText(qint64 nowMs) const
{
    if (m_startMs < 0)
        return {};
    const qint64 end = m_endMs >= 0 ? m_endMs : nowMs;
    const double seconds = double(qMax<qint64>(0, end - m_startMs)) / 1000.0;
    return seconds < 60 ? UiTr::tr("%1 s").arg(QLocale().toString(seconds, 'f', 1))
                        : UiTr::tr("%1 min %2 s").arg(int(seconds) / 60).arg(int(seconds) % 60);
}

QString ToolCardItem::stateText(qint64 nowMs) const
{
    switch (m_state) {
    case State::Pending:
        return UiTr::tr("waiting");
    case State::NotRun:
        return UiTr::tr("not run");
    case State::Stopped: {
        const QString elapsed = elapsedText(nowMs);
        return elapsed.isEmpty() ? UiTr::tr("stopped") : UiTr::tr("stopped after %1").arg(elapsed);
    }
    case State::Running:
    case State::Succeeded:
    case State::Failed:
        break;
    }
    return elapsedText(nowMs);
}

void ToolCardItem::paintStatus(QPainter *painter,
                               const QRect &rect,
                               const ConversationStyle &style,
                               qint64 nowMs) const
{
    const QRectF box = QRectF(rect).adjusted(1.5, 1.5, -1.5, -1.5);
    painter->setBrush(Qt::NoBrush);
    switch (m_state) {
    case State::Stopped: {
        // A stop square, as on the Stop button.
        painter->setPen(QPen(style.muted, 1.5));
        painter->drawEllipse(box);
        painter->setPen(Qt::NoPen);
        painter->setBrush(style.muted);
        const qreal side = box.width() * 0.4;
        painter->drawRect(
            QRectF(box.center().x() - side / 2, box.center().y() - side / 2, side, side));
        painter->setBrush(Qt::NoBrush);
        break;
    }
    case State::Pending:
    case State::NotRun:
        painter->setPen(QPen(style.muted, 1.5));
        painter->drawEllipse(box);
        if (m_state == State::NotRun)
            painter->drawLine(QPointF(box.left() + 3, box.center().y()),
                              QPointF(box.right() - 3, box.center().y()));
        break;
    case State::Running: {
        painter->setPen(QPen(style.cardBorder, 2));
        painter->drawEllipse(box);
        painter->setPen(QPen(style.accent, 2, Qt::SolidLine, Qt::RoundCap));
        const int angle = int((nowMs % 1000) * 360 / 1000);
        painter->drawArc(box, -angle * 16, 100 * 16);
        break;
    }
    case State::Succeeded: {
        painter->setPen(QPen(style.success, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        QPainterPath check;
        check.moveTo(box.left() + box.width() * 0.15, box.top() + box.height() * 0.55);
        check.lineTo(box.left() + box.width() * 0.42, box.top() + box.height() * 0.8);
        check.lineTo(box.left() + box.width() * 0.88, box.top() + box.height() * 0.22);
        painter->drawPath(check);
        break;
    }
    case State::Failed:
        painter->setPen(QPen(style.error, 2, Qt::SolidLine, Qt::RoundCap));
        painter->drawLine(box.topLeft() + QPointF(2, 2), box.bottomRight() - QPointF(2, 2));
        painter->drawLine(box.topRight() + QPointF(-2, 2), box.bottomLeft() + QPointF(2, -2));
        break;
    }
}

void ToolCardItem::paintHeader(QPainter *painter, const ConversationStyle &style, qint64 nowMs) const
{
    const QRect status(m_geometry.header.x(),
                       m_geometry.header.center().y() - StatusSize / 2,
                       StatusSize,
                       StatusSize);
    paintStatus(painter, status, style, nowMs);

    int right = m_geometry.header.right();
    const auto drawRight = [&](const QString &text, const QColor &color) {
        if (text.isEmpty())
            return;
        painter->setFont(style.small);
        painter->setPen(color);
        const int width = style.smallMetrics.horizontalAdvance(text);
        painter->drawText(QRect(right - width,
                                m_geometry.header.y(),
                                width,
                                m_geometry.header.height()),
                          Qt::AlignRight | Qt::AlignVCenter,
                          text);
        right -= width + style.spacing;
    };
    drawRight(stateText(nowMs), style.muted);
    if (m_hasDiff) {
        drawRight(QStringLiteral("−%1").arg(m_deletions), style.error);
        drawRight(QStringLiteral("+%1").arg(m_additions), style.success);
    }
    if (m_userEdited)
        drawRight(UiTr::tr("applied with your changes"), style.accent);

    int x = status.right() + style.spacing + 2;
    painter->setFont(style.bold);
    painter->setPen(style.text);
    const QString name = displayName(m_toolName);
    const int nameWidth = QFontMetrics(style.bold).horizontalAdvance(name);
    painter->drawText(QRect(x, m_geometry.header.y(), nameWidth, m_geometry.header.height()),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      name);
    x += nameWidth + style.spacing;
    const QRect argument(x, m_geometry.header.y(), qMax(0, right - x), m_geometry.header.height());
    painter->setFont(style.mono);
    painter->setPen(style.muted);
    painter->drawText(argument,
                      Qt::AlignLeft | Qt::AlignVCenter,
                      style.monoMetrics.elidedText(keyArgument(),
                                                   Qt::ElideMiddle,
                                                   argument.width()));
}

void ToolCardItem::paint(QPainter *painter,
                         const QRect &clip,
                         const ConversationStyle &style,
                         qint64 nowMs) const
{
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath card;
    card.addRoundedRect(QRectF(m_geometry.card).adjusted(0.5, 0.5, -0.5, -0.5),
                        style.radius,
                        style.radius);
    painter->fillPath(card, style.cardBackground);
    painter->setPen(QPen(m_state == State::Failed ? style.error : style.cardBorder, 1));
    painter->drawPath(card);

    paintHeader(painter, style, nowMs);
    if (!m_geometry.arguments.isEmpty()) {
        QPainterPath box;
        box.addRoundedRect(QRectF(m_geometry.arguments), 4, 4);
        painter->fillPath(box, style.codeBackground);
        painter->save();
        painter->setClipPath(box);
        m_argumentLines.paint(painter, outputLines(m_geometry.arguments), clip, style);
        painter->restore();
    }
    if (!m_geometry.output.isEmpty()) {
        QPainterPath box;
        box.addRoundedRect(QRectF(m_geometry.output), 4, 4);
        painter->fillPath(box, style.codeBackground);
        painter->save();
        painter->setClipPath(box);
        m_output.paint(painter, outputLines(m_geometry.output), clip, style);
        painter->restore();
    }
    for (qsizetype i = 0; i < m_geometry.pictures.size() && i < m_pictures.size(); ++i) {
        const QRect &rect = m_geometry.pictures.at(i);
        if (!rect.intersects(clip))
            continue;
        if (m_pictures.at(i).isNull()) {
            painter->setPen(QPen(style.cardBorder, 1, Qt::DashLine));
            painter->drawRect(rect.adjusted(0, 0, -1, -1));
            painter->setFont(style.small);
            painter->setPen(style.muted);
            painter->drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, m_pictureNames.at(i));
            continue;
        }
        painter->drawImage(rect, m_pictures.at(i));
        painter->setPen(QPen(style.cardBorder, 1));
        painter->drawRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5));
    }
    if (!m_geometry.detailsHeader.isEmpty()) {
        painter->setFont(style.small);
        painter->setPen(style.muted);
        painter->drawText(m_geometry.detailsHeader,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          (m_detailsExpanded ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                              + (m_hookRuns.isEmpty()
                                     ? UiTr::tr("Details")
                                     //: A tool card's details, when hooks ran for the call
                                     : UiTr::tr("Details · hooks: %1").arg(m_hookRuns.size())));
        if (!m_geometry.details.isEmpty())
            m_details.paint(painter, m_geometry.details, clip, style);
    }
}

bool ToolCardItem::isClickable(QPoint pos) const
{
    return m_geometry.outputToggle.contains(pos) || m_geometry.argumentsToggle.contains(pos)
           || m_geometry.detailsToggle.contains(pos) || m_geometry.detailsHeader.contains(pos);
}

bool ToolCardItem::click(QPoint pos)
{
    if (m_geometry.outputToggle.contains(pos)) {
        if (m_page == Page::Loading)
            return false; // it comes
        setOutputExpanded(m_page == Page::Failed ? false : !m_output.isExpanded());
        return true;
    }
    if (m_geometry.argumentsToggle.contains(pos)) {
        m_argumentLines.setExpanded(!m_argumentLines.isExpanded());
        invalidate();
        return true;
    }
    if (m_geometry.detailsHeader.contains(pos) || m_geometry.detailsToggle.contains(pos)) {
        if (m_geometry.detailsToggle.contains(pos))
            m_details.setExpanded(!m_details.isExpanded());
        else
            m_detailsExpanded = !m_detailsExpanded;
        invalidate();
        return true;
    }
    return false;
}

void ToolCardItem::addHookRun(const QString &summary, const QString &output)
{
    QString entry = UiTr::tr("hook %1").arg(summary);
    if (!output.trimmed().isEmpty())
        entry += u'\n' + output.trimmed();
    m_hookRuns.append(entry);
    m_details.setText(QStringList(m_hookRuns + QStringList{m_resultDetails}).join(u'\n').trimmed());
    invalidate();
}

} // namespace Ui
