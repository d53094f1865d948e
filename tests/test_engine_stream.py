"""irilint.stream.check_stream yields exactly check_text's findings (same order,
same fields, fixes included), and leaves the same errors, facts,
suppressed and references counts, while holding only a window of them."""
from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "fuzz"))

from fuzz_strategies import FORMATS, embedded  # noqa: E402

from irilint.config import Settings  # noqa: E402
from irilint.engine import Engine  # noqa: E402
from irilint.stream import check_stream  # noqa: E402

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"
#: references that fire the document rules (collisions, DNS labels), the
#: template rules, and the per-reference ones
SPICE = ["http://paypal.com/a", "http://%s/b" % CYRILLIC_PAYPAL, "http://-shop..example/",
         "http://example.com/\u05e2\u05d1\u05e8%zz", "https://{{ host }}/x%zz", "http://ex\u0430mple.com/"]
#: comment syntax per format, for suppressions
COMMENTS = {"markdown": ("<!-- ", " -->"), "html": ("<!-- ", " -->"), "xml": ("<!-- ", " -->"),
            "rst": (".. ", ""), "python": ("# ", ""), "yaml": ("# ", ""), "toml": ("# ", ""),
            "turtle": ("# ", ""), "shellscript": ("# ", ""), "c": ("// ", ""), "text": ("# ", ""),
            "json": ("", "")}
SELECTORS = ["", "[IRI401]", "[IRI505]", "[confusable-collision]", "[IRI2]", "[nope]", "[IRI401, nope]",
             "[host]"]
SELECTIONS = [None, Settings(select=("ALL",), protected_domains=("example.com", "paypal.com")),
              Settings(select=("IRI2", "IRI5")), Settings(ignore=("IRI401",)),
              Settings(select=("IRI901", "IRI902", "IRI401"))]


@st.composite
def dense_documents(draw):
    fmt = draw(st.sampled_from(sorted(FORMATS)))
    spice = st.sampled_from(SPICE)
    pieces = [draw(embedded(fmt, st.one_of(spice, spice, st.just(draw(spice)))))
              for _ in range(draw(st.integers(1, 5)))]
    pieces = [draw(st.sampled_from(pieces)) for _ in range(draw(st.integers(1, 8)))]  # repeated references
    opener, closer = COMMENTS[fmt]
    out = []
    for piece in pieces:
        out.append(piece)
        if draw(st.integers(0, 2)) == 0:
            marker = "irilint: ignore%s%s" % (draw(st.sampled_from(["", "-file"])), draw(st.sampled_from(SELECTORS)))
            sep = draw(st.sampled_from(["\n", " "]))
            out.append(sep + opener + marker + closer + "\n")
    return fmt, FORMATS[fmt], "".join(out)


def streamed(engine, text, **kw):
    stream = check_stream(engine, text, **kw)
    facts = dict(stream.result.facts)  # known before the first finding: the project needs them first
    findings = list(stream)
    assert facts == stream.result.facts
    return findings, stream.result


def assert_same(engine, text, **kw):
    expected = engine.check_text(text, **kw)
    findings, result = streamed(engine, text, **kw)
    assert [(f.start, f.end, f.rule.code, f.message) for f in findings] == \
        [(f.start, f.end, f.rule.code, f.message) for f in expected.findings]
    assert findings == expected.findings  # every field, fixes included
    assert result.errors == expected.errors
    assert result.suppressed == expected.suppressed
    assert result.references == expected.references
    assert result.facts == expected.facts


@hsettings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(dense_documents(), st.sampled_from(SELECTIONS), st.booleans(), st.sampled_from([0, 1, 4096]))
def test_stream_equals_check_text(doc, settings, memo, max_whole):
    """``max_whole``: the candidates with an offset map the log keeps
    before it gives up and every pass scans (0, 1: it gives up early)."""
    from irilint.stream import _CandidateLog

    fmt, path, text = doc
    kept = _CandidateLog.MAX_WHOLE
    _CandidateLog.MAX_WHOLE = max_whole
    try:
        assert_same(Engine(memo_size=100 if memo else 0), text, path=path, settings=settings)
    finally:
        _CandidateLog.MAX_WHOLE = kept


def test_stream_findings_on_the_same_characters_are_merged_as_check_text_merges_them():
    text = "see http://ex\u0430mple.com/ and http://ex\u0430mple.com/ then http://example.com/\n"
    settings = Settings(select=("ALL",), protected_domains=("example.com",))
    expected = Engine().check_text(text, path="a.txt", settings=settings)
    assert any("also" in f.message for f in expected.findings)
    assert_same(Engine(), text, path="a.txt", settings=settings)


def test_stream_reports_unused_suppressions_where_check_text_does():
    text = ("http://a.example/%zz # irilint: ignore[IRI401]\n"
            "# irilint: ignore[IRI205, nope]\nhttp://b.example/%zz\nhttp://c.example/%zz\n")
    expected = Engine().check_text(text, path="a.txt")
    assert {f.rule.code for f in expected.findings} >= {"IRI901", "IRI902", "IRI401"}
    assert_same(Engine(), text, path="a.txt")


def test_stream_of_a_file_wide_suppression_without_selectors_is_empty():
    text = "# irilint: ignore-file\nhttp://a.example/%zz\n"
    findings, result = streamed(Engine(), text, path="a.txt")
    assert findings == [] and result.references == 0


def test_the_document_is_scanned_once_for_every_pass():
    """The document rules' first pass logs the candidates; the other
    passes read the log (the scanner is a generator that counts)."""
    line = "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here\n"
    text = line * 2000
    from irilint.scanners import scanner_for

    inner = scanner_for(path="a.txt")
    scanned = []

    class Counting:
        name = inner.name
        comments = inner.comments

        def scan(self, t):
            scanned.append(0)
            for cand in inner.scan(t):
                scanned[-1] += 1
                yield cand

    stream = check_stream(Engine(), text, path="a.txt", scanner=Counting())
    assert scanned == [2000]
    findings = list(stream)
    assert len(findings) == 4000 and scanned == [2000]
    assert findings == Engine().check_text(text, path="a.txt").findings


def test_a_finding_that_comes_after_its_place_went_out_is_told():
    """The window relies on each reference's findings lying in its span,
    the candidates coming in order: a scanner (or rule) that breaks it
    is told as an internal error, not a silent misorder."""
    text = " ".join("http://%s.example/%%zz" % c for c in "abcd") + "\n"
    from irilint.scanners import scanner_for

    inner = scanner_for(path="a.txt")

    class Backwards:
        name = inner.name
        comments = inner.comments

        def scan(self, t):
            a, b, c, d = inner.scan(t)
            return [a, c, d, b]  # b's finding comes once c's went out

    findings, result = streamed(Engine(), text, path="a.txt", scanner=Backwards())
    assert any("out of order" in e for e in result.errors)
    findings, result = streamed(Engine(), text, path="a.txt")
    assert result.errors == []


# -- the window itself, on made-up findings -----------------------------------

def _rules():
    from irilint.rules.registry import all_rules

    every = all_rules()
    # rules that merge (specificity > 0) of two specificities, and one that never does
    merging = sorted((r for r in every if r.specificity > 0), key=lambda r: (r.specificity, r.code))
    return [merging[0], merging[1], merging[-1], merging[-2]] + [r for r in every if r.specificity == 0][:1]


RULES = _rules()


@st.composite
def references_with_findings(draw):
    """(candidate start, [(kind, finding)]) in candidate order, each
    finding inside its reference as the engine's are; kind 0: the
    reference's own, 1: a document rule's, 2: a suppression rule's."""
    from irilint.findings import Finding, Severity

    out = []
    start = 0
    for _ in range(draw(st.integers(1, 6))):
        start += draw(st.integers(0, 3))
        length = draw(st.integers(1, 4))
        found = []
        for _ in range(draw(st.integers(0, 5))):
            s = start + draw(st.integers(0, length))
            e = s + draw(st.integers(0, 2))
            r = draw(st.sampled_from(RULES))
            kind = draw(st.sampled_from([0, 0, 0, 1, 2]))
            found.append((kind, Finding(rule=r, severity=draw(st.sampled_from(list(Severity))),
                                        message="m%d" % len(found), start=s, end=e,
                                        ref_start=draw(st.sampled_from([start, s])), ref_end=e + 1)))
        out.append((start, found))
    return out


@hsettings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(references_with_findings())
def test_the_window_gives_check_texts_order_and_merges(refs):
    """Emitting below each next candidate's start gives what check_text
    does with the whole list: merge_same_characters over its order (the
    references' findings, then the document rules', then the suppression
    rules'), then a stable sort."""
    import heapq

    from irilint.engine import merge_same_characters
    from irilint.findings import Finding
    from irilint.stream import _emit

    listed = [f for kind in (0, 1, 2) for _, found in refs for k, f in found if k == kind]
    expected = merge_same_characters(listed) if len(listed) > 1 else listed
    expected = sorted(expected, key=Finding.sort_key)

    order = {id(f): n for n, f in enumerate(listed)}  # a finding's place in check_text's list
    pending, out, last = [], [], [()]
    for k, f in ((k, f) for _, found in refs for k, f in found if k != 0):  # known up front
        heapq.heappush(pending, (f.start, f.end, f.rule.code, k, order[id(f)], f))
    for start, found in refs:
        out.extend(_emit(pending, start, last))
        for k, f in found:
            if k == 0:
                heapq.heappush(pending, (f.start, f.end, f.rule.code, 0, order[id(f)], f))
    out.extend(_emit(pending, None, last))
    assert [(f.start, f.end, f.rule.code, f.message, f.severity) for f in out] == \
        [(f.start, f.end, f.rule.code, f.message, f.severity) for f in expected]
