#!/usr/bin/env python3
"""A language server for tests/lsp/tst_lspservers, as its argument says:
  hang: answers initialize (with no capabilities) and nothing after it, not even shutdown;
  pull: offers pull diagnostics only (LSP 3.17's textDocument/diagnostic) and never publishes:
        each line of the text holding "bad" is an error there."""
import json
import sys


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length)) if length is not None else {}


def write_message(stream, message):
    body = json.dumps(dict(message, jsonrpc="2.0")).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def diagnostics_of(text):
    return [{"range": {"start": {"line": number, "character": line.index("bad")},
                       "end": {"line": number, "character": line.index("bad") + 3}},
             "severity": 1, "message": "bad word", "source": "fake"}
            for number, line in enumerate(text.split("\n")) if "bad" in line]


def main():
    mode = sys.argv[1]
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    texts = {}
    while True:
        message = read_message(stdin)
        if message is None:
            return
        method = message.get("method")
        params = message.get("params", {})
        if method == "initialize":
            capabilities = {}
            if mode == "pull":
                capabilities = {"textDocumentSync": 1,
                                "diagnosticProvider": {"interFileDependencies": False,
                                                       "workspaceDiagnostics": False}}
            write_message(stdout, {"id": message["id"], "result": {"capabilities": capabilities}})
        elif mode == "hang":
            continue
        elif method == "textDocument/didOpen":
            texts[params["textDocument"]["uri"]] = params["textDocument"]["text"]
        elif method == "textDocument/didChange":
            texts[params["textDocument"]["uri"]] = params["contentChanges"][-1]["text"]
        elif method == "textDocument/diagnostic":
            items = diagnostics_of(texts.get(params["textDocument"]["uri"], ""))
            write_message(stdout, {"id": message["id"], "result": {"kind": "full", "items": items}})
        elif method == "shutdown":
            write_message(stdout, {"id": message["id"], "result": None})
        elif method == "exit":
            return


main()
