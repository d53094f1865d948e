"""The host family: idn-invalid, punycode-invalid, punycode-label, idna-deviation."""
import idna
import pytest

from irilint.convert import to_uri
from irilint.engine import check_reference
from irilint.findings import Severity
from irilint.rules.registry import get_rule

HOST_RULES = ["idn-invalid", "punycode-invalid", "punycode-label", "idna-deviation"]


def findings(value, rule):
    return [f for f in check_reference(value, select=[rule]) if f.rule.name == rule]


def one(value, rule):
    fs = findings(value, rule)
    assert len(fs) == 1, [(f.rule.name, f.message) for f in fs]
    return fs[0]


def spanned(value, f):
    return value[f.start:f.end]


def apply(value, edits):
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        value = value[:e.start] + e.new_text + value[e.end:]
    return value


# Legitimate IDNs (the IANA test names and everyday ones), in U-label and
# A-label form: the host family must say nothing about the U-labels, and
# only punycode-label about the A-labels.
LEGIT_HOSTS = [
    "пример.испытание",  # Russian
    "例え.テスト",  # Japanese
    "उदाहरण.परीक्षा",  # Hindi (Devanagari)
    "مثال.إختبار",  # Arabic
    "مثال.آزمایشی",  # Persian
    "דוגמה.טעסט",  # Hebrew
    "例子.测试",  # Chinese
    "실례.테스트",  # Korean
    "παράδειγμα.δοκιμή",  # Greek
    "உதாரணம்.பரிட்சை",  # Tamil
    "bücher.de",
    "møller.dk",
    "l\u00b7l.cat",  # Catalan middle dot, in its context
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.ir",  # Persian ZWNJ: valid, but a deviation
]


@pytest.mark.parametrize("host", LEGIT_HOSTS[:-1])
@pytest.mark.parametrize("form", ["http://%s/", "https://%s:8443/path?q=1#f", "//%s/x", "ws://user@%s/"])
def test_legit_idns_are_quiet(host, form):
    value = form % host
    assert check_reference(value, select=["host"]) == []


@pytest.mark.parametrize("host", LEGIT_HOSTS)
def test_legit_a_labels_only_get_the_hint(host):
    a = idna.encode(host, uts46=True).decode("ascii")
    value = "http://%s/" % a
    names = {f.rule.name for f in check_reference(value, select=["host"])}
    assert names <= {"punycode-label", "idna-deviation"}
    assert "punycode-label" in names
    assert not findings(value, "punycode-invalid")


@pytest.mark.parametrize("value", [
    "http://example.com/",
    "https://www.w3.org/TR/?x=%C3%A9#frag",
    "http://Example.COM:8080/a%20b",
    "http://a_b.example.com/",  # not IDNA's (STD3 rules are off, as in browsers)
    "http://x-y.example.com/", "http://ok.example.com./",
    "http://127.0.0.1/",
    "http://[::1]/",
    "http://[2001:db8::\u00e9]/",
    "ftp://ftp.example.org/pub/",
    "../relative/\u2488/path",
    "/\u2488/abs",
])
def test_ascii_hosts_and_non_host_text_are_quiet(value):
    assert check_reference(value, select=["host"]) == []


@pytest.mark.parametrize("value", [
    "mailto:user@\u2488x.com",
    "mailto:user@fa\u00df.de",
    "mailto:user@xn--99999999999.com",
    "urn:example:\u2488x.com",
    "urn:xn--ls8h",
    "file://\u2488x/share",
    "foo://xn--99999999999.com/",
    "foo://fa\u00df.de/",
    "news:fa\u00df.de",
])
def test_non_dns_schemes_are_untouched(value):
    assert check_reference(value, select=["host"]) == []


def test_rule_metadata():
    expected = {
        "idn-invalid": ("IRI501", Severity.ERROR, "none"),
        "punycode-invalid": ("IRI502", Severity.ERROR, "none"),
        "punycode-label": ("IRI503", Severity.HINT, "sometimes"),
        "idna-deviation": ("IRI504", Severity.WARNING, "none"),
    }
    for name, (code, sev, fix) in expected.items():
        r = get_rule(name)
        assert (r.code, r.family, r.severity, r.fix, r.enabled) == (code, "host", sev, fix, True)
        for section in ("What it does", "Why", "Example", "Fix safety", "Reference"):
            assert "## " + section in r.doc


# ---------------------------------------------------------------------------
# idn-invalid
# ---------------------------------------------------------------------------

def test_idn_invalid_disallowed_code_point():
    value = "http://\u2488x.example.com/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\u2488"
    assert f.message == "U+2488 DIGIT ONE FULL STOP is not allowed in a domain label (IDNA2008 DISALLOWED)"
    assert f.code == "IRI501" and f.severity == Severity.ERROR and f.fixes == []


def test_idn_invalid_judges_code_points_by_irilints_unicode_version():
    # U+3E8AC is unassigned in Unicode 16.0, the version of irilint's
    # tables, whatever the installed idna's tables (newer ones may list it
    # PVALID): the label cannot be registered under Unicode 16.0, and the
    # finding does not change with the idna release
    value = "http://\U0003e8ac.example/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\U0003e8ac"
    assert f.message == ("U+3E8AC <unassigned> is not an assigned character, so IDNA2008 does not allow it "
                         "(IDNA2008 UNASSIGNED)")


def test_idn_invalid_any_code_point_the_tables_leave_unassigned_is_reported():
    # every code point the installed idna calls PVALID but irilint's tables
    # (unicode_data.UNICODE_VERSION) do not assign; none when idna's
    # Unicode is not newer
    from idna import idnadata

    from irilint.rules.host import _label_problems
    from irilint.unicode_security import UNKNOWN, script_of

    newer = [cp for packed in idnadata.codepoint_classes["PVALID"]
             for cp in range(packed >> 32, packed & 0xFFFFFFFF) if script_of(chr(cp)) == UNKNOWN]
    for cp in newer[::97] + newer[-1:]:
        kinds = [kind for kind, _pos, _why in _label_problems("a" + chr(cp))]
        assert kinds == ["unassigned"], hex(cp)


def test_idn_invalid_percent_encoded_label():
    value = "http://%E2%92%88x.example.com/"
    f = one(value, "idn-invalid")
    assert (f.start, f.end) == (7, 16)
    assert "U+2488 DIGIT ONE FULL STOP" in f.message
    assert "percent-encoded as %E2%92%88" in f.message
    assert "IDNA2008 DISALLOWED" in f.message


def test_idn_invalid_reports_every_bad_code_point():
    value = "http://\u00fc_\u2488.de/"
    fs = findings(value, "idn-invalid")
    assert [spanned(value, f) for f in fs] == ["_", "\u2488"]
    assert "U+005F LOW LINE" in fs[0].message


def test_idn_invalid_symbol_and_emoji():
    value = "http://i\u2665.ws/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\u2665"
    assert "U+2665 BLACK HEART SUIT" in f.message


def test_idn_invalid_names_what_uts46_mapped():
    value = "http://\u00e9\u00a0x.fr/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\u00a0"
    assert "U+00A0 NO-BREAK SPACE" in f.message and "maps to U+0020 SPACE" in f.message


@pytest.mark.parametrize("value, char, reason", [
    ("http://a\u00b7\u00e9.cat/", "\u00b7", "only allowed between two 'l'"),
    ("http://\u0661\u06f1.example/", "\u06f1", "may not be mixed with Arabic-Indic digits"),
    ("http://\u30fbabc\u00e9.jp/", "\u30fb", "Hiragana, Katakana or Han"),
    ("http://\u05d0\u05f3\u00e9.example/", None, None),  # after a Hebrew letter: fine (bidi aside)
])
def test_idn_invalid_contexto(value, char, reason):
    fs = [f for f in findings(value, "idn-invalid")]
    if char is None:
        assert not any("CONTEXTO" in f.message for f in fs)
        return
    assert len(fs) == 1
    assert spanned(value, fs[0]) == char
    assert reason in fs[0].message and "(IDNA2008 CONTEXTO)" in fs[0].message


@pytest.mark.parametrize("label, why", [
    ("-\u043f\u0440\u0438\u043c\u0435\u0440", "starts with a hyphen"),
    ("\u043f\u0440\u0438\u043c\u0435\u0440-", "ends with a hyphen"),
    ("ab--\u00fc", "3rd and 4th positions"),
])
def test_idn_invalid_label_level_problems(label, why):
    value = "http://%s.example/" % label
    f = one(value, "idn-invalid")
    assert spanned(value, f) == label
    assert f.message.startswith("label '%s'" % label)
    assert why in f.message


def test_idn_invalid_locates_the_character_after_nfc():
    value = "http://e\u0301_x.example/"  # NFC merges e + U+0301 while mapping
    f = one(value, "idn-invalid")
    assert (f.start, f.end) == (9, 10)
    assert f.message.startswith("U+005F LOW LINE")


def test_idn_invalid_leading_combining_mark():
    value = "http://\u0301\u00e9.example/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\u0301"
    assert "U+0301 COMBINING ACUTE ACCENT" in f.message and "combining mark" in f.message


def test_idn_invalid_too_long():
    label = "\u00e9" * 60
    value = "http://%s.example/" % label
    f = one(value, "idn-invalid")
    assert spanned(value, f) == label
    assert "more than the 63" in f.message


def test_idn_invalid_network_path_reference_and_ideographic_dot():
    value = "//\u4f8b\u3048\u3002\u2488.jp/"
    f = one(value, "idn-invalid")
    assert spanned(value, f) == "\u2488"


def test_idn_invalid_leaves_other_causes_to_other_rules():
    # Bidi Rule failure: idn-bidi-rule reports it.
    assert findings("http://\u05d0a.example/", "idn-invalid") == []
    # ZWJ out of context: invisible-character reports it.
    assert findings("http://a\u200d\u00e9.example/", "idn-invalid") == []
    # ... but a real problem next to a stray joiner is still found.
    value = "http://a\u200d\u00e9\u2488.example/"
    assert [spanned(value, f) for f in findings(value, "idn-invalid")] == ["\u2488"]
    # Not UTF-8: percent-encoded-non-utf8 reports it.
    assert findings("http://%E9t%E9.example/", "idn-invalid") == []
    # A-labels: punycode-invalid reports them.
    assert findings("http://xn--ls8h.la/", "idn-invalid") == []
    # Characters the grammar rejects in a host: the syntax rules report them.
    assert findings("http://\u00fc b.example/", "idn-invalid") == []
    assert findings("http://\u00fc\ue000.example/", "idn-invalid") == []
    # Compatibility characters that UTS #46 folds are not IDNA errors.
    assert findings("http://\uff42\u00fccher.de/", "idn-invalid") == []
    assert findings("http://B\u00dcCHER.de/", "idn-invalid") == []


# ---------------------------------------------------------------------------
# punycode-invalid
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, needle", [
    ("xn--99999999999", "is not Punycode: it does not decode"),
    ("xn--a_b", "U+005F LOW LINE never occurs in an A-label"),
    ("xn--", "nothing after the A-label prefix"),
    ("xn--abc-", "decodes to the ASCII text 'abc'"),
    ("xn---bbk", "whose Punycode is 'xn--bbk'"),
    ("xn--ls8h", "U+1F4A9 PILE OF POO is not allowed in a domain label (IDNA2008 DISALLOWED)"),
    ("xn--1ch", "U+2260 NOT EQUAL TO"),
    ("xn--\u00fcber", "holds non-ASCII characters"),
    ("xn--a-xbb", "decodes to 'a\u0301', which is not in Normalization Form C"),
    ("xn--wca", "U+00DC LATIN CAPITAL LETTER U WITH DIAERESIS is not allowed"),  # "Ü"
    ("xn--zca", None),  # "ß": valid
])
def test_punycode_invalid(label, needle):
    value = "http://%s.example/" % label
    fs = findings(value, "punycode-invalid")
    if needle is None:
        assert fs == []
        return
    assert len(fs) == 1, [f.message for f in fs]
    f = fs[0]
    assert spanned(value, f) == label
    assert needle in f.message, f.message
    assert f.code == "IRI502" and f.severity == Severity.ERROR and f.fixes == []


def test_punycode_invalid_uppercase_prefix_is_just_case():
    assert findings("http://XN--BCHER-KVA.de/", "punycode-invalid") == []
    assert findings("http://Xn--Bcher-Kva.de/", "punycode-invalid") == []
    f = one("http://XN--99999999999.de/", "punycode-invalid")
    assert "'XN--99999999999' is not Punycode" in f.message


def test_punycode_invalid_leaves_bidi_to_the_bidi_family():
    # "\u05d0a" breaks the Bidi Rule only.
    label = "xn--" + "\u05d0a".encode("punycode").decode("ascii")
    assert findings("http://%s.example/" % label, "punycode-invalid") == []


def test_punycode_invalid_only_in_dns_hosts():
    assert findings("http://example.org/xn--99999999999", "punycode-invalid") == []
    assert findings("foo://xn--99999999999/", "punycode-invalid") == []
    assert len(findings("//xn--99999999999/", "punycode-invalid")) == 1


# ---------------------------------------------------------------------------
# punycode-label
# ---------------------------------------------------------------------------

def test_punycode_label_offers_a_safe_fix():
    value = "http://xn--r8jz45g.xn--zckzah/p"
    fs = findings(value, "punycode-label")
    assert [spanned(value, f) for f in fs] == ["xn--r8jz45g", "xn--zckzah"]
    assert all(f.code == "IRI503" and f.severity == Severity.HINT for f in fs)
    assert "'\u4f8b\u3048'" in fs[0].message
    fixed = value
    for f in reversed(fs):
        (fix,) = f.fixes
        assert fix.safe
        fixed = apply(fixed, fix.edits)
    assert fixed == "http://\u4f8b\u3048.\u30c6\u30b9\u30c8/p"
    assert to_uri(fixed) == value  # IDNA maps it back: the URI is unchanged


@pytest.mark.parametrize("label, unicode", [
    ("xn--bcher-kva", "b\u00fccher"),
    ("XN--BCHER-KVA", "b\u00fccher"),
    ("xn--e1afmkfd", "\u043f\u0440\u0438\u043c\u0435\u0440"),
    ("xn--p1b6ci4b4b3a", "\u0909\u0926\u093e\u0939\u0930\u0923"),
])
def test_punycode_label_fix_round_trips(label, unicode):
    value = "https://%s.example/" % label
    f = one(value, "punycode-label")
    (fix,) = f.fixes
    assert fix.safe and fix.edits[0].new_text == unicode
    fixed = apply(value, fix.edits)
    assert to_uri(fixed).lower() == value.lower()


@pytest.mark.parametrize("unicode, reason", [
    ("\u0430\u0440\u0440\u04cf\u0435", "looks like the Latin"),  # Cyrillic "apple"
    ("\u0430pple", "mixes the Cyrillic and Latin scripts"),
    ("fa\u00df", "deviation"),
    ("\u0645\u062b\u0627\u0644", "right-to-left"),
])
def test_punycode_label_fix_is_unsafe_when_the_u_label_misleads(unicode, reason):
    label = idna.encode(unicode).decode("ascii")
    value = "http://%s.com/" % label
    f = one(value, "punycode-label")
    (fix,) = f.fixes
    assert not fix.safe
    assert reason in f.message and reason in fix.title
    assert fix.edits[0].new_text == unicode


def test_punycode_label_not_for_invalid_a_labels_or_other_schemes():
    assert findings("http://xn--ls8h.la/", "punycode-label") == []
    assert findings("http://xn---bbk.jp/", "punycode-label") == []
    assert findings("foo://xn--r8jz45g/", "punycode-label") == []
    assert findings("http://example.org/xn--r8jz45g", "punycode-label") == []


# ---------------------------------------------------------------------------
# idna-deviation
# ---------------------------------------------------------------------------

# ß and ς are reported under TLDs whose registries do not use them (.com
# here); under .de, .gr ... they are the registered name.

def test_idna_deviation_sharp_s():
    value = "http://fa\u00df.com/"
    f = one(value, "idna-deviation")
    assert spanned(value, f) == "\u00df"
    assert f.code == "IRI504" and f.severity == Severity.WARNING and f.fixes == []
    assert f.message.startswith("fa\u00df.com \u2192 fass.com under IDNA2003")
    assert "U+00DF LATIN SMALL LETTER SHARP S \u2192 'ss'" in f.message
    assert "different sites" in f.message


def test_idna_deviation_percent_encoded_and_a_label():
    value = "http://fa%C3%9F.com/"
    f = one(value, "idna-deviation")
    assert spanned(value, f) == "%C3%9F"
    assert "written fa%C3%9F.com" in f.message and "fass.com" in f.message
    value = "http://www.xn--fa-hia.com/"
    f = one(value, "idna-deviation")
    assert spanned(value, f) == "xn--fa-hia"
    assert "www.fa\u00df.com (written www.xn--fa-hia.com) \u2192 www.fass.com" in f.message


def test_idna_deviation_final_sigma_and_capital_sharp_s():
    value = "http://\u03c3\u03bf\u03c2.com/"
    f = one(value, "idna-deviation")
    assert spanned(value, f) == "\u03c2"
    assert "\u03c3\u03bf\u03c3.com" in f.message
    value = "http://STRA\u1e9eE.com/"
    f = one(value, "idna-deviation")
    assert spanned(value, f) == "\u1e9e" and "STRAssE.com" in f.message


def test_idna_deviation_joiners_in_valid_context():
    zwj = "http://\u0915\u094d\u200d\u0937.in/"  # after a virama
    f = one(zwj, "idna-deviation")
    assert spanned(zwj, f) == "\u200d"
    assert "<U+200D>" in f.message and "U+200D ZERO WIDTH JOINER \u2192 removed" in f.message
    zwnj = "http://%s/" % LEGIT_HOSTS[-1]
    f = one(zwnj, "idna-deviation")
    assert spanned(zwnj, f) == "\u200c"


def test_idna_deviation_one_finding_per_host():
    value = "http://stra\u00dfe.fa\u00df.com/"
    f = one(value, "idna-deviation")
    assert (f.start, f.end) == (11, 17)
    assert "strasse.fass.com" in f.message


@pytest.mark.parametrize("value", [
    "http://a\u200db.com/",  # joiner out of context: invisible-character's job
    "http://\u03c3\u03bf\u03c3.gr/",
    "http://strasse.de/",
    "http://example.org/fa\u00df",  # not in the host
    "mailto:x@fa\u00df.de",
    "foo://fa\u00df.de/",
    "http://xn--zca-.de/",  # not a valid A-label
    # under a TLD whose registry uses the character
    "http://fa\u00df.de/", "http://www.xn--fa-hia.de/", "http://\u03c3\u03bf\u03c2.gr/",
    "http://\u03ba\u03b1\u03b9\u03c1\u03cc\u03c2.\u03b5\u03bb/",
])
def test_idna_deviation_quiet(value):
    assert findings(value, "idna-deviation") == []


# ---------------------------------------------------------------------------
# Robustness: no rule error on any host
# ---------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from irilint.engine import Engine, _WholeTextScanner  # noqa: E402

_HOST_PIECES = st.one_of(
    st.characters(blacklist_categories=("Cs",)),
    st.sampled_from(["xn--", "XN--", "%C3%9F", "%E2%80%8D", "%e9", "%", "%2E", ".", "\u3002", "-", "\u200d",
                     "\u200c", "\u00df", "\u03c2", "\u094d", "\u0301", "\u0660", "\u06f0", "\u00b7", "l",
                     "\u30fb", "\u05d0", "\u0627", "a", "Z", "9"]),
)


def _Settings():
    from irilint.config import Settings

    return Settings(select=("host",))


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_HOST_PIECES, min_size=1, max_size=12).map("".join),
       st.sampled_from(["http://%s/", "//%s:80/p", "https://u@%s?q"]))
def test_host_rules_never_fail(host, form):
    value = form % host
    result = Engine().check_text(value, settings=_Settings(), scanner=_WholeTextScanner())
    assert result.errors == []
    for f in result.findings:
        assert 0 <= f.start <= f.end <= len(value)
        assert f.message


# ---------------------------------------------------------------------------
# UTS #46 details: ignored characters, CheckHyphens, VerifyDnsLength
# ---------------------------------------------------------------------------

from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

from irilint.config import Settings  # noqa: E402
from irilint.engine import Engine  # noqa: E402


def in_document(text, select, path="doc.md"):
    result = Engine().check_text(text, path=path, settings=Settings(select=tuple(select)))
    assert result.errors == []
    return result.findings


def test_uts46_ignored_set_is_read_from_the_idna_table():
    from irilint.rules.context import UTS46_IGNORED_RANGES, is_uts46_ignored

    cps = [cp for a, b in UTS46_IGNORED_RANGES for cp in range(a, b + 1)]
    for cp in (0x00AD, 0x034F, 0x180B, 0x180C, 0x180D, 0x180F, 0x200B, 0xFE00, 0xFE0F, 0xE0100, 0xE01EF):
        assert cp in cps, hex(cp)
    for cp in cps:  # the table maps every one of them to nothing
        assert idna.uts46_remap(chr(cp), std3_rules=False) == "", hex(cp)
    # invisible-character's gate lets only default-ignorable characters in
    from irilint.unicode_security import is_default_ignorable
    assert all(is_default_ignorable(chr(cp)) for cp in cps)
    for ch in "a-\u00e9\u200c\u200d\u0301\u3002":
        assert not is_uts46_ignored(ch)


@hsettings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab-x\u00e9\u00ad\u034f\u180b\u200b\ufe0f\U000e0100\u200d", max_size=16))
def test_strip_uts46_ignored_is_what_the_mapping_removes(text):
    from irilint.rules.context import is_uts46_ignored, strip_uts46_ignored

    stripped = strip_uts46_ignored(text)
    assert stripped == "".join(c for c in text if idna.uts46_remap(c, std3_rules=False) != "")
    assert not any(is_uts46_ignored(c) for c in stripped)
    assert strip_uts46_ignored(stripped) == stripped


def test_ignored_character_inside_an_alabel_is_judged_as_that_alabel():
    value = "http://xn--80ak6aa\u00ad92e.com/"
    select = ["punycode-invalid", "invisible-character", "whole-script-confusable", "idn-invalid"]
    fs = check_reference(value, select=select)
    got = sorted((f.rule.name, f.start, f.end) for f in fs)
    # no "invalid A-label": the soft hyphen is reported, and the label is
    # judged as xn--80ak6aa92e (Cyrillic аррӏе)
    assert got == [("invisible-character", 18, 19), ("whole-script-confusable", 7, 22)]
    inv = [f for f in fs if f.rule.name == "invisible-character"][0]
    assert "U+00AD SOFT HYPHEN" in inv.message and "xn--80ak6aa92e" in inv.message
    assert "UTS #46 maps it to nothing" in inv.message
    assert inv.fixes and not inv.fixes[0].safe and inv.fixes[0].edits[0].new_text == ""
    wsc = [f for f in fs if f.rule.name == "whole-script-confusable"][0]
    assert "\u00ad" not in wsc.message  # shown as <U+00AD>
    # the hint shows the U-label, unsafely: it also drops the soft hyphen
    f = one("http://xn--bcher\u00ad-kva.de/", "punycode-label")
    assert f.fixes[0].edits[0].new_text == "b\u00fccher" and not f.fixes[0].safe


def test_ignored_character_before_an_alabel_prefix():
    value = "http://\u00adxn--80ak6aa92e.com/"
    assert findings(value, "idn-invalid") == []      # not "hyphens in positions 3-4"
    assert findings(value, "punycode-invalid") == []
    f = one(value, "invisible-character")
    assert (f.start, f.end) == (7, 8)


@pytest.mark.parametrize("value,span,name", [
    ("http://\u4e2d\ufe00\u6587.com/", (8, 9), "U+FE00 VARIATION SELECTOR-1"),        # after Han
    ("http://\u1820\u180b\u1821.mn/", (8, 9), "U+180B MONGOLIAN FREE VARIATION SELECTOR ONE"),
    ("http://\u845b\U000e0100.jp/", (8, 9), "U+E0100 VARIATION SELECTOR-17"),
    ("http://ex\u034fample.com/", (9, 10), "U+034F COMBINING GRAPHEME JOINER"),
    ("http://ex%C2%ADample.com/", (9, 15), "U+00AD SOFT HYPHEN"),
    ("//pay\u200bpal.com/", (5, 6), "U+200B ZERO WIDTH SPACE"),
])
def test_ignored_characters_in_a_host_are_invisible_whatever_their_context(value, span, name):
    f = one(value, "invisible-character")
    assert (f.start, f.end) == span and name in f.message
    assert "UTS #46 maps it to nothing" in f.message and "host label" in f.message


@pytest.mark.parametrize("value", [
    "http://example.com/\u4e2d\ufe00\u6587",          # a Han variant in a path selects a glyph
    "http://example.com/\u1820\u180b\u1821",
    "mailto:\u4e2d\ufe00\u6587@example.com",
])
def test_ignored_characters_keep_their_valid_contexts_outside_dns_hosts(value):
    assert findings(value, "invisible-character") == []


def test_a_label_of_only_ignored_characters_becomes_empty():
    value = "http://www.\u00ad\u200b.example.com/"
    fs = check_reference(value, select=["dns-label-syntax", "invisible-character", "idn-invalid"])
    got = sorted((f.rule.name, f.start, f.end) for f in fs)
    assert got == [("dns-label-syntax", 11, 13), ("invisible-character", 11, 12),
                   ("invisible-character", 12, 13)]
    f = [f for f in fs if f.rule.name == "dns-label-syntax"][0]
    assert "empty label" in f.message and "U+00AD SOFT HYPHEN, U+200B ZERO WIDTH SPACE" in f.message
    assert "\u00ad" not in f.message


def test_dns_label_syntax_is_registered():
    r = get_rule("dns-label-syntax")
    assert (r.code, r.family, r.severity, r.scope, r.enabled) == ("IRI505", "host", Severity.WARNING,
                                                                  "document", True)
    assert r.fix == "none"


LONG = "a" * 64


@pytest.mark.parametrize("value,span,words", [
    ("http://-shop.example/", (7, 12), "starts with a hyphen"),
    ("http://shop-.example/", (7, 12), "ends with a hyphen"),
    ("https://ab--cd.example/", (8, 14), "3rd and 4th positions"),
    ("http://www.%s.com/" % LONG, (11, 75), "64 characters"),
    ("http://www..example.com/", (10, 12), "empty host label between two dots"),
    ("http://.example.com/", (7, 8), "the host starts with a dot"),
    ("//-x.example/", (2, 4), "starts with a hyphen"),
    ("ftp://files-.example.org/", (6, 12), "ends with a hyphen"),
])
def test_dns_label_syntax(value, span, words):
    f = one(value, "dns-label-syntax")
    assert (f.code, f.start, f.end) == ("IRI505", ) + span
    assert words in f.message and f.fixes == []


def test_dns_name_length_counts_idn_labels_as_alabels():
    # 5 ASCII labels of 46 letters + "com": 5*47 + 3 = 238 octets: fine
    ok = "http://" + ".".join(["a" * 46] * 5) + ".com/"
    assert findings(ok, "dns-label-syntax") == []
    # the same length in Unicode, but each "é" label takes 53 octets as an
    # A-label (xn--, 45 letters, "-", 3 more): 5*54 + 3 = 273 octets
    long_idn = "http://" + ".".join(["\u00e9" + "a" * 45] * 5) + ".com/"
    assert len(idna.encode("\u00e9" + "a" * 45)) == 53
    f = one(long_idn, "dns-label-syntax")
    assert (f.start, f.end) == (7, len(long_idn) - 1)
    assert "octets in A-label form" in f.message and "253" in f.message


@pytest.mark.parametrize("value", [
    "http://example.com./",                 # the root's trailing dot
    "http://xn--bcher-kva.example/",        # A-labels have "--" in positions 3-4
    "http://x-y.example/", "http://a--b.example/",
    "mailto:-x@-x.example", "urn:-x:y", "file:///-x/",
    "http://%s.example/" % ("a" * 63),
    "http://127.0.0.1/", "http://[::1]/",
])
def test_dns_label_syntax_quiet(value):
    assert findings(value, "dns-label-syntax") == []


def test_dns_label_syntax_on_fast_path_references_in_a_document():
    text = ("Links: <http://-shop.example/a> and <https://www.example.org/> and [x](https://ok.example/) "
            "and <https://a..b.example/>\n")
    fs = in_document(text, ["dns-label-syntax"])
    assert [(text[f.start:f.end], f.start) for f in fs] == [("-shop", text.index("-shop")),
                                                            ("..", text.index(".."))]


@pytest.mark.parametrize("value,span", [
    ("http://xn--zz\u00adzzzzzzzzzzzz.com/", (13, 14)),     # not Punycode even without it
    ("http://x\u00adn--80ak6aa92e.com/", (8, 9)),             # inside the prefix
    ("http://xn--80ak6aa\u00ad\u00ad92e.com/", (18, 20)),
])
def test_each_ignored_character_is_reported_once(value, span):
    fs = findings(value, "invisible-character")
    assert [(f.start, f.end) for f in fs] == [(k, k + 1) for k in range(*span)]


def test_invalid_alabel_with_an_ignored_character_is_judged_without_it():
    f = one("http://xn--zz\u00adzzzzzzzzzzzz.com/", "punycode-invalid")
    assert "'xn--zzzzzzzzzzzzzz' is not Punycode" in f.message and "\u00ad" not in f.message
