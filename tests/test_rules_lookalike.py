"""Tests for the lookalike family (the rules/lookalike/ package, IRI201-IRI207)."""
from __future__ import annotations

import os
import re

import pytest

from irilint.config import Settings
from irilint.engine import Engine
from irilint.rules.registry import DOC_SECTIONS, get_rule
from irilint.scanners.base import Candidate

OURS = (
    "delimiter-lookalike", "fullwidth-form", "mixed-script", "whole-script-confusable",
    "confusable-collision", "invisible-character", "ascii-lookalike",
)
CODES = {
    "delimiter-lookalike": ("IRI201", "error", True),
    "fullwidth-form": ("IRI202", "warning", True),
    "mixed-script": ("IRI203", "warning", True),
    "whole-script-confusable": ("IRI204", "warning", True),
    "confusable-collision": ("IRI205", "error", True),
    "invisible-character": ("IRI206", "error", True),
    "ascii-lookalike": ("IRI207", "info", False),
}


class _OneRef:
    """The whole text is one reference."""

    name = "reference"
    comments = ()

    def scan(self, text):
        return [Candidate(0, len(text), text)] if text else []


class _Words:
    """Every run of non-space characters is a reference (document tests do
    not depend on the real scanners)."""

    name = "text"
    comments = ()

    def scan(self, text):
        return [Candidate(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", text)]


def _settings(select=OURS, **kw):
    return Settings(select=tuple(select), **kw)


def run(value, select=OURS, run_state=None, **kw):
    """Findings of one reference; fails on any rule crash (a crashing rule
    would otherwise look like a rule that finds nothing)."""
    if isinstance(select, str):
        select = (select,)
    result = Engine().check_text(value, settings=_settings(select, **kw), scanner=_OneRef(),
                                 run_state=run_state)
    assert result.errors == []
    return result.findings


def run_doc(text, path="doc.txt", select=("confusable-collision",), run_state=None, **kw):
    result = Engine().check_text(text, path=path, settings=_settings(select, **kw), scanner=_Words(),
                                 run_state=run_state)
    assert result.errors == []
    return result.findings


def one(value, rule, **kw):
    fs = run(value, rule, **kw)
    assert len(fs) == 1, [(f.rule.name, f.message) for f in fs]
    return fs[0]


def pun(s):
    return "xn--" + s.encode("punycode").decode("ascii")


# ---------------------------------------------------------------------------
# Registration and documentation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", OURS)
def test_registered_with_code_severity_and_docs(name):
    r = get_rule(name)
    assert r is not None
    code, severity, enabled = CODES[name]
    assert (r.code, r.family, r.severity.label, r.enabled) == (code, "lookalike", severity, enabled)
    assert r.fix != "safe" and r.fix != "sometimes"
    assert r.summary
    for section in DOC_SECTIONS:
        assert "## %s\n" % section in r.doc, (name, section)


def test_scopes_and_fast_path():
    view_rules = ("delimiter-lookalike", "fullwidth-form", "mixed-script", "whole-script-confusable",
                  "invisible-character")
    for name in view_rules:
        r = get_rule(name)
        assert r.scope == "reference"
        assert r.needs == frozenset(("non_ascii", "percent", "punycode")), name
    assert get_rule("confusable-collision").scope == "document"
    assert get_rule("ascii-lookalike").needs is None


SPOOFS = [
    "http://example.com\u2215account",
    "http://example.com/a\u2215b",
    "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/\uff4c\uff4f\uff47\uff49\uff4e",
    "http://p\u0430ypal.com/",
    "http://xn--80ak6aa92e.com/",
    "http://example.com/log\u200bin",
    "http://example.com/a%E2%80%8Bb",
    "http://" + pun("ex\u200bample") + ".com/",
    "http://g00gle.com/",
]


@pytest.mark.parametrize("value", SPOOFS)
def test_no_fix_is_safe(value):
    fs = run(value, protected_domains=("paypal.com", "apple.com"))
    assert fs
    for f in fs:
        for fx in f.fixes:
            assert not fx.safe, (f.rule.name, fx.title)


# ---------------------------------------------------------------------------
# Legitimate multilingual IRIs: no finding from any lookalike rule
# ---------------------------------------------------------------------------

LEGITIMATE = [
    # IDN test domains (the IANA .test TLDs) in many scripts
    "http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/\u0645\u0633\u0627\u0631/\u0635\u0641\u062d\u0629?\u0628\u062d\u062b=\u0643\u0644\u0645\u0629",
    "http://דוגמה.טעסט/נתיב",
    "http://例え.テスト/パス/ページ",
    "http://例子.测试/路径",
    "http://실례.테스트/경로",
    "http://пример.испытание/путь",
    "http://παράδειγμα.δοκιμή/διαδρομή",
    "http://उदाहरण.परीक्षा/पथ",
    "http://例え.jp/パス/page",
    "https://яндекс.рф/поиск",
    "https://example.com/中文/index.html",
    "http://example.com/❤️",
    # Wikipedia, as people paste it
    "https://fa.wikipedia.org/wiki/می\u200cخواهم",
    "https://fa.wikipedia.org/wiki/تهران",
    "https://fa.wikipedia.org/wiki/کتاب\u200cها",
    "https://fa.wikipedia.org/wiki/۱۴۰۰",
    "https://ja.wikipedia.org/wiki/東京都",
    "https://ja.wikipedia.org/wiki/ノート",
    "https://ja.wikipedia.org/wiki/東京タワー",
    "https://zh.wikipedia.org/wiki/北京市",
    "https://zh.wikipedia.org/wiki/注音符號ㄅㄆㄇㄈ",
    "https://ko.wikipedia.org/wiki/서울특별시",
    "https://ru.wikipedia.org/wiki/Москва",
    "https://ru.wikipedia.org/wiki/Сахар",
    "https://ru.wikipedia.org/wiki/IBM_PC-совместимый_компьютер",
    "https://ru.wikipedia.org/wiki/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0",
    "https://uk.wikipedia.org/wiki/Київ",
    "https://bg.wikipedia.org/wiki/София",
    "https://sr.wikipedia.org/wiki/Београд",
    "https://mn.wikipedia.org/wiki/Монгол_Улс",
    "https://el.wikipedia.org/wiki/Αθήνα",
    "https://de.wikipedia.org/wiki/Straße",
    "https://de.wikipedia.org/wiki/Windows_10",
    "https://fr.wikipedia.org/wiki/Île-de-France",
    "https://es.wikipedia.org/wiki/España",
    "https://pl.wikipedia.org/wiki/Łódź",
    "https://tr.wikipedia.org/wiki/İstanbul",
    "https://vi.wikipedia.org/wiki/Hà_Nội",
    "https://ar.wikipedia.org/wiki/القاهرة",
    "https://ar.wikipedia.org/wiki/٢٠٢٠",
    "https://he.wikipedia.org/wiki/ירושלים",
    "https://ur.wikipedia.org/wiki/پاکستان",
    "https://hi.wikipedia.org/wiki/भारत",
    "https://hi.wikipedia.org/wiki/दुःख",
    "https://bn.wikipedia.org/wiki/বাংলাদেশ",
    "https://ta.wikipedia.org/wiki/தமிழ்",
    "https://ml.wikipedia.org/wiki/കേരളം",
    "https://si.wikipedia.org/wiki/ශ්\u200dරී_ලංකාව",
    "https://th.wikipedia.org/wiki/กรุงเทพมหานคร",
    "https://ka.wikipedia.org/wiki/თბილისი",
    "https://hy.wikipedia.org/wiki/Երևան",
    "https://am.wikipedia.org/wiki/ኢትዮጵያ",
    "https://my.wikipedia.org/wiki/မြန်မာ",
    "https://ca.wikipedia.org/wiki/Col·legi",
    # Cyrillic and Greek hosts where those scripts are at home
    "http://сахар.рф/",
    "http://уеб.бг/",
    "http://сайт.рус/",
    "https://xn--80aswg.xn--p1ai/",
    "http://ορα.gr/",
    "https://www.xn--mnchen-3ya.de/",
    # Latin mixed with Han, kana, Bopomofo, Hangul in one word
    "http://example.com/search?q=Tokyo東京タワー&lang=ja",
    "http://example.com/Taiwan臺灣ㄓㄨˋㄧㄣ",
    "http://example.com/Korean한국어",
    "http://example.com/日本語の文。",
    "http://example.com/%E6%97%A5%E6%9C%AC",
    # full-width punctuation as CJK punctuation
    "https://baike.baidu.com/item/你好，世界",
    "https://zh.wikipedia.org/wiki/再见（电影）",
    "http://example.jp/なぜ？！",
    # emoji and variation sequences
    "http://example.com/\U0001F468\u200d\U0001F469\u200d\U0001F467",
    "http://example.com/1\ufe0f\u20e3",
    "http://example.com/\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
    "http://example.com/葛\U000E0100城",
    # ASCII that must not look like a digit swap
    "http://ns1.example.com/",
    "http://web3.example/mp3/html5",
    "http://ipv6.example.net/x86_64",
    "http://192.168.0.1/",
    "https://1und1.de/",
    "https://1password.com/",
]


def test_legitimate_list_is_long_enough():
    assert len(LEGITIMATE) >= 40
    assert sum("wikipedia.org" in v for v in LEGITIMATE) >= 30


@pytest.mark.parametrize("value", LEGITIMATE)
def test_legitimate_iris_give_no_finding(value):
    fs = run(value)
    assert fs == [], [(f.rule.name, f.message) for f in fs]


def test_legitimate_iris_as_one_document():
    # confusable-collision across all of them: none collides with another
    fs = run_doc("\n".join(LEGITIMATE), select=OURS)
    assert fs == [], [(f.rule.name, f.message) for f in fs]


# ---------------------------------------------------------------------------
# IRI201 delimiter-lookalike
# ---------------------------------------------------------------------------

DELIMITER_CASES = [
    ("\u2215", "/", "U+2215 DIVISION SLASH"),
    ("\u2044", "/", "U+2044 FRACTION SLASH"),
    ("\u29f8", "/", "U+29F8 BIG SOLIDUS"),
    ("\u2024", ".", "U+2024 ONE DOT LEADER"),
    ("\ufe52", ".", "U+FE52 SMALL FULL STOP"),
    ("\u3002", ".", "U+3002 IDEOGRAPHIC FULL STOP"),
    ("\u0589", ":", "U+0589 ARMENIAN FULL STOP"),
    ("\ua789", ":", "U+A789 MODIFIER LETTER COLON"),
    ("\u2236", ":", "U+2236 RATIO"),
    ("\ufe55", ":", "U+FE55 SMALL COLON"),
    ("\ufe5f", "#", "U+FE5F SMALL NUMBER SIGN"),
    ("\ufe56", "?", "U+FE56 SMALL QUESTION MARK"),
    ("\u0294", "?", "U+0294 LATIN LETTER GLOTTAL STOP"),
    ("\u2047", "?", "U+2047 DOUBLE QUESTION MARK"),
    ("\ufe6b", "@", "U+FE6B SMALL COMMERCIAL AT"),
    ("\u2e40", "=", "U+2E40 DOUBLE HYPHEN"),
    ("\ufe60", "&", "U+FE60 SMALL AMPERSAND"),
    ("\ua778", "&", "U+A778 LATIN SMALL LETTER UM"),
    ("\ufe6a", "%", "U+FE6A SMALL PERCENT SIGN"),
    ("\u2052", "%", "U+2052 COMMERCIAL MINUS SIGN"),
    ("\u0660", ".", "U+0660 ARABIC-INDIC DIGIT ZERO"),
    ("\u30ce", "/", "U+30CE KATAKANA LETTER NO"),
    ("\u2488", ".", "U+2488 DIGIT ONE FULL STOP"),
    ("\u2105", "/", "U+2105 CARE OF"),
    ("\u037e", ";", "U+037E GREEK QUESTION MARK"),
    ("\ufe54", ";", "U+FE54 SMALL SEMICOLON"),
    ("\u201a", ",", "U+201A SINGLE LOW-9 QUOTATION MARK"),
    ("\u201e", ",", "U+201E DOUBLE LOW-9 QUOTATION MARK"),
    ("\u2e41", ",", "U+2E41 REVERSED COMMA"),
    ("\ufe50", ",", "U+FE50 SMALL COMMA"),
    ("\u0338", "/", "U+0338 COMBINING LONG SOLIDUS OVERLAY"),
    ("\u0337", "/", "U+0337 COMBINING SHORT SOLIDUS OVERLAY"),
    ("\u20e5", "/", "U+20E5 COMBINING REVERSE SOLIDUS OVERLAY"),
    ("\u20eb", "/", "U+20EB COMBINING LONG DOUBLE SOLIDUS OVERLAY"),
    ("\u3002", ".", "U+3002 IDEOGRAPHIC FULL STOP"),
    ("\ufe12", ".", "U+FE12 PRESENTATION FORM FOR VERTICAL IDEOGRAPHIC FULL STOP"),
]


@pytest.mark.parametrize("ch,delim,name", DELIMITER_CASES)
def test_delimiter_lookalike_in_path(ch, delim, name):
    value = "http://example.com/ab" + ch + "cd"
    f = one(value, "delimiter-lookalike")
    assert (f.code, f.start, f.end) == ("IRI201", 21, 22)
    assert name in f.message
    assert "'%s'" % delim in f.message
    assert "path segment" in f.message
    assert f.fixes and all(not fx.safe for fx in f.fixes)
    # the first fix keeps the URI and shows the character
    assert f.fixes[0].edits[0].new_text.startswith("%")


def test_delimiter_lookalike_in_host():
    f = one("http://example.com\u2215login.evil.net/", "delimiter-lookalike")
    assert (f.start, f.end) == (18, 19)
    assert "U+2215 DIVISION SLASH" in f.message and "host label" in f.message
    assert f.fixes == []  # no percent-encoding in a host
    # a "." look-alike that is not an IDNA separator is flagged in a host
    f = one("http://exa\u2024mple.com/", "delimiter-lookalike")
    assert (f.start, f.end) == (10, 11) and "U+2024 ONE DOT LEADER" in f.message
    assert "'.'" in f.message


@pytest.mark.parametrize("dot", ["\u3002", "\uff0e", "\uff61"])
def test_idna_dots_in_host_are_not_delimiter_lookalikes(dot):
    assert run("http://example" + dot + "com/", "delimiter-lookalike") == []
    assert run("http://例え" + dot + "テスト/", "delimiter-lookalike") == []
    # ...but they are outside the host: U+3002 as a delimiter look-alike,
    # the full-width and half-width ones as what they are
    fs = run("http://example.com/index" + dot + "html", ("delimiter-lookalike", "fullwidth-form"))
    assert [(f.rule.name, f.start, f.end) for f in fs] == [
        ("delimiter-lookalike" if dot == "\u3002" else "fullwidth-form", 24, 25)]
    assert "'.' (full stop)" in fs[0].message


def test_delimiter_lookalike_percent_encoded_and_punycode():
    value = "http://example.com/a%E2%88%95b"
    f = one(value, "delimiter-lookalike")
    assert value[f.start:f.end] == "%E2%88%95"
    assert "U+2215 DIVISION SLASH" in f.message and "percent-encoded as %E2%88%95" in f.message
    assert f.fixes == []
    label = pun("exa\u2024mple")
    value = "http://%s.com/" % label
    f = one(value, "delimiter-lookalike")
    assert value[f.start:f.end] == label
    assert "U+2024 ONE DOT LEADER" in f.message and "Punycode" in f.message


def test_delimiter_lookalike_run_is_one_finding():
    value = "http\u0589\u2215\u2215evil.com"
    f = one(value, "delimiter-lookalike")
    assert (f.start, f.end) == (4, 7)
    assert "U+0589 ARMENIAN FULL STOP" in f.message and "U+2215 DIVISION SLASH" in f.message
    assert f.fixes[1].edits[0].new_text == "://"


def test_fullwidth_delimiter_run_is_one_fullwidth_finding_naming_the_delimiters():
    value = "http\uff1a\uff0f\uff0fevil.com"
    fs = run(value, ("delimiter-lookalike", "fullwidth-form"))
    assert [(f.rule.name, f.start, f.end) for f in fs] == [("fullwidth-form", 4, 7)]
    f = fs[0]
    assert "U+FF1A FULLWIDTH COLON" in f.message and "U+FF0F FULLWIDTH SOLIDUS" in f.message
    assert "the delimiters ':' (colon), '/' (slash)" in f.message
    assert [fx.edits[0].new_text for fx in f.fixes] == ["%EF%BC%9A%EF%BC%8F%EF%BC%8F", "://"]
    assert not any(fx.safe for fx in f.fixes) and "changes the IRI's structure" in f.fixes[1].title


def test_delimiter_lookalike_multi_character_forms():
    f = one("http://example\u2488com/", "delimiter-lookalike")
    assert "'1.'" in f.message and "U+2488 DIGIT ONE FULL STOP" in f.message
    f = one("http://example.com/a\u2105b", "delimiter-lookalike")
    assert "'c/o'" in f.message


@pytest.mark.parametrize("value", [
    "https://ja.wikipedia.org/wiki/ノート",          # KATAKANA LETTER NO among kana
    "https://hi.wikipedia.org/wiki/दुःख",            # DEVANAGARI SIGN VISARGA
    "https://ar.wikipedia.org/wiki/٢٠٢٠",             # ARABIC-INDIC DIGIT ZERO
    "https://hy.wikipedia.org/wiki/Այո։",            # ARMENIAN FULL STOP after Armenian
    "http://example.com/日本語の文。",               # ideographic full stop after Japanese
    "http://example.com/Wait\u2026what",             # ellipsis
    "http://example.com/?خصم=٪خمسون",               # ARABIC PERCENT SIGN, no hex after it
    "http://example.com/a/b?c=d&e=f#g:h@i%20j",      # the real ASCII delimiters
])
def test_delimiter_lookalike_not_flagged(value):
    assert run(value, "delimiter-lookalike") == []


def test_own_script_characters_next_to_latin_are_flagged():
    f = one("http://example.com/index\u0660html", "delimiter-lookalike")
    assert "U+0660 ARABIC-INDIC DIGIT ZERO" in f.message
    f = one("http\u0589//example.com", "delimiter-lookalike")
    assert (f.start, f.end) == (4, 5) and "U+0589 ARMENIAN FULL STOP" in f.message
    f = one("http://example.com/a\u30ceb", "delimiter-lookalike")
    assert "U+30CE KATAKANA LETTER NO" in f.message


def test_arabic_percent_sign_as_fake_escape():
    value = "http://example.com/a\u066a2Fb"
    f = one(value, "delimiter-lookalike")
    assert (f.start, f.end) == (20, 21) and "U+066A ARABIC PERCENT SIGN" in f.message
    assert "'%'" in f.message


def test_fullwidth_punctuation_in_cjk_text():
    both = ("delimiter-lookalike", "fullwidth-form")
    assert run("http://example.jp/なぜ？", both) == []
    assert run("http://example.cn/你好：世界", both) == []
    # leading into ASCII text it imitates the delimiter again
    value = "http://例え.jp/パス？q=1"
    f = one(value, both)
    assert (f.rule.name, value[f.start:f.end]) == ("fullwidth-form", "？")
    assert "U+FF1F FULLWIDTH QUESTION MARK" in f.message and "the delimiter '?'" in f.message
    # full-width letters and digits in CJK text are still full-width forms
    f = one("http://example.jp/東京ＡＢＣ２", both)
    assert (f.rule.name, f.start, f.end) == ("fullwidth-form", 20, 24)


def test_delimiter_imitated_is_derived_from_the_data():
    from irilint.rules.lookalike import delimiter_imitated

    assert delimiter_imitated("\u2215") == ("/", "/")
    assert delimiter_imitated("\uff0f") == ("/", "/")
    assert delimiter_imitated("\u2488") == ("1.", ".")
    assert delimiter_imitated("\u2026") is None
    assert delimiter_imitated("a") is None and delimiter_imitated("/") is None
    assert delimiter_imitated("\u0430") is None


# ---------------------------------------------------------------------------
# IRI202 fullwidth-form
# ---------------------------------------------------------------------------

def test_fullwidth_in_path():
    value = "http://example.com/\uff4c\uff4f\uff47\uff49\uff4e"
    f = one(value, "fullwidth-form")
    assert (f.code, f.start, f.end) == ("IRI202", 19, 24)
    assert "U+FF4C FULLWIDTH LATIN SMALL LETTER L" in f.message
    assert "U+FF4E FULLWIDTH LATIN SMALL LETTER N" in f.message
    assert "path segment" in f.message and "different URI" in f.message
    assert len(f.fixes) == 1 and not f.fixes[0].safe
    assert f.fixes[0].edits[0].new_text == "login"


def test_fullwidth_in_host_mentions_idna():
    value = "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/"
    f = one(value, "fullwidth-form")
    assert (f.start, f.end) == (7, 14)
    assert "IDNA maps" in f.message and "'example'" in f.message and "host label" in f.message
    assert "U+FF58 FULLWIDTH LATIN SMALL LETTER X" in f.message


def test_fullwidth_dot_in_host_is_a_fullwidth_form_not_a_delimiter_lookalike():
    fs = run("http://example\uff0ecom/", ("fullwidth-form", "delimiter-lookalike"))
    assert [(f.rule.name, f.start, f.end) for f in fs] == [("fullwidth-form", 14, 15)]
    assert "U+FF0E FULLWIDTH FULL STOP" in fs[0].message and "IDNA maps it to '.'" in fs[0].message


def test_halfwidth_katakana():
    f = one("http://example.jp/\uff83\uff7d\uff84", "fullwidth-form")
    assert (f.start, f.end) == (18, 21)
    assert "U+FF83 HALFWIDTH KATAKANA LETTER TE" in f.message and "half-width" in f.message
    assert f.fixes[0].edits[0].new_text == "テスト"


def test_fullwidth_percent_encoded():
    value = "http://example.com/%EF%BD%81b"
    f = one(value, "fullwidth-form")
    assert value[f.start:f.end] == "%EF%BD%81"
    assert "U+FF41 FULLWIDTH LATIN SMALL LETTER A" in f.message and "percent-encoded" in f.message
    assert f.fixes[0].edits[0].new_text == "a" and not f.fixes[0].safe


@pytest.mark.parametrize("cp", range(0xFF01, 0xFF5F))
def test_each_fullwidth_ascii_is_reported_exactly_once(cp):
    value = "http://example.com/a" + chr(cp) + "b"
    fs = run(value, ("fullwidth-form", "delimiter-lookalike"))
    assert len(fs) == 1, [(f.rule.name, f.message) for f in fs]
    assert (fs[0].start, fs[0].end) == (20, 21)
    # a full-width form first, whatever it imitates; the message names the
    # delimiter it looks like
    assert fs[0].rule.name == "fullwidth-form"
    ascii_char = chr(cp - 0xFEE0)
    assert ("looks like the delimiter '%s'" % ascii_char in fs[0].message) == (ascii_char in "/?#:@.=&%;,")


@pytest.mark.parametrize("value", [
    "http://example.com/テスト",
    "http://example.com/日本",
    "http://example.com/plain",
])
def test_fullwidth_not_flagged(value):
    assert run(value, "fullwidth-form") == []


# ---------------------------------------------------------------------------
# IRI203 mixed-script
# ---------------------------------------------------------------------------

def test_mixed_script_host_label():
    f = one("http://p\u0430ypal.com/", "mixed-script")
    assert (f.code, f.start, f.end) == ("IRI203", 7, 13)
    assert "Latin" in f.message and "Cyrillic" in f.message
    assert "U+0430 CYRILLIC SMALL LETTER A" in f.message and "host label" in f.message


def test_mixed_script_path_word():
    value = "http://example.com/login-p\u0430ypal"
    f = one(value, "mixed-script")
    assert value[f.start:f.end] == "p\u0430ypal"
    assert "path segment" in f.message and "U+0430 CYRILLIC SMALL LETTER A" in f.message


def test_mixed_script_word_with_a_letter_newer_than_the_running_python():
    # U+1E4D0 NAG MUNDARI LETTER O (Unicode 15.0) is a letter on any Python
    # (general_category), so it is inside the word, not a break in it
    value = "http://example.com/ab\U0001e4d0cd/x"
    f = one(value, "mixed-script")
    assert value[f.start:f.end] == "ab\U0001e4d0cd"
    assert "Nag Mundari" in f.message and "U+1E4D0 NAG MUNDARI LETTER O" in f.message


def test_mixed_script_percent_encoded_and_punycode():
    value = "http://p%D0%B0ypal.com/"
    f = one(value, "mixed-script")
    assert value[f.start:f.end] == "p%D0%B0ypal"
    assert "U+0430 CYRILLIC SMALL LETTER A" in f.message and "percent-encoded as %D0%B0" in f.message
    label = pun("p\u0430ypal")
    value = "http://%s.com/" % label
    f = one(value, "mixed-script")
    assert value[f.start:f.end] == label and "Punycode" in f.message


def test_mixed_script_greek_and_cyrillic():
    f = one("http://example.com/\u03b1\u0431\u03b3", "mixed-script")
    assert "Greek" in f.message and "Cyrillic" in f.message
    assert "U+0431 CYRILLIC SMALL LETTER BE" in f.message


@pytest.mark.parametrize("value", [
    "http://example.com/Tokyo東京タワーとうきょう",   # Latin + Han + Hiragana + Katakana
    "http://example.com/Taiwan臺灣ㄊㄞˊ",             # Latin + Han + Bopomofo
    "http://example.com/Seoul서울特別市",              # Latin + Han + Hangul
    "http://例え.jp/パス/page",
    "https://ru.wikipedia.org/wiki/Москва",
    "https://ru.wikipedia.org/wiki/IBM_PC-совместимый_компьютер",
    "http://example.com/Ελλάδα-Greece",
])
def test_mixed_script_not_flagged(value):
    assert run(value, "mixed-script") == []


def test_mixed_script_allowed_scripts():
    assert run("http://p\u0430ypal.com/", "mixed-script", allowed_scripts=("Cyrillic",)) == []
    # an unknown script name in the configuration is ignored, not a crash
    assert len(run("http://p\u0430ypal.com/", "mixed-script", allowed_scripts=("Klingon",))) == 1


# ---------------------------------------------------------------------------
# IRI204 whole-script-confusable
# ---------------------------------------------------------------------------

def test_whole_script_confusable_punycode():
    value = "http://xn--80ak6aa92e.com/"
    f = one(value, "whole-script-confusable")
    assert (f.code, f.severity.label) == ("IRI204", "warning")
    assert value[f.start:f.end] == "xn--80ak6aa92e"
    assert "U+0430 CYRILLIC SMALL LETTER A" in f.message
    assert "U+04CF CYRILLIC SMALL LETTER PALOCHKA" in f.message
    assert "Cyrillic" in f.message and "Punycode" in f.message


def test_whole_script_confusable_literal_and_percent_encoded():
    f = one("http://\u0430\u0440\u0440\u04cf\u0435.com/", "whole-script-confusable")
    assert (f.start, f.end) == (7, 12)
    value = "http://%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com/"
    f = one(value, "whole-script-confusable")
    assert value[f.start:f.end] == "%D0%B0%D1%80%D1%80%D3%8F%D0%B5"
    assert "percent-encoded as %D0%B0" in f.message


def test_whole_script_confusable_greek_and_short_labels():
    f = one("http://\u03bf\u03c1\u03b1.com/", "whole-script-confusable")
    assert "Greek" in f.message and "U+03BF GREEK SMALL LETTER OMICRON" in f.message
    f = one("http://\u0445.com/", "whole-script-confusable")  # imitates x.com
    assert (f.start, f.end) == (7, 8) and "'x'" in f.message


@pytest.mark.parametrize("tld", ["рф", "ru", "su", "by", "ua", "kz", "bg", "бг", "rs", "срб", "mk",
                                 "мкд", "mn", "мон", "укр", "қаз", "рус", "xn--p1ai", "москва"])
def test_whole_script_confusable_cyrillic_tlds(tld):
    assert run("http://\u0430\u0440\u0440\u04cf\u0435.%s/" % tld, "whole-script-confusable") == []


@pytest.mark.parametrize("tld", ["gr", "ελ", "cy"])
def test_whole_script_confusable_greek_tlds(tld):
    assert run("http://\u03bf\u03c1\u03b1.%s/" % tld, "whole-script-confusable") == []


def test_whole_script_confusable_tld_table_is_per_script():
    # Greek under a Cyrillic TLD, Cyrillic under .gr: still reported
    assert len(run("http://\u03bf\u03c1\u03b1.ru/", "whole-script-confusable")) == 1
    assert len(run("http://\u0430\u0440\u0440\u04cf\u0435.gr/", "whole-script-confusable")) == 1
    # Chromium's rule: a TLD holding a letter of the label's script is a
    # TLD in that script, even one that itself reads as Latin (.орг)
    assert run("http://\u0430\u0440\u0440\u04cf\u0435.\u043e\u0440\u0433/", "whole-script-confusable") == []
    assert run("http://\u0430\u0440\u0440\u04cf\u0435.\u0441\u043e/", "whole-script-confusable") == []


@pytest.mark.parametrize("value", [
    "http://пример.com/",                        # has letters with no Latin look-alike
    "https://ru.wikipedia.org/wiki/Сахар",        # paths are not checked
    "http://сахар.рф/",
    "http://apple.com/",
])
def test_whole_script_confusable_not_flagged(value):
    assert run(value, "whole-script-confusable") == []


def test_whole_script_confusable_allowed_scripts():
    assert run("http://xn--80ak6aa92e.com/", "whole-script-confusable", allowed_scripts=("Cyrl",)) == []


# ---------------------------------------------------------------------------
# IRI205 confusable-collision
# ---------------------------------------------------------------------------

PAYPAL_CYR = "\u0440\u0430\u0443\u0440\u0430l.com"  # р а у р а + Latin l


def test_collision_with_protected_domain():
    value = "http://%s/" % PAYPAL_CYR
    f = one(value, "confusable-collision", protected_domains=("paypal.com",))
    assert (f.code, f.severity.label) == ("IRI205", "error")
    assert value[f.start:f.end] == PAYPAL_CYR
    assert "'paypal.com'" in f.message and "protected" in f.message
    assert "U+0440 CYRILLIC SMALL LETTER ER" in f.message
    assert f.fixes == []


def test_collision_with_protected_parent_domain_and_forms():
    f = one("http://login.%s/path" % PAYPAL_CYR, "confusable-collision", protected_domains=("paypal.com",))
    assert "'paypal.com'" in f.message
    # punycode and percent-encoded spoofs
    label = pun("\u0440\u0430\u0443\u0440\u0430l")
    assert len(run("http://%s.com/" % label, "confusable-collision", protected_domains=("paypal.com",))) == 1
    assert len(run("http://%D1%80%D0%B0%D1%83%D1%80%D0%B0l.com/", "confusable-collision",
                   protected_domains=("paypal.com",))) == 1
    # an ASCII typosquat of a protected domain
    f = one("http://paypa1.com/", "confusable-collision", protected_domains=("paypal.com",))
    assert "U+0031 DIGIT ONE" in f.message
    # protected domains may be written as A-labels: compared in Unicode form
    protected = ("xn--80ak6aa92e.com",)
    assert run("http://\u0430\u0440\u0440\u04cf\u0435.com/", "confusable-collision",
               protected_domains=protected) == []
    f = one("http://a\u0440\u0440\u04cf\u0435.com/", "confusable-collision", protected_domains=protected)
    assert "'xn--80ak6aa92e.com'" in f.message and "U+0061 LATIN SMALL LETTER A" in f.message


@pytest.mark.parametrize("value", [
    "http://paypal.com/", "http://PayPal.COM/", "http://www.paypal.com/a", "http://paypal.com./",
    "http://\uff50\uff41\uff59\uff50\uff41\uff4c.com/",  # IDNA maps it to paypal.com
    "http://paypal.com.evil.net/",                         # not a look-alike
    "http://example.org/",
])
def test_no_collision_with_protected_domain(value):
    assert run(value, "confusable-collision", protected_domains=("paypal.com",)) == []


def test_collision_within_a_document():
    text = "see http://paypal.com/ and\nthen http://%s/login" % PAYPAL_CYR
    fs = run_doc(text)
    assert len(fs) == 1
    f = fs[0]
    assert text[f.start:f.end] == PAYPAL_CYR  # the later one
    assert "'paypal.com'" in f.message and "line 1" in f.message
    assert "U+0440 CYRILLIC SMALL LETTER ER" in f.message


def test_collision_within_a_document_spoof_first():
    # reported on the host that is not ASCII, whichever comes first
    text = "http://%s/ http://paypal.com/" % PAYPAL_CYR
    fs = run_doc(text)
    assert len(fs) == 1
    assert text[fs[0].start:fs[0].end] == PAYPAL_CYR
    assert "U+0440 CYRILLIC SMALL LETTER ER" in fs[0].message
    (rel,) = fs[0].related
    assert text[rel.start:rel.end] == "paypal.com" and (rel.line, rel.column) == (1, 1 + text.index("paypal"))


@pytest.mark.parametrize("text", [
    "http://paypal.com/ http://paypal.com/x",          # identical
    "http://paypal.com/ http://PAYPAL.com/",           # case
    "http://paypal.com/ http://paypa1.com/",           # both ASCII: ascii-lookalike's business
    "http://example.com/ mailto:a@b.c urn:isbn:1",
])
def test_no_collision_within_a_document(text):
    assert run_doc(text) == []


def test_collision_across_a_run():
    state = {}
    assert run_doc("line one\nhttp://paypal.com/", path="a.txt", run_state=state) == []
    fs = run_doc("http://%s/" % PAYPAL_CYR, path="b.txt", run_state=state)
    assert len(fs) == 1
    assert "a.txt" in fs[0].message and "line 2" in fs[0].message and "'paypal.com'" in fs[0].message
    # checking b.txt again does not collide with its own earlier entry
    assert len(run_doc("http://%s/" % PAYPAL_CYR, path="b.txt", run_state=state)) == 1
    # checking a.txt again now sees the spoof in b.txt
    fs = run_doc("http://paypal.com/", path="a.txt", run_state=state)
    assert len(fs) == 1 and "b.txt, line 1" in fs[0].message


def test_collision_across_check_reference_calls():
    from irilint.engine import check_reference

    state = {}
    assert check_reference("http://paypal.com/", select=["confusable-collision"], run_state=state) == []
    fs = check_reference("http://%s/" % PAYPAL_CYR, select=["confusable-collision"], run_state=state)
    assert len(fs) == 1 and "another document" in fs[0].message


@pytest.mark.parametrize("path, text, spoof, genuine", [
    # Arabic prose: the ASCII host five times, the spoof (Cyrillic р, а, у) twice
    ("ar.md", "ادفع عبر [PayPal](https://paypal.com/) أو https://paypal.com/a و https://paypal.com/b.\n"
              "لا تستخدم https://%s/login ولا https://%s/x أبداً.\n"
              "راجع https://paypal.com/c و https://paypal.com/d.\n" % (PAYPAL_CYR, PAYPAL_CYR),
     PAYPAL_CYR, "paypal.com"),
    # Hebrew in HTML
    ("he.html", '<p dir="rtl">שלמו ב-<a href="https://paypal.com/">PayPal</a> ולא ב-'
                '<a href="https://%s/">%s</a>, גם לא ב-<a href="https://%s/x">כאן</a>.</p>\n'
                % (PAYPAL_CYR, PAYPAL_CYR, PAYPAL_CYR), PAYPAL_CYR, "paypal.com"),
    # Persian in reST
    ("fa.rst", "پرداخت با `PayPal <https://paypal.com/>`_ و نه `این <https://%s/>`_ یا https://%s/b\n"
               % (PAYPAL_CYR, PAYPAL_CYR), PAYPAL_CYR, "paypal.com"),
    # Chinese: two non-ASCII hosts, the rarer one is reported
    # (katakana エ for the Han 工)
    ("zh.md", "请访问 https://工厂.中国/ 或 https://工厂.中国/a 或 https://工厂.中国/b，不要访问 https://エ厂.中国/。\n",
     "エ厂.中国", "工厂.中国"),
    ("zh-spoof-first.md", "不要访问 https://エ厂.中国/ 和 https://エ厂.中国/a，请访问 https://工厂.中国/。\n",
     "工厂.中国", "エ厂.中国"),
    # Japanese: two non-ASCII hosts as often each, the later one is
    # reported (the Han 力 for the katakana カ)
    ("ja.md", "公式は https://カメラ.jp/ です。https://力メラ.jp/ は偽物です。\n", "力メラ.jp", "カメラ.jp"),
])
def test_collision_is_reported_once_per_pair(path, text, spoof, genuine):
    from irilint.unicode_security import skeleton

    assert skeleton(spoof) == skeleton(genuine)  # the cases are confusable
    fs = run_doc(text, path=path)
    assert len(fs) == 1
    (f,) = fs
    assert text[f.start:f.end] == spoof and f.start == text.index(spoof)
    assert "'%s'" % genuine in f.message
    (rel,) = f.related
    assert text[rel.start:rel.end] == genuine and rel.start == text.index(genuine)
    assert rel.path is None and rel.line == text[:rel.start].count("\n") + 1


def test_collision_with_three_hosts_names_each_pair_once():
    latin_a = "p\u0430ypal.com"  # Cyrillic а only
    text = "https://paypal.com/ https://%s/ https://%s/ https://%s/\n" % (PAYPAL_CYR, latin_a, PAYPAL_CYR)
    fs = run_doc(text)
    pairs = []
    for f in fs:
        host = text[f.start:f.end]
        pairs += [frozenset((host, text[r.start:r.end])) for r in f.related]
    # three hosts, three pairs, each once
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, {
        frozenset(("paypal.com", PAYPAL_CYR)), frozenset(("paypal.com", latin_a)),
        frozenset((PAYPAL_CYR, latin_a))}))
    assert len(pairs) == 3


def test_collision_with_a_protected_domain_and_a_host_is_one_finding():
    text = "https://%s/ https://paypal.com/ https://%s/x\n" % (PAYPAL_CYR, PAYPAL_CYR)
    fs = run_doc(text, protected_domains=("paypal.com",))
    assert [text[f.start:f.end] for f in fs] == [PAYPAL_CYR]
    assert "protected domain 'paypal.com'" in fs[0].message and "also with 'paypal.com' on line 1" in fs[0].message


def test_collision_skeletons_are_computed_once_per_distinct_host():
    # 2000 ASCII references to 50 hosts against protected domains: each
    # distinct host's skeletons are computed once, not once a reference.
    from irilint.rules.lookalike import collisions

    collisions._host_skeletons.cache_clear()
    text = "\n".join("http://host%d.example.com/page" % (i % 50) for i in range(2000))
    fs = run_doc(text, protected_domains=("paypal.com", "example.org"))
    assert fs == []
    info = collisions._host_skeletons.cache_info()
    assert 50 <= info.misses <= 50 + 2 and info.hits + info.misses >= 50


def test_collision_with_the_real_text_scanner():
    """Document-level check through the .txt scanner."""
    text = "Pay at http://paypal.com/ or at http://%s/ today.\n" % PAYPAL_CYR
    result = Engine().check_text(text, path="x.txt", settings=_settings(("confusable-collision",)))
    assert result.errors == []
    assert [text[f.start:f.end] for f in result.findings] == [PAYPAL_CYR]


# ---------------------------------------------------------------------------
# IRI206 invisible-character
# ---------------------------------------------------------------------------

INVISIBLES = [
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u2060", "U+2060 WORD JOINER"),
    ("\u2061", "U+2061 FUNCTION APPLICATION"),
    ("\u2062", "U+2062 INVISIBLE TIMES"),
    ("\u2063", "U+2063 INVISIBLE SEPARATOR"),
    ("\u2064", "U+2064 INVISIBLE PLUS"),
    ("\u00ad", "U+00AD SOFT HYPHEN"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\u180e", "U+180E MONGOLIAN VOWEL SEPARATOR"),
    ("\u034f", "U+034F COMBINING GRAPHEME JOINER"),
    ("\u115f", "U+115F HANGUL CHOSEONG FILLER"),
    ("\u1160", "U+1160 HANGUL JUNGSEONG FILLER"),
    ("\u3164", "U+3164 HANGUL FILLER"),
    ("\uffa0", "U+FFA0 HALFWIDTH HANGUL FILLER"),
    ("\u17b4", "U+17B4 KHMER VOWEL INHERENT AQ"),
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
    ("\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ("\ufe00", "U+FE00 VARIATION SELECTOR-1"),
    ("\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
    ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("\u200d", "U+200D ZERO WIDTH JOINER"),
    ("\u200c", "U+200C ZERO WIDTH NON-JOINER"),
]


@pytest.mark.parametrize("ch,name", INVISIBLES)
def test_invisible_in_path(ch, name):
    value = "http://example.com/log" + ch + "in"
    f = one(value, "invisible-character")
    assert (f.code, f.start, f.end) == ("IRI206", 22, 23)
    assert name in f.message and "path segment" in f.message
    assert len(f.fixes) == 1 and not f.fixes[0].safe
    e = f.fixes[0].edits[0]
    assert (e.start, e.end, e.new_text) == (22, 23, "")


def test_invisible_in_host():
    f = one("http://pay\u200bpal.com/", "invisible-character")
    assert (f.start, f.end) == (10, 11) and "host label" in f.message


def test_invisible_percent_encoded():
    value = "http://example.com/a%E2%80%8Bb"
    f = one(value, "invisible-character")
    assert value[f.start:f.end] == "%E2%80%8B"
    assert "U+200B ZERO WIDTH SPACE" in f.message and "percent-encoded as %E2%80%8B" in f.message
    e = f.fixes[0].edits[0]
    assert (e.start, e.end, e.new_text) == (f.start, f.end, "")


def test_invisible_in_punycode_label():
    label = pun("pay\u200bpal")
    value = "http://%s.com/" % label
    f = one(value, "invisible-character")
    assert value[f.start:f.end] == label
    assert "U+200B ZERO WIDTH SPACE" in f.message and "Punycode" in f.message
    e = f.fixes[0].edits[0]
    assert e.new_text == "paypal" and not f.fixes[0].safe


def test_zwnj_contexts():
    # Persian: between a dual-joining and a dual-joining letter
    assert run("https://fa.wikipedia.org/wiki/می\u200cخواهم", "invisible-character") == []
    # after a virama (Devanagari KA + VIRAMA + ZWNJ + SSA)
    assert run("http://example.com/\u0915\u094d\u200c\u0937", "invisible-character") == []
    # after a right-joining letter (ALEF): nothing to break
    f = one("http://example.com/\u062f\u0627\u200c\u062f", "invisible-character")
    assert "U+200C ZERO WIDTH NON-JOINER" in f.message and "RFC 5892" in f.message
    # between Latin letters
    assert len(run("http://example.com/ab\u200ccd", "invisible-character")) == 1


def test_zwj_contexts():
    # Sinhala: ZWJ after AL-LAKUNA (a virama)
    assert run("https://si.wikipedia.org/wiki/ශ්\u200dරී", "invisible-character") == []
    # emoji ZWJ sequences, with VS16 and skin tones in between
    assert run("http://example.com/\U0001F468\u200d\U0001F469\u200d\U0001F467", "invisible-character") == []
    assert run("http://example.com/\U0001F3F3\ufe0f\u200d\U0001F308", "invisible-character") == []
    assert run("http://example.com/\U0001F469\U0001F3FD\u200d\U0001F4BB", "invisible-character") == []
    f = one("http://example.com/\U0001F468\u200dx", "invisible-character")
    assert "U+200D ZERO WIDTH JOINER" in f.message


def test_variation_selector_contexts():
    assert run("http://example.com/❤️", "invisible-character") == []
    assert run("http://example.com/\u2764\ufe0e", "invisible-character") == []
    assert run("http://example.com/1\ufe0f\u20e3", "invisible-character") == []
    assert run("http://example.com/葛\U000E0100", "invisible-character") == []
    assert run("http://example.com/\u8fbb\ufe00", "invisible-character") == []
    # a second selector, or one after a letter, is flagged
    f = one("http://example.com/\u2764\ufe0f\ufe0f", "invisible-character")
    assert (f.start, f.end) == (21, 22) and "U+FE0F VARIATION SELECTOR-16" in f.message
    f = one("http://example.com/1\ufe0f", "invisible-character")
    assert "U+0031 DIGIT ONE" in f.message


def test_tag_characters():
    flag = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    assert run("http://example.com/" + flag, "invisible-character") == []
    # no CANCEL TAG: every tag is flagged
    fs = run("http://example.com/\U0001F3F4\U000E0067\U000E0062", "invisible-character")
    assert [(f.start, f.end) for f in fs] == [(20, 21), (21, 22)]
    assert "U+E0067 TAG LATIN SMALL LETTER G" in fs[0].message


def test_mongolian_variation_selectors():
    assert run("http://example.mn/\u182a\u180b\u1820", "invisible-character") == []
    assert run("http://example.mn/\u182a\u180e\u1820", "invisible-character") == []
    assert len(run("http://example.com/a\u180bb", "invisible-character")) == 1


def test_bidi_controls_are_not_this_rules():
    assert run("http://example.com/a\u202eb", "invisible-character") == []
    assert run("http://example.com/a%E2%80%AEb", "invisible-character") == []


# ---------------------------------------------------------------------------
# IRI207 ascii-lookalike
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value,span,name,reading", [
    ("http://br0ken.example/", (9, 10), "U+0030 DIGIT ZERO", "broken"),
    ("http://g00gle.com/", (8, 10), "U+0030 DIGIT ZERO", "google"),
    ("http://app1e.com/", (10, 11), "U+0031 DIGIT ONE", "apple"),
    ("http://login.micr0soft-online.com/", (17, 18), "U+0030 DIGIT ZERO", "microsoft"),
    ("http://1ame.example/", (7, 8), "U+0031 DIGIT ONE", "lame"),
    ("http://0range.example/", (7, 8), "U+0030 DIGIT ZERO", "orange"),
])
def test_ascii_lookalike_fires(value, span, name, reading):
    f = one(value, "ascii-lookalike")
    assert (f.code, f.severity.label) == ("IRI207", "info")
    assert (f.start, f.end) == span
    assert name in f.message and reading in f.message and "host label" in f.message


@pytest.mark.parametrize("value", [
    "http://ns1.example.com/", "http://web01.example.com/", "http://win10.example/",
    "http://mp3.com/", "http://web3.example/", "http://h2o.example/", "http://ipv6.example/",
    "http://html5.example/", "http://x86-64.example/", "http://l10n.example/", "http://a11y.example/",
    "https://1und1.de/", "https://1password.com/", "http://cafe01.example/", "http://s01e02.example/",
    "http://192.168.0.1/", "http://[::1]/", "http://xn--br0ken-abc.example/",
    "http://12345.example/",
])
def test_ascii_lookalike_not_flagged(value):
    assert run(value, "ascii-lookalike") == []


def test_ascii_lookalike_is_off_by_default():
    from irilint.engine import check_reference

    assert [f for f in check_reference("http://g00gle.com/") if f.rule.name == "ascii-lookalike"] == []


# ---------------------------------------------------------------------------
# unicode_security additions used by these rules
# ---------------------------------------------------------------------------

def test_joining_type_and_extended_pictographic():
    from irilint.unicode_security import is_extended_pictographic, joining_type

    assert joining_type("\u0628") == "D"   # BEH
    assert joining_type("\u0627") == "R"   # ALEF
    assert joining_type("\u064b") == "T"   # FATHATAN
    assert joining_type("\u200d") == "C"
    assert joining_type("a") == "U"
    assert joining_type("\u06cc") == "D"   # FARSI YEH
    assert is_extended_pictographic("\u2764") and is_extended_pictographic("\U0001F600")
    assert not is_extended_pictographic("a") and not is_extended_pictographic("1")


# ---------------------------------------------------------------------------
# Look-alikes in paths, queries and fragments (delimiters, scripts, digits)
# ---------------------------------------------------------------------------

from hypothesis import assume, example, given, settings as hsettings, strategies as st  # noqa: E402


def run_markdown(text, select):
    """Findings of a Markdown document read by the real scanners."""
    result = Engine().check_text(text, path="doc.md", settings=_settings(select))
    assert result.errors == []
    return result.findings


def test_greek_question_mark_in_a_query_imitates_the_parameter_separator():
    # NFC turns U+037E into ';', which separates query parameters
    value = "http://example.com/?item=1\u037eadmin=true"
    f = one(value, "delimiter-lookalike")
    assert (f.start, f.end) == (26, 27)
    assert "U+037E GREEK QUESTION MARK" in f.message and "';' (semicolon)" in f.message
    assert "query value" in f.message
    assert [fx.edits[0].new_text for fx in f.fixes] == ["%CD%BE", ";"]
    assert not any(fx.safe for fx in f.fixes)


def test_low_quotation_marks_imitate_commas():
    fs = run("http://example.com/list?ids=1\u201a2\u201a3", "delimiter-lookalike")
    assert [(g.start, g.end) for g in fs] == [(29, 30), (31, 32)]
    assert all("U+201A SINGLE LOW-9 QUOTATION MARK" in g.message and "',' (comma)" in g.message for g in fs)
    f = one("http://example.com/a\u201eb", "delimiter-lookalike")
    assert "looks like ',,'" in f.message and "U+201E DOUBLE LOW-9 QUOTATION MARK" in f.message


def test_slash_overlay_names_the_character_it_is_drawn_through():
    value = "http://bank.com\u0338login.evil.net/"
    f = one(value, "delimiter-lookalike")
    assert (f.start, f.end) == (15, 16)
    assert "U+0338 COMBINING LONG SOLIDUS OVERLAY, drawn through 'm'" in f.message
    assert "'/' (slash)" in f.message and "host label" in f.message
    assert f.fixes == []  # no fix inside a host


def test_overlays_that_draw_no_slash_are_not_delimiter_lookalikes():
    from irilint.rules.lookalike import delimiter_imitated

    for mark in ("\u0334", "\u0335", "\u0336", "\u20d2", "\u20d8", "\u0301"):
        assert delimiter_imitated(mark) is None, hex(ord(mark))
    for mark in ("\u0337", "\u0338", "\u20e5", "\u20eb"):
        assert delimiter_imitated(mark) == ("/", "/")
    assert delimiter_imitated("\u037e") == (";", ";")
    assert delimiter_imitated("\ufe12") == (".", ".")


@pytest.mark.parametrize("value,span", [
    ("http://example.com/\u30d5\u30a1\u30a4\u30eb\u3002pdf", (23, 24)),   # ファイル。pdf: a file-name dot
    ("http://example.com/index\u3002html", (24, 25)),
    ("http://example.com/a\ufe12b", (20, 21)),
    ("http://example.com/?q=\u6771\u4eac\u3002com", (24, 25)),             # 東京。com
])
def test_ideographic_full_stop_outside_cjk_text(value, span):
    f = one(value, "delimiter-lookalike")
    assert (f.start, f.end) == span and "'.' (full stop)" in f.message


@pytest.mark.parametrize("value", [
    "http://example.com/\u65e5\u672c\u8a9e\u306e\u6587\u3002",             # 日本語の文。
    "http://example.com/\u6771\u4eac\u3002\u5927\u962a",                    # 東京。大阪
    "http://example.com/?q=\u4f60\u597d\u3002\u4e16\u754c",                 # 你好。世界
    "http://example.com/#\uc11c\uc6b8\u3002",                              # 서울。
    "http://example.com/\u306a\u305c\uff1f",                               # なぜ？
    "http://example.com/\u4f60\u597d\uff0c\u4e16\u754c",                    # 你好，世界
    "http://example.com/\u300c\u6771\u4eac\u300d\u3002",                    # 「東京」。
    "http://example.com/?q=\u3053\u308c\u306fPython\u3002\u6b21\u306f",        # これはPython。次は
])
def test_cjk_punctuation_stays_clean(value):
    assert run(value, ("delimiter-lookalike", "fullwidth-form")) == []


def test_cjk_punctuation_in_a_markdown_document():
    text = (
        "# \u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8\n\n"
        "\u8a73\u3057\u304f\u306f [\u89e3\u8aac](https://ja.wikipedia.org/wiki/\u65e5\u672c\u8a9e\u3002) "
        "\u3092\u8aad\u3093\u3067\u304f\u3060\u3055\u3044\u3002\n\n"
        "\u8cc7\u6599: <https://example.jp/\u8cc7\u6599/\u30d5\u30a1\u30a4\u30eb\u3002pdf>\n"
    )
    fs = run_markdown(text, ("delimiter-lookalike", "fullwidth-form"))
    assert [(f.rule.name, text[f.start:f.end]) for f in fs] == [("delimiter-lookalike", "\u3002")]
    assert text[fs[0].start - 4:fs[0].start] == "\u30d5\u30a1\u30a4\u30eb"


@pytest.mark.parametrize("ch", ["\uff0f", "\uff1a", "\uff1f", "\uff03", "\uff20", "\uff0e", "\uff1b", "\uff0c",
                                "\uff61"])
def test_fullwidth_and_halfwidth_delimiters_are_full_width_forms_first(ch):
    value = "http://example.com/a" + ch + "b"
    fs = run(value, ("delimiter-lookalike", "fullwidth-form"))
    assert [(f.rule.name, f.start, f.end) for f in fs] == [("fullwidth-form", 20, 21)]
    assert "looks like the delimiter" in fs[0].message
    assert fs[0].fixes[0].edits[0].new_text.startswith("%")


def test_fullwidth_delimiter_in_a_host_says_what_idna_makes_of_it():
    value = "http://example.com\uff0flogin.evil.net/"
    fs = run(value, ("delimiter-lookalike", "fullwidth-form"))
    assert [(f.rule.name, f.start, f.end) for f in fs] == [("fullwidth-form", 18, 19)]
    assert "IDNA maps it to '/', which a host name cannot hold" in fs[0].message
    assert [fx.edits[0].new_text for fx in fs[0].fixes] == ["/"]  # no percent-encoding in a host
    assert "changes the IRI's structure" in fs[0].fixes[0].title and not fs[0].fixes[0].safe


_LOOKALIKE_ALPHABET = ("ab/.\u2215\uff0f\uff0e\u3002\u037e\u201a\u0338\uff41\u6771\u30d5"
                       "\u0430\u0585\u200b\uff1a\uff61")


@hsettings(max_examples=150, deadline=None)
@given(st.text(alphabet=_LOOKALIKE_ALPHABET, min_size=1, max_size=12))
def test_one_finding_per_character_between_delimiter_and_fullwidth_rules(tail):
    value = "http://example.com/" + tail
    fs = run(value, ("delimiter-lookalike", "fullwidth-form"))
    covered = set()
    for f in fs:
        span = set(range(f.start, f.end))
        assert not span & covered, [(g.rule.name, g.start, g.end) for g in fs]
        covered |= span
        for k in span:  # each rule reports the characters it names
            full = 0xFF01 <= ord(value[k]) <= 0xFF5E or 0xFF61 <= ord(value[k]) <= 0xFFDC
            assert full == (f.rule.name == "fullwidth-form"), (value, k, f.rule.name)
    for f in fs:  # every fix is unsafe and its percent-encoding decodes back
        for fx in f.fixes:
            assert not fx.safe
            new = fx.edits[0].new_text
            if new.startswith("%"):
                from urllib.parse import unquote
                assert unquote(new) == value[f.start:f.end]


@pytest.mark.parametrize("value,span,word", [
    ("http://example.com/?fruit=\u0585range", (26, 32), "orange"),
    ("http://example.com/\u0585range/juice", (19, 25), "orange"),
    ("http://example.com/#s\u0585cial", (20, 26), "social"),
    ("http://example.com/?q=%D6%85range", (22, 33), "orange"),
    ("http://example.com/login?next=acc\u0585unt", (30, 37), "account"),
])
def test_latin_word_with_a_lookalike_letter_of_another_script(value, span, word):
    f = one(value, "mixed-script")
    assert (f.start, f.end) == span
    assert "Armenian" in f.message and "U+0585 ARMENIAN SMALL LETTER OH" in f.message
    assert "reads as the Latin '%s'" % word in f.message


@pytest.mark.parametrize("value", [
    "http://example.com/?q=\u041c\u043e\u0441\u043a\u0432\u0430+moscow",        # Москва+moscow
    "http://example.com/?q=\u0535\u0580\u0587\u0561\u0576+yerevan",              # Երևան yerevan
    "http://example.com/Tbilisi/\u10d7\u10d1\u10d8\u10da\u10d8\u10e1\u10d8",      # თბილისი
    "http://example.com/T\u30b7\u30e3\u30c4",                                    # Tシャツ
    "http://example.com/?q=iPhone\u00a0\u10e5\u10d0\u10e0\u10d7\u10e3\u10da\u10d8",
    "http://example.com/wiki/\u05e2\u05d1\u05e8\u05d9\u05ea_Hebrew",            # עברית_Hebrew
    "https://hy.wikipedia.org/wiki/\u0540\u0561\u0575\u0561\u057d\u057f\u0561\u0576",
])
def test_bilingual_text_is_mixed_by_word_not_inside_one(value):
    assert run(value, "mixed-script") == []


def test_lookalike_partner_letter_needs_a_latin_word():
    from irilint.rules.lookalike import _latin_lookalike_mix

    assert _latin_lookalike_mix("\u0585range", ())
    assert not _latin_lookalike_mix("\u0585range", ("Armn",))        # allowed-scripts
    assert not _latin_lookalike_mix("\u0540\u0561\u0575", ())        # Armenian alone
    assert not _latin_lookalike_mix("T\u30b7\u30e3\u30c4", ())       # Highly Restrictive
    assert not _latin_lookalike_mix("a\u10d7\u10d1", ())             # Georgian letters that look like no Latin one
    assert run("http://example.com/?fruit=\u0585range", "mixed-script", allowed_scripts=("Armenian",)) == []


@pytest.mark.parametrize("value,span,reading", [
    ("http://paypa1.example/", (12, 13), "paypal"),
    ("http://secure-paypa1.com/login", (19, 20), "paypal"),
    ("http://faceb00k.example/", (12, 14), "facebook"),
    ("http://example.com/br0ken", (21, 22), "broken"),
    ("http://example.com/acc0unt/settings", (22, 23), "account"),
    ("http://pa55word-reset.example/", (9, 11), "password"),
    ("http://example.com/static/paypa1.html", (31, 32), "paypal"),
    ("http://ch1na-post.example/", (9, 10), "china"),          # 1 read as i as well as l
])
def test_ascii_lookalike_digit_for_letter_in_hosts_and_paths(value, span, reading):
    f = one(value, "ascii-lookalike")
    assert (f.start, f.end) == span, value[f.start:f.end]
    assert "'%s'" % reading in f.message
    where = "host label" if span[0] < value.index("/", 8) else "path word"
    assert where in f.message


def test_ascii_lookalike_reads_brand_words_of_protected_domains():
    # "gmail" is no English word: it is a spoof's target only when the
    # configuration names it.
    assert run("http://gmai1.example/", "ascii-lookalike") == []
    f = one("http://gmai1.example/", "ascii-lookalike", protected_domains=("gmail.com",))
    assert (f.start, f.end) == (11, 12) and "'gmail'" in f.message


@pytest.mark.parametrize("value,span,reading", [
    ("http://paypa1.com/", (12, 13), "paypal"),
    ("http://g00gle.com/", (8, 10), "google"),
    ("http://micr0soft.com/", (11, 12), "microsoft"),
    ("http://example.com/br0ken", (21, 22), "broken"),
    ("http://p4ssw0rd.example/", (8, 9), "password"),      # two runs, one reading: first run here
])
def test_ascii_lookalike_reading_is_an_english_or_brand_word(value, span, reading):
    fs = run(value, "ascii-lookalike")
    assert fs and (fs[0].start, fs[0].end) == span and "'%s'" % reading in fs[0].message


@pytest.mark.parametrize("value", [
    # digits that are digits in the real-projects corpus: no reading is a word
    "https://www.a11yproject.com/", "https://www.gnu.org/software/coreutils/sha1sum",
    "https://0pointer.net/blog/", "https://www.gs1us.org/", "https://www.uniroma1.it/",
    "https://mpi4py.readthedocs.io/", "http://djb1a.example/", "http://example.org/schema1",
    "http://sha1sum.example/", "http://schema1.example/", "http://media1.example/",
])
def test_ascii_lookalike_no_false_alarm_on_real_names(value):
    assert run(value, "ascii-lookalike") == []


_NUMERONYMS_AND_NUMBERS = [
    "i18n", "l10n", "a11y", "o11y", "k8s", "g11n", "m17n", "c14n", "web3", "mp3", "ipv6", "sha256",
    "utf8", "x86_64", "win32", "py3", "h2o",
]


@pytest.mark.parametrize("word", _NUMERONYMS_AND_NUMBERS)
def test_ascii_lookalike_leaves_numeronyms_alone(word):
    assert run("http://%s.example/%s/%s-%s" % (word, word, word, word), "ascii-lookalike") == []


@hsettings(max_examples=200, deadline=None)
@given(st.sampled_from(_NUMERONYMS_AND_NUMBERS), st.sampled_from(["", "www.", "docs."]),
       st.sampled_from(["", "project", "-project", "/guide"]))
def test_ascii_lookalike_numeronyms_in_any_host_or_path(word, prefix, suffix):
    assert run("https://%s%s%s.example/%s%s" % (prefix, word, suffix if "/" not in suffix else "",
                                                  word, suffix), "ascii-lookalike") == []


@hsettings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(w for w in ("broken", "orange", "account", "password", "lesson", "global",
                                          "school", "simple", "total", "google", "microsoft"))),
       st.data())
def test_ascii_lookalike_flags_any_digit_spelling_of_a_word(word, data):
    from irilint.rules.lookalike import digit_reading

    spellable = [i for i, c in enumerate(word) if c in "olietsabg"]
    i = data.draw(st.sampled_from(spellable))
    digit = {"o": "0", "l": "1", "i": "1", "e": "3", "a": "4", "s": "5", "t": "7", "b": "8", "g": "9"}[word[i]]
    token = word[:i] + digit + word[i + 1:]
    reading = digit_reading(token)
    assert reading is not None and reading.isalpha() and len(reading) == len(token)
    assert all(r == c for r, c in zip(reading, token) if not c.isdigit())


@pytest.mark.parametrize("value", [
    "https://www.gnu.org/software/coreutils/md5sum",        # leetspeak digits read as digits in paths
    "http://packages.debian.org/sid/ext4magic",
    "http://packages.debian.org/sid/reiser4progs",
    "http://example.org/reset-pa55word",
    "http://xmlns.com/foaf/0.1/mbox_SHA1sum",               # mixed case: an identifier
    "http://www.w3.org/2000/10/rdf-tests/stc1E.n3",
    "https://code.djangoproject.com/wiki/JSON1Extension",
    "http://example.org/constructwhere01result.ttl",        # two digits: numbering
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAUA",   # a data: URI's path is content
])
def test_ascii_lookalike_reads_path_words_as_file_and_tool_names(value):
    assert run(value, "ascii-lookalike") == []


@pytest.mark.parametrize("word", [
    "utf8", "utf16", "x86", "x64", "arm64", "mp3", "mp4", "h264", "h265", "v2", "v10", "b2b", "p2p", "e2e",
    "k8s", "i18n", "l10n", "a11y", "ipv4", "ipv6", "html5", "css3", "web3", "es6", "win10", "win11",
    "mp3player", "html5game", "python3app", "win10pro", "s3bucket", "ec2", "3d", "4k", "5g", "2fa", "1080p",
    "8gb", "1st", "2nd", "3rd", "4th", "ns1", "web01", "node1", "server1", "host01", "beta1", "alpha1",
    "data1", "media1", "video1", "demo1", "slot0", "eth0", "page1", "chapter10", "season1episode2",
    "covid19", "area51", "route66", "rfc3986", "iso8859", "cafe01", "deadbeef", "1password", "1und1",
    "s01e02", "12345", "2023", "20231124", "abc123", "a1b2c3", "x1", "g5", "t3",
])
def test_ascii_lookalike_leaves_common_alphanumeric_tokens_alone(word):
    assert run("http://%s.example/%s/%s.html" % (word, word, word), "ascii-lookalike") == []


@hsettings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=14))
@example("g0a1")
def test_ascii_lookalike_reading_is_a_word_of_letters(word):
    from irilint.rules.lookalike import _READS_AS, _digit_swaps

    swaps = _digit_swaps(word)
    if not any(c.isdigit() for c in word) or not any(c.isalpha() for c in word):
        assert swaps == []
    # the swaps are read together: in 'g0a1' ('goal') neither digit alone
    # makes a word of letters
    if swaps:
        reading = list(word)
        for s, e in swaps:
            reading[s:e] = [_READS_AS[c] for c in word[s:e]]
        reading = "".join(reading)
        assert reading.isalpha() and len(reading) == len(word)


def test_ascii_lookalike_in_a_markdown_document():
    text = "Pay at [our shop](https://paypa1-secure.example/checkout) or read <https://example.com/br0ken>.\n"
    fs = run_markdown(text, ("ascii-lookalike",))
    assert [text[f.start:f.end] for f in fs] == ["1", "0"]
    assert "'paypal'" in fs[0].message and "'broken'" in fs[1].message


@pytest.mark.parametrize("value", [
    "https://ar.example/\u0663\u066b\u0661\u0664",                  # ٣٫١٤: the Arabic decimal separator
    "https://fa.example/\u0645\u062b\u0627\u0644\u060c\u0645\u062b\u0627\u0644",   # Arabic comma, not derived
    "https://el.example/\u03c4\u03b9;",                              # Greek text ends a question with ';'
    "http://example.com/a,b;c=d",                                   # the real sub-delimiters
])
def test_native_commas_and_semicolons_stay_clean(value):
    assert run(value, ("delimiter-lookalike", "fullwidth-form")) == []


def test_path_and_query_lookalikes_in_an_html_document():
    text = ('<p>Order <a href="http://shop.example/cart?item=1\u037eadmin=true">here</a> or '
            '<a href="http://shop.example/?fruit=\u0585range">there</a>, '
            '<a href="http://example.com\uff0flogin.evil.net/">login</a>, '
            '<a href="http://example.com/?q=\u041c\u043e\u0441\u043a\u0432\u0430+moscow">news</a>.</p>\n')
    result = Engine().check_text(text, path="page.html",
                                 settings=_settings(("delimiter-lookalike", "fullwidth-form", "mixed-script")))
    assert result.errors == []
    got = [(f.rule.name, text[f.start:f.end]) for f in result.findings]
    assert got == [("delimiter-lookalike", "\u037e"), ("mixed-script", "\u0585range"), ("fullwidth-form", "\uff0f")]


# ---------------------------------------------------------------------------
# Comparison with protected domains as the browsers' policy makes it
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("host,protected", [
    ("\u0111igklmo68.com", "digklmo68.com"),              # đ: a stroke, not a mark
    ("digklm\u00f868.com", "digklmo68.com"),              # ø
    ("digk\u0142mo68.com", "digklmo68.com"),              # ł
    ("w\u00f3der.com", "woder.com"),                      # a mark removed
    ("\u0448\u043c\u043d\u0442\u0432.com", "wmhtb.com"),  # шмнтв: Cyrillic drawn like w m h t b
    ("phk\u0167b.com", "phktb.com"),                      # ŧ
    ("\u03fc\u03ba\u03b1\u03c9\u03c7.com", "pkawx.com"),  # Greek ϼκαωχ
    ("ae\u0153.com", "aece.com"),                         # œ read as "ce"
    ("\u04d5\u0525.com", "aen.com"),                      # ӕԥ
    ("\u0456\u0455\u04cf\u043a\u0440\u0445123.com", "islkpx123.com"),  # ӏ read as l
    ("f\u00f3o.com", "f\u00f3\u00f3.com"),                # a Unicode protected domain
    ("t\u00e9st.net", "test.net"),
    ("some.t\u00e9st.net", "test.net"),                   # the parent domain looks like it
    ("\u00e9xample.test.n\u00e9t", "test.net"),           # crbug 769547: test.nét is not test.net
    ("mail.\u0111igklmo68.co.uk", "digklmo68.co.uk"),
])
def test_protected_domain_lookalikes_by_the_browsers_skeleton(host, protected):
    fs = run_doc("http://%s/" % host, protected_domains=(protected,))
    assert [f.rule.name for f in fs] == ["confusable-collision"], host
    assert protected in fs[0].message


@pytest.mark.parametrize("host,protected", [
    ("\u00e9xample.test.net", "test.net"),                # a subdomain of the protected domain
    ("mail.digklmo68.com", "digklmo68.com"),
    ("f\u00f3\u00f3.com", "f\u00f3\u00f3.com"),            # the protected domain itself
    ("\u0448\u043c\u043d\u0442\u0432.\u0440\u0444", "wmhtb.com"),  # another TLD: another name
])
def test_protected_domain_itself_and_its_subdomains_are_not_lookalikes(host, protected):
    assert run_doc("http://%s/" % host, protected_domains=(protected,)) == []


def test_a_label_the_browser_skeleton_reads_as_latin_is_a_whole_script_confusable():
    # ш м н т в are drawn like w m h t b in an address bar: under .com the
    # label reads as Latin, under a Cyrillic TLD it is an ordinary label.
    found = run("http://\u0448\u043c\u043d\u0442\u0432.com/", OURS)
    assert [f.rule.name for f in found] == ["whole-script-confusable"]
    assert "looks like the Latin 'wmhtb'" in found[0].message
    assert run("http://\u0448\u043c\u043d\u0442\u0432.\u0440\u0444/", OURS) == []


_CYRILLIC_DRAWN_LIKE = sorted(c for c in __import__("irilint.lookalike_table", fromlist=["DRAWN_LIKE"]).DRAWN_LIKE
                              if "\u0400" <= c <= "\u052f")


@hsettings(max_examples=150, deadline=None)
@given(st.text(alphabet=_CYRILLIC_DRAWN_LIKE, min_size=1, max_size=10))
def test_every_cyrillic_label_drawn_all_latin_is_reported_only_outside_cyrillic_tlds(label):
    from irilint.idn_display import ALLOWED_WHOLE_SCRIPT_WORDS, is_digit_label
    # A label of digit look-alikes (з is drawn like 3) is the digit rule's.
    assume(label not in ALLOWED_WHOLE_SCRIPT_WORDS and not is_digit_label(label))
    assert "whole-script-confusable" in [f.rule.name for f in run("http://%s.com/" % label, OURS)]
    for tld in ("ru", "\u0440\u0444", "\u0443\u043a\u0440"):
        assert "whole-script-confusable" not in [f.rule.name for f in run("http://%s.%s/" % (label, tld), OURS)]


_MARKS = st.sampled_from([chr(c) for c in range(0x0300, 0x033A)])


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8),
                min_size=2, max_size=4), st.data())
def test_policy_skeleton_ignores_marks_on_latin_hosts(labels, data):
    from irilint.idn_display import policy_skeletons, remove_diacritics
    from irilint.unicode_security import skeleton

    host = ".".join(labels)
    assert policy_skeletons(host) == frozenset({skeleton(host)})
    marked = "".join(c + (data.draw(_MARKS) if c.isalpha() and data.draw(st.booleans()) else "") for c in host)
    assert remove_diacritics(marked) == host
    assert skeleton(host) in policy_skeletons(marked)


@hsettings(max_examples=200, deadline=None)
@given(st.text(alphabet="\u0448\u043c\u043d\u0442\u0432\u043a\u043f\u0491\u0127\u0167\u014b\u03ba\u03c9",
               min_size=1, max_size=10))
def test_policy_skeleton_reads_every_drawn_letter_as_latin(label):
    from irilint.idn_display import policy_skeletons
    from irilint.lookalike_table import DRAWN_LIKE
    from irilint.unicode_security import skeleton

    reading = "".join(DRAWN_LIKE[c] for c in label)
    assert reading.isascii()
    assert skeleton(reading + ".com") in policy_skeletons(label + ".com")


def test_lookalike_table_module_is_what_the_generator_writes():
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools",
                        "gen_lookalike_table.py")
    spec = importlib.util.spec_from_file_location("gen_lookalike_table", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with open(gen.DEFAULT_OUTPUT, encoding="utf-8") as fh:
        assert fh.read() == gen.generate()


def test_mathematical_capital_alpha_mixes_greek_with_latin_once_mapped():
    # U+1D756 is Common script; IDNA maps it to Greek alpha beside "bc".
    f = one("http://\U0001d756bc.xyz/", "mixed-script")
    assert "Greek" in f.message and "Latin" in f.message and "\u03b1bc" in f.message
    assert run("http://\U0001d68abc.xyz/", "mixed-script") == []   # maps to plain "abc"
