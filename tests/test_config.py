"""display.table.config: layered TOML, every error reported at once, hashed operator PIN."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display.table import config as cfg
from display.table.config import check_pin, hash_pin, load_config, main, verify_pin_hash

ENV = {"HOME": "/home/t"}


def write(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_load_clean_and_match_the_dataclass_defaults():
    config, errors = load_config(None, env={**ENV, "RUMMY_TABLE_CONFIG": ""})
    assert errors == []
    assert config.display == cfg.DisplayConfig()
    assert config.game == cfg.GameConfig()
    assert config.shoe == cfg.ShoeConfig()
    assert config.paths.state_dir == "/home/t/.local/state/rummy-table"


def test_defaults_file_names_every_schema_key():
    data = tomllib.loads(cfg.DEFAULTS_PATH.read_text())
    for section, keys in cfg.SCHEMA.items():
        assert set(data[section]) == set(keys), section


def test_default_pin_is_1234_and_stored_hashed():
    config, _ = load_config(None, env=ENV)
    assert "1234" not in config.operator.pin_hash
    assert check_pin(config, "1234")
    assert not check_pin(config, "4321") and not check_pin(config, "")


def test_user_file_layers_over_defaults(tmp_path):
    path = write(tmp_path, '[display]\nrotation = 180\nlanguage = "ru"\n[game]\nbot_delay_s = 0\n')
    config, errors = load_config(path, env=ENV)
    assert errors == []
    assert config.display.rotation == 180 and config.display.language == "ru"
    assert config.display.width == 1280 and config.game.bot_delay_s == 0
    assert config.sources == (str(cfg.DEFAULTS_PATH), str(path))


def test_every_error_is_reported_at_once_with_file_key_and_reason(tmp_path):
    path = write(tmp_path, """
[display]
width = "wide"
rotation = 45
colour = 1
fullscreen = "yes"
[game]
default_game = "poker"
[nonsense]
x = 1
[operator]
pin_hash = "1234"
chord = ["menu"]
[buttons]
seats = { 0 = { knock = "GPIO99x" } }
""")
    config, errors = load_config(path, env=ENV)
    text = "\n".join(errors)
    assert len(errors) >= 9, text  # device.pins may add follow-on errors for [buttons]
    for needle in ("[display] width: must be a whole number",
                   "[display] rotation: must be one of 0, 90, 180, 270, got 45",
                   "[display] colour: unknown key", "[display] fullscreen: must be true or false",
                   "[game] default_game", "unknown section [nonsense]",
                   "[operator] pin_hash", "[operator] chord: unknown key", "buttons.seats.0.knock"):
        assert needle in text
    assert all(e.startswith(str(path)) for e in errors)
    assert config.display == cfg.DisplayConfig()  # the defaults while errors exist


def test_bad_toml_is_reported_not_raised(tmp_path):
    path = write(tmp_path, "[display\nwidth = 3\n")
    config, errors = load_config(path, env=ENV)
    assert len(errors) == 1 and "not valid TOML" in errors[0] and str(path) in errors[0]
    assert config.display.width == 1280


def test_explicit_missing_file_is_an_error_but_missing_system_file_is_not(tmp_path):
    _, errors = load_config(tmp_path / "nope.toml", env=ENV)
    assert errors and "file not found" in errors[0]
    _, errors = load_config(None, env=ENV)  # /etc/rummy-table/config.toml absent here
    assert errors == []


def test_env_config_path_and_overrides(tmp_path):
    path = write(tmp_path, '[paths]\nstate_dir = "/from/file"\n')
    env = {**ENV, "RUMMY_TABLE_CONFIG": str(path)}
    config, errors = load_config(None, env=env)
    assert errors == [] and config.paths.state_dir == "/from/file"
    env |= {"RUMMY_TABLE_STATE_DIR": "/from/env", "RUMMY_TABLE_LANGUAGE": "pt"}
    config, errors = load_config(None, env=env)
    assert config.paths.state_dir == "/from/env" and config.display.language == "pt"
    _, errors = load_config(None, env={**ENV, "RUMMY_TABLE_LANGUAGE": "fr"})
    assert errors == ["environment: RUMMY_TABLE_LANGUAGE: must be one of 'en', 'id', 'ru', "
                      "'pt', got 'fr'"]


def test_systemd_state_directory_is_used():
    config, _ = load_config(None, env={**ENV, "STATE_DIRECTORY": "/var/lib/rummy-table"})
    assert config.paths.state_dir == "/var/lib/rummy-table"


def test_config_is_frozen():
    config, _ = load_config(None, env=ENV)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.display.width = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.buttons["knock"] = "GPIO5"  # type: ignore[index]


def test_buttons_table_is_checked_by_device_pins(tmp_path):
    path = write(tmp_path, '[buttons]\noperator_chord = ["0.draw", "1.draw"]\n'
                 '[buttons.seats.0]\ndraw = "GPIO4"\n[buttons.seats.1]\ndraw = "GPIO17"\n')
    config, errors = load_config(path, env=ENV)
    assert errors == [], errors
    assert config.buttons["seats"]["1"] == {"draw": "GPIO17"}
    path = write(tmp_path, '[buttons]\nseat_count = 9\n')
    _, errors = load_config(path, env=ENV)
    assert len(errors) == 1 and "seat_count" in errors[0] and str(path) in errors[0]


@settings(max_examples=5, deadline=None)
@given(pin=st.from_regex(r"[0-9]{4,8}", fullmatch=True))
def test_hash_pin_round_trip(pin):
    h = hash_pin(pin, iterations=1000)
    assert h.startswith("pbkdf2$1000$") and pin not in h.split("$")[3]
    assert verify_pin_hash(h, pin)
    assert not verify_pin_hash(h, pin + "0")


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "", " 1234"])
def test_hash_pin_refuses_bad_pins(pin):
    with pytest.raises(ValueError, match="4 to 8 digits"):
        hash_pin(pin)


def test_salts_differ():
    assert hash_pin("1234", iterations=1000) != hash_pin("1234", iterations=1000)


def test_set_pin_cli_keeps_other_keys(tmp_path, capsys):
    path = write(tmp_path, '[display]\nrotation = 90\n\n[operator]\n# the PIN\n')
    assert main(["set-pin", "--config", str(path), "--pin", "2468"]) == 0
    config, errors = load_config(path, env=ENV)
    assert errors == [] and config.display.rotation == 90 and "# the PIN" in path.read_text()
    assert check_pin(config, "2468") and not check_pin(config, "1234")
    assert main(["set-pin", "--config", str(path), "--pin", "1357"]) == 0  # replaces, not adds
    assert path.read_text().count("pin_hash") == 1
    assert check_pin(load_config(path, env=ENV)[0], "1357")
    assert main(["set-pin", "--config", str(path), "--pin", "12"]) == 1
    assert "4 to 8 digits" in capsys.readouterr().err


def test_check_cli_lists_errors(tmp_path, capsys):
    path = write(tmp_path, "[display]\nfps = 0\n")
    assert main(["check", str(path)]) == 1
    assert "[display] fps: must be between 1 and 120, got 0" in capsys.readouterr().err
    assert main(["hash-pin", "--pin", "9999"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith('pin_hash = "pbkdf2$')


def test_broken_packaged_defaults_are_reported_not_raised(tmp_path, monkeypatch):
    broken = tmp_path / "defaults.toml"
    broken.write_text('[display]\nwidth = "wide"\nfps = 25\n[operator]\npin_hash = "x"\n')
    monkeypatch.setattr(cfg, "DEFAULTS_PATH", broken)
    config, errors = load_config(None, env=ENV)
    assert len(errors) == 2 and all(str(broken) in e for e in errors)
    assert config.display.width == 1280 and config.display.fps == 25  # valid values kept
    assert check_pin(config, "1234")


def test_default_pin_hash_constant_matches_defaults_file():
    data = tomllib.loads(cfg.DEFAULTS_PATH.read_text())
    assert data["operator"]["pin_hash"] == cfg.DEFAULT_PIN_HASH


# -- the loader survives any file, with its own clear error ------------------------------
def test_a_latin_1_file_names_the_file_and_the_byte(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_bytes("# drinks £2 at the bar\n[display]\nfps = 30\n".encode("latin-1"))
    config, errors = load_config(path, env=ENV)
    assert errors == [f"{path}: not UTF-8 text: byte 9 (0xA3) at line 1, column 10; "
                      "save the file as UTF-8"]
    assert config.display == cfg.DisplayConfig()
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "byte 9" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "content, needle",
    [
        (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deep"),
        (b"a = " + b"[" * 40 + b"1" + b"]" * 40, "nested too deep"),
        (b"x" * (cfg.MAX_BYTES + 1), "bigger than"),
        (b"[display\nwidth = 3\n", "not valid TOML at line 1"),
        (b"\x00\x01", "not valid TOML"),
        (b"\xef\xbb\xbf[display]\n", "not valid TOML"),  # a BOM: TOML has none
    ],
)
def test_every_way_the_file_can_fail_is_one_clear_error(tmp_path, content, needle):
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    _, errors = load_config(path, env=ENV)
    assert len(errors) == 1 and errors[0].startswith(f"{path}: ") and needle in errors[0]
    assert len(errors[0]) < 300


def test_a_directory_or_an_unreadable_file_is_an_error(tmp_path):
    _, errors = load_config(tmp_path, env=ENV)
    assert errors == [f"{tmp_path}: is a directory, not a file"]


def test_a_chord_on_knock_is_refused_for_the_seat_counts_without_knock(tmp_path):
    path = write(tmp_path, '[buttons]\noperator_chord = ["0.knock", "0.buy"]\n')
    _, errors = load_config(path, env=ENV)
    assert len(errors) == 1, errors
    assert "with 5, 6 seats" in errors[0] and "seat 0 has no 'knock' button" in errors[0]
    assert main(["check", str(path)]) == 1


@pytest.mark.parametrize("seats", [2, 5, 6])
def test_the_button_board_never_vanishes_for_a_chord_a_seat_count_lacks(seats):
    from display.table.hw import Hardware

    hw = Hardware(simulated=True, buttons_config={"operator_chord": ["0.knock", "0.buy"]},
                  seats=seats, poll_interval=None)
    try:
        assert hw.board is not None and len(hw.board.buttons()) >= 2 * seats
        if seats >= 5:
            assert any("using 0.draw + 0.buy" in p for p in hw.problems)
    finally:
        hw.board.close()


def test_unclear_messages_are_clear_and_every_error_comes_at_once(tmp_path):
    path = write(tmp_path, '[display]\nfps = "fast"\n[buttons]\noperator_chord = ["².draw", "0.buy"]\n'
                 '[buttons.seats."²"]\ndraw = "GPIO²"\n[buttons.seats.0]\ndraw = "GPIO4"\n'
                 'buy = "GPIO' + "9" * 200 + '"\n')
    _, errors = load_config(path, env=ENV)
    text = "\n".join(errors)
    assert "invalid literal" not in text
    assert "[display] fps: must be a whole number" in text
    assert "buttons.seats.²: seat must be 0..5" in text
    assert "operator_chord: '².draw' names a seat that has no buttons" in text
    assert "…" in text and max(map(len, errors)) < 300  # a 200-digit pin is quoted short


def test_problems_carry_a_gettext_template_for_the_error_screen(tmp_path):
    path = write(tmp_path, "[display]\nrotation = 45\n")
    (problem,) = load_config(path, env=ENV)[1]
    assert isinstance(problem, cfg.ConfigProblem)
    assert problem.reason.template == "must be one of {choices}, got {value}"
    upper = problem.translated(lambda s: s.upper().replace("{CHOICES}", "{choices}")
                               .replace("{VALUE}", "{value}"))
    assert upper == f"{path}: [display] rotation: MUST BE ONE OF 0, 90, 180, 270, GOT 45"
    assert cfg.describe("plain text", str.upper) == "plain text"


VALID = cfg.DEFAULTS_PATH.read_bytes() + b'\n[buttons]\noperator_chord = ["0.draw", "0.buy"]\n'


def _assert_clean_outcome(path, errors):
    for e in errors:
        assert isinstance(e, cfg.ConfigProblem), e
        assert e.startswith((f"{path}: ", f"{cfg.DEFAULTS_PATH}: ")), e
        assert len(e) < 400, e


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_give_a_config_or_clear_errors(data):
    _assert_loads_or_explains(data)


def _assert_loads_or_explains(data: bytes) -> None:
    """The bytes as a config file give a config, with errors that are clean if any."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = cfg.Path(d) / "config.toml"
        path.write_bytes(data)
        config, errors = load_config(path, env=ENV)
    _assert_clean_outcome(path, errors)
    assert isinstance(config, cfg.Config)


EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, len(VALID)),
                 st.binary(min_size=1, max_size=12))


@settings(max_examples=400, deadline=None)
@given(st.lists(EDIT, min_size=1, max_size=6))
def test_random_edits_of_a_valid_config_give_a_config_or_clear_errors(edits):
    data = VALID
    for kind, at, chunk in edits:
        at = min(at, len(data))
        if kind == "insert":
            data = data[:at] + chunk + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + len(chunk):]
        else:
            data = data[:at] + chunk + data[at + len(chunk):]
    _assert_loads_or_explains(data)
