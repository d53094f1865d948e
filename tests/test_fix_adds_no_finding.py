"""Fixes and conversions that decode never show what a rule warns about.

For every fix that decodes (an A-label: punycode-label; a run of escapes:
percent-encoded-text) offered on a generated reference, the findings after
applying that one fix are counted per rule and compared with those before:
no rule reports more often.  ``Engine.safe_to_iri`` is held to the same
standard.
"""
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from irilint.convert import iri_pieces, to_iri
from irilint.engine import JUDGED_FAMILIES, Engine, check_reference
from irilint.fileio import apply_edits
from iri_strategies import iri_reference, spoof_reference

PROPERTY = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))

# Every rule, the ones off by default too: a fix must not trip any of them.
SELECT = ["ALL"]
DECODING_RULES = ("punycode-label", "percent-encoded-text")
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
def test_no_decoding_fix_adds_a_finding(iri):
    findings = check_reference(iri, select=SELECT)
    before = counts(findings)
    for f in findings:
        if f.rule.name not in DECODING_RULES:
            continue
        for fx in f.fixes:
            after_text = apply_edits(iri, sorted(fx.edits, key=lambda e: e.start))
            after_findings = check_reference(after_text, select=SELECT)
            after = counts(after_findings)
            assert not added(before, after), (f.rule.name, fx.title, fx.safe, iri, after_text, added(before, after))
            # and no look-alike, bidi or host rule flags the decoded text
            # itself (the rules see through encoding: before the fix they
            # reported the same spoof as hidden)
            [edit] = fx.edits
            a, b = edit.start, edit.start + len(edit.new_text)
            on_it = [g.rule.name for g in after_findings
                     if g.rule.family in JUDGED_FAMILIES and g.start < b and a < g.end]
            assert not on_it, (f.rule.name, fx.title, iri, after_text, on_it)


class _All:
    select = tuple(SELECT)
    ignore = ()
    extend_select = ()
    severity = ()


@PROPERTY
@given(references)
@example("https://xn--80ak6aa92e.com/login")
def test_safe_to_iri_shows_nothing_a_rule_flags(uri):
    engine = Engine()
    iri, kept = engine.safe_to_iri(uri, _All)
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
