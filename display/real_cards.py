"""The app's side of real cards (docs/real_cards.md): the shoe link, its state on screen and
in diagnostics, the readers' events to the match's :class:`RealCards`, and the table's
questions in words.

Real-card mode is on with ``[shoe] enabled = true`` or ``--real-cards``. The link is the real
``device.shoe.link.ShoeLink`` (a USB shoe, or the simulated shoe and slot on
pseudo-terminals); its events come through the board's queue like button edges.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from device.events import (
    SHOE_CARD,
    SHOE_CONNECTED,
    SHOE_DISCONNECTED,
    SHOE_DOUBLE,
    SHOE_ERROR,
    SHOE_JAM,
    SHOE_LOST,
    SHOE_MISREAD,
)
from display.table.controller.real_cards import (
    CALL_TABLES,
    ERROR_WHYS,
    GAMES,
    POINTS,
    READ_WORDS,
    SHOE,
    SLOT,
    Prompt,
    PromptKind,
    RealCards,
)
from display.table.gin_text import card_name as card_label
from display.table.i18n import _
from rummy.actions import TABLE
from rummy.cards import Card, parse_card

BUTTON_NAMES = {"draw": "DRAW", "knock": "KNOCK", "buy": "BUY"}
PROMPT_BG = (40, 60, 120)  # the table's questions (the power-cut notice is red)
PENDING_SUFFIX = ".reads"  # beside the journal: the deal read so far (a power cut keeps it)


def deck_map_for(config: Any, *, simulated: bool) -> tuple[Any, str | None]:
    """The deck map of the table (the simulated shoe's own in the simulator) and the
    problem with it, if any."""
    from device.shoe.deckmap import DeckMap, DeckMapError

    if simulated:
        return DeckMap.simulated(2), None
    paths = [p for p in str(config.shoe.deck_map).split(",") if p.strip()]
    if not paths:
        return None, _("no deck map: enrol a deck from the operator menu")
    try:
        base = DeckMap.load_many(p.strip() for p in paths)
    except DeckMapError as exc:
        return None, str(exc)
    learned = learned_path(config)
    if learned is not None and learned.exists():
        try:
            base = _merge(base, DeckMap.load(learned))
        except DeckMapError as exc:
            return base, str(exc)
    return base, None


def learned_path(config: Any) -> Path | None:
    """The tags the operator enrolled one by one (mid-hand), read over the deck maps:
    beside the first deck map file."""
    paths = [p.strip() for p in str(config.shoe.deck_map).split(",") if p.strip()]
    return Path(paths[0]).with_suffix(".learned.map") if paths else None


class TableShoe:
    """The shoe link of the app and what it says (connected, points, faults)."""

    def __init__(self, app: Any, *, port: str | None = None, simulated: bool = False,
                 opener: Callable[..., Any] | None = None) -> None:
        self.app = app
        self.port = port or app.config.shoe.port
        self.simulated = simulated
        self.deck_map, self.deck_problem = deck_map_for(app.config, simulated=simulated)
        self.connected = False
        self.points: tuple[str, ...] = ()
        self.info: dict[str, Any] = {}
        self.last: str = ""  # why it is not connected (the link's last error)
        self.link: Any = None
        self.led = ""
        self.enroller: Any = None  # a deck being enrolled (the operator menu)
        self.enrol_said = ""  # the enrolment's last word
        from device.shoe.link import ShoeLink

        kw: dict[str, Any] = {"events": app.hw.events, "deck_map": self.deck_map, "clock": app.clock}
        if opener is not None:
            kw["opener"] = opener
        self.link = ShoeLink(self.port, **kw).start()

    # -- what the table says ----------------------------------------------------------------
    def problems(self) -> list[str]:
        """Diagnostics: what is wrong with the shoe now (English-free: the table's words)."""
        out = []
        if not self.connected:
            why = self.last or (self.link.last_error if self.link is not None else "")
            out.append(_("Card shoe: not connected at {port}").format(port=self.port)
                       + (f" ({why})" if why else ""))
        elif SLOT not in self.points:
            out.append(_("Card shoe: no discard slot (the shoe reads only its exit)"))
        if self.deck_problem:
            out.append(_("Card shoe: {problem}").format(problem=self.deck_problem))
        return out

    def status_line(self) -> str:
        if not self.connected:
            return _("Card shoe: not connected at {port}").format(port=self.port)
        return _("Card shoe: connected ({fw}; reads at {points})").format(
            fw=self.info.get("fw", "?"), points=" + ".join(self.points))

    def banner(self) -> str | None:
        """The line the table shows while the shoe is away (None: all is well)."""
        if self.connected:
            return None
        return _("The card shoe is not connected: plug it in ({port})").format(port=self.port)

    # -- events -----------------------------------------------------------------------------
    def on_event(self, ev: Any) -> None:
        """One shoe event from the queue (the main loop drains it)."""
        point = getattr(ev, "point", SHOE) or SHOE
        reads: RealCards | None = getattr(self.app.match, "reads", None) if self.app.match else None
        if ev.kind == SHOE_CONNECTED:
            self.connected = True
            self.info = dict(ev.info)
            got = self.info.get("points", (SHOE,))
            self.points = tuple(got.split("+") if isinstance(got, str) else got)
            self.last = ""
            if reads is not None:
                reads.connected(self.points)
        elif ev.kind == SHOE_DISCONNECTED:
            self.connected = False
            self.last = ev.detail
            if reads is not None:
                reads.disconnected(POINTS)
        elif self.enroller is not None:
            if ev.kind == SHOE_CARD and point == SHOE:
                self._enrol(ev.uid or "")
        elif reads is None:
            return
        elif ev.kind == SHOE_CARD:
            if ev.card is None:
                reads.unknown(point, ev.uid or "")
            else:
                reads.card(point, ev.card, ev.uid or "")
        elif ev.kind in (SHOE_MISREAD, SHOE_DOUBLE, SHOE_JAM):
            reads.fault(point, ev.kind)
        elif ev.kind == SHOE_ERROR:  # ERR READER / OVERFLOW / FATAL, a malformed frame or tag
            reads.reader_error(*error_of(ev))
        elif ev.kind == SHOE_LOST:
            count = int(ev.info.get("count", 1))
            reads.tally.lost += count
            reads.lost(count)
        self.app.real_changed()

    # -- enrolment of a new deck (operator menu) ----------------------------------------------
    def enrol_start(self, name: str = "") -> None:
        """Deal a new deck through the shoe in new-deck order (AS..KS, AH..KH, AD..KD, AC..KC):
        each tag read is that card. The game's reads wait meanwhile."""
        from device.shoe.deckmap import Enroller

        self.enroller = Enroller(name=name or "deck")
        self.enrol_said = ""
        if self.link is not None:
            self.link.set_mode("enrol")

    def _enrol(self, uid: str) -> None:
        from device.shoe.deckmap import DeckMapError

        try:
            card = self.enroller.add(uid)
            self.enrol_said = _("{card} enrolled").format(card=card)
        except DeckMapError as exc:
            self.enrol_said = str(exc)

    def enrol_undo(self) -> None:
        if self.enroller is not None:
            card = self.enroller.undo()
            self.enrol_said = _("{card} forgotten: deal it again").format(card=card) if card else ""

    def enrol_finish(self) -> str | None:
        """Save the enrolled deck and read with it from now on; returns why not, or None."""
        from device.shoe.deckmap import DeckMapError

        enroller = self.enroller
        if enroller is None:
            return None
        try:
            deck = enroller.result()
            path = self.deck_path()
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            deck.save(path)
        except (DeckMapError, OSError) as exc:
            return str(exc)
        self.deck_map = deck if self.deck_map is None else _merge(self.deck_map, deck)
        self.deck_problem = None
        if self.link is not None:
            self.link.receiver.deck_map = self.deck_map
            self.link.set_mode("deal")
        self.enroller = None
        return None

    def learn(self, uid: str, card: Card) -> str | None:
        """One tag enrolled mid-hand (the operator named its card: a new or replaced
        sticker): the table reads with it at once, and it is kept beside the deck map.
        Returns why it could not be kept (the table still reads with it), or None."""
        from device.shoe.deckmap import DeckMap, DeckMapError

        one = DeckMap({uid.upper(): card}, "learned")
        self.deck_map = one if self.deck_map is None else DeckMap({**self.deck_map.cards, **one.cards},
                                                                  self.deck_map.name)
        if self.link is not None:
            self.link.receiver.deck_map = self.deck_map
        path = None if self.simulated else learned_path(self.app.config)
        if path is None:
            return None
        try:
            kept = DeckMap.load(path) if path.exists() else DeckMap({}, "learned")
            _merge(kept, one).save(path)
        except (DeckMapError, OSError) as exc:
            return str(exc)
        return None

    def enrol_cancel(self) -> None:
        self.enroller = None
        if self.link is not None:
            self.link.set_mode("deal")

    def deck_path(self) -> str:
        """Where a new deck's map goes: the config's first deck map, else the state folder."""
        first = [p.strip() for p in str(self.app.config.shoe.deck_map).split(",") if p.strip()]
        return first[0] if first else str(Path(self.app.state_dir) / "deck.map")

    def set_led(self, pattern: str) -> None:
        """The shoe's LED says "pass it again" while a read is asked for again."""
        if pattern != self.led and self.link is not None and self.connected:
            from device.shoe import protocol as p

            if self.link.send(p.LED, pattern):
                self.led = pattern

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None


def error_of(ev: Any) -> tuple[str, str]:
    """(read point, code) of a SHOE_ERROR event: the board's ERR code (READER, OVERFLOW,
    FATAL ...), or "malformed" for a frame or tag the link could not take; the point is
    "" when the frame was too garbled to name one."""
    detail = str(ev.detail or "")
    if detail.startswith("bad tag"):
        return (ev.point, "malformed")
    if detail.startswith("bad "):
        return ("", "malformed")
    return (ev.point, detail.split(",")[0] or "malformed")


def _merge(old: Any, new: Any) -> Any:
    """The new deck over the old map (a re-enrolled deck replaces the tags of its cards)."""
    from device.shoe.deckmap import DeckMap

    kept = {uid: card for uid, card in old.cards.items() if uid not in new.cards}
    return DeckMap({**kept, **new.cards}, new.name)


# -- words -----------------------------------------------------------------------------------


def card_words(card: Card | None) -> str:
    """A card as the table writes it: ``J♦``, ``10♣`` (the suit's symbol, any language)."""
    return card_label(card) if card is not None else "?"


def prompt_text(prompt: Prompt, name: Callable[[int], str], *, dealing: bool = False) -> str:
    """The table's question in its language: what happened, who acts, what ends it."""
    who = name(prompt.seat) if prompt.seat is not None and prompt.seat >= 0 else ""
    card = card_words(prompt.card)
    k, why = prompt.kind, prompt.why
    if k is PromptKind.REPASS:
        if why in ERROR_WHYS:
            where = {SHOE: _("The shoe's reader"), SLOT: _("The slot's reader")}.get(
                prompt.point, _("A card reader"))
            return _("{where} had an error: pass the last card again; if none was passing, "
                     "touch OK").format(where=where)
        if prompt.point == SLOT:
            return _("{name}: the slot did not read your card: take it out and push it through again").format(
                name=who or _("The player in turn"))
        if why == "double":
            return _("Two cards came out of the shoe at once: put them back on top and pass them one at a time")
        if dealing or not who:
            return _("The shoe did not read that card: put it back on top and deal it again")
        return _("{name}: the shoe did not read your card: put it back on top and draw it again").format(name=who)
    if k is PromptKind.NOT_DUE:
        if why == "stopped":
            return _("The game is stopped: put the {card} back on top of the shoe, then touch OK").format(card=card)
        if who:
            return _("No draw is due: {name}, put the {card} back into the shoe, then tap DRAW").format(
                name=who, card=card)
        return _("Someone took the {card} from the shoe, but no draw is due: put it back on top, "
                 "then touch OK").format(card=card)
    if k is PromptKind.OUT_OF_TURN:
        if why == "dealing":
            if who:
                return _("The {card} went into the slot during the deal: take it back from the tray "
                         "and give it to {name}, then touch OK").format(card=card, name=who)
            return _("The {card} went into the slot during the deal: take it back from the tray, "
                     "then touch OK").format(card=card)
        if why == "not_back":
            return _("The {card} was to go back into the shoe: take it from the tray, put it on top "
                     "of the shoe, then touch OK").format(card=card)
        if why == "discard_taken_card":
            return _("{name}: you may not discard the {card} you just took: take it back from the "
                     "tray, then tap DRAW").format(name=who or _("The player in turn"), card=card)
        if why == "stopped":
            if who:
                return _("{name}: the game is stopped: take the {card} back from the tray, then tap DRAW").format(
                    name=who, card=card)
            return _("The game is stopped: take the {card} back from the tray, then touch OK").format(card=card)
        if why and "knock" in why:  # a knock the rules refuse (G-7.2, G-8.3 "reject", G-13.3)
            return _("{name}: the rules refuse this knock: take the {card} back from the tray, "
                     "then tap DRAW").format(name=who or _("The player in turn"), card=card)
        if why:  # an engine refusal of this discard (its code): the card goes back to him
            return _("{name}: the {card} may not be discarded now: take it back from the tray, "
                     "then tap DRAW").format(name=who or _("The player in turn"), card=card)
        if who:
            return _("{name}: the {card} went into the slot out of turn: take it back from the tray, "
                     "then tap DRAW").format(name=who, card=card)
        return _("The {card} went into the slot out of turn: take it back from the tray, then touch OK").format(
            card=card)
    if k is PromptKind.UNKNOWN_TAG:
        return _("Unknown card (tag {uid}): the game stops. Operator (PIN): name the card, "
                 "or void the hand").format(uid=prompt.uid or "?")
    if k is PromptKind.MISPLACED:
        if why == "lost":
            return _("The shoe lost a read: the game stops. Operator: void the hand and deal again (PIN)")
        return _("The table has the {card} somewhere else already: the game stops. Operator: check the "
                 "cards, void the hand (PIN)").format(card=card)
    points = prompt.point
    if SLOT in points and SHOE not in points:
        if who:
            return _("The discard slot is unplugged: plug it in again; {name}, keep your discard "
                     "until it reads").format(name=who)
        return _("The discard slot is unplugged: plug it in again; the game goes on with no card lost")
    return _("The card shoe is unplugged: plug it in again; the game goes on with no card lost")


def deal_text(reads: RealCards, name: Callable[[int], str]) -> tuple[str, str]:
    """The deal screen's two lines: where the next card goes, and how far the deal is."""
    dealt, total, seat = reads.deal_progress()
    if seat is None:
        return ("", "")
    if seat == TABLE:
        first = _("Deal the last card face up: the upcard")
    else:
        first = _("Deal the next card to {name}").format(name=name(seat))
    return first, _("Card {n} of {total} out of the shoe").format(n=dealt + 1, total=total)


#: the phase that follows a deal: the calls the deal screen explains (G-4, C-5.1), the game's enum
FIRST_PHASE = {game: table.first_phase for game, table in GAMES.items()}


def help_lines(game: str, phases: Iterable[str] | None = None) -> list[str]:
    """The real-card calls of ``game``, phase by phase (the on-screen help); ``phases``:
    only those phases' calls (the deal screen: the phase after the deal)."""
    from display.table.i18n import _ as tr

    lines = [tr(READ_WORDS[SHOE]), tr(READ_WORDS[SLOT])]
    seen: set[tuple[str, str]] = set()
    wanted = None if phases is None else set(phases)
    for (phase, call), entry in CALL_TABLES[game].items():
        if wanted is not None and phase not in wanted:
            continue
        label = BUTTON_NAMES.get(str(call))
        if label is None or (str(call), entry.words) in seen:
            continue
        seen.add((str(call), entry.words))
        lines.append(f"{label}: {tr(entry.words)}")
    return lines


# -- the deal under way, kept beside the journal ----------------------------------------------


def pending_path(journal: Path) -> Path:
    return journal.with_name(journal.name + PENDING_SUFFIX)


def save_pending(journal: Path, cards: list[Card]) -> None:
    """The cards of the deal read so far, durably (a power cut mid-deal keeps them)."""
    path = pending_path(journal)
    if not cards:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"deal": [str(c) for c in cards]}, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_pending(journal: Path) -> list[Card]:
    try:
        data = json.loads(pending_path(journal).read_text(encoding="utf-8"))
        return [parse_card(c) for c in data.get("deal", [])]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


# -- the app's real-card mode ------------------------------------------------------------------


class RealMode:
    """Real-card mode of the app: the shoe, the match's reads, the table's questions on
    screen (drawn over the scene like the power-cut notice), the simulated players."""

    def __init__(self, app: Any, *, port: str | None = None, simulated: bool = False,
                 readers: Any = None) -> None:
        self.app = app
        self.readers = readers  # the simulated shoe and slot (sim, headless), or None
        self.shoe = TableShoe(app, port=port, simulated=simulated)
        self.rect: Any = None  # the question's box on screen (its OK is a touch on it)
        self._shown: object = None  # what the overlay showed last (a change redraws the scene)
        self._back: object = None  # when the shoe was last told its cards came back

    # -- matches ------------------------------------------------------------------------------
    @staticmethod
    def seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every seat holds real cards: people (a computer cannot hold them)."""
        return [{**s, "kind": "human"} for s in seats]

    def attach(self, match: Any) -> None:
        """A match began or resumed: its reads know the shoe's state and keep the deal
        under way beside the journal."""
        reads = match.reads
        journal = match.session.journal_path
        reads.on_change = lambda: save_pending(journal, reads.dealt)
        reads.on_learn = lambda uid, card: self.shoe.learn(uid, card) and None
        if reads.dealing():
            reads.restore(load_pending(journal))
            if reads.dealt:
                match.review_pending = False  # the deal goes on where it stopped
        if self.shoe.connected:
            reads.connected(self.shoe.points)
        else:
            reads.disconnected(POINTS)
        if self.shoe.connected:
            self.shoe.link.set_mode("deal")

    # -- each frame ---------------------------------------------------------------------------
    def on_event(self, ev: Any) -> None:
        self.shoe.on_event(ev)

    def update(self, now: float) -> None:
        """After the frame's input: answers by the seats' buttons, the shoe's LED, the
        simulated players (the deal screen when a deal is due is the app's
        ``follow_match``, :func:`display.scenes.match_scene`)."""
        m = self.app.match
        if m is not None and m.reads is not None:
            if m.reads.acknowledge():
                self.cards_back()
            p = m.reads.prompt
            from display.table.controller.real_cards import PromptKind

            self.shoe.set_led("again" if p is not None and p.kind is PromptKind.REPASS else "ok")
            dealing = m.reads.dealing() and not m.reads.dealt
            refill = m.reads.refill() is not None
            repass = p is not None and p.kind is PromptKind.REPASS and p.why == "double"
            back = (dealing, refill, repass, m.session.actions_applied if dealing or refill else None)
            if back != self._back and (dealing or refill or repass):
                self.cards_back()  # cards went back into the shoe: it may read them again
            self._back = back
        if self.readers is not None:
            self.readers.step(now)

    def cards_back(self) -> None:
        """A card went back into the shoe: it may come out again (the shoe forgets it)."""
        if self.shoe.connected:
            self.shoe.link.set_mode("deal")

    def touch(self, pos: tuple[float, float]) -> bool:
        """A touch on the question's box: its OK (a card put back / taken back)."""
        m = self.app.match
        if self.rect is None or m is None or m.reads is None or not self.rect.collidepoint(pos):
            return False
        if m.reads.answer():
            self.cards_back()
            self.app.real_changed()
        return True

    # -- on screen -----------------------------------------------------------------------------
    def overlay_text(self) -> str | None:
        m = self.app.match
        if m is not None and m.reads is not None and m.reads.prompt is not None:
            return prompt_text(m.reads.prompt, m.name, dealing=m.reads.dealing())
        banner = self.shoe.banner()
        if banner is None and m is not None and m.reads is not None and m.reads.refill() is not None:
            return _("The shoe is empty: put the discard pile, less its top card, into the shoe "
                     "(shuffled), then draw")  # C-10
        return banner

    def changed(self) -> bool:
        """Did the overlay's words change since it was drawn (the scene redraws under it)?"""
        return (self.overlay_text(), self.app.settings.language) != self._shown

    def draw(self, surf: Any, area: Any) -> Any:
        """The question (or the shoe's absence) over the scene; returns its rect or None."""
        import pygame

        from display import theme

        text = self.overlay_text()
        self._shown = (text, self.app.settings.language)
        if not text:
            self.rect = None
            return None
        box = pygame.Rect(0, 0, int(area.width * 0.92), max(96, int(area.height * 0.5)))
        box.center = area.center
        self.rect = box
        pygame.draw.rect(surf, theme.SHADOW, box.move(0, 3), border_radius=12)
        pygame.draw.rect(surf, PROMPT_BG, box, border_radius=12)
        pygame.draw.rect(surf, theme.GOLD, box, 2, border_radius=12)
        size = max(14, int(min(surf.get_size()) / 30))
        from display.scenes import PLAYING, kind_of

        flat = self.app.settings.layout == "flat" and self.app.scene is not None and \
            kind_of(self.app.scene.name) in PLAYING
        m = self.app.match
        ok = m is not None and m.reads is not None and m.reads.prompt is not None and m.reads.answerable()

        def paint(target: Any, rect: Any) -> None:
            """The words and, when a touch may answer, the OK the words ask for."""
            if not ok:
                theme.draw_paragraph(target, text, rect, size=size, bold=True)
                return
            ok_w = max(56, rect.width // 8)
            pill = pygame.Rect(rect.right - ok_w, rect.centery - min(rect.height, 56) // 2, ok_w, min(rect.height, 56))
            pygame.draw.rect(target, theme.GOLD, pill, border_radius=10)
            theme.draw_text(target, "OK", pill, size=size + 4, bold=True, colour=PROMPT_BG)
            theme.draw_paragraph(target, text, pygame.Rect(rect.left, rect.top, rect.width - ok_w - 10, rect.height),
                                 size=size, bold=True)

        if not flat:
            paint(surf, box.inflate(-24, -16))
            return box
        half = pygame.Rect(box.left, box.top, box.width, box.height // 2)  # a copy for the far side
        inner = half.inflate(-24, -8)
        local = pygame.Surface(inner.size).convert()
        local.fill(PROMPT_BG)
        paint(local, local.get_rect())
        surf.blit(pygame.transform.flip(local, True, True), inner)
        pygame.draw.line(surf, theme.GOLD, (box.left + 12, half.bottom), (box.right - 12, half.bottom), 1)
        paint(surf, inner.move(0, half.height))
        return box

    def summary(self) -> str:
        """The headless run's last line."""
        r = self.readers
        tally = getattr(r, "tally", None)
        if tally is None:
            return "real cards: 0 cards read, 0 faults recovered, 0 lost, 0 wrong"
        return (f"real cards: {tally.read} cards read, {tally.recovered} faults recovered, "
                f"{tally.lost} lost, {tally.wrong} wrong")

    def close(self) -> None:
        self.shoe.close()
        if self.readers is not None:
            self.readers.close()
