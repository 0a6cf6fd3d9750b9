#!/usr/bin/env bash
# Copy the shoe firmware image (firmware/image.txt) onto a Pico running MicroPython and
# reset it. Usage: firmware/deploy.sh [mpremote device, default "auto"] [--noslot]
#   --noslot   a shoe built without the discard slot (writes the flag file "noslot";
#              without it the flag is removed and the board drives both gates)
set -euo pipefail
cd "$(dirname "$0")/.."
device=auto
noslot=0
for arg in "$@"; do
    case "$arg" in
        --noslot) noslot=1 ;;
        -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
        *) device=$arg ;;
    esac
done
command -v mpremote >/dev/null || { echo "deploy: pip install mpremote" >&2; exit 1; }
while read -r src dst; do
    [[ -z "$src" || "$src" == \#* ]] && continue
    mpremote connect "$device" fs cp "$src" ":$dst"
done < firmware/image.txt
if [[ $noslot -eq 1 ]]; then
    mpremote connect "$device" fs touch :noslot
else
    mpremote connect "$device" fs rm :noslot 2>/dev/null || true
fi
mpremote connect "$device" reset
