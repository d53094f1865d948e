"""class_rx writes a character class re compiles fast, matching exactly the
code points it is given; the regexes built with it match what they matched
when they were written out (the old patterns are kept here as the
reference and compared on every code point)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint import iri
from irilint.chars import IPRIVATE_CLASS, UCSCHAR_CLASS, UCSCHAR_RANGES, class_rx, ranges_of
from irilint.rules import gates
from irilint.scanners import html as html_scanner

#: every code point, once (surrogates included: a str may hold them)
_ALL = "".join(map(chr, range(0x110000)))


def _matched(rx: "re.Pattern[str]") -> list:
    return [m.start() for m in rx.finditer(_ALL)]


def test_ucschar_gate_regex_matches_the_reference_class_on_every_code_point():
    assert _matched(gates._UCSCHAR_RE) == _matched(re.compile("[%s]" % UCSCHAR_CLASS))


def test_xml_tag_name_regex_matches_the_reference_on_every_code_point():
    old = re.compile(r"[A-Za-z_:\u0080-\U0010ffff][^ \t\n\r\f/>]*")
    new = html_scanner._XML_TAG_NAME_RX
    assert [m.span() for m in new.finditer(_ALL)] == [m.span() for m in old.finditer(_ALL)]
    # each code point as a name's first character, before a name character
    text = "x".join(_ALL[i] for i in range(0x110000))
    assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)]
    # ... and where a name cannot go on
    text = " ".join(_ALL[i] for i in range(0x110000))
    assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)]


def test_class_rx_writes_the_cheaper_side():
    assert class_rx(UCSCHAR_RANGES).startswith("[^")
    assert class_rx(ranges_of("ab")) == "[a-b]"
    assert class_rx(ranges_of("ab"), negate=True) == "[^a-b]"
    assert class_rx([]) == "(?!)" and re.fullmatch(class_rx([], negate=True), "\U0010ffff")


_BOUNDARIES = [0, 1, 0x2D, 0x5C, 0x5D, 0x5E, 0x7F, 0x80, 0xFF, 0x100, 0xD7FF, 0xD800,
               0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFE, 0x10FFFF]
_CODE_POINT = st.one_of(st.sampled_from(_BOUNDARIES), st.integers(0, 0x10FFFF))


@settings(max_examples=300, deadline=None)
@given(ranges=st.lists(st.tuples(_CODE_POINT, _CODE_POINT).map(lambda t: (min(t), max(t))),
                       max_size=6),
       negate=st.booleans(), probes=st.lists(_CODE_POINT, max_size=30))
def test_class_rx_matches_exactly_its_ranges(ranges, negate, probes):
    rx = re.compile(class_rx(ranges, negate))
    ends = {c for a, b in ranges for c in (a - 1, a, b, b + 1) if 0 <= c <= 0x10FFFF}
    for cp in sorted(ends | set(probes)):
        inside = any(a <= cp <= b for a, b in ranges)
        assert (rx.fullmatch(chr(cp)) is not None) == (inside != negate), (hex(cp), ranges)



# The component classes as iri.py wrote them before (the reference).
_IUNRESERVED = r"A-Za-z0-9\-._~" + UCSCHAR_CLASS
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR_OK = _IUNRESERVED + _SUB_DELIMS + ":@%"
_REFERENCE_ALLOWED = {
    "userinfo": _IUNRESERVED + _SUB_DELIMS + ":%",
    "host": _IUNRESERVED + _SUB_DELIMS + "%",
    "path": _PCHAR_OK + "/",
    "query": _PCHAR_OK + "/?" + IPRIVATE_CLASS,
    "fragment": _PCHAR_OK + "/?",
}
_ASCII = "".join(map(chr, range(128)))


@pytest.mark.parametrize("component", sorted(_REFERENCE_ALLOWED))
def test_bad_character_regexes_match_the_reference_class(component):
    old = re.compile("[^%s]" % _REFERENCE_ALLOWED[component])
    assert _matched(iri._bad_char_re(component)) == _matched(old)
    # the ASCII-text regex: the same on every ASCII character
    ascii_rx = iri._bad_char_re(component, ascii_text=True)
    assert [m.start() for m in ascii_rx.finditer(_ASCII)] == [m.start() for m in old.finditer(_ASCII)]


@settings(max_examples=300, deadline=None)
@given(value=st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40)
       | st.text(max_size=30).map(lambda s: "http://h.example/" + s))
def test_syntax_problems_of_a_reference_are_those_of_the_reference_classes(value):
    """Parsing with the ASCII-only regexes gives what the full ones give."""
    got = [(p.kind, p.start, p.end, p.component) for p in iri.parse(value).problems]
    saved = dict(iri._BAD_CHAR)
    try:
        iri._BAD_CHAR.clear()
        for component, allowed in _REFERENCE_ALLOWED.items():
            full = re.compile("[^%s]" % allowed)
            iri._BAD_CHAR[(component, True)] = iri._BAD_CHAR[(component, False)] = full
        want = [(p.kind, p.start, p.end, p.component) for p in iri.parse(value).problems]
    finally:
        iri._BAD_CHAR.clear()
        iri._BAD_CHAR.update(saved)
    assert got == want
