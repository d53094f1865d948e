"""Syntax, normalization and percent-encoding rules: where they fire and
where they must not."""
import unicodedata

import pytest

from irilint.engine import check_reference
from irilint.fileio import apply_edits


def found(value, rule):
    return [f for f in check_reference(value, select=[rule])]


def spans(value, rule):
    return [value[f.start:f.end] for f in found(value, rule)]


def fixed(value, rule, index=0):
    f = found(value, rule)[index]
    return apply_edits(value, f.fixes[0].edits), f.fixes[0]


LEGIT = [
    "http://example.org/",
    "https://ar.wikipedia.org/wiki/القاهرة",
    "https://he.wikipedia.org/wiki/ירושלים",
    "https://fa.wikipedia.org/wiki/می‌خواهم",
    "https://ja.wikipedia.org/wiki/東京都",
    "http://例子.测试/路径",
    "http://실례.테스트/경로",
    "https://ru.wikipedia.org/wiki/Москва",
    "http://παράδειγμα.δοκιμή/διαδρομή",
    "http://उदाहरण.परीक्षा/पथ",
    "http://[2001:db8::1]:8080/a?b=c#d",
    "mailto:user@example.org",
    "urn:isbn:0451450523",
    "http://example.org/?\ue000",  # private use in the query is allowed
    "http://example.org/%E2%82%AC",
]

CORE_RULES = [
    "invalid-character", "noncharacter", "private-use-outside-query", "invalid-scheme",
    "invalid-port", "invalid-ip-literal", "not-nfc", "compatibility-character",
    "bad-percent-encoding", "lowercase-percent-encoding", "percent-encoded-non-utf8",
    "percent-encoded-unreserved", "double-percent-encoding",
]


@pytest.mark.parametrize("value", LEGIT)
def test_legitimate_iris_give_no_core_finding(value):
    assert [f.rule.name for f in check_reference(value, select=CORE_RULES)] == []


# -- syntax ------------------------------------------------------------------------

def test_invalid_character_fires_with_safe_fix_for_space():
    v = "http://e.org/my file"
    f = found(v, "invalid-character")
    assert len(f) == 1 and "U+0020 SPACE" in f[0].message and "path" in f[0].message
    text, fx = fixed(v, "invalid-character")
    assert text == "http://e.org/my%20file" and fx.safe


@pytest.mark.parametrize("value, char, safe", [
    ("http://e.org/a\ufffdb", "\ufffd", False),
    ("http://e.org/a#b#c", "#", False),
    ("http://e.org/a\x01", "\x01", True),
    ("http://e.org/a<b>", "<", True),
])
def test_invalid_character_fix_safety(value, char, safe):
    f = found(value, "invalid-character")[0]
    assert value[f.start:f.end] == char
    assert f.fixes[0].safe is safe


def test_noncharacter_and_private_use():
    assert spans("http://e.org/\ufdd0", "noncharacter") == ["\ufdd0"]
    assert not found("http://e.org/\ufdd0", "invalid-character")
    assert spans("http://e.org/\ue000/?\ue000", "private-use-outside-query") == ["\ue000"]
    f = found("http://e.org/\ue000", "private-use-outside-query")[0]
    assert "U+E000" in f.message and not f.fixes[0].safe


def test_scheme_port_ip_literal():
    assert spans("1http://e.org/", "invalid-scheme") == ["1http"]
    assert spans("http://e.org:99999/", "invalid-port") == ["99999"]
    assert spans("http://[1:2:3]/", "invalid-ip-literal") == ["[1:2:3]"]
    assert not found("http://e.org:8080/", "invalid-port")
    assert not found("http://[::1]/", "invalid-ip-literal")


# -- normalization -----------------------------------------------------------------

def test_not_nfc_fires_and_fixes_safely():
    v = "http://e.org/re\u0301sume\u0301"
    f = found(v, "not-nfc")
    assert len(f) == 2
    assert "U+0301 COMBINING ACUTE ACCENT" in f[0].message
    text, fx = fixed(v, "not-nfc")
    assert text == "http://e.org/r\u00e9sume\u0301" and fx.safe


def test_not_nfc_does_not_fire_on_nfc_or_ascii():
    assert not found("http://e.org/résumé", "not-nfc")
    assert not found("http://e.org/plain", "not-nfc")


def test_not_nfc_offers_no_fix_inside_an_escape():
    # a combining mark after the hex digit "e" of "%ae": NFC would eat the digit
    f = found("http://e.org/%ae\u0301", "not-nfc")
    assert f and f[0].fixes == []


def test_not_nfc_on_percent_encoded_text_has_no_fix():
    f = found("http://e.org/e%CC%81", "not-nfc")
    assert len(f) == 1 and f[0].fixes == []
    assert "percent-encoded" in f[0].message


def test_compatibility_character():
    v = "http://e.org/\ufb01le\u00b2"
    f = found(v, "compatibility-character")
    assert [v[x.start:x.end] for x in f] == ["\ufb01", "\u00b2"]
    assert "U+FB01 LATIN SMALL LIGATURE FI" in f[0].message
    assert all(not fx.safe for x in f for fx in x.fixes)
    assert fixed(v, "compatibility-character")[0] == "http://e.org/file\u00b2"
    # percent-encoded: found too, pointing at the escape
    v2 = "http://e.org/%EF%AC%81"
    assert spans(v2, "compatibility-character") == ["%EF%AC%81"]
    # full-width forms are left to fullwidth-form
    assert not found("http://e.org/\uff41", "compatibility-character")
    assert not found("http://e.org/日本語", "compatibility-character")


# -- percent-encoding --------------------------------------------------------------

def test_bad_percent_encoding():
    v = "http://e.org/100%/%zz/%a"
    assert spans(v, "bad-percent-encoding") == ["%", "%", "%a"]
    text, fx = fixed(v, "bad-percent-encoding")
    assert text == "http://e.org/100%25/%zz/%a" and fx.safe
    assert not found("http://e.org/%41%e2%82%ac", "bad-percent-encoding")


def test_lowercase_percent_encoding():
    v = "http://e.org/%e2%82%ac/%2F/%aB"
    assert spans(v, "lowercase-percent-encoding") == ["%e2%82%ac", "%aB"]
    text, fx = fixed(v, "lowercase-percent-encoding")
    assert text == "http://e.org/%E2%82%AC/%2F/%aB" and fx.safe
    assert not found("http://e.org/%E2%82%AC", "lowercase-percent-encoding")


@pytest.mark.parametrize("value, span, severity, needle", [
    ("http://e.org/r%E9sum%E9", "%E9", "warning", "truncated"),
    ("http://e.org/%C0%AF", "%C0", "error", "overlong"),
    ("http://e.org/%ED%A0%80", "%ED%A0%80", "error", "surrogate"),
    ("http://e.org/%80", "%80", "warning", "continuation"),
    ("http://e.org/%F4%90%80%80", "%F4%90%80%80", "warning", "above U+10FFFF"),
])
def test_percent_encoded_non_utf8(value, span, severity, needle):
    f = found(value, "percent-encoded-non-utf8")[0]
    assert value[f.start:f.end] == span
    assert f.severity.label == severity
    assert needle in f.message


def test_percent_encoded_non_utf8_quiet_on_utf8():
    assert not found("http://e.org/%C3%A9%F0%9F%98%80", "percent-encoded-non-utf8")


def test_percent_encoded_unreserved():
    v = "http://e.org/%7Euser/%41"
    assert spans(v, "percent-encoded-unreserved") == ["%7E", "%41"]
    assert fixed(v, "percent-encoded-unreserved")[0] == "http://e.org/~user/%41"
    dots = found("http://e.org/a/%2E%2E/b", "percent-encoded-unreserved")
    assert dots and all(not x.fixes[0].safe for x in dots)
    assert not found("http://e.org/%2F%3A", "percent-encoded-unreserved")


def test_double_percent_encoding():
    assert spans("http://e.org/a%2520b", "double-percent-encoding") == ["%2520"]
    assert not found("http://e.org/100%25", "double-percent-encoding")


def test_percent_encoded_text():
    v = "http://e.org/%E6%97%A5%E6%9C%AC?q=%D7%A9"
    f = found(v, "percent-encoded-text")
    # one hint per reference, from its first encoded run to its last
    assert [v[x.start:x.end] for x in f] == ["%E6%97%A5%E6%9C%AC?q=%D7%A9"]
    assert f[0].severity.label == "hint"
    assert "'日本'" in f[0].message and "'ש'" in f[0].message
    text, fx = fixed(v, "percent-encoded-text")
    assert text == "http://e.org/日本?q=ש" and fx.safe
    # what s3.2 keeps encoded is never offered for decoding
    assert not found("http://e.org/%E2%80%AE", "percent-encoded-text")
    assert not found("http://e.org/%E2%80%8B", "percent-encoded-text")
    assert not found("http://e.org/%E9", "percent-encoded-text")


# -- one finding per problem (issue 15) ------------------------------------------

from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

from irilint.engine import check_text  # noqa: E402


def in_file(text, path, rule):
    return [f for f in check_text(text, path=path) if f.rule.name == rule]


def test_invalid_character_run_is_one_finding():
    # a line break and the indentation after it: one problem, not four
    v = "http://e.org/a\n   b"
    (f,) = found(v, "invalid-character")
    assert v[f.start:f.end] == "\n   "
    assert "4 characters" in f.message and "U+000A LINE FEED" in f.message and "U+0020 SPACE" in f.message
    # whitespace with a line break is dropped when the reference is read
    # (RFC 3986 Appendix C): neither removing nor encoding it is safe
    removed, fx = fixed(v, "invalid-character")
    assert removed == "http://e.org/ab" and not fx.safe
    encoded = apply_edits(v, f.fixes[1].edits)
    assert encoded == "http://e.org/a%0A%20%20%20b" and not f.fixes[1].safe


def test_invalid_character_runs_apart_stay_apart():
    v = "http://e.org/a b  c"
    assert spans(v, "invalid-character") == [" ", "  "]
    assert "U+0020 SPACE (2 in a row)" in found(v, "invalid-character")[1].message


def test_invalid_character_run_with_a_delimiter_is_unsafe():
    v = "http://e.org/a#b #c"
    (f,) = found(v, "invalid-character")
    assert v[f.start:f.end] == " #"
    assert not f.fixes[0].safe and f.fixes[0].edits[0].new_text == "%20%23"


@pytest.mark.parametrize("sentence, run", [
    ('<p dir="rtl">انظر <a href="https://example.org/تقرير  السنوي.pdf">التقرير السنوي</a> للمزيد.</p>', "  "),
    ('<p dir="rtl">ראו את <a href="https://example.org/דוח  שנתי.pdf">הדוח השנתי</a> לפרטים.</p>', "  "),
    ('<p dir="rtl">برای جزئیات <a href="https://example.org/گزارش  سالانه.pdf">گزارش سالانه</a> را ببینید.</p>', "  "),
    ('<p>详情请见<a href="https://example.cn/年度\t\t报告.pdf">年度报告</a>。</p>', "\t\t"),
    ('<p>詳しくは<a href="https://example.jp/年次 \t報告.pdf">年次報告</a>を参照してください。</p>', " \t"),
])
def test_invalid_character_run_in_html_sentences(sentence, run):
    (f,) = in_file(sentence, "page.html", "invalid-character")
    assert sentence[f.start:f.end] == run
    # spaces alone are encoded safely; a tab is dropped by the URL parser
    assert f.fixes and f.fixes[-1].safe is ("\t" not in run)


# no "{": "{{" or "{name}" makes the reference a template, which the
# grammar rules leave alone
_RUN_CHARS = st.sampled_from(list(' <>"}|\\^`\t\n'))
_TEXT_CHARS = st.sampled_from(list("abcXYZ019-._~") + ["ش", "ש", "ی", "中", "日", "語"])


@given(st.lists(st.tuples(st.text(_TEXT_CHARS, min_size=1, max_size=6),
                          st.text(_RUN_CHARS, min_size=1, max_size=5)), min_size=1, max_size=5))
@hsettings(max_examples=150, deadline=None)
def test_invalid_character_one_finding_per_run_property(pieces):
    from hypothesis import assume

    from irilint.templates import is_template

    path = "".join(word + run for word, run in pieces)
    v = "http://e.org/" + path + "end"
    # "\\b", "\\d"... read as a regular expression: a template, which the
    # grammar rules leave alone (tests/test_code_escapes.py)
    assume(not is_template(v))
    fs = found(v, "invalid-character")
    assert [v[f.start:f.end] for f in fs] == [run for _word, run in pieces]
    # every encoding fix applied: the same path with each run
    # percent-encoded, and nothing left to report
    text = apply_edits(v, [e for f in fs for e in f.fixes[-1].edits])
    assert all(f.fixes[-1].safe is not any(c in "\t\n" for c in v[f.start:f.end]) for f in fs)
    expected = "http://e.org/" + "".join(
        word + "".join("%%%02X" % ord(c) for c in run) for word, run in pieces) + "end"
    assert text == expected and not found(text, "invalid-character")


@pytest.mark.parametrize("path, source, words", [
    ("he.json", '{"source": "https://he.wikipedia.org/wiki/%D7%94%D7%A2%D7%99%D7%A8_%D7%94%D7%A2%D7%AA%D7%99%D7%A7%D7%94"}',
     ["העיר", "העתיקה"]),
    ("ar.md", "انظر [المقال](https://ar.wikipedia.org/wiki/%D8%A7%D9%84%D9%85%D8%AF%D9%8A%D9%86%D8%A9_%D8%A7%D9%84%D9%82%D8%AF%D9%8A%D9%85%D8%A9) للتفاصيل.",
     ["المدينة", "القديمة"]),
    ("fa.md", "برای جزئیات [مقاله](https://fa.wikipedia.org/wiki/%D8%B4%D9%87%D8%B1_%D9%82%D8%AF%DB%8C%D9%85%DB%8C) را ببینید.",
     ["شهر", "قدیمی"]),
    ("zh.py", 'URL = "https://zh.wikipedia.org/wiki/%E5%8C%97%E4%BA%AC/%E6%95%85%E5%AE%AB?lang=%E4%B8%AD%E6%96%87"  # 北京的故宫\n',
     ["北京", "故宫", "中文"]),
    ("ja.rst", "詳しくは `東京 <https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC_%E9%83%BD>`_ を参照してください。\n",
     ["東京", "都"]),
])
def test_percent_encoded_text_is_one_hint_per_reference(path, source, words):
    (f,) = in_file(source, path, "percent-encoded-text")
    for w in words:
        assert "'%s'" % w in f.message
    assert "%d runs" % len(words) in f.message
    (fx,) = f.fixes
    # a JSON value and a Python string are data: there every fix is unsafe
    assert fx.safe is not path.endswith((".json", ".py"))
    assert [e.new_text for e in fx.edits] == words
    fixed_text = apply_edits(source, fx.edits)
    assert not in_file(fixed_text, path, "percent-encoded-text")


@given(st.lists(st.sampled_from(["שלום", "עולם", "مرحبا", "عالم", "سلام", "北京", "東京", "日本語"]),
                min_size=1, max_size=6),
       st.sampled_from(["_", "/", "-", "?q=", "#"]))
@hsettings(max_examples=100, deadline=None)
def test_percent_encoded_text_one_hint_property(words, sep):
    from urllib.parse import quote

    v = "http://e.org/" + sep.join(quote(w) for w in words)
    fs = found(v, "percent-encoded-text")
    decoded = "http://e.org/" + sep.join(words)
    bidi_kept = any(f.rule.family == "bidi" for f in check_reference(decoded, select=["bidi"]))
    if bidi_kept:
        return  # the bidi remedy keeps such a component encoded
    assert len(fs) == 1
    assert apply_edits(v, fs[0].fixes[0].edits) == decoded


def test_not_nfc_range_is_the_changed_character():
    # W3C Turtle boundary IRI: the range started at the "z" of "AZaz"
    v = ("http://a.example/AZaz\u00c0\u00d6\u00d8\u00f6\u00f8\u02ff\u0370\u037d\u037f\u1fff"
         "\u200c\u200d\u2070\u218f\u2c00\u2fef\u3001\ud7ff\uf900\ufdcf\ufdf0\uffef\U00010000")
    (f,) = found(v, "not-nfc")
    assert v[f.start:f.end] == "\uf900"
    assert "U+F900" in f.message
    text, fx = fixed(v, "not-nfc")
    assert text == unicodedata.normalize("NFC", v) and fx.safe


def test_not_nfc_range_in_a_japanese_sentence():
    # U+FA19 CJK COMPATIBILITY IDEOGRAPH-FA19, NFC U+795E 神
    line = "詳しくは https://example.jp/案内/\ufa19社仏閣 を参照してください。\n"
    (f,) = in_file(line, "guide.txt", "not-nfc")
    assert line[f.start:f.end] == "\ufa19"


@given(st.text(st.sampled_from(list("aé中ש") + ["\u0627"]), max_size=8),
       st.sampled_from(["\uf900", "\ufa19", "e\u0301", "\u1100\u1161", "\u212b"]),
       st.text(st.sampled_from(list("bü日ی")), max_size=8))
@hsettings(max_examples=150, deadline=None)
def test_not_nfc_range_property(before, odd, after):
    v = "http://e.org/x" + before + odd + after
    fs = found(v, "not-nfc")
    assert len(fs) == 1
    f = fs[0]
    start = len("http://e.org/x" + before)
    # the range covers the changed characters, from the starter before them
    assert f.start <= start and f.end >= start + len(odd)
    assert unicodedata.normalize("NFC", v[f.start:f.end]) != v[f.start:f.end]
    assert apply_edits(v, f.fixes[0].edits) == unicodedata.normalize("NFC", v)
