"""Configuration: packaged defaults, one operator TOML file over them, a few env variables.

``load_config()`` reads ``display/defaults.toml``, layers the user's file over it
(``/etc/rummy-table/config.toml`` or ``$RUMMY_TABLE_CONFIG``), then ``RUMMY_TABLE_STATE_DIR``
and ``RUMMY_TABLE_LANGUAGE``; it validates everything and returns every error at once
(``"<file>: [section] key: reason"``). With errors the returned config is the defaults, so
kiosk mode can show the list on an error screen instead of crash-looping.

The operator PIN is stored as ``pbkdf2$<iterations>$<salt hex>$<sha256 hex>``;
``python -m display.config set-pin --config FILE`` changes it (see :func:`main`).
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import hashlib
import hmac
import importlib
import os
import re
import secrets
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

DEFAULTS_PATH = Path(__file__).with_name("defaults.toml")
SYSTEM_CONFIG = "/etc/rummy-table/config.toml"
PIN_ITERATIONS = 120_000
PIN_RE = re.compile(r"^[0-9]{4,8}$")
# The default PIN 1234 (the same hash as in defaults.toml): change it on every table.
DEFAULT_PIN_HASH = (
    "pbkdf2$120000$72756d6d792d7461626c652d64"
    "656661$a6548732f4a5167b0ea79027a7a11db4d30457f20932e3a47ac883c4c66cfe60"
)
HASH_RE = re.compile(r"^pbkdf2\$([0-9]{4,7})\$([0-9a-f]{16,64})\$([0-9a-f]{64})$")


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 1280
    height: int = 800
    fullscreen: bool = True
    rotation: int = 0
    layout: str = "flat"
    privacy: str = "peek"
    language: str = "en"
    four_colour: bool = False
    fps: int = 30


@dataclass(frozen=True)
class GameConfig:
    default_game: str = "gin"
    gin_preset: str = "standard"
    contract_preset: str = "seed_002"
    bot_delay_s: float = 0.8
    buy_answer_s: float = 8.0


@dataclass(frozen=True)
class ShoeConfig:
    enabled: bool = False
    port: str = "/dev/rummy-shoe"
    deck_map: str = ""


@dataclass(frozen=True)
class OperatorConfig:
    pin_hash: str = DEFAULT_PIN_HASH


@dataclass(frozen=True)
class PathsConfig:
    state_dir: str = ""


@dataclass(frozen=True)
class LeagueConfig:
    """``[league]``: the table's login to the league server (off by default)."""

    enabled: bool = False
    dsn: str = ""
    host: str = ""
    port: int = 5432
    dbname: str = "rummy_league"
    user: str = ""
    password_file: str = ""
    sslmode: str = "verify-full"
    ca_file: str = ""
    table_id: int = 0
    connect_timeout_s: int = 5


@dataclass(frozen=True)
class Config:
    """The validated configuration (all sections frozen)."""

    display: DisplayConfig
    game: GameConfig
    buttons: Mapping[str, Any]
    shoe: ShoeConfig
    operator: OperatorConfig
    paths: PathsConfig
    sources: tuple[str, ...] = field(default=())
    league: LeagueConfig = field(default=LeagueConfig())


# -- the PIN ----------------------------------------------------------------------------
def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_ITERATIONS) -> str:
    """``pbkdf2$<iterations>$<salt hex>$<hash hex>`` of a 4-8 digit PIN (pbkdf2-sha256)."""
    if not isinstance(pin, str) or not PIN_RE.match(pin):
        raise ValueError("the PIN must be 4 to 8 digits")
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"pbkdf2${iterations}${salt.hex()}${digest.hex()}"


def verify_pin_hash(pin_hash: str, pin: str) -> bool:
    """True when ``pin`` matches ``pin_hash`` (constant-time compare)."""
    m = HASH_RE.match(pin_hash or "")
    if not m or not isinstance(pin, str):
        return False
    iterations, salt, want = int(m[1]), bytes.fromhex(m[2]), m[3]
    got = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations).hex()
    return hmac.compare_digest(got, want)


def check_pin(config: Config, pin: str) -> bool:
    """True when ``pin`` is the operator PIN of ``config``."""
    return verify_pin_hash(config.operator.pin_hash, pin)


# -- validation helpers -----------------------------------------------------------------
Check = Callable[[Any], str | None]  # returns a reason, or None when fine


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, int) or isinstance(v, bool):
            return f"must be a whole number, got {v!r}"
        return None if lo <= v <= hi else f"must be between {lo} and {hi}, got {v}"
    return check


def _num(lo: float, hi: float) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, int | float) or isinstance(v, bool):
            return f"must be a number, got {v!r}"
        return None if lo <= v <= hi else f"must be between {lo} and {hi}, got {v}"
    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else f"must be true or false, got {v!r}"


def _str(v: Any) -> str | None:
    return None if isinstance(v, str) else f"must be text in quotes, got {v!r}"


def _one_of(*choices: Any) -> Check:
    def check(v: Any) -> str | None:
        if v in choices and type(v) is type(choices[0]):
            return None
        return f"must be one of {', '.join(map(repr, choices))}, got {v!r}"
    return check


def _preset(game: str) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, str) or not v:
            return f"must be a preset name, got {v!r}"
        try:
            engine = importlib.import_module("rummy.games").get_engine(game)
        except ImportError:
            return None  # engine not installed: cannot check the name here
        try:
            engine.preset(v)
        except (KeyError, ValueError) as exc:
            return f"unknown {game} preset {v!r} ({exc})"
        return None
    return check


def _pin_hash(v: Any) -> str | None:
    if isinstance(v, str) and HASH_RE.match(v):
        return None
    return "must be a pbkdf2 hash made by 'python -m display.config hash-pin'"


SCHEMA: dict[str, dict[str, Check]] = {
    "display": {
        "width": _int(320, 7680), "height": _int(240, 4320), "fullscreen": _bool,
        "rotation": _one_of(0, 90, 180, 270), "layout": _one_of("flat", "upright"),
        "privacy": _one_of("peek", "open"), "language": _one_of("en", "id", "ru", "pt"),
        "four_colour": _bool, "fps": _int(1, 120),
    },
    "game": {
        "default_game": _one_of("gin", "contract"), "gin_preset": _preset("gin"),
        "contract_preset": _preset("contract"), "bot_delay_s": _num(0, 10),
        "buy_answer_s": _num(1, 60),
    },
    "shoe": {"enabled": _bool, "port": _str, "deck_map": _str},
    "operator": {"pin_hash": _pin_hash},
    "paths": {"state_dir": _str},
    "league": {
        "enabled": _bool, "dsn": _str, "host": _str, "port": _int(1, 65535), "dbname": _str,
        "user": _str, "password_file": _str,
        "sslmode": _one_of("disable", "allow", "prefer", "require", "verify-ca", "verify-full"),
        "ca_file": _str, "table_id": _int(0, 2**31 - 1), "connect_timeout_s": _int(1, 60),
    },
}
SECTIONS = (*SCHEMA, "buttons")


def _check_buttons(pins: Any) -> list[str]:
    """Errors in the ``[buttons]`` table (checked by ``device.pins`` when it is there)."""
    if not isinstance(pins, dict):
        return ["must be a table of button = pin"]
    parse = None
    for module in ("device.pins", "device.buttons"):
        try:
            parse = importlib.import_module(module).parse_button_config
            break
        except (ImportError, AttributeError):
            continue
    if parse is not None and pins:
        try:
            result = parse(pins)
        except (ValueError, TypeError, KeyError) as exc:
            return [str(exc)]
        if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], list):
            return [str(e) for e in result[1]]  # (value, errors) style
        return []
    return _check_pin_leaves(pins, "")


def _check_pin_leaves(table: Mapping[str, Any], prefix: str) -> list[str]:
    """Fallback check: every text value is a pin like "GPIO17"/"BOARD11"."""
    errors = []
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            errors += _check_pin_leaves(value, key + ".")
        elif isinstance(value, str) and not re.fullmatch(r"(GPIO|BOARD)[0-9]{1,2}", value):
            errors.append(f"{key}: pin must be like \"GPIO17\" or \"BOARD11\", got {value!r}")
        elif isinstance(value, list):
            errors.append(f"{key}: must be a pin or a table, got a list")
    return errors


def check_league(league: Mapping[str, Any], source: str) -> list[str]:
    """Errors that need several ``[league]`` keys together (only when it is enabled)."""
    if league.get("enabled") is not True:
        return []
    errors = []
    where = f"{source}: [league]"
    dsn, host = league.get("dsn", ""), league.get("host", "")
    if not dsn and not host:
        errors.append(f"{where} host: give the server's host (or a dsn)")
    if not league.get("user") and "user=" not in str(dsn):
        errors.append(f"{where} user: give the table's role (printed by rummy-table league add-table)")
    pw = league.get("password_file", "")
    if not pw:
        errors.append(f"{where} password_file: give the file holding the table's password")
    elif isinstance(pw, str) and not os.access(pw, os.R_OK):
        errors.append(f"{where} password_file: {pw} cannot be read")
    local_socket = isinstance(host, str) and host.startswith("/")
    mode = league.get("sslmode", "verify-full")
    if not local_socket and mode in ("disable", "allow", "prefer"):
        errors.append(f"{where} sslmode: {mode!r} may send the password without TLS; use "
                      "'require', 'verify-ca' or 'verify-full' (or a Unix socket host)")
    ca = league.get("ca_file", "")
    if not local_socket and mode in ("verify-ca", "verify-full") and not ca:
        errors.append(f"{where} ca_file: sslmode {mode!r} needs the CA certificate file")
    elif ca and isinstance(ca, str) and not os.access(ca, os.R_OK):
        errors.append(f"{where} ca_file: {ca} cannot be read")
    return errors


def _read_toml(path: Path, errors: list[str]) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        errors.append(f"{path}: file not found")
    except OSError as exc:
        errors.append(f"{path}: cannot read ({exc.strerror or exc})")
    except tomllib.TOMLDecodeError as exc:
        errors.append(f"{path}: not valid TOML ({exc})")
    return None


def validate(data: Mapping[str, Any], source: str) -> list[str]:
    """Every error in one (partial) config table, as ``"<source>: [section] key: reason"``."""
    errors = []
    for section, table in data.items():
        if section not in SECTIONS:
            errors.append(f"{source}: unknown section [{section}] (known: {', '.join(SECTIONS)})")
            continue
        if not isinstance(table, dict):
            errors.append(f"{source}: [{section}] must be a table")
            continue
        if section == "buttons":
            errors += [f"{source}: {e}" if e.startswith("buttons") else f"{source}: [buttons] {e}"
                       for e in _check_buttons(table)]
            continue
        for key, value in table.items():
            check = SCHEMA[section].get(key)
            if check is None:
                errors.append(f"{source}: [{section}] {key}: unknown key "
                              f"(known: {', '.join(SCHEMA[section])})")
            elif (reason := check(value)) is not None:
                errors.append(f"{source}: [{section}] {key}: {reason}")
    return errors


def default_state_dir(env: Mapping[str, str]) -> str:
    """Where journals and records live when the config does not say."""
    if env.get("RUMMY_TABLE_STATE_DIR"):
        return env["RUMMY_TABLE_STATE_DIR"]
    if env.get("STATE_DIRECTORY"):  # systemd StateDirectory=
        return env["STATE_DIRECTORY"].split(":")[0]
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"),
                                                     ".local", "state")
    return os.path.join(base, "rummy-table")


def _build(merged: Mapping[str, dict[str, Any]], sources: tuple[str, ...]) -> Config:
    op = dict(merged["operator"])
    return Config(
        display=DisplayConfig(**merged["display"]),
        game=GameConfig(**merged["game"]),
        buttons=MappingProxyType(dict(merged.get("buttons", {}))),
        shoe=ShoeConfig(**merged["shoe"]),
        operator=OperatorConfig(**op),
        paths=PathsConfig(**merged["paths"]),
        sources=sources,
        league=LeagueConfig(**merged["league"]),
    )


def load_config(path: str | os.PathLike[str] | None = None, *,
                env: Mapping[str, str] = os.environ) -> tuple[Config, list[str]]:
    """The validated config and every error found (the config is the defaults on errors)."""
    errors: list[str] = []
    defaults = _read_toml(DEFAULTS_PATH, errors) or {}
    errors += validate(defaults, str(DEFAULTS_PATH))  # a packaging bug: reported, not raised
    if errors:  # keep only the valid packaged values; the rest from the dataclasses
        fallback: dict[str, Any] = {
            "display": DisplayConfig(), "game": GameConfig(), "shoe": ShoeConfig(),
            "operator": OperatorConfig(), "paths": PathsConfig(), "league": LeagueConfig()}
        packaged = defaults
        defaults = {"buttons": {}}
        for s, d in fallback.items():
            got = packaged.get(s)
            table: dict[str, Any] = got if isinstance(got, dict) else {}
            defaults[s] = {k: table[k] if k in table and not validate({s: {k: table[k]}}, "")
                           else v for k, v in dataclasses.asdict(d).items()}
    merged = {s: dict(defaults.get(s, {})) for s in SECTIONS}
    sources = [str(DEFAULTS_PATH)]
    explicit = path is not None or bool(env.get("RUMMY_TABLE_CONFIG"))
    user_path = Path(path if path is not None else env.get("RUMMY_TABLE_CONFIG") or SYSTEM_CONFIG)
    if explicit or user_path.exists():
        user = _read_toml(user_path, errors)
        if user is not None:
            errors += validate(user, str(user_path))
            for section, table in user.items():
                if section in merged and isinstance(table, dict):
                    merged[section].update(table)
            sources.append(str(user_path))
    overrides: dict[str, dict[str, Any]] = {"paths": {}, "display": {}}
    if env.get("RUMMY_TABLE_STATE_DIR"):
        overrides["paths"]["state_dir"] = env["RUMMY_TABLE_STATE_DIR"]
    if env.get("RUMMY_TABLE_LANGUAGE"):
        overrides["display"]["language"] = env["RUMMY_TABLE_LANGUAGE"]
    env_errors = validate({k: v for k, v in overrides.items() if v}, "environment")
    errors += [e.replace("[paths] state_dir", "RUMMY_TABLE_STATE_DIR")
               .replace("[display] language", "RUMMY_TABLE_LANGUAGE") for e in env_errors]
    for section, table in overrides.items():
        merged[section].update(table)
    errors += check_league(merged["league"], sources[-1])  # with the others: all at once
    if errors:
        merged = {s: dict(defaults.get(s, {})) for s in SECTIONS}
    if not merged["paths"]["state_dir"]:
        merged["paths"]["state_dir"] = default_state_dir(env)
    return _build(merged, tuple(sources)), errors


# -- command line: check a file, make a PIN hash, set the PIN ----------------------------
def set_pin_in_file(path: Path, pin_hash: str) -> None:
    """Write ``pin_hash`` into ``[operator]`` of the TOML file at ``path`` (kept otherwise)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    line = f'pin_hash = "{pin_hash}"'
    lines = text.splitlines()
    section = None
    for i, raw in enumerate(lines):
        stripped = raw.strip()
        if stripped.startswith("["):
            section = stripped.strip("[] ")
        elif section == "operator" and re.match(r"pin_hash\s*=", stripped):
            lines[i] = line
            break
    else:
        idx = next((i for i, r in enumerate(lines) if r.strip() == "[operator]"), None)
        if idx is None:
            lines += ["", "[operator]", line]
        else:
            lines.insert(idx + 1, line)
    new = "\n".join(lines).lstrip("\n") + "\n"
    tomllib.loads(new)  # never write a file we cannot read back
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(new, encoding="utf-8")
    if path.exists():
        os.chmod(tmp, path.stat().st_mode & 0o777)
    os.replace(tmp, path)


def _ask_pin() -> str:
    pin = getpass.getpass("new operator PIN (4-8 digits): ")
    if getpass.getpass("again: ") != pin:
        raise ValueError("the two PINs differ")
    return pin


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m display.config",
                                description="Check the table's config file; make or set the PIN.")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="validate a config file, list every error")
    c.add_argument("file", nargs="?", default=None)
    h = sub.add_parser("hash-pin", help="print a pin_hash line for [operator]")
    h.add_argument("--pin", help="the PIN (default: asked without echo)")
    s = sub.add_parser("set-pin", help="store a new PIN (hashed) in a config file")
    s.add_argument("--config", default=SYSTEM_CONFIG)
    s.add_argument("--pin", help="the PIN (default: asked without echo)")
    args = p.parse_args(argv)
    try:
        if args.cmd == "check":
            config, errors = load_config(args.file)
            for e in errors:
                print(e, file=sys.stderr)
            if not errors:
                print(f"ok: {' + '.join(config.sources)}; state in {config.paths.state_dir}")
            return 1 if errors else 0
        pin_hash = hash_pin(args.pin if args.pin is not None else _ask_pin())
        if args.cmd == "hash-pin":
            print(f'pin_hash = "{pin_hash}"')
            return 0
        set_pin_in_file(Path(args.config), pin_hash)
        print(f"PIN changed in {args.config}")
        return 0
    except (ValueError, OSError, tomllib.TOMLDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
