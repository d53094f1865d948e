"""Scanners: exact spans of IRI references in every supported format."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.scanners import (SCANNERS, Candidate, CommentSyntax, code_languages,
                              find_iris, get_scanner, is_scanner_name, scanner_for,
                              scanner_names)
from irilint.scanners.code import CodeScanner


def scan(name, text):
    return list(get_scanner(name).scan(text))  # a scanner may yield its candidates


def spans(name, text):
    """(start, end, value) of every candidate."""
    return [(c.start, c.end, c.value) for c in scan(name, text)]


def values(name, text):
    return [c.value for c in scan(name, text)]


def at(text, sub, occurrence=0):
    """(start, end) of the ``occurrence``-th ``sub`` in ``text``."""
    i = -1
    for _ in range(occurrence + 1):
        i = text.index(sub, i + 1)
    return i, i + len(sub)


def exact(text, sub, occurrence=0):
    """The (start, end, value) a candidate spelled as in the text has."""
    return at(text, sub, occurrence) + (sub,)


def check_contract(text, cands):
    last = 0
    for c in cands:
        assert isinstance(c, Candidate)
        assert 0 <= c.start <= c.end <= len(text)
        assert c.start >= last, "sorted, not overlapping"
        last = c.end
        if c.offsets is None:
            assert text[c.start:c.end] == c.value
        else:
            assert len(c.offsets) == len(c.value) + 1
            assert c.offsets[0] == c.start and c.offsets[-1] == c.end
            assert list(c.offsets) == sorted(c.offsets)


# ---------------------------------------------------------------- plain text


@pytest.mark.parametrize("iri", [
    "http://例え.jp/パス",                       # Japanese
    "http://مثال.إختبار/مسار",                   # Arabic
    "http://דוגמה.טעסט/נתיב",                    # Hebrew
    "http://例子.测试/路径?查询=值#片段",           # Chinese
    "https://пример.испытание/путь",             # Russian
    "HTTP://EXAMPLE.COM/X",
    "git+ssh://example.com/repo.git",
    "mailto:пользователь@пример.рф",
    "urn:isbn:978-3-16-148410-0",
    "tel:+1-201-555-0123",
    "data:text/plain;charset=utf-8,hello",
    "file:///home/user/файл.txt",
    "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a",
    "https://en.wikipedia.org/wiki/Foo_(bar)",
    "http://[2001:db8::1]:8080/p",
])
def test_text_finds_whole_iri(iri):
    text = "Before %s after" % iri
    assert spans("text", text) == [exact(text, iri)]


def test_text_non_ascii_does_not_end_an_iri():
    text = "详情见http://例子.测试/路径。"
    assert spans("text", text) == [exact(text, "http://例子.测试/路径")]
    # Non-ASCII does not end an IRI (RFC 3987 s7.3), but CJK sentence
    # punctuation after the host does: real documentation glues prose to
    # URLs ("...latest.tar.gz处取得。").  In a host U+3002 is a label dot.
    text = "详情见http://例子.测试/路径。谢谢 ok"
    assert values("text", text) == ["http://例子.测试/路径"]
    text = "见 http://www.perl.com/CPAN（最后头没有斜线）的说明。同时，http://mirror.cpan.org/"
    assert values("text", text) == ["http://www.perl.com/CPAN", "http://mirror.cpan.org/"]
    assert values("text", "http://例え。jp/パス") == ["http://例え。jp/パス"]
    # Arabic-script sentence punctuation and bidi marks after an IRI
    assert values("text", "بمع 'http://example.org/x'۔") == ["http://example.org/x"]
    assert values("text", "با 'http://\u200e' باشد") == []
    assert values("text", "see http://e.org/a\u200e.") == ["http://e.org/a"]
    # ... while a live control inside stays, and delimiter look-alikes stay
    assert values("text", "http://e.org/a\u200eb") == ["http://e.org/a\u200eb"]
    assert values("text", "http://e.org/a\uff0f") == ["http://e.org/a\uff0f"]


@pytest.mark.parametrize("text, iri", [
    ("See http://例え.jp/パス。", "http://例え.jp/パス"),
    ("See http://例え.jp/パス、", "http://例え.jp/パス"),
    ("（http://例え.jp/パス）", "http://例え.jp/パス"),
    ("「http://例え.jp/パス」", "http://例え.jp/パス"),
    ("(see http://a.b/c)", "http://a.b/c"),
    ("(see http://a.b/c).", "http://a.b/c"),
    ("[http://a.b/c]", "http://a.b/c"),
    ("http://a.b/c_(d)", "http://a.b/c_(d)"),
    ("(http://a.b/c_(d))", "http://a.b/c_(d)"),
    ("Is it http://a.b/c?", "http://a.b/c"),
    ("Go to http://a.b/c!", "http://a.b/c"),
    ("one http://a.b/c, two", "http://a.b/c"),
    ("'http://a.b/c'", "http://a.b/c"),
    ('"http://a.b/c"', "http://a.b/c"),
    ("\u201chttp://a.b/c\u201d", "http://a.b/c"),
    ("\u00abhttp://a.b/c\u00bb", "http://a.b/c"),
    ("http://a.b/c?q=1;", "http://a.b/c?q=1"),
    ("*http://a.b/c*", "http://a.b/c"),
    ("http://a.b/c/...", "http://a.b/c/"),
])
def test_text_trailing_punctuation_and_brackets(text, iri):
    assert spans("text", text) == [exact(text, iri)]


@pytest.mark.parametrize("sep", [" ", "\t", "\n", "\u00a0", "\u3000", "\u2028",
                                 "\u2029", "\u2003", "\u202f", "\x0c"])
def test_text_unicode_whitespace_ends_an_iri(sep):
    text = "http://a.b/c%sd" % sep
    assert spans("text", text) == [(0, 12, "http://a.b/c")]


@pytest.mark.parametrize("stop", list('"<>`{}|\\^') + ["\x00", "\x1b", "\x7f"])
def test_text_characters_never_in_iris_end_an_iri(stop):
    text = "http://a.b/c%sd" % stop
    assert spans("text", text) == [(0, 12, "http://a.b/c")]


@pytest.mark.parametrize("invisible", [
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
    "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u200c", "\u200d", "\u2060",
    "\ufeff", "\u00ad"])
def test_text_bidi_and_invisible_characters_stay_inside(invisible):
    iri = "http://example.com/abc%sgpj.exe" % invisible
    text = "Download %s now" % iri
    assert spans("text", text) == [exact(text, iri)]


def test_text_rlo_spoof():
    text = "x http://example.com/abc\u202egpj.exe y"
    (c,) = scan("text", text)
    assert (c.start, c.end) == (2, 32)
    assert "\u202e" in c.value and c.offsets is None


def test_text_scheme_boundaries():
    assert values("text", "xhttp://a.b") == ["xhttp://a.b"]  # a scheme of its own
    assert values("text", "1http://a.b") == []  # glued to a number
    assert values("text", "mailhttp://a.b") == ["mailhttp://a.b"]
    assert values("text", "nomailto:a@b") == []
    assert values("text", "x.mailto:a@b") == []
    assert values("text", "-http://a.b") == ["http://a.b"]
    assert values("text", "_http://a.b_") == ["http://a.b"]
    assert values("text", "例えばhttp://a.b/c") == ["http://a.b/c"]
    assert values("text", "3://x") == []


def test_text_case_insensitive_schemes():
    assert values("text", "HTTPS://A.B and MAILTO:x@y and Urn:x:y") == [
        "HTTPS://A.B", "MAILTO:x@y", "Urn:x:y"]


def test_text_words_before_colons_are_not_iris():
    for text in ["Note: this", "INFO:root:started", "std::vector", "10:30",
                 "C:\\Users\\x", "key:value", "Data: 5", "http://", "http:// x",
                 "see http:.", "about: it", "mailto:"]:
        assert values("text", text) == [], text


def test_text_angle_brackets():
    text = "See <http://example.org/x y> and <URL:http://a.b/c.> ok"
    assert spans("text", text) == [exact(text, "http://example.org/x y"),
                                   exact(text, "http://a.b/c.")]
    assert [c.context for c in scan("text", text)] == ["angle", "angle"]
    # wrapped over lines: joined (RFC 3986 Appendix C), offsets kept
    wrapped = "<http://example.org/very/\n   long/path>"
    assert values("text", wrapped) == ["http://example.org/very/long/path"]
    # a blank line ends it: no angle reference then, the bare IRI remains
    assert values("text", "<http://a.b/c\n\nd>") == ["http://a.b/c"]
    assert values("text", "<http://a.b/c") == ["http://a.b/c"]


def test_text_multiple_and_adjacent():
    text = "http://a.b/1 http://a.b/2\nhttps://c.d/3,mailto:e@f.g"
    assert values("text", text) == ["http://a.b/1", "http://a.b/2", "https://c.d/3,mailto:e@f.g"]


def test_find_iris_window_is_a_hard_bound():
    text = "xxhttp://a.b/cyy"
    assert [(c.start, c.end) for c in find_iris(text, 2, 14)] == [(2, 14)]
    assert [(c.start, c.end) for c in find_iris(text, 2, 10)] == [(2, 10)]
    assert find_iris(text, 0, 6) == []  # "xxhttp:" cut before its "//"
    assert find_iris("mailto:a@b", 1) == []  # "ailto" is no known scheme


# ---------------------------------------------------------------- linearity
# These inputs would be quadratic for a naive scanner; they must finish and
# give the right answer.  (No wall-clock assertions: correctness only.)


def test_linear_100k_letters_then_url():
    text = "a" * 100_000 + " http://example.com/x"
    assert spans("text", text) == [(100_001, 100_021, "http://example.com/x")]
    assert values("text", "a" * 100_000 + "http://example.com/x") == []


def test_linear_1mb_of_http():
    text = "http://" * 150_000
    assert spans("text", text) == [(0, len(text), text)]


def test_linear_1mb_of_percent():
    assert scan("text", "%" * 1_000_000) == []


def test_linear_10mb_single_line():
    line = "word http://x.y/z " * 600_000
    cands = scan("text", line)
    assert len(cands) == 600_000
    assert (cands[-1].start, cands[-1].end) == (len(line) - 13, len(line) - 1)


@pytest.mark.parametrize("text", [
    ":" * 500_000, "a:" * 300_000, "://" * 300_000, "<http://" * 100_000,
    "http://a/" + ")" * 300_000, "http://a/" + ".:" * 200_000,
    ("a" * 1000 + ":") * 300, "mailto:" * 100_000,
])
def test_linear_adversarial_text(text):
    check_contract(text, scan("text", text))


def test_linear_markdown_unbalanced_parens():
    text = "[x](" + "(" * 10_000 + " http://a.b/c"
    assert values("markdown", text) == ["http://a.b/c"]
    text = "[x](http://a.b/" + "(" * 10_000 + ")"
    check_contract(text, scan("markdown", text))


@pytest.mark.parametrize("name, text", [
    ("markdown", "](" * 200_000),
    ("markdown", "[x](a " * 100_000),
    ("markdown", "[x](<a " * 100_000),
    ("markdown", "` ``" * 100_000),
    ("markdown", "<a " * 100_000),
    ("markdown", "<a x='" * 100_000),
    ("markdown", '[x](a "' * 100_000),
    ("markdown", "[" * 300_000 + "]: x"),
    ("html", "<a " * 100_000),
    ("html", '<a x="' * 100_000),
    ("html", "&" * 300_000 + "amp;"),
    ("html", "&#" + "1" * 300_000 + ";"),
    ("html", "<!--" * 100_000),
    ("xml", "<x:y " * 100_000),
    ("rst", "`a <" * 100_000),
    ("rst", "`" * 300_000),
    ("json", '"\\u' * 100_000),
    ("json", '"a":' * 100_000),
    ("yaml", "- '" * 100_000),
    ("yaml", 'k: "' + "\\\"" * 100_000),
    ("toml", "a = '''" * 100_000),
    ("turtle", "<a " * 100_000),
    ("turtle", "<http:a " * 100_000),
    ("code", "'\"`" * 100_000),
    ("code", "/*" * 100_000),
])
def test_linear_adversarial_formats(name, text):
    check_contract(text, scan(name, text))


# ---------------------------------------------------------------- HTML / XML


def test_html_character_reference_offset_map():
    html = '<a href="http://example.com/abc&#x202E;gpj.exe">x</a>'
    (c,) = scan("html", html)
    assert c.value == "http://example.com/abc\u202egpj.exe"
    assert c.context == "html-attr"
    assert (c.start, c.end) == at(html, "http://example.com/abc&#x202E;gpj.exe")
    i = c.value.index("\u202e")
    assert c.source_span(i, i + 1) == at(html, "&#x202E;")
    assert c.source_span(0, i) == at(html, "http://example.com/abc")
    j = c.value.index("gpj")
    assert c.source_span(j, len(c.value)) == at(html, "gpj.exe")


@pytest.mark.parametrize("ref", ["&#x202E;", "&#x202e;", "&#8238;", "&#X202E;", "&#8238"])
def test_html_numeric_references(ref):
    html = "<a href='/a%sb'>x</a>" % ref
    (c,) = scan("html", html)
    assert c.value == "/a\u202eb"
    assert c.source_span(2, 3) == at(html, ref)


def test_html_named_references():
    html = '<a href="/s?a=1&amp;b=2&lt;&rlm;&not=3&copy">x</a>'
    (c,) = scan("html", html)
    # "&not=" stays (attribute rule); "&copy" is a legacy reference.
    assert c.value == "/s?a=1&b=2<\u200f&not=3\u00a9"
    k = c.value.index("\u200f")
    assert c.source_span(k, k + 1) == at(html, "&rlm;")


def test_html_attribute_kinds():
    html = ('<img src=http://a.b/c.png srcset="a.png 1x, http://b/c.png 2x,d.png">'
            "<a ping='http://p/1 http://p/2' href=''>x</a>"
            '<form action=" /post "><q cite="http://q/c">'
            '<meta http-equiv="Refresh" content="0; URL=\'http://r.s/t\'">'
            '<meta property="og:url" content="https://o.g/x">'
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ex="http://ex/">')
    assert values("html", html) == [
        "http://a.b/c.png", "a.png", "http://b/c.png", "d.png", "http://p/1",
        "http://p/2", "/post", "http://q/c", "http://r.s/t", "https://o.g/x",
        "http://www.w3.org/1999/xhtml", "http://ex/"]
    contexts = {c.value: c.context for c in scan("html", html)}
    assert contexts["/post"] == "html-attr" and contexts["https://o.g/x"] == "bare"


def test_html_text_comments_and_script():
    html = ("<p>Visit http://例え.jp/パス。</p><!-- old: http://c.d/e -->"
            "<script>if (a<b) u = 'http://s.c/r';</script>"
            "<style>a{background:url(http://st.yle/x.png)}</style>"
            "<p>x=1&amp;y http://t.u/v?x=1&amp;y=2.</p>")
    cands = scan("html", html)
    assert [(c.value, c.context) for c in cands] == [
        ("http://例え.jp/パス", "bare"), ("http://c.d/e", "comment"),
        ("http://s.c/r", "script"), ("http://st.yle/x.png", "script"),
        ("http://t.u/v?x=1&y=2", "bare")]
    last = cands[-1]
    assert (last.start, last.end) == at(html, "http://t.u/v?x=1&amp;y=2")
    check_contract(html, cands)


def test_html_unterminated_tag_is_read_as_text():
    html = '<a href="http://x.y/z>link</a> http://after.com/'
    assert values("html", html) == ["http://x.y/z", "http://after.com/"]


def test_xml_rdf_and_namespaces():
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE x SYSTEM "http://dtd/x.dtd">\n'
           '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xml:base="http://b/">'
           '<rdf:Description rdf:about="#me"><ex:p rdf:resource="http://r/&#x5d0;"/>'
           '<ex:q rdf:datatype="http://www.w3.org/2001/XMLSchema#string">see http://t/x</ex:q>'
           '<svg xlink:href="#icon"/><![CDATA[ http://cd.ata/x ]]>'
           '<x xsi:schemaLocation="http://ns/a http://ns/a.xsd"/></rdf:Description></rdf:RDF>')
    assert values("xml", xml) == [
        "http://dtd/x.dtd", "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://b/",
        "#me", "http://r/\u05d0", "http://www.w3.org/2001/XMLSchema#string",
        "http://t/x", "#icon", "http://cd.ata/x", "http://ns/a", "http://ns/a.xsd"]
    check_contract(xml, scan("xml", xml))


def test_xml_requires_semicolons():
    xml = '<a href="/x&#x5d0y&amp;z"/>'
    (c,) = scan("xml", xml)
    assert c.value == "/x&#x5d0y&z"


# ---------------------------------------------------------------- Markdown


def test_markdown_links_and_images():
    md = ('See [http://a.b/c](http://a.b/c "title http://t.i/tle") and '
          "![img](<images/my pic.png>) and [w](https://en.wikipedia.org/wiki/Foo_(bar)).\n")
    assert spans("markdown", md) == [
        exact(md, "http://a.b/c", 0), exact(md, "http://a.b/c", 1),
        exact(md, "http://t.i/tle"), exact(md, "images/my pic.png"),
        exact(md, "https://en.wikipedia.org/wiki/Foo_(bar)")]
    contexts = [c.context for c in scan("markdown", md)]
    assert contexts == ["bare", "markdown-link", "bare", "markdown-link", "markdown-link"]


def test_markdown_relative_and_escaped_destinations():
    md = r"[a](../docs/readme.md#sec) [b](/x\_y&amp;z) [c](<>)"
    cands = scan("markdown", md)
    assert [c.value for c in cands] == ["../docs/readme.md#sec", "/x_y&z"]
    c = cands[1]
    assert (c.start, c.end) == at(md, r"/x\_y&amp;z")
    assert c.source_span(2, 3) == at(md, r"\_")
    assert c.source_span(4, 5) == at(md, "&amp;")


def test_markdown_reference_definitions_and_autolinks():
    md = ('[ref]: http://ref.def/x "T"\n[ref2]:\n  <http://ref.def/y z>\n'
          "[^note]: http://foot.note/x\n\n"
          "<https://auto.link/x> <mailto:a@b.c> <foo@bar.com> <b>bold</b>\n"
          "<xsl:value-of/>\n")
    cands = scan("markdown", md)
    assert [(c.value, c.context) for c in cands] == [
        ("http://ref.def/x", "markdown-link"), ("http://ref.def/y z", "markdown-link"),
        ("http://foot.note/x", "bare"), ("https://auto.link/x", "autolink"),
        ("mailto:a@b.c", "autolink"),
        # CommonMark reads it as an autolink too (scheme "xsl").
        ("xsl:value-of/", "autolink")]


def test_markdown_code_is_scanned_as_code():
    md = ("Code `http://co.de/span` and ``x http://co.de/2 ` y``.\n\n"
          "```python\nurl = \"http://fenced.code/x\"\n\n[x](not-a-link)\n```\n\n"
          "    indented http://ind.ent/code\n\n"
          "- list\n\n      not code http://list.item/x\n\n"
          "~~~\nunclosed http://u.n/c\n")
    cands = scan("markdown", md)
    assert [(c.value, c.context) for c in cands] == [
        ("http://co.de/span", "code"), ("http://co.de/2", "code"),
        ("http://fenced.code/x", "code"), ("http://ind.ent/code", "code"),
        ("http://list.item/x", "bare"), ("http://u.n/c", "code")]
    assert (cands[0].start, cands[0].end) == at(md, "http://co.de/span")


def test_markdown_raw_html_and_comments():
    md = ('<a href="http://example.com/abc&#x202E;gpj.exe">x</a>\n'
          "<!-- hidden http://com.ment/x -->\n<img src='../p.png'>\n")
    cands = scan("markdown", md)
    assert [(c.value, c.context) for c in cands] == [
        ("http://example.com/abc\u202egpj.exe", "html-attr"),
        ("http://com.ment/x", "comment"), ("../p.png", "html-attr")]
    i = cands[0].value.index("\u202e")
    assert cands[0].source_span(i, i + 1) == at(md, "&#x202E;")


def test_markdown_non_ascii_and_bidi():
    md = "日本語 http://例え.jp/パス。 [x](http://a/\u202egpj.exe) [ع](http://مثال.إختبار/مسار)\n"
    assert spans("markdown", md) == [
        exact(md, "http://例え.jp/パス"), exact(md, "http://a/\u202egpj.exe"),
        exact(md, "http://مثال.إختبار/مسار")]


def test_markdown_same_iri_as_text_and_destination_once_each():
    md = "[http://a.b](http://a.b)"
    cands = scan("markdown", md)
    assert [(c.start, c.end) for c in cands] == [(1, 11), (13, 23)]


# ---------------------------------------------------------------- reStructuredText


def test_rst_constructs():
    rst = ("See `Python <http://python.org/>`_ and `anon <http://an.on/>`__ and "
           "`alias <other_>`_.\n\n"
           ".. _target: http://t.ar/get\n.. __: http://anon/x\n__ http://anon/y\n"
           ".. image:: images/pic.png\n   :target: http://img/t\n"
           ".. |s| image:: http://sub/img.png\n.. _ind: other_\n"
           ".. include:: other.rst\n\n.. a comment http://c.om/ment\n\nBare http://b.are/x.\n")
    cands = scan("rst", rst)
    assert [(c.value, c.context) for c in cands] == [
        ("http://python.org/", "rst-link"), ("http://an.on/", "rst-link"),
        ("http://t.ar/get", "rst-link"), ("http://anon/x", "rst-link"),
        ("http://anon/y", "rst-link"), ("images/pic.png", "rst-directive"),
        ("http://img/t", "rst-directive"), ("http://sub/img.png", "rst-directive"),
        ("http://c.om/ment", "bare"), ("http://b.are/x", "bare")]
    assert (cands[0].start, cands[0].end) == at(rst, "http://python.org/")
    check_contract(rst, cands)


def test_rst_non_ascii():
    rst = "`пример <http://пример.испытание/путь>`_ и http://例え.jp/パス。\n"
    assert spans("rst", rst) == [exact(rst, "http://пример.испытание/путь"),
                                 exact(rst, "http://例え.jp/パス")]


# ---------------------------------------------------------------- source code


def test_code_strings_end_iris():
    py = ("url = 'http://a.b/c',foo)\n"
          'x = "http://j/k\\"l"  # see http://d.e/f\n'
          'doc = """\nhttp://tri.ple/x\n"""\n'
          "curl http://sh.ell/x#frag\n")
    cands = list(get_scanner("python").scan(py))
    assert [(c.value, c.context) for c in cands] == [
        ("http://a.b/c", "string"), ("http://j/k", "string"), ("http://d.e/f", "comment"),
        ("http://tri.ple/x", "string"), ("http://sh.ell/x#frag", "unquoted")]
    assert (cands[0].start, cands[0].end) == at(py, "http://a.b/c")


def test_code_c_like_comments():
    js = ("const u = `http://tmpl/${x}`; // see http://c.m/x\n"
          "/* block\n http://bl.ock/x */ a = b//c;\nlet s = 'http://例え.jp/パス';\n")
    cands = list(get_scanner("javascript").scan(js))
    assert [(c.value, c.context) for c in cands] == [
        ("http://tmpl/$", "string"), ("http://c.m/x", "comment"),
        ("http://bl.ock/x", "comment"), ("http://例え.jp/パス", "string")]


@pytest.mark.parametrize("language, comment", [
    ("sql", "-- see http://x.y/z"), ("lua", "-- see http://x.y/z"),
    ("haskell", "-- see http://x.y/z"), ("lisp", "; see http://x.y/z"),
    ("ini", "; see http://x.y/z"), ("latex", "% see http://x.y/z"),
    ("erlang", "% see http://x.y/z"), ("ruby", "# see http://x.y/z"),
    ("go", "// see http://x.y/z"), ("rust", "// see http://x.y/z"),
])
def test_code_comment_syntax_per_language(language, comment):
    text = "x = 1\n%s\n" % comment
    (c,) = get_scanner(language).scan(text)
    assert (c.value, c.context) == ("http://x.y/z", "comment")
    prefix = comment.split()[0]
    assert get_scanner(language).comments[0] == CommentSyntax(prefix)


def test_code_slashes_in_urls_are_no_comment():
    text = "x = file:///etc/hosts and http://a//b\n"
    assert values("code", text) == ["file:///etc/hosts", "http://a//b"]


# ---------------------------------------------------------------- JSON / YAML / TOML


def test_json_escapes_with_offsets():
    js = '{"desc": "see http://d.e/f\\u202egpj", "u": "http:\\/\\/x.y\\/z"}'
    cands = scan("json", js)
    assert [c.value for c in cands] == ["http://d.e/f\u202egpj", "http://x.y/z"]
    c = cands[0]
    i = c.value.index("\u202e")
    assert c.source_span(i, i + 1) == at(js, "\\u202e")
    assert (c.start, c.end) == at(js, "http://d.e/f\\u202egpj")
    assert cands[1].source_span(5, 6) == at(js, "\\/")


def test_json_surrogate_pairs():
    js = '["http://a/\\ud83d\\ude00x"]'
    (c,) = scan("json", js)
    assert c.value == "http://a/\U0001f600x"
    assert c.source_span(9, 10) == at(js, "\\ud83d\\ude00")


def test_json_iri_keys_and_comments():
    js = ('{"$ref": "#/defs/x", "homepageUrl": " ../rel ", "@id": "_:b0", '
          '"http://schema.org/name": "n", "other": "#/not"} // c http://com/x\n/* http://bl/x */')
    cands = scan("json", js)
    assert [(c.value, c.context) for c in cands] == [
        ("#/defs/x", "iri-value"), ("../rel", "iri-value"),
        ("http://schema.org/name", "string"), ("http://com/x", "comment"),
        ("http://bl/x", "comment")]


def test_yaml():
    yml = ("url: 'http://a.b/c'\n$ref: \"#/x\"\ntitle: Don't http://p.l/ain # http://co.mm/ent\n"
           "q: \"http://q/\\u202e\"\nl: [http://a, http://b]\ns: 'it''s http://x/y''z'\n"
           "k: \"http://例え.jp/パス\"\n")
    cands = scan("yaml", yml)
    assert [(c.value, c.context) for c in cands] == [
        ("http://a.b/c", "iri-value"), ("#/x", "iri-value"), ("http://p.l/ain", "unquoted"),
        ("http://co.mm/ent", "comment"), ("http://q/\u202e", "string"),
        ("http://a", "unquoted"), ("http://b", "unquoted"), ("http://x/y'z", "string"),
        ("http://例え.jp/パス", "string")]
    q = cands[4]
    assert q.source_span(9, 10) == at(yml, "\\u202e")
    s = cands[7]
    assert s.source_span(10, 11) == at(yml, "''", 1)


def test_toml():
    toml = ('homepage = "http://a.b/c" # http://c.m/t\ndoc_url = \'../rel\'\n'
            'm = """\nhttp://multi/line\\u202e"""\nlit = \'\'\'http://lit/x\\u202e\'\'\'\n')
    cands = scan("toml", toml)
    assert [(c.value, c.context) for c in cands] == [
        ("http://a.b/c", "string"), ("http://c.m/t", "comment"), ("../rel", "iri-value"),
        ("http://multi/line\u202e", "string"), ("http://lit/x", "string")]
    assert cands[3].source_span(17, 18) == at(toml, "\\u202e")


# ---------------------------------------------------------------- Turtle / SPARQL


def test_turtle():
    ttl = ('@prefix ex: <http://ex.org/> .\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n'
           '@base <http://base/> .\n<#me> ex:knows <> ; ex:n "see http://s/t\\u202e" . # c http://c/m\n'
           '<http://e/\\u202Ex> a <http://a b> ; ex:l """long\nhttp://lo.ng/x""" .\n'
           "<http://例え.jp/パス> ex:p 'http://sq/x' .\n")
    cands = scan("turtle", ttl)
    assert [(c.value, c.context) for c in cands] == [
        ("http://ex.org/", "turtle-prefix"), ("http://xmlns.com/foaf/0.1/", "turtle-prefix"),
        ("http://base/", "turtle-base"), ("#me", "turtle-iri"), ("", "turtle-iri"),
        ("http://s/t\u202e", "string"), ("http://c/m", "comment"),
        ("http://e/\u202ex", "turtle-iri"), ("http://a b", "turtle-iri"),
        ("http://lo.ng/x", "string"), ("http://例え.jp/パス", "turtle-iri"),
        ("http://sq/x", "string")]
    e = cands[7]
    assert e.source_span(9, 10) == at(ttl, "\\u202E")
    assert (cands[4].start, cands[4].end) == (at(ttl, "<>")[0] + 1,) * 2
    check_contract(ttl, cands)


def test_sparql_less_than_is_no_iri():
    rq = "SELECT * WHERE { ?s <http://p/x> ?o . FILTER(?a < ?b && ?c > 3) }"
    assert values("turtle", rq) == ["http://p/x"]


# ---------------------------------------------------------------- choosing


@pytest.mark.parametrize("path, name", [
    ("README.md", "markdown"), ("doc.markdown", "markdown"), ("x.mdx", "markdown"),
    ("a.html", "html"), ("a.HTM", "html"), ("a.xhtml", "html"), ("a.xml", "xml"),
    ("a.svg", "xml"), ("a.rdf", "xml"), ("a.owl", "xml"), ("a.rst", "rst"),
    ("a.txt", "text"), ("a.json", "json"), ("a.jsonc", "json"), ("a.yaml", "yaml"),
    ("a.yml", "yaml"), ("a.toml", "toml"), ("a.ttl", "turtle"), ("a.nt", "turtle"),
    ("a.nq", "turtle"), ("a.trig", "turtle"), ("a.n3", "turtle"), ("a.rq", "turtle"),
    ("a.sparql", "turtle"), ("a.py", "code"), ("a.js", "code"), ("a.ts", "code"),
    ("a.c", "code"), ("a.h", "code"), ("a.go", "code"), ("a.rs", "code"),
    ("a.java", "code"), ("Makefile", "code"), ("Dockerfile", "code"),
    ("/x/y/z.unknown", "text"), ("noext", "text"), (r"C:\docs\a.rst", "rst"),
])
def test_scanner_for_path(path, name):
    assert scanner_for(path=path).name == name


@pytest.mark.parametrize("language_id, name", [
    ("markdown", "markdown"), ("html", "html"), ("xml", "xml"), ("plaintext", "text"),
    ("restructuredtext", "rst"), ("python", "code"), ("javascript", "code"),
    ("typescript", "code"), ("javascriptreact", "code"), ("typescriptreact", "code"),
    ("json", "json"), ("jsonc", "json"), ("yaml", "yaml"), ("toml", "toml"),
    ("turtle", "turtle"), ("sparql", "turtle"), ("c", "code"), ("cpp", "code"),
    ("java", "code"), ("go", "code"), ("rust", "code"), ("shellscript", "code"),
    ("no-such-language", "text"),
])
def test_scanner_for_language_id(language_id, name):
    assert scanner_for(language_id=language_id).name == name


def test_scanner_for_precedence_and_overrides():
    assert scanner_for(path="a.txt", language_id="markdown").name == "markdown"
    assert scanner_for(path="a.foo", extensions={"foo": "markdown"}).name == "markdown"
    assert scanner_for(path="a.foo", extensions={".foo": "html"}).name == "html"
    assert scanner_for(path="a.md", language_id="markdown",
                       extensions={"md": "text"}).name == "text"
    s = scanner_for(path="build.weird", extensions={"weird": "python"})
    assert isinstance(s, CodeScanner) and s.language == "python"
    assert scanner_for().name == "text"
    py = scanner_for(path="x.py")
    assert py.language == "python" and py.comments[0] == CommentSyntax("#")
    assert scanner_for(path="x.c").comments[0] == CommentSyntax("//")


def test_registry():
    assert set(scanner_names()) == set(SCANNERS) == {
        "text", "markdown", "html", "xml", "rst", "code", "json", "yaml", "toml", "turtle"}
    for name in scanner_names():
        s = get_scanner(name)
        assert s.name == name and s.comments
        assert all(isinstance(c, CommentSyntax) for c in s.comments)
    assert get_scanner("markdown").comments[0] == CommentSyntax("<!--", "-->")
    assert get_scanner("html").comments[0] == CommentSyntax("<!--", "-->")
    assert get_scanner("rst").comments[0] == CommentSyntax("..")
    assert get_scanner("toml").comments[0] == CommentSyntax("#")
    assert get_scanner("turtle").comments[0] == CommentSyntax("#")
    assert "python" in code_languages() and is_scanner_name("python")
    assert is_scanner_name("markdown") and not is_scanner_name("nope")
    with pytest.raises(KeyError):
        get_scanner("nope")


# ---------------------------------------------------------------- properties

_ALPHABET = st.sampled_from(
    list("abch:/.,;()[]<>\"'`#&;=?%\\-_*! \n\t{}|~@+0123456789xX$")
    + ["http://", "https://", "mailto:", "urn:", "<", "&#x202E;", "&amp;", "&#",
       "\\u202e", "\\ud83d", "\\", "](", "[", "`", "```", "~~~", "    ", "\n\n", "- ",
       "<a href=\"", "<!--", "-->", ".. _x: ", ".. image:: ", "`a <", ">`_", "@prefix",
       "<#", "\"\"\"", "'''", "/*", "*/", "//", "--", "# ", "\u202e", "\u200b", "\u3000",
       "\u00a0", "例え", "مثال", "。", "）", "\U0001f600", "\ud800"])
_TEXT = st.lists(_ALPHABET, max_size=40).map("".join)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=_TEXT, name=st.sampled_from(
    ["text", "markdown", "html", "xml", "rst", "code", "python", "c", "shellscript",
     "sql", "json", "yaml", "toml", "turtle"]))
def test_property_contract(text, name):
    check_contract(text, get_scanner(name).scan(text))


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_property_contract_any_unicode(text):
    for name in scanner_names():
        check_contract(text, get_scanner(name).scan(text))


@settings(max_examples=100, deadline=None)
@given(prefix=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
       body=st.text(alphabet=st.sampled_from(list("abc/é例?=&%-._~") + ["\u202e"]), min_size=1,
                    max_size=20))
def test_property_text_finds_iri_after_space(prefix, body):
    """An IRI after a space, ending the text, is found whatever came before."""
    iri = "http://x.y/" + body + "z"
    text = prefix + " " + iri
    cands = find_iris(text)
    assert cands[-1].value == iri
    assert (cands[-1].start, cands[-1].end) == (len(text) - len(iri), len(text))


def test_crlf_line_endings():
    md = "Para http://a.b/c\r\n\r\n```\r\nhttp://code/x\r\n```\r\n\r\n[x](http://l/k)\r\n"
    assert [(c.value, c.context) for c in scan("markdown", md)] == [
        ("http://a.b/c", "bare"), ("http://code/x", "code"), ("http://l/k", "markdown-link")]
    assert values("text", "http://a.b/c\r\nhttp://d.e/f\r\n") == ["http://a.b/c", "http://d.e/f"]
    py = "x = 'http://a/b'\r\n# http://c/d\r\n"
    assert values("python", py) == ["http://a/b", "http://c/d"]


def test_text_real_documentation_artifacts():
    """Cases from the multilingual corpus (bench/build_corpus.py)."""
    # roff escapes in man pages are not part of the scheme
    assert values("text", r"see \fBhttps://github.com/x\fR ok") == ["https://github.com/x"]
    assert values("text", r"\f(CWhttp://a.b/\fP") == ["http://a.b/"]
    assert values("text", r"\(aqhttp://localhost:19531/entries\(aq") == ["http://localhost:19531/entries"]
    # Perl module names and C++ scopes are not schemes
    assert values("text", "use File::Scan and std::x") == []
    # prose about URLs: a quote right after "://" is not a host
    assert values("text", "https://\u201d-rekin") == []
    assert values("text", "'http://'") == []
    # capitalised labels are not schemes without "//"; MAILTO and URN are
    assert values("text", "DATA:Be TAG:new") == []
    assert values("text", "URN:ISBN:0451450523") == ["URN:ISBN:0451450523"]


@pytest.mark.parametrize("literal, expected", [
    ('"\\nhttp://e.org/a"', "http://e.org/a"),        # the "n" is the escape's
    ("'\\thttps://e.org/'", "https://e.org/"),
    ('"\\x41http://e.org/"', "Ahttp://e.org/"),        # decoded, Python reads "Ahttp:..."
    ('"\\u202ehttp://e.org/"', "http://e.org/"),       # four hex digits
    ('"\\FTP://e.org/"', "TP://e.org/"),               # \F is an escape too
    ('"a\\\\http://e.org/"', "http://e.org/"),         # an escaped backslash
])
def test_code_string_candidates_start_after_an_escape(literal, expected):
    assert values("python", "x = %s\n" % literal) == [expected]
    assert values("c", "x = %s;\n" % literal) == [expected]


def test_code_escape_letters_outside_strings_are_text():
    # a backslash escapes only in string literals
    assert values("python", "# see \\nhttp://e.org/\n") == ["nhttp://e.org/"]
