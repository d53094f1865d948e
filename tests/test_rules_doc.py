"""docs/rules.md is generated from the rules' docstrings and must be up
to date; every link irilint prints into it must land on a rule's anchor."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from irilint.output import DOCS_URL, rule_url
from irilint.rules.registry import DATA_FIX_SAFETY, all_rules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
TOOL = ROOT / "tools" / "gen_rules_doc.py"


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("gen_rules_doc", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rules_md_is_up_to_date(gen):
    assert DOC.exists(), "docs/rules.md is missing: run python tools/gen_rules_doc.py"
    assert DOC.read_text(encoding="utf-8") == gen.render(), (
        "docs/rules.md is out of date: run python tools/gen_rules_doc.py")


def test_every_rule_url_has_an_anchor():
    text = DOC.read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for r in all_rules():
        url = rule_url(r)
        assert url.startswith(DOCS_URL + "#")
        fragment = url.split("#", 1)[1]
        assert fragment in anchors, "%s: no anchor %r in docs/rules.md" % (r.code, fragment)
        # the heading right after the anchor names the rule
        assert '<a id="%s"></a>\n\n## %s %s\n' % (fragment, r.code, r.name) in text


def test_table_and_sections(gen):
    text = gen.render()
    rules = all_rules()
    for r in rules:
        row = "| [%s](#%s) | `%s` | %s | %s |" % (r.code, r.url_fragment, r.name, r.family, r.severity.label)
        assert row in text
    # each docstring section sits under the rule's heading, one level down
    assert "\n## What it does\n" not in text
    assert text.count("\n### What it does\n") == len(rules)
    assert text.count("\n### Fix safety\n") == len(rules)


def test_demote_leaves_code_fences_alone(gen):
    doc = "Summary.\n\n## Example\n```sh\n# a comment\n```\n## Why\n"
    assert gen._demote(doc) == "Summary.\n\n### Example\n```sh\n# a comment\n```\n### Why"


def test_check_mode(gen, tmp_path):
    out = tmp_path / "rules.md"
    cmd = [sys.executable, str(TOOL), "--output", str(out)]
    assert subprocess.run(cmd + ["--check"], capture_output=True).returncode == 1  # missing
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    assert out.read_text(encoding="utf-8") == gen.render()
    assert subprocess.run(cmd + ["--check"], capture_output=True).returncode == 0
    out.write_text(out.read_text(encoding="utf-8") + "stale\n", encoding="utf-8")
    r = subprocess.run(cmd + ["--check"], capture_output=True, text=True)
    assert r.returncode == 1 and "out of date" in r.stderr


def test_every_fix_safety_section_says_data_fixes_are_unsafe():
    """The same sentence in each reference rule that has a fix; not in the
    others (unused-suppression's fix removes a comment, no reference)."""
    for r in all_rules():
        section = re.search(r"## Fix safety\n(.*?)\n\s*## ", r.doc, re.S).group(1)
        says = DATA_FIX_SAFETY in " ".join(section.split())
        assert says == (r.fix != "none" and r.scope == "reference"), r.code
