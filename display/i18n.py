"""Player-facing text through gettext, with catalogs compiled in memory from ``.po`` files.

Every string a player reads goes through :func:`_` (or :func:`ngettext` for counts, and
:func:`N_` to mark a module-level constant that is translated later, at draw time).
Catalogs are ``display/locale/<lang>.po``; they are parsed and compiled to ``.mo`` bytes by
the small pure-Python msgfmt below, so a fresh ``pip install -e .`` needs no system tools.
Untranslated and fuzzy entries fall back to the English msgid.

Developer commands::

    python -m display.i18n update     # re-extract msgids from display/ into every .po
    python -m display.i18n check      # list missing translations per language
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "rummy_table"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
PACKAGE_DIR = Path(__file__).resolve().parent
LANGUAGES: dict[str, str] = {
    "en": "English",
    "id": "Bahasa Indonesia",
    "ru": "Русский",
    "pt": "Português",
}
PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "id": "nplurals=1; plural=0;",
    "ru": (
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
        "(n%100<10 || n%100>=20) ? 1 : 2);"
    ),
    "pt": "nplurals=2; plural=(n != 1);",  # pt_PT (seed 004 is European Portuguese)
}


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read; names the file and line."""


@dataclass
class Entry:
    """One catalog entry."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    fuzzy: bool = False
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and all(self.msgstr) and bool(self.msgstr)


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CatalogError(f"{where}: expected a quoted string, got {text!r}")
    try:
        return ast.literal_eval(text)
    except (SyntaxError, ValueError) as exc:
        raise CatalogError(f"{where}: bad string {text!r}") from exc


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """Parse ``.po`` text into entries (the header is the entry with msgid "")."""
    entries: list[Entry] = []
    cur: Entry | None = None
    field_name: str | None = None
    index = 0
    flags_fuzzy = False
    comments: list[str] = []

    def finish() -> None:
        nonlocal cur
        if cur is not None:
            entries.append(cur)
        cur = None

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{lineno}"
        if not line:
            continue
        if line.startswith("#"):
            if field_name == "msgstr" or (cur is not None and field_name and field_name != "msgctxt"):
                finish()
                field_name = None
            if line.startswith("#,") and "fuzzy" in line:
                flags_fuzzy = True
            else:
                comments.append(line)
            continue
        keyword, _sep, rest = line.partition(" ")
        if line.startswith('"'):
            if cur is None or field_name is None:
                raise CatalogError(f"{where}: a continuation line outside an entry")
            value = _unquote(line, where)
            if field_name == "msgid":
                cur.msgid += value
            elif field_name == "msgid_plural":
                cur.msgid_plural = (cur.msgid_plural or "") + value
            elif field_name == "msgctxt":
                cur.msgctxt = (cur.msgctxt or "") + value
            else:
                cur.msgstr[index] += value
            continue
        if keyword == "msgctxt":
            finish()
            cur = Entry(msgid="", msgctxt=_unquote(rest, where), fuzzy=flags_fuzzy, comments=comments)
            flags_fuzzy, comments = False, []
            field_name = "msgctxt"
        elif keyword == "msgid":
            if cur is None or field_name != "msgctxt":
                finish()
                cur = Entry(msgid="", fuzzy=flags_fuzzy, comments=comments)
                flags_fuzzy, comments = False, []
            cur.msgid = _unquote(rest, where)
            field_name = "msgid"
        elif keyword == "msgid_plural":
            if cur is None:
                raise CatalogError(f"{where}: msgid_plural without msgid")
            cur.msgid_plural = _unquote(rest, where)
            cur.msgstr = []
            field_name = "msgid_plural"
        elif keyword == "msgstr":
            if cur is None:
                raise CatalogError(f"{where}: msgstr without msgid")
            cur.msgstr = [_unquote(rest, where)]
            index, field_name = 0, "msgstr"
        elif keyword.startswith("msgstr["):
            if cur is None or cur.msgid_plural is None:
                raise CatalogError(f"{where}: {keyword} without msgid_plural")
            try:
                index = int(keyword[7:-1])
            except ValueError:
                raise CatalogError(f"{where}: bad plural index {keyword!r}") from None
            while len(cur.msgstr) <= index:
                cur.msgstr.append("")
            cur.msgstr[index] = _unquote(rest, where)
            field_name = "msgstr"
        else:
            raise CatalogError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return entries


def compile_mo(entries: Iterable[Entry]) -> bytes:
    """GNU ``.mo`` bytes for the translated entries (and the header)."""
    table: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid and not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        if e.msgctxt is not None:
            key = e.msgctxt + "\x04" + key
        value = "\0".join(e.msgstr)
        if not e.msgid and "charset=" not in value:  # .mo readers need the charset
            value += "Content-Type: text/plain; charset=UTF-8\n"
        table[key.encode()] = value.encode()
    keys = sorted(table)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(table[k] + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + n * 16
    koffsets, voffsets = [], []
    pos = 0
    for k in keys:
        koffsets += [len(k), start + pos]
        pos += len(k) + 1
    pos2 = 0
    for k in keys:
        voffsets += [len(table[k]), start + len(ids) + pos2]
        pos2 += len(table[k]) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"{4 * n}i", *(koffsets + voffsets)) + ids + strs


def po_path(lang: str) -> Path:
    return LOCALE_DIR / f"{lang}.po"


def load_catalog(lang: str) -> list[Entry]:
    path = po_path(lang)
    return parse_po(path.read_text(encoding="utf-8"), str(path))


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang`` (English source strings for ``en`` or unknown)."""
    if lang not in LANGUAGES or not po_path(lang).exists():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(load_catalog(lang))))


_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def set_language(lang: str) -> str:
    """Switch every later ``_()`` call to ``lang``; returns the language in effect."""
    global _current, _lang
    if lang not in LANGUAGES:
        lang = "en"
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


# -- extraction and catalog maintenance (developer tools, used by tests) -------------------

_FUNCS = {"_": 1, "N_": 1, "ngettext": 2, "pgettext": 2}


def extract(paths: Iterable[Path] | None = None) -> list[Entry]:
    """Every literal passed to ``_``/``N_``/``ngettext``/``pgettext`` under display/."""
    if paths is None:
        paths = sorted(PACKAGE_DIR.rglob("*.py"))
    found: dict[tuple[str | None, str], Entry] = {}
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name not in _FUNCS or len(node.args) < _FUNCS[name]:
                continue
            args = node.args
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[: _FUNCS[name]]):
                continue
            where = f"{Path(path).relative_to(PACKAGE_DIR.parent)}:{node.lineno}"
            if name == "ngettext":
                e = Entry(args[0].value, msgid_plural=args[1].value, msgstr=["", ""])
            elif name == "pgettext":
                e = Entry(args[1].value, msgctxt=args[0].value)
            else:
                e = Entry(args[0].value)
            if e.key in found:
                found[e.key].comments.append(f"#: {where}")
            else:
                e.comments = [f"#: {where}"]
                found[e.key] = e
    return list(found.values())


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_po(lang: str, entries: list[Entry]) -> str:
    """Text of a ``.po`` file (header first)."""
    out = [
        f"# Rummy Table player-facing text: {LANGUAGES.get(lang, lang)}.",
        'msgid ""',
        'msgstr ""',
        _quote(f"Language: {lang}\n"),
        _quote("MIME-Version: 1.0\n"),
        _quote("Content-Type: text/plain; charset=UTF-8\n"),
        _quote("Content-Transfer-Encoding: 8bit\n"),
        _quote(f"Plural-Forms: {PLURAL_FORMS[lang]}\n"),
        "",
    ]
    for e in entries:
        if not e.msgid:
            continue
        out += [c for c in e.comments if c.startswith("#")]
        if e.fuzzy:
            out.append("#, fuzzy")
        if e.msgctxt is not None:
            out.append(f"msgctxt {_quote(e.msgctxt)}")
        out.append(f"msgid {_quote(e.msgid)}")
        if e.msgid_plural is not None:
            out.append(f"msgid_plural {_quote(e.msgid_plural)}")
            for i, s in enumerate(e.msgstr):
                out.append(f"msgstr[{i}] {_quote(s)}")
        else:
            out.append(f"msgstr {_quote(e.msgstr[0] if e.msgstr else '')}")
        out.append("")
    return "\n".join(out)


def nplurals(lang: str) -> int:
    return int(PLURAL_FORMS[lang].split(";")[0].split("=")[1])


def update_catalogs() -> None:
    """Merge freshly extracted msgids into every ``.po`` (keeps existing translations)."""
    fresh = extract()
    for lang in LANGUAGES:
        old = {e.key: e for e in load_catalog(lang)} if po_path(lang).exists() else {}
        merged = []
        for e in fresh:
            prev = old.get(e.key)
            n = nplurals(lang) if e.msgid_plural is not None else 1
            msgstr = list(prev.msgstr) if prev else [""] * n
            msgstr = (msgstr + [""] * n)[:n]
            merged.append(Entry(e.msgid, e.msgid_plural, e.msgctxt, msgstr,
                                prev.fuzzy if prev else False,
                                [c for c in (prev.comments if prev else []) if not c.startswith("#:")]
                                + e.comments))
        po_path(lang).write_text(render_po(lang, merged), encoding="utf-8")


def missing_translations(lang: str) -> list[str]:
    """msgids in the source with no (non-fuzzy) translation in ``lang``."""
    have = {e.key: e for e in load_catalog(lang)}
    missing = []
    for e in extract():
        got = have.get(e.key)
        if got is None or (lang != "en" and not got.translated):
            missing.append(e.msgid)
    return missing


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["update"]:
        update_catalogs()
        print("updated", ", ".join(str(po_path(lang)) for lang in LANGUAGES))
        return 0
    if argv[:1] == ["check"]:
        bad = 0
        for lang in LANGUAGES:
            miss = missing_translations(lang)
            bad += len(miss)
            print(f"{lang}: {len(miss)} missing")
            for m in miss:
                print(f"   {m!r}")
        return 1 if bad else 0
    print("usage: python -m display.i18n update|check")
    return 2


if __name__ == "__main__":
    sys.exit(main())
