"""The operator menu's real-card part (docs/real_cards.md): the fixes that need the PIN
(void the hand as a misdeal, go on when the cards are right) and the enrolment of a new
deck through the shoe."""

from __future__ import annotations

from typing import Any

import pygame

from display import theme
from display.table.faults import storage_text
from display.table.gin_text import card_name as card_label
from display.table.i18n import _
from display.table.refusal_text import refusal_text
from rummy.actions import ActionError
from rummy.session import StorageError


def items(scene: Any) -> list[tuple[str, Any, str]]:
    """Menu items (label, call, name) while the table plays with real cards."""
    app = scene.app
    real = getattr(app, "real", None)
    if real is None:
        return []
    out: list[tuple[str, Any, str]] = [(_("Enrol a new deck"), lambda: enrol(scene), "enrol")]
    reads = getattr(app.match, "reads", None) if app.match is not None else None
    if reads is not None and not reads.dealing() and not app.match.is_over:
        out.append((_("Void this hand (misdeal): deal again"), lambda: void(scene), "void_hand"))
    if reads is not None and unknown_prompt(reads) is not None:
        out.append((_("Name the unknown card"), lambda: _do(scene, lambda: None, "assign"), "assign"))
    if reads is not None and reads.prompt is not None:
        out.append((_("The cards are right: go on"), lambda: go_on(scene), "go_on"))
    return out


def unknown_prompt(reads: Any) -> Any:
    """The open question about a tag the deck map does not know, or None."""
    from display.table.controller.real_cards import PromptKind

    return next((p for p in reads.prompts if p.kind is PromptKind.UNKNOWN_TAG), None)


def assign(scene: Any, card: Any) -> None:
    """The operator names the unknown tag's card: the deck map learns it (a replaced sticker,
    a card enrolled alone) and the read is taken where it was made."""
    reads = scene.app.match.reads
    result = reads.operator_assign(card)
    scene.said = _("The tag is now the {card}").format(card=card_label(card)) if result is not None else ""
    scene.app.real_changed()
    _do(scene, lambda: None, "menu")


def draw_assign(scene: Any, surf: pygame.Surface) -> None:
    """The 52 cards, a suit to a row: touch the one whose tag the table does not know."""
    from rummy.cards import RANKS, SUITS, Card

    w, h = scene.size
    reads = scene.app.match.reads if scene.app.match is not None else None
    p = unknown_prompt(reads) if reads is not None else None
    if p is None:
        scene.page = "menu"
        return
    theme.draw_text(surf, _("Which card has the tag {uid}? Touch it").format(uid=p.uid or "?"),
                    pygame.Rect(int(w * 0.05), int(h * 0.13), int(w * 0.9), int(h * 0.08)), colour=theme.INK)
    top, bottom = int(h * 0.23), h - int(h * 0.03)
    row_h = (bottom - top) // len(SUITS)
    col_w = int(w * 0.94) // len(RANKS)
    for r, suit in enumerate(SUITS):
        for c, rank in enumerate(RANKS):
            card = Card.parse(rank + suit)
            rect = pygame.Rect(int(w * 0.03) + c * col_w, top + r * row_h, col_w - 3, row_h - 4)
            scene.button(surf, rect, card_label(card), lambda card=card: assign(scene, card),
                         name=f"assign_{card}")


def void(scene: Any) -> None:
    reads = scene.app.match.reads
    refusal = reads.operator_void()
    if refusal is None:
        scene.app.match.review_pending = False
        scene.said = _("The hand is void: deal it again from the shoe")
    else:
        scene.said = refused_text(scene.app.match, refusal)
    scene.dirty = True


def refused_text(match: Any, refusal: Exception) -> str:
    """Why the void was refused, in the table's language: the engine's refusal code worded
    (display.table.refusal_text) or the storage fault; never ``str(exc)``, which is English
    for the log."""
    if isinstance(refusal, ActionError):
        return refusal_text(refusal, name=match.name)
    if isinstance(refusal, StorageError):
        return storage_text(refusal.kind)
    return refusal_text("")  # nothing the table knows: "not now"


def _do(scene: Any, act: Any, page: str | None = None) -> None:
    """Do ``act`` (a call of the shoe or the reads), go to ``page``, draw again."""
    act()
    if page is not None:
        scene.page = page
    scene.dirty = True


def go_on(scene: Any) -> None:
    _do(scene, scene.app.match.reads.operator_resume)


def enrol(scene: Any) -> None:
    _do(scene, scene.app.real.shoe.enrol_start, "enrol")


def _finish(scene: Any) -> None:
    error = scene.app.real.shoe.enrol_finish()
    scene.said = _("The deck is enrolled") if error is None else error
    _do(scene, lambda: None, "menu" if error is None else "enrol")


def _cancel(scene: Any) -> None:
    _do(scene, scene.app.real.shoe.enrol_cancel, "menu")


def _undo(scene: Any) -> None:
    _do(scene, scene.app.real.shoe.enrol_undo)


def draw_enrol(scene: Any, surf: pygame.Surface) -> None:
    """The enrolment page: the card to deal next, how many are done, undo / save / cancel."""
    w, h = scene.size
    shoe = scene.app.real.shoe
    en = shoe.enroller
    if en is None:
        scene.page = "menu"
        return
    done = len(en.cards)
    nxt = en.expected
    lines = [
        _("Deal the new deck through the shoe in new-deck order: A to K of spades, hearts, diamonds, clubs"),
        _("Next card: {card}").format(card=nxt) if nxt is not None else _("All 52 cards are read: save"),
        _("{n} of {total} cards enrolled").format(n=done, total=len(en.order)),
        shoe.enrol_said,
    ]
    line_h = int(h * 0.08)
    for i, line in enumerate(lines):
        theme.draw_text(surf, line, pygame.Rect(int(w * 0.05), int(h * 0.14) + i * line_h, int(w * 0.9), line_h),
                        bold=i == 1, colour=theme.GOLD if i == 1 else theme.INK)
    bh = max(scene.touch, int(h * 0.1))
    y = h - bh - int(h * 0.04)
    bw = int(w * 0.26)
    scene.button(surf, pygame.Rect(int(w * 0.05), y, bw, bh), _("Undo the last card"), lambda: _undo(scene),
                 name="enrol_undo", enabled=done > 0)
    scene.button(surf, pygame.Rect(int(w * 0.37), y, bw, bh), _("Save the deck"), lambda: _finish(scene),
                 name="enrol_save", enabled=nxt is None, hot=True)
    scene.button(surf, pygame.Rect(int(w * 0.69), y, bw, bh), _("Cancel"), lambda: _cancel(scene),
                 name="enrol_cancel")
