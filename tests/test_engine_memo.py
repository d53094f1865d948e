"""The engine's per-reference memo (issue 7: the language server re-lints a
whole document on every change).

The memo must be invisible: linting a document with a warm memo gives
exactly the findings, fixes, suppression counts and errors of a cold
engine, whatever edits came before -- including the document-wide parts
(confusable hosts between references, suppression comments, unused
suppressions) and references whose source spelling differs from their
value (character references, JSON escapes, Markdown backslashes).
"""
from __future__ import annotations

from typing import Any, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint.config import Settings
from irilint.engine import Engine
from irilint.reference_memo import ReferenceMemo
from irilint.lines import LineIndex

#: Lines that exercise every kind of finding the rules make, in several
#: syntaxes (each scanner reads what it understands of them).
LINES = (
    "Plain text with no reference at all.",
    "See https://example.org/docs/page.html#intro for more.",
    "[the docs](https://example.org/a\\(b\\)/page) and more",
    "<https://пример.рф/путь/1>",
    "see https://例え.jp/パス/2 for more",
    "http://example.com/%e2%82%ac/item-3",
    "[IDN](https://xn--bcher-kva.example/buch/4)",
    "https://مثال.example/مسار/5",
    "<http://résumé.example.org/ü/6>",
    "login at https://раураl.com/login now",
    "login at https://paypal.com/login now",
    "https://аpple.com/ and https://apple.com/",
    '<a href="https://example.org/?a=1&amp;b=%7e&#x202E;x">link</a>',
    '<img src="http://EXAMPLE.org:80/./a/../b">',
    '{"url": "https:\\/\\/example.org\\/\\u0441\\u0430\\u0439\\u0442"}',
    # one value, two spellings: the same reference, with different offset maps
    '<a href="http://é.org/?a&amp;b=%7e">x</a>',
    '<a href="http://é.org/?a&#38;b=%7e">x</a>',
    '{"u": "http:\\/\\/é.org\\/%7e"}',
    '{"u": "http://é.org/%7e"}',
    "bidi https://example.org/\u202eabc/ here",
    "invisible https://exa\u200bmple.org/ here",
    "template {{ base }}/path and ${root}/x",
    "<!-- irilint: ignore[IRI205] -->",
    "https://раураl.com/ <!-- irilint: ignore -->",
    "# irilint: ignore[bidi]",
    "HTTP://Example.ORG/%7Euser/",
    "ftp://ftp.example.net/pub/file.tar.gz",
    "",
)

#: Characters an edit may insert: inside a reference they change it, around
#: it they move it (or join/split lines and constructs).
EDIT_CHARS = "a.é/%:()<>[]\"' \n#\u202e-"

FORMATS = ("doc.md", "doc.html", "doc.txt", "doc.json")

ALL_RULES = Settings(select=("ALL",), protected_domains=("paypal.com", "apple.com"))


def _lines(draw_lines: List[int]) -> str:
    return "\n".join(LINES[i] for i in draw_lines) + "\n"


edit = st.one_of(
    # insert one of LINES before line k (k taken modulo the line count)
    st.tuples(st.just("line"), st.integers(0, 200), st.integers(0, len(LINES) - 1)),
    # delete line k
    st.tuples(st.just("drop"), st.integers(0, 200), st.just(0)),
    # insert a character at offset k (modulo the length)
    st.tuples(st.just("char"), st.integers(0, 10_000), st.integers(0, len(EDIT_CHARS) - 1)),
    # delete the character at offset k
    st.tuples(st.just("del"), st.integers(0, 10_000), st.just(0)),
)


def apply_edit(text: str, op: Tuple[str, int, int]) -> str:
    kind, k, arg = op
    if kind in ("line", "drop"):
        lines = text.split("\n")
        i = k % len(lines)
        if kind == "line":
            lines.insert(i, LINES[arg])
        elif len(lines) > 1:
            del lines[i]
        return "\n".join(lines)
    if not text:
        return EDIT_CHARS[arg] if kind == "char" else text
    i = k % (len(text) + (1 if kind == "char" else 0))
    if kind == "char":
        return text[:i] + EDIT_CHARS[arg] + text[i:]
    return text[:i] + text[i + 1:]


def outcome(engine: Engine, text: str, path: str, settings: Any, with_index: bool) -> tuple:
    r = engine.check_text(text, path=path, settings=settings,
                          index=LineIndex(text) if with_index else None)
    return r.findings, r.suppressed, r.errors, r.references


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.lists(st.integers(0, len(LINES) - 1), min_size=1, max_size=25),
       edits=st.lists(edit, min_size=1, max_size=8),
       fmt=st.sampled_from(FORMATS),
       all_rules=st.booleans(),
       with_index=st.booleans())
def test_warm_memo_gives_exactly_what_a_cold_engine_gives(start, edits, fmt, all_rules, with_index):
    settings = ALL_RULES if all_rules else Settings()
    path = "/project/" + fmt
    warm = Engine(memo_size=10_000)
    text = _lines(start)
    versions = [text]
    for op in edits:
        text = apply_edit(text, op)
        versions.append(text)
    for version in versions:
        got = outcome(warm, version, path, settings, with_index)
        want = outcome(Engine(), version, path, settings, with_index)
        assert got == want, version
    # going back to the first version (every reference memoized, at other
    # offsets in between) changes nothing either
    assert outcome(warm, versions[0], path, settings, with_index) == \
        outcome(Engine(), versions[0], path, settings, with_index)


def test_an_unchanged_reference_is_not_checked_again():
    text = "".join("line %d https://пример.рф/путь/%d and http://e.org/%%7e%d\n" % (i, i, i)
                   for i in range(50))
    engine = Engine(memo_size=1000)
    engine.check_text(text, path="a.md", settings=ALL_RULES)
    memo = engine.memo
    assert memo is not None and memo.hits == 0 and len(memo) == 100
    edited = "new first line https://example.org/x\n" + text
    r = engine.check_text(edited, path="a.md", settings=ALL_RULES)
    assert memo.hits == 100 and memo.misses == 101
    assert r.findings == Engine().check_text(edited, path="a.md", settings=ALL_RULES).findings


def test_findings_move_with_their_reference():
    text = "see https://раураl.com/x\n"
    engine = Engine(memo_size=100)
    before = engine.check_text(text, path="a.txt", settings=ALL_RULES).findings
    after = engine.check_text("1234\n" + text, path="a.txt", settings=ALL_RULES).findings
    assert before and [(f.start + 5, f.end + 5, f.ref_start + 5) for f in before] == \
        [(f.start, f.end, f.ref_start) for f in after]
    edits_before = [e.start + 5 for f in before for fx in f.fixes for e in fx.edits]
    assert edits_before == [e.start for f in after for fx in f.fixes for e in fx.edits]


def test_settings_path_and_scanner_key_the_memo():
    text = "https://раураl.com/ and http://e.org/%7e\n"
    engine = Engine(memo_size=100)
    for path in ("a.md", "b.md", "a.html", "a.md"):
        for s in (Settings(), ALL_RULES, Settings(ignore=("IRI205",))):
            assert engine.check_text(text, path=path, settings=s).findings == \
                Engine().check_text(text, path=path, settings=s).findings


def test_the_memo_is_bounded():
    memo = ReferenceMemo(max_entries=10)
    engine = Engine()
    engine.memo = memo
    # non-ASCII: references that no rule could flag may skip the memo
    text = "".join("http://é.org/%d\n" % i for i in range(30))
    engine.check_text(text, path="a.txt")
    assert len(memo) == 10


def test_settings_that_cannot_key_a_memo_turn_it_off():
    from irilint.config import Settings

    class Mutable(Settings):  # hashed by identity: a change to it would go unseen
        __hash__ = object.__hash__

    engine = Engine(memo_size=100)
    s = Mutable(select=("ALL",))
    text = "http://é.org/%7e\n"
    found = engine.check_text(text, settings=s).findings
    assert engine.memo is not None and len(engine.memo) == 0
    assert found and found == Engine().check_text(text, settings=s).findings


@pytest.mark.parametrize("memo_size", [0, 5])
def test_a_failing_rule_is_reported_on_every_run(monkeypatch, memo_size):
    from irilint.rules import registry

    engine = Engine(memo_size=memo_size)
    rules = [r for r in registry.select_rules().rules if r.scope == "reference" and r.needs is None]
    victim = rules[0]

    def boom(ctx):
        raise ValueError("broken")

    monkeypatch.setattr(victim, "check", boom)
    for _ in range(2):
        # The uppercase host keeps the grammar rules running (on a valid
        # reference they are skipped: irilint.rules.gates).
        r = engine.check_text("see http://é.ORG/x\n", path="a.txt")
        assert len(r.errors) == 1 and "broken" in r.errors[0]


@pytest.mark.parametrize("path, first, second", [
    ("a.html", '<a href="http://é.org/?a&amp;b=%7e">x</a>', '<a href="http://é.org/?a&#038;b=%7e">x</a>'),
    ("a.json", '["http:\\/\\/é.org\\/%7e",', '"http://é.org/%7e"]'),
])
def test_one_value_spelled_two_ways_keeps_each_spelling(path, first, second):
    text = first + "\n" + second + "\n"
    engine = Engine(memo_size=100)
    engine.check_text(first + "\n", path=path, settings=ALL_RULES)
    warm = engine.check_text(text, path=path, settings=ALL_RULES).findings
    cold = Engine().check_text(text, path=path, settings=ALL_RULES).findings
    assert warm == cold and len({f.iri for f in cold}) == 1


class _DocWithoutText:
    """What a reference-scope rule may read of its document: the memo keys
    on the scanner name, the path and the settings, so the text and the
    run state are off limits."""

    #: the engine's judgements of a fix (decoding, edit) are functions of
    #: the reference and the settings alone, so rules may ask them; none here
    judge_decoding = judge_edit = None

    def __init__(self, path: str, scanner: str, settings: Any) -> None:
        self.path, self.scanner, self.settings = path, scanner, settings

    def __getattr__(self, name: str) -> Any:
        raise AssertionError("a reference-scope rule read the document's %r" % name)


@pytest.mark.parametrize("value", [
    "https://раураl.com/login", "http://EXAMPLE.org:80/./a/../%7e", "https://例え.jp/パス/%e2%82%ac",
    "https://xn--bcher-kva.example/\u202eabc", "https://exa\u200bmple.org/a b", "{{ base }}/x",
    "mailto:ａｄｍｉｎ@example.org", "http://[::1]:8080/ü?q=é#frag", "https://مثال.example/مسار/5",
])
def test_reference_rules_read_nothing_of_the_document_but_the_memo_key(value):
    from irilint.iri import parse
    from irilint.rules.context import RefContext
    from irilint.rules.registry import select_rules
    from irilint.scanners.base import Candidate

    selection = select_rules(select=("ALL",))
    doc = _DocWithoutText("/p/a.md", "markdown", ALL_RULES)
    ran = 0
    for r in selection.rules:
        if r.scope != "reference":
            continue
        ctx = RefContext(Candidate(3, 3 + len(value), value, context="angle"), parse(value), doc)
        ctx.rule, ctx.severity = r, selection.severity_of(r)
        list(r.check(ctx) or ())
        ran += 1
    assert ran > 10
