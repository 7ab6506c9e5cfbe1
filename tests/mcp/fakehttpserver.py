#!/usr/bin/env python3
"""A small MCP server over Streamable HTTP that misbehaves on purpose, for the faults the
reference server does not make on demand (tests/mcp/tst_mcpclient.cpp): a session that
expires (404), an HTML error page (500), a body over the client's cap, an answer nested
deeper than the client reads, an event stream that drops before its answer (resumed with Last-Event-ID), a call that waits to be cancelled. It listens on 127.0.0.1 at a free port,
prints "PORT <n>" first, then "got <method> session=<id>" for every message it receives.

    fakehttpserver.py
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
sessions = set()
session_count = 0
dropped = {}  # event id -> the response the dropped stream owed
cancelled = threading.Event()

TOOLS = [
    {"name": name, "description": description, "inputSchema": {"type": "object"}}
    for name, description in [
        ("hello", "answers with its session"),
        ("expire", "ends the session; the next request gets 404"),
        ("html500", "fails with an HTML error page"),
        ("huge", "answers with 2 MiB of JSON"),
        ("drop", "drops its event stream before the answer"),
        ("slow", "reports progress, then waits to be cancelled"),
        ("deep", "answers with a result nested `levels` deep (valid JSON), its id last"),
    ]
]


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def text_result(id, value):
    return {"jsonrpc": "2.0", "id": id,
            "result": {"content": [{"type": "text", "text": value}]}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, id, message):
        self.wfile.write(f"id: {id}\ndata: {json.dumps(message)}\n\n".encode())
        self.wfile.flush()

    def do_POST(self):
        global session_count
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        message = json.loads(body)
        session = self.headers.get("Mcp-Session-Id")
        method = message.get("method", "(response)")
        say(f"got {method} session={session} version={self.headers.get('MCP-Protocol-Version')}"
            f" accept={self.headers.get('Accept')} auth={self.headers.get('Authorization')}")
        if method == "initialize":
            with lock:
                session_count += 1
                session = f"session-{session_count}"
                sessions.add(session)
            self.reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "fakehttp", "version": "1"}}},
                headers={"Mcp-Session-Id": session})
            return
        with lock:
            known = session in sessions
        if not known:
            self.reply(404, b"session not found", "text/plain")
            return
        if method == "notifications/cancelled":
            say(f"cancelled request {message['params'].get('requestId')}: "
                f"{message['params'].get('reason')}")
            cancelled.set()
        if "id" not in message or "method" not in message:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        id = message["id"]
        if method == "tools/list":
            self.reply(200, {"jsonrpc": "2.0", "id": id, "result": {"tools": TOOLS}})
            return
        if method != "tools/call":
            self.reply(200, {"jsonrpc": "2.0", "id": id, "result": {}})
            return
        name = message["params"]["name"]
        if name == "hello":
            self.reply(200, text_result(id, f"hello in {session}"))
        elif name == "expire":
            with lock:
                sessions.discard(session)
            self.reply(200, text_result(id, "expired"))
        elif name == "html500":
            self.reply(500, b"<!DOCTYPE html><html><head><title>Oops</title><style>body {color: "
                       b"red}</style></head><body><h1>Internal Server Error</h1><p>The upstream "
                       b"database is down.</p></body></html>", "text/html")
        elif name == "huge":
            self.reply(200, text_result(id, "x" * (2 * 1024 * 1024)))
        elif name == "deep":
            arrays = message["params"].get("arguments", {}).get("levels", 150) - 2
            self.reply(200, ('{"jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": '
                             '"deep %d"}], "nested": %s%s}, "id": %s}'
                             % (arrays + 2, "[" * arrays, "]" * arrays, json.dumps(id))).encode())
        elif name == "drop":
            token = message["params"].get("_meta", {}).get("progressToken")
            with lock:
                dropped["e1"] = text_result(id, "answered after the resumption")
            self.start_stream()
            self.event("e1", {"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": token, "progress": 1, "total": 2, "message": "before the drop"}})
            # The connection closes here, the answer owed.
        elif name == "slow":
            token = message["params"].get("_meta", {}).get("progressToken")
            cancelled.clear()
            self.start_stream()
            self.event("s1", {"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": token, "progress": 1, "message": "first step"}})
            # The specification: a cancelled request is not answered.
            say("slow: cancelled" if cancelled.wait(20) else "slow: never cancelled")

    def do_GET(self):
        last = self.headers.get("Last-Event-ID")
        say(f"got GET session={self.headers.get('Mcp-Session-Id')} last-event-id={last}")
        with lock:
            owed = dropped.pop(last, None) if last else None
        if owed is None:
            self.reply(405, b"no stream here", "text/plain")
            return
        self.start_stream()
        self.event("e2", owed)

    def do_DELETE(self):
        session = self.headers.get("Mcp-Session-Id")
        say(f"got DELETE session={session}")
        with lock:
            sessions.discard(session)
        self.reply(200, b"", "text/plain")


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
server.daemon_threads = True
say(f"PORT {server.server_address[1]}")
server.serve_forever()
