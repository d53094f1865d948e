"""The engine's document memo (issue 18: a document dense with findings).

Without a memo across calls, ``Engine.check_text`` runs the reference rules
once per distinct reference of a document and moves the findings to every
further occurrence.  That must be invisible: the findings (every field,
fixes and their edits included), suppression counts, errors and reference
counts equal those of a check that runs every rule on every occurrence
(``engine.DOCUMENT_MEMO = False``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, List

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint import engine as engine_module
from irilint.config import Settings
from irilint.engine import Engine
from irilint.reference_memo import shifted
from irilint.findings import Edit, Finding, Fix, Related, Severity
from irilint.lines import LineIndex

ALL_RULES = Settings(select=("ALL",), protected_domains=("paypal.com", "apple.com"))

#: References that repeat in a document: bidi text, escapes (valid and
#: not), look-alikes, invisible characters, plain ASCII, a template.
REFERENCES = (
    "http://example.com/עבר%zz",
    "https://مثال.example/مسار/5",
    "https://example.org/\u202eabc/",
    "http://example.com/%e2%82%ac/item",
    "https://раураl.com/login",
    "https://exa\u200bmple.org/",
    "http://EXAMPLE.org:80/./a/../b",
    "https://example.org/docs/page.html",
    "https://xn--bcher-kva.example/buch",
    "http://é.org/?a=1&b=%7e",
    "{{ base }}/path",
)

#: How a reference is written on a line, in several syntaxes (each scanner
#: reads what it understands of them).
SETTINGS_IN_LINE = (
    "text {} and more prose here",
    "[link]({})",
    "<{}>",
    '<a href="{}">x</a>',
    '{{"url": "{}"}}',
    "{} {}",
    "({}) <!-- irilint: ignore[IRI205] -->",
    "{} # irilint: ignore[bidi]",
    "\\{} after a backslash",
)

FORMATS = ("doc.md", "doc.html", "doc.txt", "doc.json")


def _html_escaped(value: str) -> str:
    return value.replace("&", "&amp;")


def _json_escaped(value: str) -> str:
    return value.replace("/", "\\/")


@st.composite
def documents(draw: Any) -> str:
    """Lines that use few distinct references many times over, some of
    them spelled another way (escapes of HTML or JSON), so one value comes
    with several source spellings."""
    refs = draw(st.lists(st.sampled_from(REFERENCES), min_size=1, max_size=3, unique=True))
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        ref = draw(st.sampled_from(refs))
        spelling = draw(st.sampled_from((str, _html_escaped, _json_escaped)))
        form = draw(st.sampled_from(SETTINGS_IN_LINE))
        lines.append(form.format(spelling(ref), spelling(ref)))
    return "\n".join(lines) + "\n"


class _DocumentMemo:
    def __init__(self, on: bool) -> None:
        self.on = on

    def __enter__(self) -> None:
        self.old = engine_module.DOCUMENT_MEMO
        engine_module.DOCUMENT_MEMO = self.on

    def __exit__(self, *exc: Any) -> None:
        engine_module.DOCUMENT_MEMO = self.old


def outcome(text: str, path: str, settings: Settings, on: bool, with_index: bool = False) -> tuple:
    with _DocumentMemo(on):
        r = Engine().check_text(text, path=path, settings=settings,
                                index=LineIndex(text) if with_index else None)
    return r.findings, r.suppressed, r.errors, r.references


def _fields(findings: List[Finding]) -> List[tuple]:
    return [(f.rule.code, f.severity, f.message, f.start, f.end, f.ref_start, f.ref_end, f.iri, f.path,
             [(fx.title, fx.safe, [(e.start, e.end, e.new_text) for e in fx.edits]) for fx in f.fixes],
             list(f.related)) for f in findings]


@hsettings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=documents(), fmt=st.sampled_from(FORMATS), all_rules=st.booleans(), with_index=st.booleans())
def test_the_document_memo_gives_exactly_what_checking_every_occurrence_gives(text, fmt, all_rules,
                                                                              with_index):
    settings = ALL_RULES if all_rules else Settings()
    path = "/project/" + fmt
    fast = outcome(text, path, settings, True, with_index)
    slow = outcome(text, path, settings, False, with_index)
    assert _fields(fast[0]) == _fields(slow[0])
    assert fast == slow
    # each finding its own object (merging same-character findings tells
    # them apart by identity)
    assert len({id(f) for f in fast[0]}) == len(fast[0])


def test_the_dense_document_of_the_bench_equals_the_slow_path():
    line = " ".join(["text http://example.com/עבר%zz and more prose here"] * 4)
    text = "\n".join([line] * 50) + "\n"
    fast = outcome(text, "dense.md", Settings(), True)
    slow = outcome(text, "dense.md", Settings(), False)
    assert fast == slow and len(fast[0]) == 400 and fast[3] == 200
    # the fixes moved with their references: each edit lies in its own
    assert all(f.ref_start <= e.start <= e.end <= f.ref_end
               for f in fast[0] for fx in f.fixes for e in fx.edits)
    assert any(f.fixes for f in fast[0])


def _counting(monkeypatch: Any, name: str) -> List[int]:
    from irilint.rules import registry

    rule = next(r for r in registry.select_rules(select=("ALL",)).rules if r.name == name)
    calls = [0]
    original = rule.check

    def counted(ctx: Any) -> Any:
        if ctx.doc.path is not None:  # not a fix's judgement (a reference alone)
            calls[0] += 1
        return original(ctx)

    monkeypatch.setattr(rule, "check", counted)
    return calls


def test_a_repeated_reference_is_checked_once(monkeypatch):
    calls = _counting(monkeypatch, "bidi-mixed-direction")
    text = "see http://example.com/עבר%zz and http://example.com/אחר\n" * 30
    with _DocumentMemo(True):
        found = Engine().check_text(text, path="a.md", settings=ALL_RULES).findings
    assert calls[0] == 2
    calls[0] = 0
    with _DocumentMemo(False):
        assert Engine().check_text(text, path="a.md", settings=ALL_RULES).findings == found
    assert calls[0] == 60


def test_a_memo_across_calls_is_used_instead(monkeypatch):
    engine = Engine(memo_size=100)
    text = "see http://example.com/עבר%zz\n" * 5
    engine.check_text(text, path="a.md")
    assert engine.memo is not None and engine.memo.misses == 1 and engine.memo.hits == 4


def test_a_failing_rule_is_reported_on_every_occurrence(monkeypatch):
    from irilint.rules import registry

    victim = next(r for r in registry.select_rules().rules if r.name == "bidi-mixed-direction")

    def boom(ctx: Any) -> Any:
        raise ValueError("broken")

    monkeypatch.setattr(victim, "check", boom)
    text = "see http://example.com/עבר%zz\n" * 3
    fast = outcome(text, "a.txt", Settings(), True)
    assert len(fast[2]) == 3 and all("broken" in e for e in fast[2])
    assert fast == outcome(text, "a.txt", Settings(), False)


# -- moving a finding --------------------------------------------------------

def _reference_shifted(f: Finding, delta: int) -> Finding:
    """What the engine's shift must equal: dataclasses.replace, as it was."""
    return replace(
        f, start=f.start + delta, end=f.end + delta,
        ref_start=f.ref_start + delta, ref_end=f.ref_end + delta,
        fixes=[Fix(fx.title, tuple(Edit(e.start + delta, e.end + delta, e.new_text) for e in fx.edits),
                   fx.safe) for fx in f.fixes])


def _rules() -> Iterator[Any]:
    from irilint.rules import registry

    return iter(registry.select_rules(select=("ALL",)).rules)


RULES = list(_rules())[:5]

edits = st.builds(Edit, st.integers(0, 500), st.integers(0, 500), st.text(max_size=5))
fixes = st.builds(Fix, st.text(max_size=10), st.lists(edits, max_size=3).map(tuple), st.booleans())
related = st.builds(Related, st.text(max_size=10), st.integers(1, 9), st.integers(1, 9), st.integers(1, 9),
                    st.integers(1, 9), st.none() | st.just("b.md"))
finding_list = st.builds(
    Finding, st.sampled_from(RULES), st.sampled_from(list(Severity)), st.text(max_size=20),
    st.integers(0, 500), st.integers(0, 500), st.lists(fixes, max_size=3), st.integers(0, 500),
    st.integers(0, 500), st.text(max_size=10), st.none() | st.just("a.md"), st.lists(related, max_size=2))


@given(f=finding_list, delta=st.integers(-500, 500))
def test_shifting_a_finding_equals_dataclasses_replace(f, delta):
    got, want = shifted(f, delta), _reference_shifted(f, delta)
    assert got == want and type(got) is type(want)
    # a new finding and fix list (the memo keeps the old), fields shared as replace shares them
    assert got is not f and got.fixes is not f.fixes and got.related is want.related
    assert [type(fx.edits) for fx in got.fixes] == [tuple] * len(got.fixes)


@pytest.mark.parametrize("delta", [0, 7])
def test_shifting_moves_every_position(delta):
    rule = RULES[0]
    f = Finding(rule, Severity.WARNING, "m", 3, 5, [Fix("t", (Edit(3, 4, "x"), Edit(5, 5, "y")), False)],
                1, 9, "iri", "a.md")
    g = shifted(f, delta)
    assert (g.start, g.end, g.ref_start, g.ref_end) == (3 + delta, 5 + delta, 1 + delta, 9 + delta)
    assert [(e.start, e.end) for e in g.fixes[0].edits] == [(3 + delta, 4 + delta), (5 + delta, 5 + delta)]
