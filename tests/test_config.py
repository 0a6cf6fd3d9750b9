"""display.config: layered TOML, every error reported at once, hashed operator PIN."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display import config as cfg
from display.config import check_pin, hash_pin, load_config, main, verify_pin_hash

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
