"""Legitimate internationalized IRIs get no look-alike finding (issue 16).

Two sets:

* real IRIs in twenty languages: hosts under the IDN top-level domain of their
  language (or the generic/country domain they are really used under), paths
  and queries in real words; none may get a finding of the lookalike family;
* every host of the bench's legitimate list (bench/data/legit_idns.tsv): none
  may be *flagged* the way bench/idn_spoof.py counts it (a finding of the
  lookalike or host family other than the IRI503 hint).

Both harnesses are shown to fail on spoofs (a look-alike in a host, an
invisible character in a path), so a pass means something.
"""
from __future__ import annotations

import importlib.util
import os
import unicodedata

import idna
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint.config import Settings
from irilint.engine import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_bench(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "bench", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _load_bench("idn_spoof")
_ENGINE = Engine()
_SETTINGS = Settings()


def findings(iri):
    """Findings of ``iri`` as the only link of a Markdown document, with
    default settings (the bench's harness)."""
    result = _ENGINE.check_text(iri + "\n", path="links.md", settings=_SETTINGS)
    assert result.errors == []
    return result.findings


def lookalike_findings(iri):
    return [f"{f.rule.code} {f.rule.name}: {f.message}" for f in findings(iri)
            if f.rule.family == "lookalike"]


def bench_flags(host):
    """The findings that make the bench count ``host`` as flagged."""
    return [f"{f.rule.code} {f.rule.name}: {f.message}" for f in findings(f"http://{host}/")
            if f.rule.family in BENCH.FLAG_FAMILIES and f.rule.code not in BENCH.NOT_A_FLAG]


# -- real IRIs, by language ------------------------------------------------------

LEGIT_IRIS = {
    "Arabic": ["https://ar.wikipedia.org/wiki/مصر",
               "https://القاهرة.مصر/أخبار/اليوم",
               "https://ar.wikipedia.org/w/index.php?search=مكتبة"],
    "Hebrew": ["https://he.wikipedia.org/wiki/ירושלים",
               "https://חדשות.il/ספורט/כדורגל"],
    "Persian": ["https://fa.wikipedia.org/wiki/تهران",
                "https://دانشگاه.ایران/دانشکده/ریاضی"],
    "Urdu": ["https://ur.wikipedia.org/wiki/لاہور",
             "https://خبریں.پاکستان/کھیل"],
    "Japanese": ["https://ja.wikipedia.org/wiki/東京",
                 "https://東京.jp/観光/お知らせ?言語=日本語",
                 "https://お名前.com/"],
    "Chinese (Simplified)": ["https://zh.wikipedia.org/wiki/北京",
                             "https://新闻.中国/体育/足球"],
    "Chinese (Traditional)": ["https://zh.wikipedia.org/zh-tw/臺灣",
                              "https://新聞.台灣/體育/棒球"],
    "Korean": ["https://ko.wikipedia.org/wiki/서울",
               "https://뉴스.한국/스포츠/야구?검색=날씨"],
    "Russian": ["https://ru.wikipedia.org/wiki/Москва",
                "https://президент.рф/новости",
                "https://погода.рф/москва?день=завтра"],
    "Ukrainian": ["https://uk.wikipedia.org/wiki/Київ",
                  "https://новини.укр/спорт/футбол"],
    "Serbian": ["https://sr.wikipedia.org/wiki/Београд",
                "https://вести.срб/спорт"],
    "Greek": ["https://el.wikipedia.org/wiki/Αθήνα",
              "https://ειδήσεις.ελ/αθλητικά"],
    "Georgian": ["https://ka.wikipedia.org/wiki/თბილისი",
                 "https://ამინდი.გე/თბილისი"],
    "Armenian": ["https://hy.wikipedia.org/wiki/Երևան",
                 "https://լուրեր.հայ/սպորտ"],
    "Hindi": ["https://hi.wikipedia.org/wiki/दिल्ली",
              "https://समाचार.भारत/खेल/क्रिकेट"],
    "Bengali": ["https://bn.wikipedia.org/wiki/ঢাকা",
                "https://খবর.বাংলা/খেলা"],
    "Tamil": ["https://ta.wikipedia.org/wiki/சென்னை",
              "https://செய்திகள்.இந்தியா/விளையாட்டு"],
    "Thai": ["https://th.wikipedia.org/wiki/กรุงเทพมหานคร",
             "https://ข่าว.ไทย/กีฬา/ฟุตบอล"],
    "Amharic": ["https://am.wikipedia.org/wiki/አዲስ_አበባ",
                "https://ዜና.ኢትዮጵያ/ስፖርት"],
    "Vietnamese": ["https://vi.wikipedia.org/wiki/Hà_Nội",
                   "https://tin-tức.vn/thể-thao/bóng-đá"],
}

_IRI_CASES = [pytest.param(iri, id=f"{lang}-{n}")
              for lang, iris in LEGIT_IRIS.items() for n, iri in enumerate(iris)]


@pytest.mark.parametrize("iri", _IRI_CASES)
def test_legit_iri_gets_no_lookalike_finding(iri):
    assert lookalike_findings(iri) == []


def test_every_required_language_has_a_host_and_a_path_case():
    required = {"Arabic", "Hebrew", "Persian", "Urdu", "Japanese", "Chinese (Simplified)",
                "Chinese (Traditional)", "Korean", "Russian", "Ukrainian", "Serbian", "Greek",
                "Georgian", "Armenian", "Hindi", "Bengali", "Tamil", "Thai", "Amharic",
                "Vietnamese"}
    assert set(LEGIT_IRIS) == required
    for lang, iris in LEGIT_IRIS.items():
        hosts = [iri.split("/")[2] for iri in iris]
        assert any(not h.isascii() for h in hosts), f"{lang}: no host in the language"
        assert any(not iri.split("/", 3)[3].isascii() for iri in iris), f"{lang}: no path in it"


@pytest.mark.parametrize("iri", _IRI_CASES)
def test_legit_iri_hosts_are_valid_idna2008(iri):
    host = iri.split("/")[2]
    ascii_form = idna.encode(host).decode("ascii")
    assert idna.decode(ascii_form) == host


@pytest.mark.parametrize("spoof", [
    "https://payp\u03b1l.com/",                      # Greek alpha in a Latin name
    "https://ar.wikipedia.org/wiki/\u0645\u0635\u200b\u0631",  # zero width space in a word
])
def test_the_iri_harness_can_fail(spoof):
    assert lookalike_findings(spoof) != []


# -- the bench's legitimate list ----------------------------------------------------

LEGIT_ROWS = BENCH.read_tsv(BENCH.LEGIT_IDNS, ("host", "script", "language", "source"))


@pytest.mark.parametrize("host", [r["host"] for r in LEGIT_ROWS])
def test_legit_list_host_is_not_flagged(host):
    assert bench_flags(host) == []


def test_the_list_harness_can_fail():
    # the same harness, with the bench's definition of "flagged", on spoofs
    assert bench_flags("payp\u03b1l.com")
    assert bench_flags("goo\u200bgle.com")  # an invisible character in a host


def test_legit_list_size_scripts_and_no_duplicates():
    hosts = [r["host"] for r in LEGIT_ROWS]
    scripts = {s for r in LEGIT_ROWS for s in r["script"].split("+")}
    assert len(hosts) >= 300
    assert len(scripts) >= 25, sorted(scripts)
    assert len(set(hosts)) == len(hosts)


@pytest.mark.parametrize("host", [r["host"] for r in LEGIT_ROWS])
def test_legit_list_host_is_valid_idna2008_and_uts46(host):
    assert unicodedata.normalize("NFC", host) == host
    ascii_form = idna.encode(host).decode("ascii")          # IDNA2008 (RFC 5891)
    assert idna.decode(ascii_form) == host
    assert idna.encode(host, uts46=True, transitional=False).decode("ascii") == ascii_form


# -- the extraction of Chromium's cases ------------------------------------------------

EXTRACT = _load_bench("extract_chromium_cases")


def _c_literal(text):
    """``text`` as a C++ UTF-16 literal the way Chromium's generator writes it."""
    out = []
    for c in text:
        cp = ord(c)
        if 0x20 <= cp < 0x7F and c not in '"\\':
            out.append(c)
        elif cp > 0xFFFF:
            out.append(f"\\U{cp:08x}")
        else:
            out.append(f"\\u{cp:04x}")
    return 'u"' + "".join(out) + '"'


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_text, st.integers(min_value=0, max_value=30))
def test_c_string_reads_escaped_and_split_literals(text, cut):
    cut = min(cut, len(text))
    literal = _c_literal(text[:cut]) + "\n     " + _c_literal(text[cut:])
    assert EXTRACT.c_string(literal) == text


_label = st.text(st.sampled_from("abcdeéüßжщαβ中文ไทย한국"), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_label, min_size=1, max_size=3))
def test_decode_host_inverts_punycode_label_by_label(labels):
    ascii_host = ".".join(lab if lab.isascii() else "xn--" + lab.encode("punycode").decode("ascii")
                          for lab in labels)
    assert EXTRACT.decode_host(ascii_host) == ".".join(labels)


SAMPLE_CC = r'''
const IDNTestCase kIdnCases[] = {
    // Script mixing tests
    // "payp<alpha>l.com"
    {"xn--paypl-g9d.com", u"payp\u03b1l.com", kUnsafe},

    // Whole-script-confusables.
    // Armenian:
    {"xn--mbbkpm.com", u"\u0578\u057d\u0582\u0585.com", kUnsafe},
    {"xn--mbbkpm.am", u"\u0578\u057d\u0582\u0585.am", kSafe},
#if BUILDFLAG(IS_APPLE)
    {"xn--fgb.com", u"\u0620.com", kUnsafe},
#endif
    // googlе.한국 where е is Cyrillic.
    {"xn--googl-3we.xn--3e0b707e", u"xn--googl-3we.\ud55c\uad6d", kSafe},
    {"xn--hello?world.com", nullptr, kInvalid},
    {"", u"", kSafe},
};
      // U+00DF(sharp-s)
      {"xn--fu-hia.de", u"fu\u00df.de",
       is_non_transitional_idna ? kSafe : kUnsafe},
'''


def test_extract_rows_verdicts_categories_and_branches():
    rows = list(EXTRACT.rows(SAMPLE_CC))
    got = [(r[1], r[2], r[3], r[4]) for r in rows]
    assert got == [
        ("payp\u03b1l.com", "spoof", "kUnsafe", "mixed-script"),
        ("\u0578\u057d\u0582\u0585.com", "spoof", "kUnsafe", "whole-script-confusable"),
        ("\u0578\u057d\u0582\u0585.am", "legit", "kSafe", "whole-script-confusable"),
        # Chromium decodes the TLD but keeps the spoofed label in Punycode
        ("googl\u0435.\ud55c\uad6d", "spoof", "kSafe", "whole-script-confusable"),
        ("xn--hello?world.com", "spoof", "kInvalid", "invalid"),
        ("fu\u00df.de", "legit", "kSafe", "deviation-invisible"),
    ]


@pytest.mark.parametrize("ascii_host", [
    "xn--example-.com",       # decodes to ASCII only: not a spelling of example.com
    "xn--krank-kg706554a",    # decodes beyond U+10FFFF
    "xn--p6j412gn7f.cn",      # decodes to a label ending in U+3000, a space
])
def test_extract_keeps_labels_that_are_no_unicode_spelling(ascii_host):
    assert EXTRACT.decode_host(ascii_host) == ascii_host


def test_extract_refuses_a_case_whose_unicode_does_not_match():
    bad = '{"xn--paypl-g9d.com", u"paypal.com", kUnsafe},'
    with pytest.raises(ValueError, match="xn--paypl-g9d.com"):
        list(EXTRACT.rows(bad))


def test_extract_cli_names_a_missing_file(tmp_path, capsys):
    missing = tmp_path / "nope.cc"
    assert EXTRACT.main([str(missing), "--revision", "x"]) == 2
    assert str(missing) in capsys.readouterr().err


# -- the bench script itself ---------------------------------------------------------

def test_bench_scores_and_lists(tmp_path, capsys):
    cases = tmp_path / "cases.tsv"
    cases.write_text("# a comment\nascii\thost\tverdict\tchromium\tcategory\tgroup\n"
                     "xn--paypl-g9d.com\tpayp\u03b1l.com\tspoof\tkUnsafe\tmixed-script\tg\n"
                     "xn--j1amdg.com\t\u043a\u0443\u0440\u0441.com\tlegit\tkSafe\tplain\tg\n",
                     encoding="utf-8")
    legit = tmp_path / "legit.tsv"
    legit.write_text("host\tscript\tlanguage\tsource\n\u043f\u0440\u0438\u043c\u0435\u0440."
                     "\u0440\u0444\tCyrillic\tRussian\ttest\n", encoding="utf-8")
    out_json = tmp_path / "out.json"
    code = BENCH.main(["--chromium-cases", str(cases), "--legit", str(legit), "--list", "fn",
                       "--json", str(out_json)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "OVERALL" in printed and "mixed-script" in printed
    import json

    data = json.loads(out_json.read_text(encoding="utf-8"))
    by_host = {c["host"]: c for c in data["cases"]}
    assert by_host["payp\u03b1l.com"]["irilint"] is True
    assert any(f.startswith("IRI203") for f in by_host["payp\u03b1l.com"]["findings"])
    overall = data["overall"]["irilint"]
    assert overall["tp"] + overall["fn"] == 1 and overall["fp"] + overall["tn"] == 2


def test_confusion_counts_precision_and_recall():
    cases = [BENCH.Case("a", True, "c", "s"), BENCH.Case("b", True, "c", "s"),
             BENCH.Case("c", False, "c", "s"), BENCH.Case("d", False, "c", "s")]
    cases[0].irilint = True   # tp
    cases[2].irilint = True   # fp; b is fn, d is tn
    c = BENCH.confusion(cases, "irilint")
    assert (c["tp"], c["fp"], c["fn"], c["tn"]) == (1, 1, 1, 1)
    assert c["precision"] == 0.5 and c["recall"] == 0.5
    assert BENCH.confusion([], "irilint")["precision"] is None


def test_bench_names_a_malformed_data_file(tmp_path, capsys):
    bad = tmp_path / "cases.tsv"
    bad.write_text("host\tverdict\tcategory\nfoo.com\tmaybe\tx\n", encoding="utf-8")
    assert BENCH.main(["--chromium-cases", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "maybe" in err


def test_bench_without_icu_says_so_and_fails(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "icu", None)   # makes `import icu` raise ImportError
    assert BENCH.main([]) == 2
    assert "cannot import icu" in capsys.readouterr().err


@settings(max_examples=200, deadline=None)
@given(st.lists(_label, min_size=1, max_size=3))
def test_bench_punycode_form_decodes_back(labels):
    host = ".".join(labels)
    ascii_form = BENCH.to_punycode(host)
    assert ascii_form.isascii()
    assert EXTRACT.decode_host(ascii_form) == host


def test_bench_punycode_form_lints_the_xn_labels(tmp_path, capsys):
    cases = tmp_path / "cases.tsv"
    cases.write_text("ascii\thost\tverdict\tchromium\tcategory\tgroup\n"
                     "xn--paypl-g9d.com\tpayp\u03b1l.com\tspoof\tkUnsafe\tmixed-script\tg\n",
                     encoding="utf-8")
    legit = tmp_path / "legit.tsv"
    legit.write_text("host\tscript\tlanguage\tsource\n\u043e\u0441\u0430.\u0440\u0444\tCyrillic"
                     "\tRussian\ttest\n", encoding="utf-8")
    out_json = tmp_path / "out.json"
    assert BENCH.main(["--chromium-cases", str(cases), "--legit", str(legit), "--form", "punycode",
                       "--json", str(out_json)]) == 0
    import json

    data = json.loads(out_json.read_text(encoding="utf-8"))
    by_ascii = {c["ascii"]: c for c in data["cases"]}
    assert set(by_ascii) == {"xn--paypl-g9d.com", "xn--80a1aj.xn--p1ai"}
    assert by_ascii["xn--paypl-g9d.com"]["irilint"] is True
    # the Punycode form of a real name gets the IRI503 hint, which is not a flag
    real = by_ascii["xn--80a1aj.xn--p1ai"]
    assert any(f.startswith("IRI503") for f in real["findings"]) and real["irilint"] is False
    assert "written as punycode" in capsys.readouterr().out


def test_bench_refuses_an_unknown_category(capsys):
    assert BENCH.main(["--category", "no-such-category"]) == 2
    err = capsys.readouterr().err
    assert "no-such-category" in err and "mixed-script" in err


def test_bench_splits_the_legit_list_by_script(capsys):
    assert BENCH.main(["--legit-by-script", "--category", "real-idn"]) == 0
    out = capsys.readouterr().out
    assert "real-idn/Cyrillic" in out and "real-idn/Thaana" in out
    assert "mixed-script" not in out


# Real words written only with Cyrillic letters that look Latin (Chromium's
# per-script list): normal under a TLD of their language, whole-script
# confusables under .com.
_LATIN_LOOKING_WORDS = [
    ("\u0441\u043e\u0440", ("ru", "\u0440\u0444")),                  # сор (Russian: litter)
    ("\u043e\u0440\u0435\u0445", ("ru", "\u0440\u0443\u0441")),      # орех (Russian: nut)
    ("\u0440\u0443\u043a\u0430", ("ru", "su")),                      # рука (Russian: hand)
    ("\u0433\u043e\u0440\u0430", ("ua", "\u0443\u043a\u0440")),      # гора (Ukrainian: mountain)
    ("\u0440\u0443\u0445", ("ua", "\u0443\u043a\u0440")),            # рух (Ukrainian: movement)
    ("\u0440\u0443\u043f\u0430", ("rs", "\u0441\u0440\u0431")),      # рупа (Serbian: hole)
    ("\u0440\u043e\u0458", ("rs", "\u0441\u0440\u0431")),            # рој (Serbian: swarm)
    ("\u043e\u043f\u043e\u0440\u0430", ("bg", "\u0431\u0433")),      # опора (Bulgarian: support)
    ("\u043f\u0443\u0445", ("bg", "\u0431\u0433")),                  # пух (Bulgarian: down)
]


@pytest.mark.parametrize("word,tlds", _LATIN_LOOKING_WORDS)
def test_latin_looking_cyrillic_words_are_clean_under_their_own_tlds(word, tlds):
    for tld in tlds:
        assert lookalike_findings(f"http://{word}.{tld}/") == [], tld
        assert bench_flags(f"{word}.{tld}") == [], tld


@pytest.mark.parametrize("word,tlds", _LATIN_LOOKING_WORDS)
def test_latin_looking_cyrillic_words_are_whole_script_confusables_under_com(word, tlds):
    flags = bench_flags(f"{word}.com")
    assert any(f.startswith("IRI204 whole-script-confusable") for f in flags), flags


def test_chromium_allowed_whole_script_words_stay_clean():
    # курс, парк: common words that read as no Latin name (Chromium's list)
    for word in ("\u043a\u0443\u0440\u0441", "\u043f\u0430\u0440\u043a"):
        assert bench_flags(f"{word}.com") == []


def test_a_cyrillic_word_drawn_all_latin_is_flagged_outside_cyrillic_tlds():
    # мост: every letter is drawn like a Latin one in an address bar (м as
    # m, т as t), so under .com it reads as 'moct'; under .рф it is a word.
    host = "\u043c\u043e\u0441\u0442.com"
    assert [f for f in bench_flags(host) if f.startswith("IRI204")], bench_flags(host)
    assert bench_flags("\u043c\u043e\u0441\u0442.\u0440\u0444") == []
    result = _ENGINE.check_text(f"http://{host}/\n", path="links.md",
                                settings=Settings(protected_domains=("moct.com",)))
    names = [f.rule.name for f in result.findings if f.rule.family == "lookalike"]
    assert sorted(names) == ["confusable-collision", "whole-script-confusable"]
    assert any("moct.com" in f.message for f in result.findings if f.rule.name == "confusable-collision")


def test_bench_prints_both_tables_with_and_without_the_top_domains(tmp_path, capsys):
    cases = tmp_path / "cases.tsv"
    cases.write_text("ascii\thost\tverdict\tchromium\tcategory\tgroup\n"
                     "xn--igklmo68-kcb.com\t\u0111igklmo68.com\tspoof\tkUnsafe\ttop-domain-similarity\tg\n",
                     encoding="utf-8")
    legit = tmp_path / "legit.tsv"
    legit.write_text("host\tscript\tlanguage\tsource\n\u043e\u0441\u0430.\u0440\u0444\tCyrillic"
                     "\tRussian\ttest\n", encoding="utf-8")
    top = tmp_path / "top.list"
    top.write_text("# test list\ndigklmo68.com\n", encoding="utf-8")
    out_json = tmp_path / "out.json"
    args = ["--chromium-cases", str(cases), "--legit", str(legit), "--top-domains", str(top)]
    assert BENCH.main(args + ["--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    plain, listed = out.split("## irilint as shipped")[1].split("## irilint with protected-domains")
    import json

    row = [line for line in plain.splitlines() if line.startswith("OVERALL")][0]
    assert row.split("|")[1].split()[:4] == ["0", "0", "1", "1"]      # TP FP FN TN without the list
    row = [line for line in listed.splitlines() if line.startswith("OVERALL")][0]
    assert row.split("|")[1].split()[:4] == ["1", "0", "0", "1"]      # with it
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["protected_domains"] == ["digklmo68.com"] and data["overall"]["irilint"]["tp"] == 1
    assert BENCH.main(args + ["--without-top-domains", "--json", str(out_json)]) == 0
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["protected_domains"] == [] and data["overall"]["irilint"]["tp"] == 0


def test_bench_names_an_unreadable_top_domain_list(tmp_path, capsys):
    assert BENCH.main(["--top-domains", str(tmp_path / "missing.list"), "--category", "bidi"]) == 2
    assert "missing.list" in capsys.readouterr().err


def test_committed_top_domains_record_their_revision():
    path = os.path.join(ROOT, "bench", "data", "chromium_test_domains.list")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert "# Revision: " in text and "test_domains.list" in text
    domains = BENCH.read_domains(path)
    assert "digklmo68.com" in domains and "test.net" in domains and "f\u00f3\u00f3.com" in domains


_EXTRACT = _load_bench("extract_chromium_cases")


def test_extract_top_domains_drops_comments_and_marker(tmp_path, capsys):
    src = tmp_path / "test_domains.list"
    src.write_text("#\n# List of top domains.\n#\nd4000.com\n###END_TOP_500###\nDigklmo68.co.uk\n"
                   "# Unicode domain:\nfo\u0301\u00f3.com\n", encoding="utf-8")
    assert _EXTRACT.main([str(src), "--top-domains", "--revision", "abc123"]) == 0
    out = capsys.readouterr().out
    assert "# Revision: abc123" in out
    assert [l for l in out.splitlines() if not l.startswith("#")] == [
        "d4000.com", "digklmo68.co.uk", "f\u00f3\u00f3.com"]


def test_extract_top_domains_refuses_a_line_that_is_no_domain(tmp_path, capsys):
    src = tmp_path / "bad.list"
    src.write_text("d4000.com\nnot a domain\n", encoding="utf-8")
    assert _EXTRACT.main([str(src), "--top-domains", "--revision", "abc"]) == 1
    err = capsys.readouterr().err
    assert "bad.list" in err and "line 2" in err


def test_bench_prints_a_third_run_with_the_well_known_domains(tmp_path, capsys):
    # paypaľ.com imitates a listed domain: only the run with
    # well-known-domains = true flags it, and --well-known-domains makes
    # --list and --json describe that run
    cases = tmp_path / "cases.tsv"
    cases.write_text("ascii\thost\tverdict\tchromium\tcategory\tgroup\n"
                     "xn--paypa-f3a.com\tpaypa\u013e.com\tspoof\tkUnsafe\ttop-domain-similarity\tg\n",
                     encoding="utf-8")
    legit = tmp_path / "legit.tsv"
    legit.write_text("host\tscript\tlanguage\tsource\n\u043f\u0440\u0438\u043c\u0435\u0440."
                     "\u0440\u0444\tCyrillic\tRussian\ttest\n", encoding="utf-8")
    out_json = tmp_path / "out.json"
    assert BENCH.main(["--chromium-cases", str(cases), "--legit", str(legit), "--well-known-domains",
                       "--list", "fn", "--json", str(out_json)]) == 0
    printed = capsys.readouterr().out
    shipped, _test_list, well_known = printed.split("\n## ")[1:4]
    assert shipped.startswith("irilint as shipped") and well_known.startswith(
        "irilint with the well-known domains (`well-known-domains = true`")
    overall = [line for line in printed.split("\n## Firefox")[0].splitlines() if line.startswith("OVERALL")]
    assert [line.split()[3:7] for line in overall] == [["0", "0", "1", "1"], ["0", "0", "1", "1"],
                                                        ["1", "0", "0", "1"]]
    assert "# irilint FN: 0" in printed
    import json

    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["well_known_domains"] is True and data["protected_domains"] == []
    (spoof,) = [c for c in data["cases"] if c["spoof"]]
    assert spoof["irilint"] is True
    assert any("'paypal.com' from the list of well-known domains" in f for f in spoof["findings"])


def test_bench_prints_firefox_verdicts_in_their_own_table(tmp_path, capsys):
    firefox = tmp_path / "firefox.tsv"
    firefox.write_text("# test\nascii\thost\tverdict\tfirefox_high\tfirefox_moderate\tgroup\n"
                       "xn--war-and--b9g3b7b3h.com\twar-and-\u043c\u0438\u0440\u044a.com\tspoof\tpunycode\tpunycode"
                       "\tMixed script\n"
                       "xn--hxa3ahjw4a.com\t\u03c0\u03bb\u03ac\u03c4\u03c9\u03bd.com\tlegit\tunicode\tunicode"
                       "\tGreek alone\n", encoding="utf-8")
    assert BENCH.main(["--firefox-cases", str(firefox), "--category", "bidi"]) == 0
    out = capsys.readouterr().out.split("## Firefox's verdicts")[1]
    rows = {line.split("  ")[0]: line.split("|")[1].split()[:4] for line in out.splitlines() if "|" in line}
    assert rows["Mixed script"] == ["1", "0", "0", "0"] and rows["Greek alone"] == ["0", "0", "0", "1"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("ascii\thost\tverdict\tgroup\nx.com\tx.com\tmaybe\tg\n", encoding="utf-8")
    assert BENCH.main(["--firefox-cases", str(bad), "--category", "bidi"]) == 2
    assert "bad.tsv:" in capsys.readouterr().err
