"""Fast paths of the scanners give exactly what the full tokenizers give.

The HTML/XML scanner skips runs of markup that cannot hold a candidate with
one regex match; the code scanner only tokenizes up to the last place an IRI
can start.  Both must be invisible: same candidates, same spans, same
contexts, on any input.  The generated documents mix the pieces that decide
where a tag ends or what it gives (quotes, ">" inside values, IRI attribute
names in any case, raw-text elements, comments, character references,
colons that do and do not start an IRI).
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.scanners import html as html_scanner

# the HTML/XML fast path exists on Python 3.11+ (possessive quantifiers)
needs_fast_markup = pytest.mark.skipif(
    not html_scanner.FAST_MARKUP, reason="the HTML/XML fast path needs Python 3.11+")
from irilint.scanners import code as code_scanner
from irilint.scanners.code import LANGUAGES, _token_rx, scan_code

_WORDS = st.sampled_from([
    "a", "p", "td", "div", "img", "link", "meta", "script", "SCRIPT", "style",
    "title", "textarea", "svg:rect", "x_y", "span-x", "metax", "é",
])
_ATTR_NAMES = st.sampled_from([
    "class", "id", "href", "HREF", "src", "srcset", "content", "http-equiv",
    "xmlns", "xmlns:d", "xlink:href", "data", "data-x", "style", ":href",
    "@click", "alt", "title", "ping", "hrefx", "ſrc", "a\u0130href", "CLASS", "classx",
    "HTTP-EQUIV", "http-equivx", "id",
])
_VALUES = st.sampled_from([
    "", "x", "x y", "refresh", "0; url=http://a.example/", "http://a.example/p",
    "mailto:someone@example.org", "color:red", "a:b", "&amp;", "&#58;//x",
    "&colon;//x", "&#109;ailto:x", "x&#160;y:z", "&nbsp;tel:1", "te&shy;l:1", "a&#x3A;//b",
    "&gt;&#39;", "&fjlig;", "a:&#47;/b", "a>b", "a<b", "don't", 'say "hi"', "https://a.example/(x)",
    "urn:isbn:1", "Note: x", " REFRESH ", "refresh/", "Content-Type", "ht\u00e9://x", "//x", "data:,x", " http://p.example/ ",
    "\thttp://t.example/a b\n", " ", "a.png 2x, b.png", "x/",
])
_TEXT = st.sampled_from([
    "plain words", "Note: see", " http://a.example/x ", "&amp; &lt;", "a < b",
    "<http://angle.example/>", "x:y", "mailto:me@example.org", "\n", "é:ç",
    "std::vector", "(https://p.example/a_(b))", "&#x202E;", "&", "&#104;ttp://h.example/",
    "&quot;a&quot;", "&#160;sip:x", "si&#160;p:x", "&#383;ip:x", "&#0115;ip:x", "&colon;//c",
    "&notin; &ampx; &unknownname;",
])


@st.composite
def _attribute(draw):
    name = draw(_ATTR_NAMES)
    if draw(st.booleans()):
        return " " + name
    value = draw(_VALUES)
    quote = draw(st.sampled_from(['"', "'", ""]))
    eq = draw(st.sampled_from(["=", " = ", "=\n"]))
    return draw(st.sampled_from([" ", "\n", "  ", "/"])) + name + eq + quote + value + quote


@st.composite
def _piece(draw):
    kind = draw(st.integers(0, 9))
    if kind <= 2:
        attrs = "".join(draw(st.lists(_attribute(), max_size=4)))
        end = draw(st.sampled_from([">", "/>", " >", ""]))
        return "<" + draw(_WORDS) + attrs + end
    if kind == 3:
        return "</" + draw(_WORDS) + draw(st.sampled_from([">", " >", ""]))
    if kind == 4:
        return "<!--" + draw(_TEXT) + draw(st.sampled_from(["-->", "--->", "->", ""]))
    if kind == 5:
        return draw(st.sampled_from([
            "<!DOCTYPE html>", '<!DOCTYPE html SYSTEM "http://dtd.example/x.dtd">',
            '<?xml version="1.0"?>', '<?xml-stylesheet href="http://s.example/a"?>',
            "<![CDATA[ http://c.example/ ]]>", "<![CDATA[x", "<!x", "<?x",
        ]))
    return draw(_TEXT)


_MARKUP = st.lists(_piece(), max_size=14).map("".join)
_SETTINGS = settings(max_examples=400, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@needs_fast_markup
@_SETTINGS
@given(text=_MARKUP, xml=st.booleans())
def test_markup_fast_path_gives_the_tokenizer_candidates(text, xml):
    fast = html_scanner._scan_markup(text, xml, fast=True)
    slow = html_scanner._scan_markup(text, xml, fast=False)
    assert fast == slow


@needs_fast_markup
@_SETTINGS
@given(text=st.text(alphabet="<>/!?-=\"' :&;#ahrefsc.x\n", max_size=80), xml=st.booleans())
def test_markup_fast_path_on_markup_noise(text, xml):
    assert (html_scanner._scan_markup(text, xml, fast=True)
            == html_scanner._scan_markup(text, xml, fast=False))


@needs_fast_markup
def test_markup_fast_path_skips_plain_markup_and_keeps_the_rest():
    plain = '<div class="a b"><p>Text: words</p><td align=left>x</td><!-- note --></div>'
    # The whole plain document is one skipped run...
    assert html_scanner.fast_path_rxs(False)[0].match(plain).end() == len(plain)
    assert html_scanner.scan_markup(plain) == []
    # A tag whose IRI attributes are plain gives them without the tokenizer.
    tag = '<a class="x" href=" http://e.example/a " id=y>'
    m = html_scanner.fast_path_rxs(False)[1].match(tag)
    assert m is not None and m.end() == len(tag)
    assert [c.value for c in html_scanner.scan_markup(tag)] == ["http://e.example/a"]
    # ...and an IRI attribute, an anchoring colon or a reference stops it.
    for stop in ('<a title="x" href="x.html&amp;">', "see http://e.example/", "a&#58;//b",
                 "&colon;", "&#109;ailto:x", "x:&#47;/y", "&#X3a;", "&#0058;", "&fjlig;",
                 "<script>", '<meta http-equiv=" Refresh " content="1">'):
        doc = plain + stop + plain
        assert html_scanner.fast_path_rxs(False)[0].match(doc).end() <= len(plain)
    # References that cannot make an anchor, and <meta> without a refresh,
    # are skipped with the rest.
    for skipped in ("&amp; &lt;x&gt; &#160;&#xA0;&nbsp;&#39;", "&#383;ip:x &#8490; &unknown;",
                    '<meta charset="utf-8"/>', '<meta name="v" content="w=1, s=2">',
                    '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">'):
        doc = plain + skipped + plain
        assert html_scanner.fast_path_rxs(False)[0].match(doc).end() == len(doc)
        assert html_scanner.scan_markup(doc) == []


@pytest.mark.parametrize("xml", [False, True])
def test_numeric_references_the_fast_path_skips_decode_to_no_anchor_character(xml):
    import re

    from irilint.scanners._decode import decode_charrefs

    anchor_chars = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.:/")
    rx = re.compile(html_scanner._harmless_reference_rx())
    skipped = set()
    for code in list(range(0, 0x300)) + [0x2019, 0xD800, 0x10FFFF, 0x110000, 10 ** 9]:
        for ref in ("&#%d;" % code, "&#0%d;" % code, "&#x%x;" % code, "&#X%X;" % code,
                    "&#x0%x;" % code):
            if rx.fullmatch(ref):
                skipped.add(code)
                decoded = decode_charrefs(ref, 0, len(ref), xml=xml).value
                assert not set(decoded) & anchor_chars, (ref, decoded)
    assert {0x22, 0x27, 0x3C, 0xA0, 0x2019, 0x10FFFF} <= skipped
    assert not skipped & {0x2F, 0x3A, 0x41, 0x61, 0x30}


def test_named_references_the_fast_path_skips_decode_to_no_anchor_character():
    from html.entities import html5

    from irilint.scanners._decode import decode_charrefs

    import re
    anchor_chars = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.:/")
    rx = re.compile(html_scanner._harmless_reference_rx())
    skipped = 0
    for name in list(html5) + ["unknown;", "notit;", "ampx;", "colonx;", "amp", "lt"]:
        ref = "&" + name if name.endswith(";") else "&" + name + ";"
        if rx.fullmatch(ref):
            skipped += 1
            for xml in (False, True):
                for attribute in (False, True):
                    decoded = decode_charrefs(ref, 0, len(ref), xml=xml, attribute=attribute).value
                    # letters the decoder leaves as text are followed by the
                    # ";", so they can never be a scheme before a colon
                    assert not (set(decoded) & anchor_chars) or decoded.endswith(";"), (ref, decoded)
    assert skipped > 2000  # the common ones (&amp; &lt; &nbsp; ...) are among them


_CODE_PIECES = st.sampled_from([
    "x = 1\n", "# see http://c.example/a\n", "// http://d.example/\n", "'http://s.example/'",
    '"mailto:me@example.org"', '"""doc https://t.example/ """', "/* https://b.example/ */",
    "/* open", '"open', "'", "a:b", "std::map", "http://bare.example/x", "\n", "\\", "'''",
    "ftp://f.example", "#", "//", "s = 'a # b'", "url = \"https://q.example/?a=1\"  # c:\n",
    '"""a: b"""', "'''x\n'''", '""""', '"a\\"b"', "'a\\\nb'", "`multi\nline: x`", "--[[ c ]]",
    "--[[ http://l.example/ ]]", "-- x:y\n", "(* http://m.example/ *)", "(* c *)", "{- x -}",
    "#| http://k.example/ |#", "%{ x %}", "<# x #>", "*/", "]]", "x:\\\n", "\"x\\:y\"",
    "d = {'k': 'v'}\n", "f(a, b)  // c\n", "a//b", "http:&", "\"tel:1\"", "s = \"TEL:1\"\n",
])


@_SETTINGS
@given(parts=st.lists(_CODE_PIECES, max_size=12),
       language=st.sampled_from(sorted(LANGUAGES)))
def test_code_fast_path_gives_the_full_tokenizer_candidates(parts, language):
    text = "".join(parts)
    syntax = LANGUAGES[language]
    assert scan_code(text, syntax, _token_rx(syntax)) == scan_code(text, syntax, fast=False)


@_SETTINGS
@given(text=st.text(alphabet="\"'`#/*-[]{}()|%<>\\:\n abhtp.xS", max_size=80),
       language=st.sampled_from(sorted(LANGUAGES)))
def test_code_fast_path_on_code_noise(text, language):
    syntax = LANGUAGES[language]
    assert scan_code(text, syntax, _token_rx(syntax)) == scan_code(text, syntax, fast=False)


@pytest.mark.skipif(not code_scanner.FAST_SKIP, reason="the code skip regex needs Python 3.11+")
def test_code_skip_stops_after_the_last_whole_literal_before_an_anchor():
    syntax = LANGUAGES["python"]
    skip = code_scanner._skip_rx(syntax)
    head = "x = {'a': 1}  # note: y\n" + '"""doc: z"""\n'
    doc = head + "y = 'see http://e.example/' + z\n"
    end = skip.match(doc).end()
    # not into the statement holding the IRI: the window starts where the
    # tokenizer would resume
    assert end <= len(head) and doc[end - 1] == '"'
    assert [c.value for c in scan_code(doc, syntax)] == ["http://e.example/"]
    # a triple quote whose body holds an anchor is not two empty strings
    doc = '"""http://t.example/"""'
    assert skip.match(doc).end() == 0
    # (one literal, the module's docstring; the middle of two empty strings
    # would be a string literal)
    assert [c.context for c in scan_code(doc, syntax)] == ["docstring"]


def test_code_without_an_iri_anchor_gives_nothing_and_context_is_kept_after_one():
    syntax = LANGUAGES["python"]
    assert scan_code("a = 'x:y'  # std::vector\n", syntax) == []
    text = "s = '''\n# not a comment http://a.example/\n'''\n# c http://b.example/\n"
    contexts = [(c.value, c.context) for c in scan_code(text, syntax)]
    assert contexts == [("http://a.example/", "string"), ("http://b.example/", "comment")]


@_SETTINGS
@given(text=st.text(alphabet="ab\n\r\u2028", max_size=60), offsets=st.lists(st.integers(-2, 70), max_size=20))
def test_line_index_answers_as_its_table_before_and_after_building_it(text, offsets):
    import bisect
    import re

    from irilint.lines import LineIndex

    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    index = LineIndex(text)
    # Queries in order are answered by counting; one going back builds the
    # table.  Both answer the same.
    for off in sorted(offsets) + offsets:
        assert index.line_of(off) == bisect.bisect_right(starts, off) - 1
    assert index.starts == starts


_JSON_PIECES = st.sampled_from([
    '{', '}', '[', ']', ',', ':', ' ', '\n', '1.5', 'true', 'null', '/', '//', '/*', '*/',
    '"a"', '"x y"', '"url"', '"URL "', '"homepageUrl"', '"\u0130ri"', '"hr\u017f"', '"$ref"',
    '" $Id "', '"@context"', '"src"', '"srcs"', '"href\u00a0"', '"\u3000href"', '"a:b"',
    '"http://j.example/a"', '"#/definitions/x"', '"_:b0"', '"x\\u003a//y"', '"\\""', '"\\\\"',
    '"unterminated', '"\n"', '"a\\/b"', '"urn:x:1"', '"\u202ehttp://b.example/"', '"K"',
    '// see http://c.example/\n', '/* http://d.example/ */', '"iri"', '"uri\t"',
])


@needs_fast_markup
@_SETTINGS
@given(parts=st.lists(_JSON_PIECES, max_size=16))
def test_json_skip_gives_the_string_by_string_candidates(parts):
    from irilint.scanners import data

    text = "".join(parts)
    assert data._scan_json(text, True) == data._scan_json(text, False)


@needs_fast_markup
@_SETTINGS
@given(text=st.text(alphabet='{}[],: "\\/*\nabhrefurlsc$@I\u0130\u00a0:/.#', max_size=60))
def test_json_skip_on_noise(text):
    from irilint.scanners import data

    assert data._scan_json(text, True) == data._scan_json(text, False)


def test_json_skip_stops_at_what_may_give_a_candidate():
    from irilint.scanners import data

    plain = '{"name": "x", "list": [1, 2, "y z"], "n": null} '
    if data.FAST_SKIP:
        assert data._JSON_SKIP_RX.match(plain).end() == len(plain)
    for stop in ('"homepageURL": "a"', '" $ref ": "#/x"', '"a": "b:c"', '"a\\u0041"',
                 '// c\n', '/* c */', '"src\u3000": "x"', '"x\n'):
        doc = plain + stop + plain
        if data.FAST_SKIP:  # (it may skip a plain key before the stop)
            assert data._JSON_SKIP_RX.match(doc).end() < len(plain) + len(stop)
        assert data._scan_json(doc, True) == data._scan_json(doc, False)
    assert [c.value for c in data.scan_json(plain + '"Url": "a/b"')] == ["a/b"]


@_SETTINGS
@given(spans=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 4)), max_size=10))
def test_finalize_keeps_ordered_candidates_as_they_are_and_sorts_the_rest(spans):
    from irilint.scanners._common import finalize
    from irilint.scanners.base import Candidate

    cands = [Candidate(a, a + k, "x" * k) for a, k in spans]
    # the reference: sort, then drop overlaps and repeated empty candidates
    expected = []
    for c in sorted(cands, key=lambda c: (c.start, c.end)):
        if expected and (c.start < expected[-1].end or
                         c.start == c.end == expected[-1].start == expected[-1].end):
            continue
        expected.append(c)
    assert finalize(list(cands)) == expected


def test_ascii_iri_run_class_is_the_unicode_one_on_ascii():
    from irilint.scanners import text as text_scanner

    for i in range(128):
        c = chr(i)
        assert (text_scanner._ASCII_RUN_RX.fullmatch(c) is None) == (
            text_scanner._RUN_RX.fullmatch(c) is None), repr(c)



def test_iri_run_class_is_whitespace_and_the_forbidden_ascii_on_every_code_point():
    # The class as it was written before the spaces were spelled out: \s is
    # str.isspace in the running Python's Unicode data.
    import re
    import sys

    from irilint.scanners import text as text_scanner

    reference = re.compile(r"[\s\x00-\x1f\x7f\"<>`{}|\\^]")
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        stops = reference.match(c) is not None
        assert stops == (c.isspace() or cp < 0x20 or c in '\x7f"<>`{}|\\^'), hex(cp)
        assert (text_scanner._RUN_RX.fullmatch(c) is None) == stops, hex(cp)
        assert (text_scanner._STOP_CHAR_RX.match(c) is not None) == stops, hex(cp)

@_SETTINGS
@given(text=st.text(alphabet="ab:/. \t\x1c\x1f\x7f\"<>x\u00e9\u3000\u2028", max_size=60))
def test_bare_iris_are_the_same_in_ascii_and_non_ascii_text(text):
    # the same document with a non-ASCII tail takes the Unicode run class
    from irilint.scanners.text import find_iris

    tail = "\n\u00e9"
    assert find_iris(text) == [c for c in find_iris(text + tail) if c.end <= len(text)]
