"""The HTML/XML fast path's regexes, written to compile faster, match
exactly what the previous way of writing them matched.

``_reference_ascii_words_rx`` is the previous word-trie writer (a
``[sS]`` class per letter, the end test at each word's leaf); the fast
path's regexes built with it are the reference.  Both pairs are run at
every offset of generated markup: same skip end, same IRI-tag match and
groups.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.scanners import html as html_scanner

needs_fast_markup = pytest.mark.skipif(
    not html_scanner.FAST_MARKUP, reason="the HTML/XML fast path needs Python 3.11+")

_SETTINGS = settings(max_examples=300, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


def _reference_ascii_words_rx(words, end: str) -> str:
    """The word trie as it was written before: one ``[xX]`` class per
    letter and ``end`` at every leaf."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w.lower():
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = []
        for ch in sorted(node):
            if ch == "":
                alts.append(end)
            elif ch.isalpha():
                alts.append("[%s%s]" % (ch, ch.upper()) + emit(node[ch]))
            else:
                alts.append(re.escape(ch) + emit(node[ch]))
        return alts[0] if len(alts) == 1 else "(?:%s)" % "|".join(alts)
    return emit(tree)


def _reference_fast_path_rxs(xml: bool):
    current = html_scanner._ascii_words_rx
    html_scanner._ascii_words_rx = _reference_ascii_words_rx
    try:
        return html_scanner._fast_path_rxs(xml)
    finally:
        html_scanner._ascii_words_rx = current


_REFERENCE = {}


def _reference(xml: bool):
    if xml not in _REFERENCE:
        _REFERENCE[xml] = _reference_fast_path_rxs(xml)
    return _REFERENCE[xml]


_NOT_NAME_CHAR = "(?![A-Za-z0-9_.:@-])"
_WORD_TABLES = [
    html_scanner._COMMON_PLAIN_ATTRIBUTES,
    html_scanner._COMMON_PLAIN_ELEMENTS,
    sorted(html_scanner._SPECIAL_ATTRIBUTES | {"xmlns"}),
    sorted(html_scanner.IRI_ATTRIBUTES),
    ["meta"] + sorted(html_scanner._RAW_TEXT_ELEMENTS),
]
# Words of the tables in any case, their prefixes and extensions, and the
# non-ASCII letters that Unicode case folding relates to ASCII ones.
_WORD_PIECES = st.sampled_from(
    sorted({w for table in _WORD_TABLES for w in table})
    + ["CLASS", "Class", "COLGROUP", "col", "colg", "d", "D", "data", "DATA-x", "xmlns:",
       "XMLNS:a", "hre", "HREF", "\u017frc", "\u017ftyle", "\u212abd", "\u0130d", "\u0131d",
       "http-equiv", "HTTP-EQUIV", "xml:base", "xml:", "rdf:about"])
_AFTER = st.sampled_from(["", " ", "=", ">", "x", "-", ":", ".", "_", "@", "1", "\u017f", "/", "\n"])
_WORD_TEXT = st.lists(st.tuples(_WORD_PIECES, _AFTER), max_size=4).map(
    lambda parts: "".join(w + a for w, a in parts))


@pytest.mark.parametrize("table", range(len(_WORD_TABLES)))
@_SETTINGS
@given(text=_WORD_TEXT)
def test_word_trie_matches_what_the_reference_trie_matches(table, text):
    words = _WORD_TABLES[table]
    new = re.compile(html_scanner._ascii_words_rx(words, _NOT_NAME_CHAR))
    old = re.compile(_reference_ascii_words_rx(words, _NOT_NAME_CHAR))
    for i in range(len(text) + 1):
        a, b = new.match(text, i), old.match(text, i)
        assert (a and a.span()) == (b and b.span()), (text, i)


def test_word_trie_is_ascii_case_insensitive_only():
    rx = re.compile(html_scanner._ascii_words_rx(["src", "kbd", "id"], _NOT_NAME_CHAR))
    assert [rx.fullmatch(w) is not None for w in ("SRC", "sRc", "KBD", "ID")] == [True] * 4
    for w in ("\u017frc", "\u212abd", "\u0130d", "\u0131d", "srcx", "sr"):
        assert rx.match(w) is None, w


_NAMES = st.sampled_from([
    "a", "A", "span", "SPAN", "colgroup", "col", "cola", "meta", "META", "metax",
    "script", "Script", "title", "textarea", "style", "svg:rect", "x_y", "\u017fpan",
    "\u212abd", "kbd", "td", "tda", "img", "link", "b", "é",
])
_ATTR_NAMES = st.sampled_from([
    "class", "CLASS", "Class", "classx", "id", "href", "HREF", "hrefx", "src", "\u017frc",
    "srcset", "content", "http-equiv", "HTTP-EQUIV", "http-equivx", "xmlns", "xmlns:d",
    "XMLNS:D", "xlink:href", "data", "data-x", "d", "D", "style", "\u017ftyle", ":href",
    "@click", "title", "ping", "viewbox", "viewBox", "col", "colspan", "xml:base",
    "rdf:about", "\u212aey", "\u0130d", "for", "fora",
])
_VALUES = st.sampled_from([
    "", "x", "x y", "refresh", "REFRESH", " refresh ", "0; url=http://a.example/",
    "http://a.example/p", "a:b", "&amp;", "&#58;//x", "&colon;", "&#160;", "a>b",
    "don't", 'say "hi"', "\u017fip:x", "Note: x", "tel:1",
])
_TEXT = st.sampled_from([
    "plain", "Note: see", " http://a.example/x ", "&amp; &lt;", "a < b", "x:y",
    "&#160;sip:x", "\n", "é:ç", "std::vector", "&",
])


@st.composite
def _attribute(draw):
    name = draw(_ATTR_NAMES)
    space = draw(st.sampled_from([" ", "\n", "  ", "/", ""]))
    if draw(st.booleans()):
        return space + name
    quote = draw(st.sampled_from(['"', "'", ""]))
    eq = draw(st.sampled_from(["=", " = ", "=\n"]))
    return space + name + eq + quote + draw(_VALUES) + quote


@st.composite
def _piece(draw):
    kind = draw(st.integers(0, 6))
    if kind <= 3:
        attrs = "".join(draw(st.lists(_attribute(), max_size=5)))
        return "<" + draw(_NAMES) + attrs + draw(st.sampled_from([">", "/>", " >", ""]))
    if kind == 4:
        return "</" + draw(_NAMES) + draw(st.sampled_from([">", ""]))
    if kind == 5:
        return draw(st.sampled_from(["<!-- x: y -->", "<!DOCTYPE html>", "<?xml x?>", "<!x"]))
    return draw(_TEXT)


_MARKUP = st.lists(_piece(), max_size=10).map("".join)


def _same_matches(text: str, xml: bool) -> None:
    new_skip, new_tag = html_scanner._fast_path_rxs(xml)
    old_skip, old_tag = _reference(xml)
    for i in range(len(text) + 1):
        assert new_skip.match(text, i).end() == old_skip.match(text, i).end(), (text, i)
        a, b = new_tag.match(text, i), old_tag.match(text, i)
        assert (a and a.regs) == (b and b.regs), (text, i)


@needs_fast_markup
@_SETTINGS
@given(text=_MARKUP, xml=st.booleans())
def test_fast_path_regexes_match_what_the_reference_regexes_match(text, xml):
    _same_matches(text, xml)


@needs_fast_markup
@pytest.mark.parametrize("xml", [False, True])
def test_fast_path_regexes_on_case_and_prefix_edges(xml):
    for text in ('<COLGROUP CLASS="x"><col span=2><cola href="http://a.example/">',
                 '<span \u017ftyle="a"><a HREF="http://a.example/" Class=x>',
                 '<META HTTP-EQUIV=REFRESH content="0; url=http://r.example/">',
                 '<div data-x="1" d="M0" viewBox="0 0 1 1"><img src=x srcset="a 2x">',
                 '<svg:rect XMLNS:D="urn:x:y" \u212aey=1 fora=2 for=3>'):
        _same_matches(text, xml)
