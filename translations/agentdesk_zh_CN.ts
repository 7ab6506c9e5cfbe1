<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AgentCore::Ai</name>
    <message>
        <location filename="../agentcore/ai/anthropicassembler.cpp" line="+41"/>
        <source>Anthropic reported an error</source>
        <translation>Anthropic 报告了错误</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>The reply filled the model&apos;s context window and was cut off there.</source>
        <translation>回复填满了模型的上下文窗口，并在那里被截断。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/demomodelclient.cpp" line="+66"/>
        <source>Demo (offline, scripted)</source>
        <translation>演示（离线，脚本驱动）</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Summary of the earlier conversation (written by the offline demo model from the transcript it was given).</source>
        <translation>较早对话的摘要（由离线演示模型根据收到的记录撰写）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The user asked:</source>
        <translation>用户的请求：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tools used: %1.</source>
        <translation>使用的工具：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Files: %1.</source>
        <translation>文件：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow-ups still queued:</source>
        <translation>仍在排队的后续任务：</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/demoscript.cpp" line="+41"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+235"/>
        <source># Demo notes

AgentDesk&apos;s offline demo proposed this file: it is a scripted model that looks around, proposes changes for you to review and runs a command.

## What it did

- It listed the repository and searched it for documentation.
- It read a README or another text file when there was one.
- It wrote this file, then proposed an edit of it in two places.
- It ran `git status --short` to show what changed.

## Next

To let a real model work on this repository, open Settings… in the Agent menu.
</source>
        <translation># 演示说明

此文件由 AgentDesk 的离线演示提议创建：这是一个脚本化的模型，它会浏览仓库、提议更改供你审查，并运行一条命令。

## 它做了什么

- 列出仓库内容，并在其中搜索文档。
- 如果有 README 或其他文本文件，就读取它。
- 写入此文件，然后提议在两处编辑它。
- 运行 `git status --short` 以显示更改了什么。

## 下一步

要让真实模型处理此仓库，请在“智能体”菜单中打开“设置…”。
</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>You said: %1. Noted. This scripted demo cannot change its plan, so I&apos;ll carry on.</source>
        <translation>你说：%1。收到。这个脚本演示无法更改计划，所以我会继续。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>On to the next task: %1. I&apos;ll look at the repository again.</source>
        <translation>接着处理下一个任务：%1。我会再看一遍仓库。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>I&apos;ll start by looking at the repository.</source>
        <translation>我先看看这个仓库。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>There is a README, %1. I&apos;ll read it and %2 at the same time.</source>
        <translation>有一个 README：%1。我会同时读取它和 %2。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no README, but there are text files. I&apos;ll read %1 and %2 at the same time.</source>
        <translation>没有 README，但有文本文件。我会同时读取 %1 和 %2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>There is a README, %1. I&apos;ll read it.</source>
        <translation>有一个 README：%1。我来读一下。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no README, but there is a text file. I&apos;ll read %1.</source>
        <translation>没有 README，但有一个文本文件。我来读一下 %1。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>I&apos;ll add a short note after the first line of %1 and a closing line further down: two changes you can review and take or leave one by one.</source>
        <translation>我将在 %1 的第一行后添加一条简短说明，并在更靠后的位置添加一行结尾：共两处更改，你可以逐一审查并决定接受或放弃。</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+15"/>
        <source>I&apos;ll add a short note after the first line of %1. You can review the change before it is applied.</source>
        <translation>我会在 %1 的第一行后面加一条简短的备注。应用之前你可以审查这项更改。</translation>
    </message>
    <message>
        <source>I found no text file to edit, so I&apos;ll propose a new file, %1. You can review it before it is written.</source>
        <translation type="vanished">没有找到可编辑的文本文件，所以我会提议新建文件 %1。写入之前你可以审查它。</translation>
    </message>
    <message>
        <source>%1 has no line I can safely add a note after, so I&apos;ll propose a new file, %2. You can review it before it is written.</source>
        <translation type="vanished">%1 中没有可以安全地在其后添加备注的行，所以我会提议新建文件 %2。写入之前你可以审查它。</translation>
    </message>
    <message>
        <source># Demo notes

AgentDesk&apos;s offline demo proposed this file: it is a scripted model that looks around, proposes a change for you to review and runs a command.

To let a real model work on this repository, open Settings… in the Agent menu.
</source>
        <translation type="vanished"># 演示备注

这个文件是 AgentDesk 的离线演示提议的：它是一个脚本驱动的模型，会浏览仓库、提议一项供你审查的更改，并运行一条命令。

要让真正的模型处理这个仓库，请打开“智能体”菜单中的“设置…”。
</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Let me check the working tree.</source>
        <translation>我来检查一下工作区。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The change is in. Let me check the working tree.</source>
        <translation>更改已应用。我来检查一下工作区。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The change was not applied; I&apos;ll go on and check the working tree.</source>
        <translation>更改未被应用；我继续检查工作区。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show which files changed</source>
        <translation>显示哪些文件有更改</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>**Edited** %1: the edit was applied (a note near its start).</source>
        <translation>**已编辑** %1：编辑已应用（在文件开头附近加了一条说明）。</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>&gt; Tried twice with AgentDesk&apos;s offline demo.</source>
        <translation>&gt; 已用 AgentDesk 的离线演示试过两次。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>*The note at the top was added by AgentDesk&apos;s offline demo.*</source>
        <translation>*顶部的说明由 AgentDesk 的离线演示添加。*</translation>
    </message>
    <message>
        <source>You asked: %1

I&apos;m AgentDesk&apos;s offline demo, a scripted model, so I cannot really work on that. To have a real model take it on, open **Settings…** in the Agent menu or click the model button in the status bar, then ask again.</source>
        <translation type="vanished">你的问题：%1

我是 AgentDesk 的离线演示，一个脚本驱动的模型，没法真正处理这个任务。要让真正的模型来完成，请打开“智能体”菜单中的 **设置…**，或点击状态栏中的模型按钮，然后再问一次。</translation>
    </message>
    <message>
        <source>**Edited** %1: the edit was applied (a note after its first line).</source>
        <translation type="vanished">**已编辑** %1：编辑已应用（在第一行后加了一条备注）。</translation>
    </message>
    <message>
        <location line="-200"/>
        <source>I&apos;ll propose a new file, %1. You can review it before it is written.</source>
        <translation>我将提议创建一个新文件 %1。写入之前你可以先审查它。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is too short to show a change in two places, so I&apos;ll propose a new file, %2, and then an edit of it. You can review each before it is applied.</source>
        <translation>%1 太短，无法展示两处更改，因此我将提议创建一个新文件 %2，然后再编辑它。每一步应用之前你都可以先审查。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 has no line I can safely add a note after, so I&apos;ll propose a new file, %2, and then an edit of it. You can review each before it is applied.</source>
        <translation>%1 中没有可以安全地在其后添加说明的行，因此我将提议创建一个新文件 %2，然后再编辑它。每一步应用之前你都可以先审查。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>I found no text file to edit, so I&apos;ll propose a new file, %1, and then an edit of it. You can review each before it is applied.</source>
        <translation>我没有找到可编辑的文本文件，因此我将提议创建一个新文件 %1，然后再编辑它。每一步应用之前你都可以先审查。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Now the edit: a note after the first line of %1 and a closing line at its end, two changes you can review and take or leave one by one.</source>
        <translation>现在进行编辑：在 %1 的第一行后添加一条说明，并在末尾添加一行结尾，共两处更改，你可以逐一审查并决定接受或放弃。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>**Created** %1.</source>
        <translation>**已创建** %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>**Edit rejected**: you rejected the change to %1, so the file is unchanged (%2).</source>
        <translation>**编辑被拒绝**：你拒绝了对 %1 的更改，文件未变（%2）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>**Write rejected**: you rejected %1, so it was not written (%2).</source>
        <translation>**写入被拒绝**：你拒绝了 %1，因此没有写入（%2）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>**Edit not applied**: %1 is unchanged (%2).</source>
        <translation>**编辑未应用**：%1 未变（%2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>**Write not applied**: %1 was not written (%2).</source>
        <translation>**写入未应用**：%1 没有写入（%2）。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>%1 did not work: %2</source>
        <translation>%1 未成功：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>**Listed** the top level of the repository (%n entries).</source>
        <translation>
            <numerusform>**已列出**仓库顶层（%n 项）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>**Searched** for documentation with %1: found %n files.</source>
        <translation>
            <numerusform>**已搜索**文档（使用 %1）：找到 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>**Ran** %1; it printed:</source>
        <translation>**已运行** %1，输出如下：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>**No edit proposed**: editing is not available in this mode.</source>
        <translation>**未提议编辑**：此模式下不能编辑。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>**Read** %1.</source>
        <translation>**已读取** %1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing: no tool was available to me.</source>
        <translation>什么也没做：我没有可用的工具。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Here is what I did:</source>
        <translation>我做了这些：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>*This was AgentDesk&apos;s offline demo: a scripted model that follows the same plan in any repository. To use a real model, open **Settings…** in the Agent menu or click the model button in the status bar.*</source>
        <translation>*以上是 AgentDesk 的离线演示：一个在任何仓库里都按同一计划行事的脚本模型。要使用真正的模型，请打开“智能体”菜单中的 **设置…**，或点击状态栏中的模型按钮。*</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&gt; Tried with AgentDesk&apos;s offline demo.</source>
        <translation>&gt; 使用 AgentDesk 的离线演示试运行。</translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/ai/httpmodelclient.cpp" line="+77"/>
        <source>%n ms</source>
        <translation>
            <numerusform>%n 毫秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the connection was refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+471"/>
        <source>the server closed the connection</source>
        <translation>服务器关闭了连接</translation>
    </message>
    <message>
        <location line="-469"/>
        <source>the host was not found</source>
        <translation>找不到主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the connection timed out</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the TLS handshake failed</source>
        <translation>TLS 握手失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the network is unavailable</source>
        <translation>网络不可用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the proxy failed</source>
        <translation>代理出错</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>too many redirects</source>
        <translation>重定向次数过多</translation>
    </message>
    <message>
        <location line="+404"/>
        <source>No data from the server for %1; the response was abandoned</source>
        <translation>服务器 %1 内没有发送任何数据，已放弃这次响应</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the response ended inside an event</source>
        <translation>响应在一个事件的中途结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the response ended before the provider&apos;s final event</source>
        <translation>响应在提供方的结束事件之前就结束了</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Connection to %1 lost mid-stream: %2</source>
        <translation>与 %1 的连接在传输中断开：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the response ended before its first event</source>
        <translation>响应在第一个事件之前就结束了</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the server closed the connection after the response headers</source>
        <translation>服务器在发送响应头之后关闭了连接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Connection to %1 failed: %2</source>
        <translation>连接 %1 失败：%2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>no content type</source>
        <translation>没有内容类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server answered HTTP %1 with %2 instead of an event stream, beginning &quot;%3&quot;. Is %4 the right base URL?</source>
        <translation>服务器以 HTTP %1 返回了 %2，而不是事件流，开头为“%3”。%4 是正确的基础 URL 吗？</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The request was abandoned after %1, its deadline for the whole response</source>
        <translation>请求在 %1 后被放弃：这是整个响应的时限</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 (the server asked to wait %2 before retrying; not retried)</source>
        <translation>%1（服务器要求等待 %2 后重试；未重试）</translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>%1 (gave up after %n retries)</source>
        <translation>
            <numerusform>%1（重试 %n 次后放弃）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+22"/>
        <location filename="../agentcore/ai/scriptedstream.cpp" line="+33"/>
        <source>The request was aborted</source>
        <translation>请求已中止</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/messagejson.cpp" line="+231"/>
        <source>unknown message role &quot;%1&quot;</source>
        <translation>未知的消息角色“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the message content is not an array</source>
        <translation>消息内容不是数组</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>content block %1 has an unknown type</source>
        <translation>内容块 %1 的类型未知</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>unknown stop reason &quot;%1&quot;</source>
        <translation>未知的停止原因“%1”</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/openaichatassembler.cpp" line="+171"/>
        <source>The provider&apos;s content filter stopped the response.</source>
        <translation>提供商的内容过滤器中止了这次回复。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/openaichatrequest.cpp" line="+198"/>
        <source>[the tool returned a picture (%1, %2 KB): it follows in the next message]</source>
        <translation>[工具返回了一张图片（%1，%2 KB）：见下一条消息]</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[the tool returned a picture (%1, %2 KB); this API takes no pictures from a tool, so it was not sent]</source>
        <translation>[工具返回了一张图片（%1，%2 KB）；此 API 不接受来自工具的图片，因此未发送]</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The pictures the tools returned above:</source>
        <translation>以上工具返回的图片：</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/openairesponsesassembler.cpp" line="+247"/>
        <source>The response ended with status &quot;%1&quot;.</source>
        <translation>回复以状态“%1”结束。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/protocolviolation.cpp" line="+303"/>
        <source>(no name)</source>
        <translation>（无名称）</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>%1 in text at line %2</source>
        <translation>文本第 %2 行中的 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 in text at line %2 (and %3 more)</source>
        <translation>文本第 %2 行中的 %1（另有 %3 处）</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/providerconfig.cpp" line="+59"/>
        <source>The response was stopped: a line of its event stream exceeded the limit of %1 per line.</source>
        <translation>响应已停止：事件流中的一行超过了每行 %1 的上限。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The response was stopped: an event of its event stream exceeded the limit of %1 per event.</source>
        <translation>响应已停止：事件流中的一个事件超过了每个事件 %1 的上限。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The response was stopped: the arguments of a tool call exceeded the limit of %1 per tool call.</source>
        <translation>响应已停止：某个工具调用的参数超过了每次调用 %1 的上限。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/httperror.cpp" line="+159"/>
        <source>Bad Request</source>
        <translation>错误请求</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unauthorized</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Payment Required</source>
        <translation>需要付费</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forbidden</source>
        <translation>禁止访问</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not Found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request Timeout</source>
        <translation>请求超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request Too Large</source>
        <translation>请求过大</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Too Many Requests</source>
        <translation>请求过多</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Internal Server Error</source>
        <translation>服务器内部错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bad Gateway</source>
        <translation>网关错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Service Unavailable</source>
        <translation>服务不可用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gateway Timeout</source>
        <translation>网关超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Overloaded</source>
        <translation>服务过载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no details</source>
        <translation>无详细信息</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>%1 API error %2: %3</source>
        <translation>%1 API 错误 %2：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 API error %2 (%3): %4</source>
        <translation>%1 API 错误 %2（%3）：%4</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/schemavalidator.cpp" line="+54"/>
        <source>the arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>nothing</source>
        <translation>空</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 or %2</source>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <location line="+152"/>
        <source>%1 must be %2, got %3</source>
        <translation>%1 必须是%2，实际为%3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 must be one of %2, got %3</source>
        <translation>%1 必须是 %2 之一，实际为 %3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 must be at least %2, got %3</source>
        <translation>%1 至少应为 %2，实际为 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 must be at most %2, got %3</source>
        <translation>%1 最多应为 %2，实际为 %3</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is required</source>
        <translation>缺少必需的 %1</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unexpected property %1 (allowed: %2)</source>
        <translation>意外的属性 %1（允许：%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unexpected properties %1 (allowed: %2)</source>
        <translation>意外的属性 %1（允许：%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 has unexpected property %2 (allowed: %3)</source>
        <translation>%1 含有意外的属性 %2（允许：%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 has unexpected properties %2 (allowed: %3)</source>
        <translation>%1 含有意外的属性 %2（允许：%3）</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 more problems not shown</source>
        <translation>另有 %1 个问题未显示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invalid arguments for %1: %2</source>
        <translation>%1 的参数无效：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/servedmodels.cpp" line="+89"/>
        <source>The address is not an http or https URL.</source>
        <translation>该地址不是 http 或 https URL。</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>The server&apos;s list of models is larger than %1 MB: it was not read.</source>
        <translation>服务器的模型列表大于 %1 MB：未读取。</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>The server did not answer in time (%1 s).</source>
        <translation>服务器未及时应答（%1 秒）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot reach the server: %1.</source>
        <translation>无法连接服务器：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server answered with a redirect (HTTP %1), which is not followed: check the address.</source>
        <translation>服务器返回了重定向（HTTP %1），不会跟随：请检查地址。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server wants an API key (HTTP %1).</source>
        <translation>服务器需要 API 密钥（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server did not accept the API key (HTTP %1).</source>
        <translation>服务器不接受该 API 密钥（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server answered HTTP %1.</source>
        <translation>服务器返回 HTTP %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server answered HTTP %1: %2</source>
        <translation>服务器返回 HTTP %1：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The server&apos;s answer is not a list of models (no &quot;data&quot; array).</source>
        <translation>服务器的应答不是模型列表（没有 &quot;data&quot; 数组）。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The server&apos;s list of models has no usable model ids.</source>
        <translation>服务器的模型列表中没有可用的模型 ID。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/serverprofile.cpp" line="+126"/>
        <source>Generic (conservative)</source>
        <translation>通用（保守）</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>unknown server: the conservative profile</source>
        <translation>未知服务器：使用保守配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from the base URL (%1)</source>
        <translation>根据基础 URL（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from the base URL&apos;s port (%1)</source>
        <translation>根据基础 URL 的端口（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from /v1/models: owned_by %1</source>
        <translation>根据 /v1/models：owned_by %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>set by you</source>
        <translation>由你设置</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/streamassembler.cpp" line="+26"/>
        <source>the request was aborted</source>
        <translation>请求已中止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the provider stopped sending data</source>
        <translation>提供商停止了发送数据</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the request took too long</source>
        <translation>请求耗时过长</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the connection dropped before the response was complete</source>
        <translation>回复完成之前连接已断开</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 at offset %2</source>
        <translation>%1（位于偏移 %2）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>unreadable JSON</source>
        <translation>无法读取的 JSON</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>the stream ended before the response was complete</source>
        <translation>回复完成之前数据流已结束</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The provider sent malformed JSON in a &quot;%1&quot; event (%2): %3</source>
        <translation>提供商在“%1”事件中发送了格式错误的 JSON（%2）：%3</translation>
    </message>
    <message>
        <location line="+171"/>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The arguments of this %1 call nest deeper than %2 levels; they were not read and the call was not run. Call %1 again with flat arguments that match its schema.</source>
        <translation>此次 %1 调用的参数嵌套超过 %2 层；参数未被读取，调用也未执行。请用符合其模式的扁平参数重新调用 %1。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The arguments of this %1 call are not valid JSON: it goes wrong at byte %2, near `%3`. The call was not run; call %1 again with the arguments as one valid JSON object (strings in double quotes).</source>
        <translation>此次 %1 调用的参数不是有效的 JSON：在第 %2 字节处出错，附近为 `%3`。调用未执行；请把参数写成一个有效的 JSON 对象（字符串用双引号）后重新调用 %1。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The arguments of this %1 call are not a JSON object. The call was not run; call %1 again with the arguments as one JSON object.</source>
        <translation>此次 %1 调用的参数不是 JSON 对象。调用未执行；请把参数写成一个 JSON 对象后重新调用 %1。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/switchablemodelclient.cpp" line="+88"/>
        <source>Stopped while waiting for the model&apos;s API key.</source>
        <translation>在等待模型的 API 密钥时停止。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/toolcallpairing.cpp" line="+41"/>
        <source>No result was recorded for this tool call: it did not run or its result was lost.</source>
        <translation>此工具调用没有记录结果：它未运行，或结果已丢失。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/modelcatalog.cpp" line="+179"/>
        <source>%1 takes no pictures</source>
        <translation>%1 不接受图片</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/picture.cpp" line="+88"/>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1, %2 × %3, %4</source>
        <translation>%1，%2 × %3，%4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1, %2 × %3 scaled to %4 × %5, %6</source>
        <extracomment>A picture sent scaled: &quot;PNG, 2560 × 1440 scaled to 1568 × 882, 412 KB&quot;</extracomment>
        <translation>%1，%2 × %3 缩放为 %4 × %5，%6</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>it is not a PNG, JPEG, GIF or WebP picture</source>
        <translation>它不是 PNG、JPEG、GIF 或 WebP 图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a broken %1 picture</source>
        <translation>它是损坏的 %1 图片</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>it is %1 × %2 (%3) and cannot be scaled down here; at most %4 pixels on its long side and %5 are sent</source>
        <translation>它为 %1 × %2（%3），且无法在此缩小；只能发送长边不超过 %4 像素、大小不超过 %5 的图片</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/requestbuilder.cpp" line="+119"/>
        <source>[a picture (%1, %2 KB) was not sent: %3]</source>
        <extracomment>Sent to a text-only model in place of a picture: &quot;[a picture (image/png, 412 KB) was not sent: deepseek-chat takes no pictures]&quot;</extracomment>
        <translation>[一张图片（%1，%2 KB）未发送：%3]</translation>
    </message>
</context>
<context>
    <name>AgentCore::BackgroundShells</name>
    <message>
        <location filename="../agentcore/tools/backgroundshells.cpp" line="+31"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>killed by signal %1</source>
        <translation>被信号 %1 终止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Background commands have ended with the session.</source>
        <translation>后台命令已随会话结束。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 background commands are running already, the most one session may run: stop one with KillShell (or wait for one to end) first.</source>
        <translation>已有 %1 条后台命令在运行，达到了一个会话可运行的上限：请先用 KillShell 停止其中一条（或等待其中一条结束）。</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
</context>
<context>
    <name>AgentCore::Checkpoint</name>
    <message>
        <location filename="../agentcore/checkpoint/checkpoint.cpp" line="+35"/>
        <source>at your message</source>
        <translation>在你的消息处</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>before the turn&apos;s tools</source>
        <translation>本轮工具运行之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>before %1</source>
        <translation>%1 之前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>before the rewind</source>
        <translation>回退之前</translation>
    </message>
    <message>
        <location filename="../agentcore/checkpoint/checkpointrecorder.cpp" line="+48"/>
        <source>No checkpoint could be recorded %1, so it cannot be rewound: %2</source>
        <translation>%1未能记录检查点，因此无法回退到那里：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/checkpoint/filesetwriter.cpp" line="+130"/>
        <location line="+42"/>
        <location line="+12"/>
        <source>the folder %1 does not exist</source>
        <translation>文件夹 %1 不存在</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>%1 is a symbolic link; not followed</source>
        <translation>%1 是符号链接；不跟随</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is not a folder</source>
        <translation>%1 不是文件夹</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>%1 is in the way of a folder</source>
        <translation>%1 占据了文件夹所需的位置</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>a folder is in the way: %1</source>
        <translation>有文件夹占据了该位置：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+8"/>
        <source>cannot write the journal %1: %2</source>
        <translation>无法写入日志 %1：%2</translation>
    </message>
    <message>
        <location line="+198"/>
        <source>not a path inside the folder</source>
        <translation>不是该文件夹内的路径</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>cannot lock the journal %1</source>
        <translation>无法锁定日志 %1</translation>
    </message>
</context>
<context>
    <name>AgentCore::Coding</name>
    <message>
        <location filename="../agentcore/coding/auditlog.cpp" line="+43"/>
        <source>audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Cannot write the audit log %1: cannot create its folder. Tool calls are not being recorded.</source>
        <translation>无法写入审计日志 %1：无法创建其所在文件夹。工具调用不会被记录。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot write the audit log %1: %2. Tool calls are not being recorded.</source>
        <translation>无法写入审计日志 %1：%2。工具调用不会被记录。</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/repository.cpp" line="+51"/>
        <source>detached at %1</source>
        <translation>分离于 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not readable</source>
        <translation>%1 不可读</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/commandexpansion.cpp" line="+44"/>
        <source>@%1 is outside the repository: a command attaches the repository&apos;s files only</source>
        <translation>@%1 位于仓库之外：命令只附加仓库中的文件</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>@%1 is not a file</source>
        <translation>@%1 不是文件</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>@%1 may not be read without asking (%2): a command does not attach it</source>
        <translation>@%1 未经询问不得读取（%2）：命令不会附加它</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>@%1 is not attached: %2</source>
        <translation>@%1 未附加：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>@%1 is a binary file: a command attaches text only</source>
        <translation>@%1 是二进制文件：命令只附加文本</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>its line &quot;!%1&quot; cannot run: this session has no Bash tool</source>
        <translation>其中的行“!%1”无法运行：此会话没有 Bash 工具</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>its line &quot;!%1&quot; was not run: %2</source>
        <translation>其中的行“!%1”未运行：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>[... the rest of the output was left out]</source>
        <translation>[... 其余输出已省略]</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>it names more than %1 files</source>
        <translation>它列出的文件超过 %1 个</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>a custom command&apos;s ! line</source>
        <translation>自定义命令的 ! 行</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/customcommand.cpp" line="+67"/>
        <source>%1: skipped: a command&apos;s file and folder names take letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; only</source>
        <translation>%1：已跳过：命令的文件名和文件夹名只能包含字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: skipped: more than %2 custom commands</source>
        <translation>%1：已跳过：自定义命令超过 %2 个</translation>
    </message>
    <message>
        <location line="+8"/>
        <location filename="../agentcore/coding/skills.cpp" line="+45"/>
        <location filename="../agentcore/coding/subagenttypes.cpp" line="+86"/>
        <source>%1: skipped: it leads out of its folder (a symbolic link)</source>
        <translation>%1：已跳过：它指向其文件夹之外（符号链接）</translation>
    </message>
    <message>
        <location line="+5"/>
        <location filename="../agentcore/coding/skills.cpp" line="+4"/>
        <location filename="../agentcore/coding/subagenttypes.cpp" line="+4"/>
        <source>%1: skipped: larger than %2 KB</source>
        <translation>%1：已跳过：大于 %2 KB</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../agentcore/coding/skills.cpp" line="+8"/>
        <location filename="../agentcore/coding/subagenttypes.cpp" line="+8"/>
        <source>%1: skipped: it cannot be read: %2</source>
        <translation>%1：已跳过：无法读取：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <location filename="../agentcore/coding/skills.cpp" line="+27"/>
        <location filename="../agentcore/coding/subagenttypes.cpp" line="+34"/>
        <source>%1: the description is longer than %2 characters: cut</source>
        <translation>%1：描述超过 %2 个字符：已截断</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/frontmatter.cpp" line="+64"/>
        <source>an indented line belongs to no field</source>
        <translation>缩进行不属于任何字段</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not a &quot;key: value&quot; line</source>
        <translation>不是“key: value”形式的行</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&quot;%1&quot; is given twice: the last one counts</source>
        <translation>“%1”出现了两次：以最后一个为准</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the quoted value of &quot;%1&quot; has no closing quote</source>
        <translation>“%1”的带引号值缺少结束引号</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the front matter has no closing &quot;---&quot; line</source>
        <translation>前置元数据缺少结束的“---”行</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&quot;%1&quot; is longer than %2 characters: cut</source>
        <translation>“%1”超过 %2 个字符：已截断</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/skills.cpp" line="-13"/>
        <source>%1: skipped: the name &quot;%2&quot; is not up to %3 lower-case letters, digits and hyphens</source>
        <translation>%1：已跳过：名称“%2”不是不超过 %3 个字符的小写字母、数字和连字符</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: skipped: it has no description, so the model could not know when it applies</source>
        <translation>%1：已跳过：它没有描述，模型无法知道何时适用</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1: skipped: more than %2 skills</source>
        <translation>%1：已跳过：技能超过 %2 个</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/subagentrunner.cpp" line="+115"/>
        <source>

[... the subagent&apos;s answer was cut here: it was %1 KB, more than the %2 KB a subagent may return]</source>
        <translation>

[... 子智能体的回答在此被截断：它有 %1 KB，超过了子智能体最多可返回的 %2 KB]</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Task refused: a subagent %1 levels deep may not start subagents (the limit is %1). Do this part yourself with your own tools.</source>
        <translation>Task 被拒绝：嵌套 %1 层的子智能体不能再启动子智能体（上限为 %1 层）。请用你自己的工具完成这部分工作。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Task refused: there is no agent type &quot;%1&quot;; the types are: %2.</source>
        <translation>Task 被拒绝：没有名为“%1”的智能体类型；可用的类型有：%2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Task refused: the prompt is empty.</source>
        <translation>Task 被拒绝：提示词为空。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Task refused: no model is configured.</source>
        <translation>Task 被拒绝：未配置模型。</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>The user stopped this subagent before it finished.%1

%2</source>
        <translation>用户在此子智能体完成前将其停止。%1

%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> What it had said so far:

%1</source>
        <translation> 它到此为止所说的内容：

%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The subagent stopped at its turn limit (%1 turns) before it finished.%2

%3</source>
        <translation>子智能体在完成前达到了轮数上限（%1 轮），已停止。%2

%3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> Its last answer:

%1</source>
        <translation> 它最后的回答：

%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The subagent failed: %1

%2</source>
        <translation>子智能体失败：%1

%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it gave no answer</source>
        <translation>它没有给出回答</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(The subagent ended without an answer.)</source>
        <translation>（子智能体已结束，但没有给出回答。）</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/subagenttypes.cpp" line="-54"/>
        <source>%1: skipped: more than %2 agent types</source>
        <translation>%1：已跳过：智能体类型超过 %2 个</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1: skipped: an agent type&apos;s name takes up to 64 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>%1：已跳过：智能体类型的名称最多 64 个字符，只能由字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos; 组成</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: skipped: &quot;%2&quot; is a built-in agent type</source>
        <translation>%1：已跳过：“%2”是内置的智能体类型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: skipped: it has no description (the model chooses a type by it)</source>
        <translation>%1：已跳过：它没有描述（模型依据描述选择类型）</translation>
    </message>
    <message>
        <location filename="../agentcore/coding/diagnosticstool.cpp" line="+44"/>
        <source>No diagnostics for this change: %1.</source>
        <translation>此更改没有诊断信息：%1。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%1 reports %n new problem(s) in %2 after this change:</source>
        <translation>
            <numerusform>此更改之后，%1 在 %2 中报告了 %n 个新问题：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%1 reports %n error(s) in %2 now:</source>
        <translation>
            <numerusform>%1 报告 %2 现有 %n 个错误：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The language server&apos;s current problems in a file (line:column severity: message, errors first); without file_path, those of every file checked in this session. Servers: %1.</source>
        <translation>语言服务器报告的文件当前问题（行:列 严重程度: 消息，错误在前）；不给 file_path 时，列出本会话中检查过的所有文件的问题。服务器：%1。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1 is outside the repository: only its files are checked.</source>
        <translation>%1 在仓库之外：只检查仓库内的文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No language server here is for %1 (servers: %2).</source>
        <translation>这里没有适用于 %1 的语言服务器（服务器：%2）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 cannot be checked: it is missing, binary or over 4 MB.</source>
        <translation>无法检查 %1：文件不存在、是二进制文件或超过 4 MB。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: no problems in %2.</source>
        <translation>%1：%2 中没有问题。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1: %n problem(s) in %2:</source>
        <translation>
            <numerusform>%1：%2 中有 %n 个问题：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+24"/>
        <source>No problems in the files checked in this session (a file is checked when it is edited, or asked about with file_path).</source>
        <translation>本会话中检查过的文件没有问题（文件在被编辑时或用 file_path 询问时才会检查）。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n problem(s) in the files checked in this session:</source>
        <translation>
            <numerusform>本会话中检查过的文件共有 %n 个问题：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../agentcore/coding/navigationtools.cpp" line="+112"/>
        <source>Where a symbol is defined, from the language server (go to definition): file:line:column and that line.</source>
        <translation>由语言服务器给出符号的定义位置（跳转到定义）：文件:行:列及该行内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every use of a symbol in the code, from the language server (find references): file:line:column and each line.</source>
        <translation>由语言服务器给出代码中符号的每处使用（查找引用）：文件:行:列及每行内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Give the file, a line where the symbol is written and the symbol as written there.</source>
        <translation>请给出文件、符号所在的某一行，以及该行中符号的原样写法。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>1-based, as Read numbers it</source>
        <translation>从 1 开始，与 Read 的行号一致</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the name as written on that line</source>
        <translation>该行中名称的原样写法</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 is outside the repository: only its files are asked about.</source>
        <translation>%1 在仓库之外：只能查询仓库中的文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No language server here is for %1.</source>
        <translation>这里没有适用于 %1 的语言服务器。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 cannot be asked about: it is missing, binary or over 4 MB.</source>
        <translation>无法查询 %1：文件不存在、是二进制文件或超过 4 MB。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%1 has %n line(s): line %2 is not one of them.</source>
        <translation>
            <numerusform>%1 共 %n 行：没有第 %2 行。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;%1&quot; is not on line %2 of %3, which reads: %4</source>
        <translation>“%1”不在 %3 的第 %2 行，该行内容为：%4</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 knows no definition of %2 at %3:%4.</source>
        <translation>%1 不知道 %3:%4 处 %2 的定义。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 knows no references to %2 at %3:%4.</source>
        <translation>%1 不知道 %3:%4 处 %2 的引用。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: %2 is defined at:</source>
        <translation>%1：%2 的定义位于：</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1: %n reference(s) to %2:</source>
        <translation>
            <numerusform>%1：%2 有 %n 处引用：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source> (outside the repository)</source>
        <translation>（在仓库之外）</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::CodingAgent</name>
    <message>
        <location filename="../agentcore/coding/codingagent.cpp" line="+143"/>
        <source>AgentDesk&apos;s settings</source>
        <translation>AgentDesk 的设置</translation>
    </message>
</context>
<context>
    <name>AgentCore::CodingSession</name>
    <message>
        <location filename="../agentcore/coding/codingsession.cpp" line="+1119"/>
        <source>The agent is still starting.</source>
        <translation>智能体仍在启动。</translation>
    </message>
    <message>
        <location line="-371"/>
        <location line="+44"/>
        <source>The agent is working: compact once it has finished.</source>
        <translation>智能体正在工作：请在它完成后再压缩。</translation>
    </message>
    <message>
        <location line="-324"/>
        <source>a UserPromptSubmit hook refused the prompt</source>
        <translation>UserPromptSubmit 钩子拒绝了该提示词</translation>
    </message>
    <message>
        <location line="+174"/>
        <source>/%1 was not sent: %2</source>
        <translation>/%1 未发送：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>A rewind is restoring the files: compact once it has finished.</source>
        <translation>回退正在恢复文件：请在它完成后再压缩。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A hook is running: compact once it has finished.</source>
        <translation>有钩子正在运行：请在它完成后再压缩。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The compaction was stopped; the conversation is unchanged.</source>
        <translation>压缩已停止；对话保持不变。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a PreCompact hook refused the compaction</source>
        <translation>PreCompact 钩子拒绝了这次压缩</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The summary was not applied: the conversation changed while it was written. Compact again.</source>
        <translation>摘要未被采用：撰写期间对话已发生变化。请重新压缩。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The summary was not applied: the agent started working. Compact again once it has finished.</source>
        <translation>摘要未被采用：智能体已开始工作。请在它完成后重新压缩。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The agent is still starting: rewind once it is ready.</source>
        <translation>智能体仍在启动：请在它就绪后再回退。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The agent is working: stop it or wait until it has finished, then rewind.</source>
        <translation>智能体正在工作：请停止它或等它完成，然后再回退。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+64"/>
        <source>A rewind is restoring the files: wait until it has finished.</source>
        <translation>回退正在恢复文件：请等它完成。</translation>
    </message>
    <message>
        <location line="-25"/>
        <location line="+83"/>
        <source>That point is no longer in the conversation.</source>
        <translation>该位置已不在对话中。</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>The agent started working: rewind once it has finished.</source>
        <translation>智能体已开始工作：请在它完成后再回退。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The agent is still starting: switch branches once it is ready.</source>
        <translation>智能体仍在启动：请在它就绪后再切换分支。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The agent is working: stop it or wait until it has finished, then switch branches.</source>
        <translation>智能体正在工作：请停止它或等它完成，然后再切换分支。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This conversation is not recorded in a session file, so it keeps no branches.</source>
        <translation>此对话未记录在会话文件中，因此不保留分支。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>That branch is not in this session.</source>
        <translation>该分支不在此会话中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The agent started working: switch branches once it has finished.</source>
        <translation>智能体已开始工作：请在它完成后再切换分支。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The switch could not be written to the session file.</source>
        <translation>无法将这次切换写入会话文件。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The session file does not hold this conversation&apos;s branches (a message could not be written).</source>
        <translation>会话文件中没有此对话的分支（有一条消息未能写入）。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Only a message you wrote can be edited and sent again.</source>
        <translation>只有你自己写的消息才能编辑并重新发送。</translation>
    </message>
</context>
<context>
    <name>AgentCore::Context</name>
    <message>
        <location filename="../agentcore/context/contextmanager.cpp" line="+184"/>
        <source>A compaction is already running.</source>
        <translation>已有一次压缩正在进行。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing to compact yet: the conversation is only its latest turn.</source>
        <translation>暂无可压缩的内容：对话只有最新的一轮。</translation>
    </message>
    <message>
        <location line="+113"/>
        <source>The request did not fit the model&apos;s context window, and there is nothing older to compact.</source>
        <translation>请求超出了模型的上下文窗口，且没有更早的内容可以压缩。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>No model is available to write the summary.</source>
        <translation>没有可用于撰写摘要的模型。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The summary request failed: %1</source>
        <translation>摘要请求失败：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The summary request failed.</source>
        <translation>摘要请求失败。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The compaction was stopped; the conversation is unchanged.</source>
        <translation>压缩已停止；对话保持不变。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The summary request failed (%1); the conversation is unchanged.</source>
        <translation>摘要请求失败（%1）；对话保持不变。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model returned an empty summary; the conversation is unchanged.</source>
        <translation>模型返回了空摘要；对话保持不变。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>The summary was not applied: the conversation it summarised changed while it was written.</source>
        <translation>摘要未被采用：撰写期间，它所概括的对话已发生变化。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The summary was not applied: it would not have made the context smaller.</source>
        <translation>摘要未被采用：它不会让上下文变小。</translation>
    </message>
    <message>
        <location filename="../agentcore/context/contextview.cpp" line="+24"/>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Assistant:</source>
        <translation>助手：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Output of %1:</source>
        <translation>%1 的输出：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The earlier part of this conversation was compacted; this summary stands in for it.</source>
        <translation>此对话较早的部分已被压缩；以下摘要代替了它。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Pinned, verbatim:</source>
        <translation>已固定，原文如下：</translation>
    </message>
    <message>
        <location line="+139"/>
        <source>[The file was unchanged since an earlier Read whose output is no longer in this conversation: Read it again to see it.]</source>
        <translation>[该文件自之前的一次 Read 以来未变，但那次的输出已不在此对话中：请重新 Read 以查看。]</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>[output removed from the context by the user]</source>
        <translation>[用户已将此输出从上下文中移除]</translation>
    </message>
    <message>
        <location filename="../agentcore/context/rewind.cpp" line="+92"/>
        <source>The user restored the files to an earlier state of this conversation; nothing differed.</source>
        <translation>用户将文件恢复到了此对话较早时的状态；没有任何差异。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The user restored these files to an earlier state of this conversation, undoing changes made since: %1. Read a file again before you change it.</source>
        <translation>用户将以下文件恢复到了此对话较早时的状态，撤销了此后所做的更改：%1。修改文件之前请重新 Read。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The conversation was rewound to an earlier point.</source>
        <translation>对话已回退到较早的位置。</translation>
    </message>
    <message>
        <location filename="../agentcore/context/summaryprompt.cpp" line="+21"/>
        <source>
[... %1 characters cut from this output ...]
</source>
        <translation>
[……此输出中删去了 %1 个字符……]
</translation>
    </message>
    <message numerus="yes">
        <location line="+49"/>
        <source>[%n earlier message(s) left out: too long to include]</source>
        <translation>
            <numerusform>[省略了 %n 条较早的消息：内容过长]</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Follow-up tasks the user queued, still to run (list them in the summary, verbatim):</source>
        <translation>用户排队、尚未运行的后续任务（请在摘要中逐字列出）：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The user&apos;s instructions for this summary: %1</source>
        <translation>用户对本摘要的要求：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the summary of the transcript above now, as the system prompt describes.</source>
        <translation>现在请按照系统提示的说明，为上面的记录撰写摘要。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>You summarise the earlier part of a coding session between a user and a coding agent, so that the same agent can go on with the work from your summary alone: the transcript will no longer be in its context. Write plain text with these sections, leaving out any that would be empty:
1. The user&apos;s requests and decisions: quote their instructions verbatim where they are short, and every constraint or preference they stated.
2. Files: each file read, created or changed, with what was learned or done.
3. What was tried and failed, and why, so it is not tried again.
4. Where the work stands: what is done, what is open, the next step.
5. Follow-up tasks still queued, verbatim.
Keep names, paths, commands, error messages and numbers exact. Do not invent anything the transcript does not say. Do not call tools.</source>
        <translation>你要为用户与编码智能体之间一次编码会话的较早部分撰写摘要，使同一个智能体仅凭你的摘要就能继续工作：原始记录将不再留在它的上下文中。请用纯文本写出以下各节，内容为空的节省略：
1. 用户的请求与决定：简短的指示请逐字引用，并列出用户提出的每一条约束或偏好。
2. 文件：每个被读取、创建或修改的文件，以及从中了解到或完成的内容。
3. 尝试过但失败的做法及原因，以免再次尝试。
4. 工作进展：已完成的、尚未完成的、下一步。
5. 仍在排队的后续任务，逐字列出。
名称、路径、命令、错误信息和数字须保持准确。不要编造记录中没有的内容。不要调用工具。</translation>
    </message>
</context>
<context>
    <name>AgentCore::JsonRpc</name>
    <message>
        <location filename="../agentcore/jsonrpc/jsonrpcframing.cpp" line="+82"/>
        <source>a message header longer than %1 bytes</source>
        <translation>消息头超过 %1 字节</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a message header line without a name: &quot;%1&quot;</source>
        <translation>消息头中有一行没有名称：“%1”</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>a Content-Length that is not a number: &quot;%1&quot;</source>
        <translation>Content-Length 不是数字：“%1”</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a message header without Content-Length</source>
        <translation>消息头中没有 Content-Length</translation>
    </message>
    <message>
        <location filename="../agentcore/jsonrpc/jsonrpcmessage.cpp" line="+126"/>
        <source>error %1</source>
        <translation>错误 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a message nested deeper than %1 levels</source>
        <translation>消息嵌套超过 %1 层</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not JSON (%1 at offset %2)</source>
        <translation>不是 JSON（%1，偏移 %2）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not a JSON-RPC message object</source>
        <translation>不是 JSON-RPC 消息对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not JSON-RPC 2.0 (no &quot;jsonrpc&quot;: &quot;2.0&quot;)</source>
        <translation>不是 JSON-RPC 2.0（没有 &quot;jsonrpc&quot;: &quot;2.0&quot;）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&quot;params&quot; is not an object</source>
        <translation>&quot;params&quot; 不是对象</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a request whose id is neither a string nor an integer</source>
        <translation>请求的 id 既不是字符串也不是整数</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;method&quot; is not a string</source>
        <translation>&quot;method&quot; 不是字符串</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a response needs exactly one of &quot;result&quot; and &quot;error&quot;</source>
        <translation>响应必须恰好包含 &quot;result&quot; 和 &quot;error&quot; 之一</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&quot;error&quot; is not an object</source>
        <translation>&quot;error&quot; 不是对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a response whose id is neither a string nor an integer</source>
        <translation>响应的 id 既不是字符串也不是整数</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>empty error</source>
        <translation>空错误</translation>
    </message>
    <message>
        <location filename="../agentcore/jsonrpc/jsonrpcprocess.cpp" line="+67"/>
        <source>%1 crashed</source>
        <translation>%1 崩溃了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 exited with code %2</source>
        <translation>%1 已退出，退出码 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 could not be started (%2): %3</source>
        <translation>无法启动 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>; its last words on stderr: %1</source>
        <translation>；它在 stderr 上的最后输出：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 wrote what is not the Language Server Protocol (%2)</source>
        <translation>%1 输出的内容不符合语言服务器协议（%2）</translation>
    </message>
</context>
<context>
    <name>AgentCore::Loop</name>
    <message>
        <location filename="../agentcore/loop/agentloop.cpp" line="+608"/>
        <source>tool-call markup</source>
        <translation>工具调用标记</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your previous reply wrote a tool call as text (%1) instead of calling the tool, so nothing was run. Call tools only through the native tool-calling interface, and do not write tool-call markup such as &lt;invoke&gt;, &lt;function_calls&gt; or &lt;tool_call&gt; in your reply.</source>
        <translation>你上一条回复把工具调用写成了文本（%1），而没有真正调用工具，因此什么都没有执行。请只通过原生的工具调用接口调用工具，不要在回复中写 &lt;invoke&gt;、&lt;function_calls&gt; 或 &lt;tool_call&gt; 之类的工具调用标记。</translation>
    </message>
    <message>
        <source>Skipped: the response was cut off at the output token limit, so this tool call may be incomplete; it was not run.</source>
        <translation type="vanished">已跳过：回复在达到输出 token 上限时被截断，此工具调用可能不完整，未执行。</translation>
    </message>
    <message>
        <location line="-555"/>
        <source>Skipped: the request did not fit the model&apos;s context window; this tool call was not run.</source>
        <translation>已跳过：请求超出了模型的上下文窗口，此工具调用未执行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skipped: the response was aborted before this tool call could run.</source>
        <translation>已跳过：回复在此工具调用执行前被中止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the response failed (%1); this tool call was not run.</source>
        <translation>已跳过：回复失败（%1），此工具调用未执行。</translation>
    </message>
    <message numerus="yes">
        <location line="+425"/>
        <source>Stopped after %n turn(s): the turn limit of this run was reached.</source>
        <translation>
            <numerusform>已在 %n 轮后停止：达到了本次运行的轮数上限。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Skipped: the run stopped on an internal error (%1).</source>
        <translation>已跳过：运行因内部错误而停止（%1）。</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Skipped: the run stopped on an internal error.</source>
        <translation>已跳过：运行因内部错误而停止。</translation>
    </message>
    <message>
        <location line="-262"/>
        <source>Skipped: your reply was cut off at the output token limit, so this tool call may be incomplete and was not run. If it is still needed, make it again with less in it (for example, write a large file in several smaller steps).</source>
        <translation>已跳过：你的回复在输出 token 上限处被截断，因此这个工具调用可能不完整，没有运行。如果仍然需要，请减少内容后重新调用（例如把大文件分几步写入）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Skipped: this response also wrote tool calls as text, so none of its tool calls were run.</source>
        <translation>已跳过：这条回复同样把工具调用写成了文本，因此其中的工具调用都未执行。</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Aborted before the request was sent.</source>
        <translation>请求发送前已中止。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No model is configured.</source>
        <translation>尚未配置模型。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The model client failed: %1</source>
        <translation>模型客户端出错：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model client failed.</source>
        <translation>模型客户端出错。</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>The run stopped on an internal error.</source>
        <translation>运行因内部错误而停止。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The run stopped on an internal error: %1</source>
        <translation>运行因内部错误而停止：%1</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n turn(s): the iteration limit of this run was reached.</source>
        <translation type="vanished">
            <numerusform>已在 %n 轮后停止：达到了本次运行的轮数上限。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../agentcore/loop/extension.cpp" line="+22"/>
        <location filename="../agentcore/loop/toolexecution.cpp" line="+52"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The %1 extension failed before %2 ran (%3), so the call was not made.</source>
        <translation>扩展 %1 在 %2 运行前出错（%3），因此未进行调用。</translation>
    </message>
    <message>
        <source>Skipped: the run was aborted before this tool call started.</source>
        <translation type="vanished">已跳过：运行在此工具调用开始前被中止。</translation>
    </message>
    <message>
        <location filename="../agentcore/loop/toolbatch.cpp" line="+23"/>
        <source>Skipped: the run was stopped before this tool call started.</source>
        <translation>已跳过：运行在此工具调用开始前已被停止。</translation>
    </message>
    <message>
        <location filename="../agentcore/loop/toolexecution.cpp" line="-33"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Tool %1 failed: %2</source>
        <translation>工具 %1 出错：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tool %1 failed with an unknown error.</source>
        <translation>工具 %1 出现未知错误。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>[Note: %1 finished as reported above, but recording its effect afterwards failed: %2]</source>
        <translation>[注意：%1 已按上文所述完成，但之后记录其效果时失败：%2]</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Contract error: a tool middleware rewrote the arguments of %1 into invalid ones, so it was not run. %2</source>
        <translation>契约错误：某个工具中间件把 %1 的参数改写成了无效参数，因此未执行。%2</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Tool execution aborted.</source>
        <translation>工具执行已中止。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>[Stopped by the user while still running; the output above is what the tool produced until then.]</source>
        <translation>[运行中被用户停止；以上输出是工具到那时为止产生的内容。]</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Tool %1 not found. Available tools: %2.</source>
        <translation>找不到工具 %1。可用的工具：%2。</translation>
    </message>
    <message>
        <location filename="../agentcore/loop/messagepages.cpp" line="+28"/>
        <source>it is kept in the session file, which this conversation no longer reads</source>
        <translation>它保存在会话文件中，而此对话已不再读取该文件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>[AgentDesk could not read the whole of this tool output back (%1); its first part follows.]
</source>
        <translation>[AgentDesk 无法读回此工具输出的全部内容（%1）；以下是它的开头部分。]
</translation>
    </message>
</context>
<context>
    <name>AgentCore::Lsp</name>
    <message>
        <location filename="../agentcore/lsp/lspclient.cpp" line="+47"/>
        <source>the language server %1</source>
        <translation>语言服务器 %1</translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+48"/>
        <location line="+566"/>
        <source>%1 was stopped</source>
        <translation>%1 已停止</translation>
    </message>
    <message>
        <location line="-592"/>
        <source>stopped by the user</source>
        <translation>已被用户停止</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 did not answer</source>
        <translation>%1 没有应答</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>%1 did not answer within %2 ms</source>
        <translation>%1 未在 %2 毫秒内回答</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 does not offer this</source>
        <translation>%1 不提供此功能</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 answered: %2</source>
        <translation>%1 的回答：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+120"/>
        <source>%1 did not answer initialize within %n second(s)</source>
        <translation>
            <numerusform>%1 在 %n 秒内没有应答 initialize</numerusform>
        </translation>
    </message>
    <message>
        <location line="+46"/>
        <source>%1 refused initialize: %2</source>
        <translation>%1 拒绝了 initialize：%2</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>[AgentDesk: a message of %1 bytes was dropped: over the cap]
</source>
        <translation>[AgentDesk：一条 %1 字节的消息已丢弃：超过上限]
</translation>
    </message>
    <message>
        <location line="+176"/>
        <source>%1 reported no diagnostics within %2 ms</source>
        <translation>%1 在 %2 毫秒内没有报告诊断信息</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>%1 had stopped (%2) and was started again</source>
        <translation>%1 曾停止（%2），已重新启动</translation>
    </message>
    <message>
        <location filename="../agentcore/lsp/lspdiagnostic.cpp" line="+76"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>hint</source>
        <translation>提示</translation>
    </message>
    <message numerus="yes">
        <location line="+56"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>…… 还有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AgentCore::Mcp</name>
    <message>
        <location filename="../agentcore/mcp/mcpcatalog.cpp" line="+16"/>
        <location filename="../agentcore/mcp/mcptool.cpp" line="+33"/>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../agentcore/mcp/mcptool.cpp" line="+1"/>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 without a &quot;%2&quot; string</source>
        <translation>%1 缺少 &quot;%2&quot; 字符串</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 whose &quot;%2&quot; is longer than %3 characters</source>
        <translation>&quot;%2&quot; 长度超过 %3 个字符的%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 whose &quot;%2&quot; holds control characters</source>
        <translation>&quot;%2&quot; 中含有控制字符的%1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>[cut at %1 of its %2 characters]</source>
        <translation>[已在其 %2 个字符中的第 %1 个处截断]</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>[%1 of data over the %2 cap: left out]</source>
        <translation>[超出 %2 上限的 %1 数据：已略去]</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>a resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>resource %1</source>
        <translation>资源 %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>a resource template</source>
        <translation>资源模板</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>resource template %1</source>
        <translation>资源模板 %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>[%1 %2, %3: not passed on to the model]</source>
        <translation>[%1 %2，%3：未传递给模型]</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+92"/>
        <location filename="../agentcore/mcp/mcptool.cpp" line="+90"/>
        <source>[resource %1, %2 %3: binary, not passed on to the model]</source>
        <translation>[资源 %1，%2 %3：二进制，未传递给模型]</translation>
    </message>
    <message>
        <location line="-89"/>
        <location filename="../agentcore/mcp/mcptool.cpp" line="-11"/>
        <source>[resource %1]
%2</source>
        <translation>[资源 %1]
%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../agentcore/mcp/mcptool.cpp" line="-8"/>
        <source>[resource link: %1 %2]</source>
        <translation>[资源链接：%1 %2]</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>a text content without a &quot;text&quot; string</source>
        <translation>缺少 &quot;text&quot; 字符串的文本内容</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>an %1 content whose &quot;data&quot; is not base64</source>
        <translation>&quot;data&quot; 不是 base64 的 %1 内容</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a resource link</source>
        <translation>资源链接</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>an embedded resource without a &quot;resource&quot; object</source>
        <translation>缺少 &quot;resource&quot; 对象的嵌入资源</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>a content without a &quot;type&quot;</source>
        <translation>缺少 &quot;type&quot; 的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a content of unknown type &quot;%1&quot;</source>
        <translation>未知类型“%1”的内容</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>a resource&apos;s contents</source>
        <translation>资源的内容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the contents of %1 need exactly one of a &quot;text&quot; and a &quot;blob&quot; string</source>
        <translation>%1 的内容必须恰好包含 &quot;text&quot; 和 &quot;blob&quot; 字符串中的一个</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the blob of %1 is not base64</source>
        <translation>%1 的 blob 不是 base64</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>the prompt &quot;%1&quot; needs the argument &quot;%2&quot;</source>
        <translation>提示词“%1”需要参数“%2”</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the prompt &quot;%1&quot; takes no arguments</source>
        <translation>提示词“%1”不接受参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the prompt &quot;%1&quot; has no argument &quot;%2&quot; (it takes %3)</source>
        <translation>提示词“%1”没有参数“%2”（它接受 %3）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the prompt &quot;%1&quot; has an &quot;arguments&quot; that is not a list</source>
        <translation>提示词“%1”的 &quot;arguments&quot; 不是列表</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the prompt &quot;%1&quot; has more than %2 arguments</source>
        <translation>提示词“%1”的参数超过 %2 个</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>an argument of the prompt &quot;%1&quot;</source>
        <translation>提示词“%1”的一个参数</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>[assistant]
%1</source>
        <translation>[助手]
%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the answer has no &quot;messages&quot; list</source>
        <translation>应答中没有 &quot;messages&quot; 列表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the answer has more than %1 messages</source>
        <translation>应答中的消息超过 %1 条</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>message %1 has no role &quot;user&quot; or &quot;assistant&quot;</source>
        <translation>消息 %1 的角色不是 &quot;user&quot; 或 &quot;assistant&quot;</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>message %1: %2</source>
        <translation>消息 %1：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpclient.cpp" line="+167"/>
        <location line="+28"/>
        <location line="+357"/>
        <source>the MCP server &quot;%1&quot; was stopped</source>
        <translation>MCP 服务器“%1”已停止</translation>
    </message>
    <message>
        <location line="-360"/>
        <source>stopped by the user</source>
        <translation>被用户停止</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The user stopped the run.</source>
        <translation>用户停止了运行。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>starting %1</source>
        <translation>正在启动 %1</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; crashed</source>
        <translation type="vanished">MCP 服务器“%1”崩溃了</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; exited with code %2</source>
        <translation type="vanished">MCP 服务器“%1”已退出，退出码 %2</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; could not be started (%2): %3</source>
        <translation type="vanished">无法启动 MCP 服务器“%1”（%2）：%3</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the MCP server &quot;%1&quot; did not finish starting (initialize and tools/list) within %2 s</source>
        <translation>MCP 服务器“%1”未在 %2 秒内完成启动（initialize 和 tools/list）</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>the MCP server &quot;%1&quot; no longer knows the session (HTTP 404)</source>
        <translation>MCP 服务器“%1”已不再识别该会话（HTTP 404）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the server ended the session (HTTP 404); initializing again</source>
        <translation>服务器已结束会话（HTTP 404）；正在重新初始化</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>it now speaks protocol revision &quot;%1&quot;</source>
        <translation>它现在使用协议修订版“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the MCP server &quot;%1&quot; ended the session and did not start a new one: %2</source>
        <translation>MCP 服务器“%1”结束了会话，且未开始新会话：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the MCP server &quot;%1&quot; refused initialize: %2</source>
        <translation>MCP 服务器“%1”拒绝了 initialize：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the MCP server &quot;%1&quot; speaks protocol revision &quot;%2&quot;; AgentDesk speaks %3</source>
        <translation>MCP 服务器“%1”使用协议修订版“%2”；AgentDesk 使用 %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>initialized: %1 %2, protocol %3</source>
        <translation>已初始化：%1 %2，协议 %3</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the MCP server &quot;%1&quot; did not list its tools: %2</source>
        <translation>MCP 服务器“%1”未列出其工具：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tools/list failed: %1</source>
        <translation>tools/list 失败：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>tools/list answered without a &quot;tools&quot; list</source>
        <translation>tools/list 的应答中没有“tools”列表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>more than %1 tools; the rest are left out</source>
        <translation>工具超过 %1 个；其余的已略去</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a tool is left out: %1</source>
        <translation>略去了一个工具：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>tools/list has more than %1 pages; the rest are left out</source>
        <translation>tools/list 超过 %1 页；其余的已略去</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>the MCP server &quot;%1&quot; did not answer a ping within %2 s; it was stopped</source>
        <translation>MCP 服务器“%1”在 %2 秒内未响应 ping，已被停止</translation>
    </message>
    <message>
        <source>; its last words on stderr: %1</source>
        <translation type="vanished">；它在 stderr 上的最后输出：%1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source> (it is started again on the next call)</source>
        <translation>（下次调用时会重新启动）</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Timed out.</source>
        <translation>超时。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the MCP server &quot;%1&quot; did not answer %2 within %3 s</source>
        <translation>MCP 服务器“%1”未在 %3 秒内应答 %2</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>the MCP server &quot;%1&quot; sent a message of %2 MiB, over the %3 MiB cap; it was dropped</source>
        <translation>MCP 服务器“%1”发送了一条 %2 MiB 的消息，超过了 %3 MiB 的上限；已丢弃</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>a malformed message was ignored: %1</source>
        <translation>已忽略一条格式错误的消息：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the MCP server &quot;%1&quot; answered with %2, which AgentDesk does not read</source>
        <translation>AgentDesk 不读取 MCP 服务器“%1”的这个应答：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the server reported an error: %1</source>
        <translation>服务器报告了错误：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a response to unknown id %1 was ignored</source>
        <translation>已忽略对未知 id %1 的响应</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the server&apos;s result is not an object</source>
        <translation>服务器的结果不是对象</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpclientcatalog.cpp" line="+24"/>
        <source>a page of the answer has no &quot;%1&quot; list</source>
        <translation>应答的某一页中没有 &quot;%1&quot; 列表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>more than %1 entries; the rest are left out</source>
        <translation>条目超过 %1 个；其余的已略去</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>an entry that is not an object is left out</source>
        <translation>已略去一个不是对象的条目</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>left out: %1</source>
        <translation>已略去：%1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 has more than %2 pages; the rest are left out</source>
        <translation>%1 超过 %2 页；其余的已略去</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>not a resource URI: &quot;%1&quot;</source>
        <translation>不是资源 URI：“%1”</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the answer to resources/read has no &quot;contents&quot; list</source>
        <translation>resources/read 的应答中没有 &quot;contents&quot; 列表</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> [%1 more contents left out]</source>
        <translation> [另有 %1 项内容已略去]</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the answer to resources/read is malformed: %1</source>
        <translation>resources/read 的应答格式错误：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the MCP server &quot;%1&quot; has no prompt &quot;%2&quot;</source>
        <translation>MCP 服务器“%1”没有提示词“%2”</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>the answer to prompts/get is malformed: %1</source>
        <translation>prompts/get 的应答格式错误：%1</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>%1 after list_changed failed: %2</source>
        <translation>list_changed 之后的 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcphttptransport.cpp" line="+144"/>
        <location line="+16"/>
        <source>the MCP server &quot;%1&quot; sent a message over the %2 MiB cap; it was dropped</source>
        <translation>MCP 服务器“%1”发送的消息超过了 %2 MiB 的上限；已丢弃</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>the MCP server &quot;%1&quot; cannot be reached at %2: %3</source>
        <translation>无法通过 %2 连接到 MCP 服务器“%1”：%3</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>agentdesk: the server offers no stream of its own messages (GET: HTTP 405)
</source>
        <translation>agentdesk：服务器不提供其自身消息的流（GET: HTTP 405）
</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>agentdesk: the server&apos;s stream of its own messages ended %1 times; it is not opened again
</source>
        <translation>agentdesk：服务器自身消息的流已结束 %1 次；不再重新打开
</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>the MCP server &quot;%1&quot; ended the stream before its answer (%2)</source>
        <translation>MCP 服务器“%1”在给出应答之前结束了流（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>closed by the server</source>
        <translation>被服务器关闭</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the MCP server &quot;%1&quot; answered HTTP %2 without a message</source>
        <translation>MCP 服务器“%1”以 HTTP %2 应答，但没有消息</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the MCP server &quot;%1&quot; answered without a response to the request</source>
        <translation>MCP 服务器“%1”的应答中没有对该请求的响应</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>agentdesk: the stream of request %1 ended early; resuming after event %2
</source>
        <translation>agentdesk：请求 %1 的流提前结束；从事件 %2 之后继续
</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>the MCP server &quot;%1&quot; answered HTTP %2</source>
        <translation>MCP 服务器“%1”以 HTTP %2 应答</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpconfig.cpp" line="+36"/>
        <source>no &quot;url&quot;</source>
        <translation>没有 &quot;url&quot;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;url&quot; is not an http or https URL</source>
        <translation>&quot;url&quot; 不是 http 或 https URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&quot;headers&quot; is not an object</source>
        <translation>&quot;headers&quot; 不是对象</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;headers&quot; holds something other than Name: &quot;value&quot;</source>
        <translation>&quot;headers&quot; 中含有 Name: &quot;value&quot; 以外的内容</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is larger than %2 KiB</source>
        <translation>%1 大于 %2 KiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 is not JSON: %2 at offset %3</source>
        <translation>%1 不是 JSON：%2，位于偏移 %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 has no &quot;mcpServers&quot; object</source>
        <translation>%1 中没有“mcpServers”对象</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>MCP server &quot;%1&quot; of %2 left out: %3</source>
        <translation>%2 中的 MCP 服务器“%1”已略去：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>more than %1 servers</source>
        <translation>服务器超过 %1 个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a name has 1 to 64 letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos;</source>
        <translation>名称由 1 到 64 个字母、数字、&apos;_&apos;、&apos;-&apos; 或 &apos;.&apos; 组成</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>its entry is not an object</source>
        <translation>其条目不是对象</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the old HTTP+SSE transport (&quot;sse&quot;) is not supported; a server that speaks Streamable HTTP is configured with &quot;type&quot;: &quot;http&quot;</source>
        <translation>不支持旧的 HTTP+SSE 传输方式（&quot;sse&quot;）；使用 Streamable HTTP 的服务器应配置为 &quot;type&quot;: &quot;http&quot;</translation>
    </message>
    <message>
        <source>the %1 transport is not supported yet; only stdio servers (&quot;command&quot;) are</source>
        <translation type="vanished">尚不支持 %1 传输方式；目前仅支持 stdio 服务器（&quot;command&quot;）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>unknown type &quot;%1&quot;</source>
        <translation>未知类型“%1”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no &quot;command&quot;</source>
        <translation>没有 &quot;command&quot;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;args&quot; is not a list</source>
        <translation>&quot;args&quot; 不是列表</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;args&quot; holds something other than strings</source>
        <translation>&quot;args&quot; 中含有字符串以外的内容</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;env&quot; is not an object</source>
        <translation>&quot;env&quot; 不是对象</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&quot;env&quot; holds something other than NAME: &quot;value&quot;</source>
        <translation>&quot;env&quot; 中含有 NAME: &quot;value&quot; 以外的内容</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpconfigexpansion.cpp" line="+39"/>
        <source>a model provider&apos;s key, which AgentDesk never gives to an MCP server (its arguments are visible to every user in ps, and a server is not the provider): give the server a key of its own</source>
        <translation>模型提供商的密钥，AgentDesk 从不把它交给 MCP 服务器（服务器的参数在 ps 中对所有用户可见，而且服务器并不是提供商）：请为该服务器单独配一个密钥</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is %2</source>
        <translation>%1 是%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 holds the value of %2, %3</source>
        <translation>%1 含有 %2 的值，这是%3</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>the secret &quot;%1&quot; is not in the keyring</source>
        <translation>密钥“%1”不在密钥环中</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the variable %1 is not set</source>
        <translation>变量 %1 未设置</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>the header %1 holds a line break once expanded</source>
        <translation>请求头 %1 展开后含有换行符</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the url is no http or https URL once expanded</source>
        <translation>url 展开后不是 http 或 https URL</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcphost.cpp" line="+95"/>
        <source>the tool &quot;%1&quot; of MCP server &quot;%2&quot; is left out: another tool is called %3</source>
        <translation>MCP 服务器“%2”的工具“%1”已略去：另一个工具已名为 %3</translation>
    </message>
    <message>
        <source>error %1</source>
        <translation type="vanished">错误 %1</translation>
    </message>
    <message>
        <source>a message nested deeper than %1 levels</source>
        <translation type="vanished">消息嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>not JSON (%1 at offset %2)</source>
        <translation type="vanished">不是 JSON（%1，位于偏移 %2）</translation>
    </message>
    <message>
        <source>not a JSON-RPC message object</source>
        <translation type="vanished">不是 JSON-RPC 消息对象</translation>
    </message>
    <message>
        <source>not JSON-RPC 2.0 (no &quot;jsonrpc&quot;: &quot;2.0&quot;)</source>
        <translation type="vanished">不是 JSON-RPC 2.0（没有 &quot;jsonrpc&quot;: &quot;2.0&quot;）</translation>
    </message>
    <message>
        <source>&quot;params&quot; is not an object</source>
        <translation type="vanished">&quot;params&quot; 不是对象</translation>
    </message>
    <message>
        <source>a request whose id is neither a string nor an integer</source>
        <translation type="vanished">请求的 id 既不是字符串也不是整数</translation>
    </message>
    <message>
        <source>&quot;method&quot; is not a string</source>
        <translation type="vanished">&quot;method&quot; 不是字符串</translation>
    </message>
    <message>
        <source>a response needs exactly one of &quot;result&quot; and &quot;error&quot;</source>
        <translation type="vanished">响应必须恰好包含 &quot;result&quot; 和 &quot;error&quot; 中的一个</translation>
    </message>
    <message>
        <source>&quot;error&quot; is not an object</source>
        <translation type="vanished">&quot;error&quot; 不是对象</translation>
    </message>
    <message>
        <source>a response whose id is neither a string nor an integer</source>
        <translation type="vanished">响应的 id 既不是字符串也不是整数</translation>
    </message>
    <message>
        <source>empty error</source>
        <translation type="vanished">空错误</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpreferences.cpp" line="+72"/>
        <source>the prompt &quot;%1&quot; takes no arguments, but got &quot;%2&quot;</source>
        <translation>提示词“%1”不接受参数，但收到了“%2”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the prompt &quot;%1&quot; takes %2, but got one more: &quot;%3&quot;</source>
        <translation>提示词“%1”接受 %2，但多收到了一个：“%3”</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>/%1:%2: there is no MCP server &quot;%1&quot;</source>
        <translation>/%1:%2：没有 MCP 服务器“%1”</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+25"/>
        <source>/%1:%2: %3</source>
        <translation>/%1:%2：%3</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>more than %1 MCP resources are named with @</source>
        <translation>用 @ 指定的 MCP 资源超过 %1 个</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>@%1: %2</source>
        <translation>@%1：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcptool.cpp" line="-42"/>
        <source>not a kind of picture the models read</source>
        <translation>不是模型能读取的图片类型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>larger than the %1 MB the providers take</source>
        <translation>超过服务商接受的 %1 MB</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>its data is no PNG, JPEG, GIF or WebP picture</source>
        <translation>其数据不是 PNG、JPEG、GIF 或 WebP 图片</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>the model takes no sound</source>
        <translation>模型不接受声音</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>more than %1 pictures in one result</source>
        <translation>一个结果中的图片超过 %1 张</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[%1 %2, %3: not passed on to the model: %4]</source>
        <translation>[%1 %2，%3：未传递给模型：%4]</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>[resource %1: the picture below]</source>
        <translation>[资源 %1：见下方图片]</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>[content of type &quot;%1&quot; left out]</source>
        <translation>[已略去类型为“%1”的内容]</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>progress %1/%2</source>
        <translation>进度 %1/%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>progress %1</source>
        <translation>进度 %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>MCP server &quot;%1&quot;: %2</source>
        <translation>MCP 服务器“%1”：%2</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>[the result was cut at %1 of its %2 characters]</source>
        <translation>[结果已在其 %2 个字符中的第 %1 个处截断]</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The tool failed without saying why.</source>
        <translation>工具失败，未说明原因。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(no output)</source>
        <translation>（无输出）</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcptoolinfo.cpp" line="+28"/>
        <source>%1 is not an object</source>
        <translation>%1 不是对象</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 is not an array</source>
        <translation>%1 不是数组</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 is not a schema (an object or a boolean)</source>
        <translation>%1 不是 schema（对象或布尔值）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is nested too deeply</source>
        <translation>%1 嵌套过深</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1/type is an empty list</source>
        <translation>%1/type 是空列表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1/type names no JSON Schema type</source>
        <translation>%1/type 未指明任何 JSON Schema 类型</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>%1/required is not a list of names</source>
        <translation>%1/required 不是名称列表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1/enum is not an array</source>
        <translation>%1/enum 不是数组</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1/%2 is not a number</source>
        <translation>%1/%2 不是数字</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>it is not an object schema ({&quot;type&quot;: &quot;object&quot;})</source>
        <translation>它不是对象 schema（{&quot;type&quot;: &quot;object&quot;}）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a tool without a name</source>
        <translation>没有名称的工具</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a tool whose name is longer than %1 characters</source>
        <translation>名称长度超过 %1 个字符的工具</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>tool &quot;%1&quot; has no inputSchema object</source>
        <translation>工具“%1”没有 inputSchema 对象</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the inputSchema of tool &quot;%1&quot; is not valid JSON Schema: %2</source>
        <translation>工具“%1”的 inputSchema 不是有效的 JSON Schema：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/mcp/mcpstdiotransport.cpp" line="+16"/>
        <source>the MCP server &quot;%1&quot;</source>
        <translation>MCP 服务器“%1”</translation>
    </message>
</context>
<context>
    <name>AgentCore::Permissions</name>
    <message>
        <location filename="../agentcore/permissions/approvalhabits.cpp" line="+110"/>
        <source>Runs “%1” without asking, with exactly these arguments (also piped to read-only commands); the analysis finds no network use, deletion or write outside the repository in it. Any other command still asks.</source>
        <extracomment>%1 is a shell command</extracomment>
        <translation>不再询问即运行“%1”，参数须完全相同（也包括通过管道传给只读命令的情况）；分析未发现其中有网络访问、删除或写入仓库之外的操作。其他命令仍会询问。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Lets the agent edit and write “%1” without asking; other files still ask.</source>
        <extracomment>%1 is a file in the repository</extracomment>
        <translation>允许智能体不经询问编辑和写入“%1”；其他文件仍会询问。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/bashanalysis.cpp" line="+44"/>
        <source>writes outside the repository</source>
        <translation>写入仓库之外</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>deletes files</source>
        <translation>删除文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>privileged</source>
        <translation>特权操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>may read outside the repository</source>
        <translation>可能读取仓库之外的内容</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The command is empty.</source>
        <translation>命令为空。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The command contains a NUL character.</source>
        <translation>命令中含有 NUL 字符。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/bashcommandclassifier.cpp" line="+423"/>
        <source>the command names the repository&apos;s .git folder or git&apos;s configuration, and AgentDesk cannot follow what it does there</source>
        <translation>该命令提及仓库的 .git 文件夹或 git 配置，而 AgentDesk 无法判断它在那里做什么</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>%1 sets git&apos;s configuration for the command: %2</source>
        <translation>%1 为该命令设置 git 配置：%2</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 may set git&apos;s configuration in a way AgentDesk cannot follow</source>
        <translation>%1 可能以 AgentDesk 无法判断的方式设置 git 配置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 the repository&apos;s .git folder, where git&apos;s configuration and hooks live: %2</source>
        <translation>%1仓库的 .git 文件夹（git 配置和钩子所在之处）：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>runs in</source>
        <translation>运行于</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>names</source>
        <translation>提及</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>%1, which AgentDesk cannot check.</source>
        <translation>%1，AgentDesk 无法检查。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>writes into the repository&apos;s .git directory: %1 (%2)</source>
        <translation>写入仓库的 .git 目录：%1（%2）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>writes outside the repository: %1 (%2)</source>
        <translation>写入仓库之外：%1（%2）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>may write outside the repository: %1 (%2)</source>
        <translation>可能写入仓库之外：%1（%2）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The program %1 is only known when the command runs</source>
        <translation>程序 %1 要到命令运行时才能确定</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+33"/>
        <source>uses the network: %1</source>
        <translation>使用网络：%1</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>deletes files: %1</source>
        <translation>删除文件：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>deletes files or discards changes: %1</source>
        <translation>删除文件或丢弃更改：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>follows symbolic links, which may lead out of the repository: %1</source>
        <translation>会跟随符号链接，可能由此离开仓库：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>reads the files named in a file, wherever they are: %1</source>
        <translation>读取某个文件中列出的文件，无论它们在哪里：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>runs with elevated privileges: %1</source>
        <translation>以提升的权限运行：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>changes ownership or permissions outside the repository: %1</source>
        <translation>更改仓库之外的所有者或权限：%1</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/bashgitcommand.cpp" line="+291"/>
        <source>git -c, --config-env or --exec-path sets git&apos;s configuration</source>
        <translation>git -c、--config-env 或 --exec-path 会设置 git 配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>git config changes git&apos;s configuration</source>
        <translation>git config 会修改 git 配置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>an ext:: or fd:: URL makes git run a command</source>
        <translation>ext:: 或 fd:: URL 会让 git 运行命令</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>git %1 %2 places hooks or moves the git folder</source>
        <translation>git %1 %2 会放置钩子或移动 git 文件夹</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/bashwrappers.cpp" line="+137"/>
        <location line="+14"/>
        <location line="+5"/>
        <source>%1 reads its commands from its input</source>
        <translation>%1 从输入中读取要执行的命令</translation>
    </message>
    <message>
        <location line="-7"/>
        <location line="+110"/>
        <source>%1 -c runs a string as shell code</source>
        <translation>%1 -c 把字符串当作 shell 代码运行</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>eval runs a string as shell code</source>
        <translation>eval 把字符串当作 shell 代码运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>trap runs a string as shell code</source>
        <translation>trap 把字符串当作 shell 代码运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>alias changes what later commands run</source>
        <translation>alias 会改变后续命令实际运行的内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>watch runs a string as shell code</source>
        <translation>watch 把字符串当作 shell 代码运行</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>su -c runs a string as shell code</source>
        <translation>su -c 把字符串当作 shell 代码运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>env -S runs a string as a command</source>
        <translation>env -S 把字符串当作命令运行</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/builtinbashparser.cpp" line="+57"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+85"/>
        <source>for/while loops</source>
        <translation>for/while 循环</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+4"/>
        <source>function definitions</source>
        <translation>函数定义</translation>
    </message>
    <message>
        <location line="+4"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+4"/>
        <source>[[ ]] tests</source>
        <translation>[[ ]] 条件测试</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+96"/>
        <source>the here-document %1 is not terminated</source>
        <translation>here-document %1 没有结束</translation>
    </message>
    <message>
        <location line="-71"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+332"/>
        <source>Cannot parse the command (line %1, column %2): %3</source>
        <translation>无法解析命令（第 %1 行，第 %2 列）：%3</translation>
    </message>
    <message>
        <location line="+11"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="-285"/>
        <source>The command uses %1, which AgentDesk does not analyse.</source>
        <translation>命令使用了 %1，AgentDesk 不分析这种写法。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>command substitution inside a here-document</source>
        <translation>here-document 中的命令替换</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>more than %1 nested levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 outside a case statement</source>
        <translation>case 语句之外的 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+87"/>
        <source>unexpected %1</source>
        <translation>意外的 %1</translation>
    </message>
    <message>
        <location line="-81"/>
        <location line="+206"/>
        <source>expected a command</source>
        <translation>此处应为命令</translation>
    </message>
    <message>
        <location line="-202"/>
        <source>missing )</source>
        <translation>缺少 )</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>missing }</source>
        <translation>缺少 }</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>! without a command</source>
        <translation>! 后面没有命令</translation>
    </message>
    <message>
        <location line="+28"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="-49"/>
        <source>arithmetic commands (( ))</source>
        <translation>算术命令 (( ))</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>expected a command at the end</source>
        <translation>末尾应为命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expected a command before %1</source>
        <translation>%1 之前应为命令</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>unexpected word after a group</source>
        <translation>命令组之后出现意外的单词</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>process substitution</source>
        <translation>进程替换</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 without a target</source>
        <translation>%1 缺少目标</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>function definitions or arrays</source>
        <translation>函数定义或数组</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+11"/>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+126"/>
        <location line="+22"/>
        <source>array assignments</source>
        <translation>数组赋值</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>unterminated &apos;</source>
        <translation>未闭合的 &apos;</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>unterminated &quot;</source>
        <translation>未闭合的 &quot;</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>unterminated $&apos;</source>
        <translation>未闭合的 $&apos;</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>command substitution inside ${ }</source>
        <translation>${ } 中的命令替换</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>unterminated ${</source>
        <translation>未闭合的 ${</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>command substitution inside $(( ))</source>
        <translation>$(( )) 中的命令替换</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>unterminated $((</source>
        <translation>未闭合的 $((</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>unterminated `</source>
        <translation>未闭合的 `</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/networkrules.cpp" line="+44"/>
        <location filename="../agentcore/permissions/permissionpolicy.cpp" line="+27"/>
        <source>%1 in %2</source>
        <translation>%2 中的 %1</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/partialchange.cpp" line="+33"/>
        <source>at the start of the file</source>
        <translation>文件开头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>after line %1</source>
        <translation>第 %1 行之后</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lines %1-%2</source>
        <translation>第 %1-%2 行</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>... (1 more line of this hunk)</source>
        <translation>...（此变更块还有 1 行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>... (%1 more lines of this hunk)</source>
        <translation>...（此变更块还有 %1 行）</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>the file changed while the user was reviewing the change.</source>
        <translation>用户审查期间文件发生了变化。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 has mixed line endings or bytes that are not UTF-8 in the changed lines, which %2 cannot write exactly as the user kept them.</source>
        <translation>%1 的改动行中有混合的换行符或非 UTF-8 字节，%2 无法按用户保留的样子原样写入。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Rejected hunk %1 of %2 (%3 of the file before your change):</source>
        <translation>被拒绝的变更块 %1/%2（对应更改前文件的%3）：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The user approved only part of this %1 of %2: %3 of %4 hunks were applied and %5. The file now has your change without the rejected hunks; their lines are as they were before.</source>
        <translation>用户只批准了对 %2 的这次 %1 的一部分：%4 个变更块中应用了 %3 个，%5。文件现在包含你的更改，但不含被拒绝的变更块；那些行保持原样。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>1 was rejected</source>
        <translation>1 个被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 were rejected</source>
        <translation>%1 个被拒绝</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/editedchange.cpp" line="+64"/>
        <source>... (1 more line of the user&apos;s diff: Read the file for the rest)</source>
        <translation>……（用户的 diff 还有 1 行：其余内容请读取文件）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>... (%1 more lines of the user&apos;s diff: Read the file for the rest)</source>
        <translation>……（用户的 diff 还有 %1 行：其余内容请读取文件）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 is no longer as they reviewed it: %2</source>
        <translation>%1 已不再是用户审查时的样子：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 changed on disk while the user was reviewing the change.</source>
        <translation>用户审查这次更改时，%1 在磁盘上被修改了。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 cannot write the user&apos;s version of %2 exactly (%3).</source>
        <translation>%1 无法准确写入用户版本的 %2（%3）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>mixed line endings or bytes that are not UTF-8</source>
        <translation>混合的换行符，或不是 UTF-8 的字节</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The user edited your proposed %1 of %2 before approving it: %2 now has their version, not yours. What they changed against your proposal (--- your proposal, +++ what was written):</source>
        <translation>用户在批准之前编辑了你提议的对 %2 的这次 %1：%2 现在是用户的版本，而不是你的。用户相对于你的提议所做的更改（--- 你的提议，+++ 实际写入的内容）：</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../agentcore/permissions/partialchange.cpp" line="+3"/>
        <location filename="../agentcore/permissions/permissionmiddleware.cpp" line="+315"/>
        <location filename="../agentcore/permissions/shellwritesreview.cpp" line="+159"/>
        <source>Their feedback: %1</source>
        <translation>用户的反馈：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your next edit of %1 starts from the file as it is now (your proposal with this diff applied); do not undo the user&apos;s changes unless they ask.</source>
        <translation>你对 %1 的下一次编辑要从文件现在的样子开始（即你的提议应用了这个 diff 之后）；除非用户要求，不要撤销用户的更改。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Nothing was written: the user edited this %1 of %2 before approving it, but their version could not be applied: %3</source>
        <translation>没有写入任何内容：用户在批准之前编辑了对 %2 的这次 %1，但无法应用用户的版本：%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read %1 again. The user wanted your proposal with these changes (--- your proposal, +++ their version):</source>
        <translation>请重新读取 %1。用户想要的是你的提议加上这些更改（--- 你的提议，+++ 用户的版本）：</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/partialchange.cpp" line="+1"/>
        <source>Do not propose the rejected changes again as they were: if one is still needed, explain why and ask the user, or solve it another way. %1 is not what your change would have made it: Read it again before editing near these lines.</source>
        <translation>不要原样再次提议被拒绝的更改：如果仍然需要其中某项，请说明原因并询问用户，或换一种方法解决。%1 与你的更改本应产生的结果不同：在这些行附近编辑之前，请重新 Read。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Nothing was written: the user approved part of this %1 of %2, but applying the hunks they kept failed: %3</source>
        <translation>未写入任何内容：用户批准了对 %2 的这次 %1 的一部分，但应用其保留的代码块失败：%3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing was written: the user approved part of this %1 of %2, but %2 is no longer as they reviewed it: %3</source>
        <translation>没有写入任何内容：用户批准了对 %2 的这次 %1 的一部分，但 %2 已不再是用户审查时的样子：%3</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Read %1 again; if you redo the change, leave out the hunks the user rejected:</source>
        <translation>请重新 Read %1；如果重做这项更改，请去掉用户拒绝的变更块：</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/pathcapability.cpp" line="+63"/>
        <location filename="../agentcore/permissions/permissionpolicy.cpp" line="+486"/>
        <source>%1 is inside a .git folder; git&apos;s own files are never changed by tools.</source>
        <translation>%1 位于 .git 文件夹内；工具从不修改 git 自身的文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is outside the repository (%2); only files inside the repository%3 can be changed.</source>
        <translation>%1 在仓库（%2）之外；只能修改仓库%3内的文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> and its additional directories</source>
        <translation>及其附加目录</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Reading %1 needs the user&apos;s approval: it is outside the repository (%2).</source>
        <translation>读取 %1 需要用户批准：它在仓库（%2）之外。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionbroker.cpp" line="+51"/>
        <location line="+20"/>
        <source>The window closed before the user answered.</source>
        <translation>用户回答之前窗口已关闭。</translation>
    </message>
    <message>
        <location filename="../agentcore/ai/demoscript.cpp" line="-387"/>
        <location filename="../agentcore/permissions/permissionmiddleware.cpp" line="-4"/>
        <source>The user denied %1.</source>
        <translation>用户拒绝了%1。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionmiddleware.cpp" line="-206"/>
        <source>no command analysis is available</source>
        <translation>没有可用的命令分析</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Shell writes are not reviewed: nobody can be asked in this run. Commands a rule allows write to the repository directly; the checkpoint taken before each one is the way back (agentdesk --rewind).</source>
        <translation>shell 命令的写入不会经过审查：本次运行中无人可问。规则允许的命令直接写入仓库；每条命令之前创建的检查点可用于恢复（agentdesk --rewind）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Shell writes are not reviewed: %1. Commands run as before and write to the repository directly.</source>
        <translation>shell 命令的写入不会经过审查：%1。命令照常运行，直接写入仓库。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>the command was stopped</source>
        <translation>命令已被停止</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the review was stopped</source>
        <translation>审查已被停止</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>%1; it runs in the background, so what it writes cannot be reviewed when it ends: once approved, it writes to the repository directly</source>
        <translation>%1；它在后台运行，因此无法在它结束时审查它写入的内容：一经批准，它会直接写入仓库</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>this %1 of %2</source>
        <translation>对 %2 的这次 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this Bash command (%1)</source>
        <translation>这条 Bash 命令（%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this %1 call</source>
        <translation>这次 %1 调用</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The user denied %1: %2.</source>
        <translation>用户拒绝了%1：%2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Do not retry it unchanged; if the reason is unclear, ask the user.</source>
        <translation>不要原样重试；如果不清楚原因，请询问用户。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Denied %1: %2, and nobody can be asked. No mode or rule allows it; change the settings yourself.</source>
        <translation>已拒绝%1：%2，且无人可以询问。没有任何模式或规则能允许它；请自行修改设置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Permission denied: %1: %2, and nobody can be asked in this session. Do not retry it; finish and tell the user which setting to change.</source>
        <translation>权限被拒绝：%1：%2，且本会话中无人可以询问。不要重试；请结束并告诉用户需要修改哪项设置。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Denied %1: it needs approval (%2) and nobody can be asked. Allow it with a rule in .agentdesk/settings.json or choose another permission mode.</source>
        <translation>已拒绝%1：它需要批准（%2），但无人可问。请在 .agentdesk/settings.json 中用规则允许它，或选择其他权限模式。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Permission denied: %1 needs the user&apos;s approval (%2), and nobody can be asked in this session. Do not retry it; continue without it, or finish and tell the user which permission you need.</source>
        <translation>权限被拒绝：%1 需要用户批准（%2），而本会话中无人可问。不要重试；请在没有它的情况下继续，或者结束并告诉用户你需要哪项权限。</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Aborted while waiting for the user to approve %1.</source>
        <translation>等待用户批准%1时被中止。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>they edited the change back to the file as it is</source>
        <translation>他们把更改编辑回了文件现在的样子</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>they rejected the only hunk of the change</source>
        <translation>用户拒绝了这项更改唯一的变更块</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>they rejected all %1 hunks of the change</source>
        <translation>用户拒绝了这项更改的全部 %1 个变更块</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Permission denied: %1 Do not retry the same call; find another way or ask the user.</source>
        <translation>权限被拒绝：%1 不要重试同样的调用；请另想办法或询问用户。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionmode.cpp" line="+12"/>
        <location line="+8"/>
        <source>Ask before changes</source>
        <translation>更改前询问</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Accept edits</source>
        <translation>自动接受编辑</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Plan (read-only)</source>
        <translation>计划（只读）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bypass permissions</source>
        <translation>跳过权限检查</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionpolicy.cpp" line="-177"/>
        <source>%1 Its permission rules were not loaded.</source>
        <translation>%1 其中的权限规则未加载。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>%1 asks for bypass mode; a shared project file cannot turn permission checks off (use settings.local.json or the command line). Ignored.</source>
        <translation>%1 要求使用跳过权限模式；共享的项目文件不能关闭权限检查（请使用 settings.local.json 或命令行）。已忽略。</translation>
    </message>
    <message>
        <location line="+150"/>
        <source>%1 is outside the repository (%2); only files inside it (and its additional directories) can be changed.</source>
        <translation>%1 在仓库（%2）之外；只能修改仓库（及其附加目录）内的文件。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the command %1; commands may only change files inside the repository (%2), in every permission mode. Write inside it, with literal paths.</source>
        <translation>该命令%1；在任何权限模式下，命令都只能修改仓库（%2）内的文件。请在仓库内写入，并使用字面路径。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>denied by %1</source>
        <translation>由 %1 拒绝</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Plan mode: only read-only commands run; this command could not be analysed%1. Use plain read-only commands (ls, cat, grep, git status/diff/log) or the Read, Grep and Glob tools.</source>
        <translation>计划模式：只运行只读命令；此命令无法分析%1。请使用简单的只读命令（ls、cat、grep、git status/diff/log），或 Read、Grep 和 Glob 工具。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Plan mode: only read-only commands run; this one may change something, write a file or read outside the repository. Present your plan; the user leaves plan mode to let you carry it out.</source>
        <translation>计划模式：只运行只读命令；此命令可能改动内容、写入文件或读取仓库之外的内容。请提出你的计划；用户退出计划模式后你再执行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Plan mode is on: %1 is not available, nothing may be changed yet. Read and search what you need, then present your plan; the user leaves plan mode to let you carry it out.</source>
        <translation>计划模式已开启：%1 不可用，暂时不能做任何更改。请阅读和搜索所需内容，然后提出你的计划；用户退出计划模式后你才能执行。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>asks by %1</source>
        <translation>由 %1 要求询问</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>allowed by %1</source>
        <translation>由 %1 允许</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>bypass mode</source>
        <translation>跳过权限模式</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>reads %1, outside the repository</source>
        <translation>读取仓库之外的 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the command could not be analysed</source>
        <translation>无法分析该命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the command could not be analysed: %1</source>
        <translation>无法分析该命令：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>read-only command</source>
        <translation>只读命令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bash asks in “%1” mode</source>
        <translation>在“%1”模式下，Bash 需要询问</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>allowed in “%1” mode</source>
        <translation>在“%1”模式下允许</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 asks in “%2” mode</source>
        <translation>在“%2”模式下，%1 需要询问</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 changes AgentDesk&apos;s own settings, which always needs the user&apos;s approval</source>
        <translation>%1 会修改 AgentDesk 自身的设置，这总是需要用户批准</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the command may change AgentDesk&apos;s own settings, which always needs the user&apos;s approval</source>
        <translation>该命令可能修改 AgentDesk 自身的设置，这总是需要用户批准</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the command may change git&apos;s configuration or hooks (%1), which always needs the user&apos;s approval</source>
        <translation>该命令可能修改 git 配置或钩子（%1），这总是需要用户批准</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Plan mode is on: you can read and search, but not edit or write files. Bash runs only read-only commands (ls, cat, grep, find, git status/diff/log, ...) without writing redirections or paths outside the repository; any other command is refused. Work out a plan and present it; the user will switch plan mode off to let you carry it out.</source>
        <translation>计划模式已开启：你可以阅读和搜索，但不能编辑或写入文件。Bash 只运行只读命令（ls、cat、grep、find、git status/diff/log 等），不得有写入的重定向或仓库之外的路径；其他命令都会被拒绝。请制定计划并提出；用户关闭计划模式后你再执行。</translation>
    </message>
    <message>
        <source>Bash asks in %1 mode</source>
        <translation type="vanished">在当前权限模式（%1）下，Bash 需要询问</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>reads are allowed</source>
        <translation>允许读取</translation>
    </message>
    <message>
        <source>acceptEdits mode</source>
        <translation type="vanished">acceptEdits 模式</translation>
    </message>
    <message>
        <source>%1 asks in %2 mode</source>
        <translation type="vanished">在当前权限模式（%2）下，%1 需要询问</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Plan mode is on: you can read and search, but not edit files or run commands. Work out a plan and present it; the user will switch plan mode off to let you carry it out.</source>
        <translation>计划模式已开启：你可以阅读和搜索，但不能编辑文件或运行命令。请制定并提出计划；用户关闭计划模式后你才能执行。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionrule.cpp" line="+122"/>
        <source>&quot;%1&quot; is not a permission rule; write Tool or Tool(specifier), e.g. Bash(npm test:*) or Edit(src/**).</source>
        <translation>“%1”不是权限规则；请写成 Tool 或 Tool(specifier)，例如 Bash(npm test:*) 或 Edit(src/**)。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&quot;%1&quot;: only MCP tool names take a trailing *, e.g. mcp__github__*.</source>
        <translation>“%1”：只有 MCP 工具名称可以带末尾的 *，例如 mcp__github__*。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&quot;%1&quot; has an empty command prefix; write Bash to mean every command.</source>
        <translation>“%1”的命令前缀为空；要表示所有命令，请写 Bash。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionsessionstate.cpp" line="+82"/>
        <source>The session&apos;s permission rule &quot;%1&quot; was not restored: %2</source>
        <translation>会话的权限规则“%1”未能恢复：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown kind</source>
        <translation>未知类型</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/permissionsettings.cpp" line="+46"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is not valid JSON (%2 at offset %3); fix it by hand, AgentDesk does not change it.</source>
        <translation>%1 不是有效的 JSON（%2，位于偏移 %3）；请手动修正，AgentDesk 不会修改它。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 does not hold a JSON object; fix it by hand, AgentDesk does not change it.</source>
        <translation>%1 的内容不是 JSON 对象；请手动修正，AgentDesk 不会修改它。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;permissions&quot; in %1 is not an object; fix it by hand, AgentDesk does not change it.</source>
        <translation>%1 中的 &quot;permissions&quot; 不是对象；请手动修正，AgentDesk 不会修改它。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>&quot;permissions.%1&quot; in %2 is not a list; it was ignored.</source>
        <translation>%2 中的 &quot;permissions.%1&quot; 不是列表，已忽略。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>an entry is not a string</source>
        <translation>有一项不是字符串</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+57"/>
        <source>%1: %2 (skipped)</source>
        <translation>%1：%2（已跳过）</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>%1: unknown defaultMode &quot;%2&quot; (use default, acceptEdits, plan or bypass); ignored.</source>
        <translation>%1：未知的 defaultMode &quot;%2&quot;（可用 default、acceptEdits、plan 或 bypass），已忽略。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: defaultMode is not a string; ignored.</source>
        <translation>%1：defaultMode 不是字符串，已忽略。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&quot;permissions.network&quot; in %1 is not a list; it was ignored.</source>
        <translation>%1 中的 &quot;permissions.network&quot; 不是列表，已忽略。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: network rules are about Bash commands, like Bash(npm install:*)</source>
        <translation>%1：网络规则针对的是 Bash 命令，例如 Bash(npm install:*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a network entry is not a string</source>
        <translation>某个网络条目不是字符串</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1: a sandboxReadable entry is not a path; skipped.</source>
        <translation>%1：sandboxReadable 中有一项不是路径，已跳过。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: sandboxReadable is not a list; ignored.</source>
        <translation>%1：sandboxReadable 不是列表，已忽略。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: an additionalDirectories entry is not a path; skipped.</source>
        <translation>%1：additionalDirectories 中有一项不是路径，已跳过。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: additionalDirectories is not a list; ignored.</source>
        <translation>%1：additionalDirectories 不是列表，已忽略。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&quot;permissions.%1&quot; in %2 is not a list; fix it by hand, AgentDesk does not change it.</source>
        <translation>%2 中的 &quot;permissions.%1&quot; 不是列表；请手动修正，AgentDesk 不会修改它。</translation>
    </message>
    <message>
        <location line="+20"/>
        <location filename="../agentcore/permissions/projecttrust.cpp" line="+105"/>
        <source>Cannot create the folder of %1.</source>
        <translation>无法创建 %1 所在的文件夹。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+6"/>
        <location filename="../agentcore/permissions/projecttrust.cpp" line="+8"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/projecttrust.cpp" line="-25"/>
        <source>%1 is not valid JSON; fix or remove it by hand, AgentDesk does not change it.</source>
        <translation>%1 不是有效的 JSON；请手动修复或删除它，AgentDesk 不会修改它。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/shellwritesreview.cpp" line="-138"/>
        <source>and %1 more</source>
        <translation>以及另外 %1 项</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>the command changed 1 path; only what you accept reaches the repository</source>
        <translation>命令更改了 1 个路径；只有你接受的内容才会写入仓库</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the command changed %1 paths; only what you accept reaches the repository</source>
        <translation>命令更改了 %1 个路径；只有你接受的内容才会写入仓库</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>modified; hunk %1 of %2 rejected</source>
        <translation>修改；拒绝了变更块 %1（共 %2 个）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>modified; hunks %1 of %2 rejected</source>
        <translation>修改；拒绝了变更块 %1（共 %2 个）</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The command ran on a copy of the repository; the user reviewed the 1 change it made.</source>
        <translation>命令在仓库的副本上运行；用户审查了它所做的 1 处更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The command ran on a copy of the repository; the user reviewed the %1 changes it made.</source>
        <translation>命令在仓库的副本上运行；用户审查了它所做的 %1 处更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>None of them could be applied: %1.</source>
        <translation>没有一项能够应用：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Applied to the repository: %1.</source>
        <translation>已应用到仓库：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rejected by the user, not in the repository: %1.</source>
        <translation>被用户拒绝，未写入仓库：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Accepted but not applied: %1.</source>
        <translation>已接受但未应用：%1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>What was not applied is not in the repository: read the files again before relying on them, and do not redo the rejected changes unless the user asks.</source>
        <translation>未应用的内容不在仓库中：依赖这些文件之前请重新读取；除非用户要求，否则不要重做被拒绝的更改。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The command ran on a copy of the repository and its changes were discarded (%1); none reached the repository: %2.</source>
        <translation>命令在仓库的副本上运行，其更改已被丢弃（%1）；没有任何更改写入仓库：%2。</translation>
    </message>
    <message>
        <location filename="../agentcore/permissions/shfmtparser.cpp" line="+29"/>
        <source>an unknown redirection</source>
        <translation>未知的重定向</translation>
    </message>
</context>
<context>
    <name>AgentCore::Session</name>
    <message>
        <location filename="../agentcore/session/sessionlog.cpp" line="+62"/>
        <source>%1 is not an AgentDesk session (its first line is not a session header). It was left as it is.</source>
        <translation>%1 不是 AgentDesk 会话（第一行不是会话头）。已保持原样。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 was written by a newer AgentDesk (session version %2). It was left as it is.</source>
        <translation>%1 由更新版本的 AgentDesk 写入（会话版本 %2）。已保持原样。</translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+488"/>
        <location filename="../agentcore/session/sessionstore.cpp" line="+433"/>
        <source>another process</source>
        <translation>另一个进程</translation>
    </message>
    <message>
        <location line="-487"/>
        <location filename="../agentcore/session/sessionstore.cpp" line="-1"/>
        <source>process %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>process %1 on %2</source>
        <translation>%2 上的进程 %1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Cannot read the session %1: %2</source>
        <translation>无法读取会话 %1：%2</translation>
    </message>
    <message>
        <location line="+342"/>
        <source>The last line of %1 was cut off (AgentDesk stopped while writing it) and was skipped.</source>
        <translation>%1 的最后一行不完整（AgentDesk 在写入时停止了），已跳过。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Line %1 of %2 could not be read and was skipped.</source>
        <translation>无法读取 %2 的第 %1 行，已跳过。</translation>
    </message>
    <message>
        <location line="+139"/>
        <source>Cannot create the session %1: its folder cannot be made.</source>
        <translation>无法创建会话 %1：无法创建其文件夹。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The session %1 is open in another AgentDesk window or headless run (%2); only one can add to it at a time.</source>
        <translation>会话 %1 已在另一个 AgentDesk 窗口或无界面运行中打开（%2）；同一时间只能有一个向其追加内容。</translation>
    </message>
    <message>
        <source>The session %1 is open in another AgentDesk window (%2); only one window can add to it.</source>
        <translation type="vanished">会话 %1 已在另一个 AgentDesk 窗口中打开（%2）；只有一个窗口可以向其中添加内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot lock the session %1 (%2 cannot be written).</source>
        <translation>无法锁定会话 %1（无法写入 %2）。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Cannot create the session %1: %2</source>
        <translation>无法创建会话 %1：%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Cannot write to the session %1: the output of the tool call %2 was not read back from its session file first.</source>
        <translation>无法写入会话 %1：工具调用 %2 的输出未先从其会话文件中读回。</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>Cannot write to the session %1: %2</source>
        <translation>无法写入会话 %1：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cannot save the session %1 to disk.</source>
        <translation>无法把会话 %1 保存到磁盘。</translation>
    </message>
    <message numerus="yes">
        <location filename="../agentcore/session/sessionrecorder.cpp" line="+257"/>
        <source>[… the first %n character(s) of the output are not kept]
</source>
        <translation>
            <numerusform>[… 输出的前 %n 个字符未保留]
</numerusform>
        </translation>
    </message>
    <message>
        <location line="+193"/>
        <source>Interrupted: AgentDesk ended while this tool call was running (the window was closed or the program crashed). Whether it finished is unknown: check its effects before running it again.</source>
        <translation>已中断：此工具调用运行时 AgentDesk 结束了（窗口被关闭或程序崩溃）。不知道它是否已完成：再次运行前请检查它的效果。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Interrupted: AgentDesk ended while this answer was being written (the window was closed or the program crashed). It is cut off here.</source>
        <translation>已中断：撰写此回答时 AgentDesk 结束了（窗口被关闭或程序崩溃）。回答在此处截断。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Interrupted: AgentDesk ended during this task (the window was closed or the program crashed) before it finished.</source>
        <translation>已中断：此任务完成之前 AgentDesk 结束了（窗口被关闭或程序崩溃）。</translation>
    </message>
    <message>
        <location filename="../agentcore/session/sessionstore.cpp" line="-281"/>
        <source>Cannot read it: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>It is not an AgentDesk session; it was left as it is.</source>
        <translation>这不是 AgentDesk 会话，已保持原样。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It was written by a newer AgentDesk; it was left as it is.</source>
        <translation>它由更新版本的 AgentDesk 写入，已保持原样。</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message numerus="yes">
        <location line="+38"/>
        <source>The session has no message %1: its active branch has %n message(s).</source>
        <translation>
            <numerusform>会话中没有第 %1 条消息：其当前分支共有 %n 条消息。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The session has no message with the id %1.</source>
        <translation>会话中没有 ID 为 %1 的消息。</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>%1 (fork)</source>
        <translation>%1（分叉）</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Cannot delete the session %1: it is open in another AgentDesk window or headless run (%2).</source>
        <translation>无法删除会话 %1：它已在另一个 AgentDesk 窗口或无界面运行中打开（%2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot delete the session %1: its lock file cannot be written.</source>
        <translation>无法删除会话 %1：无法写入其锁文件。</translation>
    </message>
    <message>
        <source>Cannot delete the session %1: it is open in another AgentDesk window (%2).</source>
        <translation type="vanished">无法删除会话 %1：它已在另一个 AgentDesk 窗口中打开（%2）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot delete the session %1: %2</source>
        <translation>无法删除会话 %1：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/session/sessionpictures.cpp" line="+139"/>
        <source>A picture could not be kept beside the session (%1); it stays in the session file.</source>
        <translation>无法将一张图片保存在会话旁（%1）；它仍保留在会话文件中。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>[picture %1 is missing: it was kept in %2]</source>
        <extracomment>In a resumed conversation, where a picture was: &quot;[picture 3f2a….png is missing: it was kept in /home/u/.local/share/AgentDesk/sessions/…/x.images]&quot;</extracomment>
        <translation>[图片 %1 已丢失：它原先保存在 %2]</translation>
    </message>
    <message>
        <location filename="../agentcore/session/sessionpages.cpp" line="+127"/>
        <source>The session file %1 holds no output of the tool call %2.</source>
        <translation>会话文件 %1 中没有工具调用 %2 的输出。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>This output can no longer be read from the session file %1: %2</source>
        <translation>此输出已无法从会话文件 %1 中读取：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+6"/>
        <source>the file is shorter than it was.</source>
        <translation>文件比原来短了。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+8"/>
        <location line="+6"/>
        <source>the file was changed since it was written.</source>
        <translation>文件在写入后被改动过。</translation>
    </message>
</context>
<context>
    <name>AgentCore::Tools</name>
    <message>
        <source>Timeout in milliseconds (default %1, at most %2).</source>
        <translation type="vanished">超时时间，单位毫秒（默认 %1，最多 %2）。</translation>
    </message>
    <message>
        <source>Runs a shell command with /bin/bash -c in the repository root and returns its output (stdout and stderr together) and exit code; a non-zero exit code is reported as an error. Each call starts a fresh shell: a cd or a variable does not carry over to the next call. There is no terminal and stdin is empty, so interactive programs (editors, pagers, prompts) cannot be used; pass non-interactive flags (e.g. git --no-pager, -y). Commands stop after the timeout (default %1 minutes, at most %2); processes left running in the background are terminated when the command ends. Long output is cut to its first %3 KiB and last %4 KiB; the full output is saved to a log file named in the result. Use the Read, Edit, Write, Grep, Glob and LS tools rather than cat, sed, echo &gt;, grep, find or ls.</source>
        <translation type="vanished">在仓库根目录用 /bin/bash -c 运行一条 shell 命令，返回其输出（stdout 与 stderr 合并）和退出码；非零退出码按错误报告。每次调用都启动一个新的 shell：cd 和变量不会延续到下一次调用。没有终端，stdin 为空，因此无法使用交互式程序（编辑器、分页器、提示输入）；请传入非交互参数（例如 git --no-pager、-y）。命令超时后会被停止（默认 %1 分钟，最多 %2）；命令结束时，留在后台运行的进程会被终止。过长的输出只保留开头 %3 KiB 和结尾 %4 KiB；完整输出保存在结果中注明的日志文件里。请使用 Read、Edit、Write、Grep、Glob 和 LS 工具，而不是 cat、sed、echo &gt;、grep、find 或 ls。</translation>
    </message>
    <message>
        <source>The command to run.</source>
        <translation type="vanished">要运行的命令。</translation>
    </message>
    <message>
        <source>What the command does, in a few words, for the user.</source>
        <translation type="vanished">用几个词向用户说明这条命令做什么。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/bashtool.cpp" line="+615"/>
        <source>command is empty.</source>
        <translation>command 为空。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Command aborted before it started.</source>
        <translation>命令在启动前被中止。</translation>
    </message>
    <message>
        <location line="-549"/>
        <source>Command not run: the sandbox is required, but bubblewrap cannot run here: %1 Turn the sandbox requirement off in the settings (or run with --sandbox on) to run commands without it.</source>
        <translation>命令未运行：要求必须使用沙盒，但 bubblewrap 无法在此运行：%1 要在没有沙盒的情况下运行命令，请在设置中取消“必需”（或以 --sandbox on 运行）。</translation>
    </message>
    <message>
        <source>The sandbox for Bash is unavailable, so commands run without it, with your rights: %1</source>
        <translation type="vanished">Bash 的沙盒不可用，因此命令将不经沙盒、以你的权限运行：%1</translation>
    </message>
    <message>
        <location line="+332"/>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>(Ran in the sandbox: outside the repository the filesystem is read-only, and /tmp is private.)</source>
        <translation>（在沙盒中运行：仓库之外的文件系统为只读，/tmp 为私有。）</translation>
    </message>
    <message>
        <source>(Ran in the sandbox: outside the repository the filesystem is read-only, /tmp is private, and there is no network.)</source>
        <translation type="vanished">（在沙盒中运行：仓库之外的文件系统为只读，/tmp 为私有，且没有网络。）</translation>
    </message>
    <message>
        <source>Cannot start /bin/bash: %1</source>
        <translation type="vanished">无法启动 /bin/bash：%1</translation>
    </message>
    <message>
        <source>Milliseconds (default %1, at most %2).</source>
        <translation type="vanished">毫秒数（默认 %1，最多 %2）。</translation>
    </message>
    <message>
        <source>Runs a command with /bin/bash -c in the repository root; returns stdout and stderr together and the exit code (non-zero is an error). Each call is a fresh shell: cd and variables do not carry over. No terminal, empty stdin: pass non-interactive flags (git --no-pager, -y). Timeout %1 minutes (at most %2); background processes end with the command. Long output is cut to its first %3 KiB and last %4 KiB, the whole saved to a log file named in the result.</source>
        <translation type="vanished">在仓库根目录中用 /bin/bash -c 运行命令；一并返回 stdout 和 stderr 以及退出码（非零即为错误）。每次调用都是一个新的 shell：cd 和变量不会保留。没有终端，stdin 为空：请传入非交互参数（git --no-pager、-y）。超时 %1 分钟（最多 %2 分钟）；后台进程随命令一起结束。过长的输出只保留开头 %3 KiB 和末尾 %4 KiB，完整内容保存到结果中指明的日志文件。</translation>
    </message>
    <message>
        <source>The command.</source>
        <translation type="vanished">要运行的命令。</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Command not run: a background command cannot run on the overlay that reviews a command&apos;s writes, since it does not end. Run it without run_in_background, or ask the user to approve it.</source>
        <translation>命令未运行：后台命令不会结束，因此无法在用于审查命令写入的覆盖层上运行。请不带 run_in_background 运行它，或请用户批准它。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Started in the background as shell %1 (process %2). Read its output with BashOutput, stop it with KillShell; it ends with the session.</source>
        <translation>已作为 shell %1（进程 %2）在后台启动。用 BashOutput 读取其输出，用 KillShell 停止它；它会随会话结束。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Started in the background as shell %1, and already ended: %2.</source>
        <translation>已作为 shell %1 在后台启动，且已经结束：%2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>(It runs in the sandbox without network: a server it starts cannot be reached from outside the sandbox, not even by your next Bash command. The user can allow the network for such commands with a network rule in the settings.)</source>
        <translation>（它在没有网络的沙盒中运行：它启动的服务器无法从沙盒外访问，即使是你的下一条 Bash 命令也不行。用户可以在设置中用网络规则为这类命令开放网络。）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>(no output yet)</source>
        <translation>（尚无输出）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>[... %1 bytes left out; all of it is in %2 ...]</source>
        <translation>[... 省略了 %1 字节；完整内容见 %2 ...]</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Output so far:</source>
        <translation>目前的输出：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Milliseconds (default %1).</source>
        <translation>毫秒（默认 %1）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A few words for the user.</source>
        <translation>给用户看的几个词。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runs a command with bash -c in the repository root; returns stdout and stderr together and the exit code (non-zero is an error). Each call is a fresh shell (cd and variables do not carry over) without terminal or stdin: pass non-interactive flags (git --no-pager, -y). Background processes end with the command. Long output keeps its first %1 KiB and last %2 KiB, the whole in a log file named in the result.</source>
        <translation>在仓库根目录用 bash -c 运行命令；一并返回 stdout 和 stderr 以及退出码（非零即为错误）。每次调用都是新的 shell（cd 和变量不会保留），没有终端也没有 stdin：请传入非交互选项（git --no-pager、-y）。后台进程随命令结束。过长的输出保留开头 %1 KiB 和结尾 %2 KiB，完整内容在结果中指明的日志文件里。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Return at once with a shell id: BashOutput reads its output, KillShell stops it. It ends with the session.</source>
        <translation>立即返回一个 shell id：BashOutput 读取其输出，KillShell 停止它。它随会话结束。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>For a server or watcher that should keep running, use run_in_background (at most %1 at once).</source>
        <translation>对于需要持续运行的服务器或监视程序，请使用 run_in_background（同时最多 %1 个）。</translation>
    </message>
    <message>
        <source>What it does, in a few words, for the user.</source>
        <translation type="vanished">用几个词向用户说明它做什么。</translation>
    </message>
    <message>
        <source>Run it in the background (a dev server, a watcher) and return at once with a shell id: BashOutput reads its output, KillShell stops it. It ends with the session.</source>
        <translation type="vanished">在后台运行（如开发服务器、文件监视程序），并立即返回一个 shell id：BashOutput 读取其输出，KillShell 停止它。它会随会话结束。</translation>
    </message>
    <message>
        <source>For a server or a watcher that should keep running, use run_in_background (at most %1 at once).</source>
        <translation type="vanished">对于需要持续运行的服务器或文件监视程序，请使用 run_in_background（同时最多 %1 个）。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>run_in_background is not available here: run the command without it.</source>
        <translation>此处不支持 run_in_background：请不带它运行命令。</translation>
    </message>
    <message>
        <location line="-326"/>
        <source>(no output)</source>
        <translation>（无输出）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Command timed out after %1 ms; its processes were terminated.</source>
        <translation>命令在 %1 毫秒后超时，其进程已被终止。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Command aborted; its processes were terminated.</source>
        <translation>命令已中止，其进程已被终止。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Command killed by signal %1.</source>
        <translation>命令被信号 %1 终止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(Processes the command left running in the background were terminated.)</source>
        <translation>（命令留在后台运行的进程已被终止。）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>(The repository&apos;s .git folder was read-only for this command: only git&apos;s own work (git add, commit, checkout, merge, ...), run as git commands on their own or with read-only ones, may change it.)</source>
        <translation>（对此命令而言，仓库的 .git 文件夹是只读的：只有 git 自身的操作（git add、commit、checkout、merge 等）才能修改它，且须作为单独的 git 命令运行，或只与只读命令一起运行。）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>(Ran in the sandbox: outside the repository the filesystem is read-only, /tmp is private, and there is no network; the user can allow it for such commands with a network rule in the settings.)</source>
        <translation>（在沙盒中运行：仓库之外的文件系统为只读，/tmp 为私有，且没有网络；用户可以在设置中用网络规则为这类命令开放网络。）</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/builtinsearcher.cpp" line="+181"/>
        <source>Invalid regular expression: %1 (at offset %2).</source>
        <translation>正则表达式无效：%1（位于偏移 %2）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/edittool.cpp" line="+37"/>
        <source>old_string was not found in %1.</source>
        <translation>在 %1 中找不到 old_string。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It seems to start with a line number from Read&apos;s output; the number and the tab after it are not part of the file.</source>
        <translation>它似乎以 Read 输出中的行号开头；行号及其后的制表符不属于文件内容。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Lines %1-%2 match it except for whitespace (indentation, tabs, trailing spaces or line breaks):</source>
        <translation>第 %1-%2 行除空白（缩进、制表符、行尾空格或换行）外与之相同：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The most similar text is at lines %1-%2:</source>
        <translation>最相近的文本位于第 %1-%2 行：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No similar text was found either.</source>
        <translation>也没有找到相近的文本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy old_string exactly from the file (Read it again if it may have changed), without the line-number prefix.</source>
        <translation>请从文件中原样复制 old_string（如果文件可能已变化，请重新 Read），不要带行号前缀。</translation>
    </message>
    <message>
        <source>Replace every occurrence (default false: old_string must be unique).</source>
        <translation type="vanished">替换所有出现之处（默认 false：old_string 必须唯一）。</translation>
    </message>
    <message>
        <source>Replaces exact text in an existing file. You must Read the file in this session first, and it must not have changed since (Read it again if a command or the user may have changed it). old_string must match the file exactly, whitespace and indentation included, and must occur exactly once unless replace_all is true: include enough surrounding lines to make it unique. Do not include the line-number prefix of Read&apos;s output. Line endings (CRLF or LF) and a byte order mark are kept as the file has them. To create a file or replace all of it, use Write.</source>
        <translation type="vanished">替换现有文件中的精确文本。你必须先在本会话中 Read 该文件，并且此后文件没有变化（如果命令或用户可能改动过它，请重新 Read）。old_string 必须与文件内容完全一致，包括空白和缩进，并且除非 replace_all 为 true，否则必须恰好出现一次：请包含足够多的上下文行使其唯一。不要包含 Read 输出中的行号前缀。换行符（CRLF 或 LF）和字节顺序标记保持文件原样。要创建文件或替换整个文件，请使用 Write。</translation>
    </message>
    <message>
        <source>The file to change.</source>
        <translation type="vanished">要修改的文件。</translation>
    </message>
    <message>
        <source>The exact text to replace.</source>
        <translation type="vanished">要替换的精确文本。</translation>
    </message>
    <message>
        <source>The text to put in its place (may be empty).</source>
        <translation type="vanished">替换成的文本（可以为空）。</translation>
    </message>
    <message>
        <source>Replace every occurrence (default false).</source>
        <translation type="vanished">替换所有出现之处（默认 false）。</translation>
    </message>
    <message>
        <source>Replaces exact text in a file you read in this session, unchanged since (read it again if a command may have changed it). old_string must match the file exactly, whitespace included, without Read&apos;s line-number prefix, and occur once unless replace_all: include enough lines to make it unique. The file&apos;s line endings and byte order mark are kept.</source>
        <translation type="vanished">替换你在本会话中读取过、且此后未变化的文件中的精确文本（如果某条命令可能改动了它，请重新读取）。old_string 必须与文件内容完全一致（包括空白），不含 Read 的行号前缀，并且除非使用 replace_all，否则只能出现一次：请包含足够多的行使其唯一。文件的换行符和字节顺序标记保持不变。</translation>
    </message>
    <message>
        <source>The replacement (may be empty).</source>
        <translation type="vanished">替换后的文本（可以为空）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Replaces exact text in a file read in this session and unchanged since (read it again if a command may have changed it). old_string must match exactly, whitespace included, without Read&apos;s line numbers, and occur once unless replace_all: include enough lines to make it unique. Line endings and byte order mark are kept.</source>
        <translation>替换本会话中读过且此后未改动的文件中的确切文本（如果命令可能改动了它，请重新读取）。old_string 必须完全匹配（包括空白），不含 Read 的行号，并且除非使用 replace_all，否则只能出现一次：请包含足够多的行使其唯一。保留换行符和字节顺序标记。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>May be empty.</source>
        <translation>可以为空。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>File not found: %1. To create a file, use Write.</source>
        <translation>找不到文件：%1。要创建文件，请使用 Write。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../agentcore/tools/writetool.cpp" line="+53"/>
        <source>%1 is a directory, not a file.</source>
        <translation>%1 是目录，不是文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>old_string is empty. Give the exact text to replace, or use Write to replace the whole file.</source>
        <translation>old_string 为空。请给出要替换的精确文本，或使用 Write 替换整个文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>old_string and new_string are the same; there is nothing to change.</source>
        <translation>old_string 与 new_string 相同，没有需要修改的内容。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is a binary file; Edit changes text files only.</source>
        <translation>%1 是二进制文件；Edit 只能修改文本文件。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>old_string occurs %1 times in %2 (at lines %3). Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.</source>
        <translation>old_string 在 %2 中出现了 %1 次（位于第 %3 行）。请包含更多上下文行使其唯一，或将 replace_all 设为 true 以修改所有出现之处。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Edited %1: replaced 1 occurrence at line %2.</source>
        <translation>已编辑 %1：替换了第 %2 行的 1 处。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edited %1: replaced %2 occurrences.</source>
        <translation>已编辑 %1：替换了 %2 处。</translation>
    </message>
    <message>
        <source>Finds files by path pattern. `*` and `?` match within one path component, `**` matches any number of directories, `{a,b}` alternatives, `[abc]` sets: `**/*.cpp` (every C++ file), `src/**/test_*.py`, `*.{json,yaml}` (top level only). The pattern is matched against paths relative to path (default: the repository root). Files ignored by .gitignore and .git/ are skipped. Returns up to %1 paths relative to the repository root, sorted by path. Use Grep to search file contents.</source>
        <translation type="vanished">按路径模式查找文件。`*` 和 `?` 在单个路径段内匹配，`**` 匹配任意层目录，`{a,b}` 表示多选一，`[abc]` 表示字符集：`**/*.cpp`（所有 C++ 文件）、`src/**/test_*.py`、`*.{json,yaml}`（仅顶层）。模式匹配的是相对于 path 的路径（默认：仓库根目录）。跳过 .gitignore 忽略的文件和 .git/。最多返回 %1 个相对于仓库根目录的路径，按路径排序。要搜索文件内容，请使用 Grep。</translation>
    </message>
    <message>
        <source>The glob pattern, e.g. `**/*.ts`.</source>
        <translation type="vanished">glob 模式，例如 `**/*.ts`。</translation>
    </message>
    <message>
        <source>The directory to search in (default: the repository root).</source>
        <translation type="vanished">要搜索的目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/globtool.cpp" line="+42"/>
        <source>Finds files by path pattern: `*` and `?` match within a path component, `**` any number of directories; `{a,b}`, `[abc]`; e.g. `**/*.cpp`, `src/**/test_*.py`. Matched against paths relative to path; files ignored by .gitignore and .git/ are skipped. Returns up to %1 paths relative to the repository root, sorted.</source>
        <translation>按路径模式查找文件：`*` 和 `?` 在一个路径组成部分内匹配，`**` 匹配任意层目录；支持 `{a,b}`、`[abc]`；例如 `**/*.cpp`、`src/**/test_*.py`。匹配的是相对于 path 的路径；跳过 .gitignore 忽略的文件和 .git/。返回最多 %1 个相对于仓库根目录的路径，已排序。</translation>
    </message>
    <message>
        <source>The glob pattern.</source>
        <translation type="vanished">glob 模式。</translation>
    </message>
    <message>
        <source>The directory to search (default: the repository root).</source>
        <translation type="vanished">要搜索的目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <location filename="../agentcore/tools/lstool.cpp" line="+37"/>
        <source>Default: the repository root.</source>
        <translation>默认：仓库根目录。</translation>
    </message>
    <message>
        <location line="+13"/>
        <location filename="../agentcore/tools/greptool.cpp" line="+192"/>
        <source>pattern is empty.</source>
        <translation>pattern 为空。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is not a directory.</source>
        <translation>%1 不是目录。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The pattern must be relative to path (%1).</source>
        <translation>模式必须相对于 path（%1）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 leads through a symbolic link to %2, outside the repository; Glob does not follow it. To search there, give that directory as path.</source>
        <translation>%1 经由符号链接指向仓库之外的 %2；Glob 不会跟随它。要在那里搜索，请把该目录作为 path 传入。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No files found matching %1.</source>
        <translation>没有找到匹配 %1 的文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../agentcore/tools/greptool.cpp" line="-33"/>
        <source>Found 1 file.</source>
        <translation>找到 1 个文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../agentcore/tools/greptool.cpp" line="+1"/>
        <source>Found %1 files.</source>
        <translation>找到 %1 个文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[Showing the first %1 of %2 files. Use a more specific pattern or path.]</source>
        <translation>[仅显示 %2 个文件中的前 %1 个。请使用更具体的模式或路径。]</translation>
    </message>
    <message>
        <source>files_with_matches (default): the paths of the matching files; content: the matching lines as path:line:text; count: path:number of matching lines.</source>
        <translation type="vanished">files_with_matches（默认）：匹配文件的路径；content：匹配的行，格式为 路径:行号:文本；count：路径:匹配行数。</translation>
    </message>
    <message>
        <source>content mode: show line numbers (default true).</source>
        <translation type="vanished">content 模式：显示行号（默认 true）。</translation>
    </message>
    <message>
        <source>Only the first N output lines (files, lines or counts).</source>
        <translation type="vanished">只输出前 N 行（文件、行或计数）。</translation>
    </message>
    <message>
        <source>Searches file contents with a regular expression (ripgrep syntax: `\bfoo\(`, `log.*Error`, `[A-Z]\w+Tool`; escape regex characters for a literal search). A match never spans lines. Searches the repository&apos;s files as git sees them: files ignored by .gitignore, binary files and .git/ are skipped. Results are sorted by path and relative to the repository root. Use glob to restrict the files (`*.cpp`, `src/**/*.{h,cpp}`), output_mode to choose between file names, matching lines and counts, and -A/-B/-C for context in content mode. Prefer this tool to running grep or rg in Bash.</source>
        <translation type="vanished">用正则表达式搜索文件内容（ripgrep 语法：`\bfoo\(`、`log.*Error`、`[A-Z]\w+Tool`；按字面搜索时请转义正则字符）。匹配不会跨行。按 git 所见搜索仓库文件：跳过 .gitignore 忽略的文件、二进制文件和 .git/。结果按路径排序，路径相对于仓库根目录。用 glob 限定文件（`*.cpp`、`src/**/*.{h,cpp}`），用 output_mode 选择输出文件名、匹配行或计数，在 content 模式下用 -A/-B/-C 显示上下文。优先使用本工具，而不是在 Bash 中运行 grep 或 rg。</translation>
    </message>
    <message>
        <source>The regular expression to search for.</source>
        <translation type="vanished">要搜索的正则表达式。</translation>
    </message>
    <message>
        <source>A file or directory to search (default: the repository root).</source>
        <translation type="vanished">要搜索的文件或目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <source>Only files whose path matches this glob; `!glob` excludes instead. Without a &apos;/&apos;, it matches the file name at any depth.</source>
        <translation type="vanished">只搜索路径匹配此 glob 的文件；`!glob` 表示排除。不含 &apos;/&apos; 时，匹配任意深度的文件名。</translation>
    </message>
    <message>
        <source>Case-insensitive search.</source>
        <translation type="vanished">不区分大小写搜索。</translation>
    </message>
    <message>
        <source>content mode: lines to show after each match.</source>
        <translation type="vanished">content 模式：每处匹配之后显示的行数。</translation>
    </message>
    <message>
        <source>content mode: lines to show before each match.</source>
        <translation type="vanished">content 模式：每处匹配之前显示的行数。</translation>
    </message>
    <message>
        <source>content mode: lines to show before and after each match.</source>
        <translation type="vanished">content 模式：每处匹配前后显示的行数。</translation>
    </message>
    <message>
        <source>files_with_matches (default): paths; content: path:line:text; count: path:count.</source>
        <translation type="vanished">files_with_matches（默认）：路径；content：path:line:text；count：path:count。</translation>
    </message>
    <message>
        <source>Line numbers in content mode (default true).</source>
        <translation type="vanished">content 模式下显示行号（默认 true）。</translation>
    </message>
    <message>
        <source>Only the first N output lines.</source>
        <translation type="vanished">只输出前 N 行。</translation>
    </message>
    <message>
        <source>Searches file contents with a regular expression (ripgrep syntax; escape regex characters for a literal search); a match never spans lines. Files ignored by .gitignore, binary files and .git/ are skipped. Results are sorted by path, relative to the repository root.</source>
        <translation type="vanished">用正则表达式搜索文件内容（ripgrep 语法；按字面搜索时请转义正则字符）；匹配不会跨行。跳过 .gitignore 忽略的文件、二进制文件和 .git/。结果按路径排序，路径相对于仓库根目录。</translation>
    </message>
    <message>
        <source>The regular expression.</source>
        <translation type="vanished">正则表达式。</translation>
    </message>
    <message>
        <source>The file or directory to search (default: the repository root).</source>
        <translation type="vanished">要搜索的文件或目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <source>Only files matching this glob (`*.cpp`, `src/**/*.{h,cpp}`); `!glob` excludes. Without &apos;/&apos; it matches file names at any depth.</source>
        <translation type="vanished">只搜索匹配此 glob 的文件（`*.cpp`、`src/**/*.{h,cpp}`）；`!glob` 表示排除。不含“/”时，匹配任意深度的文件名。</translation>
    </message>
    <message>
        <source>Case-insensitive.</source>
        <translation type="vanished">不区分大小写。</translation>
    </message>
    <message>
        <source>Lines after each match (content mode).</source>
        <translation type="vanished">每个匹配之后的行数（content 模式）。</translation>
    </message>
    <message>
        <source>Lines before each match (content mode).</source>
        <translation type="vanished">每个匹配之前的行数（content 模式）。</translation>
    </message>
    <message>
        <source>Lines before and after each match (content mode).</source>
        <translation type="vanished">每个匹配前后的行数（content 模式）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/greptool.cpp" line="-110"/>
        <source>files_with_matches: paths; content: path:line:text (-n, -A, -B, -C apply); count: path:count.</source>
        <translation>files_with_matches：路径；content：路径:行:文本（-n、-A、-B、-C 生效）；count：路径:计数。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>First N output lines.</source>
        <translation>输出的前 N 行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Searches file contents with a regular expression (ripgrep syntax: escape regex characters for a literal search); a match never spans lines. Skips files ignored by .gitignore, binary files and .git/. Paths are relative to the repository root, sorted.</source>
        <translation>用正则表达式搜索文件内容（ripgrep 语法：按字面搜索时请转义正则字符）；匹配不会跨行。跳过 .gitignore 忽略的文件、二进制文件和 .git/。路径相对于仓库根目录，已排序。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>File or directory (default: the repository root).</source>
        <translation>文件或目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only files matching it (`*.cpp`, `src/**/*.{h,cpp}`; `!glob` excludes); without &apos;/&apos; it matches names at any depth.</source>
        <translation>只搜索与之匹配的文件（`*.cpp`、`src/**/*.{h,cpp}`；`!glob` 表示排除）；不含 &apos;/&apos; 时匹配任意深度的文件名。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>... [%1 more characters]</source>
        <translation>... [还有 %1 个字符]</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>No matches found.</source>
        <translation>没有找到匹配项。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 in %2.</source>
        <translation>%1，位于 %2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 matching line</source>
        <translation>1 行匹配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 matching lines</source>
        <translation>%1 行匹配</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 files</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[Showing the first %1 of %2 results. Narrow the search with path, glob or a more specific pattern, or raise head_limit.]</source>
        <translation>[仅显示 %2 条结果中的前 %1 条。请用 path、glob 或更具体的模式缩小搜索范围，或调大 head_limit。]</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>[The search stopped early: too many matches. Narrow it down.]</source>
        <translation>[匹配过多，搜索已提前停止。请缩小范围。]</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Path not found: %1</source>
        <translation>找不到路径：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Unknown output_mode &quot;%1&quot;.</source>
        <translation>未知的 output_mode “%1”。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Grep failed: %1</source>
        <translation>Grep 失败：%1</translation>
    </message>
    <message>
        <source>How many levels to list (default 1: the directory&apos;s own entries; at most %1).</source>
        <translation type="vanished">列出的层数（默认 1：仅目录本身的条目；最多 %1）。</translation>
    </message>
    <message>
        <source>Extra glob patterns of entries to leave out, e.g. [&quot;*.png&quot;, &quot;node_modules&quot;].</source>
        <translation type="vanished">要额外排除的条目的 glob 模式，例如 [&quot;*.png&quot;, &quot;node_modules&quot;]。</translation>
    </message>
    <message>
        <source>Lists a directory as an indented tree; directories end in &apos;/&apos;. Entries ignored by .gitignore and .git/ are left out. path defaults to the repository root. Use depth to see subdirectories too, Glob to find files by pattern.</source>
        <translation type="vanished">以缩进树的形式列出目录；目录以 &apos;/&apos; 结尾。省略 .gitignore 忽略的条目和 .git/。path 默认为仓库根目录。用 depth 查看子目录，用 Glob 按模式查找文件。</translation>
    </message>
    <message>
        <source>Levels to list (default 1, at most %1).</source>
        <translation type="vanished">列出的层数（默认 1，最多 %1）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/lstool.cpp" line="-13"/>
        <source>Glob patterns of entries to leave out.</source>
        <translation>要排除的条目的 glob 模式。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Lists a directory as an indented tree; directories end in &apos;/&apos;. Entries ignored by .gitignore and .git/ are left out.</source>
        <translation>以缩进树的形式列出目录；目录以“/”结尾。不列出 .gitignore 忽略的条目和 .git/。</translation>
    </message>
    <message>
        <source>The directory to list (default: the repository root).</source>
        <translation type="vanished">要列出的目录（默认：仓库根目录）。</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Levels (default 1).</source>
        <translation>层数（默认 1）。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Directory not found: %1</source>
        <translation>找不到目录：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is a file, not a directory; use Read to see it.</source>
        <translation>%1 是文件，不是目录；请用 Read 查看。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>  (empty)</source>
        <translation>  （空）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>[Showing %1 of %2 entries. List a subdirectory or use a smaller depth.]</source>
        <translation>[显示 %2 个条目中的 %1 个。请列出子目录或使用更小的 depth。]</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>(1 entry left out by .gitignore or ignore patterns)</source>
        <translation>（有 1 个条目因 .gitignore 或忽略模式被省略）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(%1 entries left out by .gitignore or ignore patterns)</source>
        <translation>（有 %1 个条目因 .gitignore 或忽略模式被省略）</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/outputcapture.cpp" line="+75"/>
        <source>[... %1 bytes left out; all %2 bytes of output are in %3 ...]</source>
        <translation>[... 省略 %1 字节；全部 %2 字节的输出见 %3 ...]</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/pathsuggestions.cpp" line="+136"/>
        <source>Similar paths: %1</source>
        <translation>相似的路径：%1</translation>
    </message>
    <message>
        <source>1-based line to start at. Use it with limit for large files.</source>
        <translation type="vanished">起始行号（从 1 开始）。对大文件请与 limit 一起使用。</translation>
    </message>
    <message>
        <source>Number of lines to read (default %1).</source>
        <translation type="vanished">要读取的行数（默认 %1）。</translation>
    </message>
    <message>
        <source>Reads a text file of the repository and returns its lines numbered like `cat -n` (number, tab, line). Paths are relative to the repository root or absolute. By default returns up to %1 lines from the start; pass offset and limit to read further in a long file. Lines longer than %2 characters are cut. Binary files are refused. Read a file before you Edit or overwrite it: edits are only accepted for files read in this session and unchanged since. The line numbers and the tab are not part of the file: never put them in old_string.</source>
        <translation type="vanished">读取仓库中的文本文件，像 `cat -n` 那样返回带行号的各行（行号、制表符、行内容）。路径可以相对于仓库根目录，也可以是绝对路径。默认从开头返回最多 %1 行；长文件请传入 offset 和 limit 继续读取。超过 %2 个字符的行会被截断。不接受二进制文件。在 Edit 或覆盖文件之前先读取它：只有本会话中读取过且此后未变化的文件才接受编辑。行号和制表符不属于文件内容：切勿把它们放进 old_string。</translation>
    </message>
    <message>
        <source>Reads a text file of the repository and returns its lines numbered: each line is its number, a tab, then the line. Paths are relative to the repository root or absolute. By default returns up to %1 lines from the start; pass offset and limit to read further in a long file. Lines longer than %2 characters are cut. Binary files are refused. Read a file before you Edit or overwrite it: edits are only accepted for files read in this session and unchanged since. The line numbers and the tab are not part of the file: never put them in old_string. Reading lines you already read again while the file is unchanged answers only that they are unchanged: your earlier output of them is still exact.</source>
        <translation type="vanished">读取仓库中的文本文件，返回带行号的各行：每行依次是行号、制表符和行内容。路径可以相对于仓库根目录，也可以是绝对路径。默认从开头返回最多 %1 行；长文件请传入 offset 和 limit 继续读取。超过 %2 个字符的行会被截断。不接受二进制文件。在 Edit 或覆盖文件之前先读取它：只有本会话中读取过且此后未变化的文件才接受编辑。行号和制表符不属于文件内容：切勿把它们放进 old_string。文件未变化时再次读取已读过的行，只会告知这些行未变：你之前得到的输出仍然准确。</translation>
    </message>
    <message>
        <source>First line to read (1-based).</source>
        <translation type="vanished">要读取的第一行（从 1 开始）。</translation>
    </message>
    <message>
        <source>How many lines (default %1).</source>
        <translation type="vanished">读取的行数（默认 %1）。</translation>
    </message>
    <message>
        <source>Reads a text file: each line comes as its number, a tab, then the line (number and tab are not part of the file: never put them in old_string). Up to %1 lines from offset; lines over %2 characters are cut; binary files are refused. Lines you read before from an unchanged file answer only that: your earlier output is still exact.</source>
        <translation type="vanished">读取文本文件：每行依次是行号、制表符和行内容（行号和制表符不属于文件内容：切勿把它们放进 old_string）。从 offset 开始最多读取 %1 行；超过 %2 个字符的行会被截断；不接受二进制文件。对未变化的文件再次读取之前读过的行，只会告知这一点：你之前得到的输出仍然准确。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/readtool.cpp" line="+21"/>
        <source>%1 is a picture of %2, too large to read (at most %3).</source>
        <translation>%1 是一张 %2 的图片，太大，无法读取（最多 %3）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 cannot be sent as a picture: %2</source>
        <extracomment>Read of a picture that cannot be sent: &quot;shot.png cannot be sent as a picture: it is a broken PNG picture&quot;</extracomment>
        <translation>%1 无法作为图片发送：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Reads a text file: each line comes as its number, a tab, then the line (number and tab are not part of the file: never put them in old_string). Up to %1 lines from offset; lines over %2 characters are cut; binary files are refused. Lines you read before from an unchanged file answer only that: your earlier output is still exact. A PNG, JPEG, GIF or WebP picture comes back as the picture (scaled down to what you can take), with a line naming its size.</source>
        <translation type="vanished">读取文本文件：每行依次为行号、一个制表符、然后是该行内容（行号和制表符不属于文件内容：切勿把它们放进 old_string）。从 offset 起最多读取 %1 行；超过 %2 个字符的行会被截断；二进制文件会被拒绝。再次读取未更改文件中你之前读过的行时，只会得到这样的答复：你之前的输出仍然准确。PNG、JPEG、GIF 或 WebP 图片会以图片形式返回（缩小到你能接收的大小），并附一行说明其尺寸。</translation>
    </message>
    <message>
        <source>The file to read.</source>
        <translation type="vanished">要读取的文件。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>First line.</source>
        <translation>起始行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Lines (default %1).</source>
        <translation>行数（默认 %1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reads a text file, each line as its number, a tab and the text (number and tab are not in the file: never put them in old_string). At most %1 lines, each cut at %2 characters; binary files are refused. An unchanged file read before answers only that: your earlier output is still exact. PNG, JPEG, GIF and WebP pictures come as pictures.</source>
        <translation>读取文本文件，每行为其行号、一个制表符和文本（行号和制表符不在文件中：切勿放入 old_string）。最多 %1 行，每行截断到 %2 个字符；拒绝二进制文件。之前读过且未改动的文件只会回答这一点：你先前的输出仍然准确。PNG、JPEG、GIF 和 WebP 图片以图片形式返回。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>File not found: %1</source>
        <translation>找不到文件：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is a directory. Use LS to list it or Glob to find files in it.</source>
        <translation>%1 是目录。请用 LS 列出它，或用 Glob 在其中查找文件。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Use Grep to search it, or Bash (head, tail, sed -n) to see parts of it.</source>
        <translation>请用 Grep 搜索它，或用 Bash（head、tail、sed -n）查看其中一部分。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is a binary file (%2); Read shows text files only.</source>
        <translation>%1 是二进制文件（%2）；Read 只显示文本文件。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>(%1 is empty)</source>
        <translation>（%1 为空）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 has %2; offset %3 is past its end.</source>
        <translation>%1 共有 %2；offset %3 超出了末尾。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../agentcore/tools/writetool.cpp" line="+51"/>
        <source>1 line</source>
        <translation>1 行</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../agentcore/tools/writetool.cpp" line="+0"/>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1 is unchanged since your last Read of it (lines %2-%3 of %4):</source>
        <translation>%1 自你上次 Read 以来未变（第 %2-%3 行，共 %4 行）：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Lines %2-%3 of %1 are unchanged since your earlier Read of lines %4-%5:</source>
        <translation>%1 的第 %2-%3 行自你之前 Read 第 %4-%5 行以来未变：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>that output, above in this conversation, is still exact, so it is not repeated here.</source>
        <translation>对话上文中的那次输出仍然准确，因此此处不再重复。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>[Showing lines %1-%2 of %3. Call Read with offset=%4 to continue.]</source>
        <translation>[显示第 %1-%2 行，共 %3。用 offset=%4 调用 Read 继续读取。]</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/ripgrepsearcher.cpp" line="+184"/>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>ripgrep failed (exit code %1).</source>
        <translation>ripgrep 失败（退出码 %1）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/sandboxnotice.cpp" line="+37"/>
        <source>install bubblewrap: sudo apt install bubblewrap (or sudo dnf install bubblewrap).</source>
        <translation>请安装 bubblewrap：sudo apt install bubblewrap（或 sudo dnf install bubblewrap）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>install bubblewrap (the package &quot;bubblewrap&quot;) or correct the path of bwrap.</source>
        <translation>请安装 bubblewrap（软件包 &quot;bubblewrap&quot;），或更正 bwrap 的路径。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>AppArmor restricts unprivileged user namespaces here (Ubuntu 23.10 and later); allow them with: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or give bwrap an AppArmor profile with &quot;userns,&quot;).</source>
        <translation>此处 AppArmor 限制了非特权用户命名空间（Ubuntu 23.10 及更高版本）；可用以下命令允许：sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0（或为 bwrap 配置一个含 &quot;userns,&quot; 的 AppArmor 配置文件）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unprivileged user namespaces are turned off; turn them on with: sudo sysctl -w kernel.unprivileged_userns_clone=1.</source>
        <translation>非特权用户命名空间已关闭；可用以下命令开启：sudo sysctl -w kernel.unprivileged_userns_clone=1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>user namespaces are limited to none; allow them with: sudo sysctl -w user.max_user_namespaces=10000.</source>
        <translation>用户命名空间的数量上限为 0；可用以下命令允许：sudo sysctl -w user.max_user_namespaces=10000。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>allow unprivileged user namespaces (on Ubuntu: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0; on Debian: sudo sysctl -w kernel.unprivileged_userns_clone=1); in a container, run it with user namespaces allowed (e.g. docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined).</source>
        <translation>请允许非特权用户命名空间（Ubuntu 上：sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0；Debian 上：sudo sysctl -w kernel.unprivileged_userns_clone=1）；在容器中，请以允许用户命名空间的方式运行（例如 docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The sandbox for Bash is unavailable, so commands run without it, with your rights: %1 To sandbox them, %2 To refuse commands instead, set Sandbox to Required in the settings (headless: --sandbox required).</source>
        <translation>Bash 的沙盒不可用，因此命令将不经沙盒、以你的权限运行：%1 要让命令在沙盒中运行，%2 如果想改为拒绝运行命令，请在设置中将“沙盒”设为“必需”（无界面运行：--sandbox required）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The sandbox for Bash is required but unavailable, so Bash commands are refused: %1 To sandbox them, %2 To run them without the sandbox instead, set Sandbox to On in the settings (headless: --sandbox on).</source>
        <translation>要求必须使用 Bash 的沙盒，但沙盒不可用，因此 Bash 命令会被拒绝：%1 要让命令在沙盒中运行，%2 如果想改为不经沙盒运行命令，请在设置中将“沙盒”设为“开启”（无界面运行：--sandbox on）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/sandboxpolicy.cpp" line="+16"/>
        <source>Runs sandboxed: read-only outside the repository, with network (allowed by %1).</source>
        <translation>在沙盒中运行：仓库之外只读，可以联网（由 %1 允许）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Runs sandboxed: read-only outside the repository, with network.</source>
        <translation>在沙盒中运行：仓库之外只读，可以联网。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs sandboxed: read-only outside the repository, no network.</source>
        <translation>在沙盒中运行：仓库之外只读，无网络。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runs without the sandbox (turned off in the settings).</source>
        <translation>不使用沙盒运行（已在设置中关闭）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runs without the sandbox: %1</source>
        <translation>不使用沙盒运行：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Will not run: the sandbox is required but unavailable: %1</source>
        <translation>不会运行：要求必须使用沙盒，但沙盒不可用：%1</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/sandboxprobe.cpp" line="+45"/>
        <source>bubblewrap (bwrap) is not installed; install the package &quot;bubblewrap&quot;.</source>
        <translation>未安装 bubblewrap（bwrap）；请安装软件包 &quot;bubblewrap&quot;。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is not an executable program.</source>
        <translation>%1 不是可执行程序。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 cannot be started: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 did not answer within %2 s.</source>
        <translation>%1 在 %2 秒内没有响应。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>bubblewrap cannot create its namespaces here (%1). Unprivileged user namespaces may be disabled, or this is a container.</source>
        <translation>bubblewrap 无法在此创建命名空间（%1）。可能是非特权用户命名空间被禁用，或当前运行在容器中。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>bubblewrap (bwrap) is not installed; reviewing a command&apos;s writes needs bubblewrap 0.9 or newer</source>
        <translation type="vanished">未安装 bubblewrap（bwrap）；审查命令的写入需要 bubblewrap 0.9 或更新版本</translation>
    </message>
    <message>
        <source>reviewing a command&apos;s writes needs bubblewrap 0.9 or newer (found %1)</source>
        <translation type="vanished">审查命令的写入需要 bubblewrap 0.9 或更新版本（当前为 %1）</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/shelloverlay.cpp" line="+89"/>
        <source>bubblewrap cannot run here: %1</source>
        <translation>bubblewrap 无法在此运行：%1</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>cannot make a scratch folder for an overlay: %1</source>
        <translation>无法为覆盖层创建临时文件夹：%1</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>bubblewrap (bwrap) is not installed; reviewing a command&apos;s writes needs it</source>
        <translation>未安装 bubblewrap（bwrap）；审阅命令的写入需要它</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>reviewing a command&apos;s writes needs bubblewrap 0.9 or newer (found %1), or one that runs here: %2</source>
        <translation>审阅命令的写入需要 bubblewrap 0.9 或更新版本（找到 %1），或一个能在此运行的版本：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>bubblewrap cannot mount an overlay here: %1</source>
        <translation>bubblewrap 无法在此挂载覆盖层：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>reviewing a command&apos;s writes needs bubblewrap 0.9 or newer (found %1), or unprivileged user namespaces that may mount an overlay for unshare(1) (%2)</source>
        <translation>审阅命令的写入需要 bubblewrap 0.9 或更新版本（找到 %1），或允许 unshare(1) 挂载 overlay 的非特权用户命名空间（%2）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot create a scratch folder in %1: %2</source>
        <translation>无法在 %1 中创建临时文件夹：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>cannot create the overlay&apos;s folders in %1</source>
        <translation>无法在 %1 中创建覆盖层的文件夹</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/shellwrite.cpp" line="+51"/>
        <source>directory added</source>
        <translation>新增目录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>symbolic link added (→ %1)</source>
        <translation>新增符号链接（→ %1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>directory removed</source>
        <translation>删除目录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>symbolic link deleted</source>
        <translation>删除符号链接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mode %1 → %2</source>
        <translation>文件模式 %1 → %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>replaced by a directory</source>
        <translation>替换为目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>replaced by a symbolic link (→ %1)</source>
        <translation>替换为符号链接（→ %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>replaced by a file</source>
        <translation>替换为文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>symbolic link changed (→ %1)</source>
        <translation>更改符号链接（→ %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>modified, mode %1 → %2</source>
        <translation>修改，文件模式 %1 → %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>modified</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>cannot write the journal %1</source>
        <translation type="vanished">无法写入日志 %1</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/shellwriteapplier.cpp" line="+87"/>
        <location filename="../agentcore/worktree/sessionworktrees.cpp" line="+624"/>
        <source>it changed since the command ran</source>
        <translation>命令运行之后它已发生变化</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it still holds files that were kept</source>
        <translation>其中仍有被保留的文件</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Finished applying a command&apos;s accepted changes to %1 (%2 files) that an earlier run left unfinished.</source>
        <translation>之前的运行未能完成将某条命令已接受的更改应用到 %1，现已完成（%2 个文件）。</translation>
    </message>
    <message>
        <source>Finished applying a command&apos;s accepted changes to %1 (%2 steps) that an earlier run left unfinished.</source>
        <translation type="vanished">之前的运行未能完成将某条命令已接受的更改应用到 %1，现已完成（%2 步）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Removed the files staged for a command&apos;s changes to %1 that an earlier run never applied.</source>
        <translation>已删除为某条命令对 %1 的更改而暂存的文件：之前的运行从未应用这些更改。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/shellwrites.cpp" line="+106"/>
        <source>cannot read the overlay&apos;s upper layer %1</source>
        <translation>无法读取覆盖层的上层 %1</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/readtool.cpp" line="-171"/>
        <location filename="../agentcore/tools/textfile.cpp" line="+25"/>
        <location line="+9"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/textfile.cpp" line="-7"/>
        <source>it became a symbolic link</source>
        <translation>它变成了符号链接</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is too large (%2; the limit is %3).</source>
        <translation>%1 过大（%2；上限为 %3）。</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>1 byte</source>
        <translation>1 字节</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>... [line cut: %1 more characters]</source>
        <translation>... [行已截断：还有 %1 个字符]</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/toolworkspace.cpp" line="+90"/>
        <source>%1 is outside the repository (%2); only files inside the repository can be changed.</source>
        <translation>%1 在仓库（%2）之外；只能修改仓库内的文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is inside .git/; git&apos;s own files are never changed by tools.</source>
        <translation>%1 位于 .git/ 内；工具从不修改 git 自身的文件。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The path is empty.</source>
        <translation>路径为空。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 is a symbolic link to a missing target (%2).</source>
        <translation>%1 是指向不存在目标（%2）的符号链接。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 leads out of the repository through a symbolic link (to %2); tools do not follow links out of the repository, in any mode. Name %2 itself to use it (reading outside the repository asks).</source>
        <translation>%1 经由符号链接（指向 %2）通往仓库之外；在任何模式下，工具都不会跟随通往仓库之外的链接。要使用它，请直接指定 %2（读取仓库之外的内容会先询问）。</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Cannot create the directory %1.</source>
        <translation>无法创建目录 %1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+2"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 has not been read in this session. Read it with the Read tool first, then retry.</source>
        <translation>本会话中尚未读取过 %1。请先用 Read 工具读取，然后重试。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 has changed since you last read it (by a command, or outside AgentDesk). Read it again, then retry.</source>
        <translation>自你上次读取以来，%1 已被更改（被某条命令或在 AgentDesk 之外）。请重新读取后再试。</translation>
    </message>
    <message>
        <source>Writes a whole file: creates it (and missing directories), or replaces all of an existing file&apos;s content. To overwrite an existing file you must Read it in this session first, and it must be unchanged since. Prefer Edit to change part of a file. Paths are relative to the repository root; files outside the repository cannot be written. An existing file keeps its CRLF line endings and byte order mark.</source>
        <translation type="vanished">写入整个文件：创建文件（及缺少的目录），或替换现有文件的全部内容。要覆盖现有文件，必须先在本会话中 Read 它，且此后文件未变化。只修改文件的一部分时优先使用 Edit。路径相对于仓库根目录；不能写入仓库之外的文件。现有文件保留其 CRLF 换行符和字节顺序标记。</translation>
    </message>
    <message>
        <source>The file to write.</source>
        <translation type="vanished">要写入的文件。</translation>
    </message>
    <message>
        <source>The complete new content of the file.</source>
        <translation type="vanished">文件的完整新内容。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/writetool.cpp" line="-82"/>
        <source>Writes a whole file: creates it (and missing directories) or replaces an existing file you read in this session, unchanged since, keeping its line endings and byte order mark. Files outside the repository cannot be written.</source>
        <translation>写入整个文件：创建文件（以及缺失的目录），或替换你在本会话中读取过、且此后未变化的已有文件，并保留其换行符和字节顺序标记。不能写入仓库之外的文件。</translation>
    </message>
    <message>
        <source>The file&apos;s complete content.</source>
        <translation type="vanished">文件的完整内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The whole file.</source>
        <translation>整个文件。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Wrote %1 (%2): the previous content was replaced.</source>
        <translation>已写入 %1（%2）：原有内容已被替换。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created %1 (%2).</source>
        <translation>已创建 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../agentcore/tools/backgroundshelltools.cpp" line="+19"/>
        <source>No background command was started in this session.</source>
        <translation>此会话中没有启动过后台命令。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The background commands of this session: %1.</source>
        <translation>此会话的后台命令：%1。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Reads the output a background command (Bash with run_in_background) printed since the last read, and whether it still runs or how it ended. Each read shows at most the last %1 KiB of the new output; its log file has all of it.</source>
        <translation>读取后台命令（带 run_in_background 的 Bash）自上次读取以来打印的输出，以及它是否仍在运行或如何结束。每次读取最多显示新输出的最后 %1 KiB；其日志文件包含全部输出。</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+76"/>
        <source>The shell id Bash returned (bash_1, ...).</source>
        <translation>Bash 返回的 shell id（bash_1, ...）。</translation>
    </message>
    <message>
        <location line="-73"/>
        <source>A regular expression: only the new lines that match are shown; the others are read all the same and will not be shown again.</source>
        <translation>正则表达式：只显示匹配的新行；其余的行同样会被读取，且之后不会再显示。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>filter is not a valid regular expression: %1</source>
        <translation>filter 不是有效的正则表达式：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+66"/>
        <source>No background command has the id &quot;%1&quot;. %2</source>
        <translation>没有 id 为“%1”的后台命令。%2</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Shell %1 (%2) is running.</source>
        <translation>Shell %1（%2）正在运行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shell %1 (%2) has ended: %3.</source>
        <translation>Shell %1（%2）已结束：%3。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>[... %1 bytes of new output left out; all of it is in %2 ...]</source>
        <translation>[... 省略了 %1 字节的新输出；完整内容见 %2 ...]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no log file</source>
        <translation>无日志文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(no new output)</source>
        <translation>（无新输出）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(no new line matches the filter)</source>
        <translation>（没有与 filter 匹配的新行）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Stops a background command (Bash with run_in_background) and everything it started, and waits for it to end.</source>
        <translation>停止一条后台命令（带 run_in_background 的 Bash）及其启动的所有进程，并等待它结束。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Shell %1 (%2) had already ended: %3.</source>
        <translation>Shell %1（%2）此前已经结束：%3。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Shell %1 (%2) was told to stop but still runs.</source>
        <translation>已通知 shell %1（%2）停止，但它仍在运行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped shell %1 (%2).</source>
        <translation>已停止 shell %1（%2）。</translation>
    </message>
</context>
<context>
    <name>AgentCore::Worktree</name>
    <message>
        <location filename="../agentcore/worktree/sessionworktrees.cpp" line="-452"/>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>git cannot be run here (%1), and a session worktree needs it.</source>
        <translation>此处无法运行 git（%1），而会话工作树需要它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not a git repository (or git sees no working tree there), so a session cannot have a worktree of its own.</source>
        <translation>%1 不是 git 仓库（或 git 在那里看不到工作区），因此会话无法拥有自己的工作树。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 has no commit yet: a session worktree starts from the checked-out commit. Commit once, then try again.</source>
        <translation>%1 还没有任何提交：会话工作树从当前检出的提交开始。请先提交一次，然后重试。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>git cannot read the checked-out commit of %1: %2</source>
        <translation>git 无法读取 %1 当前检出的提交：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>cannot create the folder %1 for the session&apos;s worktree.</source>
        <translation>无法为会话的工作树创建文件夹 %1。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no free branch name like %1 is left.</source>
        <translation>已没有类似 %1 的可用分支名。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>git could not make the worktree %1: %2</source>
        <translation>git 无法创建工作树 %1：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The session&apos;s worktree record is incomplete.</source>
        <translation>会话的工作树记录不完整。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The main checkout %1 of this session&apos;s worktree no longer exists.</source>
        <translation>此会话工作树的主检出目录 %1 已不存在。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is no longer a git repository (%2), so this session&apos;s worktree cannot be used.</source>
        <translation>%1 已不再是 git 仓库（%2），因此无法使用此会话的工作树。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The branch %1 of this session was deleted or renamed outside AgentDesk. AgentDesk does not recreate it: restore it (git reflog shows where it was) or delete the session.</source>
        <translation>此会话的分支 %1 已在 AgentDesk 之外被删除或重命名。AgentDesk 不会重新创建它：请恢复它（git reflog 可显示它原来的位置），或删除该会话。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The worktree folder %1 of this session was deleted outside AgentDesk; what was not committed on its branch %2 is lost. AgentDesk does not recreate it: keep the branch or delete the session.</source>
        <translation>此会话的工作树文件夹 %1 已在 AgentDesk 之外被删除；其分支 %2 上未提交的内容已丢失。AgentDesk 不会重新创建它：请保留该分支，或删除该会话。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The folder %1 is no longer a worktree of %2 (it was changed outside AgentDesk).</source>
        <translation>文件夹 %1 已不再是 %2 的工作树（它在 AgentDesk 之外被更改）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The worktree %1 no longer has the session&apos;s branch %2 checked out (it has %3 now): it was switched outside AgentDesk.</source>
        <translation>工作树 %1 检出的已不再是会话的分支 %2（现在是 %3）：它在 AgentDesk 之外被切换了。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a detached HEAD</source>
        <translation>分离的 HEAD</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The branch %1 was moved outside AgentDesk: it no longer contains the commit %2 the session started from (reset or rebased). Its changes cannot be brought back by AgentDesk; merge the branch with git.</source>
        <translation>分支 %1 已在 AgentDesk 之外被移动：它不再包含会话起始时的提交 %2（被重置或变基）。AgentDesk 无法带回它的更改；请用 git 合并该分支。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>git cannot compare the branch %1 with the commit %2 the session started from: %3</source>
        <translation>git 无法将分支 %1 与会话起始时的提交 %2 进行比较：%3</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>git cannot compare the worktree with the commit it started from: %1</source>
        <translation>git 无法将工作树与其起始提交进行比较：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>git cannot list the worktree&apos;s new files: %1</source>
        <translation>git 无法列出工作树中的新文件：%1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>git cannot read the files of the commit %1: %2</source>
        <translation>git 无法读取提交 %1 中的文件：%2</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>it was created in your checkout since the session started</source>
        <translation>会话开始后，它在你的检出目录中被创建了</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it was deleted in your checkout since the session started</source>
        <translation>会话开始后，它在你的检出目录中被删除了</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <location line="+22"/>
        <source>it was changed in your checkout since the session started</source>
        <translation>会话开始后，它在你的检出目录中被更改了</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>it was replaced in your checkout since the session started</source>
        <translation>会话开始后，它在你的检出目录中被替换了</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>the session&apos;s branch %1 changed %2 since %3; only what you accept reaches your checkout</source>
        <translation>会话的分支 %1 自 %3 以来更改了 %2；只有你接受的内容才会进入你的检出目录</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>1 path</source>
        <translation>1 个路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 paths</source>
        <translation>%1 个路径</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Not brought back (your checkout changed them; the branch %1 keeps them):</source>
        <translation>未带回（它们在你的检出目录中已被更改；分支 %1 保留着它们）：</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>it was changed in your checkout since the review was made</source>
        <translation>创建审查后，它在你的检出目录中被更改了</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>git cannot stage the worktree&apos;s changes: %1</source>
        <translation>git 无法暂存工作树中的更改：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>git cannot commit the worktree&apos;s changes on %1: %2</source>
        <translation>git 无法在 %1 上提交工作树中的更改：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The main checkout %1 no longer exists; the worktree %2 was left as it is.</source>
        <translation>主检出目录 %1 已不存在；工作树 %2 保持原样。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>git cannot remove the worktree %1: %2</source>
        <translation>git 无法移除工作树 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>git cannot forget the worktree %1: %2</source>
        <translation>git 无法清除工作树 %1 的记录：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>git cannot delete the branch %1: %2</source>
        <translation>git 无法删除分支 %1：%2</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../app/commandline.cpp" line="+66"/>
        <source>Run PROMPT headless (no window): print the answer and exit. &quot;-&quot; reads the prompt from standard input.</source>
        <translation>无界面运行 PROMPT（不打开窗口）：输出回答后退出。&quot;-&quot; 表示从标准输入读取提示词。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PROMPT</source>
        <translation>PROMPT</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+449"/>
        <source>The repository to work on (default: the current directory).</source>
        <translation>要处理的仓库（默认：当前目录）。</translation>
    </message>
    <message>
        <location line="-447"/>
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The API to call: openai (Chat Completions and compatible servers; the default), anthropic or openai-responses.</source>
        <translation>要调用的 API：openai（Chat Completions 及兼容服务器；默认）、anthropic 或 openai-responses。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+22"/>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>The API root as the provider&apos;s SDK takes it (OpenAI: https://host/v1; Anthropic: without /v1). A server on this machine needs no API key.</source>
        <translation>API 根地址，与提供商 SDK 的写法相同（OpenAI：https://host/v1；Anthropic：不带 /v1）。本机上的服务器不需要 API 密钥。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model (default: gpt-5 for openai, claude-sonnet-4-5 for anthropic; required with --base-url for the OpenAI APIs).</source>
        <translation>模型（默认：openai 为 gpt-5，anthropic 为 claude-sonnet-4-5；对 OpenAI API 使用 --base-url 时必须指定）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MODEL</source>
        <translation>MODEL</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The environment variable holding the API key (default: OPENAI_API_KEY or ANTHROPIC_API_KEY).</source>
        <translation>保存 API 密钥的环境变量（默认：OPENAI_API_KEY 或 ANTHROPIC_API_KEY）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>VAR</source>
        <translation>VAR</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Which OpenAI-compatible server --base-url is, for the request fields it takes and how reasoning goes back: %1 (default: from the base URL; an unknown server gets generic, which sends no optional field).</source>
        <translation>--base-url 是哪种 OpenAI 兼容服务器，决定它接受哪些请求字段、推理内容如何回传：%1（默认：根据基础 URL；未知服务器使用 generic，不发送任何可选字段）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop after N model turns (with --print: exit code 3).</source>
        <translation>模型运行 N 轮后停止（与 --print 一起使用时退出码为 3）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default (edits and commands ask; with --print they are denied), acceptEdits, plan (read-only) or bypass.</source>
        <translation>default（编辑和命令需要询问；与 --print 一起使用时一律拒绝）、acceptEdits、plan（只读）或 bypass。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+44"/>
        <source>MODE</source>
        <translation>MODE</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Allow rules such as &quot;Bash(git status)&quot; Edit Read, separated by commas or spaces; may be repeated.</source>
        <translation>允许规则，例如 &quot;Bash(git status)&quot; Edit Read，以逗号或空格分隔；可重复指定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>RULES</source>
        <translation>RULES</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The built-in tools the model is offered, separated by commas or spaces: Read, Glob, Grep, LS, Edit, Write, Bash (default: all; &quot;&quot; for none).</source>
        <translation>提供给模型的内置工具，用逗号或空格分隔：Read、Glob、Grep、LS、Edit、Write、Bash（默认：全部；&quot;&quot; 表示不提供）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>TOOLS</source>
        <translation>TOOLS</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply what this repository&apos;s .agentdesk settings files grant (allow rules, acceptEdits or bypass mode, additional directories) without having accepted it in the window.</source>
        <translation>应用此仓库 .agentdesk 设置文件所授予的权限（允许规则、acceptEdits 或 bypass 模式、附加目录），无需先在窗口中接受。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>With --print: text (the answer; the default) or stream-json (one JSON event per line).</source>
        <translation>与 --print 一起使用：text（回答；默认）或 stream-json（每行一个 JSON 事件）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FORMAT</source>
        <translation>FORMAT</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With --print: continue the repository&apos;s most recent session (the window&apos;s or a headless run&apos;s): its conversation is the history of this run, which is added to it. One open in another window or run is passed over (stderr says which) for the most recent one that is free.</source>
        <translation>与 --print 一起使用：继续该仓库最近的会话（窗口的或无界面运行的）：其对话作为本次运行的历史，本次运行的内容也会追加到其中。已在另一个窗口或运行中打开的会话会被跳过（stderr 会说明是哪个），改为继续最近一个空闲的会话。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>With --print: start no language server (clangd, pylsp, ... found on PATH): an Edit or Write gets no diagnostics back, and there is no Diagnostics tool.</source>
        <translation>与 --print 一起使用：不启动语言服务器（在 PATH 上找到的 clangd、pylsp 等）：Edit 或 Write 不会返回诊断信息，也没有 Diagnostics 工具。</translation>
    </message>
    <message>
        <location line="+483"/>
        <source>--fork needs the id of a session.</source>
        <translation>--fork 需要一个会话的 ID。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--fork ID:MESSAGE needs a message after the colon.</source>
        <translation>--fork ID:MESSAGE 的冒号后需要给出消息。</translation>
    </message>
    <message>
        <source>With --print: start the MCP servers of FILE (the .mcp.json format, {&quot;mcpServers&quot;: {...}}) and offer their tools as mcp__SERVER__TOOL; may be repeated.</source>
        <translation type="vanished">与 --print 一起使用：启动 FILE（.mcp.json 格式，{&quot;mcpServers&quot;: {...}}）中的 MCP 服务器，并以 mcp__SERVER__TOOL 的形式提供其工具；可重复使用。</translation>
    </message>
    <message>
        <location line="-472"/>
        <source>With --print: only the MCP servers of --mcp-config, not those of the repository&apos;s .mcp.json.</source>
        <translation>与 --print 一起使用：仅使用 --mcp-config 中的 MCP 服务器，不使用仓库 .mcp.json 中的服务器。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Headless: agentdesk --print PROMPT [options] runs one task without a window.
Each run is recorded as a session of the repository, which the window lists; --continue or --resume ID goes on with one.
Exit codes: 0 the task ended naturally; 1 the run failed (provider or network error, truncated or refused answer); 2 usage or configuration error (also: no session to continue, every one is open elsewhere, or the session given is in use); 3 --max-turns reached; 130 interrupted (SIGINT), 143 terminated (SIGTERM).</source>
        <translation>无界面模式：agentdesk --print 提示 [选项] 在没有窗口的情况下运行一个任务。
每次运行都会记录为该仓库的一个会话，窗口中会列出；--continue 或 --resume ID 可继续某个会话。
退出码：0 任务正常结束；1 运行失败（服务商或网络错误、回答被截断或被拒绝）；2 用法或配置错误（也包括：没有可继续的会话、每个会话都已在别处打开，或指定的会话正被使用）；3 达到 --max-turns；130 被中断（SIGINT），143 被终止（SIGTERM）。</translation>
    </message>
    <message>
        <source>With --print: continue the repository&apos;s most recent session (the window&apos;s or a headless run&apos;s): its conversation is the history of this run, which is added to it.</source>
        <translation type="vanished">与 --print 一起使用：继续该仓库最近的会话（窗口的或无界面运行的）：其对话作为本次运行的历史，本次运行的内容也会追加到其中。</translation>
    </message>
    <message>
        <location line="-69"/>
        <source>With --print: continue the session ID of this repository (agent_start&apos;s sessionId, or the path of its file).</source>
        <translation>与 --print 一起使用：继续本仓库中编号为 ID 的会话（agent_start 中的 sessionId，或会话文件的路径）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Bash commands run in a sandbox (bubblewrap): read-only outside the repository, a private /tmp, no network, your keys hidden. on (the default: without bwrap they run as they are, said once), off, or required (without bwrap they are refused).</source>
        <translation>Bash 命令在沙盒（bubblewrap）中运行：仓库之外只读，/tmp 私有，无网络，你的密钥被隐藏。可选 on（默认：没有 bwrap 时照常运行，并提示一次）、off 或 required（没有 bwrap 时拒绝运行）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sandboxed Bash commands may use the network.</source>
        <translation>沙盒中的 Bash 命令可以使用网络。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With --print: do not record the run as a session (a session continued with --continue or --resume is read, and nothing is added to it).</source>
        <translation>与 --print 一起使用：不将本次运行记录为会话（用 --continue 或 --resume 继续的会话只会被读取，不会追加任何内容）。</translation>
    </message>
    <message>
        <source>Headless: agentdesk --print PROMPT [options] runs one task without a window.
Each run is recorded as a session of the repository, which the window lists; --continue or --resume ID goes on with one.
Exit codes: 0 the task ended naturally; 1 the run failed (provider or network error, truncated or refused answer); 2 usage or configuration error (also: no session to continue, or the session is in use); 3 --max-turns reached; 130 interrupted (SIGINT), 143 terminated (SIGTERM).</source>
        <translation type="vanished">无界面模式：agentdesk --print 提示 [选项] 在没有窗口的情况下运行一个任务。
每次运行都会记录为该仓库的一个会话，窗口中会列出；--continue 或 --resume ID 可继续某个会话。
退出码：0 任务正常结束；1 运行失败（服务商或网络错误、回答被截断或被拒绝）；2 用法或配置错误（也包括：没有可继续的会话，或会话正被使用）；3 达到 --max-turns；130 被中断（SIGINT），143 被终止（SIGTERM）。</translation>
    </message>
    <message>
        <location line="+233"/>
        <source>Unknown sandbox mode &quot;%1&quot; for --sandbox: use on, off or required.</source>
        <translation>未知的 --sandbox 沙盒模式 &quot;%1&quot;：请使用 on、off 或 required。</translation>
    </message>
    <message>
        <source>agentdesk --rewind SESSION CHECKPOINT restores the repository&apos;s files to a checkpoint of the session (the ids stream-json&apos;s agent_start and checkpoint lines name), prints the files it changed and exits; the state it replaces is recorded first, so it can be undone the same way. Without CHECKPOINT it lists the session&apos;s checkpoints. Refused while the session is running.</source>
        <translation type="vanished">agentdesk --rewind SESSION CHECKPOINT 将仓库的文件恢复到该会话的某个检查点（ID 见 stream-json 的 agent_start 行和 checkpoint 行），输出它更改的文件后退出；被替换的状态会先记录下来，因此可以用同样的方式撤销。不给出 CHECKPOINT 时，列出该会话的检查点。会话正在运行时拒绝执行。</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>SESSION</source>
        <translation>SESSION</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Give either --print or --rewind, not both.</source>
        <translation>--print 和 --rewind 只能二选一，不能同时使用。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--rewind takes a session and one checkpoint; give the repository with --repo.</source>
        <translation>--rewind 接受一个会话和一个检查点；请用 --repo 指定仓库。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--rewind needs the id of a session.</source>
        <translation>--rewind 需要会话的 ID。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>--%1 is only used with --print.</source>
        <translation>--%1 只能与 --print 一起使用。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Give either --continue or --resume, not both.</source>
        <translation>请只给出 --continue 或 --resume 中的一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--fork names the session it copies: give it without --continue or --resume.</source>
        <translation>--fork 已指明要复制的会话：请勿同时使用 --continue 或 --resume。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>--resume needs the id of a session.</source>
        <translation>--resume 需要一个会话的 ID。</translation>
    </message>
    <message>
        <source>Headless: agentdesk --print PROMPT [options] runs one task without a window.
Exit codes: 0 the task ended naturally; 1 the run failed (provider or network error, truncated or refused answer); 2 usage or configuration error; 3 --max-turns reached; 130 interrupted (SIGINT), 143 terminated (SIGTERM).</source>
        <translation type="vanished">无界面模式：agentdesk --print PROMPT [选项] 不打开窗口运行一个任务。
退出码：0 任务正常结束；1 运行失败（提供商或网络错误、回答被截断或被拒绝）；2 用法或配置错误；3 达到 --max-turns；130 被中断（SIGINT），143 被终止（SIGTERM）。</translation>
    </message>
    <message>
        <location line="-397"/>
        <source>Unbalanced parentheses in --allowed-tools &quot;%1&quot;. Quote a rule with spaces, e.g. --allowed-tools &quot;Bash(git status)&quot;.</source>
        <translation>--allowed-tools &quot;%1&quot; 中的括号不配对。含空格的规则请加引号，例如 --allowed-tools &quot;Bash(git status)&quot;。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Invalid rule &quot;%1&quot; in --allowed-tools: %2</source>
        <translation>--allowed-tools 中的规则 &quot;%1&quot; 无效：%2</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Unknown tool &quot;%1&quot; in --tools: use Read, Glob, Grep, LS, Edit, Write or Bash (or &quot;default&quot; for all of them).</source>
        <translation>--tools 中有未知工具 &quot;%1&quot;：请使用 Read、Glob、Grep、LS、Edit、Write 或 Bash（或用 &quot;default&quot; 表示全部）。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Unknown provider &quot;%1&quot; for --provider: use openai, anthropic or openai-responses.</source>
        <translation>--provider 的提供商 &quot;%1&quot; 未知：请使用 openai、anthropic 或 openai-responses。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>--base-url needs an http or https URL such as http://localhost:8080/v1, got &quot;%1&quot;.</source>
        <translation>--base-url 需要 http 或 https URL，例如 http://localhost:8080/v1，实际为 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>--model is needed with --base-url: name the model as that server knows it (e.g. --model qwen3-coder).</source>
        <translation>使用 --base-url 时需要 --model：请使用该服务器所认识的模型名（例如 --model qwen3-coder）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Unknown server profile &quot;%1&quot; for --server-profile: use %2.</source>
        <translation>--server-profile 的服务器配置“%1”未知：请使用 %2。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--server-profile is for Chat Completions servers (--provider openai), not --provider %1.</source>
        <translation>--server-profile 用于 Chat Completions 服务器（--provider openai），不适用于 --provider %1。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>--max-turns takes a whole number of at least 1, got &quot;%1&quot;.</source>
        <translation>--max-turns 需要不小于 1 的整数，实际为 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Unknown permission mode &quot;%1&quot;: use default, acceptEdits, plan or bypass.</source>
        <translation>未知的权限模式 &quot;%1&quot;：请使用 default、acceptEdits、plan 或 bypass。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Unknown output format &quot;%1&quot;: use text or stream-json.</source>
        <translation>未知的输出格式 &quot;%1&quot;：请使用 text 或 stream-json。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Unknown provider &quot;%1&quot;.</source>
        <translation>未知的提供商 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No API key: %1 is not set. Set it, or name the variable that holds the key with --api-key-env.</source>
        <translation>没有 API 密钥：未设置 %1。请设置它，或用 --api-key-env 指定保存密钥的变量。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>AgentDesk, a desktop coding agent: review every edit before it is applied.</source>
        <translation>AgentDesk，桌面编程智能体：每次编辑在应用之前都经过你的审查。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show this help and exit.</source>
        <translation>显示此帮助并退出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the version and exit.</source>
        <translation>显示版本并退出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the window to FILE once shown, then quit.</source>
        <translation>窗口显示后将其截图保存到 FILE，然后退出。</translation>
    </message>
    <message>
        <location line="-301"/>
        <location line="+302"/>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <location line="-334"/>
        <source>With --print: go on in a new session whose history is a copy of the session ID&apos;s conversation up to its message MESSAGE (counted from 1, or a message id; default: the last); the session ID stays as it was.</source>
        <translation>与 --print 一起使用：在一个新会话中继续，其历史是会话 ID 的对话截至消息 MESSAGE 的副本（从 1 开始计数，或为消息 ID；默认：最后一条）；会话 ID 保持不变。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>ID[:MESSAGE]</source>
        <translation>ID[:MESSAGE]</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>With --print: start the MCP servers of FILE (the .mcp.json format, {&quot;mcpServers&quot;: {...}}) and offer their tools as mcp__SERVER__TOOL; may be repeated. A PROMPT starting with /SERVER:NAME ARGS is that server&apos;s prompt (ARGS as KEY=VALUE or in order); @SERVER:URI in it attaches that resource&apos;s text.</source>
        <translation>与 --print 一起使用：启动 FILE（.mcp.json 格式，{&quot;mcpServers&quot;: {...}}）中的 MCP 服务器，并以 mcp__SERVER__TOOL 的形式提供其工具；可重复使用。以 /SERVER:NAME ARGS 开头的 PROMPT 即为该服务器的提示词（ARGS 采用 KEY=VALUE 形式或按顺序给出）；其中的 @SERVER:URI 会附加该资源的文本。</translation>
    </message>
    <message>
        <location line="+312"/>
        <source>agentdesk --rewind SESSION CHECKPOINT restores the repository&apos;s files to a checkpoint of the session (the ids stream-json&apos;s agent_start and checkpoint lines name), prints the files it changed and exits; the state it replaces is recorded first, so it can be undone the same way, and the rewind shows in the session when the window opens it. Without CHECKPOINT it lists the session&apos;s checkpoints. Refused while the session is running.</source>
        <translation>agentdesk --rewind SESSION CHECKPOINT 将仓库的文件恢复到该会话的某个检查点（ID 见 stream-json 的 agent_start 行和 checkpoint 行），输出它更改的文件后退出；被替换的状态会先记录下来，因此可以用同样的方式撤销，窗口打开该会话时也会显示这次回退。不给出 CHECKPOINT 时，列出该会话的检查点。会话正在运行时拒绝执行。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>With --rewind: leave PATH as it is (a file or a folder, relative to the repository&apos;s top folder). Repeatable.</source>
        <translation>与 --rewind 一起使用：保持 PATH 原样（文件或文件夹，相对于仓库的顶层文件夹）。可重复使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PATH</source>
        <translation>PATH</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With --rewind: print what the rewind would change and change nothing.</source>
        <translation>与 --rewind 一起使用：输出回退将会更改的内容，但不做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>With --rewind: rewind the files you changed yourself since the checkpoint too (by default they are kept as they are, and named).</source>
        <translation>与 --rewind 一起使用：把你在该检查点之后自己更改的文件也一并回退（默认情况下它们保持原样，并会被列出）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check what AgentDesk relies on here (bubblewrap and whether it works, git, ripgrep, the keyring, fonts, the provider&apos;s models endpoint, the MCP servers&apos; commands), print what is missing with the command that installs it, and exit: 0 when everything needed is there, 1 otherwise.</source>
        <translation>检查 AgentDesk 在此依赖的内容（bubblewrap 及其能否工作、git、ripgrep、密钥环、字体、提供方的模型端点、MCP 服务器的命令），列出缺少的项及安装命令，然后退出：所需内容齐全时返回 0，否则返回 1。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>--doctor is used alone (with the model options and the repository to check).</source>
        <translation>--doctor 须单独使用（可附带模型选项和要检查的仓库）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--doctor checks one repository.</source>
        <translation>--doctor 只检查一个仓库。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>--%1 needs a checkpoint: agentdesk --rewind SESSION CHECKPOINT.</source>
        <translation>--%1 需要一个检查点：agentdesk --rewind SESSION CHECKPOINT。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>--%1 is only used with --rewind.</source>
        <translation>--%1 只能与 --rewind 一起使用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only one repository can be opened, got %1.</source>
        <translation>只能打开一个仓库，实际给出了 %1 个。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give the repository once: as an argument or with --repo, not both.</source>
        <translation>仓库只能指定一次：作为参数或用 --repo，不能两者都用。</translation>
    </message>
    <message>
        <source>--output-format is only used with --print.</source>
        <translation type="vanished">--output-format 只能与 --print 一起使用。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The prompt given to --print is empty.</source>
        <translation>传给 --print 的提示词为空。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--screenshot needs the window: it cannot be used with --print.</source>
        <translation>--screenshot 需要窗口：不能与 --print 一起使用。</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/headlessrewind.cpp" line="+47"/>
        <source>  (%n file(s) not covered)</source>
        <translation>
            <numerusform>  （%n 个文件未涵盖）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The session %1 is running (%2): stop it before rewinding its files, or the rewind and the agent would write the same files.</source>
        <translation>会话 %1 正在运行（%2）：回退其文件之前请先停止它，否则回退和智能体会写入相同的文件。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>finished an interrupted rewind: %1</source>
        <translation>已完成一次被中断的回退：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The session %1 has no checkpoints for %2.</source>
        <translation>会话 %1 没有 %2 的检查点。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No checkpoint %1 for %2. agentdesk --rewind %3 lists the session&apos;s checkpoints.</source>
        <translation>%2 没有检查点 %1。agentdesk --rewind %3 可列出该会话的检查点。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The checkpoint %1 belongs to the session %2, not %3.</source>
        <translation>检查点 %1 属于会话 %2，而不是 %3。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Nothing the rewind changes is under %1: check the path (relative to %2).</source>
        <translation>回退所更改的内容都不在 %1 之下：请检查该路径（相对于 %2）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>warning: could not tell your own changes from the agent&apos;s (%1): every changed file counts as yours.</source>
        <translation>警告：无法区分你自己的更改和智能体的更改（%1）：所有更改过的文件都算作你的。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>You changed %1 yourself since that checkpoint: kept as they are; --overwrite-user-changes would rewind them too.</source>
        <translation>你在该检查点之后自己更改了 %1：它们将保持原样；使用 --overwrite-user-changes 会把它们也回退。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Nothing was changed (--dry-run).</source>
        <translation>未做任何更改（--dry-run）。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>You changed %1 yourself since that checkpoint: kept as they are. Run again with --overwrite-user-changes to rewind them too.</source>
        <translation>你在该检查点之后自己更改了 %1：已保持原样。要把它们也回退，请加上 --overwrite-user-changes 再运行一次。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not restored: %1</source>
        <translation>未恢复：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The files were restored, but the rewind could not be recorded in the session: %1</source>
        <translation>文件已恢复，但无法在会话中记录这次回退：%1</translation>
    </message>
    <message>
        <location line="-39"/>
        <location line="+32"/>
        <source>left as it is (the checkpoint does not cover it): %1</source>
        <translation>保持原样（检查点未涵盖它）：%1</translation>
    </message>
    <message>
        <location line="-31"/>
        <location line="+34"/>
        <source>The files are already as at the checkpoint.</source>
        <translation>文件已与检查点时的状态一致。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Undo with: agentdesk --rewind %1 %2</source>
        <translation>撤销方法：agentdesk --rewind %1 %2</translation>
    </message>
    <message>
        <location filename="../app/headlessprinter.cpp" line="+68"/>
        <source>interrupted: the run was aborted.</source>
        <translation>已中断：运行已中止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>terminated: the run was aborted.</source>
        <translation>已终止：运行已中止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the run ended without an answer from the model.</source>
        <translation>运行结束，但模型没有给出回答。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>stopped after %n turn(s): the limit set with --max-turns.</source>
        <translation>
            <numerusform>已在 %n 轮后停止：达到 --max-turns 设置的上限。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the answer was cut off at the model&apos;s output limit.</source>
        <translation>回答在达到模型的输出上限时被截断。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the model refused: %1</source>
        <translation>模型拒绝了：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the run was aborted.</source>
        <translation>运行已中止。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <location filename="../app/headlessrun.cpp" line="+94"/>
        <source>--print - reads the prompt from standard input, which was empty.</source>
        <translation>--print - 从标准输入读取提示词，但标准输入为空。</translation>
    </message>
    <message>
        <location filename="../app/headlessmcp.cpp" line="+34"/>
        <location line="+75"/>
        <location filename="../app/headlessprinter.cpp" line="+117"/>
        <location filename="../app/headlessrun.cpp" line="+85"/>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location filename="../app/headlessrun.cpp" line="-31"/>
        <source>The prompt names an MCP prompt or resource that cannot be had: %1</source>
        <translation>提示词中指定了无法获取的 MCP 提示词或资源：%1</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>warning: this repository&apos;s settings files (.agentdesk/) ask for more than your own settings, which you have not accepted; ignored: %1. Accept it once in the AgentDesk window, or run with --trust-project-settings.</source>
        <translation>警告：此仓库的设置文件（.agentdesk/）请求的权限超出了你自己的设置，而你尚未接受；已忽略：%1。请在 AgentDesk 窗口中接受一次，或使用 --trust-project-settings 运行。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>warning: the session allows %1 without asking, but a session file is not a grant: these rules were not applied to this run. To allow them for this run, add --allowed-tools &apos;%2&apos;.</source>
        <translation>警告：该会话允许不经询问运行 %1，但会话文件并不构成授权：这些规则未应用于本次运行。要在本次运行中允许它们，请添加 --allowed-tools &apos;%2&apos;。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>error: a hook refused the prompt: %1</source>
        <translation>错误：钩子拒绝了提示词：%1</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>note: background commands still running end with the run: %1</source>
        <translation>注意：仍在运行的后台命令将随本次运行一起结束：%1</translation>
    </message>
    <message>
        <location filename="../app/headlesssessionchoice.cpp" line="+31"/>
        <source>warning: skipped the session %1: %2</source>
        <translation>警告：已跳过会话 %1：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No session to continue: %1 has none yet. Run without --continue to start one.</source>
        <translation>没有可继续的会话：%1 还没有会话。不带 --continue 运行即可开始一个。</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+19"/>
        <source>The session %1 belongs to another repository, %2: run with --repo %2 to continue it.</source>
        <translation>会话 %1 属于另一个仓库 %2：请使用 --repo %2 运行以继续它。</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>No session %1 for %2. The window lists the repository&apos;s sessions; agent_start names each run&apos;s sessionId.</source>
        <translation>%2 没有会话 %1。窗口中列出了该仓库的会话；agent_start 会给出每次运行的 sessionId。</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+82"/>
        <source>Cannot fork the session %1: %2</source>
        <translation>无法分叉会话 %1：%2</translation>
    </message>
    <message>
        <location line="-62"/>
        <location line="+36"/>
        <source>Cannot continue the session %1: %2</source>
        <translation>无法继续会话 %1：%2</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>the most recent session, %1, is open in another AgentDesk window or headless run; continuing %2, the most recent one that is free.</source>
        <translation>最近的会话 %1 已在另一个 AgentDesk 窗口或无界面运行中打开；将继续最近一个空闲的会话 %2。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the %1 most recent sessions are open in other AgentDesk windows or headless runs: %2; continuing %3, the most recent one that is free.</source>
        <translation>最近的 %1 个会话已在其他 AgentDesk 窗口或无界面运行中打开：%2；将继续最近一个空闲的会话 %3。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>another process</source>
        <translation>另一个进程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No session to continue: every session of %1 is open in another AgentDesk window or headless run (%2), and only one can add to a session at a time. Run without --continue to start a new one, or --resume one of them once it is closed.</source>
        <translation>没有可继续的会话：%1 的每个会话都已在另一个 AgentDesk 窗口或无界面运行中打开（%2），而同一时间只能有一个向会话追加内容。不带 --continue 运行即可开始新会话，或在其中某个会话关闭后用 --resume 继续它。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>forked the session %1 at %2 into the new session %3</source>
        <extracomment>stderr of agentdesk --fork: 1 the original session&apos;s id, 2 the message, 3 the new id</extracomment>
        <translation>已将会话 %1 分叉为新会话 %3（分叉点：%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its last message</source>
        <translation>最后一条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>message %1</source>
        <translation>消息 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>note: AgentDesk ended while the session %1 (“%2”) was running (last written %3); its conversation and the output it had shown are kept. Continue it with --resume %1, or open it in the window.</source>
        <extracomment>stderr of a headless run after a crash: 1 the session&apos;s id, 2 its task, 3 when</extracomment>
        <translation>注意：AgentDesk 退出时会话 %1（“%2”）仍在运行（最后写入于 %3）；其对话及已显示的输出均已保留。可使用 --resume %1 继续，或在窗口中打开它。</translation>
    </message>
    <message>
        <location filename="../app/headlessmcp.cpp" line="-79"/>
        <source>--mcp-config: %1</source>
        <translation>--mcp-config：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>warning: the MCP server &quot;%1&quot; of this repository&apos;s .mcp.json (%2) is not started: a repository&apos;s servers run code, and you have not trusted this one. Run with --trust-project-settings, or name the file with --mcp-config.</source>
        <translation>警告：未启动此仓库 .mcp.json（%2）中的 MCP 服务器“%1”：仓库的服务器会运行代码，而你尚未信任此仓库。请使用 --trust-project-settings 运行，或用 --mcp-config 指定该文件。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>it names the keyring secret &quot;%1&quot;, which only the window reads; put it in a variable and name that</source>
        <translation>它引用了密钥环中的密钥“%1”，而只有窗口才会读取密钥环；请把它放进一个变量，改为引用该变量</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the MCP server &quot;%1&quot; is not started: %2</source>
        <translation>未启动 MCP 服务器“%1”：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warning: %1.</source>
        <translation>警告：%1。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>warning: the MCP server &quot;%1&quot; does not get %2: the model providers&apos; keys are never passed to MCP servers.</source>
        <translation>警告：MCP 服务器“%1”不会获得 %2：模型提供商的密钥从不传递给 MCP 服务器。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the MCP server &quot;%1&quot; is still starting</source>
        <translation>MCP 服务器“%1”仍在启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warning: %1; its tools are not available in this run.</source>
        <translation>警告：%1；其工具在本次运行中不可用。</translation>
    </message>
    <message>
        <location filename="../app/headlessrun.cpp" line="-59"/>
        <source>interrupted, stopping the run...</source>
        <translation>已中断，正在停止运行...</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>terminated, stopping the run...</source>
        <translation>已终止，正在停止运行...</translation>
    </message>
    <message>
        <location filename="../app/headlessprinter.cpp" line="-14"/>
        <source>warning: checkpoint %1 does not cover %2 (over the size cap or unreadable)</source>
        <translation>警告：检查点 %1 未涵盖 %2（超出大小上限或无法读取）</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>hook %1 (%2): %3</source>
        <translation>钩子 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Compacting: the conversation no longer fits the model&apos;s context window; summarising its older part first.</source>
        <translation>正在压缩：对话已超出模型的上下文窗口，先为较早的部分撰写摘要。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Summarising the conversation&apos;s older part in the background.</source>
        <translation>正在后台为对话较早的部分撰写摘要。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>warning: the conversation was not compacted: %1</source>
        <translation>警告：对话未被压缩：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>Compacted: a summary stands for the first %n message(s) in the requests from now on.</source>
        <translation>
            <numerusform>已压缩：从现在起，请求中由一份摘要代替前 %n 条消息。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1; retrying in %2 s.</source>
        <translation>%1；%2 秒后重试。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>session %1 (continue it with --continue or --resume %1)</source>
        <translation>会话 %1（可用 --continue 或 --resume %1 继续）</translation>
    </message>
    <message>
        <location filename="../app/windowsetup.cpp" line="+55"/>
        <source>%1 Then start AgentDesk again (for example: agentdesk --provider anthropic).</source>
        <translation>%1 然后重新启动 AgentDesk（例如：agentdesk --provider anthropic）。</translation>
    </message>
    <message>
        <location filename="../app/doctor.cpp" line="+119"/>
        <source>install the package %1 (Debian, Ubuntu), %2 (Fedora) or %3 (Arch)</source>
        <translation>安装软件包 %1（Debian、Ubuntu）、%2（Fedora）或 %3（Arch）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>reviews, checkpoints and worktrees need it</source>
        <translation>审查、检查点和工作树需要它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>without it Grep uses its slower built-in search</source>
        <translation>没有它，Grep 将使用较慢的内置搜索</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>bwrap is not on PATH: Bash commands cannot run in the sandbox.</source>
        <translation>bwrap 不在 PATH 中：Bash 命令无法在沙箱中运行。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (%2) is installed but cannot make its sandbox here: %3</source>
        <translation>%1（%2）已安装，但无法在此创建沙箱：%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 (%2): the sandbox works here.</source>
        <translation>%1（%2）：沙箱在此可以正常工作。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>shell-writes review</source>
        <translation>Shell 写入审查</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>needs bubblewrap: without it, commands write directly.</source>
        <translation>需要 bubblewrap：没有它，命令将直接写入。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 Commands write directly instead.</source>
        <translation>%1 命令将改为直接写入。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>commands can run on an overlay of the repository.</source>
        <translation>命令可以在仓库的覆盖层上运行。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 is not on PATH: %2.</source>
        <translation>%1 不在 PATH 中：%2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>keyring</source>
        <translation>密钥环</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a Secret Service answers on the session bus: API keys are kept encrypted.</source>
        <translation>会话总线上有 Secret Service 响应：API 密钥以加密方式保存。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no Secret Service on the session bus: API keys are kept in a file only you can read.</source>
        <translation>会话总线上没有 Secret Service：API 密钥保存在只有你能读取的文件中。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no session bus: API keys are kept in a file only you can read.</source>
        <translation>没有会话总线：API 密钥保存在只有你能读取的文件中。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>fonts</source>
        <translation>字体</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>fc-list is not on PATH: the fonts for %1 cannot be checked.</source>
        <translation>fc-list 不在 PATH 中：无法检查 %1 所需的字体。</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%n font(s) for the UI language (%1).</source>
        <translation>
            <numerusform>界面语言（%1）有 %n 款字体。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no font for the UI language (%1).</source>
        <translation>没有适用于界面语言（%1）的字体。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>none configured: the window runs the offline demo.</source>
        <translation>未配置：窗口运行离线演示。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1: no API key (add it in Settings, or set %2).</source>
        <translation>%1：没有 API 密钥（请在设置中添加，或设置 %2）。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 answers (GET %2: HTTP %3).</source>
        <translation>%1 有响应（GET %2：HTTP %3）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 refused the API key (HTTP %2).</source>
        <translation>%1 拒绝了该 API 密钥（HTTP %2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GET %1 answered HTTP %2.</source>
        <translation>GET %1 返回 HTTP %2。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>your settings</source>
        <translation>你的设置</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>MCP</source>
        <translation>MCP</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MCP server &quot;%1&quot;</source>
        <translation>MCP 服务器“%1”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 (not checked: a remote server).</source>
        <translation>%1（未检查：远程服务器）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (%2): the command %3 is not on PATH.</source>
        <translation>%1（%2）：命令 %3 不在 PATH 中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>install uv: https://docs.astral.sh/uv/</source>
        <translation>安装 uv：https://docs.astral.sh/uv/</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>AgentDesk %1 on %2</source>
        <translation>AgentDesk %1，运行于 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>to fix: %1</source>
        <translation>修复方法：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Something AgentDesk needs is missing (MISSING above).</source>
        <translation>缺少 AgentDesk 所需的内容（见上方的 MISSING）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Everything AgentDesk needs is here.</source>
        <translation>AgentDesk 所需的内容均已齐全。</translation>
    </message>
</context>
<context>
    <name>ContextSnapshot</name>
    <message>
        <location filename="../ui/contextview/contextsnapshot.cpp" line="+49"/>
        <source>[thinking] %1</source>
        <translation>[思考] %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>[picture, %1]</source>
        <translation>[图片，%1]</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Skills (1, names and descriptions)</source>
        <extracomment>The context view&apos;s row of the skills listed in the system prompt</extracomment>
        <translation>技能（1 个，名称和描述）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills (%1, names and descriptions)</source>
        <translation>技能（%1 个，名称和描述）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>System prompt</source>
        <translation>系统提示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System prompt (without the project instructions)</source>
        <translation>系统提示（不含项目说明）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System prompt (without the project instructions and skills)</source>
        <translation>系统提示词（不含项目说明和技能）</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+18"/>
        <source>Tool: %1</source>
        <translation>工具：%1</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Loaded with ToolSearch, %1 bytes</source>
        <extracomment>The context view&apos;s state of a tool definition the request carries</extracomment>
        <translation>已通过 ToolSearch 加载，%1 字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Deferred (%1 bytes whole)</source>
        <extracomment>The context view&apos;s state of a tool the request names without its definition</extracomment>
        <translation>已延迟（完整 %1 字节）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Offered once Bash runs a command in the background.</source>
        <translation>Bash 在后台运行命令后才提供。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only named in ToolSearch&apos;s listing until the model loads it:
%1</source>
        <translation>在模型加载之前，只在 ToolSearch 的列表中列出名称：
%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>You: %1</source>
        <translation>你：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+19"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Assistant: %1</source>
        <translation>助手：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Assistant: calls %1</source>
        <translation>助手：调用 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Output of %1</source>
        <translation>%1 的输出</translation>
    </message>
</context>
<context>
    <name>Ui</name>
    <message>
        <location filename="../ui/rewind/checkpointrewindfiles.cpp" line="+28"/>
        <source>No checkpoint of the files was recorded at that point: only the conversation can be rewound.</source>
        <translation>该位置没有记录文件的检查点：只能回退对话。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>The checkpoint %1 is no longer in the store.</source>
        <translation>检查点 %1 已不在存储中。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/conversation/compactionitem.cpp" line="+28"/>
        <source>Summary of %n earlier message(s)</source>
        <extracomment>Header of a compaction in the conversation: the summary stands in for these messages</extracomment>
        <translation>
            <numerusform>%n 条较早消息的摘要</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Written by %1</source>
        <extracomment>Who wrote a compaction&apos;s summary: &quot;Written by claude-sonnet-4&quot;</extracomment>
        <translation>由 %1 撰写</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../ui/conversation/taskcarditem.cpp" line="+101"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Instructions: %1</source>
        <extracomment>What the user asked a compaction&apos;s summary to keep</extracomment>
        <translation>要求：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Hide the %n original message(s), no longer sent to the model (Enter)</source>
        <extracomment>Toggle under a compaction&apos;s summary; Enter is the key that does the same</extracomment>
        <translation>
            <numerusform>隐藏 %n 条原始消息，它们已不再发送给模型（回车）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Show the %n original message(s) (Enter)</source>
        <translation>
            <numerusform>显示 %n 条原始消息（回车）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show less (Space)</source>
        <extracomment>Toggle of a compaction&apos;s long summary; Space is the key that does the same</extracomment>
        <translation>收起（空格）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the whole summary (Space)</source>
        <translation>显示完整摘要（空格）</translation>
    </message>
    <message>
        <location filename="../ui/conversation/conversationmodel.cpp" line="+30"/>
        <source>Steering</source>
        <translation>引导</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow-up</source>
        <translation>后续任务</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>The request failed (%1); retrying in %2 s (attempt %3).</source>
        <translation>请求失败（%1）；%2 秒后重试（第 %3 次尝试）。</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>The request failed.</source>
        <translation>请求失败。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reply was cut off at the output token limit.</source>
        <translation>回复在达到输出 token 上限时被截断。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The conversation no longer fits the model&apos;s context window.</source>
        <translation>对话已超出模型的上下文窗口。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model refused to answer.</source>
        <translation>模型拒绝回答。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped after the maximum number of turns.</source>
        <translation>已达到最大轮数，已停止。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The request did not fit the model&apos;s context: the conversation was compacted and the request sent again.</source>
        <translation>请求超出了模型的上下文：对话已压缩，并重新发送了请求。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The model wrote its tool calls as text; retrying with native tool calls.</source>
        <translation>模型把工具调用写成了文本；正在改用原生工具调用重试。</translation>
    </message>
    <message>
        <location filename="../ui/conversation/lineblock.cpp" line="+130"/>
        <source>Show fewer lines</source>
        <translation>显示较少行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>⋯ %1 more lines (show all %2)</source>
        <translation>⋯ 还有 %1 行（显示全部 %2 行）</translation>
    </message>
    <message>
        <location filename="../ui/conversation/messageitem.cpp" line="+175"/>
        <source>‹  %1 / %2  ›</source>
        <extracomment>The branch switcher on a message: this is branch 2 of 3 at this point</extracomment>
        <translation>‹  %1 / %2  ›</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../ui/settings/modelselection.cpp" line="+118"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>OpenAI Responses</source>
        <translation>OpenAI Responses</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>OpenAI (Responses)</source>
        <translation>OpenAI（Responses）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 兼容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../ui/review/reviewviews.cpp" line="+60"/>
        <source>Arguments</source>
        <extracomment>Screen reader: the box that shows a reviewed tool call&apos;s arguments</extracomment>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Review: %1</source>
        <extracomment>Screen reader: a tool call waiting for review (&quot;Review: Edit src/calc.cpp&quot;)</extracomment>
        <translation>审查：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Review: %1 %2</source>
        <translation>审查：%1 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Asked by subagent %1</source>
        <extracomment>Above a review: the subagent that makes the call (&quot;explore: Find the parser&quot;)</extracomment>
        <translation>由子智能体 %1 请求</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1, asked by subagent %2</source>
        <extracomment>Screen reader: a subagent&apos;s tool call waiting for review</extracomment>
        <translation>%1，由子智能体 %2 请求</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location filename="../ui/conversation/rewinditem.cpp" line="+25"/>
        <source>Files rewound</source>
        <extracomment>Header of a rewind in the conversation</extracomment>
        <translation>文件已回退</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Conversation rewound</source>
        <translation>对话已回退</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Conversation and files rewound</source>
        <translation>对话和文件已回退</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n file(s) restored</source>
        <translation>
            <numerusform>已恢复 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n kept as it was</source>
        <translation>
            <numerusform>%n 个保持原样</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n message(s) no longer sent to the model</source>
        <extracomment>The model no longer sees these messages</extracomment>
        <translation>
            <numerusform>%n 条消息不再发送给模型</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>Hide the %n rewound message(s)</source>
        <extracomment>Toggle under a rewind</extracomment>
        <translation>
            <numerusform>隐藏 %n 条已回退的消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Show the %n rewound message(s)</source>
        <translation>
            <numerusform>显示 %n 条已回退的消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Undo rewind</source>
        <translation>撤销回退</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Restored: %1</source>
        <translation>已恢复：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kept: %1</source>
        <translation>已保留：%1</translation>
    </message>
    <message>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+60"/>
        <location line="+505"/>
        <source>applied with your changes</source>
        <translation>已按你的修改应用</translation>
    </message>
    <message>
        <location filename="../ui/conversation/messageitem.cpp" line="-289"/>
        <location filename="../ui/conversation/toolcarditem.cpp" line="-499"/>
        <source>[picture: %1]</source>
        <translation>[图片：%1]</translation>
    </message>
    <message>
        <location line="+16"/>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+10"/>
        <source>%1, unreadable</source>
        <translation>%1，无法读取</translation>
    </message>
    <message>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+3"/>
        <source>%1, %2 × %3</source>
        <translation>%1，%2 × %3</translation>
    </message>
    <message>
        <location line="+164"/>
        <source>Loading the whole output…</source>
        <extracomment>A tool card&apos;s row while the whole output is read from the session file</extracomment>
        <translation>正在加载完整输出…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the beginning again</source>
        <extracomment>A tool card whose whole output could not be read: back to its beginning</extracomment>
        <translation>重新只显示开头</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>⋯ %1 more (show all)</source>
        <extracomment>A tool card&apos;s output of which only the beginning is shown: %1 how much more (a size)</extracomment>
        <translation>⋯ 还有 %1（全部显示）</translation>
    </message>
    <message>
        <location line="+206"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../ui/conversation/taskcarditem.cpp" line="-24"/>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+7"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>running</source>
        <extracomment>A subagent&apos;s card: it runs (the time so far follows)</extracomment>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>done</source>
        <extracomment>A subagent&apos;s card: it answered</extracomment>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>1 tool call</source>
        <extracomment>A folded subagent card: how many tool calls its subagent made</extracomment>
        <translation>1 次工具调用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tool calls</source>
        <translation>%1 次工具调用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>thinking…</source>
        <translation>正在思考…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · now: %2</source>
        <translation>%1 · 当前：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 · answered: %2</source>
        <extracomment>A folded subagent card: its calls, then the first line of its answer</extracomment>
        <translation>%1 · 回答：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Task %1: %2</source>
        <translation>Task %1：%2</translation>
    </message>
    <message>
        <location line="+327"/>
        <source>Task</source>
        <extracomment>The header of a subagent&apos;s card, before its type (&quot;Task · explore&quot;)</extracomment>
        <translation>Task</translation>
    </message>
    <message>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+2"/>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../ui/conversation/taskcarditem.cpp" line="-396"/>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+3"/>
        <source>stopped</source>
        <extracomment>A subagent&apos;s card: the user stopped it</extracomment>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/conversation/toolcarditem.cpp" line="+0"/>
        <source>stopped after %1</source>
        <translation>%1 后停止</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Details · hooks: %1</source>
        <translation>详细信息 · 钩子：%1</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>hook %1</source>
        <translation>钩子 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/common/toolargumentstext.cpp" line="+54"/>
        <source>[%n more character(s) not shown]</source>
        <translation>
            <numerusform>[还有 %n 个字符未显示]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>%n item(s) nested too deep to show</source>
        <translation>
            <numerusform>%n 项嵌套过深，无法显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>%n more item(s) not shown</source>
        <translation>
            <numerusform>还有 %n 项未显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+40"/>
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… 还有 %n 行未显示</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/common/picturecodec.cpp" line="+95"/>
        <source>it is a WebP picture too large to send as it is, and WebP pictures cannot be scaled here (Qt&apos;s WebP image plugin is not installed)</source>
        <translation>它是一张 WebP 图片，太大，无法原样发送，而此处无法缩放 WebP 图片（未安装 Qt 的 WebP 图像插件）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it is a broken %1 picture</source>
        <translation>它是损坏的 %1 图片</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>it cannot be decoded: %1</source>
        <translation>无法解码：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the pasted picture is empty</source>
        <translation>粘贴的图片为空</translation>
    </message>
    <message>
        <location filename="../ui/agentsession/sessionmodel.cpp" line="+46"/>
        <source>%1. Remove the pictures, or choose a model that takes pictures.</source>
        <extracomment>Above the message box when it holds pictures the model cannot read</extracomment>
        <translation>%1。请移除这些图片，或选择一个接受图片的模型。</translation>
    </message>
</context>
<context>
    <name>Ui::AgentSession</name>
    <message>
        <location filename="../ui/agentsession/agentsession.cpp" line="+86"/>
        <source>Hook %1 (%2): %3</source>
        <translation>钩子 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A hook refused the message: %1</source>
        <translation>钩子拒绝了该消息：%1</translation>
    </message>
    <message>
        <source>%1. Remove the pictures, or choose a model that takes pictures.</source>
        <extracomment>Above the message box when it holds pictures the model cannot read</extracomment>
        <translation type="vanished">%1。请移除这些图片，或选择一个接受图片的模型。</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>The agent is working: compact once it has finished.</source>
        <translation>智能体正在工作：请在它完成后再压缩。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The agent is working: stop it or wait until it has finished, then rewind.</source>
        <translation>智能体正在工作：请停止它或等它完成，然后再回退。</translation>
    </message>
</context>
<context>
    <name>Ui::AgentStatusBar</name>
    <message>
        <location filename="../ui/statusbar/agentstatusbar.cpp" line="+40"/>
        <source>Thinking: %1</source>
        <translation>思考强度：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Reads run freely; every edit, write and command that changes something is reviewed.</source>
        <translation>读取操作直接执行；任何会改动内容的编辑、写入和命令都需要审查。</translation>
    </message>
    <message>
        <source>Edits and writes inside the repository are applied without review; commands still ask.</source>
        <translation type="vanished">仓库内的编辑和写入无需审查直接应用；命令仍需询问。</translation>
    </message>
    <message>
        <source>The agent may only read: edits, writes and commands are not offered to the model.</source>
        <translation type="vanished">智能体只能读取：编辑、写入和命令不提供给模型。</translation>
    </message>
    <message>
        <source>Everything runs without asking, except deny rules. Writes outside the repository stay impossible.</source>
        <translation type="vanished">除拒绝规则外，一切操作都不再询问。仍然无法写入仓库之外。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edits and writes inside the repository are applied without review, except AgentDesk&apos;s own settings; commands still ask.</source>
        <translation>仓库内的编辑和写入无需审阅即被应用（AgentDesk 自身的设置除外）；命令仍会询问。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The agent may only read: edits and writes are not offered to the model, and only read-only commands run.</source>
        <translation>智能体只能读取：不向模型提供编辑和写入工具，且只运行只读命令。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skips the questions, not the limits: everything runs without asking, except deny rules and changes to AgentDesk&apos;s own settings (.agentdesk/, .mcp.json, your config folder), which still ask. Writes outside the repository stay impossible, also for commands (a command AgentDesk cannot analyse is not checked).</source>
        <translation>跳过的是询问，而不是限制：一切都无需询问即可运行，但拒绝规则仍然有效，修改 AgentDesk 自身的设置（.agentdesk/、.mcp.json、你的配置文件夹）仍会询问。写入仓库之外依然不可能，命令也一样（AgentDesk 无法分析的命令不受检查）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Bypass on: runs unasked</source>
        <translation>跳过权限已开启：不经询问即运行</translation>
    </message>
    <message>
        <location line="+82"/>
        <location line="+2"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Turn on bypass permissions?</source>
        <translation>开启跳过权限检查吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The agent will edit files and run commands without asking you, until you switch back.</source>
        <translation>在你切换回来之前，智能体将不经询问地编辑文件和运行命令。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Turn on bypass</source>
        <translation>开启跳过权限</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>The thinking level can be switched between turns: wait until the agent is done, or stop it.</source>
        <translation>思考强度只能在两轮之间切换：请等待智能体完成，或将其停止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How much the model thinks before it answers. More thinking takes longer and costs more.</source>
        <translation>模型在回答之前思考的程度。思考越多，耗时越长，费用越高。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preparing…</source>
        <translation>正在准备…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Waiting for your review (%1) · %2</source>
        <translation>等待你的审查（%1）· %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working · %1</source>
        <translation>工作中 · %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
</context>
<context>
    <name>Ui::ApprovalInbox</name>
    <message numerus="yes">
        <location filename="../ui/sessions/approvalinbox.cpp" line="+122"/>
        <source>wrote %n file(s)</source>
        <translation>
            <numerusform>写入了 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not understood</source>
        <translation>无法识别</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>low risk</source>
        <translation>低风险</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>runs commands</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>new file</source>
        <translation>新文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>changes a file</source>
        <translation>修改文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>other tool</source>
        <translation>其他工具</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
</context>
<context>
    <name>Ui::ApprovalInboxDialog</name>
    <message>
        <location filename="../ui/sessions/approvalinboxdialog.cpp" line="+58"/>
        <location line="+276"/>
        <source>&amp;Approvals…</source>
        <translation>批准请求(&amp;A)…</translation>
    </message>
    <message>
        <location line="-271"/>
        <source>No tool call is waiting for your approval.</source>
        <translation>没有等待你批准的工具调用。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show in &amp;Session</source>
        <translation>在会话中显示(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+263"/>
        <source>Approvals</source>
        <translation>批准请求</translation>
    </message>
    <message>
        <location line="-259"/>
        <source>Every review waiting in any session, answered in one place</source>
        <translation>所有会话中等待的审查，集中在一处答复</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open the approvals inbox (Ctrl+Shift+A)</source>
        <translation>打开批准请求收件箱（Ctrl+Shift+A）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Enter allow once · Ctrl+Shift+Enter allow for the session · Delete deny · ↑↓ move · Tab into the review</source>
        <translation>Enter 允许一次 · Ctrl+Shift+Enter 在本会话中允许 · Delete 拒绝 · ↑↓ 移动 · Tab 进入审查</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Waiting approvals</source>
        <translation>等待批准的请求</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command or path</source>
        <translation>命令或路径</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Allow once every low-risk request identical to this one, in any session (Alt+Enter)</source>
        <translation>对任意会话中与此相同的每个低风险请求各允许一次（Alt+Enter）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show this request&apos;s session in the window</source>
        <translation>在窗口中显示此请求所在的会话</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>%1 › %2</source>
        <extracomment>The inbox&apos;s Session column for a subagent&apos;s call: &quot;Fix the parser › explore: Find it&quot;</extracomment>
        <translation>%1 › %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Asked by subagent %1</source>
        <translation>由子智能体 %1 请求</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>Approve All %1 Like This</source>
        <translation>批准全部 %1 个同类请求</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No approvals waiting</source>
        <translation>没有等待批准的请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting for your answer: %1</source>
        <translation>等待你的答复：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Approvals (%1)</source>
        <translation>批准请求（%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 to approve</source>
        <translation>%1 个待批准</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Approvals (%1)…</source>
        <translation>批准请求（%1）(&amp;A)…</translation>
    </message>
</context>
<context>
    <name>Ui::BackgroundShellsPanel</name>
    <message>
        <location filename="../ui/window/backgroundshellspanel.cpp" line="+29"/>
        <location line="+18"/>
        <source>Background commands</source>
        <translation>后台命令</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Output of the selected background command</source>
        <translation>所选后台命令的输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(no output yet)</source>
        <translation>（尚无输出）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop the selected command and everything it started (Del in the list)</source>
        <translation>停止所选命令及其启动的所有进程（在列表中按 Del）</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>%1   %2</source>
        <extracomment>A background command in the side panel: its state, then its command line</extracomment>
        <translation>%1   %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1, process %2</source>
        <translation>%1，进程 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whole output: %1</source>
        <translation>完整输出：%1</translation>
    </message>
</context>
<context>
    <name>Ui::BashReviewView</name>
    <message>
        <location filename="../ui/review/bashreviewview.cpp" line="+29"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 minute</source>
        <translation>1 分钟</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 minutes</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 second</source>
        <translation>1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 seconds</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Run a shell command</source>
        <translation>运行 shell 命令</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Worth a look</source>
        <translation>值得留意</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>The agent says: %1</source>
        <translation>智能体说明：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The description the agent gave with the command; check it against the command itself</source>
        <translation>智能体随命令给出的说明；请与命令本身核对</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>In %1  ·  In the background, until stopped or the session ends</source>
        <translation>目录 %1  ·  在后台运行，直到被停止或会话结束</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In %1  ·  Timeout %2</source>
        <translation>目录 %1  ·  超时 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Working directory and time limit of the command</source>
        <translation>命令的工作目录和时间限制</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>In the sandbox the command cannot change files outside the repository or read your keys (~/.ssh, ~/.gnupg, the keyring, cloud credentials).</source>
        <translation>在沙盒中，该命令无法修改仓库之外的文件，也无法读取你的密钥（~/.ssh、~/.gnupg、密钥环、云服务凭据）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Without the sandbox the command runs with all your rights.</source>
        <translation>不使用沙盒时，该命令以你的全部权限运行。</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>no analysis</source>
        <translation>无分析</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not understood: %1. AgentDesk cannot tell what this command does; read it yourself before allowing it. No rule can cover it.</source>
        <translation>无法理解：%1。AgentDesk 无法判断这条命令做什么；允许之前请自己读一遍。任何规则都无法涵盖它。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>(whole command)</source>
        <translation>（整条命令）</translation>
    </message>
</context>
<context>
    <name>Ui::BranchController</name>
    <message>
        <location filename="../ui/rewind/branchcontroller.cpp" line="+47"/>
        <source>No conversation is open.</source>
        <translation>没有打开的对话。</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Only a message you wrote can be edited and sent again.</source>
        <translation>只有你自己写的消息才能编辑并重新发送。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The conversation has no branches yet.</source>
        <translation>此对话还没有分支。</translation>
    </message>
</context>
<context>
    <name>Ui::BranchTreeDialog</name>
    <message>
        <location filename="../ui/rewind/branchtreedialog.cpp" line="+45"/>
        <source>Branches of the Conversation</source>
        <extracomment>The tree view of a conversation&apos;s branches</extracomment>
        <translation>对话的分支</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every branch of this conversation. Enter goes on with the branch picked; the others stay.</source>
        <translation>此对话的所有分支。按 Enter 在所选分支上继续；其他分支保留。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Branches</source>
        <translation>分支</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Go to Branch</source>
        <translation>转到分支</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>(no text)</source>
        <translation>（无文本）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>● %1</source>
        <extracomment>A row of the branch tree: the one the conversation is on now (a dot before its words)</extracomment>
        <translation>● %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The branch the conversation is on: %1</source>
        <translation>对话当前所在的分支：%1</translation>
    </message>
</context>
<context>
    <name>Ui::ChangedFilesPanel</name>
    <message>
        <location filename="../ui/window/changedfilespanel.cpp" line="+18"/>
        <location line="+78"/>
        <source>Files changed</source>
        <translation>已更改的文件</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Show Changes</source>
        <translation>显示更改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Revert This File</source>
        <translation>还原此文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bring the file back to how it was before the agent first changed it in this session; every other file stays as it is</source>
        <translation>将此文件恢复到本会话中智能体首次更改它之前的状态；其他文件保持不变</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The files the agent changes in this session appear here.</source>
        <translation>智能体在本会话中更改的文件会显示在这里。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1  +%2 −%3</source>
        <extracomment>A changed file in the side panel: path, lines added, lines removed</extracomment>
        <translation>%1  +%2 −%3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>⚠ %1</source>
        <extracomment>After a changed file&apos;s counts: the language server&apos;s errors and warnings in it</extracomment>
        <translation>⚠ %1</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%1
Created in this session; %n change(s)</source>
        <translation>
            <numerusform>%1
在本会话中创建；%n 处更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1
%n change(s) in this session</source>
        <translation>
            <numerusform>%1
本会话中 %n 处更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The language server finds %n error(s) or warning(s) in it after the last change.</source>
        <translation>
            <numerusform>最近一次修改后，语言服务器在其中发现 %n 个错误或警告。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Double-click to see its changes; right-click to revert it.</source>
        <translation>双击查看其更改；右键单击可还原。</translation>
    </message>
    <message>
        <source>Double-click to see its changes.</source>
        <translation type="vanished">双击查看其更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Files changed (%1)</source>
        <translation>已更改的文件（%1）</translation>
    </message>
</context>
<context>
    <name>Ui::CompactDialog</name>
    <message numerus="yes">
        <location filename="../ui/contextview/compactdialog.cpp" line="+28"/>
        <source>%n message(s), about %1 tokens</source>
        <extracomment>&quot;12 messages, about 3.4k tokens&quot;: one side of a compaction&apos;s preview</extracomment>
        <translation>
            <numerusform>%n 条消息，约 %1 个 token</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Compact the Conversation</source>
        <translation>压缩对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A summary written by the model will stand in for the older part of the conversation in every later request. The originals stay in the session and in the window.</source>
        <translation>此后的每个请求中，将由模型撰写的摘要代替对话较早的部分。原始消息仍保留在会话和窗口中。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;What the summary must keep (optional):</source>
        <translation>摘要必须保留的内容（可选）(&amp;W)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. keep the API design discussion</source>
        <extracomment>Example instructions for a compaction&apos;s summary</extracomment>
        <translation>例如：保留关于 API 设计的讨论</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Messages to summarise</source>
        <translation>要概括的消息</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Messages kept verbatim</source>
        <translation>原样保留的消息</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;Compact</source>
        <extracomment>The button that starts a compaction</extracomment>
        <translation>压缩(&amp;C)</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Nothing to compact yet: the conversation is a single turn, or nothing was added since the last summary.</source>
        <translation>暂无可压缩的内容：对话只有一轮，或自上次摘要以来没有新增内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Summarised: %1</source>
        <extracomment>Heading of the messages a compaction&apos;s summary replaces</extracomment>
        <translation>将概括(&amp;S)：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Summarised: nothing</source>
        <translation>将概括(&amp;S)：无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Kept verbatim: %1</source>
        <extracomment>Heading of the recent messages a compaction keeps as they are</extracomment>
        <translation>原样保留(&amp;K)：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Kept verbatim: everything</source>
        <translation>原样保留(&amp;K)：全部</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Earlier summary: %1</source>
        <extracomment>The summary of an earlier compaction, which a new one summarises again</extracomment>
        <translation>先前的摘要：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>You: %1</source>
        <translation>你：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Agent: %1</source>
        <translation>智能体：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Agent calls %1</source>
        <extracomment>A reply that only calls tools: &quot;Agent calls Read, Bash&quot;</extracomment>
        <translation>智能体调用 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: %2</source>
        <extracomment>A tool&apos;s output in the compaction preview: &quot;Bash: 3 files changed&quot;</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
</context>
<context>
    <name>Ui::Composer</name>
    <message>
        <location filename="../ui/composer/composer.cpp" line="+402"/>
        <source>Pasted picture</source>
        <extracomment>The name of a picture pasted into the message box from the clipboard</extracomment>
        <translation>粘贴的图片</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>A review waits: Ctrl+Enter allows · Esc to deny with feedback · Ctrl+. stops</source>
        <translation>有审查等待中：Ctrl+Enter 允许 · Esc 拒绝并反馈 · Ctrl+. 停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter steers the running task · Alt+Enter queues a follow-up · Esc stops</source>
        <translation>Enter 引导正在运行的任务 · Alt+Enter 加入后续任务 · Esc 停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the agent · Enter sends · Shift+Enter adds a line · @ mentions a file</source>
        <translation>向智能体提问 · Enter 发送 · Shift+Enter 换行 · @ 引用文件</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Your command: %1</source>
        <extracomment>The tool tip of a custom command in the composer&apos;s / list: where it comes from</extracomment>
        <translation>你的命令：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This repository&apos;s command: %1</source>
        <translation>此仓库的命令：%1</translation>
    </message>
</context>
<context>
    <name>Ui::ComposerPictures</name>
    <message>
        <location filename="../ui/composer/composerpictures.cpp" line="+48"/>
        <source>it is larger than %1 MB</source>
        <translation>它大于 %1 MB</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1 was not added: %2</source>
        <extracomment>Above the message box: &quot;shot.png was not added: it is a broken PNG picture&quot;</extracomment>
        <translation>%1 未添加：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 was not added: one message takes at most %2 pictures</source>
        <translation>%1 未添加：一条消息最多包含 %2 张图片</translation>
    </message>
</context>
<context>
    <name>Ui::ContextDialog</name>
    <message>
        <location filename="../ui/contextview/contextdialog.cpp" line="+52"/>
        <source>System prompt</source>
        <translation>系统提示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Instructions</source>
        <translation>说明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool definition</source>
        <translation>工具定义</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool output</source>
        <translation>工具输出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>What Fills the Context Window</source>
        <translation>上下文窗口的内容</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Context items</source>
        <translation>上下文条目</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Beginning of the selected item</source>
        <translation>所选条目的开头</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Drop from Context</source>
        <translation>从上下文中移除(&amp;D)</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+202"/>
        <source>&amp;Pin</source>
        <translation>固定(&amp;P)</translation>
    </message>
    <message>
        <location line="-119"/>
        <source>Context: %1 of %2 tokens (%3%)</source>
        <translation>上下文：%1 / %2 个 token（%3%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Context: %1 tokens; the model&apos;s window is unknown (set it in Settings)</source>
        <translation>上下文：%1 个 token；模型的窗口大小未知（可在设置中填写）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each item is an estimate (about 3.5 characters a token)</source>
        <translation>每个条目都是估算值（约 3.5 个字符一个 token）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>, corrected by the provider&apos;s counts of %n replies (×%1)</source>
        <translation>
            <numerusform>，已按服务商对 %n 条回复的计数校正（×%1）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>; together %1. The total above is the provider&apos;s count of the last request plus the estimate of what came after it.</source>
        <translation>；合计 %1。上方的总数是服务商对上一个请求的计数，加上其后新增内容的估算。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&lt;0.1%</source>
        <translation>&lt;0.1%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Removed from context</source>
        <translation>已从上下文中移除</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Nothing selected</source>
        <translation>未选择任何条目</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 — %2 tokens</source>
        <translation>%1 — %2 个 token</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Un&amp;pin</source>
        <translation>取消固定(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not available in this version.</source>
        <translation>此版本中不可用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Future requests carry a short note instead of this tool output (Delete).</source>
        <translation>此后的请求将以一条简短说明代替此工具输出（Delete）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep this message word for word when the conversation is compacted (Space).</source>
        <translation>压缩对话时逐字保留这条消息（空格）。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>
[Loading the whole output…]</source>
        <translation>
[正在加载完整输出…]</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The whole output is in the session file, which is not open here.</source>
        <translation>完整输出在会话文件中，而此处未打开该文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[%1]</source>
        <translation>[%1]</translation>
    </message>
</context>
<context>
    <name>Ui::ConversationPage</name>
    <message>
        <location filename="../ui/page/conversationpage.cpp" line="+66"/>
        <source>Why the rewind was refused</source>
        <translation>回退被拒绝的原因</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rewind refused: %1</source>
        <extracomment>Above the message box when a rewind could not be done</extracomment>
        <translation>回退被拒绝：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Rewinding: restoring the files. What you send meanwhile waits for it.</source>
        <extracomment>Above the message box while a confirmed rewind writes the files back</extracomment>
        <translation>正在回退：恢复文件中。在此期间发送的内容会等它完成。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A new branch ends at that message: what you send next continues from it. The other branch stays (Show Branches…, Ctrl+Shift+G).</source>
        <extracomment>Above the message box after &quot;Fork from here&quot;</extracomment>
        <translation>新分支止于那条消息：你接下来发送的内容将从那里继续。另一个分支仍然保留（显示分支…，Ctrl+Shift+G）。</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+77"/>
        <source>Not branched: %1</source>
        <extracomment>Above the message box when a branch could not be made or switched to</extracomment>
        <translation>未能分支：%1</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Fetching the MCP prompt and resources this message names… Esc cancels</source>
        <extracomment>Above the message box while the MCP prompt or resources it names are fetched</extracomment>
        <translation>正在获取此消息引用的 MCP 提示词和资源… 按 Esc 取消</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Not sent: %1</source>
        <extracomment>Above the message box: its MCP prompt or resource could not be had</extracomment>
        <translation>未发送：%1</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Continue in a Copy</source>
        <translation>在副本中继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy this conversation into a new session of its own and go on there</source>
        <translation>将此对话复制到一个新的会话中并在那里继续</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Read-only: %1</source>
        <extracomment>Above the message box of a session another window has open</extracomment>
        <translation>只读：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read-only: %1 Close it there and resume it here again, or continue in a copy.</source>
        <translation>只读：%1 请在那里关闭它后在此重新恢复，或在副本中继续。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1 %2: %3, %4 ms</source>
        <extracomment>A hook on a tool card: event, command, outcome, time taken</extracomment>
        <translation>%1 %2：%3，%4 ms</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Steering, goes in before the next model call: %1</source>
        <extracomment>Above the message box: steering messages the loop has not taken yet</extracomment>
        <translation>引导消息，将在下一次调用模型之前插入：%1</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>Editing your message “%1”: sending makes a new branch from right before it; this branch stays.</source>
        <extracomment>Above the message box while an earlier message is edited</extracomment>
        <translation>正在编辑你的消息“%1”：发送后将从它之前创建一个新分支；当前分支保留。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>and restore files</source>
        <extracomment>Above the message box while an earlier message is edited: the files go back too</extracomment>
        <translation>并恢复文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bring the files back to how they were before that message too (from the session&apos;s checkpoints; files you changed yourself are kept)</source>
        <translation>同时把文件恢复到那条消息之前的状态（依据会话的检查点；你自己更改的文件会保留）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+6"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Stop fetching the MCP prompt and resources; nothing is sent (Esc)</source>
        <translation>停止获取 MCP 提示词和资源；不发送任何内容（Esc）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop the agent (Esc)</source>
        <translation>停止智能体（Esc）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send the task (Enter)</source>
        <translation>发送任务（Enter）</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>Picture</source>
        <translation>图片</translation>
    </message>
</context>
<context>
    <name>Ui::ConversationView</name>
    <message>
        <location filename="../ui/conversation/conversationview.cpp" line="+57"/>
        <source>The whole output is in the session file, which is not open here.</source>
        <translation>完整输出在会话文件中，而此处未打开该文件。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The whole output cannot be read.</source>
        <translation>无法读取完整输出。</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Jump to latest</source>
        <extracomment>Over the bottom of the conversation after the user scrolled up</extracomment>
        <translation>跳到最新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the newest activity and follow it again (End)</source>
        <translation>显示最新活动并重新跟随（End）</translation>
    </message>
    <message>
        <location line="+703"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy Output</source>
        <extracomment>In a tool card&apos;s context menu: its whole output, read from the session file if need be</extracomment>
        <translation>复制输出</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rewind to Here…</source>
        <extracomment>In a message&apos;s context menu: go back to the point right before this message</extracomment>
        <translation>回退到此处…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Choose whether to bring back the files, the conversation or both as they were before this message</source>
        <translation>选择将文件、对话或两者恢复到这条消息之前的状态</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Edit and Resend…</source>
        <extracomment>In a user message&apos;s context menu: change it and send it again on a new branch</extracomment>
        <translation>编辑并重新发送…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change this message and send it again: a new branch of the conversation; this one stays</source>
        <translation>修改此消息并重新发送：作为对话的一个新分支；当前分支保留</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Fork from Here</source>
        <extracomment>In a message&apos;s context menu: a new branch of the conversation that ends here</extracomment>
        <translation>从此处分叉</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A new branch that ends at this message: your next message continues from here; this branch stays</source>
        <translation>创建一个止于此消息的新分支：你的下一条消息将从这里继续；当前分支保留</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fork from Here and Restore Files</source>
        <translation>从此处分叉并恢复文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same, and the files as they were at this message (from the session&apos;s checkpoints; files you changed yourself are kept)</source>
        <translation>同上，并将文件恢复到此消息时的状态（依据会话的检查点；你自己更改的文件会保留）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Previous Branch</source>
        <extracomment>In a message&apos;s context menu: the branch switcher from the keyboard</extracomment>
        <translation>上一个分支</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Next Branch</source>
        <translation>下一个分支</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show Branches…</source>
        <translation>显示分支…</translation>
    </message>
    <message>
        <location filename="../ui/conversation/conversationaccessible.cpp" line="+35"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+150"/>
        <source>You: %1</source>
        <extracomment>Screen reader: a message the user sent (&quot;You: fix the crash&quot;)</extracomment>
        <translation>你：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>You (%1): %2</source>
        <translation>你（%1）：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Agent: %1</source>
        <extracomment>Screen reader: an answer of the agent</extracomment>
        <translation>智能体：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Subagent %1: %2, %3, %4</source>
        <extracomment>Screen reader: a subagent&apos;s card, &quot;Subagent explore: Find the parser, done, folded&quot;</extracomment>
        <translation>子智能体 %1：%2，%3，%4</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>open</source>
        <translation>已展开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>folded</source>
        <translation>已折叠</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tool %1: %2, %3</source>
        <extracomment>Screen reader: a tool call, &quot;Tool Bash: make test, done&quot;</extracomment>
        <translation>工具 %1：%2，%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Note: %1</source>
        <extracomment>Screen reader: a note of the app in the conversation (&quot;Stopped.&quot;)</extracomment>
        <translation>提示：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: %2, %3</source>
        <extracomment>Screen reader: a compaction&apos;s summary, &quot;Summary of 42 earlier messages: ...&quot;</extracomment>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: %2</source>
        <extracomment>Screen reader: a rewind, &quot;Conversation rewound: 6 messages no longer sent ...&quot;</extracomment>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>Ui::DesktopNotifier</name>
    <message>
        <location filename="../ui/window/desktopnotifier.cpp" line="+171"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="+171"/>
        <source>%1 (asked by subagent %2)</source>
        <translation>%1（由子代理 %2 请求）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Approve: what Bash %1 wrote</source>
        <translation>待批准：Bash %1 写入的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Approve: Bash %1</source>
        <translation>待批准：Bash %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Approve: %1 %2 (new file)</source>
        <translation>待批准：%1 %2（新文件）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Approve: %1 %2</source>
        <translation>待批准：%1 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Approve: %1</source>
        <translation>待批准：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The task finished.</source>
        <translation>任务已完成。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the model refused</source>
        <translation>模型拒绝了请求</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The task failed: %1</source>
        <translation>任务失败：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed: %1 (%2)</source>
        <translation>失败：%1（%2）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
</context>
<context>
    <name>Ui::DiffReviewView</name>
    <message>
        <location filename="../ui/review/diffreviewview.cpp" line="+87"/>
        <source>Side &amp;by side</source>
        <translation>并排显示(&amp;B)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the file before and after next to each other</source>
        <translation>并排显示文件更改前后的内容</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change the proposed text yourself before applying it (%1)</source>
        <translation>在应用之前自行修改建议的文本（%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Uncheck a change to leave it out</source>
        <translation>取消勾选某处更改即可将其排除</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After the change</source>
        <translation>更改后</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Create %1</source>
        <translation>创建 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Overwrite %1</source>
        <translation>覆盖 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Lines added: %1
Lines removed: %2</source>
        <translation>新增行数：%1
删除行数：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines %1–%2</source>
        <translation>第 %1–%2 行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Uncheck to leave this change out</source>
        <translation>取消勾选以排除此处更改</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Your version of %1, starting from the proposal.</source>
        <translation>%1 的你的版本，从建议的更改开始。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Your version of %1, without the changes you unchecked (%2).</source>
        <translation>%1 的你的版本，不含你取消勾选的更改（%2）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What you see is what will be written, and the model is told what you changed. Esc: back to the review.</source>
        <translation>你看到的就是将要写入的内容，模型会被告知你改了什么。Esc：返回审查。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Your version is the file as it is: nothing would be applied.</source>
        <translation>你的版本与文件现状相同：不会应用任何更改。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every change is unchecked: nothing would be applied.</source>
        <translation>所有更改都已取消勾选：不会应用任何内容。</translation>
    </message>
</context>
<context>
    <name>Ui::FileDiffView</name>
    <message>
        <location filename="../ui/review/filediffview.cpp" line="+91"/>
        <source>Open in &amp;Editor</source>
        <translation>在编辑器中打开(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open the file with the desktop&apos;s editor</source>
        <translation>用桌面的编辑器打开该文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Revert This File</source>
        <translation>还原此文件(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bring the file back to how it was before the agent first changed it in this session; every other file stays as it is</source>
        <translation>将此文件恢复到本会话中智能体首次更改它之前的状态；其他文件保持不变</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Changes to %1</source>
        <translation>%1 的更改</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Reading the file and its last commit…</source>
        <translation>正在读取文件及其最近一次提交…</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1 no longer exists: it was deleted or moved after the session changed it.</source>
        <translation>%1 已不存在：会话更改它之后它被删除或移动了。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is no longer a file.</source>
        <translation>%1 已不再是文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+49"/>
        <source>%1 is too large to show here (%2).</source>
        <translation>%1 太大，无法在此显示（%2）。</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+47"/>
        <source>%1 is a binary file: its changes cannot be shown as text.</source>
        <translation>%1 是二进制文件：其更改无法以文本显示。</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Compared with the last commit (HEAD); changes not committed before this session show too.</source>
        <translation>与最后一次提交（HEAD）比较；本会话之前未提交的更改也会显示。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not in the last commit: shown as a new file.</source>
        <translation>不在最后一次提交中：显示为新文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>git could not be run: shown as a new file.</source>
        <translation>无法运行 git：显示为新文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 is the same as in the last commit: the session&apos;s changes to it were undone or committed.</source>
        <translation>%1 与最后一次提交中的相同：会话对它的更改已被撤销或提交。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>No difference in the text of %1 (its mode may differ).</source>
        <translation>%1 的文本没有差异（文件模式可能不同）。</translation>
    </message>
</context>
<context>
    <name>Ui::FileKeyStore</name>
    <message>
        <location filename="../ui/keys/filekeystore.cpp" line="+73"/>
        <source>No system keyring is available: keys are kept in %1, readable only by you.</source>
        <translation>没有可用的系统密钥环：密钥保存在 %1 中，只有你自己可以读取。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The key file %1 can be read by other users, so AgentDesk does not use it. Make it private (chmod 600 &quot;%1&quot;) and replace the keys it holds at your providers: they may have been seen.</source>
        <translation>密钥文件 %1 可被其他用户读取，因此 AgentDesk 不会使用它。请将其设为私有（chmod 600 &quot;%1&quot;），并到各提供商处更换其中的密钥：它们可能已被他人看到。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot read the key file %1: %2</source>
        <translation>无法读取密钥文件 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The key file %1 is damaged (%2). Delete it and enter your keys again.</source>
        <translation>密钥文件 %1 已损坏（%2）。请删除它并重新输入密钥。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot create the folder %1 for the key file.</source>
        <translation>无法为密钥文件创建文件夹 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot create the key file %1: %2</source>
        <translation>无法创建密钥文件 %1：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+5"/>
        <source>Cannot write the key file %1: %2</source>
        <translation>无法写入密钥文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>Ui::FollowUpPanel</name>
    <message>
        <location filename="../ui/window/followuppanel.cpp" line="+69"/>
        <source>No follow-ups queued.

While the agent works, press Alt+Enter in the message box to queue a message for when the current task ends.</source>
        <translation>没有排队的后续任务。

智能体工作时，在消息框中按 Alt+Enter，即可排队一条消息，在当前任务结束后发送。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Send Now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send this follow-up now: it steers the running task, or starts one when the agent is idle</source>
        <translation>立即发送此后续任务：智能体正在运行时用于引导当前任务，空闲时则开始新任务</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hold the queue: the current task ends without taking follow-ups</source>
        <translation>暂停队列：当前任务结束时不接续后续任务</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>Follow-ups (%1)</source>
        <translation>后续任务（%1）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Follow-ups</source>
        <translation>后续任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · paused</source>
        <translation>%1 · 已暂停</translation>
    </message>
</context>
<context>
    <name>Ui::InterruptedSessionBar</name>
    <message>
        <location filename="../ui/window/interruptedsessionbar.cpp" line="+24"/>
        <source>Open It</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the interrupted session: what it showed is kept, and its run is marked as interrupted</source>
        <translation>打开被中断的会话：其已显示的内容均保留，其运行标记为已中断</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>less than a minute ago</source>
        <translation>不到一分钟前</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>AgentDesk ended while “%1” was running (last written %2). Its conversation and the output it had shown are kept.</source>
        <extracomment>A bar after a restart: the session that was running when AgentDesk ended</extracomment>
        <translation>AgentDesk 在“%1”运行时退出（最后写入于 %2）。其对话和已显示的输出均已保留。</translation>
    </message>
</context>
<context>
    <name>Ui::KeychainKeyStore</name>
    <message>
        <location filename="../ui/keys/keychainkeystore.cpp" line="+36"/>
        <source>The system keyring refused access (%1). Unlock the keyring and try again.</source>
        <translation>系统密钥环拒绝访问（%1）。请解锁密钥环后重试。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No system keyring is available (%1).</source>
        <translation>没有可用的系统密钥环（%1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The system keyring failed: %1</source>
        <translation>系统密钥环出错：%1</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Stored in the system keyring.</source>
        <translation>保存在系统密钥环中。</translation>
    </message>
</context>
<context>
    <name>Ui::LanguageServersPage</name>
    <message>
        <location filename="../ui/settings/languageserverspage.cpp" line="+48"/>
        <source>&amp;Check changes with language servers</source>
        <translation>用语言服务器检查修改(&amp;C)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>After each Edit or Write the file&apos;s language server checks it, and the problems the change introduced go to the model and the review</source>
        <translation>每次 Edit 或 Write 后，由该文件的语言服务器检查，修改引入的问题会告知模型并显示在审阅中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The longest an Edit or Write waits for its check; a slower answer is said to the model instead</source>
        <translation>Edit 或 Write 等待检查的最长时间；回答更慢时改为告知模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Looked for on PATH when a session starts; the first found for a language is used (clangd reads the repository&apos;s compile_commands.json). A server runs with Bash&apos;s environment, without secrets.</source>
        <translation>会话开始时在 PATH 中查找；每种语言使用找到的第一个（clangd 读取仓库的 compile_commands.json）。服务器以 Bash 的环境运行，不含机密。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>File suffixes</source>
        <translation>文件后缀</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Double-click a cell to change it; uncheck a server to leave it out</source>
        <translation>双击单元格进行修改；取消勾选服务器即不使用它</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restore &amp;defaults</source>
        <translation>恢复默认(&amp;D)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Wait for a check at most:</source>
        <translation>检查最长等待(&amp;W)：</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>Row %1 is left out: a server needs a name, a command and file suffixes (letters and digits).</source>
        <translation>第 %1 行未被采用：服务器需要名称、命令和文件后缀（字母和数字）。</translation>
    </message>
</context>
<context>
    <name>Ui::LeftoverSteeringView</name>
    <message>
        <location filename="../ui/page/leftoversteeringview.cpp" line="+98"/>
        <source>&lt;b&gt;Not sent&lt;/b&gt;, the task stopped first: %1</source>
        <extracomment>Above the message box: a steering message the stopped task never received</extracomment>
        <translation>&lt;b&gt;未发送&lt;/b&gt;，任务先停止了：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send Now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send this message now: it starts a new task, or steers the running one</source>
        <translation>立即发送这条消息：它会开始一个新任务，或引导正在运行的任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send now: %1</source>
        <translation>立即发送：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drop this message without sending it</source>
        <translation>丢弃这条消息，不发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discard: %1</source>
        <translation>丢弃：%1</translation>
    </message>
</context>
<context>
    <name>Ui::MainWindow</name>
    <message>
        <source>Stop the running task before opening another repository.</source>
        <translation type="vanished">请先停止正在运行的任务，再打开其他仓库。</translation>
    </message>
    <message>
        <location filename="../ui/window/mainwindow.cpp" line="+337"/>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 — AgentDesk</source>
        <extracomment>Window title: repository name, branch</extracomment>
        <translation>%1 — AgentDesk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2) — AgentDesk</source>
        <translation>%1（%2）— AgentDesk</translation>
    </message>
    <message>
        <source>Stop the running task before resuming another session.</source>
        <translation type="vanished">请先停止正在运行的任务，再恢复其他会话。</translation>
    </message>
    <message>
        <location line="+256"/>
        <source>This session works in the git worktree of branch %1, which cannot be used: %2 It does not run in your main checkout instead.</source>
        <translation>此会话在分支 %1 的 git 工作树中工作，但该工作树无法使用：%2 它不会改为在你的主检出目录中运行。</translation>
    </message>
    <message>
        <location line="+180"/>
        <source>Summarising the older part of the conversation so that the next request fits…</source>
        <translation>正在为对话较早的部分撰写摘要，以便下一个请求能放得下……</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The conversation was compacted.</source>
        <translation>对话已压缩。</translation>
    </message>
    <message>
        <source>Stop the running task before starting another session.</source>
        <translation type="vanished">请先停止正在运行的任务，再开始另一个会话。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Making a git worktree for the new session…</source>
        <translation>正在为新会话创建 git 工作树…</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>No worktree was made: %1</source>
        <translation>未创建工作树：%1</translation>
    </message>
    <message>
        <source>The worktree session was not started: another task runs.</source>
        <translation type="vanished">工作树会话未启动：另一个任务正在运行。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>This session works on branch %1 in %2; your checkout is not touched until you bring its changes back.</source>
        <translation>此会话在 %2 中的分支 %1 上工作；在你把它的更改带回之前，你的检出目录不会被改动。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Worktree: %1</source>
        <extracomment>Status bar: the session edits a git worktree on this branch, not the main checkout</extracomment>
        <translation>工作树：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Worktree unusable: %1</source>
        <translation>工作树无法使用：%1</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Branch %1 has no changes to bring back.</source>
        <translation>分支 %1 没有可带回的更改。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Bring Back Changes of %1</source>
        <translation>带回 %1 的更改</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Nothing was brought back.</source>
        <translation>没有带回任何内容。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Nothing was brought back: %1</source>
        <translation>没有带回任何内容：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Brought back %n file(s) from %1.</source>
        <translation>
            <numerusform>已从 %1 带回 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not brought back: %1</source>
        <translation>未带回：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>AgentDesk session</source>
        <translation>AgentDesk 会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+419"/>
        <source>AgentDesk session: %1</source>
        <translation>AgentDesk 会话：%1</translation>
    </message>
    <message>
        <location line="-407"/>
        <source>The session&apos;s work is kept on branch %1.</source>
        <translation>会话的工作已保存在分支 %1 上。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Branch %1 could not keep the work: %2</source>
        <translation>分支 %1 无法保存这些工作：%2</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No application could open %1.</source>
        <translation>没有应用程序能打开 %1。</translation>
    </message>
    <message>
        <location line="+241"/>
        <source>the offline demo</source>
        <translation>离线演示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This window uses the model given on the command line (--provider, --model, --base-url) instead of the saved default, %1. Change the model here to make it the default and use it.</source>
        <translation>此窗口使用命令行给出的模型（--provider、--model、--base-url），而不是保存的默认模型 %1。在此处更改模型即可将其设为默认并使用它。</translation>
    </message>
    <message>
        <source>Stop the running task before deleting a session.</source>
        <translation type="vanished">请先停止正在运行的任务，再删除会话。</translation>
    </message>
    <message>
        <location line="-1014"/>
        <source>Close AgentDesk</source>
        <translation>关闭 AgentDesk</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n session(s) still running.</source>
        <translation>
            <numerusform>%n 个会话仍在运行。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Closing stops them. What they did so far stays in their sessions, which you can resume later.</source>
        <translation>关闭会停止它们。它们迄今所做的一切都保留在各自的会话中，稍后可以恢复。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop and Close</source>
        <translation>停止并关闭</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>Stopping %n session(s)…</source>
        <translation>
            <numerusform>正在停止 %n 个会话…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Stop the running tasks before opening another repository.</source>
        <translation>请先停止正在运行的任务，再打开另一个仓库。</translation>
    </message>
    <message>
        <location line="+349"/>
        <source>MCP server %1: %2</source>
        <translation>MCP 服务器 %1：%2</translation>
    </message>
    <message>
        <location line="+182"/>
        <source>The worktree session was not started: another repository is open.</source>
        <translation>工作树会话未启动：已打开另一个仓库。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Reading the changes of branch %1…</source>
        <translation>正在读取分支 %1 的更改…</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Bringing back the changes of branch %1…</source>
        <translation>正在取回分支 %1 的更改…</translation>
    </message>
    <message>
        <location line="+46"/>
        <location line="+413"/>
        <source>Committing the session&apos;s work on branch %1…</source>
        <translation>正在将会话的工作提交到分支 %1…</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Delete Session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The session&apos;s worktree has changes that are not committed on its branch %1.</source>
        <translation>会话的工作树中有尚未提交到其分支 %1 的更改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Deleting the session removes its worktree with them. Keep them as a commit on the branch first?</source>
        <translation>删除会话会连同这些更改一起删除其工作树。要先把它们作为一次提交保存在该分支上吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep as Branch and Delete</source>
        <translation>保存为分支并删除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete Changes</source>
        <translation>删除更改</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The session was not deleted: %1</source>
        <translation>会话未删除：%1</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Repository…</source>
        <translation>打开仓库(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Agent</source>
        <translation>智能体(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New Conversation</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Compact Conversation…</source>
        <translation>压缩对话(&amp;C)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Bring Back Changes…</source>
        <translation>带回更改(&amp;B)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Keep as Branch</source>
        <translation>保存为分支(&amp;K)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>S&amp;ettings…</source>
        <translation>设置(&amp;E)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Side Panel</source>
        <translation>侧边栏(&amp;S)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Context Window…</source>
        <translation>上下文窗口(&amp;C)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;About AgentDesk</source>
        <translation>关于 AgentDesk(&amp;A)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The agent is working: compact once it has finished, or stop it first.</source>
        <translation>智能体正在工作：请在它完成后再压缩，或先停止它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A summary is being written already.</source>
        <translation>摘要已在撰写中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Summarising the older part of the conversation…</source>
        <translation>正在为对话较早的部分撰写摘要……</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open Repository</source>
        <translation>打开仓库</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Clear List</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>About AgentDesk</source>
        <translation>关于 AgentDesk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;AgentDesk %1&lt;/h3&gt;&lt;p&gt;A native desktop coding agent: every edit is reviewed as a diff before it is applied, every command is shown before it runs.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AgentDesk %1&lt;/h3&gt;&lt;p&gt;原生桌面编程智能体：每次编辑在应用前都以差异形式供你审查，每条命令在运行前都会先展示给你。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Ui::McpCompletions</name>
    <message>
        <location filename="../ui/mcp/mcpcompletions.cpp" line="+206"/>
        <source>%1%2: %3</source>
        <extracomment>A prompt&apos;s argument in the tool tip of the composer&apos;s / list</extracomment>
        <translation>%1%2：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (required)</source>
        <translation>（必填）</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>the MCP server &quot;%1&quot; is switched off (Settings &gt; MCP servers)</source>
        <extracomment>Why a message naming an MCP server is not sent</extracomment>
        <translation>MCP 服务器“%1”已关闭（设置 &gt; MCP 服务器）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the MCP server &quot;%1&quot; is not started: this repository&apos;s .mcp.json is not trusted</source>
        <translation>MCP 服务器“%1”未启动：此仓库的 .mcp.json 未被信任</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the MCP server &quot;%1&quot; does not run: %2</source>
        <translation>MCP 服务器“%1”未运行：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the MCP server &quot;%1&quot; does not run</source>
        <translation>MCP 服务器“%1”未运行</translation>
    </message>
</context>
<context>
    <name>Ui::McpServers</name>
    <message>
        <location filename="../ui/mcp/mcpservers.cpp" line="+128"/>
        <source>%1 cannot be read or is larger than %2 KiB</source>
        <translation>%1 无法读取或大于 %2 KiB</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>your settings</source>
        <translation>你的设置</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>replaced by the repository&apos;s server of the same name (.mcp.json)</source>
        <translation>已被仓库中的同名服务器（.mcp.json）取代</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>(environment: %1)</source>
        <translation>（环境：%1）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>.mcp.json</source>
        <translation>.mcp.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the trust could not be remembered: %1</source>
        <translation>无法记住信任：%1</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>not started: %1</source>
        <translation>未启动：%1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>does not get %1: the model providers&apos; keys are never passed to MCP servers</source>
        <translation>不会获得 %1：模型提供商的密钥从不传递给 MCP 服务器</translation>
    </message>
</context>
<context>
    <name>Ui::McpServersPage</name>
    <message>
        <location filename="../ui/mcp/mcpserverspage.cpp" line="+34"/>
        <source>off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not started: .mcp.json is not trusted</source>
        <translation>未启动：.mcp.json 未被信任</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not started</source>
        <translation>未启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+2"/>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>connected, %n tool(s)</source>
        <translation>
            <numerusform>已连接，%n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&amp;Restart</source>
        <translation>重新启动(&amp;R)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show &amp;log…</source>
        <translation>显示日志(&amp;L)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Store a &amp;secret…</source>
        <translation>存储密钥(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keeps a token in the keyring; a server&apos;s env, args or url names it as ${keyring:NAME}, so the file never holds it.</source>
        <translation>将令牌保存在密钥环中；服务器的 env、args 或 url 以 ${keyring:NAME} 引用它，因此文件中从不包含令牌本身。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Your servers, for every repository, in the format of .mcp.json. ${VAR} takes an environment variable, ${keyring:NAME} a secret stored here. A repository&apos;s server of the same name is used instead of yours.</source>
        <translation>你的服务器，适用于所有仓库，采用 .mcp.json 格式。${VAR} 取环境变量的值，${keyring:NAME} 取此处存储的密钥。仓库中的同名服务器会代替你的服务器使用。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Your MCP servers</source>
        <translation>你的 MCP 服务器</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>your servers</source>
        <translation>你的服务器</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>repository (.mcp.json)</source>
        <translation>仓库（.mcp.json）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>your settings</source>
        <translation>你的设置</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>asks before each call (the server says it is read-only)</source>
        <translation>每次调用前询问（服务器声称它是只读的）</translation>
    </message>
    <message>
        <source>read-only: runs without asking</source>
        <translation type="vanished">只读：无需询问即可运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>asks before each call</source>
        <translation>每次调用前询问</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Log of MCP server %1</source>
        <translation>MCP 服务器 %1 的日志</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>(nothing yet: the server has not written to its standard error)</source>
        <translation>（暂无内容：服务器尚未向其标准错误输出写入任何内容）</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+16"/>
        <source>Store a secret</source>
        <translation>存储密钥</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Name (used as ${keyring:NAME}):</source>
        <translation>名称（用作 ${keyring:NAME}）：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A secret&apos;s name has 1 to 64 letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos;.</source>
        <translation>密钥名称由 1 到 64 个字母、数字、&apos;_&apos;、&apos;-&apos; 或 &apos;.&apos; 组成。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The secret for %1:</source>
        <translation>%1 的密钥：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stored. Restart the servers that use it.</source>
        <translation>已存储。请重新启动使用它的服务器。</translation>
    </message>
</context>
<context>
    <name>Ui::ModelButton</name>
    <message>
        <location filename="../ui/statusbar/modelbutton.cpp" line="+113"/>
        <source>Recently used</source>
        <translation>最近使用</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Demo (offline)</source>
        <translation>演示（离线）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Providers, API keys and the default model</source>
        <translation>提供商、API 密钥和默认模型</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>A scripted model that needs no key and no network</source>
        <translation>脚本驱动的模型，无需密钥，也无需联网</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The model can be switched between turns: wait until the agent is done, or stop it.</source>
        <translation>模型只能在两轮之间切换：请等待智能体完成，或将其停止。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The model the agent talks to. Click to switch.</source>
        <translation>智能体所使用的模型。点击可切换。</translation>
    </message>
</context>
<context>
    <name>Ui::ModelDiscovery</name>
    <message>
        <location filename="../ui/settings/modeldiscovery.cpp" line="+74"/>
        <source>%1, with the key in %2</source>
        <extracomment>The welcome page&apos;s offer: a provider, and the environment variable its key is in</extracomment>
        <translation>%1，密钥位于 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1, with the key you stored</source>
        <extracomment>The welcome page&apos;s offer: a provider whose key is in the keyring</extracomment>
        <translation>%1，使用你存储的密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 on %2</source>
        <extracomment>The welcome page&apos;s offer: a model server on this computer, and its address</extracomment>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>An OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
</context>
<context>
    <name>Ui::ModelResolver</name>
    <message>
        <location filename="../ui/window/modelresolver.cpp" line="+64"/>
        <source>No API key for %1. Add it in Settings (Ctrl+,).</source>
        <translation>%1 没有 API 密钥。请在设置（Ctrl+,）中添加。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No API key for %1. Add it in Settings (Ctrl+,), or set %2 and start AgentDesk again.</source>
        <translation>%1 没有 API 密钥。请在设置（Ctrl+,）中添加，或设置 %2 后重新启动 AgentDesk。</translation>
    </message>
</context>
<context>
    <name>Ui::PictureStrip</name>
    <message>
        <location filename="../ui/composer/picturestrip.cpp" line="+36"/>
        <source>%1, %2</source>
        <extracomment>A picture in the message box: its name and what is sent, &quot;shot.png, PNG, 800 × 600, 41 KB&quot;</extracomment>
        <translation>%1，%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Picture %1</source>
        <translation>图片 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>. Delete removes it from the message.</source>
        <translation>。按 Delete 可将其从消息中移除。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Preparing the picture…</source>
        <extracomment>Beside the message box&apos;s thumbnails while a pasted or dropped picture is scaled</extracomment>
        <translation>正在准备图片…</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Remove %1 from the message</source>
        <extracomment>The button beside a thumbnail in the message box</extracomment>
        <translation>从消息中移除 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove picture %1</source>
        <translation>移除图片 %1</translation>
    </message>
</context>
<context>
    <name>Ui::ProjectTrustDialog</name>
    <message>
        <location filename="../ui/window/projecttrustdialog.cpp" line="+30"/>
        <source>Start this repository&apos;s MCP servers?</source>
        <translation>要启动此仓库的 MCP 服务器吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust this repository&apos;s settings?</source>
        <translation>信任此仓库的设置吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The file .mcp.json in %1 names MCP servers: programs AgentDesk would start on this computer, with your rights, to give the agent their tools. Anyone who can commit to the repository may have written it, so none of them runs until you trust it:</source>
        <translation>%1 中的 .mcp.json 文件指定了若干 MCP 服务器：AgentDesk 会以你的权限在此计算机上启动这些程序，为智能体提供它们的工具。任何能向该仓库提交的人都可能编写了此文件，因此在你信任它之前，其中的服务器都不会运行：</translation>
    </message>
    <message>
        <source>The settings files in %1 (.agentdesk/settings.json and settings.local.json) ask for more than your own settings allow. Anyone who can commit to the repository, or a tool run in it, may have written them, so AgentDesk has not applied this:</source>
        <translation type="vanished">%1 中的设置文件（.agentdesk/settings.json 和 settings.local.json）请求的权限超出了你自己的设置所允许的范围。任何能向仓库提交的人，或在其中运行的工具，都可能写入了它们，因此 AgentDesk 没有应用以下内容：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The settings files in %1 (.agentdesk/settings.json and settings.local.json, .claude/settings.json and settings.local.json) ask for more than your own settings allow; a hook is a command run on your behalf, outside the sandbox. Anyone who can commit to the repository, or a tool run in it, may have written them, so AgentDesk has not applied this:</source>
        <translation>%1 中的设置文件（.agentdesk/settings.json 和 settings.local.json、.claude/settings.json 和 settings.local.json）要求的权限超出了你自己的设置所允许的范围；钩子是代表你在沙箱之外运行的命令。任何能向该仓库提交的人，或在其中运行的工具，都可能写入了这些文件，因此 AgentDesk 未应用以下内容：</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Trusting is remembered for this repository and exactly this file: when .mcp.json changes, AgentDesk asks again. Their tools still ask before each call unless they are read-only or a rule allows them.</source>
        <translation>信任会针对此仓库和此文件的当前内容记住：.mcp.json 一旦更改，AgentDesk 会再次询问。除非这些工具是只读的或有规则允许，否则它们在每次调用前仍会询问。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Their deny and ask rules apply either way. Trusting is remembered for exactly these entries; anything added to the files later is asked about again.</source>
        <translation>无论如何，其中的拒绝和询问规则都会生效。信任只针对这些条目记住；之后文件中新增的内容会再次询问。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Trust</source>
        <translation>信任(&amp;T)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Trust and start</source>
        <translation>信任并启动(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Don&apos;t trust</source>
        <translation>不信任(&amp;D)</translation>
    </message>
</context>
<context>
    <name>Ui::ProposalEditor</name>
    <message>
        <location filename="../ui/review/proposaleditor.cpp" line="+41"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo your last change (Ctrl+Z)</source>
        <translation>撤销上一次修改（Ctrl+Z）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Redo what you undid (Ctrl+Shift+Z)</source>
        <translation>重做已撤销的修改（Ctrl+Shift+Z）</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+165"/>
        <source>Back to the Review</source>
        <translation>返回审查</translation>
    </message>
    <message>
        <location line="-164"/>
        <source>Leave the editor; your changes are dropped (Esc)</source>
        <translation>离开编辑器；你的修改将被丢弃（Esc）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply My Version</source>
        <translation>应用我的版本</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Your version</source>
        <extracomment>Screen reader: the editor of the user&apos;s own version of a proposed change</extracomment>
        <translation>你的版本</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Discard your changes and go back to the review?</source>
        <translation>丢弃你的修改并返回审查？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discard My Changes</source>
        <translation>丢弃我的修改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep Editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <location line="+142"/>
        <source>Change the text first; or allow the proposal as it is</source>
        <translation>请先修改文本，或按原样允许该建议</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write your version and tell the model what you changed (Ctrl+Enter)</source>
        <translation>写入你的版本，并告诉模型你改了什么（Ctrl+Enter）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard…</source>
        <translation>丢弃…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No changes yet</source>
        <translation>尚无修改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your changes: +%1 −%2</source>
        <translation>你的修改：+%1 −%2</translation>
    </message>
</context>
<context>
    <name>Ui::ProposalProblemsView</name>
    <message>
        <location filename="../ui/review/proposalproblemsview.cpp" line="+36"/>
        <location line="+60"/>
        <source>Checking the change with the language server…</source>
        <extracomment>Above a review&apos;s diff while a language server checks the proposed change</extracomment>
        <translation>正在用语言服务器检查这处修改…</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>%1 could not check this change: %2.</source>
        <translation>%1 无法检查这处修改：%2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 finds no new problems in this change.</source>
        <translation>%1 未在这处修改中发现新问题。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n new error(s)</source>
        <translation>
            <numerusform>%n 个新错误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n new warning(s)</source>
        <translation>
            <numerusform>%n 个新警告</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 finds %2 in this change:</source>
        <translation>%1 在这处修改中发现%2：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ui::ReviewAnswerBar</name>
    <message>
        <location filename="../ui/review/reviewanswerbar.cpp" line="+50"/>
        <source>Rule to allow:</source>
        <translation>要允许的规则：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Allow once</source>
        <translation>允许一次(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow for this &amp;session</source>
        <translation>本会话内允许(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Al&amp;ways allow</source>
        <translation>始终允许(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Why not, or what to do instead (sent to the agent with Deny)</source>
        <translation>为什么拒绝，或者应该怎么做（随“拒绝”一起发送给智能体）</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+108"/>
        <source>Allow this call only (Ctrl+Enter)</source>
        <translation>只允许这一次调用（Ctrl+Enter）</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Refuse the call; the agent sees your feedback (Enter in the field)</source>
        <translation>拒绝这次调用；智能体会看到你的反馈（在输入框中按 Enter）</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>One rule for each command</source>
        <translation>每条命令一条规则</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Rules are written for every simple command; suggestions:
%1</source>
        <translation>将为每条简单命令写入规则；建议：
%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No rule can cover this call</source>
        <translation>没有规则能涵盖这次调用</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&amp;Apply checked</source>
        <translation>应用已勾选项(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reject all</source>
        <translation>全部拒绝(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Leave the repository as it was; the agent sees your feedback</source>
        <translation>保持仓库原样；智能体会看到你的反馈</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Feedback for the agent (sent with either answer)</source>
        <translation>给智能体的反馈（无论选择哪种答复都会发送）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Write the checked changes to the repository (Ctrl+Enter)</source>
        <translation>将已勾选的更改写入仓库（Ctrl+Enter）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Only calls that are fully understood can be allowed by a rule.</source>
        <translation>只有完全理解的调用才能通过规则允许。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Allow, and allow calls matching %1 until AgentDesk closes (Ctrl+Shift+Enter)</source>
        <translation>允许，并在 AgentDesk 关闭前允许匹配 %1 的调用（Ctrl+Shift+Enter）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow, and write %1 to this project&apos;s local settings</source>
        <translation>允许，并将 %1 写入此项目的本地设置</translation>
    </message>
</context>
<context>
    <name>Ui::ReviewQueue</name>
    <message>
        <location filename="../ui/review/reviewqueue.cpp" line="+32"/>
        <source>Reviews</source>
        <translation>审查</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Previous request</source>
        <translation>上一个请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next request</source>
        <translation>下一个请求</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No tool call is waiting for your review.</source>
        <translation>没有等待你审查的工具调用。</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>No pending requests</source>
        <translation>没有待处理的请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request %1 of %2</source>
        <translation>第 %1 个请求，共 %2 个</translation>
    </message>
</context>
<context>
    <name>Ui::RewindController</name>
    <message>
        <location filename="../ui/rewind/rewindcontroller.cpp" line="+61"/>
        <source>your message “%1”</source>
        <extracomment>What a rewind goes back to: &quot;your message “fix the parser”&quot;</extracomment>
        <translation>你的消息“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the agent&apos;s turn “%1”</source>
        <translation>智能体的那一轮“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the agent&apos;s turn that called %1</source>
        <translation>智能体调用 %1 的那一轮</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>message %1 of the conversation</source>
        <translation>对话中的第 %1 条消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+124"/>
        <location line="+50"/>
        <location line="+43"/>
        <source>No conversation is open.</source>
        <translation>没有打开的对话。</translation>
    </message>
    <message>
        <location line="-215"/>
        <source>That point is no longer in the conversation.</source>
        <translation>该位置已不在对话中。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No checkpoints are kept for this session: only the conversation can be rewound.</source>
        <translation>此会话没有保存检查点：只能回退对话。</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>The files cannot be rewound: no checkpoint was recorded there.</source>
        <translation>无法回退文件：该位置没有记录检查点。</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+115"/>
        <source>The files could not be restored.</source>
        <translation>无法恢复文件。</translation>
    </message>
    <message>
        <location line="-77"/>
        <source>No checkpoints are kept for this session: the file cannot be reverted.</source>
        <translation>此会话没有保留检查点：无法还原该文件。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 is already as it was before the agent changed it.</source>
        <translation>%1 已经是智能体更改它之前的状态。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 could not be reverted.</source>
        <translation>%1 无法还原。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>No checkpoints are kept for this session: the files were left as they are.</source>
        <translation>此会话没有保留检查点：文件保持原样。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>That rewind is no longer in the conversation.</source>
        <translation>该回退已不在对话中。</translation>
    </message>
</context>
<context>
    <name>Ui::RewindDialog</name>
    <message>
        <location filename="../ui/rewind/rewinddialog.cpp" line="+30"/>
        <source>deleted (created since)</source>
        <extracomment>A file the rewind deletes: it was created after that point</extracomment>
        <translation>删除（此后新建）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>restored</source>
        <extracomment>A file the rewind writes back as it was</extracomment>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>brought back (deleted since)</source>
        <extracomment>A file the rewind brings back: it was deleted after that point</extracomment>
        <translation>找回（此后被删除）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 — yours, kept</source>
        <extracomment>A file the user changed since the rewind&apos;s point, which the rewind leaves as it is</extracomment>
        <translation>%1 — 你的更改，保持原样</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 — yours, overwritten: %2</source>
        <extracomment>A file the user changed since the rewind&apos;s point, which the rewind overwrites: &quot;restored&quot;, ...</extracomment>
        <translation>%1 — 你的更改将被覆盖：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Files &amp;and conversation</source>
        <translation>文件和对话(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Conversation only</source>
        <translation>仅对话(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Files only</source>
        <translation>仅文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Rewind</source>
        <translation>回退</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Restore the files and take the conversation back to this point</source>
        <translation>恢复文件，并将对话回退到此处</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model goes on from this point; the files stay as they are</source>
        <translation>模型从此处继续；文件保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore the files; the conversation goes on as it is</source>
        <translation>恢复文件；对话照常继续</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+141"/>
        <source>Check a file to keep it as it is (Space). The diff shows what the rewind changes in it.</source>
        <translation>勾选文件可使其保持原样（空格键）。差异视图显示回退会对它做哪些更改。</translation>
    </message>
    <message>
        <location line="-138"/>
        <source>Files the rewind restores; checked ones are kept as they are</source>
        <translation>回退将恢复的文件；勾选的文件保持原样</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>What the rewind changes in the selected file</source>
        <translation>回退会对所选文件做的更改</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Working out what the rewind changes in the files…</source>
        <translation>正在计算回退会对文件做哪些更改…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Rewind</source>
        <extracomment>Confirms a rewind; nothing changes before it is pressed</extracomment>
        <translation>回退(&amp;R)</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Rewind to right before %1.</source>
        <extracomment>Top of the rewind dialog: &quot;Rewind to right before your message “fix the parser”&quot;</extracomment>
        <translation>回退到%1之前。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>You changed %1 yourself since that point: checked, it is kept as it is; uncheck to overwrite it</source>
        <translation>你在该位置之后自己改过 %1：已勾选，它将保持原样；取消勾选则会覆盖它</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check to keep %1 as it is</source>
        <translation>勾选以保持 %1 原样</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No file differs from that point: only the conversation changes.</source>
        <translation>与该位置相比没有文件差异：只有对话会改变。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>You changed %1 yourself since that point: kept as you left them unless you uncheck one to overwrite it (Space). Check any other file to keep it as it is.</source>
        <translation>你在该位置之后自己改过 %1：它们会保持你改后的样子，除非你取消勾选其中某个以覆盖它（空格键）。勾选其他任一文件可使其保持原样。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not covered by the checkpoint, left as they are: %1.</source>
        <translation>检查点未涵盖、将保持原样的文件：%1。</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>You changed it yourself since that point. </source>
        <translation>你在该位置之后自己改过它。</translation>
    </message>
    <message>
        <source>Check a file to keep it as it is (Space). Not covered by the checkpoint, left as they are: %1.</source>
        <translation type="vanished">勾选文件可使其保持原样（空格键）。检查点未涵盖、将保持原样的文件：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Created after that point: the rewind deletes it.</source>
        <translation>在该位置之后创建：回退会删除它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As it is now (−) and as the rewind writes it back (+).</source>
        <translation>当前内容（−）与回退后写回的内容（+）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deleted after that point: the rewind writes it back.</source>
        <translation>在该位置之后被删除：回退会将它写回。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rewind of %1</source>
        <extracomment>Title over the diff of one file in the rewind dialog</extracomment>
        <translation>%1 的回退</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The files can be rewound once their change is shown; the conversation only can be rewound now.</source>
        <translation>显示出文件的更改后才能回退文件；现在只能回退对话。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The model goes on from this point; the later messages stay in the session, marked as rewound.</source>
        <translation>模型从此处继续；之后的消息仍保留在会话中，并标记为已回退。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n file(s) will be restored.</source>
        <translation>
            <numerusform>将恢复 %n 个文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n kept as it is.</source>
        <translation>
            <numerusform>%n 个保持原样。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n of your own later changes will be overwritten.</source>
        <translation>
            <numerusform>你后来自己改过的 %n 个文件将被覆盖。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>You can undo the rewind.</source>
        <translation>你可以撤销此次回退。</translation>
    </message>
</context>
<context>
    <name>Ui::RootUserBar</name>
    <message>
        <location filename="../ui/window/rootuserbar.cpp" line="+18"/>
        <source>&lt;b&gt;AgentDesk runs as root.&lt;/b&gt; Files it writes, in your repository too, will belong to root, and the commands it runs have root&apos;s rights. Start it as your own user unless that is what you want.</source>
        <translation>&lt;b&gt;AgentDesk 正以 root 身份运行。&lt;/b&gt;它写入的文件（包括你仓库中的文件）将属于 root，它运行的命令拥有 root 的权限。除非你确实需要，否则请以你自己的用户身份启动它。</translation>
    </message>
</context>
<context>
    <name>Ui::RuleOfferBar</name>
    <message>
        <location filename="../ui/review/ruleofferbar.cpp" line="+18"/>
        <source>Add &amp;Rule</source>
        <translation>添加规则(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not Now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allow rule offer</source>
        <translation>允许规则建议</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Write this rule to the project&apos;s local settings, as Always allow does; Settings lists it with the other permission rules</source>
        <translation>将此规则写入项目的本地设置，与“始终允许”相同；设置中会将其与其他权限规则一起列出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep asking; this rule is not offered again in this session</source>
        <translation>继续询问；本会话中不再建议此规则</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>You approved “%1” %2 times. Allow it from now on?</source>
        <extracomment>%1 is a shell command or a file; %2 how many times the user allowed it once (3 or more)</extracomment>
        <translation>你已批准“%1” %2 次。今后都允许吗？</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Not saved: %1</source>
        <extracomment>Below the rule the user tried to add after repeated approvals</extracomment>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>Ui::SandboxNoticeBar</name>
    <message>
        <location filename="../ui/window/sandboxnoticebar.cpp" line="+24"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sandbox: On runs commands without it here; Required refuses them.</source>
        <translation>沙盒：设为“开启”时，此处命令将不经沙盒运行；设为“必需”时则拒绝运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>Ui::SessionItemDelegate</name>
    <message>
        <location filename="../ui/sessions/sessionitemdelegate.cpp" line="+52"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Done, not seen yet</source>
        <extracomment>Sessions list: its task finished while another session was shown</extracomment>
        <translation>已完成，尚未查看</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 · %2</source>
        <extracomment>Sessions list: &quot;Done, not seen yet · 12 messages · 2 h ago&quot;</extracomment>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>Ui::SessionRulesDialog</name>
    <message>
        <location filename="../ui/window/sessionrulesdialog.cpp" line="+21"/>
        <source>Keep this session&apos;s permissions?</source>
        <translation>保留此会话的权限吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The session you resumed allows these without asking:</source>
        <translation>你恢复的会话允许以下操作无需询问：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The session &quot;%1&quot; you resumed allows these without asking:</source>
        <translation>你恢复的会话“%1”允许以下操作无需询问：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>They come from the session&apos;s file, which any program on this computer may have changed, so none applies until you keep them. Dropped, each asks again when the agent needs it.</source>
        <translation>它们来自会话文件，而这台计算机上的任何程序都可能改过该文件，因此在你保留之前，它们都不会生效。若丢弃，智能体需要时会逐项再次询问。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Keep for this session</source>
        <translation>在此会话中保留(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Drop</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
</context>
<context>
    <name>Ui::SessionShortcuts</name>
    <message>
        <location filename="../ui/sessions/sessionshortcuts.cpp" line="+17"/>
        <source>&amp;Next Session</source>
        <translation>下一个会话(&amp;N)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Previous Session</source>
        <translation>上一个会话(&amp;P)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Session %1</source>
        <translation>会话 %1</translation>
    </message>
</context>
<context>
    <name>Ui::SessionsPanel</name>
    <message>
        <location filename="../ui/sessions/sessionspanel.cpp" line="+33"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 小时前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>%n 天前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New Session in a &amp;Worktree…</source>
        <translation>在工作树中新建会话(&amp;W)…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>开始新对话（Ctrl+N）</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not saved until the first task</source>
        <translation>发送第一个任务后才会保存</translation>
    </message>
    <message numerus="yes">
        <location line="+28"/>
        <source>%n message(s) · %1</source>
        <extracomment>Sessions list: &quot;12 messages · 2 h ago&quot;</extracomment>
        <translation>
            <numerusform>%n 条消息 · %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1
Started %2
%3</source>
        <translation>%1
开始于 %2
%3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session cannot be resumed: %1
%2</source>
        <translation>无法恢复此会话：%1
%2</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Open (%1)</source>
        <translation>已打开 (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Start a conversation on a new branch in a git worktree of its own; its changes come back through a review</source>
        <translation>在新分支上、在独立的 git 工作树中开始对话；其更改通过审查带回</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Delete Session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete &quot;%1&quot;?</source>
        <translation>删除“%1”？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its task is still running: it is stopped, and the conversation is removed from disk. This cannot be undone.</source>
        <translation>它的任务仍在运行：任务将被停止，对话将从磁盘中删除。此操作无法撤销。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This is the conversation in the window: a new one starts in its place. This cannot be undone.</source>
        <translation>这是窗口中当前的对话：删除后会开始一个新对话取而代之。此操作无法撤销。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The conversation and its follow-up queue are removed from disk. This cannot be undone.</source>
        <translation>对话及其后续任务队列将从磁盘中删除。此操作无法撤销。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New Conversation</source>
        <translation>新建对话</translation>
    </message>
</context>
<context>
    <name>Ui::SettingsDialog</name>
    <message>
        <location filename="../ui/settings/settingsdialog.cpp" line="+132"/>
        <source>AgentDesk Settings</source>
        <translation>AgentDesk 设置</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&amp;General</source>
        <translation>常规(&amp;G)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;MCP servers</source>
        <translation>MCP 服务器(&amp;M)</translation>
    </message>
    <message>
        <location line="+30"/>
        <location line="+312"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="-253"/>
        <source>Maximum turns</source>
        <translation>最大轮数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The agent stops after this many model turns in one task.</source>
        <translation>单个任务中模型运行达到这么多轮后，智能体会停止。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compact the conversation &amp;automatically</source>
        <translation>自动压缩对话(&amp;A)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>When the conversation nears the model&apos;s context window, or the provider refuses a request as too long, the model summarises its older part and the agent goes on. Off: only Agent &gt; Compact Conversation does, and a conversation that no longer fits stops the task.</source>
        <translation>当对话接近模型的上下文窗口，或服务商因请求过长而拒绝时，由模型为较早的部分撰写摘要，智能体继续工作。关闭时：只有“智能体 &gt; 压缩对话”会这样做，放不下的对话会让任务停止。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Sandbox for Bash commands</source>
        <translation>Bash 命令的沙盒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On, where bubblewrap works</source>
        <translation>开启（在 bubblewrap 可用时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Required: refuse commands without it</source>
        <translation>必需：没有沙盒时拒绝运行命令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bash commands run in a sandbox (bubblewrap): the filesystem is read-only outside the repository, /tmp is private, and your keys (~/.ssh, ~/.gnupg, the keyring, cloud credentials, AgentDesk&apos;s settings and key file) are hidden. Where bubblewrap cannot run, commands run as they are and AgentDesk says so once; &quot;Required&quot; refuses them instead.</source>
        <translation>Bash 命令在沙盒（bubblewrap）中运行：仓库之外的文件系统为只读，/tmp 为私有，你的密钥（~/.ssh、~/.gnupg、密钥环、云服务凭据、AgentDesk 的设置和密钥文件）会被隐藏。在 bubblewrap 无法运行的环境中，命令照常运行，AgentDesk 会提示一次；选择“必需”则改为拒绝运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow &amp;network in the sandbox</source>
        <translation>允许沙盒内访问网络(&amp;N)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Off: sandboxed commands cannot reach the network, not even servers on this computer (npm install, git fetch and curl fail).</source>
        <translation>关闭时：沙盒中的命令无法访问网络，连本机上的服务器也无法访问（npm install、git fetch 和 curl 会失败）。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Commands allowed the network</source>
        <translation>允许联网的命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bash(npm install:*)
Bash(pip install:*)</source>
        <translation>Bash(npm install:*)
Bash(pip install:*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>With the network off, these commands get it anyway: one rule a line, as in the permission rules (Bash(npm install:*) is npm install with any arguments). A command gets the network only when each of its parts that is not read-only matches a rule. Rules may also be in the &quot;network&quot; list of settings.json&apos;s &quot;permissions&quot;. Only you add them; the agent cannot.</source>
        <translation>关闭网络时，这些命令仍可联网：每行一条规则，写法同权限规则（Bash(npm install:*) 表示带任意参数的 npm install）。只有当命令中每个非只读的部分都匹配某条规则时，该命令才能联网。规则也可以写在 settings.json 的 &quot;permissions&quot; 下的 &quot;network&quot; 列表中。只有你能添加规则；智能体不能。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Not a Bash rule, ignored: %1</source>
        <translation>不是 Bash 规则，已忽略：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Also readable in the sandbox</source>
        <translation>沙盒中也可读取的路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>~/.config/mytool
~/shared/data</source>
        <translation>~/.config/mytool
~/shared/data</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>In the sandbox your home folder is hidden except git&apos;s configuration, the toolchains and their caches (~/.cargo, ~/.npm, ~/.pyenv, ~/go, ...), the repository and its additional directories. Paths listed here, one a line, are shown too, read-only; your keys stay hidden inside them. Also &quot;sandboxReadable&quot; in settings.json&apos;s &quot;permissions&quot;.</source>
        <translation>在沙盒中，你的主目录会被隐藏，只有 git 配置、工具链及其缓存（~/.cargo、~/.npm、~/.pyenv、~/go 等）、仓库及其附加目录除外。这里列出的路径（每行一个）也会以只读方式显示；其中你的密钥仍会被隐藏。也可以写在 settings.json 的 &quot;permissions&quot; 下的 &quot;sandboxReadable&quot; 中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Review what shell commands write</source>
        <translation>审查 shell 命令的写入(&amp;R)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In the default permission mode a command that is not read-only runs on a copy of the repository; its changes open as a review like an edit&apos;s and only what you accept is written. Needs bubblewrap 0.9 or newer.</source>
        <translation>在默认权限模式下，非只读命令在仓库的副本上运行；其更改会像编辑一样打开以供审查，只有你接受的内容才会写入。需要 bubblewrap 0.9 或更新版本。</translation>
    </message>
    <message>
        <location line="-138"/>
        <source>Max &amp;turns:</source>
        <translation>最大轮数(&amp;T)：</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>&amp;Language servers</source>
        <translation>语言服务器(&amp;L)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Commands run on the agent&apos;s events, from the settings files (yours, the repository&apos;s .agentdesk/ and .claude/). A repository&apos;s hooks run once you trusted them. Edit the files to change them; a new session reads them again.</source>
        <translation>在智能体的事件发生时运行的命令，来自设置文件（你的设置文件，以及仓库的 .agentdesk/ 和 .claude/）。仓库的钩子在你信任之后才会运行。要更改它们，请编辑这些文件；新会话会重新读取。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Matcher</source>
        <translation>匹配器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Hooks</source>
        <translation>钩子(&amp;H)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>&amp;Sandbox:</source>
        <translation>沙盒(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Commands allowed the net&amp;work:</source>
        <translation>允许联网的命令(&amp;W)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also readable in the sand&amp;box:</source>
        <translation>沙盒中也可读取的路径(&amp;B)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Not available on this system: %1. Commands write to the repository directly.</source>
        <translation>此系统上不可用：%1。命令会直接写入仓库。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>When a session waits for an appr&amp;oval</source>
        <translation>会话等待批准时(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When a task &amp;finishes or fails</source>
        <translation>任务完成或失败时(&amp;F)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A desktop notification, and the window&apos;s taskbar entry asks for attention, only while the AgentDesk window is not active. Click the notification to go to the session.</source>
        <translation>仅在 AgentDesk 窗口不处于活动状态时，显示桌面通知，并让窗口的任务栏条目请求注意。点击通知可转到该会话。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Notify:</source>
        <translation>通知：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Th&amp;eme:</source>
        <translation>主题(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Use the offline &amp;demo (no model; nothing leaves this computer)</source>
        <translation>使用离线演示(&amp;D)（不使用模型；任何数据都不会离开这台电脑）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Provider:</source>
        <translation>提供商(&amp;P)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Base &amp;URL:</source>
        <translation>基础 URL(&amp;U)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server profile</source>
        <translation>服务器配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Which server this is: the request fields it takes and how the model&apos;s reasoning goes back to it. Automatic: from the base URL or the server&apos;s model list; an unknown server gets the conservative profile, which sends no optional field.</source>
        <translation>这是哪种服务器：它接受哪些请求字段，模型的推理内容如何回传给它。自动：根据基础 URL 或服务器的模型列表判断；未知服务器使用保守配置，不发送任何可选字段。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Server p&amp;rofile:</source>
        <translation>服务器配置(&amp;R)：</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many tokens the model takes in one request, input and output together: the window the server was started with (Ollama&apos;s num_ctx, llama.cpp&apos;s --ctx-size).</source>
        <translation>模型在一次请求中能处理的 token 数（输入与输出合计）：即服务器启动时设定的窗口（Ollama 的 num_ctx，llama.cpp 的 --ctx-size）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Context &amp;window:</source>
        <translation>上下文窗口(&amp;W)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>How long the model may reason before it answers. More thinking is slower and costs more tokens.</source>
        <translation>模型在回答前可以推理多久。思考越多，速度越慢，消耗的 token 也越多。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>T&amp;hinking:</source>
        <translation>思考强度(&amp;H)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fill in the address of a well-known server</source>
        <translation>填入常见服务器的地址</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+5"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Show the key</source>
        <translation>显示密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>e.g. http://localhost:11434/v1 (Ollama)</source>
        <translation>例如 http://localhost:11434/v1（Ollama）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s API root, ending in /v1 for most servers.</source>
        <translation>服务器的 API 根地址，大多数服务器以 /v1 结尾。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optional: a proxy or gateway instead of the provider&apos;s own address.</source>
        <translation>可选：用代理或网关替代提供商自己的地址。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>the name the server knows, e.g. qwen3-coder</source>
        <translation>服务器所认识的名称，例如 qwen3-coder</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Asking the server for its models…</source>
        <translation>正在向服务器查询其模型…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s models could not be listed: %1 Type the model&apos;s name as the server knows it.</source>
        <translation>无法列出服务器的模型：%1 请输入服务器所知的模型名称。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The server lists no models: type the model&apos;s name.</source>
        <translation>服务器未列出任何模型：请输入模型名称。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>In use: %1, %2.</source>
        <translation>当前使用：%1，%2。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not needed for a server on this computer or network.</source>
        <translation>本机或局域网内的服务器不需要。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is set in the environment: it will be used.</source>
        <translation>环境中已设置 %1：将使用它。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Known for this model.</source>
        <translation>此模型的窗口已知。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>unknown, e.g. 32768 or 32k</source>
        <translation>未知，例如 32768 或 32k</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not known for this model: give the window the server was started with, so the status bar can tell how full the context is.</source>
        <translation>此模型的窗口未知：请填写服务器启动时设定的窗口，以便状态栏显示上下文的占用情况。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>from %1 to %2 tokens</source>
        <translation>%1 到 %2 个 token</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Enter the window as a number of tokens, such as 32768 or 32k (%1).</source>
        <translation>请以 token 数填写窗口，例如 32768 或 32k（%1）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A window must hold some tokens: enter one %1.</source>
        <translation>窗口必须能容纳一些 token：请填写 %1 的值。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 tokens leave no room for the system prompt and the tools: enter a window %2.</source>
        <translation>%1 个 token 放不下系统提示和工具：请填写 %2 的窗口。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No model takes %1 tokens: enter a window %2.</source>
        <translation>没有模型能处理 %1 个 token：请填写 %2 的窗口。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Enter the server&apos;s address, or pick one under Servers.</source>
        <translation>请输入服务器地址，或在“服务器”中选择一个。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter an http or https URL, such as http://localhost:8080/v1.</source>
        <translation>请输入 http 或 https URL，例如 http://localhost:8080/v1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Enter the model&apos;s name as the provider knows it.</source>
        <translation>请输入提供商所使用的模型名称。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Enter the API key of this server.</source>
        <translation>请输入此服务器的 API 密钥。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter your API key, or set %1 in the environment.</source>
        <translation>请输入你的 API 密钥，或在环境中设置 %1。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>No key store is available: the key cannot be saved.</source>
        <translation>没有可用的密钥存储：无法保存密钥。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The key was not saved: %1</source>
        <translation>密钥未保存：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Saving the key…</source>
        <translation>正在保存密钥…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source> (not trusted)</source>
        <extracomment>A repository&apos;s hook the user has not trusted, after the file it is in</extracomment>
        <translation> （未受信任）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>: not trusted, so it does not run</source>
        <extracomment>The tooltip of a repository&apos;s hook the user has not trusted</extracomment>
        <translation>：未受信任，因此不会运行</translation>
    </message>
    <message>
        <source>, not trusted: does not run</source>
        <extracomment>A repository&apos;s hook the user has not trusted</extracomment>
        <translation type="vanished">，未受信任：不会运行</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No hooks in this session&apos;s settings files.</source>
        <translation>此会话的设置文件中没有钩子。</translation>
    </message>
</context>
<context>
    <name>Ui::ShellWritesReviewView</name>
    <message>
        <location filename="../ui/review/shellwritesreviewview.cpp" line="+39"/>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines %1–%2</source>
        <translation>第 %1–%2 行</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Uncheck a change (or a part of a file) to leave it out</source>
        <translation>取消勾选某处更改（或文件的一部分）即可将其排除</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check all</source>
        <translation>全部勾选</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Uncheck all</source>
        <translation>全部取消勾选</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Bring back what the session changed on its branch %1</source>
        <translation>带回会话在其分支 %1 上所做的更改</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Review what the command wrote: %1</source>
        <translation>审查命令写入的内容：%1</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation type="vanished">（无输出）</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1 more changes are not listed. They are applied with &quot;Apply checked&quot; unless you press &quot;Uncheck all&quot; (which leaves out every change, listed or not).</source>
        <translation>另有 %1 处更改未列出。点击“应用已勾选项”时它们也会被应用，除非你按下“全部取消勾选”（这会排除所有更改，无论是否列出）。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>binary or large file (%1), accepted or rejected as a whole</source>
        <translation>二进制文件或大文件（%1），只能整体接受或拒绝</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Every change is unchecked: use Reject all.</source>
        <translation>所有更改都已取消勾选：请使用“全部拒绝”。</translation>
    </message>
</context>
<context>
    <name>Ui::Shortcuts</name>
    <message>
        <location filename="../ui/common/shortcuts.cpp" line="+25"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message box</source>
        <translation>消息框</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A review waiting for an answer</source>
        <translation>等待答复的审查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Approvals inbox</source>
        <translation>审批收件箱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sessions list</source>
        <translation>会话列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow-up queue</source>
        <translation>后续消息队列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Background commands</source>
        <translation>后台命令</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open a repository</source>
        <translation>打开仓库</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Start a new conversation, the focus in the message box</source>
        <translation>开始新对话，焦点置于消息框</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show the next open session</source>
        <translation>显示下一个打开的会话</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show the previous open session</source>
        <translation>显示上一个打开的会话</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show the first to ninth open session</source>
        <translation>显示第一至第九个打开的会话</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open the approvals inbox: every review waiting in any session</source>
        <translation>打开审批收件箱：所有会话中等待处理的审查</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop the agent, wherever the focus is</source>
        <translation>停止智能体，无论焦点位于何处</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compact the conversation now</source>
        <translation>立即压缩对话</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show or hide the side panel</source>
        <translation>显示或隐藏侧边栏</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>See what fills the context window</source>
        <translation>查看上下文窗口被哪些内容占用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the user guide</source>
        <translation>打开用户指南</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Send the task; while the agent works, steer it</source>
        <translation>发送任务；智能体工作时，对其进行引导</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A new line</source>
        <translation>换行</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>While the agent works, queue the text as a follow-up</source>
        <translation>智能体工作时，将文本加入后续消息队列</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stop the agent (where the focus does not use Esc)</source>
        <translation>停止智能体（在不使用 Esc 的焦点位置）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Take the highlighted @file, /prompt or @server: completion</source>
        <translation>采用高亮的 @file、/prompt 或 @server: 补全项</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow once (also from the message box)</source>
        <translation>允许一次（也可在消息框中使用）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Allow, and allow calls matching the rule in this session</source>
        <translation>允许，并在此会话中允许与该规则匹配的调用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Go to the Deny feedback field</source>
        <translation>转到“拒绝”反馈字段</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Edit a proposed change before applying it (Esc leaves the editor)</source>
        <translation>在应用之前编辑建议的更改（Esc 离开编辑器）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow the selected request once (Ctrl+Shift+Enter: for the session)</source>
        <translation>允许所选请求一次（Ctrl+Shift+Enter：对整个会话允许）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deny the selected request</source>
        <translation>拒绝所选请求</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Approve every waiting request like the selected one</source>
        <translation>批准所有与所选请求类似的等待中请求</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Jump to the latest activity</source>
        <translation>跳转到最新活动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Go to the start of the conversation</source>
        <translation>转到对话开头</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open or fold the subagent&apos;s card last clicked or picked (Alt+Up)</source>
        <translation>展开或折叠最近点击或选中的子智能体卡片（Alt+Up）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>On an open subagent&apos;s card: stop that subagent alone</source>
        <translation>在展开的子智能体卡片上：只停止该子智能体</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>On a message where branches part: show the previous branch</source>
        <translation>在分支分岔处的消息上：显示上一个分支</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>On a message where branches part: show the next branch</source>
        <translation>在分支分岔处的消息上：显示下一个分支</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show every branch of the conversation</source>
        <translation>显示对话的所有分支</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Resume the selected session</source>
        <translation>恢复所选会话</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rename the selected session</source>
        <translation>重命名所选会话</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Delete the selected session, after asking</source>
        <translation>删除所选会话（先询问）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Edit the selected follow-up</source>
        <translation>编辑所选后续消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Delete the selected follow-up</source>
        <translation>删除所选后续消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stop the selected background command</source>
        <translation>停止所选后台命令</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Drop the selected tool output from later requests</source>
        <translation>在后续请求中丢弃所选工具输出</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pin or unpin the selected message</source>
        <translation>固定或取消固定所选消息</translation>
    </message>
</context>
<context>
    <name>Ui::ShortcutsDialog</name>
    <message>
        <location filename="../ui/window/shortcutsdialog.cpp" line="+18"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>What they do</source>
        <translation>作用</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Help &gt; User Guide (F1) says more about each.</source>
        <translation>“帮助 &gt; 用户指南”（F1）中有每一项的详细说明。</translation>
    </message>
</context>
<context>
    <name>Ui::Translations</name>
    <message>
        <location filename="../ui/i18n/translations.cpp" line="+105"/>
        <source>The new language applies when AgentDesk starts again.</source>
        <translation>新的语言将在 AgentDesk 下次启动时生效。</translation>
    </message>
</context>
<context>
    <name>Ui::UsageLabel</name>
    <message>
        <location filename="../ui/common/usagelabel.cpp" line="+29"/>
        <source>Context &lt;1%</source>
        <translation>上下文 &lt;1%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context %1%</source>
        <translation>上下文 %1%</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1% cached</source>
        <translation>%1% 来自缓存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cost unknown</source>
        <translation>费用未知</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1k</source>
        <translation>%1k</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1M</source>
        <translation>%1M</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1G</source>
        <translation>%1G</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;$%1</source>
        <translation>&lt;$%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+20"/>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 / %2（%3%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>unknown (no price for this model; $%1 for the priced replies)</source>
        <translation>未知（此模型没有价格信息；有价格的回复共 $%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cache hits</source>
        <translation>缓存命中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1% of input</source>
        <translation>占输入的 %1%</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context: what the next request sends at least. The rest: summed over the replies of this conversation, at list prices. Cache hits: the input tokens read from the provider&apos;s prompt cache, of all input.</source>
        <translation>上下文：下一个请求至少要发送的内容。其余各项：按标价对本对话所有回复求和。缓存命中：所有输入中从服务商提示缓存读取的 token 所占比例。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click to see what fills the context window.</source>
        <translation>点击查看上下文窗口中的内容。</translation>
    </message>
    <message>
        <source>Context: what the next request sends at least. The rest: summed over the replies of this conversation, at list prices.</source>
        <translation type="vanished">上下文：下一次请求至少要发送的量。其余各项：本对话所有回复的累计，按标价计算。</translation>
    </message>
</context>
<context>
    <name>Ui::UserGuideDialog</name>
    <message>
        <location filename="../ui/window/userguidedialog.cpp" line="+45"/>
        <source>AgentDesk User Guide</source>
        <translation>AgentDesk 用户指南</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sections</source>
        <translation>章节</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>User guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The user guide is missing from this build (%1).</source>
        <translation>此版本中缺少用户指南（%1）。</translation>
    </message>
</context>
<context>
    <name>Ui::WelcomeView</name>
    <message>
        <location filename="../ui/page/welcomeview.cpp" line="+33"/>
        <source>Describe a task in the box below and press Enter.
Every edit is shown as a diff and every command before it runs.
While the agent works, Enter steers it and Alt+Enter queues a follow-up.</source>
        <translation>在下方输入框中描述任务，然后按 Enter。
每次编辑都以差异形式展示，每条命令在运行前都会先展示。
智能体工作时，按 Enter 可引导它，按 Alt+Enter 可加入后续任务。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>No model is set up yet, so the offline demo answers: a scripted model that shows the whole flow on this repository (it lists and reads files, proposes an edit for your review and runs a command).
To work with a real model, open Settings (Ctrl+,).</source>
        <translation>尚未设置模型，因此由离线演示来回答：这是一个脚本驱动的模型，会在这个仓库上演示完整流程（列出并读取文件、提议一项供你审查的编辑，并运行一条命令）。
要使用真正的模型，请打开设置（Ctrl+,）。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Found on this computer, ready to use:</source>
        <extracomment>The welcome page, above the models found on this computer</extracomment>
        <translation>在此计算机上找到，可直接使用：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Model of %1</source>
        <extracomment>The welcome page: which of the models found to use</extracomment>
        <translation>%1 的模型</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Use</source>
        <extracomment>The welcome page: sets up the model offered beside it</extracomment>
        <translation>使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Branch: %1</source>
        <translation>分支：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not a git repository: changes cannot be reviewed against git.</source>
        <translation>不是 git 仓库：无法对照 git 审查更改。</translation>
    </message>
</context>
<context>
    <name>UiTr</name>
    <message>
        <location filename="../ui/common/picturecodec.cpp" line="-54"/>
        <source>it could not be made small enough to send</source>
        <translation>无法将它缩小到可发送的大小</translation>
    </message>
</context>
</TS>
