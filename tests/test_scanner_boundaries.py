"""Where an IRI begins and ends as a reader of each format sees it.

Cases from real documents (wrapped reST targets, Markdown badges in
PKG-INFO, reference links, CJK prose, bidi wraps in right-to-left prose,
HTML templates), each in the file's own format, checked on the candidates
the scanners give and, where a false alarm was the symptom, on the findings
of the whole linter.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint.config import Settings
from irilint.engine import check_text
from irilint.scanners import find_iris, get_scanner


def scan(name, text):
    return get_scanner(name).scan(text)


def values(name, text):
    return [c.value for c in scan(name, text)]


def findings(text, path, select=None):
    kw = {}
    if select is not None:
        from irilint.config import Settings
        kw["settings"] = Settings(select=tuple(select))
    return [(f.rule.name, text[f.start:f.end]) for f in check_text(text, path=path, **kw)]


def check_offsets(text, c):
    """Every character of the value comes from the source character its
    offset points at (line joins only drop characters)."""
    if c.offsets is None:
        assert text[c.start:c.end] == c.value
        return
    assert len(c.offsets) == len(c.value) + 1
    assert c.offsets[0] == c.start and c.offsets[-1] == c.end
    assert list(c.offsets) == sorted(c.offsets)
    for i, ch in enumerate(c.value):
        assert text[c.offsets[i]] == ch


# ------------------------------------------------- reST: wrapped embedded URIs

DJANGO_WRAPPED = (
    "    See `Oracle documentation <https://docs.oracle.com/en/\n"
    "    database/oracle/oracle-database/18/spatl/spatial-operators-reference.html#\n"
    "    GUID-97C17C18-F05E-49B4-BE11-E89B972E2A02>`__.\n")
DJANGO_WRAPPED_IRI = ("https://docs.oracle.com/en/database/oracle/oracle-database/18/spatl/"
                      "spatial-operators-reference.html#GUID-97C17C18-F05E-49B4-BE11-E89B972E2A02")


@pytest.mark.parametrize("scanner", ["rst", "text"])
def test_wrapped_embedded_uri_is_joined(scanner):
    # Django's docs are reST in .txt files: the text scanner reads them
    # through the <...> form, the reST scanner as an embedded URI.
    (c,) = scan(scanner, DJANGO_WRAPPED)
    assert c.value == DJANGO_WRAPPED_IRI
    check_offsets(DJANGO_WRAPPED, c)
    # each piece maps back to its own line
    g = c.value.index("GUID")
    assert c.source_offset(g) == DJANGO_WRAPPED.index("GUID")
    d = c.value.index("database")
    assert c.source_offset(d) == DJANGO_WRAPPED.index("database")


@pytest.mark.parametrize("path", ["docs/ref/gis.txt", "docs/ref/gis.rst"])
def test_wrapped_embedded_uri_gives_no_false_alarm(path):
    assert findings(DJANGO_WRAPPED, path) == []


def test_wrapped_embedded_uri_finding_points_into_its_line():
    # a real problem after the wrap is reported where it is written
    text = "`PostgreSQL <https://www.postgresql.org/docs/\n    current/a%zz.html>`_\n"
    fs = check_text(text, path="doc.rst")
    assert [(f.rule.name, f.start) for f in fs] == [("bad-percent-encoding", text.index("%zz"))]


def test_wrapped_embedded_uri_in_japanese_rst():
    text = ("詳しくは `PostgreSQLの文書 <https://www.postgresql.jp/document/\n"
            "   current/html/rangetypes.html>`_ を参照してください。\n")
    (c,) = scan("rst", text)
    assert c.value == "https://www.postgresql.jp/document/current/html/rangetypes.html"
    check_offsets(text, c)


def test_embedded_uri_as_docutils_reads_it():
    # escaped whitespace is one space, a backslash escape the character
    text = "`x <http://a.example/b\\_c\\ d>`_"
    (c,) = scan("rst", text)
    assert c.value == "http://a.example/b_c d"
    assert (c.start, c.end) == (text.index("http"), text.index(">"))
    from irilint.scanners.rst import embedded_uri

    piece = embedded_uri(text, text.index("http"), text.index(">"))
    assert piece.value == c.value


def test_rst_escaped_angle_brackets_are_no_embedded_uri():
    # Sphinx's changelog: `\<search\>`_ names an HTML element
    text = "* Fix the `\\<search\\>`_ element.\n"
    assert values("rst", text) == []
    assert findings(text, "changes.rst") == []
    # "<" must start the phrase or follow whitespace: otherwise the phrase
    # is a reference name, in which a reader still sees a URL
    assert [(c.value, c.context) for c in scan("rst", "`a<http://a.example/>`_")] == [
        ("http://a.example/", "angle")]
    assert values("rst", "`<http://a.example/>`_") == ["http://a.example/"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc/.%-_é例ث", min_size=1, max_size=8), min_size=1, max_size=5),
       st.lists(st.sampled_from(["\n", "\n   ", "  \n\t", "\r\n  ", " \r "]), min_size=4, max_size=4))
def test_property_wrapped_reference_joins_to_its_pieces(pieces, breaks):
    # (ends in a letter: "..._" would be a reST reference name)
    iri = "http://example.org/" + "".join(pieces) + "x"
    wrapped = "http://example.org/" + "".join(
        p + (breaks[i % len(breaks)] if i < len(pieces) - 1 else "") for i, p in enumerate(pieces)) + "x"
    for scanner, text in (("text", "see <%s> ok" % wrapped),
                          ("rst", "see `x <%s>`_ ok" % wrapped)):
        (c,) = scan(scanner, text)
        assert c.value == iri
        check_offsets(text, c)


# ----------------------------------------------- unbalanced closing brackets

REQUESTS_PKG_INFO = (
    "[![Downloads](https://static.pepy.tech/badge/requests/month)](https://pepy.tech/project/requests)\n"
    "[![Supported Versions](https://img.shields.io/pypi/pyversions/requests.svg)]"
    "(https://pypi.org/project/requests)\n")


@pytest.mark.parametrize("scanner", ["text", "markdown"])
def test_badges_image_inside_link(scanner):
    # PKG-INFO holds the Markdown long description; the text scanner reads it
    assert values(scanner, REQUESTS_PKG_INFO) == [
        "https://static.pepy.tech/badge/requests/month", "https://pepy.tech/project/requests",
        "https://img.shields.io/pypi/pyversions/requests.svg", "https://pypi.org/project/requests"]


def test_badges_give_no_false_alarm_in_pkg_info():
    assert findings(REQUESTS_PKG_INFO, "requests-2.32.5/PKG-INFO") == []


@pytest.mark.parametrize("scanner", ["text", "markdown"])
def test_reference_link_whose_text_is_a_url(scanner):
    text = ("For answers to common questions, see the FAQ at\n"
            "[https://www.contributor-covenant.org/faq][FAQ].\n\n"
            "[FAQ]: https://www.contributor-covenant.org/faq\n")
    assert values(scanner, text) == ["https://www.contributor-covenant.org/faq"] * 2
    assert findings(text, "CODE_OF_CONDUCT." + ("md" if scanner == "markdown" else "txt")) == []


@pytest.mark.parametrize("scanner, text", [
    ("text", "Mercury (see https://en.wikipedia.org/wiki/Mercury_(planet)) is small."),
    ("markdown", "Mercury (see https://en.wikipedia.org/wiki/Mercury_(planet)) is small."),
    ("markdown", "[Mercury](https://en.wikipedia.org/wiki/Mercury_(planet))"),
    ("rst", "Mercury (see https://en.wikipedia.org/wiki/Mercury_(planet)) is small."),
    ("html", "<p>Mercury (see https://en.wikipedia.org/wiki/Mercury_(planet)) is small.</p>"),
    ("python", "# Mercury (see https://en.wikipedia.org/wiki/Mercury_(planet))\n"),
])
def test_balanced_pairs_stay_in_every_format(scanner, text):
    assert values(scanner, text) == ["https://en.wikipedia.org/wiki/Mercury_(planet)"]


@pytest.mark.parametrize("scanner, text, iri", [
    ("text", "(see http://a.example/b)c", "http://a.example/b"),
    ("text", "see [http://a.example/b](#anchor) here", "http://a.example/b"),
    ("markdown", "text [http://a.example/b][ref] more", "http://a.example/b"),
    ("rst", "(see http://a.example/b)c", "http://a.example/b"),
    ("html", "<p>[![x](http://a.example/b)](http://c.example/)</p>", "http://a.example/b"),
    ("python", "XPATH = \".//a[@href='https://python.org/'][@class='reference external']\"\n",
     "https://python.org/"),
    ("python", "s = '[http://168.192.0.1](http://168.192.0.1)'\n", "http://168.192.0.1"),
    ("json", '{"description": "See [https://en.wikipedia.org/wiki/Campsite]'
             '(https://en.wikipedia.org/wiki/Campsite)."}',
     "https://en.wikipedia.org/wiki/Campsite"),
])
def test_unbalanced_closer_ends_a_bare_iri_in_every_format(scanner, text, iri):
    assert values(scanner, text)[0] == iri


def test_synopsis_brackets_are_no_scheme():
    # gdb(1): "break [file:]function"
    assert values("text", "break [file:]function\n") == []


@pytest.mark.parametrize("text, iri", [
    ("(انظر https://ar.wikipedia.org/wiki/مصر)وكذلك الصفحة.", "https://ar.wikipedia.org/wiki/مصر"),  # Arabic
    ("(ראו https://he.wikipedia.org/wiki/ירושלים)וגם את הדף.", "https://he.wikipedia.org/wiki/ירושלים"),  # Hebrew
    ("(ببینید https://fa.wikipedia.org/wiki/تهران)را.", "https://fa.wikipedia.org/wiki/تهران"),   # Persian
    ("(http://www.scriptics.com参照)で書かれていて", "http://www.scriptics.com"),          # Japanese man page
])
def test_unbalanced_closer_in_rtl_and_cjk_sentences(text, iri):
    assert values("text", text) == [iri]


# ------------------------------------------------------- CJK punctuation

@pytest.mark.parametrize("text, iris", [
    # Chinese: a full-width comma after the host, followed by Chinese text
    ("请访问http://example.com，然后点击下载。", ["http://example.com"]),
    # a sentence-final full stop in the host position
    ("项目主页是http://example.com。然后我们", ["http://example.com"]),
    # the next IRI's scheme is not swallowed (host or path)
    ("镜像：http://a.example、http://b.example", ["http://a.example", "http://b.example"]),
    ("镜像：http://a.example/x、https://b.example/y", ["http://a.example/x", "https://b.example/y"]),
    # Japanese: 」 and 、 followed by Japanese text
    ("「https://example.jp/資料」と「https://example.jp/他」、どちらも", ["https://example.jp/資料", "https://example.jp/他"]),
    ("詳しくはhttps://example.jp/パス、または", ["https://example.jp/パス"]),
])
def test_cjk_punctuation_followed_by_cjk_text_is_prose(text, iris):
    assert values("text", text) == iris


@pytest.mark.parametrize("text, iri", [
    ("詳細はhttp://www.example.com参照してください。", "http://www.example.com"),
    ("主页 http://www.example.org官方网站", "http://www.example.org"),
])
def test_cjk_text_glued_to_an_ascii_host_is_prose(text, iri):
    assert values("text", text) == [iri]


@pytest.mark.parametrize("iri", [
    "http://例え.テスト",                            # a CJK label is left whole
    "http://a.example参照/x",                        # the host goes on into a path
    "http://example.com/index\u3002html",         # a file-name dot look-alike: reported, not hidden
    "http://example.com/a\uff0cb",
    "http://例え。テスト/パス",                      # ideographic label dots in an IDN host
    "http://例え。jp/パス",
])
def test_cjk_punctuation_inside_an_iri_stays(iri):
    text = "見て %s ください" % iri
    assert values("text", text) == [iri]


def test_cjk_lookalike_dot_in_prose_is_still_reported():
    text = "下载 http://example.com/setup\u3002exe 即可\n"
    assert ("delimiter-lookalike", "\u3002") in findings(text, "readme.txt", select=("lookalike",))


# --------------------------------------------------------------- bidi wraps

@pytest.mark.parametrize("text, iri", [
    # Arabic, LRI ... PDI (RFC 3987 s4.1)
    ("للمزيد راجع \u2066https://example.com/مسار\u2069 من فضلك.", "https://example.com/مسار"),
    # Hebrew, LRE ... PDF, sentence punctuation after the wrap
    ("ראו \u202ahttps://example.co.il/דף\u202c.", "https://example.co.il/דף"),
    # Persian, RLI ... PDI and FSI ... PDI
    ("نشانی \u2067https://example.ir/صفحه\u2069 است", "https://example.ir/صفحه"),
    ("نشانی \u2068https://example.ir/صفحه\u2069، است", "https://example.ir/صفحه"),
    # RLE ... PDF, the punctuation inside the wrap
    ("ראו \u202bhttps://example.co.il/דף.\u202c", "https://example.co.il/דף"),
])
def test_bidi_wrap_around_an_iri_is_prose(text, iri):
    assert values("text", text) == [iri]
    for path in ("notes.txt", "notes.md"):
        assert findings(text, path, select=("bidi",)) == []


@pytest.mark.parametrize("text, iri", [
    # a terminator without initiator
    ("راجع https://example.com/a\u2069 هنا", "https://example.com/a\u2069"),
    # mismatched pair
    ("راجع \u2066https://example.com/a\u202c هنا", "https://example.com/a\u202c"),
    # nested
    ("راجع \u2066https://example.com/\u2067a\u2069\u2069 هنا", "https://example.com/\u2067a\u2069\u2069"),
    # an override is no wrap
    ("راجع \u202dhttps://example.com/a\u202c هنا", "https://example.com/a\u202c"),
    # the pair is not around the whole IRI
    ("راجع \u2066https://example.com/a\u2069/b هنا", "https://example.com/a\u2069/b"),
])
def test_unbalanced_or_nested_bidi_controls_stay_findings(text, iri):
    assert values("text", text) == [iri]
    assert any(name == "bidi-control" for name, _ in findings(text, "notes.txt", select=("bidi",)))


def test_bidi_wrap_written_as_character_references_in_html():
    text = "<p dir=rtl>راجع &#x2066;https://example.com/مسار&#x2069; من فضلك</p>"
    (c,) = scan("html", text)
    assert c.value == "https://example.com/مسار"
    assert findings(text, "page.html", select=("bidi",)) == []


# ------------------------------------------------------- HTML templates

SPHINX_LAYOUT = (
    "{%- macro copyright_block() %}\n"
    "  {%- if hasdoc('copyright') %}\n"
    "    {%- set copyright_prefix = '<a href=\"' + pathto('copyright') + '\">' + _('Copyright') + '</a>' -%}\n"
    "  {%- endif %}\n"
    "{%- endmacro %}\n"
    "<link rel=\"stylesheet\" href=\"https://example.org/style.css\">\n")


def test_markup_inside_template_syntax_is_not_a_tag():
    assert values("html", SPHINX_LAYOUT) == ["https://example.org/style.css"]
    assert findings(SPHINX_LAYOUT, "layout.html") == []


@pytest.mark.parametrize("path, text", [
    ("base.html", "<a href=\"{% url 'admin:index' %}\">{{ site_header }}</a>\n"),
    ("base.html", '<img src="{{ static }}/logo.png" srcset="{{ a }} 2x">\n'),
    ("index.md", 'Text <a href="{{ site.url }}/about">about</a>.\n'),
])
def test_template_syntax_in_attributes_makes_no_false_alarm(path, text):
    assert findings(text, path) == []


def test_templated_attribute_is_still_checked_for_spoofs():
    # the engine checks a templated reference with the bidi and look-alike
    # rules: a Cyrillic "а" next to a template is still seen
    text = '<a href="{{ base }}/\u0430dmin/\u202eexe.txt">admin</a>\n'
    names = {name for name, _ in findings(text, "base.html", select=("bidi", "lookalike"))}
    assert "bidi-control" in names


@pytest.mark.parametrize("scanner, text, iri", [
    # JSON-LD test data: the string is the IRI, its quotes delimit it
    ("json", '{"http://example.org/]foo": "Use term with IRI ending in \']\'"}', "http://example.org/]foo"),
    ("python", 'URLS = ("http://2001:cdba:0000:0000:0000:0000:3257:9652]/",)\n',
     "http://2001:cdba:0000:0000:0000:0000:3257:9652]/"),
    ("python", "s = 'http://example.com/\u6771\u4eac\uff08\u66d6\u6627\u3055\u56de\u907f\uff09'\n",
     "http://example.com/\u6771\u4eac\uff08\u66d6\u6627\u3055\u56de\u907f\uff09"),
    ("markdown", "Use `http://example.org/a)b` here.", "http://example.org/a)b"),
])
def test_an_iri_filling_a_delimited_window_keeps_its_brackets(scanner, text, iri):
    assert values(scanner, text) == [iri]


def test_a_whole_text_document_is_prose():
    # a document without a final newline is no delimited window
    assert values("text", "http://a.example/x)http://b.example/y") == [
        "http://a.example/x", "http://b.example/y"]
    assert values("text", "http://a.example/、http://b.example/") == [
        "http://a.example/", "http://b.example/"]


_PATH = st.text(alphabet="abz09-_/.~%é例مא", min_size=1, max_size=12).map(lambda p: p + "x")


@settings(max_examples=200, deadline=None)
@given(_PATH, _PATH, st.sampled_from(["()", "[]", "\uff08\uff09"]))
def test_property_prose_brackets_around_an_iri_with_balanced_pairs(a, b, pair):
    # "(see http://e.org/a(b)x)" in prose: the IRI keeps its own pair and
    # ends at the prose's closing bracket, in any sentence.  (The pair's
    # content starts with a Latin letter: a full-width opener followed by
    # CJK text is the prose's.)
    iri = "http://example.org/%s%sa%s%s" % (a, pair[0], b, pair[1])
    for sentence in ("(see %s) and more", "(انظر %s)وكذلك", "（参见%s）的说明"):
        text = sentence % iri
        assert [c.value for c in find_iris(text)] == [iri]


@settings(max_examples=200, deadline=None)
@given(_PATH, st.sampled_from(["\u2066\u2069", "\u2067\u2069", "\u2068\u2069", "\u202a\u202c",
                               "\u202b\u202c"]),
       st.sampled_from(["", ".", "،", "\u200f"]))
def test_property_bidi_wrap_is_prose_and_spans_are_exact(path, wrap, after):
    iri = "https://example.com/" + path
    text = "راجع %s%s%s%s من فضلك" % (wrap[0], iri, wrap[1], after)
    (c,) = find_iris(text)
    assert c.value == iri and text[c.start:c.end] == iri


@pytest.mark.parametrize("path, text, fixed", [
    ("notes.txt", "See <HTTP://Example.COM/docs/\n   page%7e.html> ok\n",
     "See <http://example.com/docs/\n   page%7E.html> ok\n"),
    ("doc.rst", "`x <https://a.example/docs/\n   page%7e.html>`_\n",
     "`x <https://a.example/docs/\n   page%7E.html>`_\n"),
])
def test_fixes_on_a_wrapped_reference_keep_the_wrap(path, text, fixed):
    from irilint.fix_loop import fixes_to_apply

    out = text
    for e in sorted(fixes_to_apply(check_text(text, path=path)), key=lambda e: -e.start):
        out = out[:e.start] + e.new_text + out[e.end:]
    assert out == fixed


_ALL = Settings(select=("ALL",))


@pytest.mark.parametrize("path, text", [
    # "。" before an ASCII A-label is a label dot; before the U-label "例え"
    # it ends a sentence of CJK prose, and the link is read no more
    ("a.md", " ```\nhttp://\u3002xn--r8jz45g.com\n```\n "),
    ("a.txt", "see http://\u3002xn--r8jz45g.com now\n"),
])
def test_a_fix_that_changes_how_prose_reads_the_link_is_unsafe(path, text):
    from irilint.fix_loop import fixes_to_apply

    found = check_text(text, path=path, settings=_ALL)
    [label] = [f for f in found if f.rule.name == "punycode-label"]
    assert not any(fx.safe for fx in label.fixes)
    assert "in running text" in label.fixes[0].title
    assert all(e.new_text != "\u4f8b\u3048" for e in fixes_to_apply(found))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["", "e", "\u4f8b"]), st.sampled_from(["\u3002", "\u3001", "."]),
       st.text(st.sampled_from("ab.-/%41\u3002\u3001\u4f8b\u3048\u30c6:"), max_size=12))
def test_no_safe_fix_of_a_link_in_prose_changes_where_prose_ends_it(head, dot, tail):
    from irilint.fix_loop import fixes_to_apply

    text = "see http://%s%sxn--r8jz45g.com%s now\n" % (head, dot, tail)
    before = [c for c in find_iris(text) if c.start == 4]
    fixed = text
    for e in sorted(fixes_to_apply(check_text(text, path="a.txt", settings=_ALL)), key=lambda e: -e.start):
        fixed = fixed[:e.start] + e.new_text + fixed[e.end:]
    after = [c for c in find_iris(fixed) if c.start == 4]
    # what follows the link is what followed it: prose ends it at the same place
    assert [fixed[c.end:] for c in after] == [text[c.end:] for c in before], (text, fixed)
