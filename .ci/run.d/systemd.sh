#!/usr/bin/env bash
# CI: every systemd unit in systemd/ must pass `systemd-analyze verify` with NO output at all
# (unknown keys and bad values only warn, rc stays 0, so any output is a failure).
# The ExecStart binary is replaced by /usr/bin/env (verify fails on a missing executable;
# /opt/rummy-table does not exist on CI). Works without systemd as PID 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
analyze=$(command -v systemd-analyze || echo /usr/bin/systemd-analyze)
[[ -x $analyze ]] || { echo "CI systemd: systemd-analyze not found"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

verify() {  # verify UNIT_FILE -> prints the output, returns 1 on any output or error
    local unit=$1 copy out rc
    copy="$tmp/$(basename "$unit")"
    sed -E 's#^ExecStart=[^ ]*#ExecStart=/usr/bin/env#' "$unit" > "$copy"
    set +e
    out=$(SYSTEMD_LOG_COLOR=0 "$analyze" verify "$copy" 2>&1)
    rc=$?
    set -e
    rm -f "$copy"
    if [[ $rc -ne 0 || -n $out ]]; then
        printf '%s\n' "$out"
        return 1
    fi
}

# Self-test: a unit with a misspelt key must be caught, or this check proves nothing.
printf '[Unit]\nDescription=x\n[Service]\nType=notify\nWatchdogSecs=5\nExecStart=/bin/true\n' \
    > "$tmp/rummy-selftest.service"
if verify "$tmp/rummy-selftest.service" > /dev/null; then
    echo "CI systemd: self-test failed (a misspelt key was not reported)"; exit 1
fi

units=(systemd/*.service)
[[ -e ${units[0]} ]] || { echo "CI systemd: no units in systemd/"; exit 1; }
failed=0
for unit in "${units[@]}"; do
    if verify "$unit"; then
        echo "CI systemd: ok $unit"
    else
        echo "CI systemd: FAIL $unit"; failed=1
    fi
done
bash -n systemd/install.sh || { echo "CI systemd: install.sh has a syntax error"; failed=1; }
exit $failed
