"""Colours, the bundled font, and text that always fits its box.

:func:`draw_text` shrinks a line until it fits the box it is given and records what it
drew in :data:`TEXT_LOG` when a scene test asks for it, so tests can assert that every
text fits and that no text overlaps the hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

FELT = (18, 92, 58)
FELT_DARK = (12, 66, 42)
FELT_LIGHT = (30, 120, 78)
INK = (245, 245, 235)
INK_DIM = (190, 210, 195)
GOLD = (246, 196, 72)
RED = (206, 36, 44)
BLUE = (28, 86, 196)
GREEN = (18, 128, 52)
BLACK = (20, 20, 24)
PANEL = (10, 48, 32)
PANEL_ACTIVE = (22, 78, 50)
BUTTON = (236, 236, 226)
BUTTON_TEXT = (24, 40, 30)
BUTTON_HOT = (246, 196, 72)
BUTTON_OFF = (90, 110, 98)
WARN = (240, 120, 60)
SHADOW = (0, 0, 0)

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
# Font sizes are taken from this ladder (each step ~12 %): every open size keeps a FreeType
# face with its glyph cache, so a free choice of sizes would cost tens of megabytes.
SIZES = (6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 27, 30, 34, 38, 43, 48, 54, 61, 68,
         77, 86, 97, 109, 122, 137, 154, 173, 195, 220, 248)


# ladder() for every whole size up to the top of the ladder (it is asked several times for
# each line drawn: a scan of the ladder each time cost more than the cached render itself)
_LADDER = tuple(max([SIZES[0], *(s for s in SIZES if s <= n)]) for n in range(SIZES[-1] + 1))


def ladder(size: float) -> int:
    """The largest ladder size not above ``size``."""
    size = int(size)
    if 0 <= size <= SIZES[-1]:
        return _LADDER[size]
    return SIZES[0] if size < 0 else SIZES[-1]


FONT_PROBLEMS: list[str] = []  # why the bundled font could not be used (the app shows it)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled DejaVu Sans at (about) ``size`` pixels (cached, from the size ladder).

    A missing or damaged font file never stops the table: pygame's own font stands in and
    the reason is kept in :data:`FONT_PROBLEMS`.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    key = (ladder(size), bold)
    f = _fonts.get(key)
    if f is not None:
        try:
            f.get_height()
        except pygame.error:  # pygame was quit and started again since: every cached font is dead
            _fonts.clear()
            f = None
    if f is None:
        path = FONT_BOLD if bold else FONT_REGULAR
        try:
            f = pygame.font.Font(str(path), key[0])
            f.size("Ag")  # a damaged file loads but cannot measure ("Passed a NULL pointer")
        except (OSError, pygame.error, RuntimeError) as exc:
            problem = f"{path}: {exc}"
            if problem not in FONT_PROBLEMS:
                FONT_PROBLEMS.append(problem)
            f = pygame.font.Font(None, key[0])
            f.set_bold(bold)
        _fonts[key] = f
    return f


def missing_glyphs(text: str, bold: bool = False) -> list[str]:
    """Characters of ``text`` the bundled font cannot draw."""
    metrics = font(20, bold).metrics(text)
    return [ch for ch, m in zip(text, metrics, strict=False) if m is None and not ch.isspace()]


@dataclass(frozen=True)
class TextRecord:
    """One drawn line: the text, the box it was given, where it landed, and whether it fit."""

    text: str
    box: pygame.Rect
    drawn: pygame.Rect
    fits: bool


TEXT_LOG: list[TextRecord] | None = None


def start_text_log() -> list[TextRecord]:
    """Record every :func:`draw_text` call from now on (tests)."""
    global TEXT_LOG
    TEXT_LOG = []
    return TEXT_LOG


def stop_text_log() -> None:
    global TEXT_LOG
    TEXT_LOG = None


class SurfaceCache:
    """Surfaces by key, the least recently used dropped first once the pixels they hold pass
    ``max_bytes`` (or their number ``max_items``). Dropping the oldest made instead threw
    out what is drawn every move (the turn's line, the buttons' words, the faces a big
    screen shows) and made it again."""

    def __init__(self, max_bytes: int, max_items: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.max_items = max_items
        self.bytes = 0
        self._items: dict[tuple, pygame.Surface] = {}

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: tuple) -> pygame.Surface | None:
        """The surface for ``key`` (now the most recently used), or None."""
        surf = self._items.pop(key, None)
        if surf is not None:
            self._items[key] = surf
        return surf

    def peek(self, key: tuple) -> pygame.Surface | None:
        """The surface for ``key`` without counting it as used."""
        return self._items.get(key)

    def put(self, key: tuple, surf: pygame.Surface) -> None:
        """Keep ``surf``, after dropping the least recently used while over the bounds."""
        items = self._items
        while items and (self.bytes > self.max_bytes
                         or self.max_items is not None and len(items) > self.max_items):
            old = items.pop(next(iter(items)))
            self.bytes -= old.get_pitch() * old.get_height()
        items[key] = surf
        self.bytes += surf.get_pitch() * surf.get_height()


# the rendered lines: a status line a move makes new lines, so the bytes are bounded (8 MB
# holds ~160 lines at 1920x1080; dropping the oldest rendered instead threw out "Player 2 to
# play" and the buttons' words, drawn again every few moves: up to 16 times in 600 moves)
_render_cache = SurfaceCache(8_000_000, max_items=1500)


def render(text: str, size: int, colour=INK, bold: bool = False, turned: bool | int = False) -> pygame.Surface:
    """A rendered line (cached: text rendering is the slowest thing we do per frame);
    ``turned``: upside down (True) or turned by that many degrees counter-clockwise (90,
    180, 270), for a player at another edge of a flat table."""
    size = ladder(size)
    angle = (180 if turned is True else int(turned)) % 360
    key = (text, size, tuple(colour), bold, angle)
    surf = _render_cache.get(key)
    if surf is not None:
        return surf
    if angle:
        # the upright line only to turn (a cached one if it is drawn upright too): caching
        # it as well doubled the bytes a side panel's lines hold, and the bound then threw
        # out lines that are drawn again (at 1920x1080, 4 seats: over half of all renders)
        upright = _render_cache.peek((text, size, key[2], bold, 0))
        if upright is None:
            upright = font(size, bold).render(text, True, colour)
        if angle == 180:
            surf = pygame.transform.flip(upright, True, True)
        else:
            surf = pygame.transform.rotate(upright, angle)
    else:
        surf = font(size, bold).render(text, True, colour)
    _render_cache.put(key, surf)
    return surf


_fit_cache: dict[tuple, int] = {}


def fit_size(text: str, box: pygame.Rect, size: int, bold: bool = False, min_size: int = 10) -> int:
    """The largest size ≤ ``size`` at which ``text`` fits ``box`` (never below ``min_size``)."""
    key = (text, box.width, box.height, int(size), bold, min_size)
    got = _fit_cache.get(key)
    if got is None:
        if len(_fit_cache) > 5000:
            del _fit_cache[next(iter(_fit_cache))]  # the oldest: no frame re-renders them all at once
        got = _fit_cache[key] = _fit_size(text, box, size, bold, min_size)
    return got


_cut_cache: dict[tuple, str] = {}


def cut_to_width(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` as it fits ``width`` pixels at ``size``: whole, or cut short with "…" (a line
    drawn wider than its box would paint over its neighbours: a panel's words over the
    next panel, which drawing by regions does not repaint). Cached either way: every
    line drawn asks, and measuring a line is not free."""
    f = font(size, bold)
    key = (text, width, f)  # the font itself: a stand-in font (a damaged file) measures otherwise
    got = _cut_cache.get(key)
    if got is None:
        if len(_cut_cache) > 4000:
            _cut_cache.clear()
        if f.size(text)[0] <= width:
            got = text
        else:
            lo, hi = 0, len(text)  # the longest head that fits with its "…"
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if f.size(text[:mid].rstrip() + "…")[0] <= width:
                    lo = mid
                else:
                    hi = mid - 1
            got = text[:lo].rstrip() + "…" if lo else ""
        _cut_cache[key] = got
    return got


def common_size(texts, box: pygame.Rect, size: int, bold: bool = False) -> int:
    """One size at which every text fits a box like ``box`` (for lines that belong together)."""
    return min((fit_size(t, box, size, bold) for t in texts if t), default=ladder(size))


def _fit_size(text: str, box: pygame.Rect, size: int, bold: bool, min_size: int) -> int:
    """The largest ladder size from the top down that fits (sizes ≤ ``min_size`` untried).
    A line's width grows about in proportion to its size, so after the top size the search
    starts at the proportional guess and steps from there: two or three measurements
    instead of one per ladder step (each costs more at a size not measured before)."""
    top = ladder(min(size, box.height * 0.9))

    def fits(s: int) -> bool:
        w, h = font(s, bold).size(text)
        return w <= box.width and h <= box.height

    if top <= min_size:
        return max(ladder(min_size), top)
    w, h = font(top, bold).size(text)
    if w <= box.width and h <= box.height:
        return top
    s = min(ladder(top - 1), ladder(top * min(box.width / max(1, w), box.height / max(1, h))))
    if s > min_size and not fits(s):
        while s > min_size and not fits(s):
            s = ladder(s - 1)
        return max(ladder(min_size), s)
    for up in SIZES:  # the guess fits (or is below the sizes tried): the larger ones that fit
        if up <= s:
            continue
        if up >= top or (up > min_size and not fits(up)):
            break
        s = up
    return max(ladder(min_size), s)


def _place(r: pygame.Rect, box: pygame.Rect, align: str) -> pygame.Rect:
    """A line's rect ``r`` put in ``box``: centred vertically, aligned left/right/centre."""
    r.centery = box.centery
    if align == "left":
        r.left = box.left
    elif align == "right":
        r.right = box.right
    else:
        r.centerx = box.centerx
    return r


def draw_text(
    surf: pygame.Surface,
    text: str,
    box: pygame.Rect,
    *,
    size: int | None = None,
    colour=INK,
    bold: bool = False,
    align: str = "center",
    offset: tuple[int, int] = (0, 0),
    turned: bool = False,
) -> pygame.Rect:
    """Draw one line inside ``box`` (shrunk to fit); returns where it landed (surface coords).

    ``offset`` maps the local box to screen coordinates for the text log only. ``turned``
    draws it upside down (``align`` is then as seen on the screen: "right" is the reader's
    left).
    """
    box = pygame.Rect(box)
    if not text:
        return pygame.Rect(box.center, (0, 0))
    size = fit_size(text, box, size or box.height, bold)
    shown = cut_to_width(text, box.width, size, bold)  # never wider than its box
    img = render(shown, size, colour, bold, turned)
    r = _place(img.get_rect(), box, align)
    surf.blit(img, r)
    if TEXT_LOG is not None:  # a line cut short did not fit
        TEXT_LOG.append(TextRecord(text, box.move(offset), r.move(offset), box.contains(r) and shown == text))
    return r


def draw_text_turned(
    surf: pygame.Surface, text: str, box: pygame.Rect, to_screen, angle: int, *, size: int | None = None,
    colour=INK, bold: bool = False, align: str = "center",
) -> pygame.Rect:
    """:func:`draw_text` laid out in a turned panel's upright coordinates (``box``) and drawn
    turned by ``angle`` where ``to_screen`` puts it; returns the screen rect."""
    box = pygame.Rect(box)
    if not text:
        return to_screen(pygame.Rect(box.center, (0, 0)))
    size = fit_size(text, box, size or box.height, bold)
    shown = cut_to_width(text, box.width, size, bold)  # never wider than its box
    img = render(shown, size, colour, bold, angle)
    w, h = img.get_size()
    r = _place(pygame.Rect(0, 0, h, w) if angle % 180 == 90 else pygame.Rect(0, 0, w, h), box, align)  # as upright
    dst = to_screen(r)
    surf.blit(img, dst)
    if TEXT_LOG is not None:  # a line cut short did not fit
        TEXT_LOG.append(TextRecord(text, to_screen(box), dst, box.contains(r) and shown == text))
    return dst


def wrap_lines(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` pixels."""
    f = font(size, bold)
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}".strip()
            if f.size(trial)[0] <= width or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
    return lines


def draw_paragraph(
    surf: pygame.Surface, text: str, box: pygame.Rect, *, size: int, colour=INK,
    bold: bool = False, align: str = "center", offset: tuple[int, int] = (0, 0), line=None,
) -> None:
    """Wrapped text inside ``box``, shrinking the size until all lines fit (``line``: how
    to draw one line, ``draw_text``'s signature; default :func:`draw_text`)."""
    line = line or draw_text
    box = pygame.Rect(box)
    while True:
        lines = wrap_lines(text, box.width, size, bold)
        line_h = int(size * 1.25)
        if line_h * len(lines) <= box.height or size <= 10:
            break
        size = int(size * 0.9)
    y = box.top + (box.height - line_h * len(lines)) // 2
    for text_line in lines:
        line(surf, text_line, pygame.Rect(box.left, y, box.width, line_h), size=size,
             colour=colour, bold=bold, align=align, offset=offset)
        y += line_h
