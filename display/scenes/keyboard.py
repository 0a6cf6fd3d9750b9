"""An on-screen keyboard for names (Latin and Cyrillic layouts), and a keypad for PINs
(``digits=True``: ten digits, shown as dots, at most :data:`PIN_LEN`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pygame

from display import theme
from display.scenes.base import Scene
from display.table.i18n import _

LAYOUTS: dict[str, tuple[str, ...]] = {
    "latin": ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"),
    "cyrillic": ("ЙЦУКЕНГШЩЗХ", "ФЫВАПРОЛДЖЭ", "ЯЧСМИТЬБЮ"),
}
MAX_LEN = 14
PIN_LEN = 8
DIGITS = ("123", "456", "789", "0")


class KeyboardScene(Scene):
    name = "keyboard"

    def __init__(self, app, *, text: str = "", title: str = "", on_done: Callable[[str | None], None],
                 digits: bool = False) -> None:
        super().__init__(app)
        self.text = text
        self.title = title
        self.on_done = on_done
        self.digits = digits
        self.layout = "cyrillic" if app.settings.language == "ru" else "latin"

    @property
    def max_len(self) -> int:
        return PIN_LEN if self.digits else MAX_LEN

    def type(self, ch: str) -> None:
        if self.digits:
            if ch.isdigit() and len(self.text) < PIN_LEN:
                self.text += ch
            self.dirty = True
            return
        if len(self.text) < MAX_LEN:
            self.text += ch if not self.text or self.text.endswith(" ") else ch.lower()
        self.dirty = True

    def back(self) -> None:
        self.text = self.text[:-1]
        self.dirty = True

    def on_key(self, key: int, text: str) -> None:
        if key == pygame.K_RETURN:
            self.on_done(self.text)
        elif key == pygame.K_ESCAPE:
            self.on_done(None)
        elif key == pygame.K_BACKSPACE:
            self.back()
        elif text and text.isprintable() and len(self.text) < self.max_len:
            if self.digits and not text.isdigit():
                return
            self.text += text
            self.dirty = True

    def draw(self, surf: pygame.Surface):
        surf.fill(theme.FELT_DARK)
        w, h = self.size
        t = self.touch
        theme.draw_text(surf, self.title, pygame.Rect(int(w * 0.05), int(h * 0.02), int(w * 0.9), int(h * 0.08)),
                        colour=theme.GOLD, bold=True)
        field = pygame.Rect(int(w * 0.1), int(h * 0.11), int(w * 0.8), max(t, int(h * 0.11)))
        pygame.draw.rect(surf, theme.INK, field, border_radius=8)
        shown = "•" * len(self.text) if self.digits else self.text
        theme.draw_text(surf, shown + "▏", field.inflate(-20, -10), colour=theme.BLACK, align="left")
        rows = DIGITS if self.digits else LAYOUTS[self.layout]
        if int(w * 0.96) // max(len(r) for r in rows) < t + 6:  # narrow portrait: split the rows
            rows = tuple(part for r in rows for part in (r[: (len(r) + 1) // 2], r[(len(r) + 1) // 2:]))
        top = field.bottom + int(h * 0.03)
        key_h = max(t, min(int(h * 0.12), (h - top - int(h * 0.02)) // (len(rows) + 1) - 6))
        longest = max(len(r) for r in rows)
        key_w = max(t + 6, min(int(w * 0.96) // longest, int(key_h * 1.3)))
        for r, row in enumerate(rows):
            x0 = (w - key_w * len(row)) // 2
            for i, ch in enumerate(row):
                rect = pygame.Rect(x0 + i * key_w, top + r * (key_h + 6), key_w - 6, key_h)
                self.button(surf, rect, ch, functools.partial(self.type, ch), name=f"key-{ch}")
        y = top + len(rows) * (key_h + 6)
        bw = max(t, min(int(w * 0.18), (w - 12) // 5 - 4))
        specs = [] if self.digits else [
            (_("ABC/АБВ"), self.switch, "layout"),
            (_("Space"), lambda: self.type(" "), "space"),
        ]
        specs += [
            (_("Delete"), self.back, "delete"),
            (_("Cancel"), lambda: self.on_done(None), "cancel"),
            (_("OK"), lambda: self.on_done(self.text), "ok"),
        ]
        gap = (w - bw * len(specs)) // (len(specs) + 1)
        for i, (label, fn, name) in enumerate(specs):
            self.button(surf, pygame.Rect(gap + i * (bw + gap), y, bw, key_h), label, fn, name=name,
                        hot=name == "ok")
        return None

    def switch(self) -> None:
        self.layout = "cyrillic" if self.layout == "latin" else "latin"
        self.dirty = True
