#!/usr/bin/env python3
"""Turns the JSON lines of run.py into the e2e tables of docs/benchmarks.md.

usage: report_e2e.py RESULTS.jsonl VERSIONS [--write DOC]
VERSIONS names the peers' versions ("claude-code=2.1.197,codex=0.171.0,pi=0.73.1").
Prints the tables; with --write replaces the section between <!-- bench:e2e --> markers in DOC
(appending the section when DOC has none). Exits 1 when AgentDesk is not ahead of every peer on
every column of both variants, or when the 100-turn per-turn time is not flat within 2x.
"""
import json
import os
import statistics
import subprocess
import sys
import time

AGENTS = ["agentdesk", "claude-code", "codex", "pi"]
TITLES = {"agentdesk": "AgentDesk", "claude-code": "Claude Code", "codex": "Codex", "pi": "pi"}


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return f"{time.strftime('%Y-%m-%d')}, commit {commit}, {cpu}, {os.cpu_count()} cores"


def ms(seconds):
    return f"{seconds * 1000:,.0f} ms"


def secs(seconds):
    return f"{seconds:.2f} s"


def mb(n):
    return f"{n / 1e6:,.0f} MB"


def kb(n):
    return f"{n / 1e3:,.0f} KB"


def mean_gap(r):
    return statistics.mean(r["gaps"]) if r["gaps"] else float("nan")


def mean_wait(r):
    return statistics.mean(r["bodyWaits"]) if r.get("bodyWaits") else float("nan")


# (row title, value of one run, format, checked): every column is "lower is better"; the
# unchecked one is a part of the row above it.
COLUMNS = [
    ("wall", lambda r: r["wall"], secs, True),
    ("CPU (user+sys)", lambda r: r["cpu"], secs, True),
    ("peak RSS, process tree", lambda r: r["peakRssTree"], mb, True),
    ("of which: the largest process", lambda r: r["maxRssLargest"], mb, False),
    ("spawn to first request", lambda r: r["firstRequest"], ms, True),
    ("time per turn (mean)", mean_gap, lambda s: f"{s * 1000:,.1f} ms", True),
    ("of which: headers in to body in", mean_wait, lambda s: f"{s * 1000:,.1f} ms", False),
    ("request bytes", lambda r: r["requestBytes"], kb, True),
]


def table(runs, agents, versions, turns_label):
    """Rows of min / median over the runs of each agent, with the ratio against AgentDesk."""
    head = ["", *(f"{TITLES[a]} {versions.get(a, '')}".strip() for a in agents)]
    out = [f"| {turns_label} | " + " | ".join(head[1:]) + " |",
           "|---" * len(head) + "|"]
    behind = []
    for title, value, fmt, checked in COLUMNS:
        cells, ours = [], None
        for a in agents:
            values = [value(r) for r in runs[a]]
            lo, med = min(values), statistics.median(values)
            if a == "agentdesk":
                ours = med
                cells.append(f"{fmt(lo)} / {fmt(med)}")
            else:
                ratio = med / ours if ours else float("inf")
                cells.append(f"{fmt(lo)} / {fmt(med)}" + (f" ({ratio:.1f}x)" if checked else ""))
                if checked and ratio <= 1.0:
                    behind.append(f"{turns_label}: {title}: {TITLES[a]} {fmt(med)} against "
                                  f"AgentDesk {fmt(ours)}")
        out.append(f"| {title} (min / median) | " + " | ".join(cells) + " |")
    return out, behind


def flatness(runs, agents):
    """First 10 and last 10 turn gaps of the long runs (median over the runs of their means)."""
    out = ["| 100 turns: time per turn | " + " | ".join(TITLES[a] for a in agents) + " |",
           "|---" * (len(agents) + 1) + "|"]
    firsts, lasts, ratios, failed = [], [], [], []
    for a in agents:
        f = statistics.median(statistics.mean(r["gaps"][:10]) for r in runs[a])
        l = statistics.median(statistics.mean(r["gaps"][-10:]) for r in runs[a])
        firsts.append(f"{f * 1000:,.1f} ms")
        lasts.append(f"{l * 1000:,.1f} ms")
        ratios.append(f"{l / f:.1f}x")
        if a == "agentdesk" and l > 2 * f:
            failed.append(f"AgentDesk's last 10 turns take {l / f:.1f}x its first 10 (target 2x)")
    out.append("| first 10 turns (mean) | " + " | ".join(firsts) + " |")
    out.append("| last 10 turns (mean) | " + " | ".join(lasts) + " |")
    out.append("| last / first | " + " | ".join(ratios) + " |")
    last = [statistics.median(r["lastRequestBytes"] for r in runs[a]) for a in agents]
    out.append("| last request | " + " | ".join(kb(b) for b in last) + " |")
    return out, failed


def section(results, versions):
    by = {}
    for r in results:
        by.setdefault(r["cycles"], {}).setdefault(r["agent"], []).append(r)
    short = by.get(1, {})
    long = {c: v for c, v in by.items() if c != 1}
    agents = [a for a in AGENTS if a in short]
    loads = [r.get("load", float("nan")) for r in results]
    out = [f"Measured {machine()}. Each agent pinned to core 0 (taskset), the scripted model "
           "server (tests/bench/e2e/server.py) and the runner on core 1; min / median of "
           f"{len(short.get('agentdesk', []))} runs of the 5-turn task, the ratio is the peer's "
           "median over AgentDesk's (above 1.0x: AgentDesk ahead). Load average (1 min) at the "
           f"runs' starts: {min(loads):.1f} to {max(loads):.1f}.", ""]
    t, behind = table(short, agents, versions, "5 turns")
    out += t
    problems = []
    for r in results:
        if r["exit"] != 0 or not r["edited"] or r["errors"] or r["offScript"]:
            problems.append(f"{TITLES[r['agent']]} run {r['run']} ({r['turns']} turns): exit "
                            f"{r['exit']}, edited {r['edited']}, errors {r['errors']}, "
                            f"off script {r['offScript']}")
    failed = []
    if long:
        cycles, lruns = max(long.items())
        turns = statistics.median(r["turns"] for r in lruns.get("agentdesk", lruns[next(iter(lruns))]))
        lagents = [a for a in AGENTS if a in lruns]
        out += ["", f"The same task repeated {cycles} times in one session ({turns:.0f} turns, "
                f"{len(lruns[lagents[0]])} runs each):", ""]
        t, b2 = table(lruns, lagents, versions, f"{turns:.0f} turns")
        out += t
        behind += b2
        out += [""]
        t, failed = flatness(lruns, lagents)
        out += t
    out += ["", "How it is measured (tests/bench/e2e/run.py): wall from fork to reaping; CPU "
            "from wait4() (the agent and every helper it waited for); peak RSS the largest sum "
            "of VmRSS over all processes of the agent's session, sampled from /proc every 2 ms "
            "(shared pages count once per process), and the largest process's own peak "
            "(wait4's ru_maxrss); spawn to first request, time per turn and request bytes from "
            "the server's log. A turn's time runs from the last byte of an answer to the next "
            "request fully received, so it holds the agent's parsing, its tools (the reads, "
            "grep, the edit, git) and the wire; its part \"headers in to body in\" is how long "
            "the server waited for a request's body once its headers were read (a body held "
            "back on the wire shows there). Request bytes are the bodies of every POST, side "
            "requests included."]
    if problems:
        out += ["", "Runs that did not play the task as scripted:", ""] + [f"- {p}" for p in problems]
    if behind or failed:
        out += ["", "Targets missed:", ""] + [f"- {b}" for b in behind + failed]
    return "\n".join(out) + "\n", not (behind or failed or problems)


INTRO = """## End to end: the same task against the real agents

`./scripts/bench e2e` installs pinned versions of the peers from npm into
~/.cache/agentdesk-bench (Claude Code, Codex with its Linux binary, pi), starts a scripted model on
127.0.0.1 that speaks each agent's own wire API (Anthropic Messages for AgentDesk and Claude Code,
OpenAI Responses for Codex, Chat Completions for pi), and points each agent at it through its
documented configuration: ANTHROPIC_BASE_URL with `claude -p --dangerously-skip-permissions`;
a custom `[model_providers]` entry with `wire_api = "responses"` in a private CODEX_HOME with
`codex exec --dangerously-bypass-approvals-and-sandbox` (model `gpt-5.5`, one of Codex's own
model names, so that it offers its usual tools: exec_command and apply_patch); a custom provider
in pi's models.json (`api: openai-completions`) with `pi -p`; `agentdesk --print --provider
anthropic --base-url ... --permission-mode bypass`. Every run has its own HOME and XDG folders.
The task runs on a fresh copy of a git repository with one commit holding the `email` package
of the host's Python 3 standard library (29 modules, real code; pallets/itsdangerous, used in
issue #22, is not reachable offline). The script: read email/utils.py and email/base64mime.py
in parallel, grep `def decode`, edit a line of utils.py, `git diff --stat`, answer. Tool and
argument names come from each request's tool list (Codex reads and greps through its shell
tool; Claude Code 2.1.197 declares no Grep tool, so its grep goes through Bash). Every answer
reports a small constant token usage so that no agent compacts. The 100-turn variant plays the same five steps 25 times in one session (each round edits the comment
the previous one left), so the history grows by the two files' text each round, to ~600 KB in
AgentDesk's last request; its table gives the mean time per turn of the first and last 10 turns
(target: flat within 2x). Runs take ~4 minutes in all once the peers are cached. Claude Code
runs its bundled ripgrep as a second copy of its own executable (`claude.exe rg ...`), which the
process tree's peak counts whenever the two overlap: its median and minimum differ for that.
"""


def write(doc, body):
    begin, end = "<!-- bench:e2e -->", "<!-- /bench:e2e -->"
    with open(doc) as f:
        text = f.read()
    block = f"{begin}\n{body}{end}"
    if begin in text:
        a = text.index(begin)
        b = text.index(end) + len(end)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + INTRO + "\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 4):
        sys.exit(__doc__)
    with open(args[0]) as f:
        results = [json.loads(line) for line in f if line.strip()]
    versions = dict(v.split("=", 1) for v in args[1].split(",") if "=" in v)
    body, ok = section(results, versions)
    print(body)
    if len(args) == 4 and args[2] == "--write":
        write(args[3], body)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
