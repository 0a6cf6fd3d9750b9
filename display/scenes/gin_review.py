"""Knock and layoff review, the hand's verdict, the running score sheet, game and match end.

Shows what the engine decided (``HandResult``, ``GameResult``): the knocker's melds and
deadwood, the defender's melds, layoffs and deadwood, both counts, and the verdict in
words (knock, gin, Big Gin, undercut, dead hand; G-12). Continue (touch, or DRAW on any
seat's buttons) deals the next hand.
"""

from __future__ import annotations

import pygame

from display import cardart, theme
from display.gin_text import OUTCOME_TITLES, verdict
from display.i18n import _
from display.scenes.review_base import ReviewScene
from rummy.gin.state import MatchPhase


class GinReviewScene(ReviewScene):
    name = "gin_review"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.shot = False

    def screenshot_name(self) -> str | None:
        if self.shot:
            return None
        r = self.result
        if self.m.is_over:
            return "gin_match_end"
        if r is not None and r.outcome in ("knock", "undercut"):
            return "gin_knock_review"
        if r is not None and r.outcome in ("gin", "big_gin"):
            return "gin_gin_review"
        return None

    @property
    def result(self):
        h = self.m.state.hand
        return h.result if h is not None else None

    def game_ended(self):
        """The game tally when the hand just ended a game (G-14.4)."""
        st = self.m.state
        if st.game_results and (st.phase is MatchPhase.OVER or st.hand_number == 0):
            return st.game_results[-1]
        return None

    def title(self) -> str:
        r = self.result
        hand = OUTCOME_TITLES[r.outcome]() if r is not None else ""
        if self.m.is_over:
            return _("{hand} · Match over").format(hand=hand) if hand else _("Match over")
        if self.game_ended() is not None:
            return _("{hand} · Game over").format(hand=hand) if hand else _("Game over")
        return hand or _("Score sheet")

    # -- drawing ------------------------------------------------------------------------------
    def _cards(self, surf, cards, x, y, ch, *, highlight=()) -> int:
        cw, ch = cardart.card_size_for_height(ch)
        step = int(cw * 0.62)
        for c in cards:
            outline = cardart.HINT if c in highlight else None
            surf.blit(cardart.card_surface(c, (cw, ch), four_colour=self.app.settings.four_colour,
                                           outline=outline), (x, y))
            x += step
        return x + cw - step

    def _row(self, surf, label, melds, dead, y, ch, area, *, laid=()) -> None:
        theme.draw_text(surf, label, pygame.Rect(area.left, y, area.width, max(16, int(ch * 0.3))), align="left",
                        colour=theme.GOLD, bold=True)
        x = area.left
        y2 = y + max(18, int(ch * 0.32))
        for meld in melds:
            x = self._cards(surf, meld, x, y2, ch, highlight=laid) + int(ch * 0.12)
        if dead:
            x += int(ch * 0.1)
            end = self._cards(surf, dead, x, y2, ch)
            pygame.draw.line(surf, theme.WARN, (x, y2 + ch + 3), (end, y2 + ch + 3), 3)

    def draw(self, surf: pygame.Surface):
        """Upright for the near seat; on a flat table a strip turned to the far seat repeats
        the verdict and the Continue button."""
        w, h = self.size
        if self.app.settings.layout != "flat" or len(self.m.seats) != 2:
            return self._draw_main(surf, self.size)
        strip_h = max(self.touch + 24, int(h * 0.2))
        log = theme.TEXT_LOG
        mark_t, mark_l = len(self.targets), (len(log) if log is not None else 0)
        self._draw_main(surf.subsurface((0, strip_h, w, h - strip_h)), (w, h - strip_h))
        for t in self.targets[mark_t:]:
            t.rect = t.rect.move(0, strip_h)
        if log is not None:
            for j in range(mark_l, len(log)):
                r = log[j]
                log[j] = theme.TextRecord(r.text, r.box.move(0, strip_h), r.drawn.move(0, strip_h), r.fits)
        self._draw_far_strip(surf, (w, strip_h))
        return None

    def _draw_far_strip(self, surf: pygame.Surface, size: tuple[int, int]) -> None:
        from display.layout import rotate_rect

        w, sh = size
        local = pygame.Surface(size).convert()
        local.fill(theme.PANEL)
        log = theme.TEXT_LOG
        mark_t, mark_l = len(self.targets), (len(log) if log is not None else 0)
        r = self.result
        btn_w = max(self.touch * 3, int(w * 0.26))
        text_box = pygame.Rect(10, 6, w - btn_w - 30, sh - 12)
        title = self.title()
        line = max(16, min(int(sh * 0.3), 40))
        theme.draw_text(local, title, pygame.Rect(text_box.left, text_box.top, text_box.width, line),
                        colour=theme.GOLD, bold=True, align="left")
        text = verdict(self.m, r) if r is not None else ""
        if self.m.is_over and self.m.state.winner is not None:
            text = _("{name} wins the match!").format(name=self.m.name(self.m.state.winner))
        theme.draw_paragraph(local, text, pygame.Rect(text_box.left, text_box.top + line, text_box.width,
                                                      text_box.height - line),
                             size=max(14, int(line * 0.6)), align="left")
        label = _("New game") if self.m.is_over else _("Next hand")
        b = pygame.Rect(w - btn_w - 10, (sh - max(self.touch, int(sh * 0.6))) // 2, btn_w,
                        max(self.touch, int(sh * 0.6)))
        self.button(local, b, label + "  ▶", self.proceed, hot=True, name="continue-far")
        for t in self.targets[mark_t:]:
            t.rect = rotate_rect(t.rect, size, 180)
        if log is not None:
            for j in range(mark_l, len(log)):
                rec = log[j]
                log[j] = theme.TextRecord(rec.text, rotate_rect(rec.box, size, 180),
                                          rotate_rect(rec.drawn, size, 180), rec.fits)
        surf.blit(pygame.transform.flip(local, True, True), (0, 0))

    def _draw_main(self, surf: pygame.Surface, size: tuple[int, int]):
        surf.fill(theme.FELT_DARK)
        w, h = size
        r = self.result
        m = self.m
        title = self.title()
        theme.draw_text(surf, title, pygame.Rect(int(w * 0.03), int(h * 0.01), int(w * 0.94), int(h * 0.1)),
                        colour=theme.GOLD, bold=True, align="left")
        foot_h = max(self.touch, int(h * 0.1))
        if w < h * 1.1:  # portrait: the cards and verdict above, the score sheet below
            left = pygame.Rect(int(w * 0.03), int(h * 0.1), int(w * 0.94), int(h * 0.5))
            right = pygame.Rect(left.left, left.bottom + int(h * 0.02), left.width,
                                h - left.bottom - int(h * 0.06) - foot_h)
        else:
            left = pygame.Rect(int(w * 0.03), int(h * 0.12), int(w * 0.55), h - int(h * 0.15) - foot_h)
            right = pygame.Rect(left.right + int(w * 0.03), left.top, w - left.right - int(w * 0.06), left.height)
        if r is not None and r.outcome != "dead" and r.knocker is not None:
            ch = min(int(left.height * 0.3), int(left.width / 8))
            kn, df = r.knocker, 1 - r.knocker
            if r.outcome == "gin":
                k_label = _("{name} went gin: no deadwood").format(name=m.name(kn))
            elif r.outcome == "big_gin":
                k_label = _("{name}: Big Gin, all eleven cards melded").format(name=m.name(kn))
            else:
                k_label = _("{name} (knocked): {n} deadwood").format(name=m.name(kn), n=r.knocker_count)
            # G-11: the defender's layoffs shown on the knocker's melds they extend (outlined)
            shown = [sorted([*meld, *(c for c, j in r.layoffs if j == i)], key=lambda c: (c.rank, c.suit))
                     for i, meld in enumerate(r.knocker_melds)]
            self._row(surf, k_label, shown, r.knocker_deadwood, left.top, ch, left,
                      laid=tuple(c for c, _i in r.layoffs))
            laid = [c for c, _i in r.layoffs]
            label = _("{name}: {n} deadwood").format(name=m.name(df), n=r.defender_count)
            if r.outcome in ("gin", "big_gin"):
                label += "  · " + _("no laying off on gin")  # G-9.2
            elif laid:
                label += "  · " + _("laid off {cards}").format(cards=" ".join(
                    f"{c.rank_label}{'♠♥♦♣'['SHDC'.index(c.suit)]}" for c in laid))
            self._row(surf, label, r.defender_melds, r.defender_deadwood, left.top + int(ch * 1.6), ch, left)
            vbox = pygame.Rect(left.left, left.top + int(ch * 3.3), left.width, left.bottom - left.top - int(ch * 3.3))
        elif r is not None and r.knocker is None and r.winner is not None:  # Big Gin has no knocker
            ch = min(int(left.height * 0.3), int(left.width / 8))
            self._row(surf, m.name(r.winner), r.knocker_melds, (), left.top, ch, left)
            vbox = pygame.Rect(left.left, left.top + int(ch * 1.6), left.width, left.height - int(ch * 1.6))
        else:
            vbox = left
        if r is not None:
            text = verdict(m, r)
            if r.doubled:
                text += " " + _("Spade knock card: the score is doubled.")
            theme.draw_paragraph(surf, text, vbox, size=max(16, int(h * 0.045)), align="left")
        self._sheet(surf, right, h)
        label = _("New game") if m.is_over else _("Next hand")
        btn = pygame.Rect(w - int(w * 0.35) - int(w * 0.03), h - foot_h - int(h * 0.02), int(w * 0.35), foot_h)
        self.button(surf, btn, label + "  ▶", self.proceed, hot=True, name="continue")
        theme.draw_text(surf, _("or press DRAW"), pygame.Rect(int(w * 0.03), btn.top, btn.left - int(w * 0.06),
                                                              foot_h), align="right", colour=theme.INK_DIM,
                        size=int(foot_h * 0.4))
        self.shot = False
        return None

    def _sheet(self, surf: pygame.Surface, box: pygame.Rect, height: int) -> None:
        """The running score sheet: hand by hand, boxes, and the game tally when a game ends."""
        m = self.m
        st = m.state
        line = max(16, min(int(height * 0.05), box.height // 12))
        names = [m.name(0), m.name(1)]
        y = box.top
        col = [box.left, box.left + int(box.width * 0.4), box.left + int(box.width * 0.7)]
        colw = [int(box.width * 0.4), int(box.width * 0.3), int(box.width * 0.3)]

        def row(cells, colour=theme.INK, bold=False):
            nonlocal y
            if all(c == "" for c in cells[1:]):  # a message across the whole sheet
                theme.draw_text(surf, str(cells[0]), pygame.Rect(box.left, y, box.width, line),
                                align="left", colour=colour, bold=bold)
                y += line
                return
            for i, c in enumerate(cells):
                theme.draw_text(surf, str(c), pygame.Rect(col[i], y, colw[i] - 6, line),
                                align="left" if i == 0 else "right", colour=colour, bold=bold)
            y += line

        row([_("Game {n}").format(n=st.game_number if not self.game_ended() else len(st.game_results)),
             names[0], names[1]], theme.GOLD, True)
        tally = self.game_ended()
        if tally is not None:
            row([_("Hand points"), *tally.hand_points])
            row([_("Boxes"), *tally.boxes])
            row([_("Box bonus"), *tally.box_points])
            row([_("Game bonus"), *tally.game_bonus])
            if tally.shutout:
                row([_("Shutout!"), "", ""], theme.WARN, True)
            row([_("Total"), *tally.totals], theme.GOLD, True)
            row([_("{name} wins the game").format(name=names[tally.winner]), "", ""], theme.GOLD, True)
            if m.is_over and st.winner is not None:
                if len(st.game_results) > 1:
                    row([_("Games won"), *st.games_won], theme.INK, True)
                row([_("{name} wins the match!").format(name=names[st.winner]), "", ""], theme.GOLD, True)
            return
        running = [0, 0]
        results = st.hand_results[-(max(1, (box.bottom - y) // line - 3)):]
        for i, hr in enumerate(st.hand_results):
            if hr.winner is not None:
                running[hr.winner] += hr.points
            if hr not in results:
                continue
            label = f"{i + 1}. {OUTCOME_TITLES[hr.outcome]()}"
            cells = [label, "", ""]
            if hr.winner is not None:
                cells[1 + hr.winner] = f"+{hr.points}"
            row(cells)
        row([_("Points"), *st.scores], theme.GOLD, True)
        row([_("Boxes"), *st.boxes])
        row([_("Target"), st.rules.game_target, ""], theme.INK_DIM)
