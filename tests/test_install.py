"""systemd/install.sh against a temporary root: files, recorded commands, idempotency, an
empty root, a second run without network, only the app installed, uninstall, --help."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from display.table.config import check_pin, load_config

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


def app_install_lines(log: list[str]) -> list[str]:
    return [x for x in log if x.startswith("/opt/rummy-table/venv/bin/pip ")]


def network_lines(log: list[str]) -> list[str]:
    """Recorded commands that need the network: apt and pip."""
    return [x for x in log if x.startswith("apt-get") or " pip " in f" {x} " or "/pip " in x]


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
    # /opt holds the venv (the app goes in as a wheel) and the installer's two notes only
    opt = fake_root / "opt/rummy-table"
    assert sorted(p.name for p in opt.iterdir()) == ["install-stamp", "install-state", "venv"]
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
        "chown root:rummy /etc/rummy-table/config.toml",
        "systemctl daemon-reload",
        "systemctl disable rummy-table-cage.service",
        "systemctl disable getty@tty1.service",
        "systemctl enable rummy-table.service",
        "/opt/rummy-table/venv/bin/python -m display.table.config check /etc/rummy-table/config.toml",
    ):
        assert expected in log, f"{expected!r} not recorded in {log}"
    wheel = app_install_lines(log)
    assert len(wheel) == 3, log
    assert re.fullmatch(r"/opt/rummy-table/venv/bin/pip wheel --quiet --no-deps --wheel-dir "
                        r"(\S+)/dist \1/src", wheel[0])
    assert wheel[1].startswith("/opt/rummy-table/venv/bin/pip install --quiet /")
    assert wheel[1].endswith("/dist/rummy_table-0.1.0-py3-none-any.whl")
    assert wheel[2] == wheel[1].replace("--quiet", "--quiet --force-reinstall --no-deps")
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
    assert network_lines(second_log) == [] and network_lines(first_log) != []
    assert "apt packages already installed" in proc.stdout and "is up to date" in proc.stdout
    assert "systemctl enable rummy-table.service" in second_log
    assert (fake_root / "boot/firmware/cmdline.txt").read_text().count("consoleblank=0") == 1
    assert "kept the existing config" in proc.stdout


def test_rerun_keeps_operator_config_and_removes_an_old_source_copy(fake_root):
    install(fake_root)
    cfg = fake_root / "etc/rummy-table/config.toml"
    cfg.write_text('[display]\nrotation = 180\n')
    old = fake_root / "opt/rummy-table/src/tests/test_x.py"  # what installs before the wheel left
    old.parent.mkdir(parents=True)
    old.write_text("x = 1\n")
    proc = install(fake_root)
    assert cfg.read_text() == '[display]\nrotation = 180\n'
    assert not (fake_root / "opt/rummy-table/src").exists()
    assert "removed the old source copy" in proc.stdout


@pytest.fixture
def source_copy(tmp_path):
    """The installer and the app's files in a copy of the repository we may change."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("rummy", "device", "display", "league", "systemd"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    return src


def test_a_changed_app_is_reinstalled_and_an_unchanged_one_is_not(fake_root, source_copy):
    script = source_copy / "systemd" / "install.sh"

    def run(*args: str) -> list[str]:
        before = len(log_lines(fake_root))
        proc = subprocess.run(["bash", str(script), "--root", str(fake_root), *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return log_lines(fake_root)[before:]

    assert len(app_install_lines(run())) == 3
    assert app_install_lines(run("--offline")) == []
    (source_copy / "rummy" / "cards.py").write_text(
        (source_copy / "rummy" / "cards.py").read_text() + "\n# a change after git pull\n")
    proc = subprocess.run(["bash", str(script), "--root", str(fake_root), "--offline"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "needs the network" in proc.stderr  # an update needs pip
    assert len(app_install_lines(run())) == 3
    again = run()
    assert app_install_lines(again) == [] and network_lines(again) == []
    assert len(app_install_lines(run("--force"))) == 3


def test_empty_root_installs_and_a_second_run_needs_no_network(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = subprocess.run(["bash", str(SCRIPT), "--root", str(empty), "--offline"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1  # the flag bites: a first install needs apt and pip
    assert "installing apt packages" in proc.stderr and "needs the network" in proc.stderr
    first = install(empty)
    assert "etc/group: No such file" not in first.stderr
    assert (empty / "etc/systemd/system/rummy-table.service").exists()
    assert "rummy:x:999:" in (empty / "etc/group").read_text()
    first_log, first_tree = log_lines(empty), tree(empty)
    assert any(x.startswith("groupadd --system gpio") for x in first_log)
    # the second run: no network (--offline would stop it), nothing changes on disk
    second = install(empty, env={"RUMMY_TABLE_OFFLINE": "1"})
    second_log = log_lines(empty)[len(first_log):]
    assert network_lines(second_log) == []
    assert tree(empty) == first_tree
    assert "apt packages already installed" in second.stdout


def test_stage_holds_the_app_only(tmp_path):
    stage = tmp_path / "stage"
    proc = subprocess.run(["bash", str(SCRIPT), "--stage", str(stage)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in stage.iterdir()) == ["README.md", "device", "display",
                                                      "league", "pyproject.toml", "rummy"]
    files = [str(p.relative_to(stage)) for p in stage.rglob("*") if p.is_file()]
    assert "display/locale/ru/LC_MESSAGES/messages.mo" in files
    assert "league/migrations/001_core.sql" in files  # the league server's schema
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]
    assert not [f for f in files if f.split("/")[0] in ("tests", "docs", "benchmarks", "firmware")]
    assert not [f for f in files if f.endswith(".png")]  # no screenshots


def test_help_is_a_usage_text(tmp_path):
    proc = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("Usage: sudo systemd/install.sh")
    for option in ("--cage", "--now", "--offline", "--force", "--uninstall", "--purge",
                   "--root DIR", "--stage DIR", "-h, --help"):
        assert f"  {option}" in proc.stdout, option
    assert "set -euo" not in proc.stdout and "#" not in proc.stdout and "$(" not in proc.stdout
    # the options the script parses are the ones --help lists
    parsed = set(re.findall(r"^\s+(--[a-z]+)[)|=]", SCRIPT.read_text(), re.M))
    assert parsed <= set(re.findall(r"--[a-z]+", proc.stdout)), parsed


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
    proc = install(fake_root, "--league")  # not "up to date": the extra is new
    lines = app_install_lines(log_lines(fake_root))
    assert len(lines) == 3, proc.stdout
    assert lines[1].startswith("/opt/rummy-table/venv/bin/pip install --quiet /")
    assert lines[1].endswith("/dist/rummy_table-0.1.0-py3-none-any.whl[league]")
    (fake_root / "rummy-table-install.log").unlink()
    install(fake_root, "--league")  # and then it is
    assert app_install_lines(log_lines(fake_root)) == []
    assert "  --league" in subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True,
                                          text=True, timeout=30).stdout
