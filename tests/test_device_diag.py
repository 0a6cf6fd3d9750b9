"""``rummy-table diag`` against mock buttons and the simulated shoe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from device import diag
from device.shoe.deckmap import DeckMap
from rummy.cards import ALL_CARDS, format_cards

ROOT = Path(__file__).resolve().parents[1]


def start_sim(tmp_path, *args):
    link = str(tmp_path / "shoe")
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.shoe.sim", "--link", link, "--duration", "20", *args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout.readline().startswith("PTY ")
    return proc, link


def test_diag_shows_presses_lamps_and_shoe_cards(tmp_path, capsys):
    proc, link = start_sim(tmp_path, "--order", "AS KH 7D", "--interval", "0.05")
    try:
        rc = diag.main(
            [
                "--mock",
                "--demo",
                "--shoe",
                link,
                "--sim-decks",
                "1",
                "--seconds",
                "2",
                "--lamp-step",
                "0.01",
            ]
        )
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    out = capsys.readouterr().out
    assert rc == 0
    assert "pin factory: MockFactory" in out
    assert out.count("lamp seat ") == 6
    assert "seat 0 BUY press (sim)" in out and "seat 0 BUY release (sim)" in out
    assert "shoe connected on" in out and "firmware sim-0.3.0" in out
    assert "read points shoe+slot" in out and "shoe card AS uid" in out
    assert "cards read: AS KH 7D" in out
    assert "status: buttons presses=" in out and "cards=3" in out


def test_diag_enrols_a_deck_through_the_shoe(tmp_path, capsys):
    proc, link = start_sim(tmp_path, "--order", format_cards(ALL_CARDS), "--interval", "0.01")
    target = tmp_path / "deck-1.map"
    try:
        rc = diag.main(["--no-buttons", "--shoe", link, "--enrol", str(target), "--seconds", "10"])
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    assert rc == 0
    assert "deck map written" in capsys.readouterr().out
    assert DeckMap.load(target).cards == DeckMap.simulated(1).cards


def test_diag_reports_an_absent_shoe(capsys, tmp_path):
    rc = diag.main(
        ["--mock", "--shoe", str(tmp_path / "nope"), "--seconds", "0.3", "--lamp-step", "0"]
    )
    assert rc == 0
    assert "not connected (cannot open" in capsys.readouterr().out


def test_diag_reports_config_errors_all_at_once(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text('[buttons.seats.0]\ndraw = "17"\nbuy = "GPIO9"\n')
    assert diag.main(["--mock", "--config", str(config), "--seconds", "0"]) == 2
    out = capsys.readouterr().out
    assert "must be written like 'GPIO17'" in out and "GPIO9 is SPI0 MISO" in out


def test_demo_needs_mock(capsys):
    assert diag.main(["--demo"]) == 2
    assert "--demo needs --mock" in capsys.readouterr().err


def test_without_lgpio_it_fails_loudly(monkeypatch, capsys):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nonsense")
    assert diag.main(["--seconds", "0"]) == 1
    assert "unknown pin factory 'nonsense'" in capsys.readouterr().err
