"""Screendumps of the virtual table: compare two, or save one as PNG (Pillow, on the host).

    python3 screen.py diff A B        -> "<mean abs difference 0..255> <share of pixels changed>"
    python3 screen.py png IN.ppm OUT.png
    python3 screen.py stats A         -> "<width>x<height> mean=<mean level> max=<max level>"

The comparison is tolerant: both images are reduced to 160x100 grey (so anti-aliasing, a
blinking lamp glyph or a clock's digits move it little) before the mean difference.
"""

from __future__ import annotations

import sys

from PIL import Image, ImageChops, ImageStat

SMALL = (160, 100)


def small(path: str) -> Image.Image:
    return Image.open(path).convert("L").resize(SMALL, Image.Resampling.BOX)


def diff(a: str, b: str) -> tuple[float, float]:
    d = ImageChops.difference(small(a), small(b))
    changed = sum(1 for v in d.getdata() if v > 16) / (SMALL[0] * SMALL[1])
    return ImageStat.Stat(d).mean[0], changed


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "diff":
        mean, changed = diff(argv[1], argv[2])
        print(f"{mean:.2f} {changed:.4f}")
    elif len(argv) == 3 and argv[0] == "png":
        Image.open(argv[1]).convert("RGB").save(argv[2], optimize=True)
    elif len(argv) == 2 and argv[0] == "stats":
        im = Image.open(argv[1]).convert("L")
        st = ImageStat.Stat(im)
        print(f"{im.width}x{im.height} mean={st.mean[0]:.1f} max={st.extrema[0][1]}")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
