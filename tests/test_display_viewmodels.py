"""The view-models the table scenes draw: built without pygame, frozen, and equal exactly
when what they show is equal (they are the regions' cache keys)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_view_model_builders_import_no_pygame():
    code = ("import sys; import display.table.viewmodels, display.table.viewmodels.gin, display.table.viewmodels.contract, "
            "display.table.viewmodels.review; bad = sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'); "
            "print(bad); sys.exit(1 if bad else 0)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert got.returncode == 0, f"display.table.viewmodels pulls in pygame: {got.stdout}{got.stderr}"


@pytest.fixture
def app(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.app import App
    from display.table.config import load_config

    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    app = App(config, mode="headless", size=(800, 480), state_dir=tmp_path, seed=5, clock=lambda: 1000.0)
    yield app
    app.close()


@pytest.mark.parametrize(("game", "seats"), [("gin", 2), ("contract", 4)])
def test_view_models_are_frozen_and_equal_for_the_same_picture(app, game, seats):
    app.change(privacy="open")
    app.start_match(game, [{"name": f"P{i + 1}", "kind": "human"} for i in range(seats)])
    scene = app.scene
    if game == "gin":
        first, again = scene.view_models(), scene.view_models()
        vms = [first[1], *(vm for _p, vm in first[2])]
        assert first[1:] == again[1:]
    else:
        panels = scene.panels()
        from display.layout import centre_area

        centre = centre_area(scene.size, panels)
        first, again = scene.view_models(panels, centre), scene.view_models(panels, centre)
        vms = [first[0], *(vm for row in first[1] for vm in row)]
        assert first == again
    for vm in vms:
        assert dataclasses.is_dataclass(vm)
        field = dataclasses.fields(vm)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(vm, field, None)
    # a flash on seat 0 changes what its panel shows, and so its view-model
    scene.flash(0, "hello")
    if game == "gin":
        after = scene.view_models()
        assert after[2][0][1] != first[2][0][1] and after[2][0][1].status == "hello"
        assert after[2][1][1] == first[2][1][1], "the other seat's panel is unchanged"
    else:
        after = scene.view_models(panels, centre)
        assert after[1][0][2] != first[1][0][2] and after[1][0][2].status == "hello"
        assert after[1][1] == first[1][1], "the other seat's panel is unchanged"
