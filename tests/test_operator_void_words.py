"""The operator's "void this hand" refused: the table says why in its own language (the
refusal code worded, or the storage fault), not ``str(exc)``, which is English for the log."""

from __future__ import annotations

from types import SimpleNamespace

from display.scenes.operator_real import refused_text, void
from display.table import i18n
from display.table.faults import storage_text
from display.table.refusal_text import TEXTS, refusal_text
from rummy.actions import ActionError
from rummy.gin.kinds import Refusal
from rummy.session import StorageError

NAMES = ("Ann", "Bob")


def test_operator_void_refusal_is_worded_in_the_tables_language():
    exc = ActionError(Refusal.NOTHING_TO_VOID)
    assert exc.code in TEXTS  # worded, not the "not now" fallback
    english = refusal_text(exc)
    reads = SimpleNamespace(operator_void=lambda: exc)
    match = SimpleNamespace(reads=reads, name=lambda s: NAMES[s], review_pending=True)
    scene = SimpleNamespace(app=SimpleNamespace(match=match), said="", dirty=False)
    i18n.set_language("ru")
    void(scene)
    assert scene.said == refusal_text(exc) and scene.said not in (english, str(exc))
    assert scene.dirty and match.review_pending  # refused: the hand and its review stay
    full = refused_text(match, StorageError("full", "cannot journal the move: No space left"))
    assert full == storage_text("full") and "No space" not in full
    assert refused_text(match, RuntimeError("boom")) == refusal_text("") != "boom"
