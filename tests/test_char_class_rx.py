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
from irilint.rules import fastpath, gates
from irilint.scanners import html as html_scanner

#: every code point, once (surrogates included: a str may hold them)
_ALL = "".join(map(chr, range(0x110000)))


def _matched(rx: "re.Pattern[str]") -> list:
    return [m.start() for m in rx.finditer(_ALL)]


# The component classes as iri.py wrote them before.
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


@pytest.mark.parametrize("component", sorted(_REFERENCE_ALLOWED))
def test_bad_character_regex_matches_the_reference_class_on_every_code_point(component):
    old = re.compile("[^%s]" % _REFERENCE_ALLOWED[component])
    assert _matched(iri._bad_char_re(component)) == _matched(old)


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


def _reference_fast_pattern(extra: str = "") -> str:
    """rules/fastpath.py's pattern as it was written before (``extra``
    appended to each class)."""
    unreserved = r"A-Za-z0-9\-._~"
    sub_delims = r"!$&'()*+,;="
    pchar = unreserved + sub_delims + ":@"
    octet = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
    return (
        r"(?:[a-z][a-z0-9+.\-]*:|(?![^:/?#]*:))"
        r"(?://(?:[" + unreserved + sub_delims + r":" + extra + r"]*@)?"
        r"(?:(?P<ipv4>" + octet + r"(?:\." + octet + r"){3})|(?P<host>[a-z0-9\-._~" + sub_delims + extra
        + r"]*))"
        r"(?::[0-9]{0,4})?(?=[/?#]|\Z)"
        r"|(?!//))"
        r"[" + pchar + r"/" + extra + r"]*"
        r"(?:\?[" + pchar + r"/?" + extra + r"]*)?"
        r"(?:\#[" + pchar + r"/?" + extra + r"]*)?"
        r"\Z"
    )


def test_fast_path_patterns_are_the_reference_ones():
    assert fastpath.FAST_RE.pattern == _reference_fast_pattern()
    old = re.compile(_reference_fast_pattern("\x80-\U0010ffff"))
    new = fastpath.fast_non_ascii_re()
    for text in ("http://é.example/ü?q=€#ƒ", "//u:é@h\u3000:80/p", "mailto:x@y", "a:b:c", "",
                 "http://1.2.3.4:8080/é", "\x80\ud800\U0010ffff", "http://h/[x]", "x y"):
        a, b = new.match(text), old.match(text)
        assert (a and (a.span(), a.groupdict())) == (b and (b.span(), b.groupdict())), text


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet="htp:/?#@[]%.-_~!$&'()*+,;=019azAZ \x7f\x80\xa0é\u3000\ud800\ufffe\U0010ffff",
                    max_size=30))
def test_fast_path_non_ascii_regex_matches_the_reference(text):
    old = re.compile(_reference_fast_pattern("\x80-\U0010ffff"))
    a, b = fastpath.fast_non_ascii_re().match(text), old.match(text)
    assert (a and (a.span(), a.groupdict())) == (b and (b.span(), b.groupdict()))
