"""Syntax, normalization and percent-encoding rules: where they fire and
where they must not."""
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
    assert [v[x.start:x.end] for x in f] == ["%E6%97%A5%E6%9C%AC", "%D7%A9"]
    assert f[0].severity.label == "hint"
    text, fx = fixed(v, "percent-encoded-text")
    assert text == "http://e.org/日本?q=%D7%A9" and fx.safe
    # what s3.2 keeps encoded is never offered for decoding
    assert not found("http://e.org/%E2%80%AE", "percent-encoded-text")
    assert not found("http://e.org/%E2%80%8B", "percent-encoded-text")
    assert not found("http://e.org/%E9", "percent-encoded-text")
