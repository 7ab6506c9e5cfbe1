# The checks of the installer's test scripts (test-install.sh, test-as-user.sh): sourced after
# CHECKS_NAME is set. Each check counts as passed or failed; checks_summary ends the script with
# the counts and fails if any check did.

checks_start=$SECONDS
passed=0
failed=0
say() { printf '%s: %s\n' "$CHECKS_NAME" "$*"; }
pass() {
    passed=$((passed + 1))
    say "ok   $*"
}
fail() {
    failed=$((failed + 1))
    say "FAIL $*" >&2
}
# check DESCRIPTION COMMAND...: one check; the command's output is shown only when it fails.
check() {
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$what"; else fail "$what"$'\n'"$out"; fi
}
# has REGEX TEXT: for check, with TEXT shown when it does not match.
has() {
    grep -Eq -- "$1" <<<"$2" || { printf 'expected /%s/ in:\n%s\n' "$1" "$2"; return 1; }
}
# checks_summary [NOTE]: the counts and the time taken; the exit status says whether all passed.
checks_summary() {
    say "$passed passed, $failed failed ($((SECONDS - checks_start)) s${1:+; $1})"
    [ "$failed" = 0 ]
}
