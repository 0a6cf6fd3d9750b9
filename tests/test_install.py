"""systemd/install.sh against a temporary root: files, recorded commands, idempotency, uninstall."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from display.config import check_pin, load_config

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "systemd" / "install.sh"
CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles")
GROUPS = "root:x:0:\nvideo:x:44:pi\ninput:x:105:pi\nrender:x:106:pi\ngpio:x:997:pi\ndialout:x:20:pi\n"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def fake_root(tmp_path):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "etc" / "os-release").write_text('ID=debian\nVERSION_CODENAME=bookworm\n')
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text(GROUPS)
    (root / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE + "\n")
    return root


def install(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["bash", str(SCRIPT), "--root", str(root), *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def log_lines(root: Path) -> list[str]:
    path = root / "rummy-table-install.log"
    return path.read_text().splitlines() if path.exists() else []


def tree(root: Path) -> dict[str, str]:
    """Every file under root (except the command log) with its sha256 and mode."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name != "rummy-table-install.log":
            out[str(p.relative_to(root))] = (hashlib.sha256(p.read_bytes()).hexdigest()
                                             + oct(p.stat().st_mode & 0o777))
    return out


def test_install_writes_files_and_records_system_commands(fake_root):
    proc = install(fake_root)
    etc = fake_root / "etc"
    assert (etc / "systemd/system/rummy-table.service").read_bytes() == \
        (ROOT / "systemd/rummy-table.service").read_bytes()
    assert (etc / "systemd/system/rummy-table-cage.service").exists()
    assert (etc / "udev/rules.d/99-rummy-shoe.rules").exists()
    assert not (etc / "pam.d/rummy-table-cage").exists()
    assert (fake_root / "opt/rummy-table/src/pyproject.toml").exists()
    assert (fake_root / "opt/rummy-table/src/rummy/session.py").exists()
    assert not (fake_root / "opt/rummy-table/src/.git").exists()
    assert not (fake_root / "opt/rummy-table/src/.venv").exists()
    assert (fake_root / "var/lib/rummy-table").is_dir()
    cfg = etc / "rummy-table/config.toml"
    assert oct(cfg.stat().st_mode & 0o777) == "0o640"
    config, errors = load_config(cfg, env={"HOME": "/nonexistent"})
    assert errors == [] and check_pin(config, "1234")
    log = log_lines(fake_root)
    for expected in (
        "apt-get install -y --no-install-recommends python3-venv python3-pip python3-lgpio "
        "libgbm1 libdrm2",
        "useradd --system --user-group --home-dir /var/lib/rummy-table --no-create-home "
        "--shell /usr/sbin/nologin --comment Rummy Table kiosk rummy",
        "python3 -m venv --system-site-packages /opt/rummy-table/venv",
        "/opt/rummy-table/venv/bin/pip install --quiet --upgrade /opt/rummy-table/src",
        "chown root:rummy /etc/rummy-table/config.toml",
        "systemctl daemon-reload",
        "systemctl disable rummy-table-cage.service",
        "systemctl disable getty@tty1.service",
        "systemctl enable rummy-table.service",
        "/opt/rummy-table/venv/bin/python -m display.config check /etc/rummy-table/config.toml",
    ):
        assert expected in log, f"{expected!r} not recorded in {log}"
    for group in ("video", "render", "input", "gpio", "dialout"):
        assert f"usermod --append --groups {group} rummy" in log
        line = next(x for x in (etc / "group").read_text().splitlines() if x.startswith(group))
        assert line.endswith(",rummy") and "pi" in line
    assert "rummy:x:999:999:Rummy Table kiosk:/var/lib/rummy-table:/usr/sbin/nologin" in \
        (etc / "passwd").read_text()
    assert not any(x.startswith("systemctl restart") for x in log)
    assert "reboot to start" in proc.stdout
    cmdline = (fake_root / "boot/firmware/cmdline.txt").read_text()
    assert cmdline == CMDLINE + " consoleblank=0\n"  # still one line


def test_install_is_idempotent(fake_root):
    install(fake_root)
    first_tree, first_log = tree(fake_root), log_lines(fake_root)
    proc = install(fake_root)
    assert tree(fake_root) == first_tree
    second_log = log_lines(fake_root)[len(first_log):]
    assert not any(x.startswith(("useradd", "usermod", "groupadd", "python3 -m venv"))
                   for x in second_log)
    assert "systemctl enable rummy-table.service" in second_log
    assert (fake_root / "boot/firmware/cmdline.txt").read_text().count("consoleblank=0") == 1
    assert "kept the existing config" in proc.stdout


def test_rerun_keeps_operator_config_and_updates_app(fake_root):
    install(fake_root)
    cfg = fake_root / "etc/rummy-table/config.toml"
    cfg.write_text('[display]\nrotation = 180\n')
    stale = fake_root / "opt/rummy-table/src/stale_file.py"
    stale.write_text("x = 1\n")
    install(fake_root)
    assert cfg.read_text() == '[display]\nrotation = 180\n'
    assert not stale.exists()  # the source is replaced, not merged


def test_missing_groups_are_created(fake_root):
    (fake_root / "etc/group").write_text("root:x:0:\nvideo:x:44:\n")
    install(fake_root)
    log = log_lines(fake_root)
    assert "groupadd --system gpio" in log and "groupadd --system video" not in log
    group = (fake_root / "etc/group").read_text()
    assert "video:x:44:rummy" in group and "gpio:" in group


def test_cage_variant(fake_root):
    install(fake_root, "--cage", "--now")
    log = log_lines(fake_root)
    assert any(x.endswith(" cage") and x.startswith("apt-get install") for x in log)
    assert "systemctl enable rummy-table-cage.service" in log
    assert "systemctl disable rummy-table.service" in log
    assert "systemctl restart rummy-table-cage.service" in log
    pam = (fake_root / "etc/pam.d/rummy-table-cage").read_text()
    assert "pam_systemd.so" in pam


def test_destdir_env_is_the_same_as_root(fake_root):
    proc = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DESTDIR": str(fake_root)})
    assert proc.returncode == 0, proc.stderr
    assert (fake_root / "etc/systemd/system/rummy-table.service").exists()


def test_uninstall_undoes_install_but_keeps_records(fake_root):
    before = tree(fake_root)
    install(fake_root)
    state = fake_root / "var/lib/rummy-table/records.sqlite3"
    state.write_bytes(b"records")
    install(fake_root, "--uninstall")
    after = tree(fake_root)
    kept = {"etc/rummy-table/config.toml", "var/lib/rummy-table/records.sqlite3"}
    # Everything else is back as it was: units, udev rule, app, kernel command line.
    assert {k: v for k, v in after.items() if k not in kept and k not in ("etc/passwd", "etc/group")} \
        == {k: v for k, v in before.items() if k not in ("etc/passwd", "etc/group")}
    assert state.read_bytes() == b"records"
    assert (fake_root / "boot/firmware/cmdline.txt").read_text() == CMDLINE + "\n"
    log = log_lines(fake_root)
    assert "systemctl disable --now rummy-table.service rummy-table-cage.service" in log
    assert "systemctl enable getty@tty1.service" in log
    assert not (fake_root / "opt/rummy-table").exists()


def test_uninstall_purge_removes_config_records_and_user(fake_root):
    before = tree(fake_root)
    install(fake_root)
    install(fake_root, "--uninstall", "--purge")
    assert tree(fake_root) == before  # passwd and group included
    assert "userdel rummy" in log_lines(fake_root)


def test_blanking_already_off_is_left_alone_on_uninstall(fake_root):
    cmd = fake_root / "boot/firmware/cmdline.txt"
    cmd.write_text(CMDLINE + " consoleblank=0\n")
    install(fake_root)
    assert cmd.read_text().count("consoleblank=0") == 1
    install(fake_root, "--uninstall")
    assert cmd.read_text() == CMDLINE + " consoleblank=0\n"


def test_bad_option_and_bad_root_are_refused(tmp_path):
    proc = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True)
    assert proc.returncode == 2 and "unknown option '--frobnicate'" in proc.stderr
    proc = subprocess.run(["bash", str(SCRIPT), "--root", str(tmp_path / "nope")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "is not a directory" in proc.stderr


def test_installed_config_points_tools_at_the_service_state_dir(fake_root):
    install(fake_root)
    config, errors = load_config(fake_root / "etc/rummy-table/config.toml", env={"HOME": "/h"})
    assert errors == [] and config.paths.state_dir == "/var/lib/rummy-table"


def test_league_flag_installs_the_league_extra(fake_root):
    install(fake_root)
    assert not any("[league]" in line for line in log_lines(fake_root))
    (fake_root / "rummy-table-install.log").unlink()
    proc = install(fake_root, "--league")
    assert "/opt/rummy-table/venv/bin/pip install --quiet --upgrade /opt/rummy-table/src[league]" \
        in log_lines(fake_root), proc.stdout
    assert "--league" in subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True,
                                        text=True, timeout=30).stdout
