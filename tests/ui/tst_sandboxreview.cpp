// The Bash review says where the command will run: in the sandbox (with or without network),
// without it and why, or not at all. The request is made by the real PermissionReview from a
// workspace's sandbox policy (the real bwrap probe), shown by the real view.

#include <permissions/permissionreview.h>
#include <review/bashreviewview.h>
#include <testmain.h>
#include <tools/sandboxprobe.h>

#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_sandboxreview {

namespace {

PermissionRequest reviewOf(const SandboxPolicy &policy, const QString &root)
{
    ToolWorkspace workspace(root);
    workspace.setSandboxPolicy(policy);
    PermissionSubject subject;
    subject.toolName = QStringLiteral("Bash");
    subject.sideEffects = true;
    subject.arguments = {{QStringLiteral("command"), QStringLiteral("npm install")}};
    PermissionRequest request;
    request.id = 3;
    const QString error = PermissionReview::describe(&workspace, subject, request);
    if (!error.isEmpty())
        qWarning() << error;
    return request;
}

} // namespace

class tst_SandboxReview : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;

    QLabel *sandboxLabel(Ui::BashReviewView &view)
    {
        return view.findChild<QLabel *>(QStringLiteral("sandboxState"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        const SandboxProbe::Result probe = SandboxProbe::probe();
        QVERIFY2(probe.available, qPrintable(probe.error));
    }

    void showsWhereTheCommandRuns_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("network");
        QTest::addColumn<bool>("bwrapMissing");
        QTest::addColumn<QString>("shown");
        QTest::addRow("sandboxed") << int(SandboxMode::On) << false << false
                                   << "Runs sandboxed: read-only outside the repository, no "
                                      "network.";
        QTest::addRow("sandboxed with network")
            << int(SandboxMode::Required) << true << false
            << "Runs sandboxed: read-only outside the repository, with network.";
        QTest::addRow("off") << int(SandboxMode::Off) << false << false
                             << "Runs without the sandbox (turned off in the settings).";
        QTest::addRow("unavailable")
            << int(SandboxMode::On) << false << true << "Runs without the sandbox: ";
        QTest::addRow("refused") << int(SandboxMode::Required) << false << true
                                 << "Will not run: the sandbox is required but unavailable: ";
    }

    void showsWhereTheCommandRuns()
    {
        QFETCH(int, mode);
        QFETCH(bool, network);
        QFETCH(bool, bwrapMissing);
        QFETCH(QString, shown);
        SandboxPolicy policy;
        policy.mode = SandboxMode(mode);
        policy.allowNetwork = network;
        if (bwrapMissing)
            policy.bwrapPath = m_root.filePath(QStringLiteral("no-bwrap-here"));

        Ui::BashReviewView view;
        view.resize(700, 500);
        view.setRequest(reviewOf(policy, m_root.path()));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QLabel *label = sandboxLabel(view);
        QVERIFY(label);
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().startsWith(shown), qPrintable(label->text()));
        if (bwrapMissing)
            QVERIFY2(label->text().contains(QLatin1String("no-bwrap-here")),
                     qPrintable(label->text()));
    }

    // A review made without a workspace (a test's, an extension's) says nothing about it.
    void nothingWithoutAWorkspace()
    {
        PermissionRequest request;
        request.toolName = QStringLiteral("Bash");
        request.arguments = {{QStringLiteral("command"), QStringLiteral("ls")}};
        Ui::BashReviewView view;
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!sandboxLabel(view)->isVisible());
    }
};

AGENTDESK_TEST_MAIN(tst_SandboxReview)

} // namespace tst_sandboxreview

#include "tst_sandboxreview.moc"
