"""After a power cut the table says so: a translated notice on the resumed table (or the
attract screen when nothing could be resumed), dismissed by a touch or after 10 s, never
over the hands' touch targets."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import FakeClock, text_log  # noqa: E402

from display import theme  # noqa: E402
from display.app import App  # noqa: E402
from display.notice import NOTICE_SECONDS, TEXTS, resume_notices  # noqa: E402
from display.table import i18n
from display.table.config import load_config  # noqa: E402
from rummy.session import ResumeResult  # noqa: E402


def _app(tmp_path, clock, **display) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    if display:
        from dataclasses import replace

        config = replace(config, display=replace(config.display, **display))
    return App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=5, clock=clock)


def _played_then_cut(tmp_path, clock, moves: int = 5) -> tuple[str, int]:
    """Start a gin match, play a few moves, then cut the power (nothing more is written)."""
    app = _app(tmp_path, clock)
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
    m = app.match
    for _ in range(moves):
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.submit(next((a for a in legal if a.kind in ("pass_upcard", "draw_stock")), legal[0]))
    digest, n = m.session.digest(), m.session.actions_applied
    m.session.close()
    app.hw.close()
    return digest, n


def _journal(tmp_path):
    (path,) = (tmp_path / "current").glob("*.jsonl")
    return path


def _click(app: App, pos, clock: FakeClock) -> None:
    app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)])
    clock.t += 0.05
    app.frame(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False)])
    clock.t += 0.05
    app.frame(events=[])


def _texts(app: App) -> list[theme.TextRecord]:
    with text_log() as log:
        app.scene.invalidate()
        app.frame(events=[])
        return list(log)


def test_resume_notices_from_the_resume_result():
    assert resume_notices(ResumeResult(None)) == []
    assert resume_notices(ResumeResult(object(), ["journal x: torn last line dropped"])) == ["resumed"]
    both = ResumeResult(object(), ["journal x is damaged at line 7"], damaged=[os.devnull])
    assert resume_notices(both) == ["resumed", "damaged"]
    engine_bug = ResumeResult(None, ["journal x could not be replayed (KeyError: 1); left in current/"],
                              unreadable=[Path("x.jsonl")])
    assert resume_notices(engine_bug) == ["unreadable"]
    # typed fields, not message text: the same words without the field say nothing
    assert resume_notices(ResumeResult(None, ["could not be replayed"])) == []


def test_torn_line_resumes_the_table_with_a_notice_clear_of_the_hands(tmp_path):
    clock = FakeClock()
    digest, n = _played_then_cut(tmp_path, clock)
    with open(_journal(tmp_path), "ab") as f:
        f.write(b'{"n": 99, "kind": "dra')  # the cut tore the last line
    app = _app(tmp_path, clock)
    app.start()
    assert app.scene.name == "gin_table"
    assert app.match.session.digest() == digest and app.match.session.actions_applied == n
    records = _texts(app)
    words = i18n._(TEXTS["resumed"]).split()
    shown = " ".join(r.text for r in records)
    assert " ".join(words[:4]) in shown, "the table says it was switched off"
    box = app.notice.rect
    assert box.width > 200 and box.height > 60
    assert all(r.fits for r in records if box.contains(r.box))
    hands = [t.rect for t in app.scene.targets if t.name.startswith(("card-", "panel-"))]
    assert hands and not any(box.colliderect(r) for r in hands), "the notice covers no hand"
    # a touch on the notice dismisses it and does nothing else
    _click(app, box.center, clock)
    assert app.notice is None
    assert app.match.session.actions_applied == n
    assert i18n._(TEXTS["resumed"]).split()[0] not in " ".join(r.text for r in _texts(app))
    app.close()


def _restarted(tmp_path, clock) -> App:
    """A match played then cut, and the app started again on its state."""
    _played_then_cut(tmp_path, clock)
    app = _app(tmp_path, clock)
    app.start()
    return app


def test_notice_goes_away_by_itself_after_ten_seconds(tmp_path):
    clock = FakeClock()
    app = _restarted(tmp_path, clock)
    app.frame(events=[])
    assert app.notice is not None
    clock.t += NOTICE_SECONDS - 0.5
    app.frame(events=[])
    assert app.notice is not None
    clock.t += 1.0
    app.frame(events=[])
    assert app.notice is None and app.scene.dirty is False  # redrawn without it
    app.close()


def test_unreadable_journal_goes_to_damaged_and_the_attract_screen_says_so_in_russian(tmp_path):
    clock = FakeClock()
    _played_then_cut(tmp_path, clock)
    path = _journal(tmp_path)
    path.write_bytes(b"not a journal header\n" + path.read_bytes().split(b"\n", 1)[1])
    app = _app(tmp_path, clock, language="ru")
    app.start()
    assert app.scene.name == "attract" and app.match is None
    assert [p.parent.name for p in (tmp_path / "damaged").glob("*.jsonl")], "moved aside, not deleted"
    assert app.notice is not None and app.notice.keys == ["damaged"]
    text = app.notice.text
    assert text and text != TEXTS["damaged"], "translated"
    records = _texts(app)
    assert any(r.text and r.text.split()[0] == text.split()[0] for r in records)
    # the play button stays reachable
    play = next(t for t in app.scene.targets if t.name == "play")
    assert not play.rect.colliderect(app.notice.rect)
    app.close()
    i18n.set_language("en")


def test_damaged_middle_line_keeps_the_hands_before_it_and_shows_both_notices(tmp_path):
    clock = FakeClock()
    _played_then_cut(tmp_path, clock, moves=6)
    path = _journal(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[4] = lines[4].replace(b'"seat"', b'"saet"')  # a bad CRC in the middle
    path.write_bytes(b"\n".join(lines))
    app = _app(tmp_path, clock, layout="upright")
    app.start()
    assert app.scene.name == "gin_table"
    assert app.notice.keys == ["resumed", "damaged"]
    assert app.match.session.actions_applied >= 2
    app.frame(events=[])
    assert app.notice.rect.width > 0
    app.close()


def test_notice_waits_off_the_operator_menu_and_starts_when_shown(tmp_path):
    clock = FakeClock()
    app = _restarted(tmp_path, clock)
    app.open_operator()  # before the first frame: the notice is not drawn over the PIN pad
    app.frame(events=[])
    assert app.scene.name == "operator"
    assert app.notice is not None and app.notice.shown_at is None and not app.notice.rect.width
    clock.t += NOTICE_SECONDS + 1
    app.frame(events=[])
    assert app.notice is not None, "its ten seconds start when it shows"
    app.close()
