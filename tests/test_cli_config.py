"""``rummy-table config``: the operator's way to check the config file and set the PIN,
through the one installed command (no module path to remember)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "display.cli", "config", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_config_check_accepts_the_example_file():
    out = run("check", str(ROOT / "systemd" / "config.example.toml"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok:")


def test_config_check_reports_every_error_of_a_bad_file(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\nlanguage = "xx"\nfps = "fast"\n[nonsense]\n')
    out = run("check", str(bad))
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "language" in text and "fps" in text and "nonsense" in text


def test_the_command_list_names_config():
    out = subprocess.run([sys.executable, "-m", "display.cli", "--help"], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert "  config " in out.stdout
