#!/usr/bin/env bash
# Usage: installer/test-install.sh [BUILD_DIR]
# Packages an existing build (default build/release, the one ./scripts/test makes; CI passes
# build/ci) with cpack, unpacks the DEB and the TGZ into temporary roots and checks that each
# installs a working AgentDesk: files in place, `agentdesk --version`, an offscreen start on a
# temporary git repository, the DEB's dependencies, the desktop file and the AppStream metainfo.
# On a Debian 12 host it runs in the Debian 13 build root, like scripts/test.
set -euo pipefail
script=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
. "$(dirname "$script")/../scripts/lib/buildenv.sh"

build=${1:-$AGENTDESK_CHECKOUT/build/release}
[ -d "$build" ] || agentdesk_die "test-install: no build directory $build; run ./scripts/test first (it builds build/release)"
build=$(cd "$build" && pwd -P)

if [ "$(agentdesk_env_kind)" = root ]; then
    agentdesk_ensure_root
    # Inside the root the Debian 13 tools are native; AGENTDESK_ENV would otherwise come along.
    agentdesk_in_env env AGENTDESK_ENV=native "$script" "$build"
    exit 0
fi

CHECKS_NAME=test-install
# shellcheck source=installer/checks.sh
. "$AGENTDESK_CHECKOUT/installer/checks.sh"
# log_or_die LOG MESSAGE: after a failed step, shows its log and stops.
log_or_die() {
    cat "$1" >&2
    agentdesk_die "test-install: $2"
}

for tool in cpack dpkg-deb dpkg-shlibdeps readelf desktop-file-validate appstreamcli file git; do
    command -v "$tool" >/dev/null \
        || agentdesk_die "test-install: $tool is missing; it is in scripts/lib/debian13-packages.txt (./scripts/env installs that list)"
done
[ -f "$build/CMakeCache.txt" ] \
    || agentdesk_die "test-install: $build is not a CMake build directory; run ./scripts/test first"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentdesk-test-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# An incremental build: re-runs CMake when the installer files changed (CPackConfig.cmake comes
# from it), nothing when ./scripts/test has just built the directory.
say "building agentdesk in $build (incremental)"
cmake --build "$build" --target agentdesk >"$tmp/build.log" 2>&1 \
    || log_or_die "$tmp/build.log" "building $build failed (log above)"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
[ -n "$version" ] || agentdesk_die "test-install: no CPACK_PACKAGE_VERSION in $build/CPackConfig.cmake"

say "making the packages of AgentDesk $version with cpack"
rm -rf "$build/packages"
(cd "$build" && cpack --config CPackConfig.cmake) >"$tmp/cpack.log" 2>&1 \
    || log_or_die "$tmp/cpack.log" "cpack failed (log above)"
deb=$(ls "$build"/packages/agentdesk_"$version"-*.deb 2>/dev/null | head -n1)
tgz=$(ls "$build"/packages/agentdesk-"$version"-*.tar.gz 2>/dev/null | head -n1)
if [ -z "$deb" ] || [ -z "$tgz" ]; then
    log_or_die "$tmp/cpack.log" "cpack made no DEB or no TGZ in $build/packages (log above)"
fi
for package in "$build"/packages/agentdesk*.{deb,tar.gz,rpm}; do
    [ -f "$package" ] && say "made $(basename "$package") ($(du -k "$package" | cut -f1) KiB)"
done

app_id=io.github.agentdesk.AgentDesk
mkdir -p "$tmp/deb" "$tmp/tgz"
dpkg-deb -x "$deb" "$tmp/deb"
tar -xzf "$tgz" -C "$tmp/tgz"
tgz_top=$(find "$tmp/tgz" -mindepth 1 -maxdepth 1 -type d | head -n1)

depends=$(dpkg-deb --field "$deb" Depends)
say "DEB Depends: $depends"
# dpkg-shlibdeps worked when the libraries the binary links are listed with versions.
check "DEB depends on Qt Core (shlibdeps)" has 'libqt6core6[a-z0-9]* \(>=' "$depends"
check "DEB depends on Qt Widgets (shlibdeps)" has 'libqt6widgets6[a-z0-9]* \(>=' "$depends"
check "DEB depends on QtKeychain (shlibdeps)" has 'libqt6keychain[0-9]+ \(>=' "$depends"
check "DEB depends on the Qt platform plugins" has 'qt6-qpa-plugins' "$depends"

# covers_needed BINARY: every library BINARY links (QtKeychain among them) is owned by a package
# that the DEB depends on.
covers_needed() {
    local soname owner status=0 names
    names=$(sed 's/([^)]*)//g; s/[,|]/\n/g; s/ //g' <<<"$depends")
    for soname in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        owner=$(dpkg -S "*/$soname" 2>/dev/null | head -n1 | cut -d: -f1)
        if [ -z "$owner" ]; then
            echo "no installed package has $soname"
            status=1
        elif ! grep -qxF "$owner" <<<"$names"; then
            echo "agentdesk links $soname of $owner, which the DEB does not depend on"
            status=1
        fi
    done
    return $status
}
check "DEB depends on every library agentdesk links" covers_needed "$tmp/deb/usr/bin/agentdesk"

repo="$tmp/repo"
git init -q "$repo"
printf 'hello\n' >"$repo/README.md"
git -C "$repo" add README.md
git -C "$repo" -c user.name=test -c user.email=test@example.invalid commit -q -m initial

# check_root NAME PREFIX: the installed files under PREFIX (/usr for the DEB, the top for the TGZ).
check_root() {
    local name=$1 prefix=$2 share=$2/share shot="$tmp/$1.png"
    check "$name: agentdesk is installed" test -x "$prefix/bin/agentdesk"
    check "$name: the desktop file is installed" test -f "$share/applications/$app_id.desktop"
    check "$name: the metainfo is installed" test -f "$share/metainfo/$app_id.metainfo.xml"
    check "$name: the scalable icon is installed" test -f "$share/icons/hicolor/scalable/apps/$app_id.svg"
    for size in 16 32 48 64 128 256; do
        check "$name: the ${size}x$size icon is a PNG of that size" \
            has "PNG image data, $size x $size" "$(file "$share/icons/hicolor/${size}x$size/apps/$app_id.png")"
    done
    check "$name: agentdesk --version says $version" \
        has "^agentdesk $version\$" "$("$prefix/bin/agentdesk" --version 2>&1)"
    # A clean home and no keys: the window must open without the user's settings or a network.
    mkdir -p "$tmp/home-$name"
    if out=$(cd "$tmp" && env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u DISPLAY -u WAYLAND_DISPLAY \
        HOME="$tmp/home-$name" XDG_CONFIG_HOME="$tmp/home-$name/.config" \
        XDG_RUNTIME_DIR="$tmp/home-$name" QT_QPA_PLATFORM=offscreen \
        timeout 60 "$prefix/bin/agentdesk" --screenshot "$shot" "$repo" 2>&1); then
        check "$name: an offscreen start saves a PNG of the window" has 'PNG image data' "$(file "$shot")"
    else
        fail "$name: an offscreen start (agentdesk --screenshot FILE REPO) exited with $?"$'\n'"$out"
    fi
}

check_root DEB "$tmp/deb/usr"
check_root TGZ "${tgz_top:-$tmp/tgz}"

share="$tmp/deb/usr/share"
check "desktop-file-validate accepts the desktop file" \
    desktop-file-validate "$share/applications/$app_id.desktop"
# Warnings fail too; only pedantic hints pass (there is no screenshot to offer without a network).
check "appstreamcli validate --no-net accepts the metainfo" \
    appstreamcli validate --no-net --no-color "$share/metainfo/$app_id.metainfo.xml"
# The tree check ties them together: the launchable desktop file and its icon exist.
check "appstreamcli validate-tree --no-net accepts the DEB's files" \
    appstreamcli validate-tree --no-net --no-color "$tmp/deb"
check "the metainfo has a release entry for $version" \
    has "<release version=\"$version\"" "$(cat "$share/metainfo/$app_id.metainfo.xml")"

checks_summary "packages in $build/packages"
