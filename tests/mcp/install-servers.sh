#!/usr/bin/env bash
# install-servers.sh DIR: installs the reference MCP servers the tests run (and the SDK the
# fault server is written with) into DIR, at the versions pinned by package.json and
# package-lock.json beside this script (npm ci: the lock file's exact tree). Does nothing when
# DIR already holds that lock file's install. Needs node and npm
# (scripts/lib/debian13-packages.txt puts them into the build root) and the network the first
# time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
dir=${1:?usage: install-servers.sh DIR}
command -v npm >/dev/null || { echo "install-servers.sh: npm is missing (apt install nodejs npm)" >&2; exit 1; }
stamp=$(cat "$here/servers/package.json" "$here/servers/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$dir/.installed" 2>/dev/null)" = "$stamp" ] && [ -d "$dir/node_modules" ]; then
    exit 0
fi
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
[ "$(cat "$dir/.installed" 2>/dev/null)" = "$stamp" ] && [ -d "$dir/node_modules" ] && exit 0
cp "$here/servers/package.json" "$here/servers/package-lock.json" "$dir/"
# A cache of its own: the user's ~/.npm is not written by a test run.
npm ci --prefix "$dir" --cache "$dir/.npm-cache" --no-audit --no-fund --ignore-scripts --loglevel=error
printf '%s\n' "$stamp" >"$dir/.installed"
echo "install-servers.sh: installed $(cd "$dir" && node -p 'Object.entries(require("./package.json").dependencies).map(([n, v]) => n + "@" + v).join(", ")' 2>/dev/null || echo 'the servers') into $dir"
