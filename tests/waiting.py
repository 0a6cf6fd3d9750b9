"""Waiting in tests on a condition with a deadline, not on the wall clock.

``wait_until(pred, timeout)`` polls ``pred()`` every few milliseconds: a test goes on as
soon as the system has done what it waits for, and ``eventually(pred, timeout, what)``
fails the test (AssertionError naming ``what``) when the deadline passes first."""

from __future__ import annotations

import time
from collections.abc import Callable

STEP_S = 0.005


def wait_until(pred: Callable[[], object], timeout: float, step: float = STEP_S) -> bool:
    """True as soon as ``pred()`` is true; False once ``timeout`` seconds passed without."""
    end = time.monotonic() + timeout
    while True:
        if pred():
            return True
        if time.monotonic() >= end:
            return bool(pred())
        time.sleep(step)


def eventually(pred: Callable[[], object], timeout: float, what: str = "") -> None:
    """``wait_until`` or fail: the condition did not hold within ``timeout`` seconds."""
    assert wait_until(pred, timeout), f"not within {timeout} s: {what or pred}"
