#pragma once

#include <QAccessibleWidget>
#include <QHash>
#include <QPointer>

namespace Ui {

class ConversationItem;
class ConversationView;

/// What a screen reader sees of the custom-painted ConversationView: a list named
/// "Conversation" whose children are its items (bubbles, tool cards, notes), each a list item
/// with a name saying who or what it is and its text, then the "Jump to latest" button while
/// it shows. Item interfaces are made on demand, cached per item and released when the view
/// removes their item (ConversationView::aboutToRemoveItem).
class ConversationAccessible final : public QAccessibleWidget
{
public:
    explicit ConversationAccessible(ConversationView *view);
    ~ConversationAccessible() override;

    /// Installs the factory that gives every ConversationView this interface (once).
    static void install();

    int childCount() const override;
    QAccessibleInterface *child(int index) const override;
    int indexOfChild(const QAccessibleInterface *child) const override;
    QAccessibleInterface *childAt(int x, int y) const override;

    ConversationView *view() const;

private:
    QAccessibleInterface *itemInterface(int index) const;
    void release(const ConversationItem *item);

    mutable QHash<const ConversationItem *, QAccessible::Id> m_items;
    QMetaObject::Connection m_removals;
};

/// One item of the conversation for a screen reader. Holds no copy of the item: it is
/// valid while the view still shows the item.
class ConversationItemAccessible final : public QAccessibleInterface
{
public:
    ConversationItemAccessible(ConversationView *view, const ConversationItem *item);

    bool isValid() const override;
    QObject *object() const override { return nullptr; }
    QWindow *window() const override;
    QAccessibleInterface *parent() const override;
    QAccessibleInterface *child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface *) const override { return -1; }
    QAccessibleInterface *childAt(int, int) const override { return nullptr; }
    QString text(QAccessible::Text type) const override;
    void setText(QAccessible::Text, const QString &) override {}
    QRect rect() const override;
    QAccessible::Role role() const override;
    QAccessible::State state() const override;

    const ConversationItem *item() const { return m_item; }

private:
    int index() const;

    QPointer<ConversationView> m_view;
    const ConversationItem *m_item;
};

} // namespace Ui
