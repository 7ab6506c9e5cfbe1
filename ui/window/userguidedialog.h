#pragma once

#include <QDialog>
#include <QHash>
#include <QImage>
#include <QUrl>

QT_BEGIN_NAMESPACE
class QListWidget;
class QTextBrowser;
QT_END_NAMESPACE

namespace Ui {

/// Help > User Guide (F1): docs/guide.md, compiled into the app with its pictures
/// (resources/CMakeLists.txt), rendered as markdown; works offline, needs no viewer. The
/// guide's sections are listed beside it; a link to a section scrolls there, a web link opens in
/// the browser.
class UserGuideDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UserGuideDialog)
public:
    explicit UserGuideDialog(QWidget *parent = nullptr);

    /// Where the guide is read from.
    static QUrl guideUrl();

    QTextBrowser *text() const { return m_text; }
    /// The guide's sections (its level-two headings), in order.
    QListWidget *contents() const { return m_contents; }
    /// Scrolls to the section headed \a heading, or to its GitHub-style anchor ("first-task").
    bool showSection(const QString &heading);

protected:
    /// Fits the pictures to the text's width whenever that changes.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void listSections();
    /// Pictures wider than the text shrink to fit it, keeping their proportions.
    void fitImages();
    void followLink(const QUrl &url);

    QListWidget *m_contents;
    QTextBrowser *m_text;
    /// The pictures as the guide holds them, by name: fitImages() shows them scaled.
    QHash<QString, QImage> m_originals;
};

} // namespace Ui
