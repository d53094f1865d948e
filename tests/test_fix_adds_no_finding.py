"""No fix, safe or unsafe, gives a reference a finding it did not have.

For every fix offered on a generated reference, the findings after applying
that one fix are counted per rule and compared with those before: no rule
reports more often.  So are the findings after ``--fix`` and ``--fix
--unsafe-fixes`` until stable (as ``check --fix`` loops).  The fixes that
decode are held to more: no look-alike, bidi or host rule flags the text
they write.  ``Engine.safe_to_iri`` is held to the same standard.
"""
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from irilint.config import Settings
from irilint.convert import iri_pieces, to_iri
from irilint.engine import JUDGED_FAMILIES, Engine, check_reference
from irilint.fix_loop import fix_until_stable
from irilint.fileio import apply_edits
from iri_strategies import iri_reference, spoof_reference

PROPERTY = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))

# Every rule, the ones off by default too: a fix must not trip any of them.
SELECT = ["ALL"]
DECODING_RULES = ("punycode-label", "percent-encoded-text", "percent-encoded-unreserved")
references = st.one_of(iri_reference(), spoof_reference())


def counts(findings):
    return Counter(f.rule.code for f in findings)


def added(before, after):
    """The rules that report more often after than before."""
    return {code: (before.get(code, 0), n) for code, n in after.items() if n > before.get(code, 0)}


@PROPERTY
@given(references)
@example("https://xn--80ak6aa92e.com/login")
@example("http://example.org/pay%D1%80al")
@example("http://xn--fa-hia.de/%D0%B0bc")
@example("foo://e.org/%D1%80%D0%B0%D1%83%D1%80%D0%B0%D3%8F1%E2%80%AElogin")  # RLO splits a mixed word
@example("http://e.org/a%C3%A9%74%C3%A9")  # decoding %74 joins two runs
@example("urn:%e2%7E%e2")  # decoding %7E splits a lowercase run
@example("foo://e.org/\u05dd%41%E6%97%A5\u672c")  # decoded, "A" makes a mixed-script word
@example("http://e.org/%257%41")  # decoded, "%257A" reads as double encoding
@example("http://e.org/%25b%41")  # and "%25bA"
@example("http://e.org/%e2%80%ae%EF%BD%81%e2%80%ae")  # NFKC "a" splits a lowercase run
@example("foo:%z\u00e9\u202e\u05ddt@")  # encoding the component encodes a literal RLO
def test_no_single_fix_adds_a_finding(iri):
    findings = check_reference(iri, select=SELECT)
    before = counts(findings)
    for f in findings:
        for fx in f.fixes:
            after_text = apply_edits(iri, sorted(fx.edits, key=lambda e: e.start))
            after_findings = check_reference(after_text, select=SELECT)
            after = counts(after_findings)
            assert not added(before, after), (f.rule.name, fx.title, fx.safe, iri, after_text, added(before, after))
            if f.rule.name not in DECODING_RULES:
                continue
            # a fix that decodes writes no text that a look-alike, bidi or
            # host rule flags (the rules see through encoding: before the
            # fix they reported the same spoof, as hidden)
            # (one fix may decode several runs: percent-encoded-text gives
            # one hint per reference; edits apply in order, so each new
            # text lands shifted by what the earlier edits changed)
            shift = 0
            for edit in sorted(fx.edits, key=lambda e: e.start):
                a = edit.start + shift
                b = a + len(edit.new_text)
                shift += len(edit.new_text) - (edit.end - edit.start)
                on_it = [g.rule.name for g in after_findings
                         if g.rule.family in JUDGED_FAMILIES and g.start < b and a < g.end]
                assert not on_it, (f.rule.name, fx.title, iri, after_text, on_it)


ALL = Settings(select=tuple(SELECT))


@PROPERTY
@given(references, st.booleans())
@example("foo://e.org/%D1%80%D0%B0%D1%83%D1%80%D0%B0%D3%8F1%E2%80%AElogin", True)
@example("https://xn--80ak6aa92e.com/login", True)
@example("http://example.com/\u05e9%2e%2ea", False)
@example("http://\u00e9%)@example.com", False)
@example("http://example.com/%25%41%41", False)  # decoded together: "%25AA" reads as double encoding
@example("http://example.com/%%41%42", False)  # "%AB": the stray "%" and both digits make an escape
def test_fixing_until_stable_adds_no_finding(iri, unsafe):
    engine = Engine()
    doc = "see %s here\n" % iri
    before = counts(engine.check_text(doc, path="doc.txt", settings=ALL, run_state={}).findings)
    text, _applied = fix_until_stable(engine, doc, path="doc.txt", settings=ALL, unsafe=unsafe)  # as ``check --fix``
    after = counts(engine.check_text(text, path="doc.txt", settings=ALL, run_state={}).findings)
    assert not added(before, after), (iri, unsafe, text, added(before, after))


@PROPERTY
@given(references)
@example("https://xn--80ak6aa92e.com/login")
def test_safe_to_iri_shows_nothing_a_rule_flags(uri):
    engine = Engine()
    iri, kept = engine.safe_to_iri(uri, ALL)
    judged = lambda text: counts(f for f in check_reference(text, select=SELECT)
                                 if f.rule.family in JUDGED_FAMILIES)
    assert not added(judged(uri), judged(iri)), (uri, iri)
    # what is kept is kept as written, and only pieces to_iri would decode
    pieces = {(p.start, p.end): p for p in iri_pieces(uri)}
    for k in kept:
        assert pieces[(k.piece.start, k.piece.end)] == k.piece
        assert k.finding.rule.family in JUDGED_FAMILIES
    # keeping nothing back is to_iri itself
    if not kept:
        assert iri == to_iri(uri)
    else:
        assert iri == to_iri(uri, keep_encoded=lambda p: (p.start, p.end) in
                             {(k.piece.start, k.piece.end) for k in kept})


def test_unsafe_fixes_keep_the_apple_spoof_as_an_a_label(tmp_path):
    from irilint.cli import main

    doc = tmp_path / "doc.md"
    doc.write_text("Log in at <https://xn--80ak6aa92e.com/login>.\n", encoding="utf-8")
    main(["check", "--fix", "--unsafe-fixes", "--select", "ALL", str(doc)])
    assert doc.read_text(encoding="utf-8") == "Log in at <https://xn--80ak6aa92e.com/login>.\n"


def test_escapes_of_one_component_are_judged_as_fix_applies_them_together():
    # Each %2e alone decodes to a text no rule flags more; both at once,
    # as one --fix pass applies them, end the Hebrew run with "..".
    engine = Engine()
    doc = "see http://example.com/\u05e9%2e%2ea here\n"
    found = engine.check_text(doc, path="doc.txt", settings=ALL, run_state={}).findings
    decodes = [f for f in found if f.rule.name == "percent-encoded-unreserved"]
    assert len(decodes) == 2 and all(not f.fixes for f in decodes), [(f.message, f.fixes) for f in decodes]
    assert all("bidi-component-edge (IRI104)" in f.message for f in decodes)
    # where they stay harmless together, they are still fixed
    plain = engine.check_text("see http://example.com/caf\u00e9%7e%7ex here\n", path="doc.txt", settings=ALL,
                              run_state={}).findings
    assert [bool(f.fixes) for f in plain if f.rule.name == "percent-encoded-unreserved"] == [True, True]


@pytest.mark.parametrize("iri, decoded", [
    ("http://e.org/%25%41%41", None),   # "%25AA" would read as double encoding
    ("http://e.org/%25%41%41x", None),
    ("http://e.org/%41%42", "http://e.org/AB"),  # adjacent, but nothing to complete
    ("http://e.org/%25%7E%7Ex", "http://e.org/%25~~x"),  # no hex digit among them
])
def test_adjacent_escapes_decoding_to_hex_digits_are_judged_together(iri, decoded):
    findings = [f for f in check_reference(iri, select=SELECT) if f.rule.name == "percent-encoded-unreserved"]
    assert len(findings) == 2
    safe = [fx for f in findings for fx in f.fixes if fx.safe]
    if decoded is None:
        assert safe == []
        assert all("double-percent-encoding" in f.message for f in findings)
    else:
        edits = sorted((e for fx in safe for e in fx.edits), key=lambda e: e.start)
        assert apply_edits(iri, edits) == decoded
