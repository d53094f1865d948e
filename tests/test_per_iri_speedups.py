"""The per-reference shortcuts of issue 7 must find exactly what running
every rule in full finds.

``irilint.rules.gates.ENABLED = False`` turns off the character gates, the
grammar test of non-ASCII references (and of ASCII ones where the engine's
fast path is off), and the prechecks inside mixed-script,
whole-script-confusable, idn-invalid and bidi-mixed-direction.  These tests
run both ways on the same references and documents, and check the facts
about Unicode the shortcuts rely on against the running Python's data.
"""
from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint.config import Settings
from irilint.engine import Engine, _WholeTextScanner
from irilint.iri import parse
from irilint.rules import gates
from irilint.rules.context import _decode_view, build_view
from irilint.scanners import scanner_for

from iri_strategies import iri_reference

_ALL = Settings(select=("ALL",))
_DEFAULT = Settings()


def _key(res):
    return ([(f.rule.code, f.severity, f.start, f.end, f.message, f.ref_start, f.ref_end,
              [(fx.title, fx.edits, fx.safe) for fx in f.fixes]) for f in res.findings],
            res.errors, res.suppressed, res.references)


def _both(text, settings_, scanner=None, path="doc.txt"):
    """The result of ``text`` with the shortcuts on, and with them off."""
    out = []
    for enabled in (True, False):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(gates, "ENABLED", enabled)
            res = Engine().check_text(text, path=path, settings=settings_,
                                      scanner=scanner or _WholeTextScanner(), run_state={})
        out.append(_key(res))
    return out


# Characters every gate is about: letters of several scripts (both
# directions), marks, bidi controls, look-alikes of delimiters, full-width
# forms, invisible and compatibility characters, IDNA deviations,
# noncharacters, private use, Hangul jamo, uppercase letters.
_SPECIAL = list(
    "éÉüßẞçñΩσςКпримеррфаеорсху日本語例えパスשלוםמثالمسار٤٥۴क्षष한국가"
    "\u0301\u0308\u0323\u05b0\u064b\u200c\u200d\u202e\u202a\u2066\u200e\u061c\u200b\u00ad\u2060\ufeff"
    "\u2215\uff0f\uff1a\uff1f\u2024\u3002\uff0e\uff61\ufe56\u2044\u0589"
    "\uff21\uff41\uff10\uff76\uffe8\ufb01\u2460\u2126\u212a\u00b5\u01c4"
    "\ufdd0\ufffe\ue000\U000f0000\u1161\u11a8\u0bbe\u09be\u0b3e\u3099\u309a"
    "\u0430\u0440\u0435\u043e\u0441\u0443\u0445\u0455\u0456\u04cf"
    "\U0001f600\U0001f3f4\U000e0067\U000e007f\u2800\u3164\u115f"
)
_ASCII = list("abcxyzABCXYZ0123456789-._~!$&'()*+,;=:@/?#[] %<>\"{}|\\^`")


def _chars():
    return st.one_of(st.sampled_from(_SPECIAL), st.sampled_from(_ASCII),
                     st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, blacklist_categories=("Cs",)))


@st.composite
def non_ascii_reference(draw):
    """References made of IRI parts with any characters in them, mostly
    without "%" and "xn--" (so that the gates apply)."""
    part = st.lists(_chars(), max_size=6).map("".join)
    scheme = draw(st.sampled_from(["http", "https", "ftp", "mailto", "foo", "HTTP", "", "é"]))
    out = scheme + ":" if scheme else ""
    if draw(st.booleans()):
        out += "//"
        if draw(st.integers(0, 5)) == 0:
            out += draw(part) + "@"
        out += ".".join(draw(st.lists(part, min_size=1, max_size=3)))
        out += draw(st.sampled_from(["", "", ":80", ":", ":８０", ":99999"]))
    out += "".join("/" + s for s in draw(st.lists(part, max_size=3)))
    if draw(st.booleans()):
        out += "?" + draw(part) + "=" + draw(part)
    if draw(st.booleans()):
        out += "#" + draw(part)
    return out


_HYPO = dict(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(**_HYPO)
@given(non_ascii_reference(), st.sampled_from([_ALL, _DEFAULT]))
def test_shortcuts_find_what_every_rule_finds(value, settings_):
    on, off = _both(value, settings_)
    assert on == off


@settings(**_HYPO)
@given(iri_reference(), st.sampled_from([_ALL, _DEFAULT]))
def test_shortcuts_on_escapes_and_punycode(value, settings_):
    on, off = _both(value, settings_)
    assert on == off


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(non_ascii_reference().filter(lambda v: " " not in v and "\n" not in v), min_size=1, max_size=6),
       st.sampled_from([_ALL, _DEFAULT]))
def test_shortcuts_on_documents(values, settings_):
    # Several references in a document: the document rules
    # (confusable-collision) read the references after the reference
    # rules released their components and views.
    text = "".join("see <%s> here\n" % v for v in values) + "and https://пример.рф/x, https://рф.example/\n"
    on, off = _both(text, settings_, scanner=scanner_for(path="doc.txt"))
    assert on == off


@pytest.mark.parametrize("value", [
    "https://пример.рф/путь/1", "https://例え.jp/パス/2", "http://résumé.example.org/ü/3",
    "https://مثال.example/مسار/4", "https://münchen.example.de/straße/5", "https://раураl.com/",
    "https://аррӏе.com/", "http://xn--80ak6aa92e.com/", "http://é.ORG/x", "http://e\u0301.org/",
    "https://example.org/\u202eabc", "https://ex\u200bample.org/", "https://example.org\u2215evil/",
    "https://ｅｘａｍｐｌｅ.org/", "https://faß.de/", "https://مثال.123/", "https://a.b/مثالabc",
    "https://例え.jp/ﬁle", "http://h/\ue000", "http://h/?\ue000", "http://h/\ufdd0", "https://x/a\u1161",
])
@pytest.mark.parametrize("settings_", [_ALL, _DEFAULT], ids=["all", "default"])
def test_shortcuts_on_known_cases(value, settings_):
    on, off = _both(value, settings_)
    assert on == off


def test_shortcuts_skip_rules_on_plain_references():
    """The gates do skip rules (else the tests above compare nothing)."""
    from irilint.rules.registry import select_rules

    engine = Engine()
    selection = engine.selection_for(_ALL)
    rules = list(selection.rules)
    plan = engine._plan_for(selection, rules)
    run, grammar_ok = plan.run_for("https://пример.рф/путь/1")
    names = {r.name for r in run}
    assert grammar_ok
    assert "invalid-character" not in names and "bidi-control" not in names and "not-nfc" not in names
    assert "mixed-script" in names
    run, grammar_ok = plan.run_for("https://пример.рф/пу\u202eть/1")
    assert "bidi-control" in {r.name for r in run}
    run, grammar_ok = plan.run_for("https://пример.рф/пу ть/1")
    assert not grammar_ok and "invalid-character" in {r.name for r in run}
    assert {r.name for r in select_rules(select=("ALL",)).rules if r.gate is not None} >= {
        "bidi-control", "not-nfc", "delimiter-lookalike", "idna-deviation"}


@settings(**_HYPO)
@given(non_ascii_reference())
def test_grammar_checked_parse_is_the_parse(value):
    """Where the grammar test holds, the parser's shortcut gives the same
    reference, with no problem."""
    chars = frozenset(c for c in value if not c.isascii())
    if "%" in value or not chars or not gates.plain_syntax_match(value, gates.char_mask(chars)):
        return
    full = parse(value)
    assert full.problems == []
    assert parse(value, grammar_checked=True) == full


@settings(**_HYPO)
@given(st.one_of(non_ascii_reference(), iri_reference()))
def test_view_shortcut_is_the_decoded_view(value):
    ref = parse(value)
    assert build_view(value, ref) == _decode_view(value, ref)


# -- facts about Unicode the shortcuts rely on --------------------------------

def _composition_seconds():
    """Every character that is the second of a primary composition (and
    the Hangul jamo that compose with a syllable or a leading jamo)."""
    seconds = set()
    for cp in range(0x80, sys.maxunicode + 1):
        c = chr(cp)
        d = unicodedata.decomposition(c)
        if not d or d.startswith("<"):
            continue
        parts = d.split()
        if len(parts) == 2:
            a, b = (chr(int(p, 16)) for p in parts)
            if unicodedata.normalize("NFC", a + b) == c:
                seconds.add(b)
    seconds.update(chr(cp) for cp in range(0x1161, 0x1176))
    seconds.update(chr(cp) for cp in range(0x11A8, 0x11C3))
    return seconds


def test_nfc_inert_characters_never_compose():
    """gates.nfc_sensitive: a character it calls inert is NFC alone, a
    starter, not the second of any composition, and its decomposition
    starts with a starter that is not one either; ASCII is never a second.
    So a string of inert characters and ASCII is in NFC, and so is every
    substring (not-nfc's runs)."""
    seconds = _composition_seconds()
    assert not any(c.isascii() for c in seconds)
    assert all(gates.nfc_sensitive(c) for c in seconds)
    for cp in range(0x80, sys.maxunicode + 1):
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or gates.nfc_sensitive(c):
            continue
        assert unicodedata.is_normalized("NFC", c)
        first = unicodedata.normalize("NFD", c)[0]
        assert unicodedata.combining(first) == 0 and first not in seconds, hex(cp)


@settings(**_HYPO)
@given(st.lists(st.one_of(st.sampled_from(_ASCII), _chars().filter(lambda c: not gates.nfc_sensitive(c)))).map("".join))
def test_inert_strings_are_nfc(text):
    assert unicodedata.is_normalized("NFC", text)


def test_no_uppercase_holds_a_hyphen():
    """The engine tests "--" before uppercasing a reference for "XN--"."""
    assert not [cp for cp in range(0x80, sys.maxunicode + 1)
                if not 0xD800 <= cp <= 0xDFFF and "-" in chr(cp).upper()]


@settings(**_HYPO)
@given(non_ascii_reference())
def test_grammar_test_is_the_fast_path_on_the_skeleton(value):
    """gates.plain_syntax_match is fastpath.fast_match of the reference with
    "_" for each non-ASCII character (when they are all ucschar and the
    reference has no other trait)."""
    from irilint.rules.fastpath import fast_match

    chars = frozenset(c for c in value if not c.isascii())
    if not chars or "%" in value or "XN--" in value.upper():
        return
    mask = gates.char_mask(chars)
    expected = not mask & gates.NOT_UCSCHAR and fast_match(gates.skeleton(value)) is not None
    assert gates.plain_syntax_match(value, mask) == expected


def _first_char_slow(text, test):
    for ch in dict.fromkeys(text):
        if test(ch):
            return ch
    return None


@settings(**_HYPO)
@given(st.lists(_chars(), max_size=40).map("".join), st.integers(0, 400), st.sampled_from(["stop", "bracket"]))
def test_first_char_where_long_text(text, repeat, which):
    from irilint.rules.context import _first_char_where
    from irilint.scanners.text import bracket_char, prose_stop_char, trailing_char

    test = bracket_char if which == "bracket" else (
        lambda ch: prose_stop_char(ch) or (not ch.isascii() and trailing_char(ch)))
    long_text = "\u0301" * repeat + text + "e\u0301" * repeat  # past the short-text loop
    for t in (text, long_text):
        assert _first_char_where(t, test) == _first_char_slow(t, test)


@settings(**_HYPO)
@given(st.text(alphabet="ab\r\n\u2028", max_size=40), st.lists(st.integers(-2, 45), min_size=1, max_size=8))
def test_line_of_by_counting_is_line_of_by_table(text, offsets):
    """LineIndex.line_of counts line ends between queries in document
    order (also with "\\r" and CRLF line ends) instead of building the
    table: the same lines."""
    from irilint.lines import LineIndex

    counted, table = LineIndex(text), LineIndex(text)
    table.starts
    for offset in sorted(offsets) + offsets:  # in order, then in any order
        assert counted.line_of(offset) == table.line_of(offset)


class _NoMemo(dict):
    """A memo that never remembers: every reference judged anew."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value):
        pass


_HOST_PIECES = st.sampled_from(["a", "-", "--", ".", "..", "xn--", "ab", "\u00e9", "\u00ad", "%41", "x" * 64,
                                "\u4f8b", "1", ":80", "@", "EXAMPLE", "\u200b"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["http://", "https://", "//", "mailto:x@", "urn:", "ftp://u@"]),
                          st.lists(_HOST_PIECES, min_size=1, max_size=6).map("".join),
                          st.sampled_from(["", "/", "/p?q#f", ":8080/x"])), min_size=1, max_size=6),
       st.booleans())
def test_dns_label_syntax_remembered_per_value_equals_judging_each_reference(refs, twice):
    # Each value is judged once per run: a document repeating its
    # references, and later documents with them, get what judging each
    # occurrence anew gives, through the fast path and the full parse.
    from irilint.rules import host

    text = "\n".join("see %s%s%s here" % r for r in refs) + "\n"
    if twice:
        text = text + text
    settings_ = Settings(select=("dns-label-syntax",))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(host, "_DNS_PROBLEMS", {})
        remembered = [_both(text, settings_, scanner_for("doc.txt")) for _ in range(2)]
        mp.setattr(host, "_DNS_PROBLEMS", _NoMemo())
        judged = _both(text, settings_, scanner_for("doc.txt"))
    assert remembered[0] == remembered[1] == judged


def test_dns_label_syntax_reports_each_occurrence_of_a_remembered_value():
    text = "see http://-a..b.example/ here\nand http://-a..b.example/ again, http://ok.example/\n" * 2
    found = Engine().check_text(text, path="doc.txt", settings=Settings(select=("dns-label-syntax",))).findings
    starts = [text.find("http://-a", k) for k in (0, 30, 80, 110)]
    assert sorted({f.ref_start for f in found}) == sorted(set(starts)) and len(found) == 8
