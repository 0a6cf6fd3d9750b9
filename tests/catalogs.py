"""The gettext catalogs as Babel reads them, for the language tests."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from display.table import i18n

POT = i18n.LOCALE_DIR / "messages.pot"


def read(path: Path) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f)


def catalog(lang: str) -> Catalog:
    return read(i18n.catalog_path(lang))


def template() -> Catalog:
    return read(POT)


def messages(cat: Catalog) -> list[Message]:
    """Every entry but the header."""
    return [m for m in cat if m.id]


def ids(m: Message) -> list[str]:
    return [m.id] if isinstance(m.id, str) else list(m.id)


def strings(m: Message) -> list[str]:
    return [m.string] if isinstance(m.string, str) else list(m.string)


def missing_translations(lang: str) -> list[str]:
    """msgids of the template with no complete, non-fuzzy translation in ``lang``."""
    cat = catalog(lang)
    out = []
    for m in messages(template()):
        got = cat.get(m.id, m.context)
        if got is None or got.fuzzy or not all(strings(got)):
            out.append(ids(m)[0])
    return out
