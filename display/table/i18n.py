"""Player-facing text through gettext, from the compiled catalogs shipped in the package.

Every string a player reads goes through :func:`_` (or :func:`ngettext` for counts,
:func:`pgettext` for a word with a context, and :func:`N_` to mark a module-level constant
that is translated later, at draw time).

Catalogs are Babel's standard layout under ``display/locale/``: the template
``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po`` with its compiled ``messages.mo``.
The ``.mo`` files are committed and installed as package data, and read here with the
stdlib :mod:`gettext`, so a fresh install needs no system tools. Untranslated and fuzzy
entries are left out of the ``.mo`` by ``pybabel compile`` and fall back to the English
msgid. Extraction, merging and compiling are ``pybabel extract / update / compile``
(``docs/translations.md``); ``.ci/run.d/catalogs.sh`` fails when any of them is stale.
"""

from __future__ import annotations

import gettext
import logging
from pathlib import Path

DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "id": "Bahasa Indonesia",
    "ru": "Русский",
    "pt": "Português",
}

log = logging.getLogger(__name__)


def catalog_path(lang: str, suffix: str = ".po") -> Path:
    """Where ``lang``'s catalog lives (``suffix`` ``.po`` or ``.mo``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang`` (the English source strings for ``en`` or unknown)."""
    if lang not in LANGUAGES or lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    except OSError:
        log.warning("no compiled catalog %s; showing English", catalog_path(lang, ".mo"))
        return gettext.NullTranslations()


_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = SOURCE_LANGUAGE


def set_language(lang: str) -> str:
    """Switch every later ``_()`` call to ``lang``; returns the language in effect."""
    global _current, _lang
    if lang not in LANGUAGES:
        lang = SOURCE_LANGUAGE
    _current = translations(lang)
    _lang = lang
    return lang


def language() -> str:
    return _lang


def _(message: str) -> str:
    """Translate ``message`` in the current language."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a count-dependent message (Russian has three forms)."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate a card term with a context (``pgettext("call", "Knock")``)."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Mark a constant for extraction; translate it later with ``_()``."""
    return message
