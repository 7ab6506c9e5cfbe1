#!/usr/bin/env bash
# Usage: installer/make-bundle.sh [BUILD_DIR]
# Makes BUILD_DIR/packages/agentdesk-VERSION-linux-ARCH.tar.gz (default build/release): a folder
# that unpacks anywhere and runs on Debian 12 or Ubuntu 24.04 as a normal user without the build
# root, with the Qt and KF6 libraries it was built with (installer/bundle.cmake says how).
# Run ./scripts/test (or build the agentdesk target) first; on a Debian 12 host it runs in the
# Debian 13 build root, like scripts/test. Prints the path of the archive.
set -euo pipefail
script=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
. "$(dirname "$script")/../scripts/lib/buildenv.sh"

build=${1:-$AGENTDESK_CHECKOUT/build/release}
[ -f "$build/CMakeCache.txt" ] \
    || agentdesk_die "make-bundle: $build is not a CMake build directory; run ./scripts/test first"
build=$(cd "$build" && pwd -P)

if [ "$(agentdesk_env_kind)" = root ]; then
    agentdesk_ensure_root
    agentdesk_in_env env AGENTDESK_ENV=native "$script" "$build"
    exit 0
fi

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
arch=$(uname -m)
name=agentdesk-$version-linux-$arch
plugins=$(dirname "$(find /usr/lib -maxdepth 4 -path '*/qt6/plugins/platforms' -print -quit)")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentdesk-bundle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cmake --build "$build" --target agentdesk >"$tmp/build.log" 2>&1 \
    || { cat "$tmp/build.log" >&2; agentdesk_die "make-bundle: building $build failed"; }
cmake --install "$build" --prefix "$tmp/$name" --strip >"$tmp/install.log" 2>&1 \
    || { cat "$tmp/install.log" >&2; agentdesk_die "make-bundle: cmake --install failed"; }
cmake -DBUNDLE_DIR="$tmp/$name" -DQT_PLUGINS_DIR="$plugins" \
    -P "$AGENTDESK_CHECKOUT/installer/bundle.cmake" >&2
cp "$AGENTDESK_CHECKOUT/installer/bundle-README.txt" "$tmp/$name/README.txt"
mkdir -p "$build/packages"
tar -C "$tmp" -czf "$build/packages/$name.tar.gz" "$name"
agentdesk_log "bundle: $build/packages/$name.tar.gz ($(du -k "$build/packages/$name.tar.gz" | cut -f1) KiB)"
printf '%s\n' "$build/packages/$name.tar.gz"
