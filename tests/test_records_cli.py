"""``rummy-table records``: every subcommand in --help, clear refusals for bad arguments,
options before or after the subcommand."""

from __future__ import annotations

import subprocess
import sys

import pytest

from display.cli import main as cli_main
from display.records_cli import main as records_main
from rummy.store import DB_NAME, Store

SUBCOMMANDS = ("list", "leaderboard", "recall", "export", "import")


def test_help_lists_every_subcommand(capsys):
    assert records_main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert f"    {name} " in out, f"{name} missing from records --help:\n{out}"
    assert records_main(["recall", "--help"]) == 0
    assert "how many hands (1 or more, default 10)" in capsys.readouterr().out
    assert cli_main(["--help"]) == 0
    top = capsys.readouterr().out
    assert "recall" in top and "import" in top


@pytest.mark.parametrize("arg, words", [
    ("abc", "'abc' is not a number of hands"),
    ("0", "0 hands: give 1 or more"),
    ("-2", "-2 hands: give 1 or more"),
    ("2.5", "'2.5' is not a number of hands"),
])
def test_recall_refuses_what_is_not_a_count_of_hands(tmp_path, capsys, arg, words):
    with Store(tmp_path / DB_NAME):
        pass
    assert records_main(["recall", arg, "--state-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and "Traceback" not in captured.err
    assert "no hands recorded yet" not in captured.out


def test_recall_and_export_arguments_as_a_user_types_them(tmp_path):
    with Store(tmp_path / DB_NAME):
        pass
    for argv in (["recall", "abc"], ["export"], ["frobnicate"], ["list", "--limit", "x"]):
        proc = subprocess.run([sys.executable, "-m", "display.cli", "records", *argv,
                               "--state-dir", str(tmp_path)], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
        assert "error:" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith("usage: rummy-table records")


def test_state_dir_before_or_after_the_subcommand(tmp_path, capsys):
    assert records_main(["--state-dir", str(tmp_path), "recall", "3"]) == 0
    assert "no records yet" in capsys.readouterr().out
    assert records_main(["recall", "3", "--state-dir", str(tmp_path)]) == 0
    assert "no records yet" in capsys.readouterr().out
    assert records_main(["--state-dir", str(tmp_path)]) == 0  # no command: list
    assert "no records yet" in capsys.readouterr().out


def _play(state_dir, game, names, seed):
    from rummy.players import player as basic_player
    from rummy.session import MatchSession
    from rummy.session_runner import default_rules, next_action

    rules, preset = default_rules(game, None)
    seats = [{"name": n, "kind": "human", "named": True} for n in names]
    with Store(state_dir / DB_NAME) as store:
        s = MatchSession.start(state_dir, game, rules, seats, seed=seed, preset=preset, fsync=False)
        bots = [basic_player(game) for _ in seats]
        while not s.is_over:
            s.apply(next_action(s, bots))
        s.finish(store)
        return store.last_hands(10)


def test_recall_names_the_players_and_brief_gives_one_block_per_hand(tmp_path, capsys):
    hands = _play(tmp_path, "gin", ("Ann", "Bob"), 7)
    sd = ["--state-dir", str(tmp_path)]
    assert records_main(["recall", "3", "--brief", *sd]) == 0
    brief = capsys.readouterr().out
    blocks = [b for b in brief.split("\n\n") if b.strip()]
    assert len(blocks) == 3 and all(b.startswith("== Gin · hand ") for b in blocks)
    assert "seat 0" not in brief and "seat 1" not in brief
    for block, rec in zip(blocks, hands[:3], strict=True):
        scored = next(r["data"] for r in rec.results if r["kind"] == "hand_scored")
        if scored["outcome"] == "dead":
            assert "Dead hand" in block
            continue
        assert "dealt. The upcard was" in block
        assert block.count(": melds ") == 2 and block.count("deadwood") == 2  # both players
        assert f"scores {scored['points']} point" in block and "Game score: Ann" in block
    assert records_main(["recall", "3", *sd]) == 0
    full = capsys.readouterr().out
    assert "Ann's cards:" in full and "Bob's cards:" in full and " steps:" in full
    import re

    numbered = [x for x in full.splitlines() if re.match(r"^ +\d+\. ", x)]
    assert len(numbered) == sum(len(h.steps) for h in hands[:3])  # one numbered line a step
    assert sum(1 for x in numbered if x.split(".")[0].strip() == "1") == 3  # numbered per hand


def test_recall_of_a_contract_match_per_player_melds_layoffs_cards_left_penalty(tmp_path, capsys):
    hands = _play(tmp_path, "contract", ("Ann", "Bob", "Cy"), 4)
    assert records_main(["recall", "5", "--brief", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    blocks = [b for b in out.split("\n\n") if b.strip()]
    assert len(blocks) == 5 and blocks[0].startswith("== Contract · deal 5 · Ann – Bob – Cy")
    for block, rec in zip(blocks, hands[:5], strict=True):
        scored = next(r["data"] for r in rec.results if r["kind"] == "hand_scored")
        for seat, name in enumerate(rec.players):
            line = next(x for x in block.splitlines() if x.strip().startswith(f"{name}: melds"))
            assert "left in hand" in line
            assert line.rstrip().endswith(("point", "points")) and str(scored["points"][seat]) in line
        assert "Scores: Ann" in block
    assert "Bob won the match" in blocks[0] or "won the match" in blocks[0] or "share the win" in blocks[0]
