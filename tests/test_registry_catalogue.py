"""A warm run reads its results without importing the rule modules: the
rule catalogue (irilint.rules.catalogue) gives a cached finding its rule,
and each project rule's facts codec (irilint.rules.project_rules.FACTS_CODECS)
reads its cached facts.  Both tables are checked against what the rule
modules register, and the warm output against a run without the cache."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from irilint.rules import catalogue, project_rules
from irilint.rules.registry import all_rules

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"


def _generator():
    tool = Path(__file__).resolve().parent.parent / "tools" / "gen_rule_catalogue.py"
    spec = importlib.util.spec_from_file_location("gen_rule_catalogue", tool)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_catalogue_names_every_registered_rule():
    with open(catalogue.__file__, encoding="utf-8") as fh:
        current = fh.read()
    assert current == _generator().render(), (
        "irilint/rules/catalogue.py is out of date: run python tools/gen_rule_catalogue.py")
    assert catalogue.CATALOGUE == {r.name: (r.code, r.family, r.check.__module__) for r in all_rules()}


def test_facts_codecs_are_the_project_rules_own_steps():
    project = {r.name: r for r in all_rules() if r.project is not None}
    assert set(project_rules.FACTS_CODECS) <= set(project)
    for name, r in project.items():
        codec = project_rules.facts_codec(name)
        for field in ("version", "encode", "decode", "may_report"):
            assert getattr(codec, field) is getattr(r.project, field), (name, field)
    assert project_rules.facts_codec("invalid-character") is None
    assert project_rules.facts_codec("no-such-rule") is None


def _python(code: str, cwd: str, env_extra=None) -> str:
    env = dict(os.environ)
    env.pop("IRILINT_NO_CACHE", None)  # (the test session's default)
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_catalogued_rule_is_completed_in_place_when_more_is_asked(tmp_path):
    out = _python("""
        import sys
        from irilint.rules.registry import RULE_MODULES, Rule, get_rule, registered_rule
        r = registered_rule("invalid-character")
        assert (r.name, r.code, r.family, r.url_fragment) == (
            "invalid-character", "IRI001", "syntax", "iri001-invalid-character")
        assert registered_rule("invalid-character") is r
        assert not any(m in sys.modules for m in RULE_MODULES), "no rule module yet"
        assert str(r.severity) and r.check.__name__  # imports its module
        assert "irilint.rules.syntax" in sys.modules and type(r) is Rule
        assert get_rule("IRI001") is r and get_rule("invalid-character") is r
        assert registered_rule("no-such-rule") is None
        print("ok")
    """, str(tmp_path))
    assert out.strip() == "ok"


def test_a_stale_catalogue_entry_is_an_error_not_a_rule(tmp_path):
    out = _python("""
        from irilint.rules import catalogue, registry
        catalogue.CATALOGUE["vanished-rule"] = ("IRI999", "syntax", "irilint.rules.syntax")
        r = registry.registered_rule("vanished-rule")
        try:
            r.severity
        except LookupError as exc:
            print("LookupError", "out of date" in str(exc))
        registry.load_rules()
        print(registry.get_rule("vanished-rule"), len(registry.all_rules()))
    """, str(tmp_path))
    assert out.split("\n")[:2] == ["LookupError True", "None %d" % len(all_rules())]


def test_a_catalogue_entry_with_another_code_stops_its_module(tmp_path):
    out = _python("""
        from irilint.rules import catalogue, registry
        catalogue.CATALOGUE["invalid-character"] = ("IRI009", "syntax", "irilint.rules.syntax")
        registry.registered_rule("invalid-character")
        try:
            registry.load_rules()
        except ValueError as exc:
            print("ValueError", "out of date" in str(exc))
    """, str(tmp_path))
    assert out.strip() == "ValueError True"


@pytest.mark.parametrize("fmt", ["json", "text", "sarif"])
def test_a_warm_run_imports_no_rule_module_and_prints_what_a_cold_one_does(tmp_path, fmt):
    # (SARIF describes every rule: it imports them all, and prints the same)
    docs = tmp_path / "docs"
    docs.mkdir()
    # findings of several families, and a host collision across two files
    # (a project rule's facts, and its reduction)
    (docs / "a.md").write_text("see http://%s/x and HTTP://Example.com/a%%zz\n" % CYRILLIC_PAYPAL,
                               encoding="utf-8")
    (docs / "b.md").write_text("see http://paypal.com/ and http://exa\u200bmple.com/\n", encoding="utf-8")
    (docs / "c.md").write_text("nothing here but http://example.org/\n", encoding="utf-8")
    cache_root = tmp_path / "cache"
    cache_root.mkdir()
    run = """
        import sys
        from irilint.cli import main
        code = main(["check", "--format", "%s", "--jobs", "1", "docs"] + sys.argv[1:])
        from irilint.rules.registry import RULE_MODULES
        print("\\nMODULES", sorted(m for m in RULE_MODULES if m in sys.modules), "EXIT", code)
    """ % fmt
    env = {"IRILINT_CACHE_ROOT": str(cache_root)}
    uncached = _python(run.replace("sys.argv[1:]", '["--no-cache"]'), str(tmp_path), env)
    cold = _python(run, str(tmp_path), env)
    warm = _python(run, str(tmp_path), env)
    body, _, tail = warm.rpartition("\nMODULES")
    assert tail.strip().endswith("EXIT 1") and (fmt == "sarif" or tail.strip() == "[] EXIT 1"), tail
    assert body == uncached.rpartition("\nMODULES")[0] == cold.rpartition("\nMODULES")[0]
    if fmt == "json":
        rules = {f["name"] for f in json.loads(body)}
        assert {"confusable-collision", "invisible-character", "uppercase-scheme"} <= rules
    assert os.path.isdir(cache_root / ".irilint_cache")


@pytest.mark.parametrize("severity", ["error", "warning", "info", "hint", " Error", "WARNING", "bad", "", 3, None])
@pytest.mark.parametrize("rows", [[], [["a.com", 3]], [["a.com", 0]], "x", [["\u0430.com", "a.com", "\u0430.com", 1,
                                                                               None, []]]])
def test_decoded_facts_are_what_the_plain_reading_makes(severity, rows):
    from irilint.findings import Severity
    from irilint.rules.collisions import decode_hosts
    from irilint.rules.project_rules import Collected, decode_facts

    def plain():
        return {"confusable-collision": Collected(Severity.parse(severity), decode_hosts(rows))}

    outcomes = []
    for read in (lambda: decode_facts({"confusable-collision": [1, severity, rows]}), plain):
        try:
            outcomes.append(read())
        except (ValueError, TypeError, AttributeError, KeyError):
            outcomes.append("miss")
    assert outcomes[0] == outcomes[1]
