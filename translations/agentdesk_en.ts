<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AgentCore::Ai</name>
    <message numerus="yes">
        <location filename="../agentcore/ai/demoscript.cpp" line="+598"/>
        <source>**Listed** the top level of the repository (%n entries).</source>
        <translation>
            <numerusform>**Listed** the top level of the repository (%n entry).</numerusform>
            <numerusform>**Listed** the top level of the repository (%n entries).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>**Searched** for documentation with %1: found %n files.</source>
        <translation>
            <numerusform>**Searched** for documentation with %1: found %n file.</numerusform>
            <numerusform>**Searched** for documentation with %1: found %n files.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/ai/httpmodelclient.cpp" line="+77"/>
        <source>%n ms</source>
        <translation>
            <numerusform>%n ms</numerusform>
            <numerusform>%n ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+574"/>
        <source>%1 (gave up after %n retries)</source>
        <translation>
            <numerusform>%1 (gave up after %n retry)</numerusform>
            <numerusform>%1 (gave up after %n retries)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Coding</name>
    <message numerus="yes">
        <location filename="../agentcore/coding/diagnosticstool.cpp" line="+54"/>
        <source>%1 reports %n new problem(s) in %2 after this change:</source>
        <translation>
            <numerusform>%1 reports %n new problem in %2 after this change:</numerusform>
            <numerusform>%1 reports %n new problems in %2 after this change:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%1 reports %n error(s) in %2 now:</source>
        <translation>
            <numerusform>%1 reports %n error in %2 now:</numerusform>
            <numerusform>%1 reports %n errors in %2 now:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+90"/>
        <source>%1: %n problem(s) in %2:</source>
        <translation>
            <numerusform>%1: %n problem in %2:</numerusform>
            <numerusform>%1: %n problems in %2:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+28"/>
        <source>%n problem(s) in the files checked in this session:</source>
        <translation>
            <numerusform>%n problem in the files checked in this session:</numerusform>
            <numerusform>%n problems in the files checked in this session:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/coding/navigationtools.cpp" line="+166"/>
        <source>%1 has %n line(s): line %2 is not one of them.</source>
        <translation>
            <numerusform>%1 has %n line: line %2 is not one of them.</numerusform>
            <numerusform>%1 has %n lines: line %2 is not one of them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+46"/>
        <source>%1: %n reference(s) to %2:</source>
        <translation>
            <numerusform>%1: %n reference to %2:</numerusform>
            <numerusform>%1: %n references to %2:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+25"/>
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Context</name>
    <message numerus="yes">
        <location filename="../agentcore/context/summaryprompt.cpp" line="+70"/>
        <source>[%n earlier message(s) left out: too long to include]</source>
        <translation>
            <numerusform>[%n earlier message left out: too long to include]</numerusform>
            <numerusform>[%n earlier messages left out: too long to include]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Loop</name>
    <message numerus="yes">
        <source>Stopped after %n turn(s): the iteration limit of this run was reached.</source>
        <translation type="vanished">
            <numerusform>Stopped after %n turn: the iteration limit of this run was reached.</numerusform>
            <numerusform>Stopped after %n turns: the iteration limit of this run was reached.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/loop/agentloop.cpp" line="+486"/>
        <source>Stopped after %n turn(s): the turn limit of this run was reached.</source>
        <translation>
            <numerusform>Stopped after %n turn: the turn limit of this run was reached.</numerusform>
            <numerusform>Stopped after %n turns: the turn limit of this run was reached.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Lsp</name>
    <message numerus="yes">
        <location filename="../agentcore/lsp/lspclient.cpp" line="+291"/>
        <source>%1 did not answer initialize within %n second(s)</source>
        <translation>
            <numerusform>%1 did not answer initialize within %n second</numerusform>
            <numerusform>%1 did not answer initialize within %n seconds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/lsp/lspdiagnostic.cpp" line="+138"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Session</name>
    <message numerus="yes">
        <location filename="../agentcore/session/sessionrecorder.cpp" line="+257"/>
        <source>[… the first %n character(s) of the output are not kept]
</source>
        <translation>
            <numerusform>[… the first %n character of the output are not kept]
</numerusform>
            <numerusform>[… the first %n characters of the output are not kept]
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/session/sessionstore.cpp" line="+390"/>
        <source>The session has no message %1: its active branch has %n message(s).</source>
        <translation>
            <numerusform>The session has no message %1: its active branch has %n message.</numerusform>
            <numerusform>The session has no message %1: its active branch has %n messages.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App</name>
    <message numerus="yes">
        <location filename="../app/headlessrewind.cpp" line="+47"/>
        <source>  (%n file(s) not covered)</source>
        <translation>
            <numerusform>  (%n file not covered)</numerusform>
            <numerusform>  (%n files not covered)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/headlessprinter.cpp" line="+78"/>
        <source>stopped after %n turn(s): the limit set with --max-turns.</source>
        <translation>
            <numerusform>stopped after %n turn: the limit set with --max-turns.</numerusform>
            <numerusform>stopped after %n turns: the limit set with --max-turns.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+190"/>
        <source>Compacted: a summary stands for the first %n message(s) in the requests from now on.</source>
        <translation>
            <numerusform>Compacted: a summary stands for the first %n message in the requests from now on.</numerusform>
            <numerusform>Compacted: a summary stands for the first %n messages in the requests from now on.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/doctor.cpp" line="+260"/>
        <source>%n font(s) for the UI language (%1).</source>
        <translation>
            <numerusform>%n font for the UI language (%1).</numerusform>
            <numerusform>%n fonts for the UI language (%1).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui</name>
    <message numerus="yes">
        <location filename="../ui/conversation/compactionitem.cpp" line="+28"/>
        <source>Summary of %n earlier message(s)</source>
        <extracomment>Header of a compaction in the conversation: the summary stands in for these messages</extracomment>
        <translation>
            <numerusform>Summary of %n earlier message</numerusform>
            <numerusform>Summary of %n earlier messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>Hide the %n original message(s), no longer sent to the model (Enter)</source>
        <extracomment>Toggle under a compaction&apos;s summary; Enter is the key that does the same</extracomment>
        <translation>
            <numerusform>Hide the original message, no longer sent to the model (Enter)</numerusform>
            <numerusform>Hide the %n original messages, no longer sent to the model (Enter)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Show the %n original message(s) (Enter)</source>
        <translation>
            <numerusform>Show the original message (Enter)</numerusform>
            <numerusform>Show the %n original messages (Enter)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/conversation/rewinditem.cpp" line="+38"/>
        <source>%n file(s) restored</source>
        <translation>
            <numerusform>%n file restored</numerusform>
            <numerusform>%n files restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n kept as it was</source>
        <translation>
            <numerusform>%n kept as it was</numerusform>
            <numerusform>%n kept as they were</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n message(s) no longer sent to the model</source>
        <extracomment>The model no longer sees these messages</extracomment>
        <translation>
            <numerusform>%n message no longer sent to the model</numerusform>
            <numerusform>%n messages no longer sent to the model</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>Hide the %n rewound message(s)</source>
        <extracomment>Toggle under a rewind</extracomment>
        <translation>
            <numerusform>Hide the %n rewound message</numerusform>
            <numerusform>Hide the %n rewound messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Show the %n rewound message(s)</source>
        <translation>
            <numerusform>Show the %n rewound message</numerusform>
            <numerusform>Show the %n rewound messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/common/toolargumentstext.cpp" line="+54"/>
        <source>[%n more character(s) not shown]</source>
        <translation>
            <numerusform>[%n more character not shown]</numerusform>
            <numerusform>[%n more characters not shown]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>%n item(s) nested too deep to show</source>
        <translation>
            <numerusform>%n item nested too deep to show</numerusform>
            <numerusform>%n items nested too deep to show</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>%n more item(s) not shown</source>
        <translation>
            <numerusform>%n more item not shown</numerusform>
            <numerusform>%n more items not shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+40"/>
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… %n more line not shown</numerusform>
            <numerusform>… %n more lines not shown</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::ApprovalInbox</name>
    <message numerus="yes">
        <location filename="../ui/sessions/approvalinbox.cpp" line="+122"/>
        <source>wrote %n file(s)</source>
        <translation>
            <numerusform>wrote %n file</numerusform>
            <numerusform>wrote %n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::ChangedFilesPanel</name>
    <message numerus="yes">
        <location filename="../ui/window/changedfilespanel.cpp" line="+82"/>
        <source>%1
Created in this session; %n change(s)</source>
        <translation>
            <numerusform>%1
Created in this session; %n change</numerusform>
            <numerusform>%1
Created in this session; %n changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1
%n change(s) in this session</source>
        <translation>
            <numerusform>%1
%n change in this session</numerusform>
            <numerusform>%1
%n changes in this session</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The language server finds %n error(s) or warning(s) in it after the last change.</source>
        <translation>
            <numerusform>The language server finds %n error or warning in it after the last change.</numerusform>
            <numerusform>The language server finds %n errors or warnings in it after the last change.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::CompactDialog</name>
    <message numerus="yes">
        <location filename="../ui/contextview/compactdialog.cpp" line="+28"/>
        <source>%n message(s), about %1 tokens</source>
        <extracomment>&quot;12 messages, about 3.4k tokens&quot;: one side of a compaction&apos;s preview</extracomment>
        <translation>
            <numerusform>%n message, about %1 tokens</numerusform>
            <numerusform>%n messages, about %1 tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::ContextDialog</name>
    <message numerus="yes">
        <location filename="../ui/contextview/contextdialog.cpp" line="+250"/>
        <source>, corrected by the provider&apos;s counts of %n replies (×%1)</source>
        <translation>
            <numerusform>, corrected by the provider&apos;s count of %n reply (×%1)</numerusform>
            <numerusform>, corrected by the provider&apos;s counts of %n replies (×%1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::InterruptedSessionBar</name>
    <message numerus="yes">
        <location filename="../ui/window/interruptedsessionbar.cpp" line="+63"/>
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>%n minute ago</numerusform>
            <numerusform>%n minutes ago</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::MainWindow</name>
    <message numerus="yes">
        <location filename="../ui/window/mainwindow.cpp" line="+289"/>
        <source>%n session(s) still running.</source>
        <translation>
            <numerusform>%n session still running.</numerusform>
            <numerusform>%n sessions still running.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>Stopping %n session(s)…</source>
        <translation>
            <numerusform>Stopping %n session…</numerusform>
            <numerusform>Stopping %n sessions…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+686"/>
        <source>Brought back %n file(s) from %1.</source>
        <translation>
            <numerusform>Brought back %n file from %1.</numerusform>
            <numerusform>Brought back %n files from %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::McpServersPage</name>
    <message numerus="yes">
        <location filename="../ui/mcp/mcpserverspage.cpp" line="+47"/>
        <source>connected, %n tool(s)</source>
        <translation>
            <numerusform>connected, %n tool</numerusform>
            <numerusform>connected, %n tools</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::ProposalProblemsView</name>
    <message numerus="yes">
        <location filename="../ui/review/proposalproblemsview.cpp" line="+61"/>
        <source>%n new error(s)</source>
        <translation>
            <numerusform>%n new error</numerusform>
            <numerusform>%n new errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n new warning(s)</source>
        <translation>
            <numerusform>%n new warning</numerusform>
            <numerusform>%n new warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::RewindDialog</name>
    <message numerus="yes">
        <location filename="../ui/rewind/rewinddialog.cpp" line="+369"/>
        <source>%n file(s) will be restored.</source>
        <translation>
            <numerusform>%n file will be restored.</numerusform>
            <numerusform>%n files will be restored.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n kept as it is.</source>
        <translation>
            <numerusform>%n kept as it is.</numerusform>
            <numerusform>%n kept as they are.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n of your own later changes will be overwritten.</source>
        <translation>
            <numerusform>%n of your own later changes will be overwritten.</numerusform>
            <numerusform>%n of your own later changes will be overwritten.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::SessionsPanel</name>
    <message numerus="yes">
        <location filename="../ui/sessions/sessionspanel.cpp" line="+35"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+108"/>
        <source>%n message(s) · %1</source>
        <extracomment>Sessions list: &quot;12 messages · 2 h ago&quot;</extracomment>
        <translation>
            <numerusform>%n message · %1</numerusform>
            <numerusform>%n messages · %1</numerusform>
        </translation>
    </message>
</context>
</TS>
