"""The window: fullscreen or windowed, rotation with touch mapped back, invisible cursor.

Scenes draw on :attr:`Screen.surface` at the logical size (width/height swapped for
90°/270°). :meth:`present` rotates that onto the window when the panel is mounted turned;
:meth:`to_logical` maps a window point back for touch. In the simulator the window is
wider than the table: the strip on the right holds the simulated arcade buttons.
"""

from __future__ import annotations

import os

import pygame

from display.layout import rotate_rect, unrotate_point

WINDOW_MARGIN = (16, 72)  # px a desktop keeps for the window frame, title bar and its panel
MIN_TABLE = (320, 240)


def fit_table_size(
    table: tuple[int, int],
    strip: int,
    desktop: tuple[int, int],
    *,
    margin: tuple[int, int] = WINDOW_MARGIN,
    minimum: tuple[int, int] = MIN_TABLE,
) -> tuple[int, int]:
    """The table size for a window of ``table`` + a ``strip`` on the right on ``desktop``.

    Unchanged when it fits; otherwise scaled down keeping the aspect ratio (the layout
    scales with it), never below ``minimum``.
    """
    tw, th = table
    room_w = desktop[0] - margin[0] - strip
    room_h = desktop[1] - margin[1]
    if tw <= room_w and th <= room_h:
        return (tw, th)
    scale = min(room_w / tw, room_h / th)
    scale = max(scale, minimum[0] / tw, minimum[1] / th)
    return (max(minimum[0], int(tw * scale)), max(minimum[1], int(th * scale)))


def desktop_size() -> tuple[int, int] | None:
    """The first desktop's size, or None without a real display (dummy/offscreen drivers)."""
    try:
        if pygame.display.get_driver() in ("dummy", "offscreen"):
            return None
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return (sizes[0][0], sizes[0][1]) if sizes else None


class Screen:
    """The display surface and its transforms."""

    def __init__(
        self,
        size: tuple[int, int],
        *,
        fullscreen: bool = False,
        rotation: int = 0,
        hide_cursor: bool = False,
        side_strip: int = 0,
        title: str = "Rummy Table",
    ) -> None:
        if rotation not in (0, 90, 180, 270):
            raise ValueError(f"rotation must be 0, 90, 180 or 270, got {rotation}")
        self.rotation = rotation
        self.side_strip = side_strip
        flags = 0
        if fullscreen:
            flags |= pygame.FULLSCREEN
            size = (0, 0)
        pygame.display.set_caption(title)
        panel = (size[0], size[1]) if size != (0, 0) else (0, 0)
        window_size = (panel[0] + side_strip, panel[1]) if panel != (0, 0) else (0, 0)
        self.window = pygame.display.set_mode(window_size, flags)
        ww, wh = self.window.get_size()
        self.panel_rect = pygame.Rect(0, 0, ww - side_strip, wh)
        pw, ph = self.panel_rect.size
        self.size = (ph, pw) if rotation in (90, 270) else (pw, ph)
        if rotation == 0:
            self.surface = self.window.subsurface(self.panel_rect)
        else:
            self.surface = pygame.Surface(self.size).convert()
        self.strip_rect = pygame.Rect(self.panel_rect.right, 0, side_strip, wh)
        self.strip = self.window.subsurface(self.strip_rect) if side_strip else None
        if hide_cursor:
            hide_mouse_cursor()

    def to_logical(self, pos: tuple[float, float]) -> tuple[float, float] | None:
        """A window point in the scenes' coordinates, or None outside the table."""
        if not self.panel_rect.collidepoint(pos):
            return None
        # The logical surface is rotated by -rotation onto the panel (see present()).
        return unrotate_point(pos, self.size, (-self.rotation) % 360)

    def present(self, rects: list[pygame.Rect] | None = None, strip_dirty: bool = False) -> None:
        """Show what the scenes drew (only ``rects`` when given)."""
        if self.rotation:
            turned = pygame.transform.rotate(self.surface, -self.rotation)
            self.window.blit(turned, self.panel_rect)
            rects = None if rects is None else [rotate_rect(r, self.size, (-self.rotation) % 360)
                                                for r in rects]
        if rects is None:
            pygame.display.flip()
            return
        if strip_dirty and self.side_strip:
            rects = [*rects, self.strip_rect]
        if rects:
            pygame.display.update(rects)


def hide_mouse_cursor() -> None:
    """An invisible cursor that still reports positions (pibooth #41: set_visible(False)
    broke touch positions under some drivers, a transparent cursor does not)."""
    try:
        surf = pygame.Surface((8, 8), pygame.SRCALPHA)
        pygame.mouse.set_cursor(pygame.cursors.Cursor((0, 0), surf))
    except pygame.error:
        pygame.mouse.set_visible(False)


def init_pygame(*, headless: bool) -> None:
    """Initialise pygame (dummy video and audio when headless)."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    pygame.display.init()
    if not pygame.font.get_init():  # first start, or after a pygame.quit(): cached fonts are dead
        from display import theme

        theme._fonts.clear()
    pygame.font.init()
