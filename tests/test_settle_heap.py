"""display.app.settle_heap as shipped (in the tests' own processes the app skips it:
tests/conftest.py): garbage is collected and what lives on is frozen, and what was frozen
at the last call and has become garbage since (the previous match) is collected at the
next one."""

from __future__ import annotations

import gc
import os
import weakref

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import display.app  # noqa: E402


class Node:
    other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a  # only the collector frees a cycle
    return a, weakref.ref(b)


def test_settle_heap_collects_freezes_and_thaws_the_last_freeze() -> None:
    fn = display.app.settle_heap
    settle = getattr(fn, "real", fn)
    assert (settle.__module__, settle.__name__) == ("display.app", "settle_heap")
    gc.disable()  # no collection but the ones settle_heap makes
    try:
        garbage, gone = cycle()
        del garbage
        live, kept = cycle()
        settle()
        assert gone() is None, "garbage is collected"
        assert kept() is not None and gc.get_freeze_count() > 0, "what lives on is frozen"
        del live  # the match is over: its frozen objects are garbage now
        settle()
        assert kept() is None, "the last freeze is thawed first, so its garbage is collected"
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
