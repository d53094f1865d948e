"""Project rules (irilint.rules.project_rules): collect facts per document,
reduce them across documents; confusable-collision is the first one."""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint.config import Settings
from irilint.engine import Engine
from irilint.lines import LineIndex
from irilint.rules.collisions import decode_hosts, encode_hosts, for_cache
from irilint.rules.project_rules import decode_facts, encode_facts, reduce_documents, with_project_findings
from irilint.rules.registry import get_rule
from cli_run import run

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"  # раураl.com
HOSTS = ["example.com", "ex\u0430mple.com", "\u0435x\u0430mple.com", "paypal.com", CYRILLIC_PAYPAL,
         "EXAMPLE.com", "other.org"]
ONLY = Settings(select=("confusable-collision",))


def _tree(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("[x](http://%s/login)\n" % CYRILLIC_PAYPAL, encoding="utf-8")
    (docs / "b.md").write_text("nothing to see\n", encoding="utf-8")
    (docs / "z.md").write_text("\n[pay](https://paypal.com/)\n", encoding="utf-8")
    return docs


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_reads_each_file_once(tmp_path, monkeypatch, jobs):
    import irilint.fileio as fileio

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    reads = Counter()
    real = fileio.read_document

    def counting(path, *args, **kwargs):
        reads[os.path.basename(os.fspath(path))] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(fileio, "read_document", counting)
    code, out, _ = run(["check", "--no-cache", "--jobs", jobs, "--select", "confusable-collision",
                        "--format", "json", "docs"])
    assert code == 1
    (item,) = [i for i in json.loads(out) if i["kind"] == "finding"]
    assert item["path"] == os.path.join("docs", "a.md") and (item["line"], item["column"]) == (1, 12)
    assert "docs/z.md, line 2".replace("/", os.sep) in item["message"]
    if jobs == "1":  # worker processes read in other processes: counted in-process only
        assert reads == {"a.md": 1, "b.md": 1, "z.md": 1}
    else:
        assert all(n == 1 for n in reads.values())


def test_a_suppressed_host_gets_no_finding_across_files(tmp_path, monkeypatch):
    docs = _tree(tmp_path)
    (docs / "a.md").write_text("[x](http://%s/login) <!-- irilint: ignore[IRI205] -->\n" % CYRILLIC_PAYPAL,
                               encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check", "--no-cache", "--select", "confusable-collision", "--format", "json", "docs"])
    assert [i for i in json.loads(out) if i["kind"] == "finding"] == []


def test_warm_runs_reduce_cached_facts_to_the_same_output(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["check", "--select", "confusable-collision", "--format", "json", "docs"]
    cold, warm = run(args), run(args)
    assert cold == warm and cold[0] == 1


# -- properties of collect and reduce ------------------------------------------

_line = st.one_of(
    st.sampled_from(["", "plain prose", "\u05e9\u05dc\u05d5\u05dd"]),
    st.tuples(st.sampled_from(HOSTS), st.sampled_from(["", "x", "a/b"])).map(lambda t: "see http://%s/%s" % t),
)
_documents = st.lists(st.lists(_line, min_size=1, max_size=5).map("\n".join), min_size=1, max_size=4)


def _collect(texts):
    engine = Engine()
    out = []
    for n, text in enumerate(texts):
        result = engine.check_text(text, path="d%d.txt" % n, settings=ONLY)
        assert result.errors == []
        out.append(result)
    return out


@hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents)
def test_cached_facts_round_trip(texts):
    for result in _collect(texts):
        for collected in result.facts.values():
            assert decode_hosts(json.loads(json.dumps(encode_hosts(collected.facts)))) == tuple(
                map(for_cache, collected.facts))
        assert decode_facts(json.loads(json.dumps(encode_facts(result.facts)))) == {
            name: replace(c, facts=tuple(map(for_cache, c.facts))) for name, c in result.facts.items()}


@hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents, st.booleans())
def test_findings_across_documents_sit_on_their_hosts(texts, every_document):
    results = _collect(texts)
    found = reduce_documents([("d%d.txt" % n, r.facts) for n, r in enumerate(results)], every_document)
    named = Counter()
    for n, pfs in found.items():
        text, index = texts[n], LineIndex(texts[n])
        for pf in pfs:
            f, p = pf.finding, pf.place
            assert pf.document == n and f.rule.name == "confusable-collision" and f.path == "d%d.txt" % n
            # positions exact: the host as written, where the place says
            assert text[f.start:f.end] in HOSTS and f.iri == text[f.ref_start:f.ref_end]
            assert (p.line, p.column) == tuple(x + 1 for x in index.position(f.start))
            assert (p.end_line, p.end_column) == tuple(x + 1 for x in index.position(f.end))
            assert p.line_text == index.line_text(p.line - 1)
            for r in f.related:
                if r.path is not None:
                    named[frozenset((text[f.start:f.end].lower(), r.message))] += 1
    if not every_document:
        # a run names each pair of hosts of different files once
        assert all(k == 1 for k in named.values())
    # the cache's facts reduce to the same findings in a run
    cached = [{name: replace(c, facts=tuple(map(for_cache, c.facts))) for name, c in r.facts.items()}
              for r in results]
    if not every_document:
        again = reduce_documents([("d%d.txt" % n, f) for n, f in enumerate(cached)])
        assert {n: [pf.finding for pf in v] for n, v in again.items()} == \
            {n: [pf.finding for pf in v] for n, v in found.items()}


@hsettings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(HOSTS[:5]), st.sampled_from(HOSTS[:5]))
def test_in_an_editor_a_collision_shows_on_both_documents(one, other):
    results = _collect(["see http://%s/" % one, "\nsee http://%s/" % other])
    found = reduce_documents([("a.md", results[0].facts), ("b.md", results[1].facts)], every_document=True)
    skeletons_equal = one.lower() != other.lower() and bool(
        results[0].facts["confusable-collision"].facts[0].skeleton
        == results[1].facts["confusable-collision"].facts[0].skeleton)
    collides = skeletons_equal and not (one.isascii() and other.isascii())
    assert sorted(found) == ([0, 1] if collides else [])
    once = reduce_documents([("a.md", results[0].facts), ("b.md", results[1].facts)])
    assert sum(len(v) for v in once.values()) == (1 if collides else 0)


def test_a_finding_across_documents_supersedes_the_documents_own_on_the_same_host():
    engine = Engine()
    settings = Settings(select=("confusable-collision",), protected_domains=("paypal.com",))
    a = engine.check_text("http://%s/\n" % CYRILLIC_PAYPAL, path="a.md", settings=settings)
    z = engine.check_text("http://paypal.com/\n", path="z.md", settings=settings)
    (own,) = a.findings  # the protected domain
    found = reduce_documents([("a.md", a.facts), ("z.md", z.facts)])
    (pf,) = found[0]
    merged = with_project_findings(a.findings, [pf.finding])
    assert merged == [pf.finding]
    assert pf.finding.message.startswith(own.message)
    assert pf.finding.message.endswith("; also with 'paypal.com' in z.md, line 1")


# -- rule properties: the engine and the server read the rule ----------------


def test_the_fast_path_follows_the_rules_own_word(monkeypatch):
    from irilint.rules.fastpath import SILENT_ON_FAST

    assert SILENT_ON_FAST == {
        "invalid-character", "noncharacter", "private-use-outside-query", "invalid-scheme",
        "invalid-port", "invalid-ip-literal", "uppercase-scheme", "uppercase-host", "dot-segments"}
    settings = Settings(select=("IRI0", "uppercase-host"))
    engine = Engine()
    selection = engine.selection_for(settings)
    assert engine._plan_for(selection, selection.rules).fast_path_on
    monkeypatch.setattr(get_rule("uppercase-host"), "fast_path_silent", False)
    engine = Engine()
    selection = engine.selection_for(settings)
    assert not engine._plan_for(selection, selection.rules).fast_path_on


def test_a_templates_mode_is_read_from_the_rule(monkeypatch):
    from irilint.engine import check_reference

    template = "HTTP://{host}/x"
    assert [f.rule.name for f in check_reference(template, select=["uppercase-scheme"])] == []
    monkeypatch.setattr(get_rule("uppercase-scheme"), "templates", "always")
    assert [f.rule.name for f in check_reference(template, select=["uppercase-scheme"])] == ["uppercase-scheme"]


def test_tags_reach_the_editor_from_the_rule(monkeypatch):
    from lsprotocol import types

    from irilint.lsp.diagnostics import diagnostic_json, to_diagnostic

    monkeypatch.setattr(get_rule("invalid-port"), "tags", frozenset(("deprecated",)))
    (f,) = Engine().check_text("http://a.b:99999/", settings=Settings(select=("invalid-port",))).findings
    index = LineIndex("http://a.b:99999/")
    assert to_diagnostic(f, index, "utf-16", 1).tags == [types.DiagnosticTag.Deprecated]
    assert diagnostic_json(f, index, "utf-16", 1)["tags"] == [int(types.DiagnosticTag.Deprecated)]


def test_rule_properties_are_checked_when_a_rule_is_declared():
    from irilint.rules.registry import rule

    for bad in ({"templates": "sometimes"}, {"tags": ("shiny",)}, {"scope": "project"},
                {"fast_path_silent": True, "scope": "document"}):
        with pytest.raises(ValueError):
            rule(name="not-a-rule", code="IRI999", family="meta", severity="info", **bad)
    meta = get_rule("unused-suppression")
    assert meta.scope == "suppressions" and not meta.suppressible and meta.tags == {"unnecessary"}
    assert get_rule("confusable-collision").project is not None
