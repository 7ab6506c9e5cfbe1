#!/usr/bin/env bash
# Usage: translations/update.sh [BUILD_DIR]
# Refreshes translations/*.ts from the sources of agentcore, ui and app (lupdate, through the
# update_translations target, in the build environment). Existing translations are kept; strings
# that left the code stay in the file as "vanished" so a returning string gets its text back.
# Prints how many strings still need a translation.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd -P)
build=${1:-$checkout/build/translations}
cd "$checkout"
if [ ! -f "$build/build.ninja" ]; then
    ./scripts/env cmake -S "$checkout" -B "$build" -G Ninja -DAGENTDESK_BUILD_TESTS=OFF >/dev/null
fi
./scripts/env cmake --build "$build" --target update_translations >/dev/null

for ts in translations/agentdesk_*.ts; do
    unfinished=$(grep -c 'type="unfinished"' "$ts" || true)
    total=$(grep -c '<message' "$ts" || true)
    vanished=$(grep -c -E 'type="(vanished|obsolete)"' "$ts" || true)
    printf '%s: %d messages, %d unfinished, %d vanished\n' "$ts" "$total" "$unfinished" "$vanished"
done
