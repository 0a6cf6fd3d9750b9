#!/usr/bin/env bash
# Install Rummy Table on Raspberry Pi OS Bookworm as a kiosk that starts at boot.
# Usage: systemd/install.sh --help.  Tests: tests/test_install.py (against a --root tree).
set -euo pipefail

APP=rummy-table
APP_USER=rummy
GROUPS_NEEDED=(video render input gpio dialout)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# What goes into /opt: the app's packages, built into a wheel (no tests, docs, screenshots).
APP_FILES=(pyproject.toml README.md rummy device display league)

usage() {
    cat <<'USAGE'
Usage: sudo systemd/install.sh [--cage] [--now] [--offline] [--force]
       sudo systemd/install.sh --uninstall [--purge]
       systemd/install.sh --root DIR [options]
       systemd/install.sh --stage DIR

Install Rummy Table on Raspberry Pi OS Bookworm as a kiosk that starts at boot: the apt
packages it needs, the system user "rummy", the app in a venv under /opt/rummy-table
(built from this source tree as a wheel: the app only), /etc/rummy-table/config.toml
(only if absent), the systemd unit and the card-shoe udev rule; tty1's login prompt and
screen blanking off. Run it again at any time: what is in place is left alone, and when
nothing changed it needs no network (apt and pip are skipped).

Options:
  --cage          run the table under the cage Wayland compositor instead of the console
  --now           start the service at the end instead of asking for a reboot
  --offline       never use the network: fail if apt or pip would be needed
                  (also RUMMY_TABLE_OFFLINE=1)
  --league        also install the league extra (psycopg, openskill): league play
  --force         reinstall the app and re-check the apt packages even if nothing changed
  --uninstall     undo the install; keeps the config and the game records
  --purge         with --uninstall: also delete the config, the records
                  (/var/lib/rummy-table) and the user
  --root DIR      install into the directory tree DIR (CI, packaging; also $DESTDIR): files
                  are written under DIR, commands that change the system (apt-get, useradd,
                  systemctl, pip, ...) are only recorded in DIR/rummy-table-install.log,
                  user and group changes are mirrored in DIR/etc/passwd and DIR/etc/group
  --stage DIR     copy the files the app's wheel is built from into DIR and exit
  -h, --help      show this help
USAGE
}

ROOT=${DESTDIR:-}
MODE=install
CAGE=0
PURGE=0
DRY=0
NOW=0
FORCE=0
LEAGUE=0
OFFLINE=0
[[ ${RUMMY_TABLE_OFFLINE:-0} == 1 ]] && OFFLINE=1
STAGE_ONLY=
while [[ $# -gt 0 ]]; do
    case $1 in
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=1 ;;
        --cage) CAGE=1 ;;
        --now) NOW=1 ;;
        --offline) OFFLINE=1 ;;
        --force) FORCE=1 ;;
        --league) LEAGUE=1 ;;
        --stage) STAGE_ONLY=${2:?--stage needs a directory}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
ROOT=${ROOT%/}
if [[ -n $ROOT ]]; then
    [[ -d $ROOT ]] || { echo "install.sh: --root $ROOT is not a directory" >&2; exit 2; }
    ROOT=$(cd "$ROOT" && pwd)
    [[ $ROOT == / ]] && ROOT= || DRY=1
fi
if [[ $DRY == 1 ]]; then  # the user and group databases mirrored in the tree (may be empty)
    mkdir -p "$ROOT/etc"
    for f in passwd group; do [[ -e $ROOT/etc/$f ]] || : > "$ROOT/etc/$f"; done
fi
LOG="${ROOT:-/tmp}/rummy-table-install.log"
OPT=/opt/$APP
VENV=$OPT/venv
ETC=/etc/$APP
STATE=/var/lib/$APP
MARK=$OPT/install-state
STAMP=$OPT/install-stamp   # what is installed: apt packages, app hash (skips a re-run)

say() { echo "install.sh: $*"; }
die() { echo "install.sh: error: $*" >&2; exit 1; }

# online WHAT: about to use the network for WHAT; refused with --offline.
online() {
    [[ $OFFLINE == 1 ]] && die "$1 needs the network, and --offline (RUMMY_TABLE_OFFLINE=1) forbids it"
    return 0
}

# stamp KEY: the value recorded for KEY in the stamp file ("" if none).
stamp() { sed -n "s/^$1=//p" "$ROOT$STAMP" 2>/dev/null | tail -n 1; }
set_stamp() {  # set_stamp KEY VALUE
    mkdir -p "$ROOT$OPT"
    { grep -v "^$1=" "$ROOT$STAMP" 2>/dev/null || true; echo "$1=$2"; } > "$ROOT$STAMP.new"
    mv "$ROOT$STAMP.new" "$ROOT$STAMP"
}

# stage_app DIR: copy the files the wheel is built from (APP_FILES, no caches) into DIR.
stage_app() {
    mkdir -p "$1"
    tar -C "$SRC" --exclude='__pycache__' --exclude='*.pyc' --exclude='*.egg-info' \
        -cf - "${APP_FILES[@]}" | tar -C "$1" -xf -
}

# tree_hash DIR: one sha256 over every file's path and content.
tree_hash() {
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) |
        sha256sum | cut -d' ' -f1
}

# run CMD...: run a system-changing command, or only record it in dry-run mode.
run() {
    if [[ $DRY == 1 ]]; then
        printf '%s\n' "$*" >> "$LOG"
    else
        "$@"
    fi
}

# In a --root tree, mirror user and group changes in DIR/etc/passwd and DIR/etc/group so
# that a second run sees them (that is what makes the idempotency testable).
has_user() { grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null; }
has_group() { grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null; }
in_group() { grep -Eq "^$1:[^:]*:[^:]*:(.*,)?$2(,|$)" "$ROOT/etc/group" 2>/dev/null; }
fake_db() {  # fake_db FILE LINE: append a line in a --root tree
    [[ -n $ROOT ]] && printf '%s\n' "$2" >> "$ROOT/etc/$1"
    return 0
}
fake_add_member() {  # fake_add_member GROUP USER
    [[ -n $ROOT ]] || return 0
    sed -i -E "s/^($1:[^:]*:[^:]*:)(.+)$/\\1\\2,$2/; s/^($1:[^:]*:[^:]*:)$/\\1$2/" "$ROOT/etc/group"
}

cmdline_file() {
    local f
    for f in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        [[ -f $ROOT$f ]] && { echo "$f"; return; }
    done
    echo ""
}

# -- install ---------------------------------------------------------------------------
check_system() {
    if [[ -z $ROOT && $DRY == 0 && $EUID -ne 0 ]]; then
        die "run as root: sudo $0"
    fi
    local codename=""
    if [[ -f $ROOT/etc/os-release ]]; then
        codename=$(. "$ROOT/etc/os-release" && echo "${VERSION_CODENAME:-}")
    fi
    if [[ $codename != bookworm ]]; then
        say "warning: made for Raspberry Pi OS Bookworm, this is '${codename:-unknown}'"
    fi
}

# apt_candidate PKG: apt knows a version of PKG to install (after apt-get update).
apt_candidate() {
    apt-cache policy "$1" 2>/dev/null | grep -Eq '^ *Candidate: [^(]'
}

# missing_packages PKG...: those not installed (dpkg on a real system; the stamp in --root).
missing_packages() {
    local p have
    have=" $(stamp packages) "
    for p in "$@"; do
        if [[ $FORCE == 1 ]]; then
            echo "$p"
        elif [[ -n $ROOT ]]; then
            [[ $have == *" $p "* ]] || echo "$p"
        elif [[ $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) != installed ]]; then
            echo "$p"
        fi
    done
}

install_packages() {
    local pkgs=(python3-venv python3-pip python3-lgpio libgbm1 libdrm2) missing
    [[ $CAGE == 1 ]] && pkgs+=(cage)
    # SDL's KMSDRM draws through EGL and GLES 2 on GBM, and libgbm loads Mesa's driver for
    # the card (v3d/vc4 on a Pi, kms_swrast elsewhere): without these the kiosk died at
    # start with "cannot open the display: EGL not initialized" (found on a clean Debian).
    local gl=(libegl1 libgles2 libgl1-mesa-dri)
    [[ $(stamp lgpio) == pypi ]] && pkgs=("${pkgs[@]/python3-lgpio/}") && pkgs=(${pkgs[*]})
    missing=$(missing_packages "${pkgs[@]}" "${gl[@]}")
    if [[ -z $missing ]]; then
        say "apt packages already installed: ${pkgs[*]} ${gl[*]}"
        return
    fi
    online "installing apt packages ($(echo $missing))"
    run apt-get update
    # python3-lgpio comes from the Raspberry Pi archive (Raspberry Pi OS has it); a plain
    # Debian has no such package, and apt-get would fail on it: lgpio from PyPI instead.
    if [[ $DRY == 0 && " ${pkgs[*]} " == *" python3-lgpio "* ]] && ! apt_candidate python3-lgpio; then
        say "no python3-lgpio in this system's apt sources: lgpio goes into the venv from PyPI"
        pkgs=("${pkgs[@]/python3-lgpio/}")
        pkgs=(${pkgs[*]})
        set_stamp lgpio pypi
    fi
    run apt-get install -y --no-install-recommends "${pkgs[@]}"
    run apt-get install -y --no-install-recommends "${gl[@]}"
    local all
    all=$(printf '%s\n' $(stamp packages) "${pkgs[@]}" "${gl[@]}" | LC_ALL=C sort -u | tr '\n' ' ')
    set_stamp packages "${all% }"
}

create_user() {
    local g
    for g in "${GROUPS_NEEDED[@]}"; do
        if [[ -n $ROOT ]] && ! has_group "$g"; then
            run groupadd --system "$g"
            fake_db group "$g:x:$((900 + ${#g})):"
        elif [[ -z $ROOT ]] && ! getent group "$g" > /dev/null; then
            run groupadd --system "$g"
        fi
    done
    if { [[ -n $ROOT ]] && ! has_user "$APP_USER"; } ||
       { [[ -z $ROOT ]] && ! getent passwd "$APP_USER" > /dev/null; }; then
        run useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin --comment "Rummy Table kiosk" "$APP_USER"
        fake_db group "$APP_USER:x:999:"
        fake_db passwd "$APP_USER:x:999:999:Rummy Table kiosk:$STATE:/usr/sbin/nologin"
    fi
    for g in "${GROUPS_NEEDED[@]}"; do
        if { [[ -n $ROOT ]] && ! in_group "$g" "$APP_USER"; } ||
           { [[ -z $ROOT ]] && ! id -nG "$APP_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$g"; }; then
            run usermod --append --groups "$g" "$APP_USER"
            fake_add_member "$g" "$APP_USER"
        fi
    done
}

install_app() {
    local stage hash wheel extras=
    if [[ -d $ROOT$OPT/src ]]; then  # installs before the wheel kept a copy of the source
        rm -rf "$ROOT$OPT/src"
        say "removed the old source copy $OPT/src (only the app is installed now)"
    fi
    stage=$(mktemp -d "${TMPDIR:-/tmp}/rummy-table-stage.XXXXXX")
    STAGE_DIR=$stage
    trap 'rm -rf "${STAGE_DIR:-}"' EXIT
    stage_app "$stage/src"
    hash=$(tree_hash "$stage/src")
    if [[ $LEAGUE == 1 ]]; then  # league play on a PostgreSQL server ([league] in the config)
        extras="[league]"
        hash="$hash-league"
    fi
    [[ $(stamp lgpio) == pypi ]] && hash="$hash-lgpio"
    if [[ $FORCE == 0 && $(stamp app) == "$hash" ]] && app_works; then
        say "the app in $VENV is up to date (source hash ${hash:0:12})"
        return
    fi
    online "building and installing the app (pip)"
    if [[ ! -x $ROOT$VENV/bin/python ]] && ! [[ -n $ROOT && -d $ROOT$VENV ]]; then
        # --system-site-packages: the apt python3-lgpio (GPIO on Pi 4 and Pi 5).
        run python3 -m venv --system-site-packages "$VENV"
        [[ -n $ROOT ]] && mkdir -p "$ROOT$VENV"  # mirror it in a --root tree
    fi
    # A wheel of the app only; pip installs what it lacks of the dependencies, then the
    # app itself again (same version number after a git pull, new code).
    run "$VENV/bin/pip" wheel --quiet --no-deps --wheel-dir "$stage/dist" "$stage/src"
    wheel=$stage/dist/rummy_table-$(sed -n 's/^version = "\(.*\)"/\1/p' "$stage/src/pyproject.toml")-py3-none-any.whl
    run "$VENV/bin/pip" install --quiet "$wheel$extras"
    run "$VENV/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"
    if [[ $(stamp lgpio) == pypi ]]; then  # no python3-lgpio in apt (install_packages)
        run "$VENV/bin/pip" install --quiet "lgpio>=0.2.2.0"
    fi
    set_stamp app "$hash"
}

# app_works: the installed app imports (always true in a --root tree, where nothing runs).
app_works() {
    [[ -n $ROOT ]] && { [[ -d $ROOT$VENV ]]; return; }
    "$VENV/bin/python" -c 'import display.cli, rummy.games, lgpio' 2> /dev/null
}

install_config() {
    mkdir -p "$ROOT$ETC"
    if [[ ! -e $ROOT$ETC/config.toml ]]; then
        install -m 0640 "$SRC/systemd/config.example.toml" "$ROOT$ETC/config.toml"
        run chown "root:$APP_USER" "$ETC/config.toml"
        say "wrote the default config $ETC/config.toml (operator PIN 1234: change it)"
    else
        say "kept the existing config $ETC/config.toml"
    fi
    mkdir -p "$ROOT$STATE"
    run chown "$APP_USER:$APP_USER" "$STATE"
    run chmod 0750 "$STATE"
}

install_units() {
    local unit=$APP.service other=$APP-cage.service
    [[ $CAGE == 1 ]] && { unit=$APP-cage.service; other=$APP.service; }
    mkdir -p "$ROOT/etc/systemd/system" "$ROOT/etc/udev/rules.d"
    install -m 0644 "$SRC/systemd/$APP.service" "$SRC/systemd/$APP-cage.service" \
        "$ROOT/etc/systemd/system/"
    install -m 0644 "$SRC/systemd/99-rummy-shoe.rules" "$ROOT/etc/udev/rules.d/"
    if [[ $CAGE == 1 ]]; then
        mkdir -p "$ROOT/etc/pam.d"
        install -m 0644 "$SRC/systemd/pam-rummy-table-cage" "$ROOT/etc/pam.d/$APP-cage"
    fi
    run systemctl daemon-reload
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty
    run systemctl disable "$other"
    # The table owns tty1; "exit to console" in the operator menu starts a getty there.
    run systemctl disable getty@tty1.service
    run systemctl enable "$unit"
    echo "unit=$unit" > "$ROOT$MARK"
}

no_blanking() {
    local f
    f=$(cmdline_file)
    if [[ -z $f ]]; then
        say "warning: no /boot/firmware/cmdline.txt; add consoleblank=0 to the kernel command line"
        return
    fi
    if ! grep -qw 'consoleblank=0' "$ROOT$f"; then
        [[ -e $ROOT$f.$APP.bak ]] || cp -p "$ROOT$f" "$ROOT$f.$APP.bak"
        sed -i -E '1 s/[[:space:]]*$/ consoleblank=0/' "$ROOT$f"
        say "screen blanking off: consoleblank=0 added to $f (active after a reboot)"
    fi
    if [[ -e $ROOT$f.$APP.bak ]] && ! grep -qw 'consoleblank=0' "$ROOT$f.$APP.bak"; then
        echo "cmdline_added=$f consoleblank=0" >> "$ROOT$MARK"
    fi
}

do_install() {
    check_system
    install_packages
    create_user
    install_app
    install_config
    install_units
    no_blanking
    run "$VENV/bin/python" -m display.table.config check "$ETC/config.toml"
    if [[ $NOW == 1 ]]; then
        run systemctl restart "$(sed -n 's/^unit=//p' "$ROOT$MARK")"
        say "installed and started"
    else
        say "installed; reboot to start the table (sudo reboot)"
    fi
}

# -- uninstall -------------------------------------------------------------------------
do_uninstall() {
    check_system
    local f
    run systemctl disable --now "$APP.service" "$APP-cage.service"
    rm -f "$ROOT/etc/systemd/system/$APP.service" "$ROOT/etc/systemd/system/$APP-cage.service" \
        "$ROOT/etc/udev/rules.d/99-rummy-shoe.rules" "$ROOT/etc/pam.d/$APP-cage"
    run systemctl daemon-reload
    run udevadm control --reload-rules
    run systemctl enable getty@tty1.service
    f=$(cmdline_file)
    if [[ -n $f ]] && grep -q "^cmdline_added=$f consoleblank=0" "$ROOT$MARK" 2>/dev/null; then
        sed -i -E '1 s/[[:space:]]+consoleblank=0([[:space:]]|$)/\1/' "$ROOT$f"
        rm -f "$ROOT$f.$APP.bak"
        say "removed consoleblank=0 from $f"
    fi
    rm -rf "$ROOT$OPT"
    if [[ $PURGE == 1 ]]; then
        rm -rf "$ROOT$ETC" "$ROOT$STATE"
        if { [[ -n $ROOT ]] && has_user "$APP_USER"; } ||
           { [[ -z $ROOT ]] && getent passwd "$APP_USER" > /dev/null; }; then
            run userdel "$APP_USER"
            if [[ -n $ROOT ]]; then
                sed -i -E "/^$APP_USER:/d" "$ROOT/etc/passwd" "$ROOT/etc/group"
                sed -i -E "s/:$APP_USER(,|$)/:/; s/,$APP_USER(,|$)/\\1/" "$ROOT/etc/group"
            fi
        fi
        say "uninstalled; config, records and the user $APP_USER deleted"
    else
        say "uninstalled; kept $ETC (config) and $STATE (records): --purge deletes them"
    fi
}

if [[ -n $STAGE_ONLY ]]; then
    stage_app "$STAGE_ONLY"
    echo "install.sh: staged the app in $STAGE_ONLY (build it: pip wheel --no-deps $STAGE_ONLY)"
    exit 0
fi
if [[ $MODE == install ]]; then do_install "$@"; else do_uninstall "$@"; fi
