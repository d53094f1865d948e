"""Tests for the IDN display policy (server/idn_display.py, rules/idn_policy.py:
IRI208-IRI211, and its parts in mixed-script, whole-script-confusable and
punycode-label)."""
from __future__ import annotations

import idna
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint.config import Settings
from irilint.engine import Engine
from irilint.idn_display import (
    DIGIT_LOOKALIKES,
    display_verdict,
    imitation,
    label_issues,
    map_label,
    scx_names,
)
from irilint.rules.registry import DOC_SECTIONS, get_rule
from irilint.scanners.base import Candidate
from irilint.unicode_security import script_of, scripts_in

POLICY_RULES = ("idn-restricted-character", "idn-digit-lookalike", "idn-dangerous-pattern", "idn-tld-character")
LOOKALIKE_AND_HOST = POLICY_RULES + (
    "delimiter-lookalike", "fullwidth-form", "mixed-script", "whole-script-confusable", "confusable-collision",
    "invisible-character", "idn-invalid", "punycode-invalid", "idna-deviation", "idn-bidi-rule")


class _OneRef:
    name = "reference"
    comments = ()

    def scan(self, text):
        return [Candidate(0, len(text), text)] if text else []


def run(value, select=POLICY_RULES, **kw):
    if isinstance(select, str):
        select = (select,)
    result = Engine().check_text(value, settings=Settings(select=tuple(select), **kw), scanner=_OneRef())
    assert result.errors == []
    return result.findings


def one(value, rule, **kw):
    fs = run(value, rule, **kw)
    assert len(fs) == 1, [(f.rule.name, f.message) for f in fs]
    return fs[0]


def spanned(value, f):
    return value[f.start:f.end]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, code", [
    ("idn-restricted-character", "IRI208"), ("idn-digit-lookalike", "IRI209"),
    ("idn-dangerous-pattern", "IRI210"), ("idn-tld-character", "IRI211"),
])
def test_registered_with_docs_and_no_fix(name, code):
    r = get_rule(name)
    assert (r.code, r.family, r.severity.label, r.enabled, r.fix) == (code, "lookalike", "warning", True, "none")
    for section in DOC_SECTIONS:
        assert "## %s\n" % section in r.doc, (name, section)


# ---------------------------------------------------------------------------
# Step 1: identifier status
# ---------------------------------------------------------------------------

def test_limited_use_script_is_reported_with_its_type_and_script():
    value = "http://\u2d30\u2d4e\u2d30\u2d63\u2d49\u2d56.com/"  # Tifinagh
    f = one(value, "idn-restricted-character")
    assert (f.code, spanned(value, f)) == ("IRI208", "\u2d30\u2d4e\u2d30\u2d63\u2d49\u2d56")
    assert "U+2D30 TIFINAGH LETTER YA (Tifinagh)" in f.message
    assert "Limited_Use" in f.message and "identifier status" in f.message


def test_restricted_character_position_and_punycode():
    value = "http://ex\u16a0mple.com/"  # U+16A0 RUNIC LETTER FEHU FEOH FE F
    f = one(value, "idn-restricted-character")
    assert (f.start, f.end) == (9, 10) and "Exclusion" in f.message and "(Runic)" in f.message
    label = idna.encode("ex\u1d00mple").decode("ascii")  # U+1D00 LATIN LETTER SMALL CAPITAL A
    value = "http://%s.com/" % label
    f = one(value, "idn-restricted-character")
    assert spanned(value, f) == label and "Punycode" in f.message
    assert "U+1D00 LATIN LETTER SMALL CAPITAL A" in f.message


def test_browser_excluded_allowed_characters():
    f = one("http://\u1e37ily.com/", "idn-restricted-character")  # U+1E37 l with dot below
    assert "excluded by browsers" in f.message and "Latin Extended Additional" in f.message


@pytest.mark.parametrize("value", [
    "http://b\u00fccher.de/", "http://\u4f8b\u3048.\u30c6\u30b9\u30c8/", "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/",
    "http://ti\u1ebfngvi\u1ec7t.vn/",  # Vietnamese: Latin Extended Additional above U+1E9B is fine
    "http://example.com/\u2d30",  # paths are not host labels
])
def test_allowed_labels_are_not_restricted(value):
    assert run(value, "idn-restricted-character") == []


def test_yiddish_points_on_hebrew_letters():
    assert run("http://\u05d1\u05f2\u05b7\u05e9\u05e4\u05bc\u05d9\u05dc.\u05d8\u05e2\u05e1\u05d8/",
               "idn-restricted-character") == []
    # not on a Latin letter, and not other Uncommon_Use points (U+05B0 SHEVA)
    assert len(run("http://\u05d0\u05b0\u05d1.com/", "idn-restricted-character")) == 1
    assert len(run("http://a\u05b7b.com/", "idn-restricted-character")) == 1


def test_delimiter_lookalikes_and_invisibles_are_left_to_their_rules():
    assert run("http://a\u2044b.com/", "idn-restricted-character") == []  # FRACTION SLASH: IRI201
    assert run("http://a\u00adb.com/", "idn-restricted-character") == []  # SOFT HYPHEN: IRI206


# ---------------------------------------------------------------------------
# Step 2: restriction levels (mixed-script on host labels)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, partner", [
    ("g\u0585\u0585gle", "Armenian"),   # Armenian oh
    ("a\u0645\u062b\u0627\u0644", "Arabic"),
    ("t\u0e44y", "Thai"),
])
def test_host_label_latin_with_a_non_cjk_script_is_reported(label, partner):
    f = one("http://%s.com/" % label, "mixed-script")
    assert "Moderately Restrictive" in f.message and partner in f.message


def test_host_label_policy_message_says_what_it_looks_like():
    f = one("http://g\u0585\u0585gle.com/", "mixed-script")
    assert "looks like 'google'" in f.message
    f = one("http://p\u0430ypal.com/", "mixed-script")
    assert "looks like 'paypal'" in f.message


def test_non_ascii_latin_beside_cjk():
    f = one("http://caf\u00e9\u30c6\u30b9\u30c8.jp/", "mixed-script")
    assert "U+00E9 LATIN SMALL LETTER E WITH ACUTE" in f.message


@pytest.mark.parametrize("value", [
    "http://tokyo\u6771\u4eac.jp/",                  # Latin + Han (Japanese)
    "http://seoul\uc11c\uc6b8.kr/",                   # Latin + Hangul
    "http://taiwan\u53f0\u7063\u3105.tw/",           # Latin + Han + Bopomofo
    "http://example.com/a\u0645\u062b\u0627\u0644",  # words outside the host: Moderately Restrictive is enough
])
def test_highly_restrictive_mixtures_pass(value):
    assert run(value, "mixed-script") == []


def test_host_policy_respects_allowed_scripts():
    assert run("http://a\u0645\u062b\u0627\u0644.com/", "mixed-script", allowed_scripts=("Arabic",)) == []


# ---------------------------------------------------------------------------
# Step 3: digit look-alikes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, reads", [
    ("\u0a68\u0a68\u0a68", "222"),   # Gurmukhi digit two
    ("1\u0577", "12"),               # Armenian sha
    ("\u10d56", "36"),               # Georgian vin
])
def test_digit_lookalike_labels(label, reads):
    value = "http://%s.com/" % label
    f = one(value, "idn-digit-lookalike")
    assert f.code == "IRI209" and "'%s'" % reads in f.message
    # one root cause, one finding: not also a whole-script confusable
    assert run(value, "whole-script-confusable") == []


def test_mixed_numbering_systems():
    value = "http://\u0661\u06623.com/"
    f = one(value, "idn-digit-lookalike")
    assert "2 numbering systems" in f.message and "U+0661 ARABIC-INDIC DIGIT ONE" in f.message
    assert spanned(value, f) == "\u0661\u0662"


@pytest.mark.parametrize("value", [
    "http://\u0968\u0966\u0968\u096a.\u092d\u093e\u0930\u0924/",  # a Devanagari year under a Devanagari TLD
    "http://\u0661\u0662\u0663.\u0645\u0635\u0631/",              # Arabic-Indic digits only
    "http://123.com/", "http://\u043a\u043e\u0434123.com/",
])
def test_digits_of_one_system_are_fine(value):
    assert run(value, "idn-digit-lookalike") == []


# ---------------------------------------------------------------------------
# Step 4: dangerous patterns
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, needle", [
    ("\u30fcabc", "U+30FC"),                   # prolonged sound mark outside kana
    ("a\u30fbb", "U+30FB"),                    # katakana middle dot beside Latin
    ("\u30ab\u30bf\u30ab\u3078\u30ca", "U+3078"),  # hiragana he among katakana
    ("a\u4e00b", "U+4E00"),                    # Han one beside Latin
    ("cy\u4e42e", "U+4E42"),                   # Han that reads as x
    ("d12\u4e00", "U+4E00"),                   # ends a Latin-looking name after digits
    ("\u0131\u0307x", "DOTLESS I"),            # dotless i under a dot
    ("i\u0307x", "puts a second dot"),
    ("x\u0301\u0301", "repeated"),
    ("\u00e9\u0301x", "already carries a mark"),
    ("\u0628\u0301", "over U+0628"),           # Latin diacritic over an Arabic letter
    ("1\u0301", "over U+0031"),                # over a digit
    ("\u30c8\u309a\u309a", "follows another mark"),
])
def test_dangerous_patterns(label, needle):
    fs = run("http://%s.com/" % label, "idn-dangerous-pattern")
    assert fs and all(f.code == "IRI210" for f in fs)
    assert any(needle in f.message for f in fs), [f.message for f in fs]


def test_a_run_of_one_repeated_mark_is_one_finding():
    # a browser judges the label once; one finding per mark made 500,000
    # findings of a megabyte of marks
    value = "http://x" + "\u0301" * 5 + "y.com/"
    f = one(value, "idn-dangerous-pattern")
    assert spanned(value, f) == "\u0301" * 4  # each mark after the first
    assert ": the combining mark U+0301 COMBINING ACUTE ACCENT is repeated 4 times after the first;" in f.message


def test_one_repeat_is_said_as_before_and_each_run_is_its_own_finding():
    value = "http://x\u0301\u0301q\u0323\u0323\u0323x\u0301\u0301.com/"  # no letter composes with them
    fs = run(value, "idn-dangerous-pattern")
    assert [(spanned(value, f), f.message.split(": ", 1)[1].split(";")[0]) for f in fs] == [
        ("\u0301", "the combining mark U+0301 COMBINING ACUTE ACCENT is repeated"),
        ("\u0323\u0323", "the combining mark U+0323 COMBINING DOT BELOW is repeated 2 times after the first"),
        ("\u0301", "the combining mark U+0301 COMBINING ACUTE ACCENT is repeated"),
    ]


def test_a_repeated_mark_after_a_different_one_starts_its_own_run():
    value = "http://x\u0323\u0301\u0301\u0301.com/"
    messages = [f.message for f in run(value, "idn-dangerous-pattern")]
    assert sum("is repeated 2 times after the first" in m for m in messages) == 1
    assert not any("is repeated;" in m for m in messages)


def test_dangerous_pattern_position_is_the_character():
    value = "http://abc\u30fcdef.com/"
    f = one(value, "idn-dangerous-pattern")
    assert spanned(value, f) == "\u30fc"


@pytest.mark.parametrize("value", [
    "http://\u30ce\u30fc\u30c8.jp/",            # ノート
    "http://\u30bd\u30cb\u30fc.jp/",            # ソニー
    "http://\u30d3\u30bf\u30df\u30f3b6.jp/",    # vitamin b6 in katakana
    "http://www.\u4e00123.com/",                # Han one before digits
    "http://\u30c8\u309a.jp/",                  # one semi-voiced mark on katakana
    "http://ti\u1ebfngvi\u1ec7t.vn/",           # Vietnamese: two diacritics compose into one letter
    "http://\u0e17\u0e35\u0e48.th/",            # Thai vowel and tone marks
    "http://\u0d2e\u0d32\u0d2f\u0d3e\u0d33\u0d02.in/",
])
def test_legitimate_patterns_pass(value):
    assert run(value, "idn-dangerous-pattern") == []


def test_kana_slash_lookalike_is_one_finding_with_delimiter_lookalike():
    value = "http://a\u30ceb.com/"
    assert run(value, "idn-dangerous-pattern") == []
    assert [f.rule.name for f in run(value, ("delimiter-lookalike", "idn-dangerous-pattern"))] == \
        ["delimiter-lookalike"]


# ---------------------------------------------------------------------------
# Step 5: whole-script confusables
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, script, reads", [
    ("\u10eb4000", "Georgian", "d4000"),
    ("\u0430\u0440\u0440\u04cf\u0435", "Cyrillic", "apple"),
    ("\u0966\u0968", "Devanagari", "o2"),
    ("\u0e9e\u0ea3\u0e9a", "Lao", "wsu"),
])
def test_whole_script_confusable_by_the_browsers_letter_lists(label, script, reads):
    f = one("http://%s.com/" % label, "whole-script-confusable")
    assert script in f.message and "looks like the Latin '%s'" % reads in f.message


@pytest.mark.parametrize("host", [
    "\u0430\u0440\u0440\u04cf\u0435.\u0431\u0435\u043b", "\u0441\u043e\u0440.\u043c\u043e\u043d",
    "\u0441\u043e\u0440.\u043e\u0440\u0433", "\u10eb\u10dd.\u10d2\u10d4", "\u03bf\u03c1\u03b1.\u03b5\u03bb",
    "\u0e9e\u0ea3\u0e9a.la", "\u05e7\u05d5\u05dd.\u05d7\u05e1\u05d3",
])
def test_labels_in_the_script_of_their_tld_stay_clean(host):
    assert run("http://%s/" % host, "whole-script-confusable") == []


# ---------------------------------------------------------------------------
# Step 6: characters tied to a TLD
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("host, char", [
    ("\u0259xample.com", "U+0259"), ("\u00feayment.com", "U+00FE"), ("fa\u00df.com", "U+00DF"),
    ("\u03b1\u03b2\u03c2.com", "U+03C2"), ("l\u00b7l.com", "U+00B7"),
])
def test_tld_characters_outside_their_tlds(host, char):
    value = "http://%s/" % host
    f = one(value, "idn-tld-character")
    assert f.code == "IRI211" and char in f.message
    assert "." + host.rsplit(".", 1)[1] in f.message


@pytest.mark.parametrize("host", [
    "az\u0259rbaycan.az", "\u00feingvellir.is", "stra\u00dfe.de", "\u03b1\u03b2\u03c2.gr", "col\u00b7legi.cat",
])
def test_tld_characters_under_their_tlds(host):
    assert run("http://%s/" % host, "idn-tld-character") == []


def test_repeated_tld_character_is_one_finding():
    value = "http://\u00feay\u00feal.com/"
    f = one(value, "idn-tld-character")
    assert (f.start, f.end) == (7, 11)


# ---------------------------------------------------------------------------
# Legitimate names in many scripts: no look-alike or host finding
# ---------------------------------------------------------------------------

LEGIT = [
    "\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631",            # Arabic
    "\u05d3\u05d5\u05d2\u05de\u05d4.\u05d8\u05e2\u05e1\u05d8",                  # Hebrew
    "\u0645\u062b\u0627\u0644.\u0627\u06cc\u0631\u0627\u0646",                  # Persian
    "\u0627\u0631\u062f\u0648.pk",                                              # Urdu
    "\u4f8b\u3048.\u30c6\u30b9\u30c8", "\u30c9\u30e1\u30a4\u30f3\u540d\u4f8b.jp",  # Japanese
    "\u4f8b\u5b50.\u6d4b\u8bd5", "\u53f0\u7063.\u53f0\u7063",                   # Chinese
    "\ud55c\uad6d\uc778\ud130\ub137\uc9c4\ud765\uc6d0.\ud55c\uad6d",           # Korean
    "\u043f\u0440\u0438\u043c\u0435\u0440.\u0438\u0441\u043f\u044b\u0442\u0430\u043d\u0438\u0435",  # Russian
    "\u043a\u0438\u0457\u0432.\u0443\u043a\u0440",                              # Ukrainian
    "\u0441\u0440\u0431\u0438\u0458\u0430.\u0441\u0440\u0431",                  # Serbian
    "\u03c0\u03b1\u03c1\u03ac\u03b4\u03b5\u03b9\u03b3\u03bc\u03b1.\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae",  # Greek
    "\u10e1\u10d0\u10e5\u10d0\u10e0\u10d7\u10d5\u10d4\u10da\u10dd.\u10d2\u10d4",  # Georgian
    "\u0570\u0561\u0575\u0561\u057d\u057f\u0561\u0576.\u0570\u0561\u0575",      # Armenian
    "\u0909\u0926\u093e\u0939\u0930\u0923.\u092a\u0930\u0940\u0915\u094d\u0937\u093e",  # Hindi
    "\u09ac\u09be\u0982\u09b2\u09be.\u09ac\u09be\u0982\u09b2\u09be",            # Bengali
    "\u0b87\u0ba8\u0bcd\u0ba4\u0bbf\u0baf\u0bbe.\u0b87\u0ba8\u0bcd\u0ba4\u0bbf\u0baf\u0bbe",  # Tamil
    "\u0e15\u0e31\u0e27\u0e2d\u0e22\u0e48\u0e32\u0e07.\u0e44\u0e17\u0e22",      # Thai
    "\u12a2\u1275\u12ee\u1335\u12eb.et",                                        # Amharic
    "ti\u1ebfngvi\u1ec7t.vn",                                                   # Vietnamese
    "b\u00fccher.de", "espa\u00f1a.es", "t\u00fcrkiye.tr", "\u0131\u015f\u0131k.com.tr",
    "\u0ea5\u0eb2\u0ea7.la", "\u1780\u1798\u17d2\u1796\u17bb\u1787\u17b6.kh", "\u0c24\u0c46\u0c32\u0c41\u0c17\u0c41.in",
]


@pytest.mark.parametrize("host", LEGIT)
def test_legitimate_idns_get_no_lookalike_or_host_finding(host):
    fs = run("http://%s/" % host, LOOKALIKE_AND_HOST)
    assert fs == [], [(f.rule.name, f.message) for f in fs]


# ---------------------------------------------------------------------------
# punycode-label (IRI503) asks the policy
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("unicode, tld, step", [
    ("\u0a68\u0a68\u0a68", "com", "digit look-alikes"),
    ("\u2d30\u2d4e", "com", "identifier status"),
    ("abc\u30fcdef", "com", "dangerous pattern"),
    ("\u0259xample", "com", "TLD-specific character"),
    ("\u10eb4000", "com", "whole-script confusable"),
    ("g\u0585\u0585gle", "com", "restriction level"),
])
def test_punycode_label_never_calls_a_refused_label_safe(unicode, tld, step):
    label = "xn--" + unicode.encode("punycode").decode("ascii")
    value = "http://%s.%s/" % (label, tld)
    fs = run(value, "punycode-label")
    assert len(fs) == 1
    (fix,) = fs[0].fixes
    assert not fix.safe and "browsers show it as Punycode" in fs[0].message and step in fs[0].message


def test_punycode_label_still_safe_for_clean_labels():
    (f,) = run("http://xn--e1afmkfd.xn--p1ai/", "punycode-label")[:1]
    assert f.fixes[0].safe
    assert display_verdict("\u0575\u0561\u0575", "\u0570\u0561\u0575") is None


# ---------------------------------------------------------------------------
# Messages: readable imitations, scripts named right
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, reads", [
    ("\u0430\u0440\u0440\u04cf\u0435", "apple"),   # palochka reads as l, not as the skeleton's i
    ("\u10eb4000", "d4000"),                       # ASCII digits stay digits (the skeleton has 'O')
    ("p\u0430ypal", "paypal"),
    ("\u043f\u0440\u0438\u043c\u0435\u0440", None),  # letters with no Latin reading
    ("abc", None),                                 # nothing read differently
])
def test_imitation(label, reads):
    assert imitation(label) == reads


def test_scripts_are_named_by_script_not_first_extension():
    assert script_of("\u00b7") == "Zyyy" and script_of("\u0660") == "Arab"
    assert scripts_in("\u0430\u00b7\u0431") == ["Cyrl"]
    assert scx_names("\u00b7").startswith("Georgian, Greek, Han, Latin and ")
    f = one("http://\u0430\u00b7\u0431.com/", "mixed-script")
    assert "U+00B7 MIDDLE DOT is used only with Georgian, Greek, Han, Latin" in f.message
    assert "Georgian characters" not in f.message


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

_label_chars = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
                             exclude_characters="./?#@:%[]\\")


@settings(max_examples=300, deadline=None)
@given(st.text(_label_chars, min_size=1, max_size=12), st.sampled_from(["com", "\u0440\u0444", "jp", "is", "cat"]))
def test_label_issues_positions_are_inside_the_label(label, tld):
    mapped = map_label(label)
    for issue in label_issues(mapped, tld):
        assert all(0 <= p < len(mapped) for p in issue.positions)
        assert issue.reason


@settings(max_examples=300, deadline=None)
@given(st.text(_label_chars, min_size=1, max_size=12))
def test_map_label_is_idempotent_and_imitation_is_ascii(label):
    mapped = map_label(label)
    assert map_label(mapped) == mapped
    im = imitation(mapped)
    assert im is None or (im.isascii() and im != mapped)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("abc12-" + "".join(sorted(DIGIT_LOOKALIKES))[:40]), min_size=1, max_size=8))
def test_verdict_agrees_with_the_rules(label):
    """display_verdict refuses a label exactly when some policy step fails."""
    host = "%s.com" % label
    try:
        idna.encode(host, uts46=True)
    except idna.IDNAError:
        return
    refused = display_verdict(label, "com") is not None
    assert refused == bool(label_issues(map_label(label), "com"))


def test_middle_dot_under_cat_only_between_two_l():
    f = one("http://a\u00b7b.cat/", "idn-tld-character")
    assert "between two 'l'" in f.message and "not here" in f.message


def test_percent_encoded_character_is_pointed_at():
    value = "http://ab%E2%B4%B0c.com/"  # U+2D30 TIFINAGH LETTER YA, encoded
    f = one(value, "idn-restricted-character")
    assert spanned(value, f) == "%E2%B4%B0" and "percent-encoded as %E2%B4%B0" in f.message


_HOST_PIECES = st.one_of(
    st.characters(exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), exclude_characters="/?#@[]:\\%"),
    st.sampled_from(["xn--", "%C3%9F", "%E2%80%8D", "%D0%B0", ".", "\u3002", "-", "\u200d", "\u00df", "\u03c2",
                     "\u0301", "\u0307", "\u0131", "\u30fc", "\u30ce", "\u4e00", "\u00b7", "\u0259", "\u0a68",
                     "\u0430", "\u10eb", "\u05b7", "\u05d1", "a", "l", "1", "0"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_HOST_PIECES, min_size=1, max_size=10).map("".join),
       st.sampled_from(["com", "\u0440\u0444", "de", "cat", "xn--p1ai", ""]))
def test_policy_rules_never_fail_and_stay_in_the_host(host, tld):
    value = "http://%s%s/p" % (host, "." + tld if tld else "")
    result = Engine().check_text(value, settings=Settings(select=POLICY_RULES + (
        "mixed-script", "whole-script-confusable", "punycode-label", "idna-deviation")), scanner=_OneRef())
    assert result.errors == []
    end = value.index("/", len("http://"))
    for f in result.findings:
        assert len("http://") <= f.start < f.end <= end, (f.rule.name, f.start, f.end, value)
