#include "mcpserverspage.h"

#include "keys/keystore.h"
#include "mcpservers.h"

#include <mcp/mcpconfig.h>
#include <mcp/mcptool.h>

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {
constexpr int KeyRole = Qt::UserRole + 1;

QString stateText(const McpServerEntry &entry)
{
    using State = AgentCore::McpClient::State;
    if (!entry.enabled)
        return McpServersPage::tr("off");
    if (entry.awaitingTrust)
        return McpServersPage::tr("not started: .mcp.json is not trusted");
    if (!entry.problem.isEmpty())
        return entry.problem;
    if (!entry.client)
        return McpServersPage::tr("not started");
    switch (entry.client->state()) {
    case State::Stopped:
        return McpServersPage::tr("starting…");
    case State::Starting:
        return McpServersPage::tr("starting…");
    case State::Ready:
        return McpServersPage::tr("connected, %n tool(s)",
                                  nullptr,
                                  int(entry.client->tools().size()));
    case State::Failed:
        return McpServersPage::tr("failed: %1").arg(entry.client->error());
    }
    return {};
}
} // namespace

McpServersPage::McpServersPage(const QString &userServers, KeyStore *keyStore, QWidget *parent)
    : QWidget(parent)
    , m_keyStore(keyStore)
{
    setObjectName(QStringLiteral("mcpServersPage"));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("mcpServerTree"));
    m_tree->setHeaderLabels({tr("Server"), tr("From"), tr("State")});
    m_tree->setAccessibleName(tr("MCP servers"));
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setMinimumHeight(160);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (m_refreshing || column != 0 || !m_servers || item->parent())
            return;
        // Queued: switching a server refreshes this tree, and an item deleted inside its own
        // itemChanged is used after that by QTreeWidgetItem::setData (the CI's crash).
        QMetaObject::invokeMethod(
            this,
            [this, key = item->data(0, KeyRole).toString(), on = item->checkState(0) == Qt::Checked] {
                if (m_servers)
                    m_servers->setEnabled(key, on);
            },
            Qt::QueuedConnection);
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this] {
        const bool server = !selectedKey().isEmpty();
        m_restart->setEnabled(server);
        m_log->setEnabled(server);
    });

    m_restart = new QPushButton(tr("&Restart"), this);
    m_restart->setObjectName(QStringLiteral("mcpRestartButton"));
    m_restart->setEnabled(false);
    connect(m_restart, &QPushButton::clicked, this, [this] {
        if (m_servers && !selectedKey().isEmpty())
            m_servers->restart(selectedKey());
    });
    m_log = new QPushButton(tr("Show &log…"), this);
    m_log->setObjectName(QStringLiteral("mcpLogButton"));
    m_log->setEnabled(false);
    connect(m_log, &QPushButton::clicked, this, &McpServersPage::showLog);
    m_secret = new QPushButton(tr("Store a &secret…"), this);
    m_secret->setObjectName(QStringLiteral("mcpSecretButton"));
    m_secret->setToolTip(tr("Keeps a token in the keyring; a server's env, args or url names it "
                            "as ${keyring:NAME}, so the file never holds it."));
    m_secret->setEnabled(m_keyStore);
    connect(m_secret, &QPushButton::clicked, this, &McpServersPage::storeSecret);
    auto buttons = new QHBoxLayout;
    buttons->addWidget(m_restart);
    buttons->addWidget(m_log);
    buttons->addStretch();
    buttons->addWidget(m_secret);

    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("mcpProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->hide();

    auto userTitle = new QLabel(
        tr("Your servers, for every repository, in the format of .mcp.json. ${VAR} takes an "
           "environment variable, ${keyring:NAME} a secret stored here. A repository's server "
           "of the same name is used instead of yours."),
        this);
    userTitle->setWordWrap(true);
    m_userServers = new QPlainTextEdit(userServers, this);
    m_userServers->setObjectName(QStringLiteral("mcpUserServers"));
    m_userServers->setAccessibleName(tr("Your MCP servers"));
    m_userServers->setTabChangesFocus(true);
    m_userServers->setPlaceholderText(QStringLiteral(
        "{\"mcpServers\": {\n  \"github\": {\"command\": \"npx\", \"args\": [\"-y\", "
        "\"@modelcontextprotocol/server-github\"],\n             \"env\": "
        "{\"GITHUB_TOKEN\": \"${keyring:github}\"}}\n}}"));
    QFont mono = m_userServers->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_userServers->setFont(mono);
    m_userServers->setFixedHeight(m_userServers->fontMetrics().lineSpacing() * 6
                                  + 2 * m_userServers->frameWidth() + 8);
    m_userServersError = new QLabel(this);
    m_userServersError->setObjectName(QStringLiteral("mcpUserServersError"));
    m_userServersError->setWordWrap(true);
    m_userServersError->hide();
    connect(m_userServers, &QPlainTextEdit::textChanged, this, [this] {
        const QString error = userServersError();
        m_userServersError->setText(error);
        m_userServersError->setVisible(!error.isEmpty());
    });

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_tree, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_problems);
    layout->addSpacing(8);
    layout->addWidget(userTitle);
    layout->addWidget(m_userServers);
    layout->addWidget(m_userServersError);
    refresh();
}

void McpServersPage::setServers(McpServers *servers)
{
    if (m_servers)
        m_servers->disconnect(this);
    m_servers = servers;
    if (m_servers)
        connect(m_servers, &McpServers::changed, this, &McpServersPage::refresh);
    refresh();
}

QString McpServersPage::userServers() const
{
    return m_userServers->toPlainText();
}

QString McpServersPage::userServersError() const
{
    const QString text = userServers();
    if (text.trimmed().isEmpty())
        return {};
    const AgentCore::McpConfig config = AgentCore::McpConfig::parse(text.toUtf8(),
                                                                    tr("your servers"));
    if (!config.error.isEmpty())
        return config.error;
    return config.problems.join(QLatin1Char('\n'));
}

void McpServersPage::refresh()
{
    m_refreshing = true;
    // A server changing state rebuilds the rows: what the user opened, chose and scrolled to stays.
    const QString selected = selectedKey();
    QSet<QString> expanded;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->isExpanded())
            expanded.insert(m_tree->topLevelItem(i)->data(0, KeyRole).toString());
    }
    const int scrolled = m_tree->verticalScrollBar()->value();
    m_tree->clear();
    QStringList problems;
    if (m_servers) {
        problems = m_servers->problems();
        for (const McpServerEntry &entry : m_servers->servers()) {
            auto item = new QTreeWidgetItem(m_tree);
            item->setText(0, entry.config.name);
            item->setData(0, KeyRole, entry.key);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(0, entry.enabled ? Qt::Checked : Qt::Unchecked);
            item->setText(1,
                          entry.source == McpServerEntry::Source::Repository
                              ? tr("repository (.mcp.json)")
                              : tr("your settings"));
            item->setText(2, stateText(entry));
            item->setToolTip(0,
                             entry.config.type == QLatin1String("stdio")
                                 ? entry.config.commandLine()
                                 : entry.config.url);
            item->setToolTip(2, stateText(entry));
            if (entry.client && entry.client->state() == AgentCore::McpClient::State::Ready) {
                for (const AgentCore::McpToolInfo &tool : entry.client->tools()) {
                    auto child = new QTreeWidgetItem(item);
                    child->setText(0, tool.name);
                    // The server's annotation is its claim, not a reason to skip the question.
                    child->setText(2,
                                   tool.readOnlyHint
                                       ? tr("asks before each call (the server says it is "
                                            "read-only)")
                                       : tr("asks before each call"));
                    child->setToolTip(0, AgentCore::McpTool::toolName(entry.config.name, tool.name));
                    child->setToolTip(2, tool.description.left(500));
                }
            }
            item->setExpanded(expanded.contains(entry.key));
            if (entry.key == selected)
                m_tree->setCurrentItem(item);
        }
    }
    m_tree->verticalScrollBar()->setValue(scrolled);
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    m_refreshing = false;
    const bool server = !selectedKey().isEmpty();
    m_restart->setEnabled(server);
    m_log->setEnabled(server);
}

QString McpServersPage::selectedKey() const
{
    QTreeWidgetItem *item = m_tree->currentItem();
    while (item && item->parent())
        item = item->parent();
    return item ? item->data(0, KeyRole).toString() : QString();
}

void McpServersPage::showLog()
{
    if (!m_servers)
        return;
    const QString key = selectedKey();
    for (const McpServerEntry &entry : m_servers->servers()) {
        if (entry.key != key)
            continue;
        auto dialog = new QDialog(this);
        dialog->setObjectName(QStringLiteral("mcpLogDialog"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Log of MCP server %1").arg(entry.config.name));
        auto text = new QPlainTextEdit(dialog);
        text->setObjectName(QStringLiteral("mcpLog"));
        text->setReadOnly(true);
        text->setLineWrapMode(QPlainTextEdit::NoWrap);
        QFont mono = text->font();
        mono.setFamily(QStringLiteral("monospace"));
        mono.setStyleHint(QFont::Monospace);
        text->setFont(mono);
        const QString log = entry.client ? entry.client->log() : QString();
        text->setPlainText(log.isEmpty() ? tr("(nothing yet: the server has not written to its "
                                              "standard error)")
                                         : log);
        auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
        auto layout = new QVBoxLayout(dialog);
        layout->addWidget(text);
        layout->addWidget(buttons);
        dialog->resize(720, 420);
        dialog->open();
        return;
    }
}

void McpServersPage::storeSecret()
{
    if (!m_keyStore)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this,
                                               tr("Store a secret"),
                                               tr("Name (used as ${keyring:NAME}):"),
                                               QLineEdit::Normal,
                                               QString(),
                                               &ok)
                             .trimmed();
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$"));
    if (!ok || !valid.match(name).hasMatch()) {
        if (ok) {
            m_problems->setText(
                tr("A secret's name has 1 to 64 letters, digits, '_', '-' or '.'."));
            m_problems->setVisible(true);
        }
        return;
    }
    const QString value = QInputDialog::getText(this,
                                                tr("Store a secret"),
                                                tr("The secret for %1:").arg(name),
                                                QLineEdit::Password,
                                                QString(),
                                                &ok);
    if (!ok)
        return;
    m_keyStore
        ->writeKey(McpServers::secretAccount(name), value, this, [this](const KeyResult &result) {
            m_problems->setText(result.succeeded() ? tr("Stored. Restart the servers that use it.")
                                                   : result.error);
            m_problems->setVisible(true);
        });
}

} // namespace Ui

#include "moc_mcpserverspage.cpp"
