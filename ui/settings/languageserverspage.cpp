#include "languageserverspage.h"
#include "appsettings.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {

constexpr int defaultWaitSeconds = 3; // LanguageServerOptions::editWaitMs

// Arguments as one line: split as a shell would (quotes keep spaces), joined back quoted.
QString argumentsText(const QStringList &args)
{
    QStringList quoted;
    for (const QString &arg : args)
        quoted.append(arg.contains(u' ') || arg.isEmpty() ? u'"' + arg + u'"' : arg);
    return quoted.join(u' ');
}

QStringList suffixesOf(const QString &text)
{
    QStringList suffixes;
    for (QString suffix :
         text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        if (suffix.startsWith(u'.'))
            suffix.remove(0, 1);
        suffixes.append(suffix.toLower());
    }
    return suffixes;
}

} // namespace

LanguageServersPage::LanguageServersPage(QWidget *parent)
    : QWidget(parent)
    , m_enabled(new QCheckBox(tr("&Check changes with language servers"), this))
    , m_wait(new QSpinBox(this))
    , m_table(new QTableWidget(0, 4, this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_problems(new QLabel(this))
{
    setObjectName(QStringLiteral("languageServersPage"));
    m_enabled->setObjectName(QStringLiteral("languageServersCheck"));
    m_enabled->setToolTip(tr("After each Edit or Write the file's language server checks it, and "
                             "the problems the change introduced go to the model and the review"));
    m_wait->setObjectName(QStringLiteral("languageServerWaitSpin"));
    m_wait->setRange(1, AppSettings::maxLanguageServerWaitSeconds);
    m_wait->setSuffix(tr(" s"));
    m_wait->setToolTip(tr("The longest an Edit or Write waits for its check; a slower answer is "
                          "said to the model instead"));
    auto intro = new QLabel(tr("Looked for on PATH when a session starts; the first found for a "
                               "language is used (clangd reads the repository's "
                               "compile_commands.json). A server runs with Bash's environment, "
                               "without secrets."),
                            this);
    intro->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("languageServers"));
    m_table->setHorizontalHeaderLabels(
        {tr("Server"), tr("Command"), tr("Arguments"), tr("File suffixes")});
    m_table->verticalHeader()->hide();
    // The arguments take the room the others leave; a long command is cut in its middle.
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(Arguments, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    const int character = fontMetrics().horizontalAdvance(u'x');
    m_table->setColumnWidth(Name, character * 15);
    m_table->setColumnWidth(Command, character * 15);
    m_table->setColumnWidth(Suffixes, character * 13);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setToolTip(tr("Double-click a cell to change it; uncheck a server to leave it out"));
    auto add = new QPushButton(tr("&Add"), this);
    add->setObjectName(QStringLiteral("addLanguageServerButton"));
    m_remove->setObjectName(QStringLiteral("removeLanguageServerButton"));
    auto defaults = new QPushButton(tr("Restore &defaults"), this);
    defaults->setObjectName(QStringLiteral("languageServerDefaultsButton"));
    m_problems->setObjectName(QStringLiteral("languageServerProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->hide();

    auto form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    form->addRow(m_enabled);
    form->addRow(tr("&Wait for a check at most:"), m_wait);
    auto buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    buttons->addWidget(defaults);
    auto layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_problems);

    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        m_wait->setEnabled(on);
        m_table->setEnabled(on);
    });
    connect(add, &QPushButton::clicked, this, [this] {
        addRow({}, true);
        m_table->setCurrentCell(m_table->rowCount() - 1, Name);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, Name));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
        updateProblems();
    });
    connect(defaults, &QPushButton::clicked, this, [this] {
        setServers(AgentCore::LspServerConfig::defaults(), {});
    });
    connect(m_table, &QTableWidget::itemChanged, this, &LanguageServersPage::updateProblems);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        m_remove->setEnabled(row >= 0);
    });
    m_remove->setEnabled(false);
}

void LanguageServersPage::load(const AppSettings &settings)
{
    m_enabled->setChecked(settings.languageServers);
    m_wait->setEnabled(settings.languageServers);
    m_table->setEnabled(settings.languageServers);
    m_wait->setValue(settings.languageServerWaitSeconds > 0 ? settings.languageServerWaitSeconds
                                                            : defaultWaitSeconds);
    setServers(settings.languageServerConfigs.isEmpty() ? AgentCore::LspServerConfig::defaults()
                                                        : settings.languageServerConfigs,
               settings.disabledLanguageServers);
}

void LanguageServersPage::store(AppSettings &settings) const
{
    settings.languageServers = m_enabled->isChecked();
    settings.languageServerWaitSeconds = m_wait->value() == defaultWaitSeconds ? 0
                                                                               : m_wait->value();
    QList<AgentCore::LspServerConfig> servers;
    QStringList disabled;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const std::optional<AgentCore::LspServerConfig> server = serverAt(row);
        if (!server)
            continue;
        servers.append(*server);
        if (m_table->item(row, Name)->checkState() != Qt::Checked)
            disabled.append(server->name);
    }
    // The defaults as they are stay "the defaults": a later version's list then applies.
    const bool defaults = servers == AgentCore::LspServerConfig::defaults();
    settings.languageServerConfigs = defaults ? QList<AgentCore::LspServerConfig>() : servers;
    settings.disabledLanguageServers = disabled;
}

QStringList LanguageServersPage::problems() const
{
    QStringList problems;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (!serverAt(row)) {
            problems.append(tr("Row %1 is left out: a server needs a name, a command and file "
                               "suffixes (letters and digits).")
                                .arg(row + 1));
        }
    }
    return problems;
}

void LanguageServersPage::setServers(const QList<AgentCore::LspServerConfig> &servers,
                                     const QStringList &disabled)
{
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(0);
    for (const AgentCore::LspServerConfig &config : servers)
        addRow(config, !disabled.contains(config.name));
    updateProblems();
}

void LanguageServersPage::addRow(const AgentCore::LspServerConfig &config, bool enabled)
{
    const QSignalBlocker blocker(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto name = new QTableWidgetItem(config.name);
    name->setFlags(name->flags() | Qt::ItemIsUserCheckable);
    name->setCheckState(enabled ? Qt::Checked : Qt::Unchecked);
    m_table->setItem(row, Name, name);
    m_table->setItem(row, Command, new QTableWidgetItem(config.command));
    m_table->setItem(row, Arguments, new QTableWidgetItem(argumentsText(config.args)));
    m_table->setItem(row,
                     Suffixes,
                     new QTableWidgetItem(config.suffixes.join(QStringLiteral(", "))));
}

std::optional<AgentCore::LspServerConfig> LanguageServersPage::serverAt(int row) const
{
    const auto text = [this, row](int column) {
        const QTableWidgetItem *item = m_table->item(row, column);
        return item ? item->text().trimmed() : QString();
    };
    // Through the same validation as a settings file's.
    return AgentCore::LspServerConfig::fromJson(
        {{QStringLiteral("name"), text(Name)},
         {QStringLiteral("command"), text(Command)},
         {QStringLiteral("args"),
          QJsonArray::fromStringList(QProcess::splitCommand(text(Arguments)))},
         {QStringLiteral("suffixes"), QJsonArray::fromStringList(suffixesOf(text(Suffixes)))}});
}

void LanguageServersPage::updateProblems()
{
    const QStringList found = problems();
    m_problems->setText(found.join(u'\n'));
    m_problems->setVisible(!found.isEmpty());
}

} // namespace Ui

#include "moc_languageserverspage.cpp"
