"""What went wrong on the table, as codes, and the words for it (no pygame).

A :class:`Fault` is one problem the table found (at start or while playing): a ``code``
from :data:`WORDS`, the technical ``detail`` for the log and the operator, and whether the
table can still play. The fault screen (``display.scenes.failsafe.ConfigErrorScene``)
shows each fault's title and what to do in the table's language; the log line and the
systemd status say the same in one line each (``journalctl -u rummy-table``).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from display.table.i18n import N_, _

# code -> (title, what to do); msgids translated at draw time
WORDS: dict[str, tuple[str, str]] = {
    "config": (N_("The table's settings have errors"),
               N_("Fix the configuration file and restart. Until then the table uses its "
                  "built-in settings.")),
    "records": (N_("The records cannot be saved"),
                N_("Play goes on. Finished games are kept and recorded when the records "
                   "work again. Tell the operator.")),
    "storage_full": (N_("The table's storage is full"),
                     N_("Games cannot be saved until space is freed; moves wait until then. "
                        "Tell the operator.")),
    "storage_read_only": (N_("The table's storage is read-only"),
                          N_("Games cannot be saved, so no game can start until it is "
                             "repaired. Tell the operator.")),
    "storage_io": (N_("The table's storage does not work"),
                   N_("Games cannot be saved, so no game can start until it is repaired. "
                      "Tell the operator.")),
    "journal": (N_("A game record could not be read"),
                N_("It is kept for the operator; play goes on. Tell the operator.")),
    "fonts": (N_("The table's lettering is damaged"),
              N_("The table uses a plain font until the app is reinstalled. Tell the "
                 "operator.")),
    "startup": (N_("The table could not start properly"),
                N_("Tell the operator; the details are in the system log.")),
}
OPERATOR_HINT = N_("Operator: hold the top-left corner for 3 seconds (or F10) for the menu.")


@dataclass(frozen=True)
class Fault:
    """One problem: ``code`` (a key of :data:`WORDS`), ``detail`` for the log."""

    code: str
    detail: str = ""

    @property
    def plays(self) -> bool:
        """False when no match can be journalled (read-only or broken storage)."""
        return self.code not in ("storage_read_only", "storage_io")

    def title(self) -> str:
        return _(WORDS.get(self.code, WORDS["startup"])[0])

    def advice(self) -> str:
        return _(WORDS.get(self.code, WORDS["startup"])[1])

    def log_line(self) -> str:
        """One line for the journal (English msgids: the log is read by the operator)."""
        title = WORDS.get(self.code, WORDS["startup"])[0]
        return f"rummy-table: fault [{self.code}]: {title}: {one_line(self.detail)}"


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, at most ``limit`` characters (journalctl shows one entry each)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def storage_code(kind: str) -> str:
    """The fault code for a storage failure kind (``full``, ``read_only``, ``io``)."""
    return f"storage_{kind}" if f"storage_{kind}" in WORDS else "storage_io"


def storage_text(kind: str) -> str:
    """The words a refused move flashes: "The table's storage is full" etc."""
    return _(WORDS[storage_code(kind)][0])


def probe_storage(state_dir: Path) -> Fault | None:
    """Create, fsync and remove a small file in ``state_dir``: None when it can be
    written, else the fault (full, read-only, or another failure)."""
    probe = state_dir / ".write-probe"
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o640)
        try:
            os.write(fd, b"probe\n" * 16)
            os.fsync(fd)
        finally:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(probe)
    except OSError as exc:
        from rummy.records import storage_kind

        return Fault(storage_code(storage_kind(exc)), f"{state_dir}: {exc.strerror or exc}")
    return None
