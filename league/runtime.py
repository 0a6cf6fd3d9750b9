"""The league on a running table: the connection settings, the sync worker, the cache and
PIN checks off the main loop. ``TableLeague.start(config.league, db_path)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from psycopg.conninfo import make_conninfo

from league import local, sync


def conninfo(cfg: Any) -> Callable[[], str]:
    """A function building the libpq connection string from ``[league]`` (the password file
    is read at each connection, so a changed password needs no restart)."""
    def build() -> str:
        params: dict[str, Any] = {}
        if not cfg.dsn:
            params.update(host=cfg.host, port=cfg.port, dbname=cfg.dbname)
        if cfg.user:
            params["user"] = cfg.user
        if cfg.password_file:
            params["password"] = Path(cfg.password_file).read_text(encoding="utf-8").strip()
        if cfg.ca_file:
            params["sslrootcert"] = cfg.ca_file
        params.update(sslmode=cfg.sslmode, connect_timeout=cfg.connect_timeout_s,
                      application_name=f"rummy-table {cfg.table_id or ''}".strip(),
                      keepalives=1, keepalives_idle=10, keepalives_interval=5,
                      keepalives_count=3, options="-c statement_timeout=30000")
        return make_conninfo(cfg.dsn, **params)
    return build


class TableLeague:
    """The table's side: a sync worker thread, the cached standings, PIN checks."""

    def __init__(self, cfg: Any, db_path: str | os.PathLike[str], *,
                 worker_options: dict[str, Any] | None = None) -> None:
        self.cfg = cfg
        self.info = conninfo(cfg)
        self.cache = local.LocalLeague(db_path)
        self.changed = False  # set by the worker after a refresh; the display clears it
        self.worker = sync.SyncWorker(db_path, self.info, table_id=cfg.table_id or None,
                                      on_change=self._changed, **(worker_options or {}))
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="league-pin")

    @classmethod
    def start(cls, cfg: Any, db_path: str | os.PathLike[str], **kw: Any) -> TableLeague:
        league = cls(cfg, db_path, **kw)
        league.worker.start()
        return league

    def _changed(self) -> None:
        self.changed = True

    def match_recorded(self) -> None:
        self.worker.notify()

    def check_pin(self, player_id: int, pin: str) -> Future[str]:
        """``ok``/``wrong``/``locked``/``unknown``/``offline``, answered on another thread
        (its own SQLite connection for the PIN cache)."""
        def job() -> str:
            cache = local.LocalLeague(self.cache.db_path)
            try:
                return sync.check_pin(self.info, cache, player_id, pin,
                                      timeout=self.cfg.connect_timeout_s)
            finally:
                cache.close()
        return self._pool.submit(job)

    def close(self) -> None:
        self.worker.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.cache.close()
