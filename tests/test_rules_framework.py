"""The rule registry, selection, the engine's fast path and suppressions."""
import pytest

from irilint.engine import Engine, check_reference
from irilint.rules.registry import (
    DOC_SECTIONS,
    FAMILIES,
    all_rules,
    get_rule,
    resolve_selector,
    select_rules,
)

# The names the issues fix; each must exist under exactly this name.
REQUIRED = {
    "bidi-control", "bidi-control-encoded", "bidi-mixed-direction", "bidi-component-edge", "idn-bidi-rule",
    "not-nfc", "compatibility-character",
    "delimiter-lookalike", "fullwidth-form", "mixed-script", "whole-script-confusable",
    "confusable-collision", "invisible-character", "ascii-lookalike",
    "bad-percent-encoding", "lowercase-percent-encoding", "percent-encoded-non-utf8",
    "percent-encoded-unreserved", "double-percent-encoding", "percent-encoded-text",
    "invalid-character", "noncharacter", "private-use-outside-query", "invalid-scheme",
    "invalid-port", "invalid-ip-literal",
    "idn-invalid", "punycode-invalid", "punycode-label", "idna-deviation",
    "uppercase-scheme", "uppercase-host", "dot-segments", "default-port",
    "unused-suppression",
}


def test_every_required_rule_exists():
    names = {r.name for r in all_rules()}
    assert REQUIRED <= names, sorted(REQUIRED - names)


@pytest.mark.parametrize("r", all_rules(), ids=lambda r: r.name)
def test_rule_metadata_and_doc_block(r):
    assert r.family in FAMILIES
    assert r.code.startswith("IRI") and len(r.code) == 6
    assert r.summary and not r.summary.startswith("#")
    for section in DOC_SECTIONS:
        assert "## %s\n" % section in r.doc, (r.name, section)
    assert get_rule(r.code) is r and get_rule(r.name) is r and get_rule(r.code.lower()) is r


def test_codes_are_unique_and_match_families():
    codes = [r.code for r in all_rules()]
    assert len(codes) == len(set(codes))
    digit = {"syntax": "0", "bidi": "1", "lookalike": "2", "normalization": "3",
             "percent-encoding": "4", "host": "5", "preferred-form": "6", "meta": "9"}
    for r in all_rules():
        assert r.code[3] == digit[r.family], r


def test_selectors():
    assert [r.name for r in resolve_selector("IRI401")] == ["bad-percent-encoding"]
    assert {r.family for r in resolve_selector("bidi")} == {"bidi"}
    assert {r.family for r in resolve_selector("IRI4")} == {"percent-encoding"}
    assert len(resolve_selector("ALL")) == len(all_rules())
    with pytest.raises(KeyError):
        resolve_selector("nothing-like-this")


def test_selection_semantics():
    default = {r.name for r in select_rules().rules}
    assert default == {r.name for r in all_rules() if r.enabled}
    only = select_rules(select=["bidi"], ignore=["bidi-control"])
    assert "bidi-control" not in {r.name for r in only.rules}
    assert {r.family for r in only.rules} == {"bidi"}
    ext = select_rules(extend_select=["ascii-lookalike"])
    assert "ascii-lookalike" in {r.name for r in ext.rules}
    sev = select_rules(severity={"IRI402": "error"})
    r = get_rule("IRI402")
    assert sev.severity_of(r).label == "error"


def test_severity_override_reaches_findings():
    from irilint.config import Settings

    s = Settings(severity=(("lowercase-percent-encoding", "error"),))
    findings = Engine().check_text("http://e.org/%e2%82%ac", settings=s, path=None).findings
    low = [f for f in findings if f.rule.name == "lowercase-percent-encoding"]
    assert low and low[0].severity.label == "error"


def test_pure_ascii_references_skip_trait_rules():
    # A rule that needs "percent" must not run on a reference without "%":
    # prove it by counting calls through a wrapper.
    r = get_rule("lowercase-percent-encoding")
    calls = []
    original = r.check
    r.check = lambda ctx: calls.append(ctx.value) or original(ctx)
    try:
        check_reference("http://example.org/plain", select=["ALL"])
        assert calls == []
        check_reference("http://example.org/%41", select=["ALL"])
        assert calls == ["http://example.org/%41"]
    finally:
        r.check = original


def _check_with_a_broken_rule(text, path):
    """``Engine().check_text`` while double-percent-encoding raises "boom"."""
    r = get_rule("double-percent-encoding")
    original = r.check

    def broken(ctx):
        raise RuntimeError("boom")

    r.check = broken
    try:
        return Engine().check_text(text, path=path)
    finally:
        r.check = original


def test_a_failing_rule_does_not_lose_other_findings():
    result = _check_with_a_broken_rule("http://e.org/100%", "x.txt")
    assert any(f.rule.name == "bad-percent-encoding" for f in result.findings)
    assert any("double-percent-encoding" in e and "boom" in e for e in result.errors)


def test_a_failing_rule_names_the_reference_readably():
    result = _check_with_a_broken_rule("ראו http://e.org/\u200f%25/\u05d0 כאן", "he.txt")
    (error,) = [e for e in result.errors if "double-percent-encoding" in e]
    assert "'http://e.org/<U+200F>%25/\u05d0'" in error  # was repr(): '\u200f'


@pytest.mark.parametrize("value", [
    "https://docs.djangoproject.com/en/%(version)s/releases/",
    "{% url 'admin:index' %}",
    "{{ pathto(root_doc)|e }}",
    "https://api.github.com/users/{user}/repos",
    "${base}/100%",
    "javascript:(function(){alert(1)})()",
])
def test_templated_references_skip_syntax_rules(value):
    names = [f.rule.name for f in check_reference(value, select=["ALL"])]
    assert not [n for n in names if get_rule(n).family in ("syntax", "percent-encoding", "host", "preferred-form")]


def test_templated_references_still_get_bidi_and_lookalike_rules():
    names = [f.rule.name for f in check_reference("https://example.com/{user}/abc\u202egpj", select=["ALL"])]
    assert "bidi-control" in names
    names = [f.rule.name for f in check_reference("{{ base }}/p\u0430ypal-login", select=["ALL"])]
    assert "mixed-script" in names


# -- messages show invisible characters as <U+XXXX> (issue 15) --------------------

from hypothesis import given as _given, settings as _hsettings, strategies as _st  # noqa: E402

from irilint.engine import check_reference as _check_reference  # noqa: E402
from irilint.unicode_security import is_invisible as _is_invisible  # noqa: E402

_ESCAPE_RE = __import__("re").compile(r"\\[uUxN]")

_INVISIBLES = ["\u200c", "\u200d", "\u200b", "\u200e", "\u202e", "\u2066", "\u00ad", "\ufeff",
               "\u3000", "\u00a0", "\x01", "\x7f", "\u0085", "\ue000", "\U000e0041", "\u180e"]
_BASES = [
    "https://fa.wikipedia.org/wiki/\u0645\u06cc\u062e\u0648\u0627\u0647\u0645",
    "https://he.wikipedia.org/wiki/\u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd",
    "https://ar.example/\u0627\u0644\u0642\u0627\u0647\u0631\u0629?q=\u0645\u062b\u0627\u0644",
    "http://\u4f8b\u5b50.\u6d4b\u8bd5/\u8def\u5f84/\u6587\u4ef6",
    "https://ja.example/\u6771\u4eac/\u30ac\u30a4\u30c9e\u0301#\u7ae0",
    "http://example.org:8080/a/b",
    "HTTP://Example.ORG/%7Euser/%e2%80%8b",
]


def _assert_readable(text):
    assert not any(_is_invisible(c) for c in text), ascii(text)
    assert not _ESCAPE_RE.search(text), text


@_given(_st.sampled_from(_BASES), _st.lists(_st.tuples(_st.integers(0, 200), _st.sampled_from(_INVISIBLES)),
                                           min_size=1, max_size=3))
@_hsettings(max_examples=200, deadline=None)
def test_messages_never_show_invisible_characters_raw_or_escaped(base, inserts):
    value = base
    for at, ch in inserts:
        at = 7 + at % (len(value) - 6)  # after the scheme's "//"
        value = value[:at] + ch + value[at:]
    for f in _check_reference(value, select=["ALL"]):
        _assert_readable(f.message)
        for fx in f.fixes:
            _assert_readable(fx.title)


@pytest.mark.parametrize("value, rule, shown", [
    ("http://e.org/cafe%CC%81%E2%80%8Cx", "not-nfc", "<U+200C>"),  # was '\\u200c'
    ("http://e.org:8\u200b0/", "invalid-port", "'8<U+200B>0'"),                       # was '8\u200b0'
    ("http://e.org/\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645-abc", "bidi-mixed-direction", "<U+200C>"),
    ("http://e.org/x%E3%80%80y", "compatibility-character", "NFKC gives ' '"),
])
def test_messages_show_invisible_characters_by_code_point(value, rule, shown):
    (f,) = _check_reference(value, select=[rule])
    assert shown in f.message


# -- one finding per problem: the most specific rule stands for the others --------

from irilint.engine import check_text as _check_text  # noqa: E402
from irilint.rules.registry import get_rule as _get_rule  # noqa: E402


def test_rules_are_ordered_by_specificity():
    spec = {name: _get_rule(name).specificity for name in (
        "fullwidth-form", "delimiter-lookalike", "invisible-character", "bidi-control",
        "compatibility-character", "idn-invalid", "invalid-character", "bidi-mixed-direction")}
    assert spec["fullwidth-form"] == spec["delimiter-lookalike"] == spec["invisible-character"] \
        == spec["bidi-control"] > spec["compatibility-character"] > spec["idn-invalid"] \
        > spec["invalid-character"] > spec["bidi-mixed-direction"] == 0


@pytest.mark.parametrize("path, text, char, code, others", [
    # full-width forms typed with a CJK input method into a Latin host
    ("zh.html", '<p>请访问<a href="http://example\uff0fdocs.com/">资料</a>。</p>\n', "\uff0f", "IRI202",
     ["IRI501 idn-invalid"]),
    ("ja.html", '<p>資料は<a href="http://example\uff01.jp/">こちら</a>です。</p>\n', "\uff01", "IRI202",
     ["IRI501 idn-invalid"]),
    # a fraction slash in an Arabic or Hebrew page
    ("ar.html", '<p dir="rtl">انظر <a href="http://ex\u2044ample.com/">هنا</a></p>\n', "\u2044", "IRI201",
     ["IRI501 idn-invalid"]),
    # a no-break space in a host, in a Persian page and a Hebrew JSON record
    ("fa.html", '<p dir="rtl">برای جزئیات <a href="http://exa\u00a0mple.com/">اینجا</a> را ببینید.</p>\n',
     "\u00a0", "IRI302", ["IRI501 idn-invalid"]),
    ("he.json", '{"url": "http://exa\u00a0mple.com/", "title": "דוח שנתי"}\n', "\u00a0", "IRI302",
     ["IRI501 idn-invalid"]),
])
def test_findings_on_the_same_characters_are_one(path, text, char, code, others):
    found = [f for f in _check_text(text, path=path) if text[f.start:f.end] == char]
    (f,) = found
    assert f.rule.code == code
    for name in others:
        assert "(also %s)" % name in f.message
    assert f.severity.label == "error"  # the highest of the merged ones (idn-invalid's)


def test_a_suppressed_rule_is_not_merged_into_another():
    text = '<p>请访问<a href="http://example\uff0fdocs.com/">资料</a>。</p> <!-- irilint: ignore[IRI202] -->\n'
    (f,) = [f for f in _check_text(text, path="zh.html") if text[f.start:f.end] == "\uff0f"]
    assert f.rule.code == "IRI501" and "(also" not in f.message


def test_merged_findings_keep_the_other_rules_fixes():
    value = "http://ex\uff0fample.com/"
    alone = {fx.title for name in ("fullwidth-form", "idn-invalid")
             for f in _check_reference(value, select=[name]) for fx in f.fixes}
    (f,) = _check_reference(value, select=["fullwidth-form", "idn-invalid"])
    assert {fx.title for fx in f.fixes} == alone


def test_component_findings_are_not_merged():
    value = "http://example.com/\u05d0\u05d1abc1"
    names = [f.rule.name for f in _check_reference(value, select=["bidi"])]
    assert names == ["bidi-mixed-direction", "bidi-component-edge"]


_ODD_HOST_CHARS = ["\uff0f", "\uff01", "\u2044", "\u00a0", "\u200b", "\u3002", "\uff0e", "\u2024", "\u0430", " "]


@_given(_st.lists(_st.tuples(_st.integers(0, 20), _st.sampled_from(_ODD_HOST_CHARS)), min_size=1, max_size=4))
@_hsettings(max_examples=150, deadline=None)
def test_no_two_character_findings_share_their_characters(inserts):
    host = "example.com"
    for at, ch in inserts:
        at %= len(host) + 1
        host = host[:at] + ch + host[at:]
    spans = {}
    for f in _check_reference("http://%s/path" % host, select=["ALL"]):
        if f.rule.specificity > 0:
            key = (f.start, f.end)
            assert spans.setdefault(key, f.rule.name) == f.rule.name, (host, key)


def test_label_findings_are_not_merged():
    # django's validator list: the N'Ko label breaks the Bidi Rule and is
    # not NFC; two problems of the label, two findings
    names = sorted(f.rule.name for f in _check_reference("http://xn--7sbb4ac0ad0be6cf.xn--7sbb4ac0ad0be6cf/"))
    assert "idn-bidi-rule" in names and "punycode-invalid" in names
