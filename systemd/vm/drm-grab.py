"""Read what a DRM card scans out, as a PPM on stdout (runs as root inside the VM).

QEMU's screendump shows the console but not a DRM master's frame: measured black for the
kiosk's frames and for `modetest -s`'s test pattern alike, on -device VGA (bochs-drm),
bochs-display and virtio-vga (QEMU 7.2), while fbcon's text came back. So the bench reads
the frame the way the display controller does: the CRTC's framebuffer (GETCRTC, GETFB),
mapped as a dumb buffer (MAP_DUMB), XRGB8888.  Standard library only (the VM's python3).

    python3 drm-grab.py [/dev/dri/card0] > frame.ppm
"""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
import sys


def _iowr(nr: int, size: int) -> int:
    return (3 << 30) | (size << 16) | (ord("d") << 8) | nr


GETRESOURCES = _iowr(0xA0, 64)
GETCRTC = _iowr(0xA1, 104)
GETFB = _iowr(0xAD, 28)
MAP_DUMB = _iowr(0xB3, 16)


def grab(card: str) -> bytes:
    fd = os.open(card, os.O_RDWR)
    try:
        res = bytearray(64)
        fcntl.ioctl(fd, GETRESOURCES, res)
        n_crtcs = struct.unpack_from("4I", res, 32)[1]
        ids = bytearray(4 * n_crtcs)  # the second call fills in the CRTC ids
        res = bytearray(64)
        addr = _address(ids)
        struct.pack_into("QQQQ4I", res, 0, 0, addr, 0, 0, 0, n_crtcs, 0, 0)
        fcntl.ioctl(fd, GETRESOURCES, res)
        for (crtc_id,) in struct.iter_unpack("I", bytes(ids)):
            crtc = bytearray(104)
            struct.pack_into("QII", crtc, 0, 0, 0, crtc_id)
            fcntl.ioctl(fd, GETCRTC, crtc)
            fb_id = struct.unpack_from("I", crtc, 16)[0]
            if fb_id:
                break
        else:
            raise SystemExit("drm-grab: no CRTC scans out a framebuffer")
        fb = bytearray(struct.pack("7I", fb_id, 0, 0, 0, 0, 0, 0))
        fcntl.ioctl(fd, GETFB, fb)
        _, width, height, pitch, bpp, _depth, handle = struct.unpack("7I", fb)
        if bpp != 32 or not handle:
            raise SystemExit(f"drm-grab: framebuffer {width}x{height} bpp {bpp} handle {handle}")
        md = bytearray(struct.pack("IIQ", handle, 0, 0))
        fcntl.ioctl(fd, MAP_DUMB, md)
        offset = struct.unpack_from("Q", md, 8)[0]
        with mmap.mmap(fd, pitch * height, mmap.MAP_SHARED, mmap.PROT_READ, offset=offset) as m:
            data = m[:]
    finally:
        os.close(fd)
    rows = data if pitch == width * 4 else b"".join(
        data[y * pitch:y * pitch + width * 4] for y in range(height))
    out = bytearray(width * height * 3)
    out[0::3], out[1::3], out[2::3] = rows[2::4], rows[1::4], rows[0::4]
    return b"P6\n%d %d\n255\n" % (width, height) + bytes(out)


def _address(buf: bytearray) -> int:
    import ctypes

    return ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))


if __name__ == "__main__":
    sys.stdout.buffer.write(grab(sys.argv[1] if len(sys.argv) > 1 else "/dev/dri/card0"))
