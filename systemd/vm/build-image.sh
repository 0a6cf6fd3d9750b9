#!/usr/bin/env bash
# Build the virtual table's disk image from Debian packages (mmdebstrap): a plain Debian
# bookworm with systemd, a kernel, ssh (the harness's way in) and a sudo user "pub" (the pub
# owner who runs systemd/install.sh).  Nothing of the app is in it: check.sh installs that
# inside the booted VM, as the README says.  Output (in the cache dir $1):
#   ARCH/rootfs.img  raw ext4, root=/dev/vda (no partitions, no boot loader: QEMU loads
#   ARCH/vmlinuz ARCH/initrd.img  the image's own kernel and initramfs, copied out)
#   ARCH/kver        the kernel's version;  id_ed25519[.pub]  the harness's ssh key
# Usage: systemd/vm/build-image.sh CACHE_DIR [amd64|arm64]
set -euo pipefail
CACHE=${1:?cache dir}
ARCH=${2:-amd64}
OUT=$CACHE/$ARCH
MIRROR=${RUMMY_VM_MIRROR:-http://deb.debian.org/debian}
SECURITY=${RUMMY_VM_SECURITY:-http://deb.debian.org/debian-security}
SIZE=${RUMMY_VM_DISK:-6G}
mkdir -p "$OUT"
[[ -f $CACHE/id_ed25519 ]] || ssh-keygen -q -t ed25519 -N '' -C rummy-vm -f "$CACHE/id_ed25519"
kernel=linux-image-$ARCH
[[ $ARCH == arm64 ]] && kernel=linux-image-arm64
root=$(mktemp -d "$OUT/root.XXXXXX")
trap 'rm -rf "$root"' EXIT
t0=$(date +%s)
# The host's CA bundle: the VM's HTTPS (pip) goes out through the same network as the host's.
ca=/etc/ssl/certs/ca-certificates.crt
nice -n 10 mmdebstrap --arch="$ARCH" --variant=apt --format=directory \
    --include="systemd-sysv,udev,dbus,kmod,$kernel,openssh-server,ca-certificates,sudo,git,iproute2,procps,less,python3,gpiod,libdrm-tests" \
    --customize-hook='echo rummy-vm > "$1/etc/hostname"; echo "127.0.1.1 rummy-vm" >> "$1/etc/hosts"' \
    --customize-hook='echo "/dev/vda / ext4 defaults,errors=remount-ro 0 1" > "$1/etc/fstab"' \
    --customize-hook='printf "[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n" > "$1/etc/systemd/network/20-wired.network"' \
    --customize-hook='chroot "$1" systemctl enable systemd-networkd ssh' \
    --customize-hook='rm -f "$1/etc/resolv.conf"; echo "nameserver 10.0.2.3" > "$1/etc/resolv.conf"' \
    --customize-hook="cat $ca > \"\$1/usr/local/share/ca-certificates/host.crt\"; chroot \"\$1\" update-ca-certificates >/dev/null 2>&1 || true" \
    --customize-hook='chroot "$1" useradd --create-home --shell /bin/bash --groups sudo pub' \
    --customize-hook='echo "pub ALL=(ALL) NOPASSWD:ALL" > "$1/etc/sudoers.d/pub"' \
    --customize-hook="for h in root home/pub; do mkdir -p \"\$1/\$h/.ssh\"; cat $CACHE/id_ed25519.pub > \"\$1/\$h/.ssh/authorized_keys\"; done; chroot \"\$1\" chown -R pub:pub /home/pub/.ssh" \
    --customize-hook='mkdir -p "$1/boot/firmware"; echo "root=/dev/vda rw console=ttyS0 net.ifnames=0" > "$1/boot/firmware/cmdline.txt"' \
    --customize-hook='printf "[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n" > "$1/etc/pip.conf"' \
    --customize-hook='systemctl --root="$1" mask apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service man-db.timer' \
    bookworm "$root" "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" \
    "deb $SECURITY bookworm-security main"
kver=$(basename "$(ls -d "$root"/lib/modules/* | head -n 1)")
cp "$root/boot/vmlinuz-$kver" "$OUT/vmlinuz.new"
cp "$root/boot/initrd.img-$kver" "$OUT/initrd.img.new"
rm -f "$OUT/rootfs.img.new"
truncate -s "$SIZE" "$OUT/rootfs.img.new"
mke2fs -q -t ext4 -L rummy-root -d "$root" "$OUT/rootfs.img.new"
for f in vmlinuz initrd.img rootfs.img; do mv "$OUT/$f.new" "$OUT/$f"; done
echo "$kver" > "$OUT/kver"
echo "build-image: $ARCH bookworm, kernel $kver, built in $(( $(date +%s) - t0 )) s -> $OUT"
