"""Every rule number cited in code and tests (``G-13.3``, ``C-8.4``) is defined in docs/rules/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
CITED_IN = ("rummy", "display", "device", "tests")
CITATION = re.compile(r"(?<![\w-])([GC]-\d+(?:\.\d+)?)(?![\w-]|\.\d)")
SECTION = re.compile(r"^## ([GC]-\d+)\b", re.M)
RULE = re.compile(r"^\d+\. \*\*([GC]-\d+\.\d+)\*\* ", re.M)


def defined_rules(text: str) -> set[str]:
    """Section headings (``## G-13 …``) and numbered rules marked ``3. **G-13.3** …``."""
    return set(SECTION.findall(text)) | set(RULE.findall(text))


def cited_rules() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for top in CITED_IN:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue  # this file names unknown rules on purpose
            for rule in CITATION.findall(path.read_text(encoding="utf-8")):
                found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def test_the_rule_pages_number_every_rule_in_order():
    for name, prefix, last in (("gin.md", "G", 22), ("contract.md", "C", 15)):
        text = (RULES / name).read_text(encoding="utf-8")
        sections = SECTION.findall(text)
        assert sections == [f"{prefix}-{n}" for n in range(1, last + 1)], name
        for section in sections:
            numbers = [int(r.split(".")[1]) for r in RULE.findall(text) if r.split(".")[0] == section]
            assert numbers == list(range(1, len(numbers) + 1)), (name, section, numbers)


def test_the_citation_finder_reads_what_code_writes():
    text = "# G-13.3: pickup. See G-7…G-9 and (C-8.4); not X-1.2, GC-3, G-1.2.3 or G-4a."
    assert CITATION.findall(text) == ["G-13.3", "G-7", "G-9", "C-8.4"]
    defined = defined_rules((RULES / "gin.md").read_text(encoding="utf-8"))
    assert {"G-13", "G-13.3", "G-22.5"} <= defined and not {"G-5.7", "G-23", "G-13.7"} & defined


def test_every_cited_rule_is_in_docs_rules():
    defined = set()
    for page in RULES.glob("*.md"):
        defined |= defined_rules(page.read_text(encoding="utf-8"))
    cited = cited_rules()
    assert len(cited) > 100, "the code cites rules everywhere; did the pattern break?"
    unknown = {rule: sorted(files)[:3] for rule, files in cited.items() if rule not in defined}
    assert not unknown, f"rules cited but not in docs/rules/: {unknown}"
