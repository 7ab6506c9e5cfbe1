#!/usr/bin/env bash
# Usage: installer/test-as-user.sh [BUILD_DIR]     (as root on the host; CI passes build/ci)
# AgentDesk runs on the host as the user who starts it, whatever environment built it:
#  0. (CI=true) `<checkout>/scripts/run . --version` from inside a repository: build and start.
#  1. scripts/run's launch step (AGENTDESK_NO_BUILD=1), started by a new normal user from inside
#     a temporary repository as `<checkout>/scripts/run . --print ...`, against a scripted model
#     (python3 http.server, Chat Completions) whose task runs host-only programs through Bash:
#     node when the host has it and the build root does not, and a program in the user's ~/bin.
#     The written file belongs to the user, the programs were found, the audit log is in the
#     user's XDG data folder (--print keeps no session; the window does), nothing of the user's
#     went to /var/cache/agentdesk, and the window starts the same way (offscreen screenshot).
#  2. installer/make-bundle.sh's bundle, unpacked by that user, answers --version and saves an
#     offscreen --screenshot.
# The user is removed at the end.
# shellcheck disable=SC2016 # $1 and $(id -un) expand in the user's shell, as they must
set -euo pipefail
script=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
. "$(dirname "$script")/../scripts/lib/buildenv.sh"

[ "$(id -u)" = 0 ] || agentdesk_die "test-as-user: run as root (it creates a user)"
build=${1:-$AGENTDESK_CHECKOUT/build/release}
build=$(cd "$build" 2>/dev/null && pwd -P) || agentdesk_die "test-as-user: no build directory ${1:-}"
[ "$(dirname "$build")" = "$AGENTDESK_CHECKOUT/build" ] \
    || agentdesk_die "test-as-user: $build is not a build/<preset> folder of $AGENTDESK_CHECKOUT"
preset=$(basename "$build")
[ -x "$build/bin/agentdesk" ] || agentdesk_die "test-as-user: no $build/bin/agentdesk; build it first"

CHECKS_NAME=test-as-user
# shellcheck source=installer/checks.sh
. "$AGENTDESK_CHECKOUT/installer/checks.sh"

user=agentdesk-test-$$
home=/home/$user
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentdesk-test-as-user.XXXXXX")
chmod 755 "$tmp"
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    userdel --remove "$user" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
[ -z "${AGENTDESK_TEST_KEEP:-}" ] || trap 'kill "$server_pid"; say "kept $home and $tmp"' EXIT
useradd --create-home --home-dir "$home" --shell /bin/bash "$user"
# as_user COMMAND...: a login-like environment of the user only (no variable of root's leaks in).
as_user() {
    runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash \
        PATH="$home/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 "$@"
}

# The checkout must be readable by the user (it is in CI); otherwise a copy of what the launch
# step uses (the scripts and the program) stands in for it.
checkout=$AGENTDESK_CHECKOUT
if ! as_user test -x "$checkout/scripts/run" -a -x "$build/bin/agentdesk"; then
    checkout=$tmp/checkout
    mkdir -p "$checkout/build/$preset/bin"
    cp -a "$AGENTDESK_CHECKOUT/scripts" "$checkout/"
    cp "$build/bin/agentdesk" "$checkout/build/$preset/bin/"
    say "the checkout is not readable by $user: using a copy of scripts/ and the program"
fi

# Host-only programs: one in the user's own ~/bin, and node when the root lacks it.
mkdir -p "$home/bin"
printf '#!/bin/sh\necho "users-own-tool ran as $(id -un)"\n' >"$home/bin/users-own-tool"
chmod +x "$home/bin/users-own-tool"
chown -R "$user:" "$home/bin"
command='users-own-tool > host-run.txt; grep VERSION_ID /etc/os-release >> host-run.txt'
node=
if [ "$(agentdesk_env_kind)" = root ] && as_user sh -c 'command -v node' >/dev/null \
    && [ ! -e "$AGENTDESK_ROOT/usr/bin/node" ]; then
    node=$(as_user node --version)
    command="$command; node --version >> host-run.txt"
fi

repo=$home/project
as_user git init -q "$repo"
as_user sh -c "cd '$repo' && echo hello > README.md && git add README.md \
    && git -c user.name=test -c user.email=test@example.invalid commit -q -m initial"

# The scripted model: a tool call to Bash first, then, once the tool's result is in, a text.
cat >"$tmp/model.py" <<'EOF'
import http.server, json, sys

port_file, command = sys.argv[1], sys.argv[2]

def chunk(delta, finish=None):
    return {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
            "model": "test-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

class Model(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        answered = any(m.get("role") == "tool" for m in body.get("messages", []))
        if answered:
            events = [chunk({"role": "assistant", "content": "Ran it on the host."}),
                      chunk({}, "stop")]
        else:
            call = {"index": 0, "id": "call_1", "type": "function",
                    "function": {"name": "Bash", "arguments": json.dumps({"command": command})}}
            events = [chunk({"role": "assistant", "content": ""}),
                      chunk({"tool_calls": [call]}), chunk({}, "tool_calls")]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for event in events:
            self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Model)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
EOF
python=$(command -v /usr/bin/python3 python3 | head -n1)
"$python" "$tmp/model.py" "$tmp/port" "$command" &
server_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || agentdesk_die "test-as-user: the scripted model did not start"
port=$(cat "$tmp/port")

# The build step from inside another repository (cmake must find the checkout's presets). In CI
# only: there the build is complete, so it is a no-op; elsewhere it would build every target.
if [ "${CI:-}" = true ]; then
    if out=$(cd "$repo" && AGENTDESK_PRESET="$preset" "$AGENTDESK_CHECKOUT/scripts/run" . --version 2>&1); then
        check "root's '<checkout>/scripts/run . --version' from inside the repository builds and starts" \
            has '^agentdesk ' "$out"
    else
        fail "<checkout>/scripts/run . --version from inside the repository exited with $?"$'\n'"$out"
    fi
fi

say "1. $user runs '$checkout/scripts/run . --print' from inside $repo"
touch "$tmp/before"
sleep 1 # find -newer compares whole seconds on some file systems
if out=$(as_user OPENAI_API_KEY=test-key AGENTDESK_NO_BUILD=1 AGENTDESK_PRESET="$preset" \
    bash -c 'cd "$1" && shift && exec "$@"' _ "$repo" \
    "$checkout/scripts/run" . --print "Run the host's tools." --provider openai \
    --base-url "http://127.0.0.1:$port/v1" --model test-model --permission-mode bypass 2>&1); then
    pass "scripts/run --print as $user exits with 0"
else
    fail "scripts/run --print as $user exited with $?"$'\n'"$out"
fi
check "the model's final text is printed" has 'Ran it on the host' "$out"
check "the tool's file is in the repository" test -f "$repo/host-run.txt"
check "the file belongs to $user" has "^$user\$" "$(stat -c %U "$repo/host-run.txt" 2>&1)"
result=$(cat "$repo/host-run.txt" 2>&1)
check "the user's own ~/bin program was found (the user's PATH), and ran as $user" \
    has "^users-own-tool ran as $user\$" "$result"
check "Bash ran on the host (its /etc/os-release), not in the build root" \
    has "^$(grep VERSION_ID /etc/os-release)\$" "$result"
if [ -n "$node" ]; then
    check "node, which only the host has, was found: $node" has "^$node\$" "$result"
else
    say "skip node: the host has none, or the build root has it too"
fi
data=$home/.local/share/AgentDesk/agentdesk
# --print keeps no session (the window does); its audit log records every tool call.
audit=$(find "$data/audit" -name '*.jsonl' -user "$user" 2>/dev/null || true)
check "the audit log is in $user's XDG data folder ($data/audit)" test -n "$audit"
check "the audit log records the Bash call" has 'users-own-tool' "$(cat "$audit" 2>&1)"
shot=$home/run-window.png
if out=$(as_user QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$home" AGENTDESK_NO_BUILD=1 \
    AGENTDESK_PRESET="$preset" bash -c 'cd "$1" && shift && exec "$@"' _ "$repo" \
    timeout 60 "$checkout/scripts/run" . --screenshot "$shot" 2>&1); then
    check "the window, started by scripts/run as $user, saves an offscreen screenshot" \
        has 'PNG image data' "$(file "$shot" 2>&1)"
else
    fail "scripts/run . --screenshot FILE as $user exited with $?"$'\n'"$out"
fi
cache=$(dirname "$AGENTDESK_ROOT")
check "nothing under $cache belongs to $user" test -z "$(find "$cache" -user "$user" 2>/dev/null | head)"
# Builds and tests may run at the same time on a developer's machine: what they write in the root
# (the compiler cache, resolv.conf copied at each entry, QtTest's settings) is theirs.
written=$(find "$cache" -newer "$tmp/before" -not -path '*/.cache/ccache*' -not -path '*/.qttest/*' \
    -not -path "$AGENTDESK_ROOT/etc/resolv.conf" -not -name '*.lock' 2>/dev/null | head || true)
check "nothing under $cache was written by the run" has '^$' "$written"

say "2. the relocatable bundle, unpacked and started by $user"
bundle=$("$AGENTDESK_CHECKOUT/installer/make-bundle.sh" "$build" | tail -n1)
if [ -f "$bundle" ]; then
    pass "make-bundle.sh made $(basename "$bundle") ($(du -k "$bundle" | cut -f1) KiB)"
    cp "$bundle" "$tmp/"
    as_user tar -xzf "$tmp/$(basename "$bundle")" -C "$home"
    top=$home/$(basename "$bundle" .tar.gz)
    version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
    check "the bundle's agentdesk --version says $version" \
        has "^agentdesk $version\$" "$(as_user "$top/bin/agentdesk" --version 2>&1)"
    check "the bundle's agentdesk uses its own libraries" \
        has "$top/lib/libQt6Core.so.6" "$(as_user "$top/lib/"ld-linux-* --library-path "$top/lib" --list "$top/libexec/agentdesk" 2>&1)"
    shot=$home/window.png
    if out=$(as_user QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$home" \
        bash -c 'cd "$1" && shift && exec "$@"' _ "$repo" \
        timeout 60 "$top/bin/agentdesk" --screenshot "$shot" . 2>&1); then
        check "an offscreen start as $user saves a PNG of the window" \
            has 'PNG image data' "$(file "$shot" 2>&1 || od -c "$shot" | head -n1)"
    else
        fail "the bundle's offscreen start (agentdesk --screenshot FILE .) exited with $?"$'\n'"$out"
    fi
else
    fail "make-bundle.sh made no bundle"
fi

checks_summary
