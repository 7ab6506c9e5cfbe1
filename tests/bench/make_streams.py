#!/usr/bin/env python3
"""Builds the benchmark streams from the recorded fixtures.

For each provider one long, valid response: the head of a recorded stream, its text-delta events
repeated verbatim until the stream reaches the requested size, then the recorded tail (stop
reason, usage, end). Every byte comes from a fixture, so the work per byte is the real one.

usage: make_streams.py FIXTURES_DIR OUT_DIR SIZE_MB
"""
import os
import sys

# provider directory -> (fixture, predicate for the repeated "body" events)
SOURCES = {
    "anthropic": ("sonnet45-text-then-tool.sse",
                  lambda e: b'"text_delta"' in e or b'"type":"ping"' in e),
    "openai-chat": ("gpt4o-text-weather.sse",
                    lambda e: b'"delta":{"content"' in e),
    "openai-responses": ("gpt4o-mini-text.sse",
                         lambda e: b"response.output_text.delta" in e.split(b"\n", 1)[0]),
}


def events(raw):
    parts = raw.split(b"\n\n")
    return [p + b"\n\n" for p in parts if p.strip()]


def build(fixtures, provider, size):
    name, is_body = SOURCES[provider]
    with open(os.path.join(fixtures, "sse", provider, name), "rb") as f:
        evs = events(f.read())
    body_idx = [i for i, e in enumerate(evs) if is_body(e)]
    if not body_idx:
        raise SystemExit(f"{provider}: no body events in {name}")
    first, last = body_idx[0], body_idx[-1]
    head, body, tail = evs[:first], evs[first:last + 1], evs[last + 1:]
    body = [e for e in body if is_body(e)]
    out = bytearray(b"".join(head))
    tail_bytes = b"".join(tail)
    body_bytes = b"".join(body)
    while len(out) + len(body_bytes) + len(tail_bytes) <= size:
        out += body_bytes
    for e in body:
        if len(out) + len(e) + len(tail_bytes) > size:
            break
        out += e
    out += tail_bytes
    return bytes(out)


def main():
    fixtures, out_dir, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    os.makedirs(out_dir, exist_ok=True)
    for provider in SOURCES:
        data = build(fixtures, provider, int(size_mb * 1024 * 1024))
        path = os.path.join(out_dir, f"{provider}.sse")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{path}: {len(data)} bytes")


if __name__ == "__main__":
    main()
