#!/usr/bin/env bash
# Build gpio-sim.ko for the image's kernel: Debian's kernels are built without it
# (CONFIG_GPIO_SIM is not set, nor CONFIG_IRQ_SIM), so it is built out of tree from
# linux-source's gpio-sim.c plus a local copy of kernel/irq/irq_sim.c (one module), against
# the matching linux-headers (installed on this host with apt-get when missing).
# irq_sim.c calls handle_simple_irq(irq_to_desc()), and irq_to_desc is not exported to
# modules: generic_handle_irq() does the same through the descriptor's handler.
# Usage: systemd/vm/build-gpio-sim.sh KERNEL_VERSION OUT.ko
set -euo pipefail
KVER=${1:?kernel version, e.g. 6.1.0-57-amd64}
OUT=${2:?output .ko}
series=$(echo "$KVER" | cut -d. -f1-2)
need=()
[[ -d /usr/src/linux-headers-$KVER ]] || need+=("linux-headers-$KVER")
[[ -f /usr/src/linux-source-$series.tar.xz ]] || need+=("linux-source-$series")
command -v make > /dev/null && command -v gcc > /dev/null || need+=(build-essential)
if [[ ${#need[@]} -gt 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=linux-source-$series
tar -C "$work" -xJf "/usr/src/linux-source-$series.tar.xz" \
    "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpiolib.h" "$src/kernel/irq/irq_sim.c"
cp "$work/$src/drivers/gpio/gpio-sim.c" "$work/gpio-sim-main.c"
cp "$work/$src/drivers/gpio/gpiolib.h" "$work/$src/kernel/irq/irq_sim.c" "$work/"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/irq_sim.c"
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > "$work/Kbuild"
nice -n 10 make -s -C "/usr/src/linux-headers-$KVER" M="$work" modules 2>&1 | grep -v 'Skipping BTF' || true
[[ -f $work/gpio-sim.ko ]] || { echo "build-gpio-sim: no gpio-sim.ko" >&2; exit 1; }
cp "$work/gpio-sim.ko" "$OUT"
echo "build-gpio-sim: $OUT for $KVER"
