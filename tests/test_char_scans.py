"""The shortcuts that make long non-ASCII references cheap (distinct
characters judged once, regex searches, lazy views) must agree with the
plain per-character definitions they replace, on short and long text."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from irilint import parse
from irilint.chars import SHORT_TEXT, distinct_non_ascii, first_of, positions_of
from irilint.rules import bidi
from irilint.rules.context import LITERAL, DecodedView, build_view
from irilint import unicode_security
from irilint.unicode_security import _resolve, _scripts_in, restriction_level

ALPHABET = list("aZ09/.-%:?#") + list("\u0301\u0300éüß日本пשمक्\u200b\u200d\u202e\ufb01\uff0f\u2215\u0660\u3002")


def long_or_short(alphabet=ALPHABET):
    """Short text, or text repeated past the thresholds of the shortcuts
    (pieces of the alphabet may be longer than one character)."""
    piece = st.lists(st.sampled_from(alphabet), max_size=12).map("".join)
    return st.tuples(piece, st.integers(1, 500), st.lists(st.sampled_from(alphabet), max_size=6).map("".join)) \
        .map(lambda t: t[0] * t[1] + t[2])


@settings(max_examples=200, deadline=None)
@given(long_or_short())
def test_distinct_non_ascii_is_the_set_of_non_ascii_characters(text):
    assert distinct_non_ascii(text) == frozenset(c for c in text if ord(c) > 0x7F)


@settings(max_examples=200, deadline=None)
@given(long_or_short(), st.sets(st.sampled_from(ALPHABET), max_size=4))
def test_positions_and_first_of_follow_the_text(text, chars):
    chars = frozenset(chars)
    expected = [i for i, c in enumerate(text) if c in chars]
    assert list(positions_of(text, chars)) == expected
    assert first_of(text, chars) == (expected[0] if expected else -1)


def _plain(fn, *args):
    """``fn`` with the distinct-character shortcut off (every character walked)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(unicode_security, "SHORT_TEXT", 10 ** 9)
        for cached in (_resolve, _scripts_in, unicode_security._mixed_script):
            cached.cache_clear()
        try:
            return getattr(fn, "__wrapped__", fn)(*args)
        finally:
            for cached in (_resolve, _scripts_in, unicode_security._mixed_script):
                cached.cache_clear()


@settings(max_examples=200, deadline=None)
@given(long_or_short())
def test_script_sets_depend_only_on_first_occurrences(text):
    assert _scripts_in(text) == _plain(_scripts_in, text)
    assert _resolve(text, ()) == _plain(_resolve, text, ())
    assert _resolve(text, ("Latn",)) == _plain(_resolve, text, ("Latn",))
    for profile in (True, False):
        assert restriction_level(text, profile) == _plain(restriction_level, text, profile)


def _mixing_plain(text):
    rtl = ltr = None
    for k, ch in enumerate(text):
        if ord(ch) in bidi.BIDI_CONTROLS:
            continue
        cls = bidi.bidi_class(ch)
        if cls in bidi.STRONG_RTL and rtl is None:
            rtl = k
        elif cls == "L" and ltr is None:
            ltr = k
    return None if rtl is None or ltr is None else (rtl, ltr)


@settings(max_examples=200, deadline=None)
@given(long_or_short(list("ab1./") + ["\u05d0", "\u0627", "\u0301", "\u202e", "\u200f", "\u0660", "日"]))
def test_bidi_mixing_and_strong_rtl_on_long_text(text):
    assert bidi._mixing(text) == _mixing_plain(text)
    assert bidi._has_strong_rtl(text) == any(
        bidi.bidi_class(c) in bidi.STRONG_RTL for c in text if ord(c) not in bidi.BIDI_CONTROLS)


@settings(max_examples=200, deadline=None)
@given(long_or_short(list("az/.:?#") + ["\u0301", "é", "%41", "%C3%A9", "%e2%80%ae", "%", "xn--bcher-kva"]))
def test_a_literal_view_behaves_like_its_explicit_lists(body):
    value = "http://" + body
    view = build_view(value, parse(value))
    n = len(view.text)
    explicit = DecodedView(view.text, list(view.spans), list(view.origins))
    assert view == explicit
    assert view.decoded_any == explicit.decoded_any == any(o != LITERAL for o in view.origins)
    for i in (0, 1, n // 2, n - 1, n, n + 3):
        assert view.index_of(i) == explicit.index_of(i)
        for j in (i, i + 1, n):
            if j <= n:
                assert view.value_span(i, j) == explicit.value_span(i, j)
    if not re.search("%[0-9A-Fa-f]{2}|xn--", value):
        assert view.text == value and view.spans == [(i, i + 1) for i in range(n)]


@settings(max_examples=200, deadline=None)
@given(long_or_short(list("aZ09/.:-") + list("пшمक्日ーΩ\u0301\u200d")),
       st.sampled_from([(), ("Cyrl",), ("Hani", "Arab")]))
def test_the_mixed_script_key_mixes_exactly_when_the_text_does(text, allowed):
    from irilint.rules.lookalike import _script_key
    from irilint.unicode_security import mixed_script

    if text.isascii():
        return
    key = _script_key(text, distinct_non_ascii(text))
    assert len(key) <= len(set(text)) + 1
    assert mixed_script(key, allowed).mixed == _plain(mixed_script, text, allowed).mixed


def _split_plain(text):
    """RFC 3986 Appendix B by hand: (scheme, authority, path, query, fragment) spans."""
    n = len(text)

    def first_of(chars, start):
        found = [i for i in (text.find(c, start) for c in chars) if i >= 0]
        return min(found) if found else n

    pos, scheme, authority, query, fragment = 0, None, None, None, None
    colon = first_of(":/?#", 0)
    if colon < n and text[colon] == ":" and colon > 0:
        scheme, pos = (0, colon), colon + 1
    if text.startswith("//", pos):
        end = first_of("/?#", pos + 2)
        authority, pos = (pos + 2, end), end
    end = first_of("?#", pos)
    path, pos = (pos, end), end
    if pos < n and text[pos] == "?":
        end = first_of("#", pos + 1)
        query, pos = (pos + 1, end), end
    if pos < n and text[pos] == "#":
        fragment = (pos + 1, n)
    return scheme, authority, path, query, fragment


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list(":/?#@[]a1.%\n é")), max_size=16))
def test_the_parser_splits_components_as_rfc_3986_appendix_b(text):
    ref = parse(text)
    spans = [None if s is None else (s.start, s.end) for s in (ref.scheme, ref.authority, ref.path, ref.query,
                                                                ref.fragment)]
    assert tuple(spans) == _split_plain(text)
