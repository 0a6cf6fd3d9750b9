#!/usr/bin/env bash
# CI: the gettext catalogs under display/locale/ are up to date.
#   1. the template messages.pot holds exactly the msgids `pybabel extract` finds in display/;
#   2. every <lang>/LC_MESSAGES/messages.po holds exactly the template's msgids, and there is
#      one .po for every language of display.table.i18n.LANGUAGES but English (the source);
#   3. every committed messages.mo says what `pybabel compile` makes of its .po now.
# Only msgids (with context and plural) are compared, not line numbers, so moving code does
# not fail the check. Untranslated entries are the tests' business (test_display_i18n.py).
#
#   bash .ci/run.d/catalogs.sh            check (exit 1 and say what is stale)
#   bash .ci/run.d/catalogs.sh --update   extract, update and compile (docs/translations.md)
#
# Environment: CATALOGS_ROOT (the repository; default: this script's), PYTHON (default
# .venv/bin/python, else python3) with Babel installed; pybabel runs as that Python.
set -euo pipefail
cd "${CATALOGS_ROOT:-$(dirname "$0")/../..}"
if [[ -z ${PYTHON:-} ]]; then
    if [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
pybabel() { "$PYTHON" -c 'import sys; from babel.messages.frontend import main; sys.exit(main())' "$@"; }
LOCALE=display/locale
POT=$LOCALE/messages.pot
version=$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')

extract() {  # extract OUTPUT_POT
    pybabel -q extract -F babel.cfg --no-wrap --add-comments=TRANSLATORS: \
        --no-default-keywords -k _ -k N_ -k ngettext:1,2 -k pgettext:1c,2 \
        --project "Rummy Table" --version "$version" --copyright-holder "the Rummy Table authors" \
        -o "$1" display
}

if [[ ${1:-} == --update ]]; then
    extract "$POT"
    pybabel -q update -i "$POT" -d "$LOCALE" --no-wrap --ignore-obsolete --ignore-pot-creation-date
    pybabel compile -d "$LOCALE" --statistics
    exit 0
fi
[[ $# -eq 0 ]] || { echo "usage: $0 [--update]"; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extract "$tmp/messages.pot"
for po in "$LOCALE"/*/LC_MESSAGES/messages.po; do
    [[ -e $po ]] || continue
    lang=$(basename "$(dirname "$(dirname "$po")")")
    pybabel -q compile -l "$lang" -i "$po" -o "$tmp/$lang.mo"
done

"$PYTHON" - "$tmp" "$LOCALE" <<'EOF'
"""Compare msgids of the fresh template, the committed template and each .po; and the
fresh .mo with the committed .mo."""
import sys
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

tmp, locale = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, ".")
from display.table.i18n import LANGUAGES, SOURCE_LANGUAGE  # noqa: E402


def keys(path):
    with open(path, "rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in read_po(f) if m.id}


def mo(path):
    with open(path, "rb") as f:
        cat = read_mo(f)
    strings = {(m.context, str(m.id)): m.string for m in cat if m.id}
    return strings, cat.plural_forms


def show(items):
    return "; ".join(repr(i[1] if i[0] is None else i) for i in sorted(items, key=str)[:8])


problems = []
fresh = keys(tmp / "messages.pot")
pot = locale / "messages.pot"
have = keys(pot) if pot.exists() else set()
if not pot.exists():
    problems.append(f"{pot} is missing")
if fresh - have:
    problems.append(f"{pot} lacks {len(fresh - have)} msgids found in display/: {show(fresh - have)}")
if have - fresh:
    problems.append(f"{pot} has {len(have - fresh)} msgids no longer in display/: {show(have - fresh)}")
langs = sorted(p.parent.parent.name for p in locale.glob("*/LC_MESSAGES/messages.po"))
want = sorted(set(LANGUAGES) - {SOURCE_LANGUAGE})
if langs != want:
    problems.append(f"catalogs for {langs}, display.table.i18n.LANGUAGES wants {want}")
for lang in langs:
    po = locale / lang / "LC_MESSAGES" / "messages.po"
    got = keys(po)
    if fresh - got:
        problems.append(f"{po} lacks {len(fresh - got)} msgids: {show(fresh - got)}")
    if got - fresh:
        problems.append(f"{po} has {len(got - fresh)} msgids no longer in display/: {show(got - fresh)}")
    committed = po.with_suffix(".mo")
    if not committed.exists():
        problems.append(f"{committed} is missing")
    elif mo(committed) != mo(tmp / f"{lang}.mo"):
        problems.append(f"{committed} is older than {po.name} (compile it)")
for p in problems:
    print("CI catalogs:", p)
if problems:
    print("CI catalogs: FAIL; run `bash .ci/run.d/catalogs.sh --update`, translate, commit")
    sys.exit(1)
print(f"CI catalogs: ok ({len(fresh)} msgids; {', '.join(langs)} match the code and their .mo)")
EOF
