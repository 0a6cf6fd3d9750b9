"""The operator menu: PIN first, then presets, language, rotation, layout, privacy, diagnostics.

Opened by the operator button chord (``device`` sends an ``operator`` event), a 3-second
press on the table's top-left corner, or F10 in the simulator.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pygame

from display import theme
from display.scenes import Go
from display.scenes.base import Scene
from display.table.i18n import LANGUAGES, N_, _

GIN_PRESETS = ("standard", "knock_card", "tournament", "pagat_classic")
PRESET_NAMES = {"standard": N_("standard"), "knock_card": N_("knock card"),
                "tournament": N_("tournament"), "pagat_classic": N_("Pagat classic"),
                "seed_002": N_("five deals"), "american_may_i": N_("American May I")}
CONTRACT_PRESETS = ("seed_002", "american_may_i")
DELAYS = (0.3, 0.8, 1.5, 3.0)
TARGETS = (None, 100, 150, 250)  # G-14.1: 100, Oklahoma 150, tournament 250


def _next(values, current):
    values = list(values)
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]



def short_path(path: object, most: int = 34) -> str:
    """``path`` in at most ``most`` characters for a diagnostics line: its first part,
    "…" and as many of its last parts as fit (the folder's own name always), so a long
    folder (a simulator's temporary one) keeps the end that tells it apart instead of
    being cut off at the edge of the screen."""
    text = str(path)
    if len(text) <= most:
        return text
    parts = Path(text).parts
    head = parts[0] if parts and parts[0] in ("/", "~") else ""
    tail: list[str] = []
    for part in reversed(parts[1:] if head else parts):
        candidate = "/".join([part, *tail])
        if tail and len(head) + 2 + len(candidate) > most:
            break
        tail.insert(0, part)
    return f"{head}…/{'/'.join(tail)}"

class OperatorScene(Scene):
    name = "operator"

    def __init__(self, app, *, back: str = "attract", unlocked: bool = False) -> None:
        super().__init__(app)
        self.back_to = back
        self.pin = ""
        self.unlocked = unlocked  # back from a screen it opened (recall, leaderboard): still unlocked
        self.page = "menu"
        self.wrong = False
        self.confirm_end = False  # "End this match now" touched once: the next touch ends it
        self.new_pin: str | None = None  # changing the PIN: the first entry, waiting for the second
        self.said = ""  # the last word on the PIN change (done, or why not)

    def leave(self) -> None:
        """Close: back to the match's screen when opened over it, else home (display.scenes.next_scene)."""
        self.app.go(Go.CLOSE_OPERATOR, back=self.back_to)

    def delete_digit(self) -> None:
        self.pin = self.pin[:-1]

    def digit(self, d: str) -> None:
        if len(self.pin) < 8:
            self.pin += d
        self.wrong = False
        self.dirty = True

    def enter_pin(self) -> None:
        from display.table.config import check_pin

        if self.unlocked and self.page == "pin":
            self._new_pin_entered()
        elif check_pin(self.app.config, self.pin):
            self.unlocked = True
        else:
            self.wrong = True
        self.pin = ""
        self.dirty = True

    def change_pin(self) -> None:
        """The PIN change: the new PIN twice on the keypad, then stored (config file)."""
        self.page, self.new_pin, self.pin, self.wrong, self.said = "pin", None, "", False, ""
        self.dirty = True

    def _new_pin_entered(self) -> None:
        if self.new_pin is None:
            if not (4 <= len(self.pin) <= 8):
                self.wrong, self.said = True, _("A PIN has 4 to 8 digits")
                return
            self.new_pin, self.wrong, self.said = self.pin, False, ""
            return
        if self.pin != self.new_pin:
            self.new_pin, self.wrong, self.said = None, True, _("The two PINs differ: start again")
            return
        error = self.app.change_pin(self.pin)
        self.new_pin, self.page = None, "menu"
        self.said = _("PIN changed") if error is None else _("The PIN could not be saved: {error}").format(error=error)

    def on_key(self, key: int, text: str) -> None:
        if not self.unlocked or self.page == "pin":
            if text.isdigit():
                self.digit(text)
            elif key == pygame.K_RETURN:
                self.enter_pin()
            elif key == pygame.K_BACKSPACE:
                self.pin = self.pin[:-1]
                self.dirty = True
        if key == pygame.K_ESCAPE:
            self.leave()

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface):
        surf.fill((30, 36, 44))
        w, h = self.size
        theme.draw_text(surf, _("Operator"), pygame.Rect(int(w * 0.05), int(h * 0.02), int(w * 0.6),
                                                         int(h * 0.09)), colour=theme.GOLD, bold=True, align="left")
        close = pygame.Rect(w - int(w * 0.2) - int(w * 0.03), int(h * 0.02), int(w * 0.2),
                            max(self.touch, int(h * 0.09)))
        self.button(surf, close, _("Close"), self.leave, name="close")
        if not self.unlocked or self.page == "pin":
            self._draw_pin(surf)
        elif self.page == "diagnostics":
            self._draw_diagnostics(surf)
        elif self.page == "enrol":
            from display.scenes.operator_real import draw_enrol

            draw_enrol(self, surf)
        elif self.page == "assign":
            from display.scenes.operator_real import draw_assign

            draw_assign(self, surf)
        else:
            self._draw_menu(surf)
        return None

    def _draw_pin(self, surf: pygame.Surface) -> None:
        w, h = self.size
        t = self.touch
        if self.unlocked:  # changing the PIN
            msg = self.said if self.wrong else (_("Enter the new PIN again") if self.new_pin is not None
                                                else _("Enter the new PIN (4 to 8 digits)"))
        else:
            msg = _("Wrong PIN, try again") if self.wrong else _("Enter the operator PIN")
        theme.draw_text(surf, msg, pygame.Rect(int(w * 0.1), int(h * 0.13), int(w * 0.8), int(h * 0.07)),
                        colour=theme.WARN if self.wrong else theme.INK)
        theme.draw_text(surf, "●" * len(self.pin) or "—", pygame.Rect(int(w * 0.3), int(h * 0.21), int(w * 0.4),
                                                                      int(h * 0.08)))
        key = max(t, min(int(h * 0.14), int(w * 0.12)))
        x0 = (w - 3 * (key + 8)) // 2
        y0 = int(h * 0.31)
        labels = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"]
        for i, lab in enumerate(labels):
            r = pygame.Rect(x0 + (i % 3) * (key + 8), y0 + (i // 3) * (key + 6), key, key - 4)
            if lab == "OK":
                self.button(surf, r, _("OK"), self.enter_pin, hot=True, name="pin-ok")
            elif lab == "⌫":
                self.button(surf, r, lab, self.delete_digit, name="pin-del")
            else:
                self.button(surf, r, lab, functools.partial(self.digit, lab), name=f"pin-{lab}")

    def _items(self):
        s = self.app.settings
        items = [
            (_("Gin rules: {v}").format(v=_(PRESET_NAMES.get(s.gin_preset, s.gin_preset))),
             lambda: self.app.change(gin_preset=_next(GIN_PRESETS, s.gin_preset)), "gin_preset"),
            (_("Gin game to: {v}").format(v=s.gin_target) if s.gin_target else _("Gin game to: as the rules say"),
             lambda: self.app.change(gin_target=_next(TARGETS, s.gin_target)), "gin_target"),
            (_("Contract rules: {v}").format(v=_(PRESET_NAMES.get(s.contract_preset, s.contract_preset))),
             lambda: self.app.change(contract_preset=_next(CONTRACT_PRESETS, s.contract_preset)),
             "contract_preset"),
            (_("Language: {v}").format(v=LANGUAGES[s.language]),
             lambda: self.app.set_language(_next(LANGUAGES, s.language)), "language"),
            (_("Rotation: {v}°").format(v=s.rotation),
             lambda: self.app.set_rotation(_next((0, 90, 180, 270), s.rotation)), "rotation"),
            (_("Layout: flat table") if s.layout == "flat" else _("Layout: upright screen"),
             lambda: self.app.change(layout=_next(("flat", "upright"), s.layout)), "layout"),
            (_("Hands: private (hold to look)") if s.privacy == "peek" else _("Hands: open (practice)"),
             lambda: self.app.change(privacy=_next(("peek", "open"), s.privacy)), "privacy"),
            (_("Four-colour cards: on") if s.four_colour else _("Four-colour cards: off"),
             lambda: self.app.change(four_colour=not s.four_colour), "four_colour"),
            (_("Computer speed: {v} s").format(v=s.bot_delay_s),
             lambda: self.app.change(bot_delay_s=_next(DELAYS, s.bot_delay_s)), "bot_delay"),
            (_("Diagnostics"), lambda: self._page("diagnostics"), "diagnostics"),
            (self.said or _("Change the PIN"), self.change_pin, "change_pin"),
            (_("Last hands (recall)"), lambda: self.app.go(Go.RECALL, back=f"operator:{self.back_to}"), "recall"),
            (_("Leaderboard"), lambda: self.app.go(Go.LEADERBOARD, back=f"operator:{self.back_to}"),
             "leaderboard"),
        ]
        from display.scenes import operator_real

        items += operator_real.items(self)  # real cards: the fixes with the PIN, a new deck
        if self.app.match is not None:  # a second touch confirms: the match is lost
            items.append((_("Touch again to end the match: it is not scored") if self.confirm_end
                          else _("End this match now"), self.abandon, "abandon"))
        return items

    def _page(self, page: str) -> None:
        self.page = page
        self.dirty = True

    def _touched(self, name: str, fn) -> None:
        """A menu item: anything but the second touch of "End this match now" calls it off."""
        if name != "abandon" and self.confirm_end:
            self.confirm_end = False
            self.dirty = True
        fn()

    def abandon(self) -> None:
        """End the match: the first touch asks, the second ends it."""
        if not self.confirm_end:
            self.confirm_end = True
            self.dirty = True
            return
        self.app.abandon_match()
        self.app.go(Go.HOME)

    def _draw_menu(self, surf: pygame.Surface) -> None:
        w, h = self.size
        items = self._items()
        area = pygame.Rect(int(w * 0.05), int(h * 0.14), int(w * 0.9), int(h * 0.82))
        cols = 2
        rows = -(-len(items) // cols)
        cell_h = min(max(self.touch, int(h * 0.14)), area.height // rows)
        cell_w = area.width // cols
        for i, (label, fn, name) in enumerate(items):
            r = pygame.Rect(area.left + (i % cols) * cell_w, area.top + (i // cols) * cell_h, cell_w - 12,
                            max(self.touch, cell_h - 10))
            self.button(surf, r, label, functools.partial(self._touched, name, fn), name=name,
                        size=int(min(cell_h * 0.34, h * 0.045)), hot=name == "abandon" and self.confirm_end)

    def _draw_diagnostics(self, surf: pygame.Surface) -> None:
        w, h = self.size
        app = self.app
        lines = [
            _("Screen: {w}×{h}, rotation {r}°").format(w=self.size[0], h=self.size[1], r=app.settings.rotation),
            _("Buttons: {kind}").format(kind=_("simulated") if app.hw.simulated else _("GPIO")),
            _("State folder: {path}").format(path=short_path(app.state_dir)),
            _("Frames drawn: {n}").format(n=app.frames),
        ]
        if app.match is not None:
            lines.append(_("Journal: {path} ({n} moves)").format(path=app.match.session.journal_path.name,
                                                                  n=app.match.session.actions_applied))
        lines += [_("Lamps: {v}").format(v=" ".join(
            f"{seat + 1}:{''.join(k[0].upper() if on else '·' for k, on in lamps.items())}"
            for seat, lamps in app.hw.lamps.items()))]
        board = app.hw.board
        if board is not None:
            c = board.counters
            lines.append(_("Button presses {p}, bounces {b}, lockouts {l}, holds {h}").format(
                p=c.get("presses", 0), b=c.get("bounces", 0), l=c.get("lockouts", 0), h=c.get("holds", 0)))
        if app.last_input is not None:
            ev = app.last_input
            lines.append(_("Last button: seat {seat} {call} {edge} ({source})").format(
                seat=ev.seat + 1, call=ev.call.upper(), edge=ev.edge, source=ev.source))
        shoe = app.real.shoe if getattr(app, "real", None) is not None else None  # real cards
        if shoe is not None:
            lines.append(shoe.status_line())
        problems = app.problems + app.hw.problems + app.resume_messages + (shoe.problems() if shoe else [])
        lines += [f"! {p}" for p in problems] or [_("No problems found")]
        line_h = max(18, min(int(h * 0.06), int(h * 0.66) // max(1, len(lines))))
        for i, line in enumerate(lines):
            theme.draw_text(surf, line, pygame.Rect(int(w * 0.05), int(h * 0.14) + i * line_h, int(w * 0.9), line_h),
                            align="left", colour=theme.WARN if line.startswith("!") else theme.INK)
        b = pygame.Rect(int(w * 0.05), h - max(self.touch, int(h * 0.1)) - int(h * 0.03), int(w * 0.25),
                        max(self.touch, int(h * 0.1)))
        self.button(surf, b, _("Back"), lambda: self._page("menu"), name="back")
