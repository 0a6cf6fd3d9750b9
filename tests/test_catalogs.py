"""`.ci/run.d/catalogs.sh`: passes on the repository, and fails on each way the catalogs go
stale (a new string in the code, a .po edited but not compiled, a .mo missing); its
--update mode (pybabel extract / update / compile) makes a stale tree pass again and keeps
the translations. The shipped .mo says what the .po says."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import catalogs
import pytest

from display.table import i18n

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "run.d" / "catalogs.sh"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CATALOGS_ROOT=str(root), PYTHON=sys.executable)
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of what the check reads: display/ (code and catalogs), babel.cfg, pyproject."""
    shutil.copytree(ROOT / "display", tmp_path / "display",
                    ignore=shutil.ignore_patterns("__pycache__", "fonts", "*.png"))
    for name in ("babel.cfg", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_the_repository_catalogs_are_up_to_date():
    r = run(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "CI catalogs: ok" in r.stdout


def test_a_new_string_in_the_code_fails_until_update_adds_it(tree):
    code = tree / "display" / "scenes" / "attract.py"
    code.write_text(code.read_text(encoding="utf-8")
                    + '\n\ndef _later() -> str:\n    return _("A brand-new sentence")\n', encoding="utf-8")
    r = run(tree)
    assert r.returncode == 1
    assert "messages.pot lacks 1 msgids" in r.stdout and "A brand-new sentence" in r.stdout
    assert run(tree, "--update").returncode == 0
    r = run(tree)
    assert r.returncode == 0, r.stdout + r.stderr
    ru = catalogs.read(tree / "display" / "locale" / "ru" / "LC_MESSAGES" / "messages.po")
    assert ru.get("A brand-new sentence").string == ""  # waits for a translator
    assert ru.get("Contract rummy").string == catalogs.catalog("ru").get("Contract rummy").string


def test_a_po_edited_but_not_compiled_fails(tree):
    po = tree / "display" / "locale" / "pt" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Rummy de contratos"' in text
    po.write_text(text.replace('msgstr "Rummy de contratos"', 'msgstr "Rummy com contratos"'),
                  encoding="utf-8")
    r = run(tree)
    assert r.returncode == 1 and "pt/LC_MESSAGES/messages.mo is older" in r.stdout
    (tree / "display" / "locale" / "id" / "LC_MESSAGES" / "messages.mo").unlink()
    r = run(tree)
    assert "id/LC_MESSAGES/messages.mo is missing" in r.stdout


def test_a_removed_string_or_a_missing_language_fails(tree):
    pot = tree / "display" / "locale" / "messages.pot"
    pot.write_text(pot.read_text(encoding="utf-8") + '\nmsgid "Gone for good"\nmsgstr ""\n',
                   encoding="utf-8")
    shutil.rmtree(tree / "display" / "locale" / "ru")
    r = run(tree)
    assert r.returncode == 1
    assert "no longer in display/: 'Gone for good'" in r.stdout
    assert "catalogs for ['id', 'pt']" in r.stdout


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE])
def test_the_shipped_mo_says_what_the_po_says(lang):
    t = i18n.translations(lang)
    for m in catalogs.messages(catalogs.catalog(lang)):
        if m.fuzzy or not all(catalogs.strings(m)):
            continue
        if m.pluralizable:
            forms = {t.ngettext(m.id[0], m.id[1], n) for n in range(0, 30)}
            assert forms == set(catalogs.strings(m)), (lang, m.id)
        elif m.context:
            assert t.pgettext(m.context, m.id) == m.string
        else:
            assert t.gettext(m.id) == m.string
