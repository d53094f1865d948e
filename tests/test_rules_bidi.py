"""The bidi rules: bidi-control, bidi-control-encoded, bidi-mixed-direction,
bidi-component-edge, idn-bidi-rule."""
from __future__ import annotations

import os
import re
import unicodedata

import pytest

from irilint.chars import BIDI_CONTROLS
from irilint.engine import Engine, check_reference
from irilint.findings import Severity
from irilint.rules.bidi import bidi_class, bidi_rule_violations
from irilint.rules.registry import DOC_SECTIONS, get_rule

BIDI_RULES = ["bidi-control", "bidi-control-encoded", "bidi-mixed-direction",
              "bidi-component-edge", "idn-bidi-rule"]

# The specifications lie beside the repository (../shared/seeds), as on the
# project's machines and in CI.
SEED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.pardir,
                    "shared", "seeds", "003_9b31c56418cd75f7.txt")

RLO = "\u202e"
ZWNJ = "\u200c"


def check(value, select=BIDI_RULES):
    return check_reference(value, select=list(select))


def summary(value, select=BIDI_RULES):
    """(rule, reported text) of each finding, in order."""
    return [(f.rule.name, value[f.start:f.end]) for f in check(value, select)]


def apply(text, fix):
    for e in sorted(fix.edits, key=lambda e: e.start, reverse=True):
        text = text[:e.start] + e.new_text + text[e.end:]
    return text


def span_of(value, part, after=0):
    i = value.index(part, after)
    return i, i + len(part)


# -- the 11 examples of draft-ietf-iri-bidi-guidelines -------------------------

# Bidi Notation: uppercase letters stand for right-to-left letters.  The
# Arabic and Hebrew letters are those of the draft's <ionly> spans (which
# hold the logical text): A -> alef, B -> beh / bet, ...
AR = dict(zip("ABCDEFGHIJKLMNOPQRSTUV", "ابتثجحخدذرزسشصضطظعغفقك"))
HE = dict(zip("ABCDEFGHIJKLMNOPQRSTUV", "אבגדהוזחטיכלמןסעפץקרשת"))

EXAMPLES = {
    1: "http://ab.CDEFGH.ij/kl/mn/op.html",
    2: "http://ab.CDE.FGH/ij/kl/mn/op.html",
    3: "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV",
    4: "http://AB.CD.ef/gh/IJ/KL.html",
    5: "http://ab.cd.EF/GH/ij/kl.html",
    6: "http://ab.CD.EF/GH/IJ/kl.html",
    7: "http://ab.CDE123FGH.ij/kl/mn/op.html",
    8: "http://ab.cd.ef/GH1/2IJ/KL.html",
    9: "http://ab.cd.ef/GH%31/%32IJ/KL.html",
    10: "http://ab.CDEFGH.123/kl/mn/op.html",
    11: "http://ab.CDEFGH.123ij/kl/mn/op.html",
}

# What each example gives, in Bidi Notation: (rule, reported text).
EXPECTED = {
    1: [], 2: [], 3: [], 4: [], 5: [], 6: [],
    7: [],  # digits inside an rtl component are fine
    8: [("bidi-component-edge", "GH1"), ("bidi-component-edge", "2IJ")],
    9: [("bidi-component-edge", "GH%31"), ("bidi-component-edge", "%32IJ")],
    # "Allowed but not recommended": no component finding ("123" and "123ij"
    # have no right-to-left letter), but in a domain name with an rtl label
    # the Bidi Rule of IDNA applies to every label, and a label starting
    # with a digit breaks its condition 1.
    10: [("idn-bidi-rule", "123")],
    11: [("idn-bidi-rule", "123ij")],
}


def to_script(bn, letters):
    return "".join(letters.get(c, c) for c in bn)


def test_letter_mapping_matches_the_drafts_arabic_and_hebrew_examples():
    if not os.path.exists(SEED):
        # CI always has the seeds beside the checkout: there the test fails.
        message = "the bidi guidelines draft is not at %s" % os.path.normpath(SEED)
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with open(SEED, encoding="utf-8") as f:
        xml = f.read()
    found = re.findall(
        r"Example (\d+)[^\n]*:.*?Logical representation \(BN\): \"([^\"]*)\""
        r".*?\(AR\): \"<span\s+dir='ltr'>([^<]*)</span>\""
        r".*?\(HE\): \"<span\s+dir='ltr'>([^<]*)</span>\"", xml, re.S)
    assert [int(n) for n, *_ in found] == list(range(1, 12))
    for n, bn, ar, he in found:
        assert bn == EXAMPLES[int(n)]
        # Example 9 has its AR and HE lines swapped in the draft.
        assert {to_script(bn, AR), to_script(bn, HE)} == {ar, he}, n


@pytest.mark.parametrize("letters", [AR, HE], ids=["arabic", "hebrew"])
@pytest.mark.parametrize("n", sorted(EXAMPLES))
def test_guideline_examples(n, letters):
    value = to_script(EXAMPLES[n], letters)
    got = [(f.rule.name, f.start, f.end) for f in check(value)]
    want = []
    after = 0
    for name, part in EXPECTED[n]:
        s, e = span_of(value, to_script(part, letters), after)
        want.append((name, s, e))
        after = e
    assert got == want


@pytest.mark.parametrize("letters", [AR, HE], ids=["arabic", "hebrew"])
def test_example_8_messages_and_fix(letters):
    value = to_script(EXAMPLES[8], letters)
    f1, f2 = check(value, ["bidi-component-edge"])
    assert f1.code == "IRI104" and f1.severity == Severity.WARNING
    assert "path segment" in f1.message and "ends with U+0031 DIGIT ONE" in f1.message
    assert "starts with U+0032 DIGIT TWO" in f2.message
    (fix,) = f1.fixes
    assert not fix.safe
    # The whole component is percent-encoded: only ASCII remains.
    gh = to_script("GH", letters)
    encoded = "".join("%%%02X" % b for b in gh.encode("utf-8")) + "1"
    assert apply(value, fix) == value.replace(gh + "1", encoded)


@pytest.mark.parametrize("letters", [AR, HE], ids=["arabic", "hebrew"])
def test_example_9_fix_encodes_the_whole_component(letters):
    value = to_script(EXAMPLES[9], letters)
    f1, f2 = check(value, ["bidi-component-edge"])
    assert "%31" in f1.message and "%32" in f2.message
    gh = to_script("GH", letters)
    ij = to_script("IJ", letters)
    enc = lambda s: "".join("%%%02X" % b for b in s.encode("utf-8"))  # noqa: E731
    assert apply(value, f1.fixes[0]) == value.replace(gh + "%31", enc(gh) + "%31")
    assert apply(value, f2.fixes[0]) == value.replace("%32" + ij, "%32" + enc(ij))
    assert not f1.fixes[0].safe and not f2.fixes[0].safe


def test_examples_10_and_11_name_condition_1():
    (f,) = check(to_script(EXAMPLES[10], HE))
    assert f.code == "IRI105" and "condition 1" in f.message and "U+0031 DIGIT ONE" in f.message
    assert '"123"' in f.message and not f.fixes
    (f,) = check(to_script(EXAMPLES[11], AR))
    assert "condition 1" in f.message and '"123ij"' in f.message


# -- spoofs with bidi controls ---------------------------------------------------

@pytest.mark.parametrize("escape", ["%E2%80%AE", "%e2%80%ae", "%E2%80%ae"])
def test_percent_encoded_rlo(escape):
    value = "http://example.com/abc%sgpj.exe" % escape
    (f,) = check(value)
    assert f.rule.name == "bidi-control-encoded" and f.code == "IRI102"
    assert (f.start, f.end) == span_of(value, escape)
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in f.message
    assert "RFC 3987 s3.2" in f.message and "would reverse the display" in f.message
    assert 'path segment "abc<U+202E>gpj.exe"' in f.message
    assert '"http://example.com/abcexe.jpg"' in f.message
    (fix,) = f.fixes
    assert not fix.safe
    assert apply(value, fix) == "http://example.com/abcgpj.exe"


def test_percent_encoded_alm_is_two_octets():
    value = "http://example.com/?q=%D8%9Cabc"
    (f,) = check(value)
    assert f.rule.name == "bidi-control-encoded"
    assert (f.start, f.end) == span_of(value, "%D8%9C")
    assert "U+061C ARABIC LETTER MARK" in f.message and "query value" in f.message


@pytest.mark.parametrize("cp", sorted(BIDI_CONTROLS), ids=lambda cp: "U+%04X" % cp)
def test_every_bidi_control(cp):
    ch = chr(cp)
    literal = "http://example.com/a%sb" % ch
    (f,) = check(literal)
    assert f.rule.name == "bidi-control" and (f.start, f.end) == (20, 21)
    assert f.message.startswith("U+%04X %s" % (cp, unicodedata.name(ch)))
    encoded = "".join("%%%02X" % b for b in ch.encode("utf-8"))
    value = "http://example.com/a%sb" % encoded
    (f,) = check(value)
    assert f.rule.name == "bidi-control-encoded" and value[f.start:f.end] == encoded


def test_literal_rlo():
    value = "http://example.com/abc%sgpj.exe" % RLO
    (f,) = check(value)
    assert f.rule.name == "bidi-control" and f.code == "IRI101"
    assert f.severity == Severity.ERROR
    assert (f.start, f.end) == (22, 23)
    assert f.message.startswith('U+202E RIGHT-TO-LEFT OVERRIDE in the path segment "abc<U+202E>gpj.exe"')
    assert 'shown as "http://example.com/abcexe.jpg"' in f.message
    (fix,) = f.fixes
    assert not fix.safe
    assert apply(value, fix) == "http://example.com/abcgpj.exe"


def test_controls_are_not_counted_as_letters():
    # RLM is class R, LRM class L: neither makes a component mixed or rtl.
    for value in ("http://example.com/abc\u200fdef", "http://example.com/\u05d0\u200e\u05d1"):
        assert [f.rule.name for f in check(value)] == ["bidi-control"]


def test_punycode_rtl_label_next_to_a_digit_label():
    value = "http://xn--4dbrk0ce.1ab/"  # xn--4dbrk0ce is "ישראל"
    (f,) = check(value)
    assert f.rule.name == "idn-bidi-rule" and f.code == "IRI105"
    assert (f.start, f.end) == span_of(value, "1ab")
    assert '"1ab"' in f.message and "condition 1" in f.message
    assert "U+0031 DIGIT ONE" in f.message
    assert "\u05d9\u05e9\u05e8\u05d0\u05dc" in f.message  # the decoded rtl label


def test_bidi_control_hidden_in_punycode():
    value = "http://xn--abc-7q0a.com/"  # "abc" + U+202E
    (f,) = check(value, ["bidi-control-encoded"])
    assert (f.start, f.end) == span_of(value, "xn--abc-7q0a")
    assert "U+202E" in f.message and "Punycode" in f.message


# -- HTML character references -------------------------------------------------

@pytest.mark.parametrize("ref", ["&#x202E;", "&#8238;", "&#X202e;"])
def test_html_character_reference(ref):
    html = '<p><a href="http://example.com/abc%sgpj.exe">photo</a></p>\n' % ref
    result = Engine().check_text(html, path="t.html")
    found = [f for f in result.findings if f.rule.name == "bidi-control"]
    assert len(found) == 1, result.findings
    f = found[0]
    assert (f.start, f.end) == span_of(html, ref)
    (fix,) = f.fixes
    assert apply(html, fix) == html.replace(ref, "")


def test_html_character_reference_with_the_html_scanner():
    # Same as above without the scanner registry.
    from irilint.scanners.html import HtmlScanner

    html = '<a href="http://example.com/abc&#x202E;gpj.exe">x</a> <a href="/%E2%80%AE">y</a>'
    result = Engine().check_text(html, scanner=HtmlScanner())
    got = [(f.rule.name, html[f.start:f.end]) for f in result.findings if f.rule.family == "bidi"]
    assert got == [("bidi-control", "&#x202E;"), ("bidi-control-encoded", "%E2%80%AE")]


# -- mixed direction and edges ---------------------------------------------------

def test_mixed_direction():
    value = "http://example.com/docs-\u05ea\u05d9\u05e2\u05d5\u05d3/x"
    (f,) = check(value)
    assert f.rule.name == "bidi-mixed-direction" and f.code == "IRI103"
    assert f.severity == Severity.WARNING
    assert (f.start, f.end) == span_of(value, "docs-\u05ea\u05d9\u05e2\u05d5\u05d3")
    assert "U+05EA HEBREW LETTER TAV" in f.message and "U+0064 LATIN SMALL LETTER D" in f.message
    assert "path segment" in f.message
    (fix,) = f.fixes
    assert not fix.safe
    assert apply(value, fix) == "http://example.com/docs-%D7%AA%D7%99%D7%A2%D7%95%D7%93/x"


def test_mixed_direction_in_query_and_fragment():
    value = "http://example.com/?q=abc\u05d0#\u0627x"
    assert summary(value) == [("bidi-mixed-direction", "abc\u05d0"), ("bidi-mixed-direction", "\u0627x")]


def test_mixed_direction_partly_percent_encoded():
    # one right-to-left letter is shown as itself: the component mixes
    value = "http://example.com/abc%D7%90\u05d1"
    (f,) = check(value)
    assert f.rule.name == "bidi-mixed-direction"
    assert (f.start, f.end) == span_of(value, "abc%D7%90\u05d1")
    assert "percent-encoded as %D7%90" in f.message


@pytest.mark.parametrize("value", [
    # every right-to-left letter encoded: the component is shown as ASCII,
    # the guidelines' remedy for rules 1 and 2 (RFC 3987 s4.2)
    "http://example.com/abc%D7%90",                                   # Hebrew
    "http://example.com/docs-%D7%AA%D7%99%D7%A2%D7%95%D7%93/x",       # Hebrew, the mixed fix's output
    "http://example.com/%D8%A7%D9%84%D9%82%D8%A7%D9%87%D8%B1%D8%A91",  # Arabic ending with a digit
    "http://example.com/2%D9%85%DB%8C%E2%80%8C%D8%AE%D9%88%D8%A7%D9%87%D9%85",  # Persian, ZWNJ
    "http://example.com/?q=v1-%D7%A9%D7%9C%D7%95%D7%9D",              # a query value
])
def test_all_rtl_letters_percent_encoded_is_no_component_finding(value):
    assert summary(value, ("bidi-mixed-direction", "bidi-component-edge")) == []


def test_encoded_bidi_control_in_an_encoded_component_is_still_found():
    value = "http://example.com/abc%E2%80%AE%D7%90"
    assert [f.rule.name for f in check(value)] == ["bidi-control-encoded"]


def test_rtl_with_digits_gets_only_the_edge_finding():
    value = "http://example.com/1\u05d0\u05d1"
    assert summary(value) == [("bidi-component-edge", "1\u05d0\u05d1")]


def test_mixed_and_digit_edge_both_apply():
    value = "http://example.com/\u05d0\u05d1abc1"
    assert summary(value) == [("bidi-mixed-direction", "\u05d0\u05d1abc1"),
                              ("bidi-component-edge", "\u05d0\u05d1abc1")]
    edge = check(value)[1]
    assert "ends with U+0031" in edge.message and "starts" not in edge.message


def test_mixed_with_ltr_edge_is_not_an_edge_finding():
    assert summary("http://example.com/abc\u05d0\u05d1") == [("bidi-mixed-direction", "abc\u05d0\u05d1")]


@pytest.mark.parametrize("segment", [
    "\u05de\u05b6\u05dc\u05b6\u05da\u05b0",  # Hebrew with points, ends with SHEVA
    "\u0631\u064e\u0628\u0651\u0650",  # Arabic ending with SHADDA, KASRA
])
def test_combining_marks_at_the_end_take_the_letters_direction(segment):
    assert check("http://example.com/%s" % segment) == []


@pytest.mark.parametrize("segment", ["\u05d0\u05d1!", "\u05d0\u05d1_", "-\u05d0\u05d1", "\u0635\u0641\u062d\u0629\u0663"])
def test_edge_neutrals_and_arabic_indic_digits(segment):
    assert summary("http://example.com/%s" % segment) == [("bidi-component-edge", segment)]


def test_rtl_host_label_ending_with_a_digit():
    # Allowed by the Bidi Rule (condition 3), not by the guidelines' rule 2.
    value = "http://\u05d0\u05d11.example/"
    (f,) = check(value)
    assert f.rule.name == "bidi-component-edge" and "host label" in f.message
    assert (f.start, f.end) == span_of(value, "\u05d0\u05d11")
    assert f.fixes == []


# -- the Bidi Rule ---------------------------------------------------------------

@pytest.mark.parametrize("label, conditions", [
    ("\u05d0\u05d1", []),
    ("abc", []),
    ("a1", []),
    ("1ab", [1]),
    ("-ab", [1]),
    ("\u05d0\u05d1c", [2, 3]),
    ("\u05d0\u05d1-", [3]),
    ("\u05d01\u0663\u05d1", [4]),
    ("a\u05d0", [5, 6]),
    ("a\u0663b", [5]),
    ("ab-", [6]),
    ("\u05d0\u05d11", []),
    ("\u0627\u0663", []),
    ("\u05de\u05b6\u05dc\u05b6\u05da\u05b0", []),
    ("\u0301a", [1]),
])
def test_bidi_rule_conditions(label, conditions):
    assert [n for n, _ in bidi_rule_violations(label)] == conditions


def test_bidi_rule_checks_ltr_labels_of_a_bidi_domain():
    value = "http://ab-.\u05d0\u05d1.com/"
    (f,) = check(value)
    assert f.rule.name == "idn-bidi-rule" and (f.start, f.end) == span_of(value, "ab-")
    assert "condition 6" in f.message and "U+002D HYPHEN-MINUS" in f.message
    # Without an rtl label the Bidi Rule does not apply.
    assert check("http://ab-.example.com/") == []


def test_bidi_rule_arabic_indic_digit_makes_a_bidi_domain():
    value = "http://a\u0663.1b.com/"
    got = [(f.rule.name, value[f.start:f.end]) for f in check(value)]
    assert got == [("idn-bidi-rule", "a\u0663"), ("idn-bidi-rule", "1b")]


def test_bidi_rule_on_percent_encoded_host():
    value = "http://%D7%90%D7%91c.com/"
    (f,) = check(value)
    assert f.rule.name == "idn-bidi-rule" and (f.start, f.end) == span_of(value, "%D7%90%D7%91c")
    assert "condition 2" in f.message and "U+0063 LATIN SMALL LETTER C" in f.message


def test_bidi_rule_only_for_reg_names():
    assert check("http://[::1]/\u05d0\u05d1") == []
    assert check("http://127.0.0.1/\u05d0\u05d1") == []


# -- what must not be flagged ----------------------------------------------------

LEGITIMATE = [
    "http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/\u0645\u0633\u0627\u0631/\u0635\u0641\u062d\u0629",
    "http://\u05d3\u05d5\u05d2\u05de\u05d4.\u05d8\u05e2\u05e1\u05d8/\u05e0\u05ea\u05d9\u05d1/\u05d3\u05e3",
    "https://fa.wikipedia.org/wiki/\u0645\u06cc" + ZWNJ + "\u062e\u0648\u0627\u0647\u0645",
    "https://he.wikipedia.org/wiki/\u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd",
    "https://ar.wikipedia.org/wiki/\u0627\u0644\u0642\u0627\u0647\u0631\u0629",
    "http://example.com/\u0645\u062b\u0627\u0644\u0663\u0645\u062b\u0627\u0644",
    "http://example.com/search?q=\u05e9\u05dc\u05d5\u05dd",
    "http://example.com/\u05d3\u05e3.html",
    "http://example.com/%D7%93%D7%A3.html",
    "http://xn--4dbrk0ce.xn--4dbrk0ce/",
    "http://example.com/\u65e5\u672c\u8a9e/\u041c\u043e\u0441\u043a\u0432\u0430/\u4e2d\u6587abc",
    "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/\u0441\u0442\u0440\u0430\u043d\u0438\u0446\u0430",
    "http://example.com/caf\u00e9-123/r\u00e9sum\u00e9.pdf",
    "http://example.com/100%25",
]


@pytest.mark.parametrize("value", LEGITIMATE)
def test_legitimate_iris_give_no_finding(value):
    assert check(value) == []


def test_zwnj_is_not_a_bidi_control():
    assert bidi_class(ZWNJ) == "BN" and ord(ZWNJ) not in BIDI_CONTROLS


def test_bidi_class_of_unassigned_rtl_code_points():
    assert bidi_class("\u05d0") == "R" and bidi_class("\u0627") == "AL"
    if not unicodedata.bidirectional("\u05ff"):  # unassigned in the Hebrew block
        assert bidi_class("\u05ff") == "R"
    assert bidi_class("\U0001ee00") in ("AL",)  # Arabic Mathematical Alphabetic Symbols


# -- metadata --------------------------------------------------------------------

@pytest.mark.parametrize("name, code, severity", [
    ("bidi-control", "IRI101", "error"),
    ("bidi-control-encoded", "IRI102", "error"),
    ("bidi-mixed-direction", "IRI103", "warning"),
    ("bidi-component-edge", "IRI104", "warning"),
    ("idn-bidi-rule", "IRI105", "error"),
])
def test_rule_metadata(name, code, severity):
    r = get_rule(name)
    assert r is not None and r.code == code and r.family == "bidi"
    assert r.summary.endswith(".")  # one line: the registry takes the first
    assert r.severity == Severity.parse(severity)
    for section in DOC_SECTIONS:
        assert "## %s\n" % section in r.doc
