#!/usr/bin/env bash
# Run as root inside the VM after systemd/install.sh: the test bench's side of the virtual
# table, none of it part of the product.
#  - gpio-sim (built by build-gpio-sim.sh, copied to /tmp/gpio-sim.ko) as a 40-line
#    /dev/gpiochip0 at boot, before the table starts (rummy-vm-gpiosim.service); every
#    line pulled up: the arcade buttons are released (pressed = pulled down, as the
#    microswitch to GND does);
#  - the Raspberry Pi revision gpiozero looks for (a Pi 4 B, c03111): an x86 VM has no
#    /proc/device-tree and no "Revision" in /proc/cpuinfo, so the unit gets a copy of
#    /proc/cpuinfo with one (a drop-in: BindReadOnlyPaths over /proc/cpuinfo);
#  - the shoe on /dev/ttyS1 (QEMU's second serial port, wired to the host's simulated
#    shoe) with the simulated deck's map (/tmp/sim-deck.map).
set -euo pipefail
kver=$(uname -r)
install -D -m 0644 /tmp/gpio-sim.ko "/lib/modules/$kver/extra/gpio-sim.ko"
depmod -a
install -m 0755 /dev/stdin /usr/local/sbin/rummy-vm-gpiosim <<'SH'
#!/bin/sh
set -e
modprobe gpio-sim
d=/sys/kernel/config/gpio-sim/table
if [ ! -d $d ]; then
    mkdir -p $d/gpio-bank0
    echo 40 > $d/gpio-bank0/num_lines
    echo 1 > $d/live
fi
udevadm settle
for f in /sys/devices/platform/gpio-sim.0/gpiochip*/sim_gpio*/pull; do echo pull-up > "$f"; done
SH
cat > /etc/systemd/system/rummy-vm-gpiosim.service <<'UNIT'
[Unit]
Description=Virtual table: gpio-sim as the Pi's GPIO header (test bench)
Before=rummy-table.service
After=sys-kernel-config.mount systemd-udevd.service
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/rummy-vm-gpiosim
[Install]
WantedBy=multi-user.target
UNIT
mkdir -p /etc/rummy-vm /etc/systemd/system/rummy-table.service.d
{ cat /proc/cpuinfo; printf 'Hardware\t: BCM2835\nRevision\t: c03111\nModel\t\t: Raspberry Pi 4 Model B Rev 1.1\n'; } > /etc/rummy-vm/cpuinfo
cat > /etc/systemd/system/rummy-table.service.d/vm.conf <<'UNIT'
# Test bench only (systemd/vm/guest-setup.sh): a Pi 4's revision for gpiozero.
[Unit]
Requires=rummy-vm-gpiosim.service
After=rummy-vm-gpiosim.service
[Service]
BindReadOnlyPaths=/etc/rummy-vm/cpuinfo:/proc/cpuinfo
UNIT
install -m 0644 /tmp/sim-deck.map /etc/rummy-table/sim-deck.map
if ! grep -q '^\[shoe\]' /etc/rummy-table/config.toml; then
    printf '\n# virtual table (systemd/vm): the simulated shoe on the second serial port\n[shoe]\nenabled = true\nport = "/dev/ttyS1"\ndeck_map = "/etc/rummy-table/sim-deck.map"\n' >> /etc/rummy-table/config.toml
fi
systemctl daemon-reload
systemctl enable rummy-vm-gpiosim.service
echo "guest-setup: gpio-sim, Pi revision, shoe on /dev/ttyS1 ready"
