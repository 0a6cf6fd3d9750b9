"""Tables in the league, end to end on a real PostgreSQL server: the app's config, a league
player seated with his PIN on the keypad, and two tables (one off line for a while) that
end with the same standings on both attract screens."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import FakeClock, click, target, text_log  # noqa: E402
from league_helpers import play_gin, seats_for, table_store  # noqa: E402
from league_helpers import sign_in as sign_in_at  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402
from league import ratings  # noqa: E402
from league.devserver import wait_until  # noqa: E402

SIZE = (800, 480)


def table_config(tmp_path: Path, login, league_db, *, host: str | None = None, name="t"):
    """A real config file for a table in the league (its password in a file)."""
    pw = tmp_path / f"{name}-password"
    pw.write_text(login.cred.password + "\n")
    pw.chmod(0o600)
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(
        "[league]\nenabled = true\n"
        f'host = "{host or league_db.cluster.host}"\nport = {league_db.cluster.port}\n'
        f'dbname = "{league_db.name}"\nuser = "{login.cred.role}"\n'
        f'password_file = "{pw}"\nsslmode = "disable"\ntable_id = {login.cred.table_id}\n'
        "connect_timeout_s = 2\n")
    state = tmp_path / f"{name}-state"
    config, errors = load_config(cfg, env={"RUMMY_TABLE_STATE_DIR": str(state)})
    assert errors == []
    return config, state


def make_app(config, state, mode="headless", clock=None):
    kw = {"clock": clock} if clock else {}
    # its matches are played by computers standing in for league players: recorded on purpose
    app = App(config, mode=mode, size=SIZE, state_dir=state, seed=3, matches=1000,
              record_bots=True, **kw)
    assert app.league is not None, app.problems
    app.league.worker.base_delay, app.league.worker.max_delay = 0.05, 0.3
    return app


def play(app, players, seed):
    """One gin match of league players at the app's table, recorded in its store (outbox on)
    and announced to its sync worker; the players signed in first (``sign_in``)."""
    with table_store(app.state_dir) as store:
        play_gin(app.state_dir, seed, seats_for(*players), store, target=1)
    app.league.match_recorded()


def sign_in(app, *player_ids):
    """Each player types his PIN at this table (the seating keypad's check, on its thread)."""
    for pid in player_ids:
        assert app.league.check_pin(pid, "2468").result(timeout=30) == "ok"


def attract_texts(app):
    app.goto("attract")
    return attract_texts_of(app)


def test_league_config_errors_all_at_once(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[league]\nenabled = true\nsslmode = "prefer"\nport = 0\npassword_file = "/nope"\n'
                   'ca_file = ""\nmystery = 1\n')
    _config, errors = load_config(cfg, env={})
    text = "\n".join(errors)
    for fragment in ("[league] port", "[league] mystery: unknown key", "[league]: host: ",
                     "[league]: user: ", "[league]: password_file: '/nope' cannot be read",
                     "[league]: sslmode: 'prefer' may send the password without TLS"):
        assert fragment in text, (fragment, errors)
    cfg.write_text('[league]\nenabled = true\nhost = "league.example.org"\nuser = "rt_x_1"\n'
                   f'password_file = "{cfg}"\n')
    _config, errors = load_config(cfg, env={})
    assert errors == [f"{cfg}: [league]: ca_file: sslmode 'verify-full' needs the CA certificate file"]
    config, errors = load_config(None, env={})
    assert errors == [] and config.league.enabled is False  # off by default


def test_a_table_without_the_league_is_unchanged(tmp_path):
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="headless", size=SIZE, state_dir=tmp_path)
    try:
        assert app.league is None and app.store.outbox is False
        app.goto("seating", game="gin")
        app.render()
        assert not any(t.name.startswith("league-") for t in app.scene.targets)
    finally:
        app.close()


def test_a_league_player_takes_a_seat_with_his_pin(league_db, tmp_path):
    login = league_db.table("The Crown", "Table 1")
    ann = league_db.player("Ann", "2580")
    league_db.player("Bob", "1111")
    config, state = table_config(tmp_path, login, league_db)
    clock = FakeClock()
    app = make_app(config, state, mode="sim", clock=clock)
    try:
        assert wait_until(lambda: len(app.league.cache.players()) == 2, 20)
        app.goto("seating", game="gin")
        app.render()
        click(app, target(app, "league-0").rect.center, clock)
        assert app.scene.name == "league_login"
        click(app, target(app, f"player-{ann}").rect.center, clock)
        assert app.scene.name == "keyboard" and app.scene.digits
        for d in "2581":  # a wrong PIN first
            click(app, target(app, f"key-{d}").rect.center, clock)
        assert app.scene.text == "2581" and "2581" not in "".join(attract_texts_of(app))
        click(app, target(app, "ok").rect.center, clock)
        assert app.scene.name == "league_login"
        assert wait_until(lambda: (app.frame(), app.scene.pending is None)[1], 20)
        assert "Wrong PIN" in app.scene.message
        click(app, target(app, f"player-{ann}").rect.center, clock)
        for d in "2580":
            click(app, target(app, f"key-{d}").rect.center, clock)
        shots = os.environ.get("LEAGUE_SCREENSHOT_DIR")
        if shots:
            pygame.image.save(app.screen.surface, str(Path(shots) / "league_pin.png"))
        click(app, target(app, "ok").rect.center, clock)
        assert wait_until(lambda: (app.frame(), app.scene.name == "seating")[1], 20)
        if shots:
            app.render()
            pygame.image.save(app.screen.surface, str(Path(shots) / "league_seating.png"))
        seats = app.scene.seats()
        assert seats[0] == {"name": "Ann", "kind": "human", "bot": "medium", "named": True,
                            "league_id": ann}
        assert "league_id" not in seats[1]  # seat 2 is still a guest (a computer)
        # a typed name makes the seat a guest again
        app.scene.edit_name(0)
        app.scene.on_done("Annie")
        assert "league_id" not in app.scene.seats()[0]
    finally:
        app.close()


def attract_texts_of(app):
    """Every text drawn on the current scene."""
    with text_log() as log:
        app.scene.invalidate()
        app.render()
        return [r.text for r in log]


def test_two_tables_one_offline_end_with_the_same_standings(league_db, tmp_path):
    a_login = league_db.table("The Crown", "Table 1")
    b_login = league_db.table("The Crown", "Table 2")
    ids = {n: league_db.player(n) for n in ("Ann", "Bob", "Cy", "Di")}
    away = tmp_path / "b-uplink"  # table B's way to the server: missing for a while
    config_a, state_a = table_config(tmp_path, a_login, league_db, name="a")
    config_b, state_b = table_config(tmp_path, b_login, league_db, host=str(away), name="b")
    app_a = make_app(config_a, state_a)
    app_b = make_app(config_b, state_b)
    try:
        sign_in(app_a, *ids.values())
        away.symlink_to(league_db.cluster.host)  # B on line while the players sign in
        sign_in(app_b, *ids.values())
        away.unlink()  # then its network goes: its open connection too
        league_db.conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE usename = %s", (b_login.cred.role,))
        pairs = [("Ann", "Bob"), ("Cy", "Di"), ("Ann", "Cy"), ("Bob", "Di")]
        for i, (x, y) in enumerate(pairs * 2):
            play(app_a, [(x, ids[x]), (y, ids[y])], seed=i)
            play(app_b, [(x, ids[x]), (y, ids[y])], seed=100 + i)
        assert wait_until(lambda: app_a.league.cache.pending() == 0, 30)
        assert app_b.league.cache.pending() == 8  # B is off line: its matches wait
        assert wait_until(lambda: app_b.league.worker.status.failures > 0, 30)
        assert league_db.count("SELECT count(*) FROM league.matches") == 8
        away.symlink_to(league_db.cluster.host)  # B's network comes back
        assert wait_until(lambda: app_b.league.cache.pending() == 0
                          and app_b.league.worker.status.failures == 0, 30)
        with league_db.operator() as op:  # the operator rates the season
            assert ratings.rate(op) == {"gin": 16}
        app_a.league.match_recorded()  # both tables refresh (on their timers, or now)
        app_b.league.match_recorded()
        server = sorted(league_db.conn.execute(
            "SELECT name, played, won, points, round(rating::numeric, 6)::float"
            " FROM league.venue_standings WHERE venue = 'The Crown'").fetchall())
        assert sum(r[1] for r in server) == 32  # 16 matches x 2 seats, none twice

        def cached(app):
            return sorted((s.name, s.played, s.won, s.points, round(s.rating or 0, 6))
                          for s in app.league_standings("gin"))

        assert wait_until(lambda: cached(app_a) == cached(app_b) == server, 30)
        texts_a, texts_b = attract_texts(app_a), attract_texts(app_b)

        def panel(texts):  # the heading, then rank+name and "won of played" for 4 players
            head = next(i for i, t in enumerate(texts) if t.startswith("League at The Crown"))
            return texts[head:head + 9]

        assert panel(texts_a) == panel(texts_b)
        rows = panel(texts_a)[1:]
        assert [t.split(". ", 1)[1] for t in rows[::2]] == [
            s.name for s in app_a.league_standings("gin")]
        assert sorted(rows[1::2]) == sorted(f"{r[2]} won of {r[1]}" for r in server)
        assert [s.name for s in app_a.league_standings("gin")] == [
            r[0] for r in sorted(server, key=lambda r: -r[4])]  # by rating
        shots = Path(os.environ.get("LEAGUE_SCREENSHOT_DIR", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        attract_texts(app_a)
        pygame.image.save(app_a.screen.surface, str(shots / "league_attract.png"))
        app_a.goto("leaderboard")
        app_a.scene.set_game("league")
        app_a.render()
        assert sorted((r.name, r.played, r.won, r.points) for r in app_a.scene.rows) == [
            r[:4] for r in server]
        pygame.image.save(app_a.screen.surface, str(shots / "league_leaderboard.png"))
    finally:
        app_b.close()
        app_a.close()


@pytest.mark.parametrize("answer,words", [("locked", "ten minutes"), ("offline", "guest")])
def test_the_login_screen_says_why_a_pin_was_not_taken(league_db, tmp_path, answer, words):
    from concurrent.futures import Future

    login = league_db.table("The Crown", "Table 1")
    config, state = table_config(tmp_path, login, league_db)
    app = make_app(config, state, mode="sim")
    try:
        picked = []
        app.goto("league_login", seat=0, on_done=picked.append)
        fut: Future[str] = Future()
        fut.set_result(answer)  # the answer the check thread gives
        app.scene.pending = (1, "Ann", fut)
        app.frame()
        assert words in app.scene.message and picked == []
        click(app, target(app, "guest").rect.center, FakeClock())
        assert picked == [None]
    finally:
        app.close()


def test_table_cli_status_and_sync(league_db, tmp_path, capsys, monkeypatch):
    from league.cli import main as league_main

    login = league_db.table("The Crown", "Table 1")
    ann = league_db.player("Ann")
    _config, state = table_config(tmp_path, login, league_db)
    sign_in_at(login, state, ann)
    with table_store(state) as store:
        for i in range(3):
            play_gin(state, i, seats_for(("Ann", ann), ("Bob", None)), store, target=1)
    cfg = str(tmp_path / "t.toml")
    monkeypatch.setenv("RUMMY_TABLE_STATE_DIR", str(state))
    assert league_main(["status", "--config", cfg]) == 0
    assert "matches waiting to be sent: 3" in capsys.readouterr().out
    assert league_main(["sync", "--config", cfg]) == 0
    assert "sent 3 match(es); 0 waiting" in capsys.readouterr().out
    assert league_main(["status", "--config", cfg]) == 0
    out = capsys.readouterr().out
    assert "venue: The Crown" in out and "waiting to be sent: 0" in out
    assert league_db.count("SELECT count(*) FROM league.matches") == 3
