"""Configuration: packaged defaults, one operator TOML file over them, a few env variables.

``load_config()`` reads ``display/table/defaults.toml``, layers the user's file over it
(``/etc/rummy-table/config.toml`` or ``$RUMMY_TABLE_CONFIG``), then ``RUMMY_TABLE_STATE_DIR``
and ``RUMMY_TABLE_LANGUAGE``; it validates everything and returns every error at once
(``"<file>: [section] key: reason"``). With errors the returned config is the defaults, so
kiosk mode can show the list on an error screen instead of crash-looping. It never raises:
any bytes in the file (not UTF-8, not TOML, nested too deep, too big) give an error that
names the file and where. Each error is a :class:`ConfigProblem`: an English line (a
``str``, for logs and ``check``) that also carries its ``reason`` as a gettext template and
parameters, so the config-error screen words it in the table's language.

A new section is one entry in :data:`SCHEMA` (key -> check) and, for checks across keys,
one in :data:`SECTION_CHECKS`.

The operator PIN is stored as ``pbkdf2$<iterations>$<salt hex>$<sha256 hex>``;
``python -m display.table.config set-pin --config FILE`` changes it (see :func:`main`).
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import os
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, UnionType
from typing import Any

from display.table.i18n import N_
from league import pins
from league.pins import hash_pin as hash_pin  # re-exported: the app and the CLI set the PIN with it
from rummy.games import get_engine

DEFAULTS_PATH = Path(__file__).with_name("defaults.toml")
SYSTEM_CONFIG = "/etc/rummy-table/config.toml"
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
    buy_answer_s: float = 15.0
    deal_grace_s: float = 3.0
    review_min_s: float = 3.0  # a review stays this long before a confirm counts (issue 28)


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


# -- the PIN: pbkdf2-sha256 as for league players (league.pins.hash_pin makes the hash) ---
def verify_pin_hash(pin_hash: str, pin: str) -> bool:
    """True when ``pin`` matches ``pin_hash``, a stored operator PIN hash (constant-time
    compare)."""
    if not isinstance(pin, str) or not HASH_RE.match(pin_hash or ""):
        return False
    return pins.verify(pin_hash, pin)


def check_pin(config: Config, pin: str) -> bool:
    """True when ``pin`` is the operator PIN of ``config``."""
    return verify_pin_hash(config.operator.pin_hash, pin)


# -- errors -----------------------------------------------------------------------------
MAX_BYTES = 1 << 20  # a config file is a few kB; more is not a config file
MAX_NESTING = 32  # arrays/tables inside each other (tomllib recurses)
EXCERPT = 40  # characters of a bad value quoted in a message


def short(value: Any) -> str:
    """``repr(value)``, cut to :data:`EXCERPT` characters (messages quote, never dump)."""
    text = repr(value)
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


@dataclass(frozen=True)
class Reason:
    """Why a value is wrong: an English template (a gettext msgid) and its parameters."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, translate: Callable[[str], str] = lambda s: s) -> str:
        try:
            return translate(self.template).format(**self.params)
        except (KeyError, IndexError, ValueError):  # a translation that broke a placeholder
            return self.template.format(**self.params)


def reason(template: str, **params: Any) -> Reason:
    return Reason(template, params)


class ConfigProblem(str):
    """One config error: the English line ``"<source>: <where>: <reason>"`` (a ``str``)
    plus its parts, so the table can show it in its own language (:meth:`translated`)."""

    source: str
    where: str
    reason: Reason

    def __new__(cls, source: str, where: str, why: Reason) -> ConfigProblem:
        self = super().__new__(cls, _line(source, where, why.text()))
        self.source, self.where, self.reason = source, where, why
        return self

    def translated(self, translate: Callable[[str], str]) -> str:
        return _line(self.source, self.where, self.reason.text(translate))


def _line(source: str, where: str, why: str) -> str:
    return f"{source}: {where}: {why}" if where else f"{source}: {why}"


def describe(problem: str, translate: Callable[[str], str]) -> str:
    """``problem`` in the language of ``translate`` (plain strings are shown as they are)."""
    return problem.translated(translate) if isinstance(problem, ConfigProblem) else str(problem)


# -- validation helpers -----------------------------------------------------------------
Check = Callable[[Any], Reason | None]  # returns a reason, or None when fine


def _in_range(lo: float, hi: float, kinds: type | UnionType, not_kind: str) -> Check:
    """A number of ``kinds`` (never a bool) from ``lo`` to ``hi``; ``not_kind`` says what else it got."""
    def check(v: Any) -> Reason | None:
        is_number = isinstance(v, kinds) and not isinstance(v, bool)
        if not is_number:
            return reason(not_kind, value=short(v))
        if lo <= v <= hi:
            return None
        return reason(N_("must be between {low} and {high}, got {value}"), low=lo, high=hi,
                      value=short(v))
    return check


def _int(lo: int, hi: int) -> Check:
    return _in_range(lo, hi, int, N_("must be a whole number, got {value}"))


def _num(lo: float, hi: float) -> Check:
    return _in_range(lo, hi, int | float, N_("must be a number, got {value}"))


def _bool(v: Any) -> Reason | None:
    if isinstance(v, bool):
        return None
    return reason(N_("must be true or false, got {value}"), value=short(v))


def _str(v: Any) -> Reason | None:
    if isinstance(v, str):
        return None
    return reason(N_("must be text in quotes, got {value}"), value=short(v))


def _one_of(*choices: Any) -> Check:
    def check(v: Any) -> Reason | None:
        if v in choices and type(v) is type(choices[0]):
            return None
        return reason(N_("must be one of {choices}, got {value}"),
                      choices=", ".join(map(repr, choices)), value=short(v))
    return check


def _preset(game: str) -> Check:
    def check(v: Any) -> Reason | None:
        if not isinstance(v, str) or not v:
            return reason(N_("must be a preset name, got {value}"), value=short(v))
        engine = get_engine(game)
        try:
            engine.preset(v)
        except Exception:  # noqa: BLE001 - any refusal of the name is "unknown"
            return reason(N_("unknown {game} preset {value}"), game=game, value=short(v))
        return None
    return check


def _pin_hash(v: Any) -> Reason | None:
    if isinstance(v, str) and HASH_RE.match(v):
        return None
    return reason(N_("must be a pbkdf2 hash made by 'python -m display.table.config hash-pin'"))


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
        "buy_answer_s": _num(1, 60), "deal_grace_s": _num(0, 10), "review_min_s": _num(0, 30),
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
SEAT_COUNTS = range(2, 7)  # the tables the app can build a button board for


def _check_buttons(pins: Any) -> list[Reason]:
    """Errors in the ``[buttons]`` table (``device.pins`` checks it). Without its own
    ``seats`` the packaged pin map of each seat count is used, so the table must fit every
    one of them: a chord on KNOCK has no button at 5-6 seats (those maps have no KNOCK)."""
    from device.pins import parse_button_config

    if not isinstance(pins, dict):
        return [reason(N_("must be a table"))]
    if not pins:
        return []
    if "seats" in pins or "seat_count" in pins:
        _, errors = parse_button_config(pins)
        return [reason("{detail}", detail=e) for e in errors]
    per_count: dict[str, list[int]] = {}
    for count in SEAT_COUNTS:
        _, errors = parse_button_config({**pins, "seat_count": count})
        for e in errors:
            per_count.setdefault(e, []).append(count)
    out = []
    for e, counts in per_count.items():
        if len(counts) == len(SEAT_COUNTS):
            out.append(reason("{detail}", detail=e))
        else:
            out.append(reason(N_("with {counts} seats (the packaged pin map): {detail}"),
                              counts=", ".join(map(str, counts)), detail=e))
    return out


def _check_league(league: Any) -> list[Reason]:
    """``[league]`` across its keys, when it is enabled (the other keys as in the defaults)."""
    if not isinstance(league, dict) or league.get("enabled") is not True:
        return []
    out = []
    dsn, host = league.get("dsn", ""), league.get("host", "")
    if not dsn and not host:
        out.append(reason(N_("host: give the league server's host (or a dsn)")))
    if not league.get("user") and "user=" not in str(dsn):
        out.append(reason(N_("user: give the table's role (printed by rummy-table league add-table)")))
    pw = league.get("password_file", "")
    if not pw:
        out.append(reason(N_("password_file: give the file holding the table's password")))
    elif isinstance(pw, str) and not os.access(pw, os.R_OK):
        out.append(reason(N_("password_file: {path} cannot be read"), path=short(pw)))
    local_socket = isinstance(host, str) and host.startswith("/")
    mode = league.get("sslmode", "verify-full")
    if not local_socket and mode in ("disable", "allow", "prefer"):
        out.append(reason(N_("sslmode: {mode} may send the password without TLS; use require, "
                             "verify-ca or verify-full (or a Unix socket host)"), mode=short(mode)))
    ca = league.get("ca_file", "")
    if not local_socket and mode in ("verify-ca", "verify-full") and not ca:
        out.append(reason(N_("ca_file: sslmode {mode} needs the CA certificate file"),
                          mode=short(mode)))
    elif ca and isinstance(ca, str) and not os.access(ca, os.R_OK):
        out.append(reason(N_("ca_file: {path} cannot be read"), path=short(ca)))
    return out


# Checks of a whole section (across its keys); a new section can add one here.
SECTION_CHECKS: dict[str, Callable[[Any], list[Reason]]] = {"buttons": _check_buttons,
                                                            "league": _check_league}
SECTIONS = (*SCHEMA, *(s for s in SECTION_CHECKS if s not in SCHEMA))


def _nesting(value: Any, depth: int = 0) -> int:
    """How deep tables and arrays go inside ``value`` (stops past MAX_NESTING)."""
    if depth > MAX_NESTING:
        return depth
    if isinstance(value, dict):
        return max((_nesting(v, depth + 1) for v in value.values()), default=depth)
    if isinstance(value, list):
        return max((_nesting(v, depth + 1) for v in value), default=depth)
    return depth


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _read_toml(path: Path, errors: list[str]) -> dict[str, Any] | None:
    """The parsed file, or None with one error naming the file and where it went wrong."""
    src = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        errors.append(ConfigProblem(src, "", reason(N_("file not found"))))
        return None
    except IsADirectoryError:
        errors.append(ConfigProblem(src, "", reason(N_("is a directory, not a file"))))
        return None
    except OSError as exc:
        errors.append(ConfigProblem(src, "", reason(N_("cannot read the file ({detail})"),
                                                    detail=exc.strerror or type(exc).__name__)))
        return None
    if len(raw) > MAX_BYTES:
        errors.append(ConfigProblem(src, "", reason(N_("bigger than {limit} bytes: not a config file"),
                                                    limit=MAX_BYTES)))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        errors.append(ConfigProblem(src, "", reason(
            N_("not UTF-8 text: byte {byte} (0x{value:02X}) at line {line}, column {column}; "
               "save the file as UTF-8"),
            byte=exc.start, value=raw[exc.start], line=line, column=column)))
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = _TOML_AT.search(message)
        what = _TOML_AT.sub("", message).strip()
        if at:
            errors.append(ConfigProblem(src, "", reason(
                N_("not valid TOML at line {line}, column {column}: {detail}"),
                line=int(at[1]), column=int(at[2]), detail=what[:80])))
        else:
            errors.append(ConfigProblem(src, "", reason(N_("not valid TOML: {detail}"),
                                                        detail=what[:80])))
        return None
    except RecursionError:
        errors.append(ConfigProblem(src, "", reason(N_("nested too deep (more than {limit} levels)"),
                                                    limit=MAX_NESTING)))
        return None
    if _nesting(data) > MAX_NESTING:
        errors.append(ConfigProblem(src, "", reason(N_("nested too deep (more than {limit} levels)"),
                                                    limit=MAX_NESTING)))
        return None
    return data


def validate(data: Mapping[str, Any], source: str) -> list[str]:
    """Every error in one (partial) config table, as ``"<source>: [section] key: reason"``."""
    errors: list[str] = []
    for section, table in data.items():
        if section not in SECTIONS:
            errors.append(ConfigProblem(source, "", reason(
                N_("unknown section [{section}] (known: {known})"),
                section=short(section)[1:-1], known=", ".join(SECTIONS))))
            continue
        if not isinstance(table, dict):
            errors.append(ConfigProblem(source, f"[{section}]", reason(N_("must be a table"))))
            continue
        for key, value in table.items():
            if section not in SCHEMA:
                break
            check = SCHEMA[section].get(key)
            if check is None:
                errors.append(ConfigProblem(source, f"[{section}] {short(key)[1:-1]}", reason(
                    N_("unknown key (known: {known})"), known=", ".join(SCHEMA[section]))))
            elif (why := check(value)) is not None:
                errors.append(ConfigProblem(source, f"[{section}] {key}", why))
        if section in SECTION_CHECKS:
            for why in SECTION_CHECKS[section](table):
                detail = str(why.params.get("detail", ""))
                where = "" if detail.startswith(section) else f"[{section}]"
                errors.append(ConfigProblem(source, where, why))
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


_ENV_KEYS = {("paths", "state_dir"): "RUMMY_TABLE_STATE_DIR",
             ("display", "language"): "RUMMY_TABLE_LANGUAGE"}
_FALLBACK = {"display": DisplayConfig(), "game": GameConfig(), "shoe": ShoeConfig(),
             "operator": OperatorConfig(), "paths": PathsConfig(), "league": LeagueConfig()}


def _packaged(errors: list[str]) -> dict[str, dict[str, Any]]:
    """The packaged defaults; a broken file (a packaging bug) is reported, not raised, and
    only its valid values are kept (the rest from the dataclasses)."""
    packaged = _read_toml(DEFAULTS_PATH, errors) or {}
    problems = validate(packaged, str(DEFAULTS_PATH))
    errors += problems
    out: dict[str, dict[str, Any]] = {"buttons": {}}
    for name, default in _FALLBACK.items():
        table = packaged.get(name)
        table = table if isinstance(table, dict) else {}
        out[name] = {}
        for key, value in dataclasses.asdict(default).items():  # type: ignore[call-overload]
            fine = key in table and not (problems and validate({name: {key: table[key]}}, ""))
            out[name][key] = table[key] if fine else value
    return out


def load_config(path: str | os.PathLike[str] | None = None, *,
                env: Mapping[str, str] = os.environ) -> tuple[Config, list[str]]:
    """The validated config and every error found (the config is the defaults on errors).

    Never raises: whatever the file holds, the errors say what and where."""
    errors: list[str] = []
    defaults = _packaged(errors)
    merged = {s: dict(defaults.get(s, {})) for s in SECTIONS}
    sources = [str(DEFAULTS_PATH)]
    explicit = path is not None or bool(env.get("RUMMY_TABLE_CONFIG"))
    user_path = Path(path if path is not None else env.get("RUMMY_TABLE_CONFIG") or SYSTEM_CONFIG)
    if explicit or user_path.exists():
        user = _read_toml(user_path, errors)
        if user is not None:
            try:
                errors += validate(user, str(user_path))
            except Exception as exc:  # noqa: BLE001 - a checker bug must not stop the table
                errors.append(ConfigProblem(str(user_path), "", reason(
                    N_("could not be checked ({detail})"), detail=short(exc))))
            for section, table in user.items():
                if section in merged and isinstance(table, dict):
                    merged[section].update(table)
            sources.append(str(user_path))
    for (section, key), name in _ENV_KEYS.items():
        value = env.get(name)
        if not value:
            continue
        for problem in validate({section: {key: value}}, "environment"):
            why = problem.reason if isinstance(problem, ConfigProblem) else reason(problem)
            errors.append(ConfigProblem("environment", name, why))
        merged[section][key] = value
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


def warnings(config: Config) -> list[str]:
    """What is valid but will not work on this machine now: a card shoe port or a deck
    map file that does not exist (the table then says so on screen and in diagnostics)."""
    out = []
    shoe = config.shoe
    if shoe.enabled:
        if "://" not in shoe.port and not os.path.exists(shoe.port):
            out.append(f"[shoe] port: {shoe.port} does not exist (is the card shoe plugged in? "
                       "the udev rule makes /dev/rummy-shoe)")
        maps = [p.strip() for p in shoe.deck_map.split(",") if p.strip()]
        if not maps:
            out.append("[shoe] deck_map: no deck map: enrol a deck (operator menu, or rummy-table diag --enrol)")
        for path in maps:
            if not os.path.isfile(path):
                out.append(f"[shoe] deck_map: {path} does not exist (enrol the deck into it)")
    return out


def _ask_pin() -> str:
    pin = getpass.getpass("new operator PIN (4-8 digits): ")
    if getpass.getpass("again: ") != pin:
        raise ValueError("the two PINs differ")
    return pin


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m display.table.config",
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
                for w in warnings(config):
                    print(f"warning: {w}", file=sys.stderr)
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
