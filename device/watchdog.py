"""systemd notifications without a dependency: READY=1, WATCHDOG=1, STATUS=...

Every call is a no-op returning False when ``NOTIFY_SOCKET`` is unset (desktop, tests).
Send ``WATCHDOG=1`` from the main loop only, so a hung loop gets the service restarted.
"""

from __future__ import annotations

import os
import socket


def notify(state: str, *, environ: dict[str, str] | None = None) -> bool:
    """Send ``state`` (e.g. ``"READY=1\\nSTATUS=idle"``) to systemd; True if sent."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract socket namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode())
    except OSError:
        return False
    return True


def ready(status: str | None = None, *, environ: dict[str, str] | None = None) -> bool:
    """Tell systemd the service is up (after the first frame is drawn)."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""), environ=environ)


def watchdog(*, environ: dict[str, str] | None = None) -> bool:
    return notify("WATCHDOG=1", environ=environ)


watchdog_ping = watchdog  # the name display/table/hw.py looks for


def status(text: str, *, environ: dict[str, str] | None = None) -> bool:
    return notify("STATUS=" + text.replace("\n", " "), environ=environ)


def stopping(*, environ: dict[str, str] | None = None) -> bool:
    return notify("STOPPING=1", environ=environ)


def watchdog_interval(*, environ: dict[str, str] | None = None) -> float | None:
    """Seconds between WATCHDOG=1 pings (half of WatchdogSec), or None when not asked."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2e6
    except ValueError:
        return None
