# shellcheck shell=bash
# The build environment shared by scripts/env, scripts/run and scripts/test.
#
# Two kinds of environment:
#   native  the host has Qt >= 6.4 and KF6SyntaxHighlighting (Debian 13, Ubuntu 25.04+, ...);
#   root    a Debian 13 root made with debootstrap, for Debian 12 and Ubuntu 24.04 hosts, entered
#           with `unshare --mount` + chroot so that no mount outlives the command. Commands run
#           there as the caller (uid, gid, HOME), root only to install its packages.
# AGENTDESK_ENV=native|root forces one; AGENTDESK_ROOT moves the root
# (default /var/cache/agentdesk/debian13).
#
# What runs where: building happens in the environment; AgentDesk itself always runs on the host
# as the caller (agentdesk_launch), so that its tools (bash, git, the project's own programs)
# are the user's, with the user's home, desktop session and PATH.

AGENTDESK_CHECKOUT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
AGENTDESK_ROOT=${AGENTDESK_ROOT:-/var/cache/agentdesk/debian13}
AGENTDESK_PACKAGES_FILE="$AGENTDESK_CHECKOUT/scripts/lib/debian13-packages.txt"
# Bump when the way the root is made changes, so existing roots are refreshed.
AGENTDESK_ROOT_FORMAT=1

# Build directories at the same depth (build/<preset>) then share ccache entries: paths are made
# relative to the checkout and the working directory is left out of the hash.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$AGENTDESK_CHECKOUT}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}

agentdesk_log() { printf 'agentdesk: %s\n' "$*" >&2; }
agentdesk_die() { agentdesk_log "$*"; exit 1; }

agentdesk_as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}
# The same, keeping the caller's environment (HOME, DISPLAY, CI, ... go into the root).
agentdesk_as_root_keep_env() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo --preserve-env "$@"; fi
}

agentdesk_packages() { grep -v '^\s*#' "$AGENTDESK_PACKAGES_FILE" | grep -v '^\s*$'; }

agentdesk_os_field() { (. /etc/os-release 2>/dev/null && eval "printf '%s' \"\${$1:-}\""); }

# True when the host itself can build the reference configuration.
agentdesk_host_is_complete() {
    command -v cmake >/dev/null && command -v ninja >/dev/null && command -v g++ >/dev/null \
        || return 1
    local qtver
    qtver=$(pkg-config --modversion Qt6Core 2>/dev/null) || return 1
    [ "$(printf '%s\n6.4.0\n' "$qtver" | sort -V | head -n1)" = 6.4.0 ] || return 1
    compgen -G '/usr/lib*/cmake/KF6SyntaxHighlighting/KF6SyntaxHighlightingConfig.cmake' \
        >/dev/null \
        || compgen -G '/usr/lib/*/cmake/KF6SyntaxHighlighting/KF6SyntaxHighlightingConfig.cmake' \
            >/dev/null
}

agentdesk_env_kind() {
    if [ -n "${AGENTDESK_ENV:-}" ]; then
        printf '%s' "$AGENTDESK_ENV"
        return
    fi
    # Debian 12 and Ubuntu 22.04/24.04 have Qt 6.4 (or older) and no KF6 packages.
    case "$(agentdesk_os_field ID) $(agentdesk_os_field VERSION_ID)" in
    "debian 12" | "ubuntu 22.04" | "ubuntu 24.04") printf root ;;
    *) printf native ;;
    esac
}

# The Debian mirror the host's apt already uses (deb822 .sources first, then sources.list), or
# AGENTDESK_DEBIAN_MIRROR; other distributions must name one (Ubuntu's archive has no trixie).
agentdesk_host_mirror() {
    local uri
    if [ -n "${AGENTDESK_DEBIAN_MIRROR:-}" ]; then
        printf '%s' "$AGENTDESK_DEBIAN_MIRROR"
        return
    fi
    if [ "$(agentdesk_os_field ID)" != debian ]; then
        agentdesk_die "set AGENTDESK_DEBIAN_MIRROR to a Debian mirror's address (the root is Debian 13; this host's archive has no Debian 13)"
    fi
    uri=$(grep -h -E '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | awk '{print $2}' | grep -v -- '-security' | head -n1)
    if [ -z "$uri" ]; then
        uri=$(grep -h -E '^\s*deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
            | sed -E 's/\[[^]]*\]//' | awk '{print $2}' | grep -v -- '-security' | head -n1)
    fi
    [ -n "$uri" ] || agentdesk_die "cannot find a Debian mirror in the host's apt sources"
    printf '%s' "$uri"
}

agentdesk_root_stamp() {
    { printf 'format %s\n' "$AGENTDESK_ROOT_FORMAT"; agentdesk_packages; } | sha256sum | cut -d' ' -f1
}

agentdesk_host_install() {
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    ((${#missing[@]})) || return 0
    agentdesk_log "installing on the host: ${missing[*]}"
    agentdesk_as_root apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive agentdesk_as_root apt-get install -y -q --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# Runs COMMAND inside the root with the checkout (and ../shared beside it) at the same paths, as
# the caller (uid and gid) with the caller's HOME, bound at the same path when it is outside the
# folders the root shares anyway. The caller's environment is kept (sudo --preserve-env); PATH
# is the root's. AGENTDESK_AS_ROOT=1 runs COMMAND as root with HOME=/root instead (installing
# packages). A caller that is root keeps the root's own /root, which holds its compiler cache.
agentdesk_in_root() {
    local shared user home=${HOME:-/}
    user="$(id -u):$(id -g)"
    if [ "${AGENTDESK_AS_ROOT:-}" = 1 ]; then
        user=0:0
        home=/root
    fi
    shared=$(cd "$AGENTDESK_CHECKOUT/.." && pwd -P)/shared
    [ -d "$shared" ] || shared=
    # shellcheck disable=SC2016
    agentdesk_as_root_keep_env unshare --mount --propagation private -- /bin/bash -c '
        set -e
        root=$1 checkout=$2 shared=$3 cwd=$4 user=$5 home=$6; shift 6
        # The root bound onto itself is a mount point, so that / inside is one too: bubblewrap
        # (the Bash sandbox and its tests) changes the propagation of / and fails on a plain folder.
        mount --bind "$root" "$root"
        for d in proc sys dev tmp; do mount --rbind "/$d" "$root/$d"; done
        IFS=: read -r -a extra <<<"${AGENTDESK_EXTRA_BINDS:-}"
        case $home in
        / | /root | /tmp | /tmp/* | "$checkout" | "$checkout"/*) own_home= ;;
        *) own_home=$home ;;
        esac
        # The home first: a checkout inside it stays visible through its own bind.
        for d in $own_home "$checkout" $shared "${extra[@]}"; do
            [ -n "$d" ] && [ -e "$d" ] || continue
            if [ -d "$d" ]; then mkdir -p "$root$d"; else mkdir -p "$(dirname "$root$d")" && touch "$root$d"; fi
            mount --bind "$d" "$root$d"
        done
        # The CA file node is told to trust (npm, the MCP servers the tests install) is the
        # host'\''s: behind a proxy with its own CA, the root'\''s bundle would not know it. It gets a
        # path of its own: bound over the root'\''s /etc/ssl/certs/ca-certificates.crt (where hosts
        # often point it), that file could not be replaced and ca-certificates failed to install.
        if [ -f "${NODE_EXTRA_CA_CERTS:-}" ]; then
            mkdir -p "$root/run/agentdesk" && touch "$root/run/agentdesk/host-ca.crt"
            mount --bind "$NODE_EXTRA_CA_CERTS" "$root/run/agentdesk/host-ca.crt"
            export NODE_EXTRA_CA_CERTS=/run/agentdesk/host-ca.crt
        fi
        cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        as=()
        [ "$user" = 0:0 ] || as=(--userspec="$user")
        exec chroot "${as[@]}" "$root" /usr/bin/env HOME="$home" \
            PATH="$AGENTDESK_EXTRA_PATH/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
            /bin/bash -c "cd \"\$0\" 2>/dev/null || cd \"$checkout\"; exec \"\$@\"" "$cwd" "$@"
    ' agentdesk-root "$AGENTDESK_ROOT" "$AGENTDESK_CHECKOUT" "$shared" "$PWD" "$user" "$home" "$@"
}

agentdesk_create_root() {
    local mirror
    mirror=$(agentdesk_host_mirror)
    local keyring=()
    agentdesk_host_install debootstrap
    if [ "$(agentdesk_os_field ID)" != debian ]; then
        # Ubuntu's debootstrap knows trixie but not Debian's signing keys.
        agentdesk_host_install debian-archive-keyring
        keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
    fi
    agentdesk_log "creating the Debian 13 build root in $AGENTDESK_ROOT (from $mirror)"
    rm -rf "$AGENTDESK_ROOT.new"
    mkdir -p "$(dirname "$AGENTDESK_ROOT")"
    debootstrap "${keyring[@]}" --variant=minbase trixie "$AGENTDESK_ROOT.new" "$mirror" \
        >"$AGENTDESK_ROOT.log" 2>&1 \
        || agentdesk_die "debootstrap failed; see $AGENTDESK_ROOT.log"
    rm -rf "$AGENTDESK_ROOT"
    mv "$AGENTDESK_ROOT.new" "$AGENTDESK_ROOT"
}

# True when the root is of this format and already has every package of the list: checkouts
# on branches with different lists then share one root without reinstalling it in turn.
agentdesk_root_has_packages() {
    [ "$(cat "$AGENTDESK_ROOT/.agentdesk-format" 2>/dev/null)" = "$AGENTDESK_ROOT_FORMAT" ] || return 1
    command -v dpkg-query >/dev/null && [ -d "$AGENTDESK_ROOT/var/lib/dpkg" ] || return 1
    local status
    # shellcheck disable=SC2046
    status=$(dpkg-query --admindir="$AGENTDESK_ROOT/var/lib/dpkg" -W -f='${db:Status-Abbrev}\n' \
        $(agentdesk_packages) 2>/dev/null) || return 1
    ! grep -qv '^ii' <<<"$status"
}

# Creates the root when missing, installs the package list when the stamp is stale.
agentdesk_ensure_root() {
    local stamp
    stamp=$(agentdesk_root_stamp)
    [ "$(cat "$AGENTDESK_ROOT/.agentdesk-stamp" 2>/dev/null)" = "$stamp" ] && return 0
    agentdesk_root_has_packages && return 0
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || agentdesk_die "making the build root needs root (or sudo)"
        # shellcheck disable=SC2016
        sudo --preserve-env /bin/bash -c '. "$1" && agentdesk_ensure_root' _ "$AGENTDESK_CHECKOUT/scripts/lib/buildenv.sh"
        return
    fi
    mkdir -p "$(dirname "$AGENTDESK_ROOT")"
    (
        # Several scripts may start at once (tests, helpers): one makes the root, the others wait.
        flock 9
        [ "$(cat "$AGENTDESK_ROOT/.agentdesk-stamp" 2>/dev/null)" = "$stamp" ] && exit 0
        [ -x "$AGENTDESK_ROOT/usr/bin/apt-get" ] || agentdesk_create_root
        agentdesk_log "installing the build packages into the root"
        # shellcheck disable=SC2046
        AGENTDESK_AS_ROOT=1 agentdesk_in_root /bin/bash -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends "$@" && apt-get clean' _ \
            $(agentdesk_packages) >>"$AGENTDESK_ROOT.log" 2>&1 \
            || agentdesk_die "installing packages into the root failed; see $AGENTDESK_ROOT.log"
        printf '%s\n' "$stamp" >"$AGENTDESK_ROOT/.agentdesk-stamp"
        printf '%s\n' "$AGENTDESK_ROOT_FORMAT" >"$AGENTDESK_ROOT/.agentdesk-format"
        agentdesk_log "build root ready"
    ) 9>"$AGENTDESK_ROOT.lock"
}

# Native hosts: install the distribution's packages when something is missing.
agentdesk_ensure_native() {
    agentdesk_host_is_complete && return 0
    case "$(agentdesk_os_field ID)" in
    debian | ubuntu)
        # shellcheck disable=SC2046
        agentdesk_host_install $(agentdesk_packages)
        ;;
    fedora)
        agentdesk_die "missing build dependencies; install them with: sudo dnf install gcc-c++ cmake ninja-build qt6-qtbase-devel qt6-qttools-devel kf6-syntax-highlighting-devel xorg-x11-server-Xvfb git"
        ;;
    arch)
        agentdesk_die "missing build dependencies; install them with: sudo pacman -S --needed base-devel cmake ninja qt6-base qt6-tools syntax-highlighting xorg-server-xvfb git"
        ;;
    *)
        agentdesk_die "missing build dependencies: Qt >= 6.4 (Core, Network, Widgets, Linguist tools), KF6SyntaxHighlighting, CMake, Ninja, a C++20 compiler"
        ;;
    esac
    agentdesk_host_is_complete || agentdesk_die "Qt >= 6.4 and KF6SyntaxHighlighting are still missing after installing"
}

agentdesk_ensure_env() {
    case "$(agentdesk_env_kind)" in
    root) agentdesk_ensure_root ;;
    native) agentdesk_ensure_native ;;
    *) agentdesk_die "AGENTDESK_ENV must be native or root" ;;
    esac
}

# The build directory of the last build made by scripts/run or scripts/test.
agentdesk_last_build_dir() { cat "$AGENTDESK_CHECKOUT/build/last-build" 2>/dev/null || true; }

# Runs COMMAND in the build environment with the last-built agentdesk on PATH.
# AGENTDESK_EXTRA_BINDS (colon-separated paths) makes more host paths visible in the root.
agentdesk_in_env() {
    local bindir
    bindir=$(agentdesk_last_build_dir)
    [ -n "$bindir" ] && bindir="$bindir/bin:"
    if [ "$(agentdesk_env_kind)" = root ]; then
        AGENTDESK_EXTRA_PATH=$bindir agentdesk_in_root "$@"
    else
        PATH="$bindir$PATH" "$@"
    fi
}

# Configures and builds a CMake preset (dev, release, asan, ci, ...) in the environment, as the
# caller: the build directory belongs to whoever runs the scripts.
agentdesk_build() {
    local preset=$1 dir=$AGENTDESK_CHECKOUT/build/$1
    if [ -e "$dir" ] && [ ! -w "$dir" ]; then
        agentdesk_die "$dir belongs to $(stat -c %U "$dir"), not to you (an earlier build with sudo?); remove it or build as its owner"
    fi
    agentdesk_log "building preset $preset"
    agentdesk_in_env cmake --preset "$preset" >/dev/null
    agentdesk_in_env cmake --build --preset "$preset"
    printf '%s\n' "$dir" >"$AGENTDESK_CHECKOUT/build/last-build"
}

# The root's dynamic loader (agentdesk_launch starts programs built in the root through it).
agentdesk_root_loader() {
    local ld
    for ld in "$AGENTDESK_ROOT"/lib64/ld-linux-*.so.* "$AGENTDESK_ROOT"/lib/ld-linux-*.so.*; do
        [ -x "$ld" ] && { printf '%s' "$ld"; return 0; }
    done
    agentdesk_die "no dynamic loader in $AGENTDESK_ROOT; run ./scripts/env true to make the root"
}

# The root's library folders (its ld.so.conf), then the folders of any library FILES still miss
# through the loader: absolute RUNPATHs (libproxy's /usr/lib/<arch>/libproxy) name host paths.
agentdesk_root_library_path() {
    local ld=$1 path='' dir file lib found _round
    shift
    while read -r dir; do
        [ -d "$AGENTDESK_ROOT$dir" ] && path=${path:+$path:}$AGENTDESK_ROOT$dir
    done < <(cat "$AGENTDESK_ROOT"/etc/ld.so.conf.d/*.conf 2>/dev/null | grep '^/')
    # The loader stops at the first library it cannot open: one more round per such library.
    for _round in 1 2 3 4 5 6 7 8; do
        found=
        for file in "$@"; do
            for lib in $("$ld" --library-path "$path" --list "$file" 2>&1 | sed -n \
                -e 's/^[[:space:]]*\([^ ]*\) => not found$/\1/p' \
                -e 's/.*error while loading shared libraries: \([^:]*\): cannot open.*/\1/p'); do
                dir=$(find "$AGENTDESK_ROOT/usr/lib" -name "$lib" -printf '%h\n' -quit 2>/dev/null)
                [ -n "$dir" ] && [[ ":$path:" != *":$dir:"* ]] && path=$path:$dir found=1
            done
        done
        [ -n "$found" ] || break
    done
    printf '%s' "$path"
}

# Starts BINARY ARGS... on the host as the caller, with the caller's whole environment (HOME,
# XDG folders, DISPLAY/WAYLAND_DISPLAY, the D-Bus session, PATH): never in the root, never as
# another user. A program built in the root is started through the root's dynamic loader with
# the root's library folders and Qt plugins; what it starts itself (bash, git, rg, node, the
# project's tools) are then the host's programs with the host's libraries, because the library
# path is an argument of the loader, not an environment variable its children inherit. Only
# QT_PLUGIN_PATH is inherited; a host Qt program skips plugins newer than its Qt.
agentdesk_launch() {
    local bin=$1 ld libpath plugins
    shift
    [ -x "$bin" ] || agentdesk_die "no program $bin; build it first (./scripts/run builds it)"
    if [ "$(agentdesk_env_kind)" != root ]; then
        exec "$bin" "$@"
    fi
    ld=$(agentdesk_root_loader)
    plugins=$(dirname "$(find "$AGENTDESK_ROOT/usr/lib" -maxdepth 4 -path '*/qt6/plugins/platforms' -print -quit)")
    [ -d "$plugins" ] || agentdesk_die "no Qt plugins in $AGENTDESK_ROOT; run ./scripts/env true to refresh the root"
    # The platform plugins a desktop or a test uses (each look-up costs the loader a start).
    libpath=$(agentdesk_root_library_path "$ld" "$bin" "$plugins"/platforms/lib{qxcb,qwayland*,qoffscreen}.so)
    QT_PLUGIN_PATH=$plugins${QT_PLUGIN_PATH:+:$QT_PLUGIN_PATH} \
        exec "$ld" --library-path "$libpath" --argv0 "$bin" "$bin" "$@"
}
