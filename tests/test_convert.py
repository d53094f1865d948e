"""RFC 3987 s3.1 (IRI -> URI) and s3.2 (URI -> IRI), and the fix helpers."""
import re
import unicodedata

import pytest

from irilint import (
    decode_unreserved,
    nfc,
    percent_encode_component,
    remove_dot_segments,
    to_iri,
    to_uri,
    to_uri_detailed,
    uppercase_percent_encodings,
)

# --- the seeds' own examples (000_14c34dfd784230ca.txt, s3.1 and s3.2.1) ----

SEED_TO_IRI = [
    ("http://www.example.org/D%C3%BCrst", "http://www.example.org/Dürst"),
    ("http://www.example.org/D%FCrst", "http://www.example.org/D%FCrst"),
    ("http://xn--99zt52a.example.org/%e2%80%ae", "http://納豆.example.org/%E2%80%AE"),
    (
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
        "http://example.com/\U00010300\U00010301\U00010302",
    ),
    # s3.2: r%E9sum%E9 must not be guessed as Latin-1.
    ("http://www.example.org/r%E9sum%E9.html", "http://www.example.org/r%E9sum%E9.html"),
    ("http://www.example.org/r%C3%A9sum%C3%A9.html", "http://www.example.org/résumé.html"),
]

SEED_TO_URI = [
    ("http://www.example.org/red%09rosé#red", "http://www.example.org/red%09ros%C3%A9#red"),
    ("http://résumé.example.org", "http://xn--rsum-bpad.example.org"),
    # A percent-encoded host is already a URI: to_uri is the identity on
    # URIs, so it is not turned into Punycode.
    ("http://r%C3%A9sum%C3%A9.example.org", "http://r%C3%A9sum%C3%A9.example.org"),
    (
        "http://example.com/\U00010300\U00010301\U00010302",
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
    ),
    ("http://www.example.org/résumé.html", "http://www.example.org/r%C3%A9sum%C3%A9.html"),
    ("http://www.example.org/D\u00fcrst", "http://www.example.org/D%C3%BCrst"),
    # s3.1 with the XML-escaped delimiter example: delimiters are not escaped.
    ("http://www.example.org/red%09ros\u00e9#%3Cred%3E", "http://www.example.org/red%09ros%C3%A9#%3Cred%3E"),
]


@pytest.mark.parametrize("uri, iri", SEED_TO_IRI)
def test_seed_uri_to_iri(uri, iri):
    assert to_iri(uri) == iri


@pytest.mark.parametrize("iri, uri", SEED_TO_URI)
def test_seed_iri_to_uri(iri, uri):
    assert to_uri(iri) == uri


# --- edge cases, component by component ---------------------------------------

TO_IRI_EDGES = [
    # userinfo
    ("http://J%C3%BCrgen:pw@example.org/", "http://Jürgen:pw@example.org/"),
    ("http://a%40b@example.org/", "http://a%40b@example.org/"),  # '@' is reserved
    ("http://u%3Ap@example.org/", "http://u%3Ap@example.org/"),  # ':' is reserved
    # IPv6 literals and ports stay as they are
    ("http://[2001:db8::1]:8080/%C3%A9", "http://[2001:db8::1]:8080/é"),
    ("http://[v1.fe]/x", "http://[v1.fe]/x"),
    ("http://example.org:0/", "http://example.org:0/"),
    # reserved characters encoded stay encoded, in any case
    ("http://e.org/a%2Fb%3fc%23d", "http://e.org/a%2Fb%3fc%23d"),
    ("http://e.org/%5B%5D%21%24%26%27%28%29%2A%2B%2C%3B%3D",
     "http://e.org/%5B%5D%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
    # '%25' is never decoded, so nothing is double-decoded
    ("http://e.org/100%25", "http://e.org/100%25"),
    ("http://e.org/%25C3%25BC", "http://e.org/%25C3%25BC"),
    # ASCII characters not allowed in URIs stay encoded
    ("http://e.org/a%20b%22%3C%3E%5C%5E%60%7B%7C%7D%7F%00%1F",
     "http://e.org/a%20b%22%3C%3E%5C%5E%60%7B%7C%7D%7F%00%1F"),
    # unreserved ASCII is decoded ...
    ("http://e.org/%7Euser/%41%2D%5F", "http://e.org/~user/A-_"),
    # ... except where it would create a dot-segment (resolution would change)
    ("http://e.org/a/%2E%2E/b", "http://e.org/a/%2E%2E/b"),
    ("http://e.org/a/%2e/b", "http://e.org/a/%2e/b"),
    ("http://e.org/a/%2Ex", "http://e.org/a/.x"),
    ("mailto:%2e", "mailto:%2e"),  # the first segment of a path after the scheme
    ("http://e.org/?%2E%2E", "http://e.org/?.."),  # the query has no segments
    # invalid UTF-8 of each kind is re-escaped in uppercase
    ("http://e.org/%c0%af", "http://e.org/%C0%AF"),  # overlong '/'
    ("http://e.org/%E0%80%AF", "http://e.org/%E0%80%AF"),  # overlong, 3 bytes
    ("http://e.org/%ed%a0%80", "http://e.org/%ED%A0%80"),  # encoded surrogate
    ("http://e.org/%E2%82", "http://e.org/%E2%82"),  # truncated
    ("http://e.org/%E2%82x", "http://e.org/%E2%82x"),  # truncated before ASCII
    ("http://e.org/%80abc", "http://e.org/%80abc"),  # stray continuation
    ("http://e.org/%F5%80%80%80", "http://e.org/%F5%80%80%80"),  # above U+10FFFF
    ("http://e.org/%F4%90%80%80", "http://e.org/%F4%90%80%80"),  # above U+10FFFF
    ("http://e.org/%fc%C3%BC", "http://e.org/%FCü"),  # bad then good
    # bidi controls, all of them, stay encoded
    ("http://e.org/%E2%80%8E%E2%80%8F%D8%9C", "http://e.org/%E2%80%8E%E2%80%8F%D8%9C"),
    ("http://e.org/%e2%80%aa%e2%80%ab%e2%80%ac%e2%80%ad%e2%80%ae",
     "http://e.org/%E2%80%AA%E2%80%AB%E2%80%AC%E2%80%AD%E2%80%AE"),
    ("http://e.org/%E2%81%A6%E2%81%A7%E2%81%A8%E2%81%A9",
     "http://e.org/%E2%81%A6%E2%81%A7%E2%81%A8%E2%81%A9"),
    ("http://e.org/abc%E2%80%AEgpj.exe", "http://e.org/abc%E2%80%AEgpj.exe"),
    # invisible characters stay encoded
    ("http://e.org/a%E2%80%8Bb%E2%81%A0c%C2%ADd%EF%BB%BF",
     "http://e.org/a%E2%80%8Bb%E2%81%A0c%C2%ADd%EF%BB%BF"),
    # controls (C1), noncharacters, specials stay encoded
    ("http://e.org/%C2%85%EF%B7%90%EF%BF%BE%EF%BF%BD",
     "http://e.org/%C2%85%EF%B7%90%EF%BF%BE%EF%BF%BD"),
    # plane-14 tags are outside ucschar
    ("http://e.org/%F3%A0%80%81", "http://e.org/%F3%A0%80%81"),
    # private use: allowed in the query only
    ("http://e.org/%EE%80%80?%EE%80%80", "http://e.org/%EE%80%80?\ue000"),
    ("http://e.org/?q#%EE%80%80", "http://e.org/?q#%EE%80%80"),
    # non-BMP
    ("http://e.org/%F0%9F%98%80", "http://e.org/\U0001F600"),
    # xn--: only valid A-labels are decoded, and only in DNS hosts
    ("http://xn--rsum-bpad.example.org/", "http://résumé.example.org/"),
    ("http://XN--RSUM-BPAD.example.org/", "http://XN--RSUM-BPAD.example.org/"),
    ("http://xn--zz.example.org/", "http://xn--zz.example.org/"),
    ("http://xn--abc-.example.org/", "http://xn--abc-.example.org/"),
    ("foo://xn--rsum-bpad.example.org/", "foo://xn--rsum-bpad.example.org/"),
    ("http://e.org/xn--rsum-bpad", "http://e.org/xn--rsum-bpad"),
    # fragment and query decoding
    ("http://e.org/?q=%E6%97%A5%E6%9C%AC#%D7%A9", "http://e.org/?q=日本#ש"),
    # Unicode spaces stay encoded
    ("http://e.org/a%C2%A0b%E3%80%80", "http://e.org/a%C2%A0b%E3%80%80"),
    # already an IRI: unchanged
    ("http://例え.jp/パス", "http://例え.jp/パス"),
    # relative references
    ("../%C3%A9t%C3%A9?x#y", "../été?x#y"),
    ("", ""),
    ("%", "%"),
    ("%%%", "%%%"),
    ("%C3", "%C3"),
]

TO_URI_EDGES = [
    ("http://Jürgen@example.org/", "http://J%C3%BCrgen@example.org/"),
    ("http://[2001:db8::1]:8080/é", "http://[2001:db8::1]:8080/%C3%A9"),
    ("http://例え.jp/パス", "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"),
    ("http://例え。jp/", "http://xn--r8jz45g.jp/"),  # ideographic full stop
    ("http://EXAMPLE.org/", "http://EXAMPLE.org/"),  # ASCII host: no normalization
    ("http://Bücher.EXAMPLE/", "http://xn--bcher-kva.EXAMPLE/"),  # ASCII labels kept
    ("http://e.org/a b", "http://e.org/a%20b"),
    ("http://e.org/%e2%80%ae", "http://e.org/%e2%80%ae"),  # existing escapes kept
    # s3.1: the percent sign MUST NOT be converted, even one that starts no
    # escape (bad-percent-encoding offers "%25" as its own fix)
    ("http://e.org/100%", "http://e.org/100%"),
    ("http://e.org/%zzé", "http://e.org/%zz%C3%A9"),
    ("http://e.org/%é%", "http://e.org/%%C3%A9%"),  # no new escape is made
    ("http://d%C3%BCrst.example.org/", "http://d%C3%BCrst.example.org/"),
    ("http://e.org/?\ue000", "http://e.org/?%EE%80%80"),
    ("http://e.org/\u202egpj", "http://e.org/%E2%80%AEgpj"),
    ("mailto:José@example.org", "mailto:Jos%C3%A9@example.org"),  # not DNS
    ("urn:ex:ü", "urn:ex:%C3%BC"),
    ("//例え.jp/x", "//xn--r8jz45g.jp/x"),  # network-path reference
    ("e\u0301", "e%CC%81"),  # never normalized (variant C)
    ("", ""),
    ("\ud800", "%ED%A0%80"),  # a lone surrogate still maps to octets
]


@pytest.mark.parametrize("uri, iri", TO_IRI_EDGES)
def test_to_iri_edges(uri, iri):
    assert to_iri(uri) == iri


@pytest.mark.parametrize("iri, uri", TO_URI_EDGES)
def test_to_uri_edges(iri, uri):
    assert to_uri(iri) == uri


def test_to_uri_reports_idna_rejection_and_falls_back():
    # U+2488 (DIGIT ONE FULL STOP) is disallowed by UTS #46 in a label
    # together with a leading hyphen rule failure: use a clear IDNA error.
    iri = "http://a\u200db.example/"  # ZWJ with no virama before it: CONTEXTJ fails
    result = to_uri_detailed(iri)
    assert result.text == "http://a%E2%80%8Db.example/"
    assert len(result.host_errors) == 1
    span, reason = result.host_errors[0]
    assert iri[span.start:span.end] == "a\u200db"
    assert reason


def test_to_uri_ok_has_no_host_errors():
    assert to_uri_detailed("http://résumé.example.org/").host_errors == []


# --- helpers -------------------------------------------------------------------


def test_nfc():
    assert nfc("http://e.org/re\u0301sume\u0301") == "http://e.org/résumé"
    assert nfc("http://e.org/résumé") == "http://e.org/résumé"


def test_uppercase_percent_encodings():
    assert uppercase_percent_encodings("/%e2%80%ae/%Ab/%zz") == "/%E2%80%AE/%AB/%zz"


@pytest.mark.parametrize(
    "before, after",
    [
        ("/%7Euser/%41b", "/~user/Ab"),
        ("/%2F/%3A", "/%2F/%3A"),  # reserved stays
        ("/a/%2E%2E/b", "/a/%2E%2E/b"),  # would create a dot-segment
        ("/a/%2E/b", "/a/%2E/b"),
        ("/a/%2E%2Ex", "/a/..x"),
        ("/%C3%A9", "/%C3%A9"),  # non-ASCII is not "unreserved"
    ],
)
def test_decode_unreserved(before, after):
    assert decode_unreserved(before) == after


def test_percent_encode_component():
    assert percent_encode_component("\u05e9\u05dc\u05d5\u05dd1") == "%D7%A9%D7%9C%D7%95%D7%9D1"
    assert percent_encode_component("a%2Fb") == "a%2Fb"


@pytest.mark.parametrize(
    "path, expected",
    [  # RFC 3986 s5.2.4 and s5.4 examples
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("/./g", "/g"),
        ("/../g", "/g"),
        ("/b/c/g/..", "/b/c/"),  # RFC 3986 s5.4.1 "g/.." after merging
        ("/a/b/..", "/a/"),
        ("..", ""),
        ("../../x", "x"),
        ("/a/./b/", "/a/b/"),
        ("", ""),
    ],
)
def test_remove_dot_segments(path, expected):
    assert remove_dot_segments(path) == expected


# --- URI -> IRI without showing a spoof (RFC 3987 s3.2.1) ----------------------

from irilint.convert import iri_pieces, to_iri_detailed  # noqa: E402
from irilint.engine import Engine, check_reference  # noqa: E402


def test_iri_pieces_name_each_a_label_and_escape_run():
    uri = "http://xn--rsum-bpad.example.org/%D0%B0%2F%C3%A9x%41?q=%E2%80%AE"
    pieces = [(p.kind, p.encoded, p.decoded) for p in iri_pieces(uri)]
    assert pieces == [("a-label", "xn--rsum-bpad", "r\u00e9sum\u00e9"), ("percent", "%D0%B0", "\u0430"),
                      ("percent", "%C3%A9", "\u00e9"), ("percent", "%41", "A")]
    kept = to_iri(uri, keep_encoded=lambda p: p.kind == "a-label")
    assert kept == "http://xn--rsum-bpad.example.org/\u0430%2F\u00e9xA?q=%E2%80%AE"
    detailed = to_iri_detailed(uri, keep_encoded=lambda p: p.decoded == "\u0430")
    assert [(p.encoded, detailed.text[s.start:s.end]) for p, s in detailed.decoded] == [
        ("xn--rsum-bpad", "r\u00e9sum\u00e9"), ("%C3%A9", "\u00e9"), ("%41", "A")]


SAFE_TO_IRI = [
    # the Cyrillic look-alike of apple.com keeps its A-label
    ("https://xn--80ak6aa92e.com/login", "https://xn--80ak6aa92e.com/login",
     ["kept xn--80ak6aa92e: its Unicode form '\u0430\u0440\u0440\u04cf\u0435' is flagged by "
      "whole-script-confusable (IRI204)"]),
    # legitimate IDNs still convert, right-to-left ones too
    ("http://xn--rsum-bpad.example.org/", "http://r\u00e9sum\u00e9.example.org/", []),
    ("http://xn--mgbh0fb.xn--kgbechtv/", "http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/", []),
    # a percent-encoded RLO stays encoded (s3.2 step 5 already keeps it)
    ("http://example.org/%E2%80%AE", "http://example.org/%E2%80%AE", []),
    # a Cyrillic letter that makes a Latin word mixed-script stays encoded
    ("http://example.org/pay%D1%80al", "http://example.org/pay%D1%80al",
     ["kept %D1%80: its Unicode form '\u0440' is flagged by mixed-script (IRI203)"]),
    # while a Cyrillic word of its own converts
    ("http://example.org/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82", "http://example.org/\u043f\u0440\u0438\u0432\u0435\u0442", []),
    # a full-width solidus looks like a delimiter
    ("http://example.org/a%EF%BC%8Fb", "http://example.org/a%EF%BC%8Fb",
     ["kept %EF%BC%8F: its Unicode form '\uff0f' is flagged by fullwidth-form (IRI202)"]),
    # a letter its top-level domain's registry does not allow (browsers
    # show the A-label); under .de, whose registry allows "ß", it converts
    ("http://xn--fa-hia.com/", "http://xn--fa-hia.com/",
     ["kept xn--fa-hia: its Unicode form 'fa\u00df' is flagged by idn-tld-character (IRI211)"]),
    ("http://xn--fa-hia.de/", "http://fa\u00df.de/", []),
    # only the flagged piece is kept
    ("http://xn--80ak6aa92e.xn--rsum-bpad.org/%C3%A9t%C3%A9", "http://xn--80ak6aa92e.r\u00e9sum\u00e9.org/\u00e9t\u00e9",
     ["kept xn--80ak6aa92e: its Unicode form '\u0430\u0440\u0440\u04cf\u0435' is flagged by "
      "whole-script-confusable (IRI204)"]),
]


@pytest.mark.parametrize("uri, iri, reasons", SAFE_TO_IRI)
def test_safe_to_iri_keeps_what_a_rule_flags(uri, iri, reasons):
    got, kept = Engine().safe_to_iri(uri)
    assert got == iri
    assert [k.reason for k in kept] == reasons


def test_safe_to_iri_follows_the_rule_selection():
    from irilint.config import Settings

    settings = Settings(select=("ALL",), ignore=("whole-script-confusable", "punycode-label"))
    got, kept = Engine().safe_to_iri("https://xn--80ak6aa92e.com/login", settings)
    assert got == "https://\u0430\u0440\u0440\u04cf\u0435.com/login" and kept == []


def test_safe_to_iri_uses_the_protected_domains():
    from irilint.config import Settings

    # Latin "paypa1.com" vs the protected "paypal.com": only that rule knows
    uri = "http://xn--pypal-4ve.example/"
    plain, kept = Engine().safe_to_iri(uri, Settings())
    assert [k.finding.rule.name for k in kept] == ["mixed-script"]
    protected = Settings(protected_domains=("paypal.com",), ignore=("mixed-script",))
    assert Engine().safe_to_iri("http://xn--pypal-4ve.com/", protected)[0] == "http://xn--pypal-4ve.com/"
    assert Engine().safe_to_iri("http://xn--pypal-4ve.com/", Settings(ignore=("mixed-script",)))[0] \
        == "http://p\u0430ypal.com/"


def test_punycode_label_offers_no_fix_that_shows_a_spoof():
    [f] = [f for f in check_reference("https://xn--80ak6aa92e.com/login") if f.rule.name == "punycode-label"]
    assert f.fixes == [] and "whole-script-confusable" in f.message
    # a legitimate name keeps its safe fix; a right-to-left one its unsafe fix
    [f] = [f for f in check_reference("http://xn--rsum-bpad.example.org/") if f.rule.name == "punycode-label"]
    assert [fx.safe for fx in f.fixes] == [True]
    fs = [f for f in check_reference("http://xn--mgbh0fb.xn--kgbechtv/") if f.rule.name == "punycode-label"]
    assert [fx.safe for f in fs for fx in f.fixes] == [False, False]


def test_percent_encoded_text_leaves_a_mixed_script_run_encoded():
    assert not [f for f in check_reference("http://example.org/pay%D1%80al")
                if f.rule.name == "percent-encoded-text"]
    [f] = [f for f in check_reference("http://example.org/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82")
           if f.rule.name == "percent-encoded-text"]
    assert f.fixes[0].safe


def test_percent_encoded_unreserved_offers_no_fix_that_makes_a_mixed_script_segment():
    def unreserved(value):
        [f] = [f for f in check_reference(value) if f.rule.name == "percent-encoded-unreserved"]
        return f

    f = unreserved("foo://e.org/\u05dd%41%E6%97%A5\u672c")
    assert f.fixes == [] and "would flag it" in f.message
    f = unreserved("foo://e.org/%7Euser")
    assert f.fixes and f.fixes[0].safe
