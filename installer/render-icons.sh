#!/usr/bin/env bash
# Usage: installer/render-icons.sh
# Renders resources/icons/agentdesk.svg to the hicolor PNG sizes the packages install
# (resources/icons/agentdesk-SIZE.png). Run it after changing the SVG and commit the PNGs:
# they are rendered once here rather than at build time, so that building and packaging need no
# SVG renderer (rsvg-convert, from Debian's librsvg2-bin, is needed only by this script).
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"
command -v rsvg-convert >/dev/null \
    || {
        echo "render-icons: rsvg-convert is missing; install librsvg2-bin" >&2
        exit 1
    }
for size in 16 32 48 64 128 256; do
    rsvg-convert --width "$size" --height "$size" --output "agentdesk-$size.png" agentdesk.svg
done
echo "render-icons: wrote $(ls agentdesk-*.png | tr '\n' ' ')"
