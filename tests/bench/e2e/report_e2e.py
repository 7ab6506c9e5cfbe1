#!/usr/bin/env python3
"""Turns the JSON lines of run.py into the e2e tables of docs/benchmarks.md.

usage: report_e2e.py RESULTS.jsonl VERSIONS [--write DOC]
VERSIONS names the peers' versions ("claude-code=2.1.197,codex=0.171.0,pi=0.73.1").
Prints the tables; with --write replaces the section between <!-- bench:e2e --> markers in DOC
(appending the section when DOC has none). Exits 1 when AgentDesk is not ahead of every peer on
every compared column of every case, when the 100-turn per-turn time is not flat within 2x, or
when the five MCP servers add half of their schemas' bytes or more to AgentDesk's first request
(against the 5-turn case without them). An agent with no MCP (pi) is shown in the MCP case but
not compared.
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


# The MCP case's rows beyond COLUMNS.
MCP_COLUMNS = [
    # Not compared: an agent that sends its first request before every server is connected
    # (Claude Code) sends fewer tools in it; the row below it says how many.
    ("first request bytes", lambda r: r["firstRequestBytes"], kb, False),
]


def table(runs, agents, versions, turns_label, columns=COLUMNS, apart=(), notes=None):
    """Rows of min / median over the runs of each agent, with the ratio against AgentDesk.
    Agents in `apart` did not do the same work (pi has no MCP): shown, neither compared nor
    checked; `notes` adds a word to an agent's heading."""
    notes = notes or {}
    head = ["", *(" ".join(x for x in (TITLES[a], versions.get(a, ""), notes.get(a, "")) if x)
                  for a in agents)]
    out = [f"| {turns_label} | " + " | ".join(head[1:]) + " |",
           "|---" * len(head) + "|"]
    behind = []
    for title, value, fmt, checked in columns:
        cells, ours = [], None
        for a in agents:
            values = [value(r) for r in runs[a]]
            lo, med = min(values), statistics.median(values)
            if a == "agentdesk" or a in apart:
                ours = med if a == "agentdesk" else ours
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


def case_of(r):
    """The case of one run: "5", "100" or "mcp" (results of before the MCP case: by cycles)."""
    return r.get("case") or ("5" if r["cycles"] == 1 else "100")


def round_loads(runs):
    """The load average (1 min) at each round's start, in round order."""
    loads = {}
    for r in runs:
        loads.setdefault(r.get("round", r["run"]), r.get("roundLoad", r.get("load")))
    return ", ".join(f"{loads[k]:.1f}" for k in sorted(loads))


def mcp_section(mruns, short, costs, versions):
    """The MCP case: its table, what the servers' schemas cost, and AgentDesk's target (its MCP
    tools cost less than half of every schema, on every request)."""
    agents = [a for a in AGENTS if a in mruns]
    apart = [a for a in agents if not any(r.get("mcp") for r in mruns[a])]
    n = len(mruns[agents[0]])
    out = ["", f"The 5-turn task with five MCP servers configured in every agent that has MCP "
           f"({n} runs each):", ""]
    t, behind = table(mruns, agents, versions, "5 turns, 5 MCP servers", COLUMNS + MCP_COLUMNS,
                      apart, {a: "(no MCP)" for a in apart})
    out += t
    cells = []
    for a in agents:
        r = sorted(mruns[a], key=lambda r: r["requestBytes"])[len(mruns[a]) // 2]
        if a in apart:
            cells.append(f"{r['firstRequestTools']} / {r['lastRequestTools']} (no MCP)")
            continue
        deferred = f", {r['firstRequestDeferred']} deferred" if r["firstRequestDeferred"] else ""
        cells.append(f"{r['firstRequestTools']} ({r['firstRequestMcpTools']} MCP{deferred}) / "
                     f"{r['lastRequestTools']} ({r['lastRequestMcpTools']} MCP)")
    out.append("| tool definitions, first / last request | " + " | ".join(cells) + " |")
    failed, cost = [], {}
    for a in agents:  # the MCP case's bytes over the plain 5-turn case's, medians
        if a in short and a not in apart:
            first = statistics.median(r["firstRequestBytes"] for r in mruns[a]) - statistics.median(
                r.get("firstRequestBytes", 0) for r in short[a])
            total = statistics.median(r["requestBytes"] for r in mruns[a]) - statistics.median(
                r["requestBytes"] for r in short[a])
            cost[a] = (first, total)
    if costs and "pi" in apart:  # what pi's requests would carry with the schemas as its own
        r = sorted(mruns["pi"], key=lambda r: r["requestBytes"])[len(mruns["pi"]) // 2]
        cost["pi"] = (costs["chatBytes"], r["turns"] * costs["chatBytes"])
    if cost:
        out.append("| more than without the servers: first request / all requests | " + " | ".join(
            f"+{kb(cost[a][0])} / +{kb(cost[a][1])}" + (" (would be)" if a in apart else "")
            if a in cost else "" for a in agents) + " |")
    if costs:
        servers = ", ".join(f"{k} {v}" for k, v in costs["servers"].items())
        out += ["", f"The five servers list {costs['tools']} tools to a client that declares no "
                f"capabilities ({servers}; server-everything adds get-roots-list and "
                "trigger-elicitation-request for a client that declares roots and elicitation). "
                f"Every schema, as the requests declare a tool (compact JSON, named "
                f"mcp__SERVER__TOOL): {kb(costs['anthropicBytes'])} as Anthropic tool "
                f"definitions, {kb(costs['responsesBytes'])} as Responses ones, "
                f"{kb(costs['chatBytes'])} as Chat Completions ones, on every request."]
    for a in apart:
        if a == "pi" and costs:
            r = sorted(mruns[a], key=lambda r: r["requestBytes"])[len(mruns[a]) // 2]
            more = r["turns"] * costs["chatBytes"]
            out += ["", f"pi has no MCP (its README: \"No MCP. Build CLI tools with READMEs, or "
                    "build an extension that adds MCP support\"); its runs here have its four "
                    "tools only. An extension that declared the servers' tools as pi's own would "
                    f"add their {kb(costs['chatBytes'])} to each of its {r['turns']} requests: "
                    f"{kb(r['requestBytes'] + more)} in all, against the "
                    f"{kb(r['requestBytes'])} it sent."]
    if "agentdesk" in cost and costs:
        first, total = cost["agentdesk"]
        requests = statistics.median(r["turns"] for r in mruns["agentdesk"])
        every = requests * costs["anthropicBytes"]
        out += ["", f"AgentDesk's first request carries {kb(first)} more with the servers than "
                f"without, against {kb(costs['anthropicBytes'])} for every schema "
                f"({first / costs['anthropicBytes']:.0%}; target: under half); its "
                f"{requests:.0f} requests {kb(total)} more, against {kb(every)} "
                f"({total / every:.0%})."]
        if first >= costs["anthropicBytes"] / 2:
            failed.append(f"5 MCP servers: AgentDesk's first request grows by {kb(first)}, "
                          f"not under half of every schema ({kb(costs['anthropicBytes'])})")
    elif "agentdesk" in agents:
        out += ["", "(The 5-turn case was not run with this one: no figure for what the "
                "servers add to each request.)"]
    return out, behind, failed


def section(results, versions):
    costs = next((r for r in results if r.get("case") == "mcp-tools"), None)
    by = {}
    for r in results:
        if "agent" in r:
            by.setdefault(case_of(r), {}).setdefault(r["agent"], []).append(r)
    short = by.get("5", {})
    long = by.get("100", {})
    mcp = by.get("mcp", {})
    runs_of = {k: [r for rs in v.values() for r in rs] for k, v in by.items()}
    loads = "; ".join(f"{label}: {round_loads(runs_of[k])}" for k, label in (
        ("5", "5 turns"), ("100", "100 turns"), ("mcp", "MCP")) if k in runs_of)
    first_case = short or long or mcp
    agents = [a for a in AGENTS if a in first_case]
    out = [f"Measured {machine()}. Each agent pinned to core 0 (taskset), the scripted model "
           "server (tests/bench/e2e/server.py) and the runner on core 1. The agents run "
           "interleaved: each round runs every agent once, the order rotated by one agent a "
           "round (round 1 starts with "
           f"{TITLES[agents[0]]}, round 2 with {TITLES[agents[1 % len(agents)]]}, ...), so a "
           "drift of the machine's load falls on every agent alike. Min / median of the runs, "
           "the ratio is the peer's median over AgentDesk's (above 1.0x: AgentDesk ahead). "
           f"Load average (1 min) at each round's start: {loads}.", ""]
    behind, failed = [], []
    if short:
        out += [f"The 5-turn task ({len(short.get('agentdesk', short[agents[0]]))} runs each):",
                ""]
        t, behind = table(short, agents, versions, "5 turns")
        out += t
    problems = []
    for r in results:
        if "agent" in r and (r["exit"] != 0 or not r["edited"] or r["errors"] or r["offScript"]):
            problems.append(f"{TITLES[r['agent']]} run {r['run']} ({case_of(r)}, {r['turns']} "
                            f"turns): exit {r['exit']}, edited {r['edited']}, errors "
                            f"{r['errors']}, off script {r['offScript']}")
    if long:
        lruns = long
        cycles = max(r["cycles"] for rs in lruns.values() for r in rs)
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
    if mcp:
        t, b3, f3 = mcp_section(mcp, short, costs, versions)
        out += t
        behind += b3
        failed += f3
    out += ["", "How it is measured (tests/bench/e2e/run.py): wall from fork to reaping; CPU "
            "from wait4() (the agent and every helper it waited for); peak RSS the largest sum "
            "of VmRSS over all processes of the agent's session, sampled from /proc every 2 ms "
            "(shared pages count once per process; with MCP servers, theirs too), and the "
            "largest process's own peak "
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
anthropic --base-url ... --permission-mode bypass`. The agents that let the user choose their
built-in tools (AgentDesk, Claude Code and pi: `--tools`) are all offered the four the task uses,
Read, Grep, Edit and Bash, so that no agent's requests carry definitions of tools the others were
spared; Codex has no such option and offers its own. Every run has its own HOME and XDG folders.
The task runs on a fresh copy of a git repository with one commit holding the `email` package
of the host's Python 3 standard library (29 modules, real code; pallets/itsdangerous, used in
issue #22, is not reachable offline). The script: read email/utils.py and email/base64mime.py
in parallel, grep `def decode`, edit a line of utils.py, `git diff --stat`, answer. Tool and
argument names come from each request's tool list (Codex reads and greps through its shell
tool; Claude Code 2.1.197 declares no Grep tool, so its grep goes through Bash). Every answer
reports a small constant token usage so that no agent compacts. The 100-turn variant plays the same five steps 25 times in one session (each round edits the comment
the previous one left), so the history grows by the two files' text each round, to ~600 KB in
AgentDesk's last request; its table gives the mean time per turn of the first and last 10 turns
(target: flat within 2x). Claude Code runs its bundled ripgrep as a second copy of its own
executable (`claude.exe rg ...`), which the process tree's peak counts whenever the two overlap:
its median and minimum differ for that.

The agents run interleaved (since issue 39; before, every run of one agent came before the next
agent's): each round runs every agent once, the order rotated by one agent a round (round 1
AgentDesk, Claude Code, Codex, pi; round 2 Claude Code, Codex, pi, AgentDesk; ...), so the table
compares runs taken at the same time and a drift of the machine's load falls on every column
alike. The report gives the load average at each round's start. A whole run (5 rounds of the
5-turn task, 3 of the 100-turn one, 3 of the MCP case) takes about 2.5 minutes on the 2-core
machine once the peers are cached.

**With five MCP servers** (issue 39): the 5-turn task again, with the reference servers the
tests run (installed pinned by tests/mcp/install-servers.sh into the build folder's
`mcp-servers`, as `./scripts/bench mcp` does) configured in every agent: server-everything three
times and server-filesystem twice (allowed the run's repository), 67 tools to a client that
declares no capabilities (server-everything lists two more, get-roots-list and
trigger-elicitation-request, to a client that declares roots and elicitation, as Claude Code
does: 73 for it). Each agent configures them its own way: AgentDesk and Claude Code
`--mcp-config FILE --strict-mcp-config` (the same `{"mcpServers": ...}` file; `--tools` chooses
among the built-in tools only, and names `ToolSearch` too where the agent has it: Claude Code's,
and AgentDesk's when its `--help` lists it), Codex `[mcp_servers.NAME]` tables in its private
config.toml. Claude Code gets `ENABLE_TOOL_SEARCH=true`: its tool search, on by default against
Anthropic's own API, is off for any other `ANTHROPIC_BASE_URL` unless asked for. pi has no MCP
(its README: "No MCP ... build an extension that adds MCP support"): it runs with its four
tools, is shown but not compared, and the report gives what the servers' schemas would add to
its requests. The runner lists the servers' tools itself and prints what every schema costs as a
request declares it (compact JSON: 32 KB as Anthropic tool definitions, 33 KB as Responses ones,
34 KB as Chat Completions ones). The figures are the request bytes (the first request's and all
five's), the tool definitions the first and the last request carry, what the servers add over
the same agent's 5-turn runs, and wall, CPU, RSS (the servers' processes count in the tree) and
the start as in the other cases. Target (issue 39): the servers add less than half of every
schema to AgentDesk's first request. The scripted server never calls an MCP tool (it tells them
by their servers' names, whatever the tool is called: server-filesystem has a `read_file`), so
every agent plays the task with its built-in tools. What the peers do (2.1.197, 0.171.0):
neither declares a server's tool until the model asks for it. Claude Code adds its `ToolSearch`
and names the deferred tools in the conversation (3 to 6 KB a request, as more of its servers
connect); it does not wait for its servers (its first request says they are "still connecting",
and names their tools once they are). Codex adds `tool_search` (a BM25 search over the deferred
tools' names and descriptions, run by the client) and its three MCP resource tools, about 2.2 KB
a request, and waits for its servers as AgentDesk does. (Without `ENABLE_TOOL_SEARCH` and
`ToolSearch` in `--tools`, Claude Code declared every schema, 73 tools, on every request.)
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
