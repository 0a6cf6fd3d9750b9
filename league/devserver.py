"""A throwaway PostgreSQL cluster for tests and benchmarks (Debian's server binaries).

``Cluster(dir).start()`` runs ``initdb`` and ``pg_ctl`` as an unprivileged user (the
current one, or ``nobody`` when running as root, through ``runuser``), listening only on a
Unix socket in ``dir`` (no TCP port). The superuser ``postgres`` logs in with a password
(scram-sha-256) so wrong passwords are really refused.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

SUPERUSER = "postgres"
SUPERPASS = "postgres-test-only"
UNPRIVILEGED = ("rummyci", "nobody")


def find_bin(name: str) -> str | None:
    """``initdb``/``pg_ctl`` on PATH or in ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        if os.access(path, os.X_OK):
            return path
    return None


def available() -> str | None:
    """None when a cluster can be started here, else the reason it cannot."""
    missing = [b for b in ("initdb", "pg_ctl", "postgres") if find_bin(b) is None]
    if missing:
        return f"PostgreSQL server binaries not found ({', '.join(missing)}): apt-get install postgresql"
    if os.geteuid() == 0 and _run_as() is None:
        return "running as root and no unprivileged user (rummyci, nobody) to run the server"
    return None


def _run_as() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in UNPRIVILEGED:
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


class Cluster:
    """One cluster in ``root`` (``root/data``, the socket in ``root``)."""

    def __init__(self, root: str | os.PathLike[str], *, port: int = 5432) -> None:
        self.root = Path(root)
        self.data = self.root / "data"
        self.port = port
        self.user = _run_as()
        self.log = self.root / "server.log"

    @property
    def host(self) -> str:
        return str(self.root)

    def dsn(self, dbname: str = "postgres", user: str = SUPERUSER, password: str | None = SUPERPASS,
            **extra: str) -> str:
        parts = {"host": self.host, "port": str(self.port), "dbname": dbname, "user": user,
                 "sslmode": "disable", **extra}
        if password is not None:
            parts["password"] = password
        return " ".join(f"{k}='{v}'" for k, v in parts.items())

    def _cmd(self, *argv: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *argv] if self.user else list(argv)

    def _own(self, path: Path) -> None:
        if self.user:
            pw = pwd.getpwnam(self.user)
            os.chown(path, pw.pw_uid, pw.pw_gid)

    def init(self) -> Cluster:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        self._own(self.root)
        pwfile = self.root / "pw"
        pwfile.write_text(SUPERPASS + "\n")
        self._own(pwfile)
        subprocess.run(self._cmd(find_bin("initdb") or "initdb", "-D", str(self.data), "-U",
                                 SUPERUSER, "--pwfile", str(pwfile), "--auth=scram-sha-256",
                                 "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"),
                       check=True, capture_output=True, timeout=120)
        pwfile.unlink()
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as f:
            f.write(f"\nlisten_addresses = ''\nunix_socket_directories = '{self.root}'\n"
                    f"port = {self.port}\nfsync = off\nmax_connections = 300\n"
                    "shared_buffers = 32MB\nlog_min_messages = warning\n")
        return self

    def pg_ctl(self, *args: str, timeout: float = 120) -> None:
        log = ["-l", str(self.log)] if args[0] in ("start", "restart") else []
        subprocess.run(self._cmd(find_bin("pg_ctl") or "pg_ctl", "-D", str(self.data), "-w",
                                 "-t", str(int(timeout)), *log, *args),
                       check=True, capture_output=True, timeout=timeout + 10)

    def start(self) -> Cluster:
        if not (self.data / "PG_VERSION").exists():
            self.init()
        self.pg_ctl("start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self.pg_ctl("stop", "-m", mode)

    def restart(self) -> None:
        self.pg_ctl("restart", "-m", "fast")

    def is_running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def create_database(self, name: str) -> str:
        """A new empty database; returns its superuser DSN."""
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def destroy(self) -> None:
        if self.is_running():
            try:
                self.stop("immediate")
            except subprocess.SubprocessError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)


def wait_until(pred: Callable[[], object], timeout: float = 30.0, step: float = 0.05) -> bool:
    """Poll ``pred()`` until true or ``timeout`` seconds passed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return bool(pred())
