"""systemd units, the udev rule and the CI verify script; no network listener in the app."""

from __future__ import annotations

import ast
import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = sorted((ROOT / "systemd").glob("*.service"))
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keep key case
    parser.read_string(path.read_text())
    return parser


def test_both_units_exist():
    assert [p.name for p in UNITS] == ["rummy-table-cage.service", "rummy-table.service"]


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_unit_kiosk_contract(path):
    u = unit(path)
    s = u["Service"]
    assert s["Type"] == "notify" and int(s["WatchdogSec"]) > 0
    assert s["Restart"] == "on-failure"
    assert s["User"] == "rummy"
    assert set(s["SupplementaryGroups"].split()) == {"video", "render", "input", "gpio", "dialout"}
    assert s["StateDirectory"] == "rummy-table"
    assert s["StandardOutput"] == "journal" and s["StandardError"] == "journal"
    assert "rummy-table kiosk" in s["ExecStart"]
    assert "StartLimitIntervalSec" in u["Unit"]  # [Unit], not [Service] (notes §6)
    assert "getty@tty1.service" in u["Unit"]["Conflicts"]
    # Hardening must not hide devices (DRM, evdev, gpiochip, ttyACM) or block sd_notify.
    assert "PrivateDevices" not in s and "DevicePolicy" not in s and "DeviceAllow" not in s
    assert "ProtectClock" not in s  # implies DeviceAllow=char-rtc: the device filter goes on
    assert "AF_UNIX" in s["RestrictAddressFamilies"]
    assert "AF_INET" not in s["RestrictAddressFamilies"]  # no network at all
    assert u["Install"]["WantedBy"] == "multi-user.target"


def test_kmsdrm_and_cage_differences():
    kms, cage = unit(ROOT / "systemd/rummy-table.service"), unit(ROOT / "systemd/rummy-table-cage.service")
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in (ROOT / "systemd/rummy-table.service").read_text()
    assert "Environment=SDL_VIDEODRIVER=wayland" in \
        (ROOT / "systemd/rummy-table-cage.service").read_text()
    assert kms["Service"]["NotifyAccess"] == "main"
    assert cage["Service"]["NotifyAccess"] == "all"  # the main PID is cage
    assert cage["Service"]["ExecStart"].startswith("/usr/bin/cage ")
    assert "-u WATCHDOG_PID" in cage["Service"]["ExecStart"]
    assert cage["Service"]["PAMName"] == "rummy-table-cage"
    assert (ROOT / "systemd/pam-rummy-table-cage").exists()
    assert "rummy-table-cage.service" in kms["Unit"]["Conflicts"]
    assert "rummy-table.service" in cage["Unit"]["Conflicts"]


def test_udev_rule_names_the_shoe():
    lines = [x for x in (ROOT / "systemd/99-rummy-shoe.rules").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    assert len(lines) == 2  # the shoe's tty, and the GPIO chips for the gpio group
    gpio = dict(re.findall(r'([A-Za-z_{}]+)(?:==|\+=|=)"([^"]*)"', lines[1]))
    assert gpio == {"SUBSYSTEM": "gpio", "KERNEL": "gpiochip*", "GROUP": "gpio", "MODE": "0660"}
    pairs = dict(re.findall(r'([A-Za-z_{}]+)(?:==|\+=|=)"([^"]*)"', lines[0]))
    assert pairs["SUBSYSTEM"] == "tty"
    assert pairs["ATTRS{idVendor}"] == "2e8a" and pairs["ATTRS{idProduct}"] == "0005"
    assert pairs["SYMLINK"] == "rummy-shoe" and pairs["GROUP"] == "dialout"
    assert 'SYMLINK+="rummy-shoe"' in lines[0]
    assert all(re.fullmatch(r'[A-Za-z_{}]+(==|\+=|=)"[^"]*"', p.strip())
               for p in lines[0].split(", "))


def test_shoe_port_default_matches_udev_rule():
    from display.table.config import ShoeConfig

    assert ShoeConfig().port == "/dev/rummy-shoe"


@pytest.mark.skipif(not Path(ANALYZE).exists(), reason="systemd-analyze not installed")
def test_ci_verify_script_passes_and_catches_a_bad_unit(tmp_path):
    proc = subprocess.run(["bash", str(ROOT / ".ci/run.d/systemd.sh")], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("CI systemd: ok") == len(UNITS)
    bad = tmp_path / "bad.service"
    text = (ROOT / "systemd/rummy-table.service").read_text()
    bad.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    bad_copy = tmp_path / "bad-copy.service"
    bad_copy.write_text(re.sub(r"(?m)^ExecStart=\S+", "ExecStart=/usr/bin/env", bad.read_text()))
    out = subprocess.run([ANALYZE, "verify", str(bad_copy)], capture_output=True, text=True,
                         timeout=60)
    assert "sometimes" in out.stdout + out.stderr  # a bad value produces output: CI fails on it


# -- operator safety: no network listener anywhere in the app ------------------------------
SOCKET_CALLS = {"bind", "listen", "accept"}  # flagged in files that import socket
SERVER_CALLS = {"serve_forever", "create_server", "start_server", "HTTPServer", "TCPServer",
                "UDPServer", "ThreadingHTTPServer", "socketpair_server"}
NET_MODULES = {"http.server", "socketserver", "xmlrpc.server", "asyncio", "ssl", "ftplib",
               "smtpd", "telnetlib", "wsgiref.simple_server"}


def python_files():
    for package in ("rummy", "device", "display"):
        yield from (ROOT / package).rglob("*.py")


def test_no_network_listener_in_the_app():
    problems = []
    for path in python_files():
        rel = path.relative_to(ROOT)
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        uses_socket = bool(re.search(r"^\s*(import socket|from socket import)", text, re.M))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""]
                for name in names:
                    if name in NET_MODULES or name.split(".")[0] in {"socketserver"}:
                        problems.append(f"{rel}:{node.lineno} imports {name}")
            elif isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in SERVER_CALLS or (uses_socket and name in SOCKET_CALLS):
                    problems.append(f"{rel}:{node.lineno} calls {name}()")
            elif isinstance(node, ast.Attribute) and node.attr in {"AF_INET", "AF_INET6"}:
                problems.append(f"{rel}:{node.lineno} uses socket.{node.attr}")
    assert not problems, "network code in the app:\n" + "\n".join(problems)


def test_only_socket_use_is_the_sd_notify_datagram_client():
    users = []
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        if re.search(r"^\s*(import socket|from socket import)", text, re.M):
            users.append(str(path.relative_to(ROOT)))
            assert "AF_UNIX" in text and "SOCK_DGRAM" in text, path
            assert "NOTIFY_SOCKET" in text, path
    assert set(users) <= {"device/watchdog.py"}
