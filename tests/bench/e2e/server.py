#!/usr/bin/env python3
"""A scripted model on 127.0.0.1 for the end-to-end benchmark (scripts/bench e2e).

usage: server.py  (prints "PORT <n>" on stdout, then serves until killed)

It speaks the three wire APIs the agents use, streamed as Server-Sent Events in the shapes of
the recorded provider streams (/work/shared/fixtures/sse):
  POST /v1/messages           Anthropic Messages      (Claude Code, AgentDesk)
  POST /v1/responses          OpenAI Responses        (Codex)
  POST /v1/chat/completions   OpenAI Chat Completions (pi)
and plays one scripted coding task, set before each run by the runner with POST /_bench/script.
Which step of the script a request gets is decided by the number of tool results in it, so the
agent's own retries or side requests never shift the script. Tool names and argument names are
taken from the tools the request declares (Read/Grep/Edit/Bash, read/grep/edit/bash, or a shell
and apply_patch); the tools of the MCP servers the script names (script["mcpServers"], the
MCP case) are never played, whatever they are called (server-filesystem has a read_file).

Every request is recorded (GET /_bench/log): when its headers were in, when its body was fully
received, when the last
byte of the answer was handed to the kernel, its size, and whether it was a turn of the task or
a side request (no tools: titles, quota checks, ...). The runner turns these into spawn to first
request, time per turn and request bytes.
"""
import gzip
import json
import os
import shlex
import sys
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"script": None, "log": []}
LOCK = threading.Lock()
DUMP = os.environ.get("E2E_DUMP")

# Usage reported for every answer: small and constant, so that no agent starts compacting its
# history during the 100-turn run (each would at its own threshold, and the runs would no longer
# do the same work).
USAGE_IN, USAGE_OUT = 1200, 40


def now():
    return time.monotonic()


# ---------------------------------------------------------------------------------------------
# What the request declares and contains, per wire API.


def declared_tools(api, body):
    """{name: (kind, properties)} of the request's tools; kind is "function" or "custom"."""
    tools = {}
    for t in body.get("tools") or []:
        if api == "anthropic":
            if "name" in t:
                tools[t["name"]] = ("function", (t.get("input_schema") or {}).get("properties", {}))
        elif api == "chat":
            f = t.get("function") or {}
            if f.get("name"):
                tools[f["name"]] = ("function", (f.get("parameters") or {}).get("properties", {}))
        else:  # responses
            if t.get("type") == "function":
                tools[t["name"]] = ("function", (t.get("parameters") or {}).get("properties", {}))
            elif t.get("type") == "custom":
                tools[t["name"]] = ("custom", {})
            elif t.get("type") == "local_shell":
                tools["local_shell"] = ("local_shell", {})
    return tools


def tool_results(api, body):
    """How many tool results the conversation holds: the step of the script it has reached."""
    n = 0
    if api == "anthropic":
        for m in body.get("messages", []):
            if m.get("role") == "user" and isinstance(m.get("content"), list):
                n += sum(1 for b in m["content"] if b.get("type") == "tool_result")
    elif api == "chat":
        n = sum(1 for m in body.get("messages", []) if m.get("role") == "tool")
    else:
        items = body.get("input")
        if isinstance(items, list):
            n = sum(1 for i in items if isinstance(i, dict) and i.get("type") in (
                "function_call_output", "custom_tool_call_output", "local_shell_call_output"))
    return n


# ---------------------------------------------------------------------------------------------
# The script's actions as calls of the declared tools.


def pick(tools, *names):
    lower = {n.lower(): n for n in tools}
    for n in names:
        if n.lower() in lower:
            return lower[n.lower()]
    return None


def prop(props, *names, default=None):
    for n in names:
        if n in props:
            return n
    return default


def shell_call(tools, command, root):
    """A shell command through whichever shell tool is declared."""
    name = pick(tools, "Bash", "bash", "shell_command", "exec_command", "shell", "local_shell")
    if name is None:
        raise KeyError("no shell tool among " + ", ".join(tools))
    kind, props = tools[name]
    if kind == "local_shell":
        return name, "local_shell", {"command": ["bash", "-lc", command], "workdir": root}
    cmd = prop(props, "command", "cmd", default="command")
    args = {}
    if (props.get(cmd) or {}).get("type") == "array":
        args[cmd] = ["bash", "-lc", command]
    else:
        args[cmd] = command
    wd = prop(props, "workdir", "cwd", "working_directory")
    if wd:
        args[wd] = root
    if name.lower() == "bash" and "description" in props:
        args["description"] = "Run " + command.split()[0]
    return name, "function", args


def call_for(action, tools, root):
    """(tool name, kind, arguments) for one action of the script."""
    what = action["do"]
    path = root + "/" + action["path"] if "path" in action else None
    if what == "read":
        name = pick(tools, "Read", "read", "read_file")
        if name is None:
            return shell_call(tools, "cat " + shlex.quote(action["path"]), root)
        props = tools[name][1]
        return name, "function", {prop(props, "file_path", "path", "filePath", default="path"): path}
    if what == "grep":
        name = pick(tools, "Grep", "grep", "grep_search")
        if name is None:
            return shell_call(tools, "grep -rn " + shlex.quote(action["pattern"]) + " .", root)
        props = tools[name][1]
        args = {prop(props, "pattern", "regex", "query", default="pattern"): action["pattern"]}
        where = prop(props, "path", "directory")
        if where:
            args[where] = root
        return name, "function", args
    if what == "edit":
        name = pick(tools, "Edit", "edit", "edit_file", "str_replace")
        if name is None:
            name = pick(tools, "apply_patch")
            patch = ("*** Begin Patch\n*** Update File: " + action["path"] + "\n@@\n-" + action["old"]
                     + "\n+" + action["new"] + "\n*** End Patch\n")
            kind, props = tools[name]
            if kind == "custom":
                return name, "custom", patch
            return name, "function", {prop(props, "input", "patch", default="input"): patch}
        props = tools[name][1]
        args = {prop(props, "file_path", "path", "filePath", default="path"): path}
        if "edits" in props:  # a list of replacements
            items = (props["edits"].get("items") or {}).get("properties", {})
            args["edits"] = [{prop(items, "oldText", "old_string", "old", default="oldText"): action["old"],
                              prop(items, "newText", "new_string", "new", default="newText"): action["new"]}]
        else:
            args[prop(props, "old_string", "oldText", "old_str", "old", default="old_string")] = action["old"]
            args[prop(props, "new_string", "newText", "new_str", "new", default="new_string")] = action["new"]
        return name, "function", args
    if what == "bash":
        return shell_call(tools, action["command"], root)
    if what == "task":  # a subagent (the delegated-search case): Task as Claude Code shapes it
        name = pick(tools, "Task", "task")
        if name is None:
            raise KeyError("no Task tool among " + ", ".join(tools))
        return name, "function", {"description": action["description"],
                                  "prompt": action["prompt"],
                                  "subagent_type": action.get("type", "explore")}
    raise ValueError(what)


# ---------------------------------------------------------------------------------------------
# Answers as SSE, in each API's event shapes.


def sse(event, data):
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n").encode()


def halves(s):
    """A streamed string arrives in pieces; two is enough to exercise the assembly."""
    k = len(s) // 2
    return [p for p in (s[:k], s[k:]) if p]


def anthropic_stream(model, text, calls):
    mid = "msg_" + uuid.uuid4().hex[:24]
    out = [sse("message_start", {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": USAGE_IN, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0, "output_tokens": 1}}})]
    index = 0
    if text:
        out.append(sse("content_block_start", {"type": "content_block_start", "index": 0,
                                               "content_block": {"type": "text", "text": ""}}))
        out.append(sse("ping", {"type": "ping"}))
        for piece in halves(text):
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                   "delta": {"type": "text_delta", "text": piece}}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
        index = 1
    for name, _kind, args in calls:
        out.append(sse("content_block_start", {"type": "content_block_start", "index": index,
                                               "content_block": {"type": "tool_use",
                                                                 "id": "toolu_" + uuid.uuid4().hex[:24],
                                                                 "name": name, "input": {}}}))
        for piece in halves(json.dumps(args)):
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "input_json_delta",
                                                             "partial_json": piece}}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1
    out.append(sse("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": "tool_use" if calls else "end_turn",
                                               "stop_sequence": None},
                                     "usage": {"output_tokens": USAGE_OUT}}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


def chat_stream(model, text, calls):
    cid = "chatcmpl-" + uuid.uuid4().hex[:24]
    created = int(time.time())

    def chunk(delta, finish=None, usage=None, choices=True):
        c = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
             "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
             if choices else []}
        if usage:
            c["usage"] = usage
        return sse(None, c)

    out = [chunk({"role": "assistant", "content": ""})]
    for piece in halves(text or ""):
        out.append(chunk({"content": piece}))
    for i, (name, _kind, args) in enumerate(calls):
        out.append(chunk({"tool_calls": [{"index": i, "id": "call_" + uuid.uuid4().hex[:24],
                                          "type": "function",
                                          "function": {"name": name, "arguments": ""}}]}))
        for piece in halves(json.dumps(args)):
            out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    out.append(chunk({}, "tool_calls" if calls else "stop"))
    out.append(chunk(None, usage={"prompt_tokens": USAGE_IN, "completion_tokens": USAGE_OUT,
                                  "total_tokens": USAGE_IN + USAGE_OUT}, choices=False))
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def responses_stream(model, text, calls):
    rid = "resp_" + uuid.uuid4().hex
    seq = iter(range(1 << 30))
    base = {"id": rid, "object": "response", "created_at": int(time.time()), "model": model,
            "status": "in_progress", "output": [], "usage": None}
    out = [sse("response.created", {"type": "response.created", "sequence_number": next(seq),
                                    "response": base}),
           sse("response.in_progress", {"type": "response.in_progress",
                                        "sequence_number": next(seq), "response": base})]
    items = []

    def ev(kind, **fields):
        out.append(sse(kind, dict({"type": kind, "sequence_number": next(seq)}, **fields)))

    if text:
        oi, iid = len(items), "msg_" + uuid.uuid4().hex
        ev("response.output_item.added", output_index=oi,
           item={"id": iid, "type": "message", "status": "in_progress", "role": "assistant",
                 "content": []})
        ev("response.content_part.added", item_id=iid, output_index=oi, content_index=0,
           part={"type": "output_text", "annotations": [], "text": ""})
        for piece in halves(text):
            ev("response.output_text.delta", item_id=iid, output_index=oi, content_index=0,
               delta=piece)
        part = {"type": "output_text", "annotations": [], "text": text}
        ev("response.output_text.done", item_id=iid, output_index=oi, content_index=0, text=text)
        ev("response.content_part.done", item_id=iid, output_index=oi, content_index=0, part=part)
        item = {"id": iid, "type": "message", "status": "completed", "role": "assistant",
                "content": [part]}
        ev("response.output_item.done", output_index=oi, item=item)
        items.append(item)
    for name, kind, args in calls:
        oi, call_id = len(items), "call_" + uuid.uuid4().hex[:24]
        if kind == "custom":
            iid = "ctc_" + uuid.uuid4().hex
            ev("response.output_item.added", output_index=oi,
               item={"id": iid, "type": "custom_tool_call", "status": "in_progress",
                     "call_id": call_id, "name": name, "input": ""})
            for piece in halves(args):
                ev("response.custom_tool_call_input.delta", item_id=iid, output_index=oi,
                   delta=piece)
            ev("response.custom_tool_call_input.done", item_id=iid, output_index=oi, input=args)
            item = {"id": iid, "type": "custom_tool_call", "status": "completed",
                    "call_id": call_id, "name": name, "input": args}
        else:
            iid, arguments = "fc_" + uuid.uuid4().hex, json.dumps(args)
            ev("response.output_item.added", output_index=oi,
               item={"id": iid, "type": "function_call", "status": "in_progress",
                     "arguments": "", "call_id": call_id, "name": name})
            for piece in halves(arguments):
                ev("response.function_call_arguments.delta", item_id=iid, output_index=oi,
                   delta=piece)
            ev("response.function_call_arguments.done", item_id=iid, output_index=oi,
               arguments=arguments)
            item = {"id": iid, "type": "function_call", "status": "completed",
                    "arguments": arguments, "call_id": call_id, "name": name}
        ev("response.output_item.done", output_index=oi, item=item)
        items.append(item)
    done = dict(base, status="completed", output=items,
                usage={"input_tokens": USAGE_IN, "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens": USAGE_OUT,
                       "output_tokens_details": {"reasoning_tokens": 0},
                       "total_tokens": USAGE_IN + USAGE_OUT})
    ev("response.completed", response=done)
    return b"".join(out)


STREAMS = {"anthropic": anthropic_stream, "chat": chat_stream, "responses": responses_stream}


def first_user_text(api, body):
    """The text of the conversation's first user message: which conversation a request is of
    (a subagent's starts with its Task call's prompt)."""
    if api == "responses":
        items = [i for i in body.get("input") or [] if isinstance(i, dict)]
        messages = [{"role": i.get("role"), "content": i.get("content")} for i in items]
    else:
        messages = body.get("messages", [])
    for m in messages:
        if m.get("role") != "user":
            continue
        content = m.get("content")
        if isinstance(content, str):
            return content
        return "".join(b.get("text", "") for b in content or [] if isinstance(b, dict))
    return ""


def mcp_tool(name, servers):
    """Whether a declared tool is one of the MCP servers' (its name holds the server's name, as
    mcp__SERVER__TOOL or SERVER__TOOL does): the script is played with the built-in tools."""
    folded = name.lower().replace("-", "_")
    return any(s.lower().replace("-", "_") in folded for s in servers)


def tool_list_fields(body, tools, servers):
    """What the request's tool list costs: how many definitions, how many of them an MCP
    server's, how many marked deferred (Anthropic's defer_loading), and their bytes as sent
    again compactly (the agents' own spacing may differ a little)."""
    raw = body.get("tools") or []
    return {"tools": len(tools), "mcpTools": sum(1 for n in tools if mcp_tool(n, servers)),
            "deferredTools": sum(1 for t in raw if isinstance(t, dict) and t.get("defer_loading")),
            "toolBytes": len(json.dumps(raw, separators=(",", ":")))}


def answer(api, body):
    """(sse bytes, record fields) for one model request."""
    script = STATE["script"] or {"root": "/", "steps": [{"text": "Nothing to do.", "actions": []}]}
    declared = declared_tools(api, body)
    servers = script.get("mcpServers") or []
    tools = {n: v for n, v in declared.items() if not mcp_tool(n, servers)}
    model = body.get("model", "bench-model")
    if not declared:  # a side request: a title, a summary, a quota check
        return STREAMS[api](model, "Bench task", []), {"kind": "side"}
    done = tool_results(api, body)
    # A subagent's conversation plays its own steps (script["conversations"], by its prompt).
    conversation, steps = "main", script["steps"]
    first = first_user_text(api, body)
    for prompt, its_steps in (script.get("conversations") or {}).items():
        if first.startswith(prompt):
            conversation, steps = prompt, its_steps
    # The step whose tool calls start after `done` results; the final answer once all are in.
    seen, step = 0, len(steps) - 1
    for i, s in enumerate(steps):
        if seen >= done:
            step = i
            break
        seen += len(s["actions"])
    s = steps[step]
    calls = [call_for(a, tools, script["root"]) for a in s["actions"]]
    return STREAMS[api](model, s.get("text", ""), calls), dict(
        tool_list_fields(body, declared, servers), kind="turn", step=step, results=done,
        expected=seen, calls=[c[0] for c in calls], conversation=conversation)


# ---------------------------------------------------------------------------------------------
# HTTP/1.1 with keep-alive: each answer is one chunked response, written in one piece.


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            parts = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(parts)
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def send(self, status, body, content_type="application/json", chunked=False):
        head = [f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}",
                f"Content-Type: {content_type}", "Cache-Control: no-cache"]
        if chunked:
            head.append("Transfer-Encoding: chunked")
            payload = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        else:
            head.append(f"Content-Length: {len(body)}")
            payload = body
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        self.wfile.flush()

    def do_GET(self):
        self.read_body()
        if self.path == "/_bench/log":
            with LOCK:
                data = json.dumps(STATE["log"]).encode()
            return self.send(200, data)
        # Model lists and the like: an empty list answers them.
        record = {"path": self.path, "method": "GET", "kind": "other", "received": now(),
                  "bytes": 0}
        self.send(200, b'{"object":"list","data":[],"models":[]}')
        record["sent"] = now()
        with LOCK:
            STATE["log"].append(record)

    def do_HEAD(self):
        self.send(200, b"")

    def do_POST(self):
        started = now()  # the request line and headers are in: the body follows
        raw = self.read_body()
        received = now()
        if self.path == "/_bench/script":
            with LOCK:
                STATE["script"] = json.loads(raw)
                STATE["log"] = []
            return self.send(200, b"{}")
        path = self.path.split("?")[0]
        api = ("anthropic" if path.endswith("/messages") else
               "responses" if path.endswith("/responses") else
               "chat" if path.endswith("/chat/completions") else None)
        record = {"path": path, "method": "POST", "started": started, "received": received,
                  "bytes": len(raw),
                  "headerBytes": len(str(self.headers))}
        if api is None:  # count_tokens, telemetry, ...: acknowledged, not part of the task
            record["kind"] = "other"
            self.send(200, b'{"input_tokens":1200}')
        else:
            encoding = (self.headers.get("Content-Encoding") or "").lower()
            body = raw
            if encoding == "gzip":
                body = gzip.decompress(raw)
            elif encoding == "deflate":
                body = zlib.decompress(raw)
            elif encoding == "zstd":
                import zstandard  # not on every host; Codex compresses only for its own backend
                body = zstandard.ZstdDecompressor().decompressobj().decompress(raw)
            if DUMP:  # E2E_DUMP=DIR keeps each request body, to read what an agent sends
                with open(os.path.join(DUMP, f"{len(STATE['log']):03d}-{api}.json"), "wb") as f:
                    f.write(body)
            try:
                stream, fields = answer(api, json.loads(body))
            except Exception as e:  # the runner reports it: the script could not be played
                record.update(kind="error", error=repr(e))
                self.send(500, json.dumps({"error": {"message": repr(e)}}).encode())
            else:
                record.update(fields, api=api)
                self.send(200, stream, "text/event-stream", chunked=True)
        record["sent"] = now()
        with LOCK:
            STATE["log"].append(record)


class Server(ThreadingHTTPServer):
    daemon_threads = True  # a keep-alive connection left open never holds the server up


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print("PORT", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
