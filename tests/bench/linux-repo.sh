#!/usr/bin/env bash
# Usage: tests/bench/linux-repo.sh CACHE
# Prints the path of a git checkout of the Linux kernel source (Debian's linux-source-6.12, about
# 90,000 files) for the checkpoint benchmark, making it once under CACHE (run it where the
# benchmark runs: scripts/bench runs it in the build environment). The source comes from
# /usr/src/linux-source-6.12.tar.xz when the package is installed, else from the package itself,
# fetched with `apt-get download` into CACHE (150 MB; nothing is installed). Another tree:
# AGENTDESK_BENCH_REPO=/path/to/a/checkout scripts/bench checkpoint.
set -euo pipefail
cache=$1
version=6.12
repo=$cache/linux-$version
if [ -e "$repo.ready" ]; then
    echo "$repo"
    exit 0
fi
mkdir -p "$cache"
tarball=/usr/src/linux-source-$version.tar.xz
if [ ! -e "$tarball" ]; then
    deb=$(ls "$cache"/linux-source-${version}_*.deb 2>/dev/null | tail -1 || true)
    if [ -z "$deb" ]; then
        echo "linux-repo: fetching linux-source-$version with apt-get download" >&2
        (cd "$cache" && apt-get download "linux-source-$version" >&2)
        deb=$(ls "$cache"/linux-source-${version}_*.deb | tail -1)
    fi
    tarball=-
fi
echo "linux-repo: unpacking into $repo (a few minutes)" >&2
rm -rf "$repo" && mkdir -p "$repo"
if [ "$tarball" = - ]; then
    dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards "*linux-source-$version.tar.xz"
else
    cat "$tarball"
fi | xz -dc | tar -x -C "$repo" --strip-components=1
# Debian's packaging appends "/*" (ignore the top level) to the root .gitignore: upstream's.
sed -i '/^# Debian packaging/,$d' "$repo/.gitignore"
echo "linux-repo: committing it into a git repository" >&2
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=bench -c user.email=bench@agentdesk commit -qm "linux-source-$version"
touch "$repo.ready"
git -C "$repo" status --porcelain | head -3 >&2
echo "$repo"
