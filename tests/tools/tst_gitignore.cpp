#include "toolstest.h"

#include <testmain.h>
#include <tools/filewalker.h>
#include <tools/gitignore.h>
#include <tools/globpattern.h>
#include <tools/ripgrepsearcher.h>

#include <QTest>

using namespace AgentCore;

namespace tst_gitignore {

using Files = QMap<QString, QByteArray>;

namespace {

QStringList walk(const QString &directory, const QList<QByteArray> &globs = {})
{
    QStringList files;
    FileWalker walker(directory);
    walker.setOverrideGlobs(globs);
    walker.walk([&files](QByteArrayView relative, bool isDirectory) {
        if (!isDirectory)
            files.append(QString::fromUtf8(relative));
        return FileWalker::Visit::Continue;
    });
    files.sort();
    return files;
}

QStringList lines(const QByteArray &output, char separator = '\n')
{
    QStringList list;
    for (const QByteArray &line : output.split(separator)) {
        if (!line.isEmpty())
            list.append(QString::fromUtf8(line.startsWith("./") ? line.mid(2) : line));
    }
    list.sort();
    return list;
}

QStringList ripgrepFiles(const QString &directory, const QStringList &globs = {})
{
    QStringList args{QStringLiteral("--files"),
                     QStringLiteral("--no-config"),
                     QStringLiteral("--hidden"),
                     QStringLiteral("--no-ignore-dot"),
                     QStringLiteral("--no-ignore-global")};
    for (const QString &glob : globs)
        args << QStringLiteral("--glob=") + glob;
    args << QStringLiteral("--glob=!.git");
    QProcess rg;
    rg.setWorkingDirectory(directory);
    rg.setStandardInputFile(QProcess::nullDevice());
    rg.start(RipgrepSearcher::findExecutable(), args);
    rg.waitForFinished(30000);
    return lines(rg.readAllStandardOutput());
}

} // namespace

class tst_GitIgnore : public QObject
{
    Q_OBJECT

private slots:
    void wildmatch_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");
        // From git's t3070-wildmatch, with WM_PATHNAME.
        QTest::newRow("literal") << "foo"
                                 << "foo" << true;
        QTest::newRow("star no slash") << "*"
                                       << "foo/bar" << false;
        QTest::newRow("star") << "f*"
                              << "foo" << true;
        QTest::newRow("question") << "???"
                                  << "foo" << true;
        QTest::newRow("question not slash") << "foo?bar"
                                            << "foo/bar" << false;
        QTest::newRow("double star any") << "**"
                                         << "foo/bar/baz" << true;
        QTest::newRow("leading double star") << "**/foo"
                                             << "foo" << true;
        QTest::newRow("leading double star deep") << "**/foo"
                                                  << "a/b/foo" << true;
        QTest::newRow("trailing double star") << "foo/**"
                                              << "foo/a/b" << true;
        QTest::newRow("trailing double star not dir") << "foo/**"
                                                      << "foo" << false;
        QTest::newRow("middle double star zero") << "a/**/b"
                                                 << "a/b" << true;
        QTest::newRow("middle double star many") << "a/**/b"
                                                 << "a/x/y/b" << true;
        QTest::newRow("double star inside name acts as star") << "a**b"
                                                              << "a/b" << false;
        QTest::newRow("class") << "[abc].txt"
                               << "b.txt" << true;
        QTest::newRow("class miss") << "[abc].txt"
                                    << "d.txt" << false;
        QTest::newRow("negated class") << "[!a]x"
                                       << "bx" << true;
        QTest::newRow("caret class") << "[^a]x"
                                     << "ax" << false;
        QTest::newRow("range") << "[a-c]x"
                               << "bx" << true;
        QTest::newRow("posix class") << "[[:digit:]]x"
                                     << "7x" << true;
        QTest::newRow("posix class miss") << "[[:digit:]]x"
                                          << "ax" << false;
        QTest::newRow("escape") << "\\*x"
                                << "*x" << true;
        QTest::newRow("escape miss") << "\\*x"
                                     << "ax" << false;
        QTest::newRow("class never slash") << "a[/]b"
                                           << "a/b" << false;
        QTest::newRow("star then slash") << "*/bar"
                                         << "foo/bar" << true;
        QTest::newRow("star then slash too deep") << "*/bar"
                                                  << "a/foo/bar" << false;
        QTest::newRow("suffix") << "*.cpp"
                                << "main.cpp" << true;
        QTest::newRow("suffix not in dir") << "*.cpp"
                                           << "src/main.cpp" << false;
        QTest::newRow("any suffix") << "**/*.cpp"
                                    << "src/x/main.cpp" << true;
        QTest::newRow("braces") << "*.{h,cpp}"
                                << "a.h" << true;
        QTest::newRow("braces second") << "*.{h,cpp}"
                                       << "a.cpp" << true;
        QTest::newRow("braces miss") << "*.{h,cpp}"
                                     << "a.c" << false;
        QTest::newRow("nested braces") << "{src,lib/{a,b}}/*.rs"
                                       << "lib/b/x.rs" << true;
    }

    void wildmatch()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(bool, matches);
        const GlobPattern glob(pattern.toUtf8(), GlobPattern::PathName | GlobPattern::Braces);
        QCOMPARE(glob.matches(text.toUtf8()), matches);
    }

    void patterns_data()
    {
        QTest::addColumn<QString>("ignoreFile");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("isDirectory");
        QTest::addColumn<int>("result"); // GitIgnore::Result

        const int none = int(GitIgnore::Result::None);
        const int ignored = int(GitIgnore::Result::Ignored);
        const int whitelist = int(GitIgnore::Result::Whitelist);
        QTest::newRow("name anywhere") << "*.log"
                                       << "a/b/x.log" << false << ignored;
        QTest::newRow("anchored root") << "/build"
                                       << "build" << true << ignored;
        QTest::newRow("anchored not deeper") << "/build"
                                             << "src/build" << true << none;
        QTest::newRow("dir only, file") << "build/"
                                        << "build" << false << none;
        QTest::newRow("dir only, dir") << "build/"
                                       << "x/build" << true << ignored;
        QTest::newRow("middle slash anchors") << "doc/*.txt"
                                              << "doc/a.txt" << false << ignored;
        QTest::newRow("middle slash not deeper") << "doc/*.txt"
                                                 << "doc/x/a.txt" << false << none;
        QTest::newRow("negation last wins") << "*.log\n!keep.log"
                                            << "keep.log" << false << whitelist;
        QTest::newRow("later pattern wins") << "!keep.log\n*.log"
                                            << "keep.log" << false << ignored;
        QTest::newRow("comment") << "# x.log"
                                 << "# x.log" << false << none;
        QTest::newRow("escaped hash") << "\\#x"
                                      << "#x" << false << ignored;
        QTest::newRow("escaped bang") << "\\!x"
                                      << "!x" << false << ignored;
        QTest::newRow("trailing spaces dropped") << "name   "
                                                 << "name" << false << ignored;
        QTest::newRow("escaped trailing space") << "name\\ "
                                                << "name " << false << ignored;
        QTest::newRow("crlf file") << "a.txt\r\nb.txt\r\n"
                                   << "b.txt" << false << ignored;
        QTest::newRow("blank lines") << "\n\n"
                                     << "x" << false << none;
    }

    void patterns()
    {
        QFETCH(QString, ignoreFile);
        QFETCH(QString, path);
        QFETCH(bool, isDirectory);
        QFETCH(int, result);
        const GitIgnore ignore = GitIgnore::parse(ignoreFile.toUtf8());
        QCOMPARE(int(ignore.match(path.toUtf8().constData(), isDirectory)), result);
    }

    // The walk lists what git itself considers untracked and not ignored.
    void walkAgreesWithGit_data()
    {
        QTest::addColumn<Files>("files");
        QTest::newRow("negation") << Files{{".gitignore", "*.log\n!keep.log\n"},
                                           {"a.log", ""},
                                           {"keep.log", ""},
                                           {"b.txt", ""},
                                           {"sub/c.log", ""},
                                           {"sub/keep.log", ""}};
        QTest::newRow("directory pattern") << Files{{".gitignore", "build/\n"},
                                                    {"build/x.o", ""},
                                                    {"src/build", ""},
                                                    {"src/build2/x", ""},
                                                    {"deep/build/y", ""}};
        QTest::newRow("anchored") << Files{{".gitignore", "/top.txt\nsub/only.txt\n"},
                                           {"top.txt", ""},
                                           {"sub/top.txt", ""},
                                           {"sub/only.txt", ""},
                                           {"other/sub/only.txt", ""}};
        QTest::newRow("nested gitignore") << Files{{".gitignore", "*.tmp\n"},
                                                   {"sub/.gitignore", "!important.tmp\nlocal/\n"},
                                                   {"a.tmp", ""},
                                                   {"sub/important.tmp", ""},
                                                   {"sub/b.tmp", ""},
                                                   {"sub/local/x", ""},
                                                   {"sub/local.txt", ""},
                                                   {"important.tmp", ""}};
        QTest::newRow("double star") << Files{{".gitignore", "**/gen/**\nlogs/**/*.txt\n"},
                                              {"gen/a", ""},
                                              {"src/gen/b", ""},
                                              {"logs/a.txt", ""},
                                              {"logs/x/y/b.txt", ""},
                                              {"logs/c.md", ""},
                                              {"src/general", ""}};
        QTest::newRow("no re-include inside excluded dir")
            << Files{{".gitignore", "out/\n!out/keep.txt\n"},
                     {"out/keep.txt", ""},
                     {"other.txt", ""}};
        QTest::newRow("re-include a directory")
            << Files{{".gitignore", "/vendor/*\n!/vendor/keep/\n"},
                     {"vendor/a", ""},
                     {"vendor/keep/b", ""},
                     {"vendor/keep/c/d", ""}};
        QTest::newRow("classes and escapes") << Files{{".gitignore", "[Tt]emp*\n\\#hash\n"},
                                                      {"Temp1", ""},
                                                      {"temp2", ""},
                                                      {"xtemp", ""},
                                                      {"#hash", ""},
                                                      {"hash", ""}};
        QTest::newRow("hidden files")
            << Files{{".gitignore", ".env\n"}, {".env", ""}, {".envrc", ""}, {".config/x", ""}};
        QTest::newRow("deeper anchored")
            << Files{{"a/b/.gitignore", "/c\n"}, {"a/b/c/x", ""}, {"a/b/d/c/y", ""}, {"c/z", ""}};
        QTest::newRow("deeper file overrides root") << Files{{".gitignore", "!*.gen\n"},
                                                             {"src/.gitignore", "*.gen\n"},
                                                             {"a.gen", ""},
                                                             {"src/b.gen", ""}};
    }

    void walkAgreesWithGit()
    {
        QFETCH(Files, files);
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY(repo.write(it.key(), it.value()));
        const QStringList git = lines(repo.git({QStringLiteral("ls-files"),
                                                QStringLiteral("-z"),
                                                QStringLiteral("--others"),
                                                QStringLiteral("--exclude-standard")}),
                                      '\0');
        QCOMPARE(walk(repo.root()), git);
        if (!RipgrepSearcher::findExecutable().isEmpty())
            QCOMPARE(ripgrepFiles(repo.root()), git);
    }

    void infoExclude()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral(".git/info/exclude"), "secret*\n"));
        QVERIFY(repo.write(QStringLiteral("secret.txt"), ""));
        QVERIFY(repo.write(QStringLiteral("public.txt"), ""));
        QCOMPARE(walk(repo.root()), QStringList{QStringLiteral("public.txt")});
    }

    void gitDirectoryAlwaysSkipped()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), ""));
        const QStringList files = walk(repo.root(), {"*"});
        QCOMPARE(files, QStringList{QStringLiteral("a.txt")});
    }

    // Walking a subdirectory still applies the .gitignore files above it.
    void parentGitIgnoreApplies()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "*.log\nsub/skip/\n"));
        QVERIFY(repo.write(QStringLiteral("sub/a.log"), ""));
        QVERIFY(repo.write(QStringLiteral("sub/a.txt"), ""));
        QVERIFY(repo.write(QStringLiteral("sub/skip/b.txt"), ""));
        const QStringList expected{QStringLiteral("a.txt")};
        QCOMPARE(walk(repo.path(QStringLiteral("sub"))), expected);
        if (!RipgrepSearcher::findExecutable().isEmpty())
            QCOMPARE(ripgrepFiles(repo.path(QStringLiteral("sub"))), expected);
    }

    // A nested repository starts afresh; outside any repository .gitignore means nothing.
    void repositoryBoundaries()
    {
        if (RipgrepSearcher::findExecutable().isEmpty())
            QSKIP("rg (Debian package ripgrep) is not on PATH: nothing to compare with");
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "*.a\nnested/skip.b\n"));
        QVERIFY(repo.write(QStringLiteral("nested/.git/HEAD"), "ref: refs/heads/main\n"));
        QVERIFY(repo.write(QStringLiteral("nested/.gitignore"), "*.c\n"));
        QVERIFY(repo.write(QStringLiteral("nested/x.a"), ""));
        QVERIFY(repo.write(QStringLiteral("nested/skip.b"), ""));
        QVERIFY(repo.write(QStringLiteral("nested/y.c"), ""));
        QVERIFY(repo.write(QStringLiteral("z.a"), ""));
        const QStringList files = walk(repo.root());
        QCOMPARE(files, ripgrepFiles(repo.root()));
        QVERIFY(files.contains(QStringLiteral("nested/x.a")));
        QVERIFY(!files.contains(QStringLiteral("nested/y.c")));

        // Outside any repository, .gitignore files mean nothing (as for ripgrep).
        QTemporaryDir plain;
        QFile ignoreFile(plain.filePath(QStringLiteral(".gitignore")));
        QVERIFY(ignoreFile.open(QIODevice::WriteOnly));
        ignoreFile.write("*.log\n");
        ignoreFile.close();
        QFile log(plain.filePath(QStringLiteral("x.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.close();
        QCOMPARE(walk(plain.path()),
                 (QStringList{QStringLiteral(".gitignore"), QStringLiteral("x.log")}));
        QCOMPARE(walk(plain.path()), ripgrepFiles(plain.path()));
    }

    void overrideGlobsAgreeWithRipgrep_data()
    {
        QTest::addColumn<QString>("glob");
        QTest::newRow("by name") << "*.txt";
        QTest::newRow("anchored") << "sub/*.txt";
        QTest::newRow("double star") << "**/deep/*";
        QTest::newRow("braces") << "*.{txt,md}";
        QTest::newRow("exclusion") << "!*.txt";
        QTest::newRow("whitelist reaches ignored file") << "*.log";
    }

    void overrideGlobsAgreeWithRipgrep()
    {
        if (RipgrepSearcher::findExecutable().isEmpty())
            QSKIP("rg (Debian package ripgrep) is not on PATH: nothing to compare with");
        QFETCH(QString, glob);
        ToolsTest::Repo repo;
        for (const char *name : {"a.txt",
                                 "b.md",
                                 "c.log",
                                 "sub/d.txt",
                                 "sub/e.rs",
                                 "sub/deep/f.txt",
                                 "x/deep/g",
                                 "ignored/h.txt"})
            QVERIFY(repo.write(QString::fromLatin1(name), ""));
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "*.log\nignored/\n"));
        QCOMPARE(walk(repo.root(), {glob.toUtf8()}), ripgrepFiles(repo.root(), {glob}));
    }

    void symlinksAreNotFollowed()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("real/a.txt"), ""));
        QVERIFY(QFile::link(repo.path(QStringLiteral("real")), repo.path(QStringLiteral("link"))));
        QVERIFY(QFile::link(QStringLiteral("/etc"), repo.path(QStringLiteral("etc"))));
        QCOMPARE(walk(repo.root()), QStringList{QStringLiteral("real/a.txt")});
    }

    // A directory that becomes a link between being listed and being entered (another
    // process, a command run in the background) is not followed out of the repository.
    void directorySwappedForALinkIsNotEntered()
    {
        ToolsTest::Repo repo;
        QTemporaryDir outside;
        QVERIFY(outside.isValid());
        QVERIFY(repo.write(QStringLiteral("sub/a.txt"), ""));
        QFile secret(outside.path() + QStringLiteral("/secret.txt"));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.close();
        FileWalker walker(repo.root());
        QStringList seen;
        walker.walk([&](QByteArrayView relative, bool isDirectory) {
            const QString path = QString::fromUtf8(relative);
            seen.append(path);
            if (isDirectory && path == QLatin1String("sub")) {
                const QString sub = repo.path(QStringLiteral("sub"));
                if (!QDir(sub).removeRecursively() || !QFile::link(outside.path(), sub))
                    return FileWalker::Visit::Stop;
            }
            return FileWalker::Visit::Continue;
        });
        QVERIFY(QFileInfo(repo.path(QStringLiteral("sub"))).isSymLink());
        QCOMPARE(seen, QStringList{QStringLiteral("sub")});
    }

    void pathOrder()
    {
        QVERIFY(FileWalker::pathLess("a/b", "a-c"));
        QVERIFY(FileWalker::pathLess("a", "a/b"));
        QVERIFY(!FileWalker::pathLess("ab", "a/z"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_GitIgnore)

} // namespace tst_gitignore

#include "tst_gitignore.moc"
