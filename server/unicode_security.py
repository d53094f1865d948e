"""Unicode security checks for irilint (UTS #39, UAX #24, UAX #31).

(One module, over 600 lines: many small pure functions over the one
generated table module, the UTS #39 / UAX #24 / UAX #31 interface that the
rules and the display code import.)

Pure functions over the generated tables in :mod:`irilint.unicode_data`
(regenerate with ``python tools/gen_unicode_data.py``).  Only the standard
library is used at run time.

Script codes are ISO 15924 four-letter codes throughout ('Latn', 'Cyrl',
'Hani', 'Zyyy' = Common, 'Zinh' = Inherited, 'Zzzz' = Unknown); use
:func:`script_name` to get a name for messages.

Version note: the tables describe ``unicode_data.UNICODE_VERSION``, which is
usually newer than the running Python's ``unicodedata.unidata_version``.
NFD (needed by :func:`skeleton`) and character names come from
``unicodedata``, patched with the generated tables for characters newer than
``unicode_data.NAMES_BASELINE_VERSION``.
"""
from __future__ import annotations

import enum
import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from . import unicode_data as _data
from .chars import SHORT_TEXT, class_re, distinct_non_ascii

__all__ = [
    "UNICODE_VERSION",
    "COMMON",
    "INHERITED",
    "UNKNOWN",
    "RestrictionLevel",
    "MixedScript",
    "script_extensions",
    "script_of",
    "general_category",
    "script_name",
    "script_code",
    "scripts_in",
    "resolved_script_set",
    "restriction_level",
    "mixed_script",
    "skeleton",
    "confusable_prototype",
    "is_confusable",
    "whole_script_confusable",
    "identifier_allowed",
    "identifier_type",
    "is_default_ignorable",
    "is_extended_pictographic",
    "joining_type",
    "char_name",
    "describe",
]

UNICODE_VERSION: str = _data.UNICODE_VERSION

COMMON = "Zyyy"
INHERITED = "Zinh"
UNKNOWN = "Zzzz"
LATIN = "Latn"

# UTS #39 s5.1: Common and Inherited characters are treated as belonging to
# ALL scripts when resolving a script set.
_ALL_SCRIPTS_MARKERS = frozenset((COMMON, INHERITED))

# UTS #39 s5.1 "augmented script sets": Han is written together with kana
# (Japanese), Hangul (Korean) or Bopomofo, so a character's set gets the
# combined writing-system codes added.  Han gets all three.
_AUGMENT: Dict[str, Tuple[str, ...]] = {
    "Hani": ("Hanb", "Jpan", "Kore"),
    "Hira": ("Jpan",),
    "Kana": ("Jpan",),
    "Hang": ("Kore",),
    "Bopo": ("Hanb",),
}
_HIGHLY_RESTRICTIVE_WITH_LATIN = frozenset(("Jpan", "Kore", "Hanb"))

# UTS #39 s5.2 Moderately Restrictive: Latin plus one other *Recommended*
# script (UAX #31 Table 5), except the two most Latin-confusable ones.
_MODERATE_PARTNERS = frozenset(_data.RECOMMENDED_SCRIPTS) - {"Cyrl", "Grek", LATIN}


# ---------------------------------------------------------------------------
# Table lookups
# ---------------------------------------------------------------------------

_SCX_SETS: Tuple[FrozenSet[str], ...] = tuple(frozenset(s) for s in _data.SCX_SETS)


def _augment(scx: FrozenSet[str]) -> Optional[FrozenSet[str]]:
    """Augmented script set of one character (None = ALL scripts)."""
    base = scx - _ALL_SCRIPTS_MARKERS
    if not base:
        return None
    extra = [a for s in base for a in _AUGMENT.get(s, ())]
    return base.union(extra) if extra else base


_AUGMENTED_SETS: Tuple[Optional[FrozenSet[str]], ...] = tuple(_augment(s) for s in _SCX_SETS)
_IDTYPE_SETS: Tuple[FrozenSet[str], ...] = tuple(frozenset(s) for s in _data.IDTYPE_SETS)


def _cp(ch: str) -> int:
    if not isinstance(ch, str) or len(ch) != 1:
        raise TypeError("expected a single character, got %r" % (ch,))
    return ord(ch)


def _in_boundaries(table: Sequence[int], cp: int) -> bool:
    # Boundary lists alternate start / end+1, so membership is "odd index".
    return bisect_right(table, cp) & 1 == 1


def _scx_index(cp: int) -> int:
    return _data.SCX_INDEX[bisect_right(_data.SCX_STARTS, cp) - 1]


# ---------------------------------------------------------------------------
# Scripts (UAX #24, UTS #39 s5)
# ---------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def script_extensions(ch: str) -> FrozenSet[str]:
    """Script_Extensions (scx) of ``ch`` as ISO 15924 codes.

    >>> sorted(script_extensions("\\u30fc"))
    ['Hira', 'Kana']
    """
    return _SCX_SETS[_scx_index(_cp(ch))]


def script_of(ch: str) -> str:
    """The Script property (UAX #24) of ``ch``: its one script, 'Zyyy' for
    characters shared by several scripts even where Script_Extensions
    lists a few of them.

    >>> script_of("\\u00b7"), script_of("\\u0660")
    ('Zyyy', 'Arab')
    """
    i = bisect_right(_data.SCRIPT_STARTS, _cp(ch)) - 1
    return _data.SCRIPT_VALUES[4 * i:4 * i + 4]


def general_category(ch: str) -> str:
    """The General_Category of ``ch`` ("Lu", "Mn", "Cf"...) in the Unicode
    version of irilint's tables, whichever Python runs it: the running
    Python's ``unicodedata`` for the characters it knows, the generated
    table for those it calls unassigned ("Cn") but the tables do not
    (a Nag Mundari letter is "Lo" on Python 3.11 too).

    >>> general_category("a"), general_category("\U0001e4d0")
    ('Ll', 'Lo')
    """
    category = unicodedata.category(ch)
    if category != "Cn":
        return category
    i = bisect_right(_data.NEWER_CATEGORY_STARTS, _cp(ch)) - 1
    return _data.NEWER_CATEGORY_VALUES[2 * i:2 * i + 2]


def _augmented(ch: str) -> Optional[FrozenSet[str]]:
    return _AUGMENTED_SETS[_scx_index(ord(ch))]


def script_name(code: str) -> str:
    """Long name of an ISO 15924 code ('Cyrl' -> 'Cyrillic'); unknown codes
    are returned unchanged."""
    return _data.SCRIPT_NAMES.get(code, code)


def _name_key(name: str) -> str:
    return name.replace("_", " ").replace("-", " ").casefold()


_CODE_BY_KEY: Dict[str, str] = {}
for _code, _name in _data.SCRIPT_NAMES.items():
    _CODE_BY_KEY[_name_key(_name)] = _code
for _code in _data.SCRIPT_NAMES:  # codes win over names on collision
    _CODE_BY_KEY[_code.casefold()] = _code
_CODE_BY_KEY.update({"common": COMMON, "inherited": INHERITED, "unknown": UNKNOWN})


def script_code(name: str) -> str:
    """ISO 15924 code for a code or long name, case-insensitively
    ('latin', 'LATN', 'Old_Italic' ...).  Raises ValueError if unknown."""
    try:
        return _CODE_BY_KEY[_name_key(name)]
    except KeyError:
        raise ValueError("unknown script: %r" % (name,)) from None


def resolved_script_set(s: str) -> Optional[FrozenSet[str]]:
    """UTS #39 s5.1 resolved script set of ``s``.

    The intersection of the augmented Script_Extensions sets of all
    characters, where Common/Inherited characters count as ALL scripts.
    Returns ``None`` for ALL (``s`` has only Common/Inherited characters or is
    empty), an empty set when ``s`` mixes scripts, and otherwise the scripts
    that cover the whole string, e.g. ``{'Latn'}``, or
    ``{'Hani', 'Hanb', 'Jpan', 'Kore'}`` for Han only, or ``{'Jpan'}`` for
    Han + kana.
    """
    return _resolve(s, ())


@lru_cache(maxsize=4096)
def _resolve(s: str, skip: Tuple[str, ...]) -> Optional[FrozenSet[str]]:
    """Resolved script set, ignoring characters whose scx meets ``skip``."""
    result: Optional[FrozenSet[str]] = None
    skip_set = frozenset(skip)
    # An intersection: each distinct character counts once.
    for ch in (s if len(s) < SHORT_TEXT else dict.fromkeys(s)):
        aug = _augmented(ch)
        if aug is None or (skip_set and not skip_set.isdisjoint(aug)):
            continue
        result = aug if result is None else result & aug
        if not result:
            return frozenset()
    return result


def _is_single_script(s: str) -> bool:
    return resolved_script_set(s) != frozenset()


class RestrictionLevel(enum.IntEnum):
    """UTS #39 s5.2 restriction levels, from most to least restrictive."""

    ASCII_ONLY = 1
    SINGLE_SCRIPT = 2
    HIGHLY_RESTRICTIVE = 3
    MODERATELY_RESTRICTIVE = 4
    MINIMALLY_RESTRICTIVE = 5
    UNRESTRICTED = 6


def restriction_level(s: str, identifier_profile: bool = True) -> RestrictionLevel:
    """UTS #39 s5.2 restriction level of ``s``.

    With ``identifier_profile=True`` (the spec's algorithm) a string holding
    any character whose Identifier_Status is not Allowed is UNRESTRICTED.
    Pass ``False`` to rate only the mixture of scripts, which is what makes
    sense for text that legitimately contains '/', ':', '.' and the like.
    """
    # Every step depends on which characters occur, not on how often.
    chars = s if len(s) < SHORT_TEXT else "".join(dict.fromkeys(s))
    if identifier_profile and not all(identifier_allowed(c) for c in chars):
        return RestrictionLevel.UNRESTRICTED
    # Step "no character above U+007E" (U+007F is never Allowed anyway).
    if all(ord(c) <= 0x7E for c in chars):
        return RestrictionLevel.ASCII_ONLY
    if _is_single_script(s):
        return RestrictionLevel.SINGLE_SCRIPT
    # "Covered by Latin + X": resolve the characters that are not Latin.
    # Characters whose scx includes Latin are covered by Latin and skipped.
    rest = _resolve(s, (LATIN,))
    assert rest is not None  # otherwise the string would be single-script
    if not rest.isdisjoint(_HIGHLY_RESTRICTIVE_WITH_LATIN):
        return RestrictionLevel.HIGHLY_RESTRICTIVE
    if not rest.isdisjoint(_MODERATE_PARTNERS):
        return RestrictionLevel.MODERATELY_RESTRICTIVE
    return RestrictionLevel.MINIMALLY_RESTRICTIVE


def _preference(code: str) -> Tuple[int, str]:
    # When a character belongs to several scripts (e.g. U+0660 is
    # Arabic/Thaana/Yezidi) and none of them is already being reported,
    # report a Recommended script first, then alphabetically.
    return (0 if code in _data.RECOMMENDED_SCRIPTS else 1, code)


def scripts_in(s: str) -> List[str]:
    """The scripts ``s`` is written in, as codes in order of first use.

    Common and Inherited are not reported.  A character with several
    Script_Extensions adds nothing if one of its scripts is already
    reported (so U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK after katakana
    is just Katakana); otherwise its own Script is added (U+0660 ARABIC-INDIC
    DIGIT ZERO is Arabic), or nothing when that is Common or Inherited:
    U+00B7 MIDDLE DOT, used by Latin, Greek, Georgian and a dozen more, is
    no script's letter.
    """
    return list(_scripts_in(s))


_LATIN_ONLY = frozenset((LATIN,))
_SCX_SPECIFIC: Tuple[FrozenSet[str], ...] = tuple(x - _ALL_SCRIPTS_MARKERS for x in _SCX_SETS)


@lru_cache(maxsize=4096)
def _scripts_in(s: str) -> Tuple[str, ...]:
    if len(s) >= SHORT_TEXT:
        # Only the first occurrence of each character matters (a repeated
        # character adds no script and moves no first use): judge the
        # distinct characters, in order of first occurrence.
        distinct = "".join(dict.fromkeys(s))
        if len(distinct) < len(s):
            return _scripts_in(distinct)
    sets: List[FrozenSet[str]] = []
    chars: List[str] = []
    for c in s:
        if c < "\x80":  # ASCII: Latin letters, everything else Common
            if c.isalpha():
                sets.append(_LATIN_ONLY)
                chars.append(c)
            continue
        x = _SCX_SPECIFIC[_scx_index(ord(c))]
        if x:
            sets.append(x)
            chars.append(c)
    chosen = {next(iter(x)) for x in sets if len(x) == 1}
    for c, x in zip(chars, sets):
        if len(x) > 1 and x.isdisjoint(chosen):
            own = script_of(c)
            if own in x:
                chosen.add(own)
    first_use: Dict[str, int] = {}
    for i, x in enumerate(sets):
        for code in x & chosen:
            first_use.setdefault(code, i)
    return tuple(sorted(chosen, key=lambda c: (first_use[c], c)))


class MixedScript(NamedTuple):
    """Result of :func:`mixed_script`; unpacks as ``(mixed, scripts)``."""

    mixed: bool
    #: long names of the scripts found, in order of first use ("Latin", ...)
    scripts: List[str]


def mixed_script(s: str, allowed_scripts: Iterable[str] = ()) -> MixedScript:
    """Whether ``s`` mixes scripts beyond UTS #39 Moderately Restrictive.

    ``mixed`` is True when the string's restriction level, judged on scripts
    only (see :func:`restriction_level` with ``identifier_profile=False``),
    is Minimally Restrictive: e.g. Latin + Cyrillic, Latin + Greek, Cyrillic
    + Greek.  Not mixed: any single script (with Common and Inherited
    characters such as digits, punctuation, ZWNJ), Latin + Han + kana,
    Latin + Han + Bopomofo, Latin + Han + Hangul, Latin + one Recommended
    script other than Cyrillic or Greek.

    ``allowed_scripts`` (codes or names) are treated like Common: characters
    of those scripts never make a string mixed.  E.g. with ``["Cyrillic"]``,
    Latin + Cyrillic is accepted.
    """
    allowed_codes = tuple(sorted({script_code(a) for a in allowed_scripts}))
    mixed, scripts = _mixed_script(s, allowed_codes)
    return MixedScript(mixed, list(scripts))


@lru_cache(maxsize=4096)
def _mixed_script(s: str, allowed_codes: Tuple[str, ...]) -> Tuple[bool, Tuple[str, ...]]:
    scripts = tuple(script_name(c) for c in _scripts_in(s))
    if restriction_level(s, identifier_profile=False) <= RestrictionLevel.MODERATELY_RESTRICTIVE:
        return False, scripts
    allowed = set(allowed_codes)
    if allowed:
        # Augment so that e.g. allowing "Hani" also covers Jpan/Kore/Hanb.
        allowed.update(a for code in list(allowed) for a in _AUGMENT.get(code, ()))
        chars = s if len(s) < SHORT_TEXT else "".join(dict.fromkeys(s))  # only which occur matters
        rest = "".join(c for c in chars if (_augmented(c) or frozenset()).isdisjoint(allowed))
        if restriction_level(rest, identifier_profile=False) <= RestrictionLevel.MODERATELY_RESTRICTIVE:
            return False, scripts
    return True, scripts


# ---------------------------------------------------------------------------
# Confusables (UTS #39 s4)
# ---------------------------------------------------------------------------

def _nfd(s: str) -> str:
    """NFD that also decomposes characters newer than the stdlib's data."""
    s = unicodedata.normalize("NFD", s)
    if not s.isascii():
        supp = _data.NFD_SUPPLEMENT
        if any(ord(c) in supp for c in s):
            s = "".join(supp.get(ord(c), c) for c in s)
    return s


@lru_cache(maxsize=8192)
def skeleton(s: str) -> str:
    """UTS #39 s4 skeleton: NFD, map each character to its confusable
    prototype, NFD again.  Two strings are confusable iff their skeletons are
    equal; a skeleton is for comparing, not for display.  Default ignorable
    characters map to nothing (their prototype is empty)."""
    table = _data.CONFUSABLES
    deleted = _data.CONFUSABLE_DELETED
    out = []
    for c in _nfd(s):
        cp = ord(c)
        proto = table.get(cp)
        if proto is not None:
            out.append(proto)
        elif cp < 0x80 or not _in_boundaries(deleted, cp):
            out.append(c)
    return _nfd("".join(out))


def is_confusable(a: str, b: str) -> bool:
    """UTS #39 s4: ``a`` and ``b`` are confusable (equal skeletons)."""
    return skeleton(a) == skeleton(b)


def confusable_prototype(ch: str) -> Optional[str]:
    """The prototype ``ch`` maps to under UTS #39 s4 (in NFD), or None if
    ``ch`` is its own prototype.  Default ignorable characters give "".
    For characters that NFD decomposes, the skeleton of the character is
    returned if it differs from its NFD."""
    cp = _cp(ch)
    proto = _data.CONFUSABLES.get(cp)
    if proto is not None:
        return proto
    if _in_boundaries(_data.CONFUSABLE_DELETED, cp):
        return ""
    decomposed = _nfd(ch)
    if decomposed == ch:
        return None
    sk = skeleton(ch)
    return sk if sk != decomposed else None


def _latin_looking(ch: str) -> bool:
    # ASCII, or a combining mark that can sit on Latin letters (so that e.g.
    # Cyrillic "ё" -> "e" + U+0308 still counts as looking Latin).
    if ch.isascii():
        return True
    return (general_category(ch).startswith("M")
            and not script_extensions(ch).isdisjoint((INHERITED, COMMON, LATIN)))


def whole_script_confusable(s: str) -> Optional[str]:
    """Latin look-alike of a string written entirely in one non-Latin script.

    Returns the skeleton of ``s`` when ``s`` is single-script (UTS #39 s5.1;
    Common and Inherited characters such as digits and '-' are ignored), that
    script is not Latin, and the skeleton is plain ASCII (plus combining
    marks) with at least one ASCII letter, e.g. Cyrillic "сор" -> "cop".
    The result is a skeleton: compare it with ``skeleton(other)``.
    Otherwise returns None; ordinary Russian words such as "пример" return
    None because some of their letters (п, и, м, я ...) have no ASCII
    prototype.  This is the practical "looks like an ASCII name" case of
    the UTS #39 s4 whole-script confusable definition.
    """
    resolved = resolved_script_set(s)
    if not resolved or LATIN in resolved:
        return None
    sk = skeleton(s)
    if sk == _nfd(s):  # nothing was mapped: cannot look like Latin
        return None
    if not all(_latin_looking(c) for c in sk):
        return None
    if not any(c.isascii() and c.isalpha() for c in sk):
        return None
    return sk


# ---------------------------------------------------------------------------
# Identifier profile (UTS #39 s3.1) and Default_Ignorable_Code_Point
# ---------------------------------------------------------------------------

def identifier_allowed(ch: str) -> bool:
    """UTS #39 s3.1 Identifier_Status is Allowed (else Restricted)."""
    return _in_boundaries(_data.IDENTIFIER_ALLOWED, _cp(ch))


def identifier_type(ch: str) -> FrozenSet[str]:
    """UTS #39 s3.1 Identifier_Type values, e.g. {'Recommended'} or
    {'Not_XID'} or {'Obsolete', 'Technical'}."""
    cp = _cp(ch)
    return _IDTYPE_SETS[_data.IDTYPE_INDEX[bisect_right(_data.IDTYPE_STARTS, cp) - 1]]


def is_default_ignorable(ch: str) -> bool:
    """Default_Ignorable_Code_Point (invisible when not supported):
    U+00AD, U+200B..U+200F, U+2060..U+206F, U+FEFF, variation selectors,
    tags, U+3164 HANGUL FILLER, ..."""
    return _in_boundaries(_data.DEFAULT_IGNORABLE, _cp(ch))


def is_extended_pictographic(ch: str) -> bool:
    """Extended_Pictographic (UTS #51): emoji and the pictographs that may
    become emoji, e.g. U+2764 HEAVY BLACK HEART, U+1F600, U+00A9."""
    return _in_boundaries(_data.EXTENDED_PICTOGRAPHIC, _cp(ch))


def joining_type(ch: str) -> str:
    """Joining_Type (ArabicShaping.txt) as its one-letter code: 'U'
    (Non_Joining), 'C' (Join_Causing), 'D' (Dual_Joining), 'L'
    (Left_Joining), 'R' (Right_Joining) or 'T' (Transparent).  Characters
    not listed in ArabicShaping.txt are T if they are Mn, Me or Cf, else U.
    Used by the RFC 5892 Appendix A.1 rule for U+200C ZERO WIDTH NON-JOINER.
    """
    return _data.JOINING_TYPE_VALUES[bisect_right(_data.JOINING_TYPE_STARTS, _cp(ch)) - 1]


# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

# Control characters have no Name property; these are their Unicode name
# aliases (NameAliases.txt, type "control", or "figment" where there is no
# control alias: U+0080, U+0081, U+0099).
_CONTROL_ALIASES: Dict[int, str] = {
    0x00: "NULL",
    0x01: "START OF HEADING",
    0x02: "START OF TEXT",
    0x03: "END OF TEXT",
    0x04: "END OF TRANSMISSION",
    0x05: "ENQUIRY",
    0x06: "ACKNOWLEDGE",
    0x07: "ALERT",
    0x08: "BACKSPACE",
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x0E: "SHIFT OUT",
    0x0F: "SHIFT IN",
    0x10: "DATA LINK ESCAPE",
    0x11: "DEVICE CONTROL ONE",
    0x12: "DEVICE CONTROL TWO",
    0x13: "DEVICE CONTROL THREE",
    0x14: "DEVICE CONTROL FOUR",
    0x15: "NEGATIVE ACKNOWLEDGE",
    0x16: "SYNCHRONOUS IDLE",
    0x17: "END OF TRANSMISSION BLOCK",
    0x18: "CANCEL",
    0x19: "END OF MEDIUM",
    0x1A: "SUBSTITUTE",
    0x1B: "ESCAPE",
    0x1C: "INFORMATION SEPARATOR FOUR",
    0x1D: "INFORMATION SEPARATOR THREE",
    0x1E: "INFORMATION SEPARATOR TWO",
    0x1F: "INFORMATION SEPARATOR ONE",
    0x7F: "DELETE",
    0x80: "PADDING CHARACTER",
    0x81: "HIGH OCTET PRESET",
    0x82: "BREAK PERMITTED HERE",
    0x83: "NO BREAK HERE",
    0x84: "INDEX",
    0x85: "NEXT LINE",
    0x86: "START OF SELECTED AREA",
    0x87: "END OF SELECTED AREA",
    0x88: "CHARACTER TABULATION SET",
    0x89: "CHARACTER TABULATION WITH JUSTIFICATION",
    0x8A: "LINE TABULATION SET",
    0x8B: "PARTIAL LINE FORWARD",
    0x8C: "PARTIAL LINE BACKWARD",
    0x8D: "REVERSE LINE FEED",
    0x8E: "SINGLE SHIFT TWO",
    0x8F: "SINGLE SHIFT THREE",
    0x90: "DEVICE CONTROL STRING",
    0x91: "PRIVATE USE ONE",
    0x92: "PRIVATE USE TWO",
    0x93: "SET TRANSMIT STATE",
    0x94: "CANCEL CHARACTER",
    0x95: "MESSAGE WAITING",
    0x96: "START OF GUARDED AREA",
    0x97: "END OF GUARDED AREA",
    0x98: "START OF STRING",
    0x99: "SINGLE GRAPHIC CHARACTER INTRODUCER",
    0x9A: "SINGLE CHARACTER INTRODUCER",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
    0x9C: "STRING TERMINATOR",
    0x9D: "OPERATING SYSTEM COMMAND",
    0x9E: "PRIVACY MESSAGE",
    0x9F: "APPLICATION PROGRAM COMMAND",
}

_NAME_RANGE_STARTS = tuple(r[0] for r in _data.NAME_RANGES)


def _is_noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def _is_private_use(cp: int) -> bool:
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


@lru_cache(maxsize=4096)
def char_name(ch: str) -> str:
    """Unicode name of ``ch``, never failing.

    C0 controls and DEL get their well-known alias ("CHARACTER TABULATION",
    "LINE FEED"); C1 controls, whose aliases are obscure, get the code point
    label first ("<control-0085> NEXT LINE").  Characters without a name
    give "<private-use>", "<noncharacter>", "<surrogate>" or "<unassigned>".
    Names the running Python's ``unicodedata`` lacks (characters newer
    than it, and the Tangut ideographs, which Python 3.11 leaves unnamed)
    come from the generated data.
    """
    cp = _cp(ch)
    name = unicodedata.name(ch, "")
    if name:
        return name
    name = _data.NAMES.get(cp, "")
    if name:
        return name
    i = bisect_right(_NAME_RANGE_STARTS, cp) - 1
    if i >= 0 and cp <= _data.NAME_RANGES[i][1]:
        return "%s%04X" % (_data.NAME_RANGES[i][2], cp)
    alias = _CONTROL_ALIASES.get(cp)
    if alias is not None:
        return alias if cp < 0x80 else "<control-%04X> %s" % (cp, alias)
    if 0xD800 <= cp <= 0xDFFF:
        return "<surrogate>"
    if _is_private_use(cp):
        return "<private-use>"
    if _is_noncharacter(cp):
        return "<noncharacter>"
    return "<unassigned>"


def describe(ch: str) -> str:
    """``U+XXXX NAME``, e.g. "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    return "U+%04X %s" % (_cp(ch), char_name(ch))


#: The ASCII characters is_invisible says yes to: the C0 controls and DEL.
_ASCII_INVISIBLE_RE = re.compile("[\\x00-\\x1f\\x7f]")
_INVISIBLE_CATEGORIES = frozenset(("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"))


def is_invisible(ch: str) -> bool:
    """A character a reader cannot see, or cannot tell from a space:
    controls, format characters (bidi controls, zero-width characters),
    spaces other than U+0020, separators, private-use, unassigned and
    surrogate code points, and Default_Ignorable_Code_Point characters.
    Such characters are never written raw in a message or a report."""
    if ch == " ":
        return False
    if general_category(ch) in _INVISIBLE_CATEGORIES:
        return True
    if ch.isascii():
        return False
    return is_default_ignorable(ch)


def visible_text(s: str) -> str:
    """``s`` with each invisible character written as ``<U+XXXX>``: the
    one way messages show them (never raw, never as a Python escape)."""
    if s.isascii() and s.isprintable():
        return s
    if len(s) > _MEMO_TEXT_MAX:
        return _visible_text(s)
    # Kept per text: a reference's findings are made again for each edit
    # of it the engine judges, with the same messages.  A text with nothing
    # to hide is kept as None, so that the same object comes back.
    memo = _VISIBLE_MEMO
    shown = memo.get(s, _NOT_KEPT)
    if shown is _NOT_KEPT:
        shown = _visible_text(s)
        if len(memo) >= 4096:
            memo.clear()
        memo[s] = None if shown is s else shown
        return shown
    return s if shown is None else shown


#: text -> visible_text(text), or None where that is the text itself
_VISIBLE_MEMO: Dict[str, Optional[str]] = {}
_NOT_KEPT = object()
#: longer texts are not kept (messages are short; a long one rarely repeats)
_MEMO_TEXT_MAX = 512


def _visible_text(s: str) -> str:
    # Each distinct character is judged once (a long run of one combining
    # mark is one judgement), found by C-level regex passes; the judgement
    # of a character is kept (messages quote the same few characters).
    memo = _INVISIBLE_MEMO
    hidden = []
    for ch in distinct_non_ascii(s):
        seen = memo.get(ch)
        if seen is None:
            if len(memo) >= 65536:
                memo.clear()
            seen = memo[ch] = is_invisible(ch)
        if seen:
            hidden.append(ch)
    # The ASCII ones are controls, which isprintable (one C loop) rules out.
    if not s.isprintable() and _ASCII_INVISIBLE_RE.search(s) is not None:
        hidden.extend(set(_ASCII_INVISIBLE_RE.findall(s)))
    if not hidden:
        return s
    if len(hidden) <= _FEW_HIDDEN:
        # A few C-level replaces cost less than compiling a pattern for a
        # set of characters not seen before (each fuzz input has its own).
        # The order does not matter: "<U+XXXX>" holds no invisible character.
        for ch in hidden:
            s = s.replace(ch, "<U+%04X>" % ord(ch))
        return s
    return class_re(frozenset(hidden)).sub(lambda m: "<U+%04X>" % ord(m.group()), s)


#: character -> is_invisible(character), for visible_text
_INVISIBLE_MEMO: Dict[str, bool] = {}
#: up to this many distinct invisible characters, visible_text replaces
#: them one at a time instead of compiling a pattern
_FEW_HIDDEN = 8


def quoted(s: str, limit: int = 0) -> str:
    """``s`` for a message: in single quotes, invisible characters written
    as ``<U+XXXX>``, cut to ``limit`` characters (0: whole) with "..."."""
    cut = limit and len(s) > limit
    return "'" + visible_text(s[:limit] if cut else s) + ("...'" if cut else "'")
