"""The engine's fast path (irilint.rules.fastpath) must find exactly what the
slow path finds: these tests run both on the same references and documents."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

import irilint.engine as engine_mod
from irilint import parse
from irilint.config import Settings
from irilint.engine import Engine, _WholeTextScanner
from irilint.rules.fastpath import SILENT_ON_FAST, fast_match, fast_matcher
from irilint.rules.registry import TRAITS, get_rule, select_rules
from irilint.scanners import scanner_for


def _key(findings):
    return [(f.rule.code, f.severity, f.start, f.end, f.message, f.ref_start, f.ref_end,
             [(fx.title, fx.edits, fx.safe) for fx in f.fixes]) for f in findings]


def _check(text, st_=None, fast=True, scanner=None, run_state=None):
    """The findings of ``text``, with the fast path on or forced off."""
    with pytest.MonkeyPatch.context() as mp:
        if not fast:
            mp.setattr(engine_mod, "_fast_path", lambda rules: None)
        res = Engine().check_text(text, path="doc.txt", settings=st_, scanner=scanner or _WholeTextScanner(),
                                  run_state=run_state)
    assert not res.errors
    return _key(res.findings)


# -- near-valid ASCII references ------------------------------------------------

_SCHEMES = ["http", "https", "ftp", "mailto", "urn", "a+b.c-d", "HTTP", "Https", "1http", "h_t", "C", "x"]
_HOSTS = ["example.org", "www.example.com", "Example.org", "EXAMPLE", "127.0.0.1", "256.1.1.1", "1.2.3",
          "xn--bcher-kva.de", "XN--BCHER-KVA.de", "xN--80ak6aa92e.com", "a..b", ".example", "example.",
          "", "[::1]", "[1:2:3]", "[v1.x]", "a_b", "a~b!$&'()*+,;=c", "paypa1.com", "a@b", "a:b", "a b"]
_PORTS = ["", "", ":80", ":443", ":8080", ":0000", ":9999", ":65535", ":65536", ":99999", ":", ":8a", ":-1"]
_SEGMENTS = ["a", "docs", "page-1.html", ".", "..", ".hidden", "..x", "%2e", "%2E%2E", "", "a:b", "@x",
             "x--y", "xn--", "a b", "a|b", "a\\b", "[x]", "~u", "a%", "a%4", "A%41", "é", "\u202e"]
_TAILS = ["", "?q=1&lang=en", "?", "?a/b?c", "?./..", "#frag", "#", "#a#b", "?q#f", "#/./", "?x=%zz",
          "?%41", "#é", "?a b", "#xn--q"]
_ASCII_SOUP = "abcxyzXNn019-._~!$&'()*+,;=:@/?#[]% \"<>{}|\\^`\t"


@st.composite
def near_valid_reference(draw):
    parts = []
    if draw(st.integers(0, 5)):
        parts.append(draw(st.sampled_from(_SCHEMES)) + ":")
    if draw(st.integers(0, 3)):
        parts.append("//")
        if not draw(st.integers(0, 4)):
            parts.append(draw(st.sampled_from(["user", "u:p", "U@", "a%40b", ""])) + "@")
        parts.append(draw(st.sampled_from(_HOSTS)) + draw(st.sampled_from(_PORTS)))
        lead = "/"
    else:
        lead = draw(st.sampled_from(["", "/", "//", "./", "../"]))
    segs = draw(st.lists(st.sampled_from(_SEGMENTS), max_size=5))
    if segs:
        parts.append(lead + "/".join(segs))
    parts.append(draw(st.sampled_from(_TAILS)))
    return "".join(parts)


references = st.one_of(near_valid_reference(), st.text(st.sampled_from(_ASCII_SOUP), max_size=30))
_DEFAULTS = None
_ALL = Settings(select=("ALL",))


@settings(max_examples=600, deadline=None)
@given(references)
@example("//u:p@a..b")  # a userinfo colon is no scheme's: IRI505 on both paths
@example("HTTP://a..b/")
def test_fast_path_finds_what_the_slow_path_finds(value):
    for st_ in (_DEFAULTS, _ALL):
        assert _check(value, st_, True) == _check(value, st_, False)


@settings(max_examples=600, deadline=None)
@given(references)
def test_a_fast_match_has_no_trait_and_no_finding_from_the_silent_rules(value):
    if fast_match(value) is None:
        return
    # No trait: the trait rules would not run on it (engine.check_text's test).
    assert value.isascii() and "%" not in value and "xn--" not in value.lower()
    assert parse(value).problems == []
    res = Engine().check_text(value, settings=_Select(sorted(SILENT_ON_FAST)), scanner=_WholeTextScanner())
    assert not res.errors and res.findings == []


def _Select(names):
    from irilint.config import Settings

    return Settings(select=tuple(names))


@pytest.mark.parametrize("value", [
    "https://example.com/docs/page-1.html",
    "http://www.example.org/search?q=item1&lang=en",
    "ftp://ftp.example.net/pub/file-1.tar.gz",
    "https://example.net/a/b/c/1#section-1",
    "https://github.com/o/r/blob/main/.github/workflows/ci.yml",
    "http://127.0.0.1:8080/",
    "mailto:someone@example.org",
    "//example.org/x",
    # an empty port is grammatical; only default-port flags it, and that rule
    # turns the fast path off (last test of this group)
    "http://example.org:/", "http://http://http://",
])
def test_ordinary_references_take_the_fast_path(value):
    assert fast_match(value) is not None


@pytest.mark.parametrize("value", [
    "HTTP://example.org/", "http://Example.org/", "http://example.org/a/../b", "http://example.org/./",
    "http://xn--bcher-kva.de/", "http://XN--bcher-kva.de/", "http://example.org/%41", "http://example.org/é",
    "http://example.org/a b", "http://[::1]/", "http://example.org:65536/",
    "http://example.org/#a#b", "1http://x/", "//EXAMPLE/x", "http://u@v@example.org/",
])
def test_references_a_rule_may_flag_take_the_slow_path(value):
    assert fast_match(value) is None


def test_the_fast_path_is_on_for_the_default_rules_and_off_for_rules_it_cannot_vouch_for():
    reference_rules = [r for r in select_rules().rules if r.scope == "reference"]
    assert fast_matcher(reference_rules) is not None
    every = [r for r in select_rules(select=("ALL",)).rules if r.scope == "reference"]
    assert fast_matcher(every) is None  # ascii-lookalike, default-port
    assert get_rule("ascii-lookalike").needs is None and "ascii-lookalike" not in SILENT_ON_FAST
    assert set(TRAITS) == {"non_ascii", "percent", "punycode"}


# -- documents: the document rules see fast-path references too ------------------

_DOC_HOSTS = ["paypal.com", "раураl.com", "example.org", "exаmple.org", "Example.org", "example.org.",
              "127.0.0.1", "xn--pypal-4ve.com", "apple.com", "аррӏе.com", "paypa1.com"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_DOC_HOSTS), st.sampled_from(["/", "/a", "/./b", "?q", ":8080/"])),
                min_size=1, max_size=8),
       st.lists(st.sampled_from(["paypal.com", "example.org", "apple.com"]), max_size=2))
def test_documents_give_the_same_findings_on_both_paths(refs, protected):
    text = "".join("line %d: see https://%s%s for details.\n" % (i, h, p) for i, (h, p) in enumerate(refs))
    st_ = Settings(protected_domains=tuple(protected))
    scanner = scanner_for(path="doc.txt")
    fast_state, slow_state = {}, {}
    for other in ("see https://аррӏе.com/ and https://example.org/\n", text):  # two files, one run
        fast = _check(other, st_, True, scanner, fast_state)
        slow = _check(other, st_, False, scanner, slow_state)
        assert fast == slow


def test_a_collision_with_an_ascii_host_on_the_fast_path_is_reported():
    text = "see https://раураl.com/a and https://paypal.com/b and https://paypal.com/c\n"
    # the pair is reported once, on the host that is not ASCII; with the
    # protected domain too (one finding names both)
    for st_, expected in ((Settings(), ["раураl.com"]),
                          (Settings(protected_domains=("paypal.com",)), ["раураl.com"])):
        found = _check(text, st_, True, scanner_for(path="doc.txt"))
        hits = [(f[2], f[3]) for f in found if f[0] == "IRI205"]
        assert [text[a:b] for a, b in hits] == expected
        assert found == _check(text, st_, False, scanner_for(path="doc.txt"))


@pytest.mark.parametrize("filler", ["a", "-", ".", "/", "a-b/c.d"])
def test_long_values_take_the_same_path_as_short_ones(filler):
    # values over 4 KB test "--" and "/." with a regex search instead of str's
    body = (filler * 5000)[:5000]
    for tail in ("", "/xn--a", "/XN--a", "/./", "/../x", "/x--y", "/.x"):
        for value in ("http://example.org/" + body + tail, "http://example.org/" + tail + body):
            short = fast_match("http://example.org/" + tail) is None
            assert (fast_match(value) is None) == (short or fast_match("http://example.org/" + body) is None), value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xXnN-a\u0130\u212a.", max_size=40), st.integers(0, 5000))
def test_punycode_trait_is_xn_dashes_in_any_case(text, padding):
    from irilint.rules.registry import has_punycode_trait

    for value in (text, "a" * padding + text):  # long values take the regex search
        assert has_punycode_trait(value) == ("xn--" in value.lower())
