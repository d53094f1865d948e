"""Tests for irilint.unicode_security and the generated irilint.unicode_data."""
from __future__ import annotations

import importlib.util
import os
import random
import re
import unicodedata

import pytest

from irilint import unicode_data as data
from irilint.unicode_security import (
    RestrictionLevel,
    char_name,
    confusable_prototype,
    describe,
    identifier_allowed,
    identifier_type,
    is_confusable,
    is_default_ignorable,
    mixed_script,
    resolved_script_set,
    restriction_level,
    script_code,
    script_extensions,
    script_name,
    scripts_in,
    skeleton,
    whole_script_confusable,
)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(REPO, "tools", "gen_unicode_data.py")
DATA_FILE = os.path.join(REPO, "server", "unicode_data.py")

CYR_A = "\u0430"  # CYRILLIC SMALL LETTER A
GREEK_ALPHA = "\u03b1"
ZWNJ = "\u200c"


def _icu():
    try:
        import icu  # noqa: F401
    except ImportError:
        return None
    return icu


# --------------------------------------------------------------------------
# Data module
# --------------------------------------------------------------------------

def test_data_versions_recorded():
    assert re.fullmatch(r"\d+\.\d+\.\d+", data.UNICODE_VERSION)
    assert re.fullmatch(r"\d+(\.\d+)+", data.ICU_VERSION)
    assert data.PYICU_VERSION
    assert data.GENERATOR_STDLIB_UNIDATA_VERSION
    assert data.REGENERATE_COMMAND == "python tools/gen_unicode_data.py"
    with open(DATA_FILE, encoding="utf-8") as f:
        head = f.read(2000)
    assert "python tools/gen_unicode_data.py" in head
    assert data.UNICODE_VERSION in head and data.ICU_VERSION in head


def test_data_module_is_small_and_ascii():
    size = os.path.getsize(DATA_FILE)
    assert size < 1_500_000
    with open(DATA_FILE, "rb") as f:
        assert f.read().isascii()  # no invisible or look-alike characters


def test_tables_are_well_formed():
    assert data.SCX_STARTS[0] == 0
    assert list(data.SCX_STARTS) == sorted(set(data.SCX_STARTS))
    assert len(data.SCX_STARTS) == len(data.SCX_INDEX)
    for table in (data.IDENTIFIER_ALLOWED, data.DEFAULT_IGNORABLE):
        assert list(table) == sorted(set(table))
        assert len(table) % 2 == 0
    # Every script code used has a long name.
    used = {c for s in data.SCX_SETS for c in s}
    assert used <= set(data.SCRIPT_NAMES)


def test_runtime_does_not_import_icu_or_regex():
    import ast

    for path in (DATA_FILE, os.path.join(REPO, "server", "unicode_security.py")):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
        assert not imported & {"icu", "regex"}, path


def _load_generator():
    spec = importlib.util.spec_from_file_location("gen_unicode_data", GENERATOR)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_regenerating_gives_identical_output():
    icu = _icu()
    if icu is None:
        pytest.skip("PyICU (pyicu-wheels) is not installed; cannot regenerate unicode_data")
    if icu.ICU_VERSION != data.ICU_VERSION:
        pytest.skip("installed ICU %s differs from ICU %s used for the committed data"
                    % (icu.ICU_VERSION, data.ICU_VERSION))
    gen = _load_generator()
    text = gen.generate()
    # The generating Python's unicodedata version is recorded for information
    # only; do not fail just because the tests run on another Python.
    stdlib = unicodedata.unidata_version
    committed = data.GENERATOR_STDLIB_UNIDATA_VERSION
    if stdlib != committed:
        text = text.replace("unicodedata.unidata_version " + stdlib,
                            "unicodedata.unidata_version " + committed)
        text = text.replace('GENERATOR_STDLIB_UNIDATA_VERSION = "%s"' % stdlib,
                            'GENERATOR_STDLIB_UNIDATA_VERSION = "%s"' % committed)
    with open(DATA_FILE, encoding="utf-8") as f:
        # Equal to the committed file, which an earlier run in another
        # process wrote: the generator is deterministic and the data current.
        assert f.read() == text, "server/unicode_data.py is stale: run python tools/gen_unicode_data.py"


# --------------------------------------------------------------------------
# Script_Extensions and names
# --------------------------------------------------------------------------

def test_script_extensions_examples():
    assert script_extensions("a") == {"Latn"}
    assert script_extensions(CYR_A) == {"Cyrl"}
    assert script_extensions("1") == {"Zyyy"}
    assert script_extensions("\ufe00") == {"Zinh"}  # VARIATION SELECTOR-1
    assert script_extensions(ZWNJ) == {"Zinh"}
    # Since Unicode 16 common combining marks list the scripts they are used with.
    assert {"Latn", "Cyrl", "Grek"} <= script_extensions("\u0301")
    assert {"Hira", "Kana"} <= script_extensions("\u30fc")
    assert {"Arab", "Thaa", "Yezi"} == script_extensions("\u0660")
    assert "Deva" in script_extensions("\u0964")  # DEVANAGARI DANDA
    assert script_extensions("\u0378") == {"Zzzz"}  # unassigned
    with pytest.raises(TypeError):
        script_extensions("ab")


def test_script_extensions_match_icu():
    icu = _icu()
    if icu is None:
        pytest.skip("PyICU (pyicu-wheels) is not installed")
    if icu.ICU_VERSION != data.ICU_VERSION:
        pytest.skip("installed ICU differs from the one used for the data")
    for cp in list(range(0, 0x32000)) + list(range(0xE0000, 0xE01F0)):
        expected = {icu.Script(c).getShortName() for c in icu.Script.getScriptExtensions(cp)}
        assert script_extensions(chr(cp)) == expected, hex(cp)


def test_script_names():
    assert script_name("Latn") == "Latin"
    assert script_name("Cyrl") == "Cyrillic"
    assert script_name("Zyyy") == "Common"
    assert script_name("Zinh") == "Inherited"
    assert script_name("Jpan") == "Japanese"
    assert script_name("Xxxx") == "Xxxx"
    assert script_code("latin") == "Latn"
    assert script_code("CYRL") == "Cyrl"
    assert script_code("Old_Italic") == "Ital"
    with pytest.raises(ValueError):
        script_code("Klingon")


# --------------------------------------------------------------------------
# Resolved script set, restriction levels, mixed scripts (UTS #39 s5)
# --------------------------------------------------------------------------

def test_resolved_script_set():
    assert resolved_script_set("paypal") == {"Latn"}
    assert resolved_script_set("123-.") is None  # Common only: ALL scripts
    assert resolved_script_set("") is None
    assert resolved_script_set("p" + CYR_A + "ypal") == frozenset()
    # Han augmented with Hanb/Jpan/Kore; Han + kana resolves to Jpan.
    assert resolved_script_set("\u65e5\u672c") == {"Hani", "Hanb", "Jpan", "Kore"}
    assert resolved_script_set("\u65e5\u672c\u3072\u3089\u30ab\u30bf") == {"Jpan"}
    assert resolved_script_set("\ud55c\uad6d\u4e2d") == {"Kore"}  # Hangul + Han
    assert resolved_script_set("\u4e2d\u3105") == {"Hanb"}  # Han + Bopomofo
    assert resolved_script_set("\u3072\ud55c") == frozenset()  # Hiragana + Hangul
    # U+30FC is Hira+Kana: with katakana only it resolves to Kana (and Jpan).
    assert resolved_script_set("\u30ab\u30fc") == {"Kana", "Jpan"}


def test_restriction_levels():
    RL = RestrictionLevel
    assert restriction_level("paypal") == RL.ASCII_ONLY
    assert restriction_level("caf\u00e9") == RL.SINGLE_SCRIPT
    assert restriction_level("\u043f\u0440\u0438\u043c\u0435\u0440") == RL.SINGLE_SCRIPT
    assert restriction_level("abc\u65e5\u672c\u30ab") == RL.HIGHLY_RESTRICTIVE
    assert restriction_level("abc\u4e2d\u3105") == RL.HIGHLY_RESTRICTIVE
    assert restriction_level("abc\ud55c\u4e2d") == RL.HIGHLY_RESTRICTIVE
    assert restriction_level("abc\u0627\u0628") == RL.MODERATELY_RESTRICTIVE  # Latin + Arabic
    assert restriction_level("abc\u0905") == RL.MODERATELY_RESTRICTIVE  # Latin + Devanagari
    assert restriction_level("p" + CYR_A + "ypal") == RL.MINIMALLY_RESTRICTIVE
    assert restriction_level("p" + GREEK_ALPHA + "ypal") == RL.MINIMALLY_RESTRICTIVE
    # Latin + Cherokee: Cherokee is not a Recommended script.
    assert restriction_level("ab\u13a0", identifier_profile=False) == RL.MINIMALLY_RESTRICTIVE
    assert restriction_level("ab\u13a0") == RL.UNRESTRICTED  # Cherokee is Restricted
    # Characters outside the identifier profile.
    assert restriction_level("I\u2665NY") == RL.UNRESTRICTED
    assert restriction_level("a/b") == RL.UNRESTRICTED
    assert restriction_level("a/b", identifier_profile=False) == RL.ASCII_ONLY
    assert RL.ASCII_ONLY < RL.UNRESTRICTED


@pytest.mark.parametrize("text, scripts", [
    ("p" + CYR_A + "ypal", ["Latin", "Cyrillic"]),
    ("p" + GREEK_ALPHA + "ypal", ["Latin", "Greek"]),
    ("\u0430\u0431\u03b3", ["Cyrillic", "Greek"]),
    ("\u03a9mega", ["Greek", "Latin"]),
])
def test_mixed_script_flagged(text, scripts):
    result = mixed_script(text)
    assert result.mixed is True
    assert result.scripts == scripts
    mixed, found = result  # unpacks like a tuple
    assert mixed and found == scripts


@pytest.mark.parametrize("text", [
    "example",
    "abc\u65e5\u672c\u8a9e\u3072\u3089\u304c\u306a\u30ab\u30bf\u30ab\u30ca",  # Latin+Han+Hira+Kana
    "abc\u4e2d\u6587\u3105\u3106",  # Latin + Han + Bopomofo
    "abc\ud55c\uad6d\uc5b4\u4e2d\u6587",  # Latin + Hangul + Han
    "\u043f\u0440\u0438\u043c\u0435\u0440",  # Cyrillic
    "\u043f\u0440\u0438\u043c\u0435\u0440-123.\u0440\u0444",  # Cyrillic + digits, punctuation
    "\u0645\u062b\u0627\u0644",  # Arabic
    "\u0645\u062b\u0627\u0644\u0663\u0664",  # Arabic + Arabic-Indic digits
    "\u0645\u06cc" + ZWNJ + "\u062e\u0648\u0627\u0647\u0645",  # Persian with ZWNJ
    "\u0909\u0926\u093e\u0939\u0930\u0923",  # Devanagari
    "\u0909\u0926\u093e\u0939\u0930\u0923\u0964 123",  # Devanagari + danda + digits
    "\u05d3\u05d5\u05d2\u05de\u05d4-42",  # Hebrew + digits
    "shop-\u0645\u062b\u0627\u0644",  # Latin + Arabic (Moderately Restrictive)
    "1.2-3/4?",  # Common only
    "",
])
def test_mixed_script_not_flagged(text):
    assert mixed_script(text).mixed is False


def test_mixed_script_reports_scripts_for_single_script():
    assert mixed_script("\u043f\u0440\u0438\u043c\u0435\u0440").scripts == ["Cyrillic"]
    assert mixed_script("\u0645\u062b\u0627\u0644\u0663").scripts == ["Arabic"]
    assert mixed_script("123").scripts == []
    assert scripts_in("\u65e5\u672c\u30ab\u30fcabc") == ["Hani", "Kana", "Latn"]
    assert scripts_in("\u0660") == ["Arab"]  # Arab/Thaa/Yezi: Recommended first


def test_mixed_script_allowed_scripts():
    text = "p" + CYR_A + "ypal"
    assert mixed_script(text, ["Cyrillic"]).mixed is False
    assert mixed_script(text, ["Cyrl", "Latn"]).mixed is False
    assert mixed_script(text, ["Greek"]).mixed is True
    # Allowing Cyrillic does not excuse a Greek + Latin mixture as well.
    assert mixed_script(text + GREEK_ALPHA, ["Cyrl"]).mixed is True
    assert mixed_script(text, ["Cyrl"]).scripts == ["Latin", "Cyrillic"]
    with pytest.raises(ValueError):
        mixed_script(text, ["Klingon"])


# --------------------------------------------------------------------------
# Confusables (UTS #39 s4)
# --------------------------------------------------------------------------

def test_skeleton_examples():
    assert skeleton("p" + CYR_A + "ypal") == skeleton("paypal")
    assert skeleton("paypal") == "paypal"
    assert skeleton("\u0441\u043e\u0440") == "cop"  # Cyrillic "cop"
    assert skeleton("m") == "rn" and is_confusable("modern", "rnodern")
    assert skeleton("0") == skeleton("O")
    assert skeleton("I") == skeleton("l") == skeleton("1")
    assert skeleton("caf\u00e9") == "cafe\u0301"  # NFD
    assert not is_confusable("paypal", "paypa1x")


def test_confusable_prototype():
    assert confusable_prototype(CYR_A) == "a"
    assert confusable_prototype("a") is None
    assert confusable_prototype("\u0441") == "c"
    assert confusable_prototype("\u2215") == "/"  # DIVISION SLASH
    assert confusable_prototype("\u043f") == "\u03c0"  # Cyrillic pe -> Greek pi, not Latin
    assert confusable_prototype("\u00e9") is None  # e + acute: both their own prototypes
    assert confusable_prototype("\u200b") == ""  # default ignorables vanish


def test_skeleton_drops_default_ignorables():
    assert skeleton("pay\u200bpal\u00ad") == "paypal"
    assert skeleton("a\U000e0041b\ufe0f") == "ab"


def test_skeleton_matches_icu():
    icu = _icu()
    if icu is None:
        pytest.skip("PyICU (pyicu-wheels) is not installed")
    if icu.ICU_VERSION != data.ICU_VERSION:
        pytest.skip("installed ICU differs from the one used for the data")
    checker = icu.SpoofChecker()
    for cp in list(data.CONFUSABLES) + list(range(0x80, 0x3000)) + list(range(0xE0000, 0xE1000)):
        ch = chr(cp)
        assert skeleton(ch) == checker.getSkeleton(0, ch), hex(cp)
    # Strings: NFD may reorder marks across mapped characters.  Use only
    # characters the running Python's unicodedata knows, since NFD at run
    # time comes from there.
    pool = [chr(cp) for cp in data.CONFUSABLES
            if unicodedata.category(chr(cp)) != "Cn"]
    pool += ["\u0301", "\u0323", "\u0308", "a", "e", "-", "1", "\u00e9", "\u1ec7"]
    rng = random.Random(39)
    for _ in range(3000):
        s = "".join(rng.choice(pool) for _ in range(rng.randint(1, 6)))
        assert skeleton(s) == checker.getSkeleton(0, s), ascii(s)


def test_whole_script_confusable():
    # Cyrillic a, er, er, palochka, ie.  Unicode's confusables map the small
    # palochka U+04CF to "i" (capital U+04C0 maps to "l"), so the Latin
    # look-alike is "appie"; with U+04C0 it is "apple".
    assert whole_script_confusable("\u0430\u0440\u0440\u04cf\u0435") == skeleton("appie")
    assert whole_script_confusable("\u0430\u0440\u0440\u04c0\u0435") == skeleton("apple")
    assert whole_script_confusable("\u0441\u043e\u0440") == "cop"
    assert whole_script_confusable("\u0441\u043e\u0440-2") == "cop-2"
    assert whole_script_confusable("\u03bf\u03c1") == "op"  # Greek omicron rho
    for word in ("\u043f\u0440\u0438\u043c\u0435\u0440",  # пример
                 "\u043c\u043e\u0441\u043a\u0432\u0430",  # москва
                 "\u044f\u043d\u0434\u0435\u043a\u0441",  # яндекс
                 "paypal",  # Latin itself
                 "p" + CYR_A + "ypal",  # mixed, not whole-script
                 "123",
                 "\u0431"):  # б -> "6": no letter
        assert whole_script_confusable(word) is None, word


# --------------------------------------------------------------------------
# Identifier profile and default ignorables
# --------------------------------------------------------------------------

def test_identifier_status():
    assert identifier_allowed("A")
    assert identifier_allowed("a") and identifier_allowed("-") and identifier_allowed("\u00e9")
    assert identifier_allowed("\u043f")
    assert not identifier_allowed("\u2215")  # DIVISION SLASH
    assert not identifier_allowed("/")
    assert not identifier_allowed("\u200b")
    assert not identifier_allowed("\u0378")
    assert identifier_type("A") == {"Recommended"}
    assert "Not_XID" in identifier_type("\u2215")
    assert identifier_type("\u0378") == {"Not_Character"}


@pytest.mark.parametrize("cp", [0x200B, 0x2060, 0x00AD, 0xFEFF, 0x180E, 0x3164,
                                0xFE00, 0xE0041, 0x200C, 0x200D, 0x202E, 0x034F])
def test_default_ignorable(cp):
    assert is_default_ignorable(chr(cp))


@pytest.mark.parametrize("ch", ["a", " ", "\u00a0", "\u0301", "\u200a", "-", "\u0430"])
def test_not_default_ignorable(ch):
    assert not is_default_ignorable(ch)


# --------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------

def test_char_name():
    assert char_name("a") == "LATIN SMALL LETTER A"
    assert char_name("\t") == "CHARACTER TABULATION"
    assert char_name("\n") == "LINE FEED"
    assert char_name("\x7f") == "DELETE"
    assert char_name("\x85") == "<control-0085> NEXT LINE"
    assert char_name("\ue000") == "<private-use>"
    assert char_name("\U0010fffd") == "<private-use>"
    assert char_name("\ufdd0") == "<noncharacter>"
    assert char_name("\U0001ffff") == "<noncharacter>"
    assert char_name("\ud800") == "<surrogate>"
    assert char_name("\u0378") == "<unassigned>"
    assert char_name("\U0001F6DC") == "WIRELESS"  # Unicode 15.0, newer than some Pythons
    assert char_name("\U00031350") == "CJK UNIFIED IDEOGRAPH-31350"
    # older than the names baseline, but without a name in some Pythons'
    # unicodedata (3.11): the generated ranges name them
    assert char_name("\U00017000") == "TANGUT IDEOGRAPH-17000"
    assert char_name("\U00018D08") == "TANGUT IDEOGRAPH-18D08"


def test_general_category_is_the_tables_version_on_any_python():
    from irilint.unicode_security import general_category, is_invisible, visible_text

    assert general_category("a") == "Ll"
    assert general_category("\u0378") == "Cn"  # unassigned
    assert general_category("\U0001e4d0") == "Lo"  # NAG MUNDARI LETTER O, Unicode 15.0
    assert general_category("\U0002ebf0") == "Lo"  # CJK Extension I, Unicode 15.1
    assert general_category("\U00013439") == "Cf"  # EGYPTIAN HIEROGLYPH INSERT AT MIDDLE, 15.0
    assert general_category("\U0001e5d0") == "Lo"  # OL ONAL LETTER O, Unicode 16.0
    # what messages and reports show follows: a letter is shown, a format
    # character is not
    assert visible_text("\U0001e4d0\U0002ebf0") == "\U0001e4d0\U0002ebf0"
    assert is_invisible("\U00013439")


def test_every_character_the_tables_assign_has_a_category():
    # A character with a script is assigned in the tables' Unicode version:
    # it has a category other than "Cn", whichever Python runs irilint.
    from irilint.unicode_security import UNKNOWN, general_category, script_of

    uncategorized = [cp for cp in range(0x110000)
                     if script_of(chr(cp)) != UNKNOWN and general_category(chr(cp)) == "Cn"]
    assert uncategorized == [], ["U+%04X" % cp for cp in uncategorized[:20]]


def test_every_assigned_character_has_a_name():
    # A character the tables give a script is assigned: char_name must not
    # call it "<unassigned>" in a message, whichever Python runs irilint.
    # (Unknown script: unassigned, private use, surrogates, noncharacters.)
    from irilint.unicode_security import UNKNOWN, script_of

    nameless = [cp for cp in range(0x110000)
                if script_of(chr(cp)) != UNKNOWN and char_name(chr(cp)).startswith("<")
                and not (cp < 0x20 or 0x7F <= cp < 0xA0)]
    assert nameless == [], ["U+%04X" % cp for cp in nameless[:20]]
    assert describe("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert describe("\U000e0041") == "U+E0041 TAG LATIN CAPITAL LETTER A"
    assert describe("\x00") == "U+0000 NULL"


def test_control_aliases_are_unicode_aliases():
    # unicodedata.lookup understands name aliases; each alias must name its
    # own code point.
    from irilint.unicode_security import _CONTROL_ALIASES

    assert set(_CONTROL_ALIASES) == set(range(0x20)) | set(range(0x7F, 0xA0))
    for cp, alias in _CONTROL_ALIASES.items():
        assert unicodedata.lookup(alias) == chr(cp), alias


def test_names_supplement_agrees_with_stdlib():
    # Where the running Python knows a newer character, the generated names
    # must agree with it.
    for cp, name in data.NAMES.items():
        known = unicodedata.name(chr(cp), None)
        if known is not None:
            assert known == name, hex(cp)
