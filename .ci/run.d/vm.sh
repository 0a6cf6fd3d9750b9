#!/usr/bin/env bash
# CI: the virtual table (systemd/vm/check.sh, amd64): a clean Debian VM under QEMU (TCG), the
# README's install, a reboot, and the kiosk checked through its devices. 10-15 minutes on
# the 2-core machine, so only when asked: RUMMY_VM_CHECK=1. Caches the image and gpio-sim.ko
# in /var/cache/rummy-vm (RUMMY_VM_CACHE); the run's screendumps and logs are printed last.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ ${RUMMY_VM_CHECK:-0} != 1 ]]; then
    echo "CI vm: skipped (set RUMMY_VM_CHECK=1 to boot the virtual table, ~15 min)"
    exit 0
fi
need=()
for cmd in qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils mmdebstrap:mmdebstrap \
           mke2fs:e2fsprogs socat:socat ssh:openssh-client ssh-keygen:openssh-client; do
    command -v "${cmd%%:*}" > /dev/null || need+=("${cmd#*:}")
done
/usr/bin/python3 -c 'import PIL' 2> /dev/null || need+=(python3-pil)
if [[ ${#need[@]} -gt 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
fi
[[ -x .venv/bin/python ]] || { echo "CI vm: no .venv (the shoe simulator runs from it)"; exit 1; }
bash systemd/vm/check.sh --arch amd64
