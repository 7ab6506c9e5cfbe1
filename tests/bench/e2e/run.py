#!/usr/bin/env python3
"""Runs the end-to-end benchmark: each agent, pinned to core 0, plays the scripted coding task
against server.py (pinned to core 1) on a fresh copy of the same git repository.

usage: run.py --work DIR --peers NODE_PREFIX --agentdesk 'CMD ...' [--agents a,b] [--runs 5]
              [--long-runs 3] [--cycles 25] [--mcp-servers DIR] [--mcp-runs 3]
              [--cases 5,100,mcp] --out RESULTS.jsonl

Three cases: the 5-turn task ("5"), the same task repeated --cycles times in one session
("100"), and the 5-turn task with five MCP servers configured in every agent that has MCP
("mcp": server-everything three times and server-filesystem twice, the reference servers of
tests/mcp/install-servers.sh in --mcp-servers DIR; skipped without it). The agents run
interleaved: round k runs each agent once, the order rotated by one agent each round, so that
a drift of the machine's load spreads over every agent instead of falling on one agent's runs.

One JSON line per run: the case, the round and the load average at its start, the agent, wall,
CPU, peak RSS, spawn to first request, the turn gaps, the request bytes (all and the first),
and the tool definitions the first request declared. The MCP case adds one line with the
servers' tools as the runner listed them itself (their count and the bytes of every schema as
each wire API declares a tool): what sending every schema costs. report_e2e.py makes the tables.

How each figure is taken:
  wall      monotonic clock from just before the fork to the reaping of the agent's process.
  CPU       user+sys from wait4() on the agent's process: its own time plus every descendant it
            waited for; processes left running after it exited (none so far) are listed apart.
  peak RSS  the largest sum of VmRSS over every process of the agent's session (the agent is
            started in a new session, its helpers inherit it), sampled every 2 ms from /proc.
            Shared pages count once per process, as `ps` would add them.
  spawn to first request, time per turn, request bytes: from the server's log (one clock,
            CLOCK_MONOTONIC, for both processes). A turn's time is the gap from the last byte
            of one answer handed to the kernel to the next request fully received: the agent's
            own work (parsing, running the tools, building the next request) and the wire.
            Its part "body wait" runs from the request's headers being read to its body being
            fully received: a request written in pieces that wait on the wire shows there.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.sysconf("SC_PAGE_SIZE")
API_KEY = "sk-bench-not-a-real-key"

# The task, in the words every agent gets, and the two files it reads, the pattern it greps and
# the line it edits (in the repository made by make_repo()).
PROMPT = ("In this repository, read email/utils.py and email/base64mime.py, find where decode "
          "functions are defined, mark formatdate as reviewed, and show the diff stat.")
FILE_A, FILE_B = "email/utils.py", "email/base64mime.py"
# The tools the task uses. Every agent that lets the user choose its built-in tools (AgentDesk,
# Claude Code and pi: --tools) is offered these four, so that no agent's requests carry tool
# definitions the others were spared; Codex has no such option and offers its own set.
TOOLS = ["Read", "Grep", "Edit", "Bash"]
PATTERN = "def decode"

# The MCP case: five stdio servers, as bench_mcp starts them (server-everything three times,
# server-filesystem twice, the filesystem ones allowed the run's repository). Names with no
# built-in tool's name in them: the scripted server tells MCP tools by them.
MCP_SERVERS = [("everything1", "everything"), ("everything2", "everything"),
               ("everything3", "everything"), ("filesystem1", "filesystem"),
               ("filesystem2", "filesystem")]


def mcp_servers(servers_dir, repo):
    """{name: (command, args)} of the MCP case's servers for one run on `repo`."""
    module = os.path.join(servers_dir, "node_modules", "@modelcontextprotocol")
    out = {}
    for name, kind in MCP_SERVERS:
        if kind == "everything":
            out[name] = ("node", [os.path.join(module, "server-everything", "dist", "index.js"),
                                  "stdio"])
        else:
            out[name] = ("node", [os.path.join(module, "server-filesystem", "dist", "index.js"),
                                  repo])
    return out


def list_mcp_tools(command, args, cwd):
    """The tools one stdio MCP server lists (every page): initialize, then tools/list."""
    proc = subprocess.Popen([command, *args], cwd=cwd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def call(id_, method, params):
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method,
                                     "params": params}) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            message = json.loads(line)
            if message.get("id") == id_:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
        raise RuntimeError(f"{command}: ended before answering {method}")

    try:
        call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "e2e-bench", "version": "1"}})
        proc.stdin.write(json.dumps({"jsonrpc": "2.0",
                                     "method": "notifications/initialized"}) + "\n")
        tools, cursor, n = [], None, 2
        while True:
            page = call(n, "tools/list", {"cursor": cursor} if cursor else {})
            tools += page.get("tools", [])
            cursor, n = page.get("nextCursor"), n + 1
            if not cursor:
                return tools
    finally:
        proc.kill()
        proc.wait()


def mcp_schema_costs(servers_dir, repo):
    """The MCP case's servers' tools, listed by the runner, and the bytes of every schema as a
    request would declare it in each wire API (compact JSON, named mcp__SERVER__TOOL):
    the figure a deferred tool list is measured against."""
    counts, anthropic, chat, responses = {}, 0, 0, 0
    for name, (command, args) in mcp_servers(servers_dir, repo).items():
        tools = list_mcp_tools(command, args, repo)
        counts[name] = len(tools)
        for t in tools:
            full, text = f"mcp__{name}__{t['name']}", t.get("description", "")
            schema = t.get("inputSchema") or {"type": "object"}
            size = lambda v: len(json.dumps(v, separators=(",", ":")))
            anthropic += size({"name": full, "description": text, "input_schema": schema})
            chat += size({"type": "function", "function": {"name": full, "description": text,
                                                           "parameters": schema}})
            responses += size({"type": "function", "name": full, "description": text,
                               "parameters": schema})
    return {"case": "mcp-tools", "servers": counts, "tools": sum(counts.values()),
            "anthropicBytes": anthropic, "chatBytes": chat, "responsesBytes": responses}
EDIT_LINE = "def formatdate(timeval=None, localtime=False, usegmt=False):"


def make_repo(dest):
    """A git repository with one commit: the email package of the host's Python 3 standard
    library (real code: 29 modules, ~1 MB), a README and a pyproject.toml."""
    import email
    src = os.path.dirname(email.__file__)
    os.makedirs(dest)
    shutil.copytree(src, os.path.join(dest, "email"),
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    with open(os.path.join(dest, "README.md"), "w") as f:
        f.write("# email\n\nThe email package of the Python standard library, as a small "
                "repository for the end-to-end benchmark.\n")
    with open(os.path.join(dest, "pyproject.toml"), "w") as f:
        f.write('[project]\nname = "email"\nversion = "0.0.0"\nrequires-python = ">=3.8"\n')
    env = dict(os.environ, GIT_AUTHOR_NAME="Bench", GIT_AUTHOR_EMAIL="bench@localhost",
               GIT_COMMITTER_NAME="Bench", GIT_COMMITTER_EMAIL="bench@localhost",
               GIT_AUTHOR_DATE="2025-01-01T00:00:00Z", GIT_COMMITTER_DATE="2025-01-01T00:00:00Z")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "Import"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True)


def script(root, cycles):
    """The steps the server plays: `cycles` rounds of (two parallel reads, a grep, an edit,
    git diff --stat), then the answer. One cycle is the 5-turn task; 25 make ~100 turns whose
    history grows by the two files' text each round. Each round's edit changes the comment the
    previous one left on the same line, so it always applies."""
    steps = []
    for k in range(1, cycles + 1):
        old = EDIT_LINE + (f"  # reviewed {k - 1}" if k > 1 else "")
        steps += [
            {"text": "I'll read both files first.",
             "actions": [{"do": "read", "path": FILE_A}, {"do": "read", "path": FILE_B}]},
            {"text": "", "actions": [{"do": "grep", "pattern": PATTERN}]},
            {"text": "", "actions": [{"do": "edit", "path": FILE_A, "old": old,
                                      "new": EDIT_LINE + f"  # reviewed {k}"}]},
            {"text": "", "actions": [{"do": "bash", "command": "git diff --stat"}]},
        ]
    steps.append({"text": "Done: formatdate is marked as reviewed; the decode functions are in "
                          "email/base64mime.py and email/quoprimime.py. One file changed.",
                  "actions": []})
    return {"root": root, "steps": steps}


# The delegated-search case (#37): the same search done by AgentDesk itself (a grep, then three
# files read in parallel) or handed to an explore subagent with the Task tool, whose answer alone
# comes back. What it shows is the main conversation's request bytes either way.
DELEGATE_PROMPT = ("Where does this repository decode MIME encoded words and base64 bodies? "
                   "Name the functions and their files.")
SEARCH_PROMPT = ("Find where the email package decodes MIME encoded words and base64 bodies: "
                 "report the functions and the files they are in.")
SEARCH_FILES = ["email/_encoded_words.py", "email/base64mime.py", "email/quoprimime.py"]
SEARCH_ANSWER = ("The decoders: email/_encoded_words.py (decode, decode_b, decode_q), "
                 "email/base64mime.py (decode), email/quoprimime.py (decode, header_decode).")


def delegated_script(root, delegated):
    search = [{"text": "", "actions": [{"do": "grep", "pattern": PATTERN}]},
              {"text": "", "actions": [{"do": "read", "path": p} for p in SEARCH_FILES]}]
    if not delegated:
        return {"root": root, "steps": search + [{"text": SEARCH_ANSWER, "actions": []}]}
    return {"root": root,
            "steps": [{"text": "", "actions": [{"do": "task", "type": "explore",
                                                "description": "Find the decoders",
                                                "prompt": SEARCH_PROMPT}]},
                      {"text": SEARCH_ANSWER, "actions": []}],
            "conversations": {SEARCH_PROMPT: search + [{"text": SEARCH_ANSWER, "actions": []}]}}


# ---------------------------------------------------------------------------------------------
# How each agent is started: its documented non-interactive mode and custom endpoint.


def write_mcp_json(home, mcp):
    """The servers as a .mcp.json-format file ({"mcpServers": {...}}), for --mcp-config."""
    path = os.path.join(home, "mcp-servers.json")
    with open(path, "w") as f:
        json.dump({"mcpServers": {n: {"type": "stdio", "command": c, "args": a}
                                  for n, (c, a) in mcp.items()}}, f, indent=2)
    return path


def agentdesk_names_tool_search(args):
    """Whether this agentdesk's --tools takes ToolSearch (the tool that loads deferred tools'
    schemas, issue 39), read from its --help once: then the MCP case names it, as Claude Code's
    does, so that --tools does not leave it out; a binary without it runs as it is."""
    if getattr(args, "tool_search", None) is None:
        text = subprocess.run(args.agentdesk.split() + ["--help"], capture_output=True,
                              text=True).stdout
        start = text.find("--tools")
        end = re.search(r"\n\s+-", text[start + 1:]) if start >= 0 else None
        part = text[start:start + 1 + end.start()] if end else text[start:]
        args.tool_search = start >= 0 and "ToolSearch" in part
    return args.tool_search


def agentdesk_has_language_servers(args):
    """Whether this agentdesk starts language servers (issue 40: pylsp checks each Edit of a
    Python file), read from its --help once. The peers check nothing after an edit: the runs
    compare like with like with them off, and the lsp benchmark measures what they add."""
    if getattr(args, "language_servers", None) is None:
        text = subprocess.run(args.agentdesk.split() + ["--help"], capture_output=True,
                              text=True).stdout
        args.language_servers = "--no-language-servers" in text
    return args.language_servers


def agent_command(name, args, url, repo, home, mcp=None):
    """(argv, environment) of one run. HOME and the XDG folders are private to the run.
    mcp: {server name: (command, args)} configured in the agent its own way (pi has no MCP)."""
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "LANG", "LC_ALL", "TERM", "USER", "LOGNAME", "SHELL", "TMPDIR")}
    env.update(HOME=home, XDG_CONFIG_HOME=home + "/.config", XDG_DATA_HOME=home + "/.local/share",
               XDG_CACHE_HOME=home + "/.cache", XDG_STATE_HOME=home + "/.local/state")
    env.setdefault("LC_ALL", "C.UTF-8")
    bins = os.path.join(args.peers, "node_modules", ".bin")
    if name == "agentdesk":
        env["ANTHROPIC_API_KEY"] = API_KEY
        # --mcp-config as Claude Code's (--tools chooses the built-in tools only); strict: no
        # other file's servers.
        extra = ["--mcp-config", write_mcp_json(home, mcp), "--strict-mcp-config"] if mcp else []
        tools = TOOLS + (["ToolSearch"] if mcp and agentdesk_names_tool_search(args) else [])
        if agentdesk_has_language_servers(args):
            extra.append("--no-language-servers")
        return (args.agentdesk.split() + [
            "--print", PROMPT, "--repo", repo, "--provider", "anthropic", "--base-url", url,
            "--model", "bench-model", "--permission-mode", "bypass",
            "--tools", ",".join(tools), "--no-session-persistence"] + extra, env)
    if name == "claude-code":
        # ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY (docs: settings, environment variables);
        # -p with --dangerously-skip-permissions, which as root needs IS_SANDBOX=1.
        env.update(ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY=API_KEY, IS_SANDBOX="1",
                   CLAUDE_CONFIG_DIR=home + "/.claude", DISABLE_AUTOUPDATER="1",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1")
        # MCP: --mcp-config FILE --strict-mcp-config (docs: CLI reference); --tools names the
        # built-in tools only, the servers' tools come on top.
        extra = ["--mcp-config", write_mcp_json(home, mcp), "--strict-mcp-config"] if mcp else []
        if mcp:
            # Its tool search (MCP tools deferred behind its ToolSearch tool, which --tools must
            # then name), on by default against Anthropic's own API, is off for another
            # ANTHROPIC_BASE_URL unless asked for: asked for, as its users' sessions run.
            env["ENABLE_TOOL_SEARCH"] = "true"
        return ([os.path.join(bins, "claude"), "-p", PROMPT, "--model", "bench-model",
                 "--tools", ",".join(TOOLS + (["ToolSearch"] if mcp else [])),
                 "--dangerously-skip-permissions"] + extra, env)
    if name == "codex":
        # codex exec with a custom model provider in $CODEX_HOME/config.toml (wire_api
        # "responses"), approvals and sandbox off (the run is the sandbox).
        codex_home = home + "/.codex"
        os.makedirs(codex_home, exist_ok=True)
        with open(codex_home + "/config.toml", "w") as f:
            f.write('model = "gpt-5.5"\nmodel_provider = "bench"\n'
                    'model_context_window = 1000000\n'
                    'model_auto_compact_token_limit = 900000\n'
                    'check_for_update_on_startup = false\n\n'
                    '[analytics]\nenabled = false\n\n'
                    '[model_providers.bench]\nname = "bench"\n'
                    f'base_url = "{url}/v1"\nenv_key = "BENCH_API_KEY"\n'
                    'wire_api = "responses"\nrequest_max_retries = 0\n'
                    'stream_max_retries = 0\n')
            # MCP: one [mcp_servers.NAME] table each (docs: config.md, "MCP servers").
            for server, (command, server_args) in (mcp or {}).items():
                f.write(f'\n[mcp_servers.{server}]\ncommand = {json.dumps(command)}\n'
                        f'args = {json.dumps(server_args)}\nstartup_timeout_sec = 60\n')
        env.update(CODEX_HOME=codex_home, BENCH_API_KEY=API_KEY)
        return ([os.path.join(bins, "codex"), "exec", "--skip-git-repo-check",
                 "--dangerously-bypass-approvals-and-sandbox", "-C", repo, PROMPT], env)
    if name == "pi":
        # pi has no MCP ("No MCP", its README): in the MCP case it runs with its four tools,
        # and the report adds what the servers' schemas would cost it.
        # A custom provider in the models file ($PI_CODING_AGENT_DIR/models.json), Chat
        # Completions ("openai-completions"); print mode, no session file, no network at start.
        agent_dir = home + "/.pi/agent"
        os.makedirs(agent_dir, exist_ok=True)
        with open(agent_dir + "/models.json", "w") as f:
            json.dump({"providers": {"bench": {
                "baseUrl": url + "/v1", "api": "openai-completions", "apiKey": API_KEY,
                "models": [{"id": "bench-model", "contextWindow": 1000000,
                            "maxTokens": 32000}]}}}, f)
        env.update(PI_CODING_AGENT_DIR=agent_dir, PI_OFFLINE="1")
        return ([os.path.join(bins, "pi"), "-p", "--no-session", "--provider", "bench",
                 "--model", "bench-model", "--tools", ",".join(t.lower() for t in TOOLS), PROMPT],
                env)
    raise ValueError(name)


# ---------------------------------------------------------------------------------------------
# Measuring one run.


class TreeSampler(threading.Thread):
    """The largest summed RSS of the processes of one session, from /proc every 2 ms."""

    def __init__(self, sid):
        super().__init__(daemon=True)
        self.sid, self.peak, self.stop, self.pids = sid, 0, threading.Event(), {}
        self.seen = set()

    def session_of(self, pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[3])  # after ") ": state ppid pgrp session
        except (OSError, IndexError, ValueError):
            return None

    def sample(self):
        total = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            if pid not in self.pids:
                self.pids[pid] = self.session_of(pid) == self.sid
            if not self.pids[pid]:
                continue
            try:
                with open(f"/proc/{pid}/statm") as f:
                    total += int(f.read().split()[1]) * PAGE
                self.seen.add(pid)
            except OSError:
                pass
        self.peak = max(self.peak, total)

    def run(self):
        while not self.stop.is_set():
            self.sample()
            time.sleep(0.002)

    def lingering(self):
        """Processes of the session still alive once the agent has exited."""
        alive = []
        for pid, ours in self.pids.items():
            if ours and os.path.exists(f"/proc/{pid}") and self.session_of(pid) == self.sid:
                alive.append(pid)
        return alive


def post(url, data):
    req = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()


def get(url):
    return json.loads(urllib.request.urlopen(url).read())


def run_once(name, args, url, template, work, case, cycles, index):
    tag = f"{name}-{case}-{index}"
    repo = os.path.join(work, f"repo-{tag}")
    home = os.path.join(work, f"home-{tag}")
    shutil.copytree(template, repo, symlinks=True)
    os.makedirs(home)
    mcp = mcp_servers(args.mcp_servers, repo) if case == "mcp" and name != "pi" else None
    argv, env = agent_command(name, args, url, repo, home, mcp)
    steps = script(repo, cycles)
    if case == "mcp":
        steps["mcpServers"] = [n for n, _ in MCP_SERVERS]
    post(url + "/_bench/script", steps)
    out = open(os.path.join(work, f"out-{tag}.txt"), "wb")
    with open("/proc/loadavg") as f:
        load = float(f.read().split()[0])  # how quiet the machine was: printed with the table
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=lambda: os.sched_setaffinity(0, {0}))
    sampler = TreeSampler(proc.pid)
    sampler.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        wall = time.monotonic() - start
        sampler.stop.set()
        sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    left = sampler.lingering()
    left_names = []
    for pid in left:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                left_names.append(f.read().replace(b"\0", b" ").decode(errors="replace")[:200])
        except OSError:
            pass
    for pid in left:  # helpers the agent left behind: ended, and reported
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    log = get(url + "/_bench/log")
    posts = [r for r in log if r.get("method") == "POST"]
    turns = [r for r in log if r.get("kind") == "turn"]
    gaps = [b["received"] - a["sent"] for a, b in zip(turns, turns[1:])]
    with open(os.path.join(repo, FILE_A)) as f:
        edited = f"# reviewed {cycles}" in f.read()
    first = turns[0] if turns else {}
    return {
        "agent": name, "case": case, "mcp": bool(mcp),
        "turnsPlanned": len(steps["steps"]), "cycles": cycles, "run": index, "load": load, "exit": proc.returncode, "edited": edited,
        "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
        "peakRssTree": sampler.peak, "maxRssLargest": usage.ru_maxrss * 1024,
        "processes": len(sampler.seen), "lingering": len(left), "lingeringCommands": left_names,
        "firstRequest": (log[0]["received"] - start) if log else None,
        "turns": len(turns), "sideRequests": sum(1 for r in log if r.get("kind") == "side"),
        "otherRequests": sum(1 for r in log if r.get("kind") == "other"),
        "errors": [r.get("error") for r in log if r.get("kind") == "error"],
        "offScript": sum(1 for r in turns if r["results"] != r["expected"]),
        "gaps": gaps, "bodyWaits": [r["received"] - r["started"] for r in turns[1:]],
        "requestBytes": sum(r["bytes"] for r in posts),
        "lastRequestBytes": turns[-1]["bytes"] if turns else 0,
        "firstRequestBytes": first.get("bytes", 0),
        "firstRequestTools": first.get("tools", 0), "firstRequestMcpTools": first.get("mcpTools", 0),
        "firstRequestDeferred": first.get("deferredTools", 0),
        "firstRequestToolBytes": first.get("toolBytes", 0),
        "lastRequestTools": turns[-1].get("tools", 0) if turns else 0,
        "lastRequestMcpTools": turns[-1].get("mcpTools", 0) if turns else 0,
    }


def run_delegated(args, url, template, work, delegated, index):
    """AgentDesk alone, the search inline or delegated: the main conversation's request bytes
    (every request of it, and its last), the subagent's, and the wall time."""
    variant = "delegated" if delegated else "inline"
    repo = os.path.join(work, f"repo-search-{variant}-{index}")
    home = os.path.join(work, f"home-search-{variant}-{index}")
    shutil.copytree(template, repo, symlinks=True)
    os.makedirs(home)
    argv, env = agent_command("agentdesk", args, url, repo, home)
    # All the tools (--tools leaves Task out), both ways: the same definitions in every request.
    cut = argv.index("--tools")
    argv = argv[:cut] + argv[cut + 2:]
    argv[argv.index(PROMPT)] = DELEGATE_PROMPT
    post(url + "/_bench/script", delegated_script(repo, delegated))
    out = open(os.path.join(work, f"out-search-{variant}-{index}.txt"), "wb")
    start = time.monotonic()
    proc = subprocess.run(argv, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=out,
                          stderr=subprocess.STDOUT,
                          preexec_fn=lambda: os.sched_setaffinity(0, {0}))
    wall = time.monotonic() - start
    turns = [r for r in get(url + "/_bench/log") if r.get("kind") == "turn"]
    main_turns = [r for r in turns if r.get("conversation") == "main"]
    child_turns = [r for r in turns if r.get("conversation") != "main"]
    return {"case": "delegated-search", "variant": variant, "run": index, "exit": proc.returncode,
            "wall": wall, "mainRequests": len(main_turns), "childRequests": len(child_turns),
            "mainRequestBytes": sum(r["bytes"] for r in main_turns),
            "mainLastRequestBytes": main_turns[-1]["bytes"] if main_turns else 0,
            "childRequestBytes": sum(r["bytes"] for r in child_turns),
            "offScript": sum(1 for r in turns if r["results"] != r["expected"])}


def report_delegated(results):
    """The table of the delegated-search case, medians of the runs; exit status 1 when the
    delegated main conversation's requests are not smaller than the inline one's."""
    def median(values):
        values = sorted(values)
        return values[len(values) // 2] if values else 0
    rows = {}
    for variant in ("inline", "delegated"):
        runs = [r for r in results if r["variant"] == variant and r["exit"] == 0]
        rows[variant] = {k: median([r[k] for r in runs]) for k in (
            "wall", "mainRequests", "childRequests", "mainRequestBytes", "mainLastRequestBytes",
            "childRequestBytes")}
        rows[variant]["runs"] = len(runs)
    print("| search (grep + 3 files) | main requests | main request bytes | main's last request "
          "| subagent requests | subagent request bytes | wall |")
    print("|---|---|---|---|---|---|---|")
    for variant, r in rows.items():
        print(f"| {variant} | {r['mainRequests']} | {r['mainRequestBytes']:,} | "
              f"{r['mainLastRequestBytes']:,} | {r['childRequests']} | "
              f"{r['childRequestBytes']:,} | {r['wall']:.2f} s |")
    inline, delegated = rows["inline"], rows["delegated"]
    ok = (inline["runs"] and delegated["runs"]
          and delegated["mainRequestBytes"] < inline["mainRequestBytes"])
    if inline["runs"] and delegated["runs"]:
        print(f"\nThe main conversation's requests: {delegated['mainRequestBytes']:,} bytes "
              f"delegated against {inline['mainRequestBytes']:,} inline "
              f"({inline['mainRequestBytes'] / max(1, delegated['mainRequestBytes']):.1f}x).")
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--peers", default="", help="folder holding node_modules of the peers")
    p.add_argument("--delegated-search", type=int, default=0, metavar="RUNS",
                   help="run only the delegated-search case (AgentDesk), RUNS times each way")
    p.add_argument("--agentdesk", required=True, help="the command that starts agentdesk")
    p.add_argument("--agents", default="agentdesk,claude-code,codex,pi")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--long-runs", type=int, default=3)
    p.add_argument("--cycles", type=int, default=25)
    p.add_argument("--mcp-servers", default="",
                   help="folder of the reference MCP servers (tests/mcp/install-servers.sh)")
    p.add_argument("--mcp-runs", type=int, default=3)
    p.add_argument("--cases", default="5,100,mcp", help="which of 5, 100 and mcp to run")
    p.add_argument("--out", required=True)
    args = p.parse_args()

    template = os.path.join(args.work, "template")
    if not os.path.exists(template):
        make_repo(template)
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py")],
                              stdout=subprocess.PIPE, text=True,
                              preexec_fn=lambda: os.sched_setaffinity(0, {1 % os.cpu_count()}))
    os.sched_setaffinity(0, {1 % os.cpu_count()})  # the runner stays off the agents' core
    try:
        port = int(server.stdout.readline().split()[1])
        url = f"http://127.0.0.1:{port}"
        if args.delegated_search:
            results = []
            with open(args.out, "a") as out:
                for i in range(args.delegated_search):
                    for delegated in (False, True):
                        r = run_delegated(args, url, template, args.work, delegated, i)
                        results.append(r)
                        out.write(json.dumps(r) + "\n")
                        print(f"e2e: search {r['variant']}: main {r['mainRequestBytes']} bytes "
                              f"in {r['mainRequests']} requests, exit {r['exit']}",
                              file=sys.stderr)
            sys.exit(report_delegated(results))
        cases = args.cases.split(",")
        if "mcp" in cases and not args.mcp_servers:
            print("e2e: no --mcp-servers: the MCP case is left out", file=sys.stderr)
            cases.remove("mcp")
        agents = args.agents.split(",")
        with open(args.out, "a") as out:
            if "mcp" in cases:
                costs = mcp_schema_costs(args.mcp_servers, template)
                out.write(json.dumps(costs) + "\n")
                print(f"e2e: the MCP servers list {costs['tools']} tools, "
                      f"{costs['anthropicBytes']} bytes of Anthropic tool definitions",
                      file=sys.stderr)
            for case, cycles, runs in (("5", 1, args.runs), ("100", args.cycles, args.long_runs),
                                       ("mcp", 1, args.mcp_runs)):
                if case not in cases:
                    continue
                # Interleaved: round i runs every agent once, starting with the i-th, so no
                # agent always runs first or always after the same one.
                for i in range(runs):
                    order = agents[i % len(agents):] + agents[:i % len(agents)]
                    with open("/proc/loadavg") as f:
                        round_load = float(f.read().split()[0])
                    for position, name in enumerate(order):
                        r = run_once(name, args, url, template, args.work, case, cycles, i)
                        r.update(round=i, position=position, roundLoad=round_load)
                        out.write(json.dumps(r) + "\n")
                        out.flush()
                        print(f"e2e: {case} round {i + 1}: {name} {r['turns']} turns: wall "
                              f"{r['wall']:.2f} s, cpu {r['cpu']:.2f} s, first request "
                              f"{r['firstRequestBytes']} bytes ({r['firstRequestTools']} tools), "
                              f"exit {r['exit']}, edited {r['edited']}", file=sys.stderr)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
