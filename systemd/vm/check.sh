#!/usr/bin/env bash
# The virtual table, end to end: a clean Debian bookworm VM (QEMU, TCG) in which the pub
# owner's steps run as the README says (clone, sudo systemd/install.sh, reboot), then the
# booted kiosk is checked through its real devices: the screen (QEMU screendumps of the
# DRM console), the buttons and lamps (gpio-sim lines), the card shoe (the host's simulated
# shoe on the VM's serial port), a power cut (kill -9 of QEMU), the watchdog (SIGSTOP).
# One line per check, and last:
#   virtual kiosk: boot-to-attract <s> s, attract ok, button ok, shoe ok, power cut ok
# Usage: systemd/vm/check.sh [--arch amd64|arm64] [--update-reference] [--keep]
# Caches (image, gpio-sim.ko): $RUMMY_VM_CACHE, default /var/cache/rummy-vm (root) or
# ${XDG_CACHE_HOME:-~/.cache}/rummy-vm.  Screendumps and logs: $CACHE/runs/<time>/.
# Needs (Debian): qemu-system-x86 (qemu-system-arm for arm64), qemu-utils, mmdebstrap,
# e2fsprogs, openssh-client, socat, python3-pil; the repo's .venv (the shoe simulator).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ARCH=amd64
UPDATE_REF=0
KEEP=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --arch) ARCH=${2:?}; shift ;;
        --update-reference) UPDATE_REF=1 ;;
        --keep) KEEP=1 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "check.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
if [[ $EUID -eq 0 ]]; then CACHE=${RUMMY_VM_CACHE:-/var/cache/rummy-vm}
else CACHE=${RUMMY_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rummy-vm}; fi
RUN=$CACHE/runs/$(date -u +%Y%m%dT%H%M%SZ)-$ARCH
mkdir -p "$RUN"
ln -sfn "$RUN" "$CACHE/runs/last-$ARCH"
PY=${RUMMY_VM_PYTHON:-$REPO/.venv/bin/python}
HOSTPY=/usr/bin/python3  # Debian's, with python3-pil (screen.py)
SSH_PORT=${RUMMY_VM_SSH_PORT:-$((10022 + RANDOM % 1000))}
REF=$HERE/attract-$ARCH.png
PANEL=${RUMMY_VM_PANEL:-video=1280x800}  # the panel's mode (a 1280x800 touch screen)
T0=$(date +%s)
RESULTS=()
FAILED=0

log() { echo "[$(( $(date +%s) - T0 )) s] $*" >> "$RUN/check.log"; }
check() {  # check NAME ok|FAIL DETAIL...
    local name=$1 st=$2; shift 2
    echo "check $name: $st${*:+ ($*)}"
    log "check $name: $st $*"
    [[ $st == ok ]] || FAILED=1
    RESULTS+=("$name=$st")
}
die() { echo "check.sh: $*" >&2; log "FATAL $*"; cleanup; exit 1; }
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

# -- the VM --------------------------------------------------------------------------------
KDIR=$CACHE/$ARCH
QPID=
TWIN_PID=
ssh_opts=(-q -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=5
          -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -i "$CACHE/id_ed25519" -p "$SSH_PORT")
g() { ssh "${ssh_opts[@]}" root@127.0.0.1 "$@"; }         # a root shell in the VM
gpub() { ssh "${ssh_opts[@]}" pub@127.0.0.1 "$@"; }       # the pub owner's shell
mon() { printf '%s\n' "$1" | socat -t 5 - "UNIX-CONNECT:$RUN/mon.sock" > /dev/null 2>&1; }

vm_start() {  # vm_start NAME: boot the disk with the kernel command line of its cmdline.txt
    local name=$1 cmdline
    cmdline="$(cat "$RUN/cmdline.txt") $PANEL"
    # -cpu max: the wheels (pygame-ce) need more than the default qemu64's x86-64 level.
    # virtio-vga: /dev/dri/card0 (virtio_gpu; Mesa draws with kms_swrast).
    # usb-tablet: an absolute pointer (the touch panel's stand-in; mouse_move/mouse_button).
    local qemu=(qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 2048
                -device virtio-vga,xres=1280,yres=800 -usb -device usb-tablet)
    if [[ $ARCH == arm64 ]]; then
        qemu=(qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048
              -device virtio-gpu-pci)
        cmdline=${cmdline//console=ttyS0/console=ttyAMA0}
    fi
    rm -f "$RUN/mon.sock" "$RUN/qmp.sock"
    VM_T0=$(now)
    nice -n 10 "${qemu[@]}" -kernel "$KDIR/vmlinuz" -initrd "$KDIR/initrd.img" \
        -append "$cmdline" -no-reboot -display none \
        -drive "file=$RUN/disk.qcow2,if=virtio,format=qcow2" \
        -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$SSH_PORT-:22" -device virtio-net-pci,netdev=n0 \
        -serial "file:$RUN/console-$name.log" \
        "${SHOE_ARGS[@]}" \
        -monitor "unix:$RUN/mon.sock,server,nowait" -qmp "unix:$RUN/qmp.sock,server,nowait" > "$RUN/qemu-$name.log" 2>&1 &
    QPID=$!
    log "boot $name: qemu pid $QPID, cmdline: $cmdline"
}
vm_wait_ssh() {  # vm_wait_ssh TIMEOUT
    local end=$(( $(date +%s) + $1 ))
    while (( $(date +%s) < end )); do
        kill -0 "$QPID" 2> /dev/null || return 1
        g true 2> /dev/null && return 0
        sleep 1
    done
    return 1
}
vm_wait_exit() {  # vm_wait_exit TIMEOUT: QEMU ends (the guest powered off or rebooted)
    local end=$(( $(date +%s) + $1 ))
    while kill -0 "$QPID" 2> /dev/null; do
        (( $(date +%s) < end )) || { kill -9 "$QPID"; wait "$QPID" 2> /dev/null; return 1; }
        sleep 1
    done
    wait "$QPID" 2> /dev/null
    QPID=
}
dump() {  # dump NAME: the frame the card scans out (drm-grab.py in the VM) as $RUN/NAME.png,
    # and QEMU's own screendump beside it ($RUN/NAME-qemu.png); prints the first one's path
    local ppm=$RUN/$1.ppm
    rm -f "$ppm" "$ppm.q"
    mon "screendump $ppm.q"
    g 'python3 /usr/local/lib/rummy-vm/drm-grab.py' > "$ppm" 2> /dev/null
    [[ -s $ppm.q ]] && "$HOSTPY" "$HERE/screen.py" png "$ppm.q" "$RUN/$1-qemu.png" && rm -f "$ppm.q"
    [[ -s $ppm ]] || return 1
    "$HOSTPY" "$HERE/screen.py" png "$ppm" "$RUN/$1.png" && rm -f "$ppm"
    echo "$RUN/$1.png"
}
sdiff() { "$HOSTPY" "$HERE/screen.py" diff "$1" "$2"; }   # -> "mean changed"
cleanup() {
    [[ -n $QPID ]] && kill -9 "$QPID" 2> /dev/null
    [[ -n $TWIN_PID ]] && kill "$TWIN_PID" 2> /dev/null
    exec 7>&- 2> /dev/null
    [[ $KEEP == 1 ]] || rm -f "$RUN/disk.qcow2"
}
trap cleanup EXIT

# -- the image and gpio-sim ------------------------------------------------------------------
for tool in qemu-img mmdebstrap socat ssh python3; do
    command -v "$tool" > /dev/null || die "missing $tool (see the header of this script)"
done
t=$(now)
if [[ ! -f $KDIR/rootfs.img ]]; then
    "$HERE/build-image.sh" "$CACHE" "$ARCH" >> "$RUN/build.log" 2>&1 || die "image build failed: $RUN/build.log"
    check image ok "built in $(since "$t") s"
else
    check image ok "cached $KDIR/rootfs.img"
fi
KVER=$(cat "$KDIR/kver")
KO=$CACHE/gpio-sim-$KVER.ko
if [[ $ARCH == amd64 && ! -f $KO ]]; then
    "$HERE/build-gpio-sim.sh" "$KVER" "$KO" >> "$RUN/build.log" 2>&1 || die "gpio-sim build failed: $RUN/build.log"
fi
"$PY" -c 'from device.shoe.deckmap import DeckMap; import sys; DeckMap.simulated(1).save(sys.argv[1])' \
    "$RUN/sim-deck.map" || die "cannot write the simulated deck map (is $PY the repo's venv?)"
qemu-img create -q -f qcow2 -b "$KDIR/rootfs.img" -F raw "$RUN/disk.qcow2"
echo "root=/dev/vda rw console=ttyS0 net.ifnames=0" > "$RUN/cmdline.txt"
SHOE_ARGS=()

# -- the host's shoe: the simulated twin (the firmware's logic, the real protocol) ---------
if [[ $ARCH == amd64 ]]; then
    mkfifo "$RUN/shoe.in"
    "$PY" -m display.cli shoe-sim --link "$RUN/shoe.pty" --no-deal --commands \
        < "$RUN/shoe.in" > "$RUN/shoe.out" 2>&1 &
    TWIN_PID=$!
    exec 7> "$RUN/shoe.in"
    for _ in $(seq 1 100); do [[ -e $RUN/shoe.pty ]] && break; sleep 0.1; done
    [[ -e $RUN/shoe.pty ]] || die "the shoe simulator made no pty: $RUN/shoe.out"
    SHOE_ARGS=(-chardev "serial,id=shoe,path=$RUN/shoe.pty" -device isa-serial,chardev=shoe)
fi
shoe() { printf '%s\n' "$*" >&7; }

# -- 1. a clean Debian, the README's steps ---------------------------------------------------
vm_start install
vm_wait_ssh 300 || die "the fresh VM did not come up (ssh): $RUN/console-install.log"
check first-boot ok "ssh after $(since "$VM_T0") s"
git -C "$REPO" bundle create "$RUN/repo.bundle" HEAD > /dev/null 2>&1 || die "git bundle failed"
gpub 'cat > /tmp/repo.bundle' < "$RUN/repo.bundle"
t=$(now)
if gpub 'set -e; sudo apt-get update -qq; sudo apt-get install -y -qq git > /dev/null
         git clone -q /tmp/repo.bundle ~/rummy-table; cd ~/rummy-table; sudo systemd/install.sh' \
        > "$RUN/install.log" 2>&1; then
    check install ok "systemd/install.sh in $(since "$t") s (log: $RUN/install.log)"
else
    check install FAIL "exit $? after $(since "$t") s; tail: $(tail -n 3 "$RUN/install.log" | tr '\n' ' ')"
    exit 1
fi
t=$(now)
if gpub 'cd ~/rummy-table && sudo systemd/install.sh' > "$RUN/install-again.log" 2>&1 &&
        ! grep -q 'Get:\|Collecting\|installing apt' "$RUN/install-again.log"; then
    check install-again ok "nothing to do, no network, $(since "$t") s"
else
    check install-again FAIL "second run changed things or failed: $RUN/install-again.log"
fi
g 'mkdir -p /usr/local/lib/rummy-vm && cat > /usr/local/lib/rummy-vm/drm-grab.py' < "$HERE/drm-grab.py"
[[ $ARCH == amd64 ]] && for f in "$KO:/tmp/gpio-sim.ko" "$RUN/sim-deck.map:/tmp/sim-deck.map" \
        "$HERE/guest-setup.sh:/tmp/guest-setup.sh"; do
    g "cat > ${f#*:}" < "${f%%:*}"
done
if [[ $ARCH == amd64 ]]; then
    g 'bash /tmp/guest-setup.sh' >> "$RUN/install.log" 2>&1 || die "guest-setup failed: $RUN/install.log"
fi
# The Pi's firmware reads the kernel command line from /boot/firmware/cmdline.txt (which
# install.sh edits): so does this bench, for the next boot.
g 'cat /boot/firmware/cmdline.txt' > "$RUN/cmdline.txt"
grep -qw consoleblank=0 "$RUN/cmdline.txt" && check cmdline ok "$(cat "$RUN/cmdline.txt")" ||
    check cmdline FAIL "no consoleblank=0 in $(cat "$RUN/cmdline.txt")"
gpub 'sudo reboot' 2> /dev/null
vm_wait_exit 120 || log "the reboot did not end QEMU: killed"

# -- 2. the boot to the attract screen ---------------------------------------------------------
is_black() { "$HOSTPY" "$HERE/screen.py" stats "$1" | grep -q ' max=0$'; }
matches_ref() {  # matches_ref PNG: tolerant comparison with the reference attract screen
    "$HOSTPY" -c "import sys; m, c = map(float, sys.argv[1:]); sys.exit(0 if m < 6 and c < 0.05 else 1)" $(sdiff "$1" "$REF")
}
boot_to_attract() {  # boot_to_attract NAME: boot; READY_S = QEMU start to the unit's READY=1
    # (sent after the first frame); ATTRACT_S = to the first frame that is the attract screen
    local name=$1 end shot prev=
    READY_S= ATTRACT_S= ATTRACT_WHY=
    vm_start "$name"
    vm_wait_ssh 240 || { ATTRACT_WHY="no ssh in 240 s"; return 1; }
    end=$(( $(date +%s) + 180 ))
    until g 'systemctl is-active -q rummy-table' 2> /dev/null; do
        (( $(date +%s) < end )) || { ATTRACT_WHY="rummy-table not active (READY=1) in 180 s"; return 1; }
        sleep 0.5
    done
    READY_S=$(since "$VM_T0")
    end=$(( $(date +%s) + 60 ))
    while (( $(date +%s) < end )); do
        shot=$(dump "$name-attract") || { sleep 1; continue; }
        if is_black "$shot"; then
            ATTRACT_WHY="the frame the card scans out is black (every pixel 0; QEMU's screendump too: $RUN/$name-attract-qemu.png)"
        elif [[ -f $REF && $UPDATE_REF == 0 ]]; then
            matches_ref "$shot" && { ATTRACT_S=$(since "$VM_T0"); return 0; }
            ATTRACT_WHY="not the reference: diff $(sdiff "$shot" "$REF")"
        elif [[ -n $prev ]] && ! changed "$shot" "$prev"; then
            cp "$shot" "$REF"; ATTRACT_S=$(since "$VM_T0")
            ATTRACT_WHY="no reference to compare with: saved $REF (look at it, commit it)"; return 1
        fi
        cp "$shot" "$RUN/$name-prev.png"; prev=$RUN/$name-prev.png
        sleep 1
    done
    return 1
}
changed() {  # changed A B: the screens differ (more than a lamp or a clock)
    "$HOSTPY" -c "import sys; m, c = map(float, sys.argv[1:]); sys.exit(0 if m > 2 or c > 0.02 else 1)" $(sdiff "$1" "$2")
}
if boot_to_attract boot; then
    check boot-to-attract ok "$ATTRACT_S s from QEMU's start (READY=1 at $READY_S s); $RUN/boot-attract.png"
    check attract ok "frame vs $(basename "$REF"): diff $(sdiff "$RUN/boot-attract.png" "$REF")"
else
    check boot-to-attract FAIL "READY=1 at ${READY_S:-never} s from QEMU's start, but no attract screen: $ATTRACT_WHY"
    check attract FAIL "$ATTRACT_WHY"
fi
vm_wait_ssh 120 || die "the booted VM has no ssh"
g 'systemctl status --no-pager rummy-table; journalctl -b --no-pager -u rummy-table' > "$RUN/journal-boot.txt" 2>&1

# The rest of the checks come in check-table.sh (buttons, shoe, power cut, watchdog).
. "$HERE/check-table.sh"

# -- the verdict ------------------------------------------------------------------------------
g 'journalctl --no-pager -o short-monotonic' > "$RUN/journal-all.txt" 2>&1
g 'journalctl -b --no-pager -u rummy-table' > "$RUN/journal-last.txt" 2>&1
if grep -q 'Traceback' "$RUN/journal-all.txt"; then
    check no-traceback FAIL "$(grep -c Traceback "$RUN/journal-all.txt") in journalctl: $RUN/journal-all.txt"
else
    check no-traceback ok "journalctl of this boot: $(wc -l < "$RUN/journal-all.txt") lines, no Traceback"
fi
g 'poweroff' 2> /dev/null; vm_wait_exit 60
status() { local r; for r in "${RESULTS[@]}"; do [[ ${r%%=*} == "$1" ]] && { [[ ${r#*=} == ok ]] && echo ok || echo FAILED; return; }; done; echo "not run"; }
if [[ -n ${ATTRACT_S:-} ]]; then B2A="$ATTRACT_S s"; else B2A="FAILED (READY=1 at ${READY_S:-never} s)"; fi
echo "whole check: $(( $(date +%s) - T0 )) s; screendumps and logs: $RUN"
if [[ $ARCH == arm64 ]]; then
    echo "virtual kiosk (arm64): boot-to-attract $B2A, attract $(status attract), install $(status install)"
else
    echo "virtual kiosk: boot-to-attract $B2A, attract $(status attract), button $(status button), shoe $(status shoe), power cut $(status power-cut)"
fi
exit $FAILED
