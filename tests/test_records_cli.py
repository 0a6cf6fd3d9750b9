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
