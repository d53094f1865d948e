"""The browsers' IDN display policy, per host label (pure functions).

(One module, over 600 lines: the policy's steps are applied in order to one
label and share its IDNA mapping and script sets; kept together, the policy
reads from top to bottom as the browsers write it.)

Browsers decide for every internationalized host label whether its Unicode
form is safe to show or must be shown as Punycode.  This module follows
their written policies -- Chromium's "IDN display policy" (docs/idn.md and
the checks of its IDN spoof checker), Firefox's IDN display algorithm
(``network.IDN.restriction_profile``) and UTS #39 -- and says, for one
label, which step of the policy it fails and why.  The rules in
:mod:`irilint.rules.idn_policy`, ``mixed-script`` and
``whole-script-confusable`` report the findings; ``punycode-label`` asks
:func:`display_verdict` before it calls a U-label safe to show.

A label is judged after IDNA mapping (:func:`map_label`: UTS #46
non-transitional, as browsers convert hosts), in its Unicode form.  The TLD
is the last label of the host, in Unicode form too (``xn--p1ai`` is
``рф``).

Steps (each an :class:`Issue` with the name of the rule that reports it):

1. identifier status: every character must be Allowed under UTS #39
   (Identifier_Status), and not one of the few Allowed characters that
   browsers exclude (:data:`BROWSER_EXCLUDED`);
2. restriction level: :func:`host_label_mixing`;
3. digit look-alikes: :func:`digit_issue`;
4. dangerous patterns: :func:`pattern_issues`;
5. whole-script confusables: :func:`latin_lookalike_script` extends
   :func:`irilint.unicode_security.whole_script_confusable` with the
   per-script letter lists of Chromium's policy and the letters its
   skeleton draws like Latin ones (``irilint.lookalike_table``);
6. characters tied to a TLD: :func:`tld_character_issues`.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Tuple

import idna

from . import unicode_data as _data
from .chars import to_nfc
from .unicode_security import (
    LATIN,
    RestrictionLevel,
    describe,
    general_category,
    identifier_allowed,
    identifier_type,
    is_default_ignorable,
    resolved_script_set,
    restriction_level,
    script_extensions,
    script_name,
    scripts_in,
    skeleton,
)

__all__ = [
    "Issue",
    "BROWSER_EXCLUDED",
    "TLD_SCRIPTS",
    "map_label",
    "imitation",
    "scx_names",
    "restricted_issues",
    "host_label_mixing",
    "is_digit_label",
    "digit_issue",
    "pattern_issues",
    "latin_lookalike_script",
    "tld_allows_script",
    "tld_uses_character",
    "tld_character_issues",
    "label_issues",
    "display_verdict",
]

RESTRICTED_RULE = "idn-restricted-character"
DIGIT_RULE = "idn-digit-lookalike"
PATTERN_RULE = "idn-dangerous-pattern"
TLD_CHAR_RULE = "idn-tld-character"
MIXED_RULE = "mixed-script"
WSC_RULE = "whole-script-confusable"


class Issue(NamedTuple):
    """One failed policy step for one label."""

    rule: str  #: name of the rule that reports it
    step: str  #: the policy step, as messages name it
    #: offsets in the mapped label of the characters at fault (empty: the label)
    positions: Tuple[int, ...]
    reason: str  #: what is wrong, for a message


# ---------------------------------------------------------------------------
# Label form and readings
# ---------------------------------------------------------------------------

@lru_cache(maxsize=8192)
def map_label(label: str) -> str:
    """``label`` as browsers judge it: UTS #46 non-transitional mapping
    (lowercase, width folding, NFC), without the STD3 rules.  A label the
    mapping rejects (idn-invalid reports it) is lowercased and NFC'd."""
    if label.isascii():
        return label.lower()
    try:
        return idna.uts46_remap(label, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        # to_nfc: a label of marks of alternating classes, too long for the
        # mapping, is normalized in linear time
        return to_nfc(label.lower())


#: Readings of letters whose UTS #39 prototype is not ASCII but which look
#: like a Latin letter or a digit in common fonts: the letters of Chromium's
#: per-script look-alike lists and its digit look-alikes.  Used only to say
#: in a message what a label imitates.
_READINGS: Dict[str, str] = {}
for _pair in (
    # Armenian
    "\u0561w \u0563q \u0566q \u0567t \u056cl \u0570h \u0575j \u0578n \u057du \u0582l \u0585o \u0559'"
    # Cyrillic
    " \u0430a \u044bb \u0441c \u0501d \u0435e \u050dg \u04bbh \u0456i \u044eo \u0458j \u04cfl"
    " \u043eo \u0440p \u0517p \u051bq \u0455s \u051dw \u0445x \u0443y \u044ab \u044cb \u04bde"
    " \u043fn \u0433r \u0475v \u0461w \u043ak \u0432b \u043cm \u0442t \u043dh \u04373"
    # Ethiopic
    " \u1200u \u1220w \u1230n \u1235h \u1260n \u1290h \u1270t \u12a8h \u12d0o \u12d5u \u12d8h"
    " \u1320m \u1350t \uab05f"
    # Georgian
    " \u10d93 \u10d8o \u10ddm \u10e7y \u10ebd \u10eeb \u10fdh \u10ffg \u10d53 \u10de3"
    # Greek
    " \u03b1a \u03b9i \u03bak \u03bdv \u03c1p \u03c5u \u03c9w \u03b7n \u03bfo \u03c4t \u03b80"
    # Hebrew
    " \u05d3t \u05d5l \u05d7n \u05d9' \u05dfl \u05e1o \u05f0ll \u05f2\" \u05f3' \ufb26m"
    # Indic letters and digits of the look-alike lists
    " \u09e6o \u09ed9 \u093ds \u0966o \u0971. \u0aa1s \u0a9fc \u0ae6o \u0ae7q \u0a66o \u0a67q"
    " \u0cbds \u0ce6o \u0ce7o \u0d1fs \u0d20o \u0d27w \u0d28m \u0d31o \u0d66o \u0b20o \u0b66o"
    " \u0b6er \u0b9fl \u0baau \u0be6o \u0c66o \u0c67o"
    # Myanmar
    " \u1001a \u1002o \u1004c \u1011w \u1015u \u101do \u1040o \u1042j \u1054q \u105c9"
    " \u1090o \u1091j \u1095q \u1096q \u1097q \u100cg"
    # Thai
    " \u0e17n \u0e19u \u0e1au \u0e1ew \u0e23s \u0e2bn \u0e40l \u0e41ll \u0e50o \u0e14o"
    " \u0e25a \u0e1bu \u0e1fw \u0e21u \u0e01n"
    # Lao
    " \u0e9ew \u0e9fw \u0ea3s \u0eaes \u0e9au \u0ed0o"
    # digit look-alikes (Chromium's list)
    " \u09682 \u09e82 \u0a682 \u0ae82 \u0ce93 \u0ced2 \u05772 \u04993 \u04e13 \u09093 \u09933"
    " \u0a243 \u0a693 \u0ae93 \u0c693 \u10123 \u0a5c3 \u0a6b4 \u4e294 \u31104 \u05736 \u09ea8"
    " \u0a6a8 \u0b6b8 \u0aed9 \u0b689 \u0c689"
).split():
    _READINGS.setdefault(_pair[0], _pair[1:])

#: Characters drawn as a plain vertical stroke, whose UTS #39 prototype may
#: be 'i' or 'l': in a name they read as 'l' (``аррӏе`` is "apple").
_STROKES = frozenset("\u04cf\u04c0\u01c0\u0627\u05d5\u05df\u0661\u06f1\u07ca\u2d4f\u16c1\ua4f2\u0399\u0406")


@lru_cache(maxsize=4096)
def _char_reading(c: str) -> Optional[str]:
    if c.isascii():
        return c.lower()
    if c in _STROKES:
        return "l"
    r = _READINGS.get(c)
    if r is None:
        r = _drawn_like_table().get(c)
    if r is not None:
        return r
    sk = unicodedata.normalize("NFC", skeleton(c))
    if sk and sk.isascii() and sk.isalnum():
        # The skeleton's prototypes: 'O' stands for 0/O/o, 'l' for 1/I/l.
        return {"O": "o"}.get(sk, sk.lower() if len(sk) == 1 else sk)
    if len(sk) == 2 and sk[0].isascii() and sk[0].isalpha() and unicodedata.combining(sk[1]):
        return sk[0].lower()  # a letter with a mark: read as the letter
    return None


def imitation(label: str) -> Optional[str]:
    """What ``label`` looks like to a reader who expects Latin: each
    character read as the ASCII letter or digit it resembles (``аррӏе`` ->
    ``apple``, ``ძ4000`` -> ``d4000``, ``੨੨੨`` -> ``222``); None when a
    character has no such reading or nothing is read differently."""
    out = []
    changed = False
    for c in label:
        if unicodedata.combining(c) and not c.isascii():
            changed = True
            continue  # a mark over a letter does not change what it reads as
        r = _char_reading(c)
        if r is None:
            return None
        changed = changed or r != c
        out.append(r)
    return "".join(out) if changed else None


def _looks(label: str) -> str:
    im = imitation(label)
    return "; it looks like '%s'" % im if im else ""


# ---------------------------------------------------------------------------
# Step 1: identifier status and type (UTS #39 s3.1)
# ---------------------------------------------------------------------------

#: Allowed characters that browsers still refuse in a label shown as
#: Unicode (Chromium's allowed set, after Mozilla's blocklist), with why.
BROWSER_EXCLUDED: Tuple[Tuple[int, int, str], ...] = (
    (0x0138, 0x0138, "a historic letter (Latin kra)"),
    (0x01CD, 0x01DC, "the rarely used Latin Extended-B Pinyin letters"),
    (0x02BB, 0x02BC, "a look-alike of a quotation mark"),
    (0x02EC, 0x02EC, "a modifier letter (voicing)"),
    (0x0338, 0x0338, "it can look like a slash"),
    (0x058A, 0x058A, "a hyphen (IDNA2008 NV8)"),
    (0x1C80, 0x1C8F, "the rarely used Cyrillic Extended-C block"),
    (0x1E00, 0x1E9B, "the rarely used Latin Extended Additional letters"),
    (0x1F00, 0x1FFF, "the rarely used Greek Extended block"),
    (0x2010, 0x2010, "a look-alike of the ASCII hyphen"),
    (0x2019, 0x2019, "hard to notice next to a letter"),
    (0x2027, 0x2027, "a look-alike of U+30FB KATAKANA MIDDLE DOT"),
    (0x30A0, 0x30A0, "a look-alike of '='"),
    (0xA640, 0xA69F, "the rarely used Cyrillic Extended-B block"),
    (0xA720, 0xA7FF, "the rarely used Latin Extended-D block"),
)


def _browser_excluded(cp: int) -> Optional[str]:
    for lo, hi, why in BROWSER_EXCLUDED:
        if lo <= cp <= hi:
            return why
    return None


def scx_names(c: str, limit: int = 4) -> str:
    """The scripts that use ``c`` for a message: its Script_Extensions (not
    one element of them), Recommended scripts first: "Cherokee", "Arabic
    and Thaana", "Georgian, Greek, Han, Latin and 12 more"; "Common" or
    "Inherited" for characters of every script."""
    codes = sorted(script_extensions(c), key=lambda s: (s not in _data.RECOMMENDED_SCRIPTS, s))
    names = [script_name(s) for s in codes]
    if len(names) > limit:
        return "%s and %d more" % (", ".join(names[:limit]), len(names) - limit)
    if len(names) > 2:
        return "%s and %s" % (", ".join(names[:-1]), names[-1])
    return " and ".join(names)


_char_script = scx_names


#: The Hebrew points of standard (YIVO) Yiddish spelling: hiriq, patah,
#: qamats, dagesh, rafe.  UTS #39 types them Uncommon_Use, but in a label
#: written wholly in Hebrew letters they are ordinary Yiddish (the IANA test
#: name בײַשפּיל.טעסט) and imitate nothing.
_YIDDISH_POINTS = frozenset("\u05b4\u05b7\u05b8\u05bc\u05bf")


def _yiddish_point(label: str, i: int) -> bool:
    if label[i] not in _YIDDISH_POINTS or i == 0:
        return False
    prev = label[i - 1]
    if prev in _YIDDISH_POINTS:  # dagesh and a vowel point on one letter
        return _yiddish_point(label, i - 1)
    return general_category(prev) == "Lo" and _specific(prev) == {"Hebr"} and \
        resolved_script_set(label) == frozenset(("Hebr",))


def restricted_issues(label: str) -> List[Issue]:
    """The characters of ``label`` that are not Allowed (UTS #39
    Identifier_Status) or that browsers exclude, as one issue per kind of
    reason.  ASCII (whose letters, digits and hyphen are Allowed; the rest
    is a syntax question) and default-ignorable characters
    (``invisible-character``) are left to other rules."""
    by_reason: Dict[str, List[int]] = {}
    for i, c in enumerate(label):
        if c.isascii() or is_default_ignorable(c):
            continue
        if not identifier_allowed(c):
            if _yiddish_point(label, i):
                continue
            types = sorted(identifier_type(c)) or ["Not_Character"]
            why = "not allowed in identifiers (UTS #39 Identifier_Type %s)" % ", ".join(types)
        else:
            excluded = _browser_excluded(ord(c))
            if excluded is None:
                continue
            why = "allowed by UTS #39 but excluded by browsers: %s" % excluded
        by_reason.setdefault(why, []).append(i)
    out: List[Issue] = []
    for why, positions in by_reason.items():
        chars = list(dict.fromkeys(label[i] for i in positions))
        shown = ", ".join("%s (%s)" % (describe(c), _char_script(c)) for c in chars[:4])
        if len(chars) > 4:
            shown += " and %d more" % (len(chars) - 4)
        out.append(Issue(RESTRICTED_RULE, "identifier status", tuple(positions),
                         "%s %s %s" % (shown, "is" if len(chars) == 1 else "are", why)))
    return out


# ---------------------------------------------------------------------------
# Step 2: restriction level (UTS #39 s5.2, Chromium's Highly Restrictive)
# ---------------------------------------------------------------------------

_CJK_PARTNERS = frozenset(("Jpan", "Kore", "Hanb"))
_MARKERS = frozenset(("Zyyy", "Zinh"))


def _specific(c: str) -> FrozenSet[str]:
    return script_extensions(c) - _MARKERS


def _is_non_ascii_latin_letter(c: str) -> bool:
    return not c.isascii() and general_category(c).startswith("L") and _specific(c) == {LATIN}


@lru_cache(maxsize=8192)
def host_label_mixing(label: str, allowed: Tuple[str, ...] = ()) -> Optional[str]:
    """Why the mixture of scripts in a host label fails the browsers'
    policy, or None.

    UTS #39 s5.2 Highly Restrictive, as Chromium applies it: one script, or
    Latin with Han and kana (Japanese), Han and Bopomofo, or Han and Hangul;
    in that case a Latin letter outside ASCII (``é``) may not stand beside
    the CJK script.  This function reports only what is Moderately
    Restrictive (Latin with one other Recommended script other than
    Cyrillic and Greek, such as Latin with Arabic): the wider mixtures are
    found by :func:`irilint.unicode_security.mixed_script` already.
    Characters of the ``allowed`` script codes are ignored.
    """
    if label.isascii():
        return None
    chars = "".join(dict.fromkeys(label))
    if allowed:
        keep = frozenset(allowed)
        chars = "".join(c for c in chars if _specific(c).isdisjoint(keep))
    level = restriction_level(chars, identifier_profile=False)
    if level == RestrictionLevel.MODERATELY_RESTRICTIVE:
        others = [s for s in scripts_in(chars) if s != LATIN]
        return ("it mixes Latin with %s, which is only Moderately Restrictive (UTS #39 s5.2): browsers "
                "show Latin beside Han with kana, Bopomofo or Hangul only"
                % " and ".join(script_name(s) for s in others))
    if level == RestrictionLevel.HIGHLY_RESTRICTIVE:
        odd = [c for c in chars if _is_non_ascii_latin_letter(c)]
        if odd:
            return ("it has the non-ASCII Latin letter %s beside a CJK script, which browsers refuse"
                    % describe(odd[0]))
    return None


# ---------------------------------------------------------------------------
# Step 3: digit look-alikes
# ---------------------------------------------------------------------------

#: Chromium's digit look-alikes (letters and other scripts' digits that look
#: like ASCII digits), plus every character whose UTS #39 prototype is an
#: ASCII digit 2-9 ('0' and '1' share their prototypes with 'O' and 'l').
DIGIT_LOOKALIKES: FrozenSet[str] = frozenset(
    "\u03b8\u0968\u09e8\u0a68\u0ae8\u0ce9\u0ced\u0577\u0437\u0499\u04e1\u0909\u0993\u0a24\u0a69"
    "\u0ae9\u0c69\u1012\u10d5\u10de\u10d9\u0a5c\u0a6b\u4e29\u3110\u0573\u09ea\u0a6a\u0b6b\u0aed\u0b68\u0c68"
) | frozenset(chr(cp) for cp, proto in _data.CONFUSABLES.items() if proto in "23456789" and len(proto) == 1)


def _numbering_system(c: str) -> Optional[int]:
    """The zero of the decimal digit ``c`` (its numbering system), or None."""
    if general_category(c) != "Nd":
        return None
    value = unicodedata.digit(c, None)
    return None if value is None else ord(c) - value


def is_digit_label(label: str) -> bool:
    """``label`` is made only of ASCII digits and digit look-alikes, with at
    least one look-alike (``੨੨੨``, ``1շ``)."""
    return not label.isascii() and all(c in "0123456789" or c in DIGIT_LOOKALIKES for c in label)


def digit_issue(label: str) -> Optional[Issue]:
    """A label made only of ASCII digits and digit look-alikes, with at
    least one look-alike (``੨੨੨``, ``1շ``), or one that mixes decimal
    digits of different numbering systems (``1٢3``)."""
    if label.isascii():
        return None
    if is_digit_label(label):
        pos = tuple(i for i, c in enumerate(label) if c in DIGIT_LOOKALIKES)
        reading = imitation(label)
        return Issue(DIGIT_RULE, "digit look-alikes", pos,
                     "it is made only of digits and characters that look like digits (%s)%s"
                     % (", ".join(describe(c) for c in dict.fromkeys(label[i] for i in pos)),
                        "; it looks like the number '%s'" % reading if reading and reading.isdigit() else ""))
    systems: Dict[int, List[int]] = {}
    for i, c in enumerate(label):
        zero = _numbering_system(c)
        if zero is not None:
            systems.setdefault(zero, []).append(i)
    if len(systems) > 1:
        pos = tuple(sorted(i for zero, idx in systems.items() if zero != 0x30 for i in idx))
        return Issue(DIGIT_RULE, "digit look-alikes", pos,
                     "it mixes digits of %d numbering systems (%s)" % (
                         len(systems), ", ".join(describe(label[idx[0]]) for idx in systems.values())))
    return None


# ---------------------------------------------------------------------------
# Step 4: dangerous patterns (Chromium's IDN spoof checker)
# ---------------------------------------------------------------------------

_JAPANESE = frozenset(("Hira", "Kana", "Hani"))
_CJK = _JAPANESE | {"Bopo"}
#: Katakana and Han that look like a slash or a Latin letter.
_SLASH_LIKE = frozenset("\u30ce\u30bd\u30be\u30f3\u30d8\u30d9\u30da\u3033\u3034\u3035\u4e36\u4e40\u4e41\u4e3f")
#: Han and Bopomofo that look like Latin letters or punctuation.
_CJK_LATIN_LIKE = frozenset(
    "\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112\u311a\u311f\u3128\u3129\u3108\u31ba"
    "\u31b3\u5de5\u31b2\u8ba0\u4e01\u4e42\u4e2b\u4e06")
_PROLONGED = "\u30fc"
_ITERATION = frozenset("\u30fd\u30fe")
_HIRA_HE = frozenset("\u3078\u3079\u307a")
_KATA_HE = frozenset("\u30d8\u30d9\u30da")
_KANA_MIDDLE_DOT = "\u30fb"
_LGC = frozenset((LATIN, "Grek", "Cyrl"))
_DOTLESS = frozenset("\u0131\u0237")
_DOT_ABOVE = "\u0307"
_KANA_VOICING = frozenset("\u3099\u309a")
_THAI_LAO = frozenset(("Thai", "Laoo"))


def _in(c: Optional[str], scripts: FrozenSet[str]) -> bool:
    return c is not None and not script_extensions(c).isdisjoint(scripts)


def _is_mark(c: str) -> bool:
    return general_category(c) in ("Mn", "Me", "Mc")


#: The blocks of combining marks shared by all scripts (Combining
#: Diacritical Marks and their Extended and Supplement blocks, marks for
#: symbols, half marks): a few of them list a handful of scripts in their
#: Script_Extensions, but all are Inherited.
_GENERIC_MARK_BLOCKS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF),
                        (0xFE20, 0xFE2F))


def _generic_mark(c: str) -> bool:
    """A combining mark of no particular script."""
    if not _is_mark(c):
        return False
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in _GENERIC_MARK_BLOCKS) or not _specific(c)


def _kana_issues(label: str) -> List[Issue]:
    out: List[Issue] = []
    n = len(label)
    for i, c in enumerate(label):
        prev = label[i - 1] if i else None
        nxt = label[i + 1] if i + 1 < n else None
        if c in _SLASH_LIKE:
            sides = [s for s in (prev, nxt) if s is not None]
            if sides and not any(_in(s, _JAPANESE) for s in sides):
                out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                                 "%s looks like a slash or a Latin letter and stands outside Japanese text"
                                 % describe(c)))
        elif c == _PROLONGED and not _in(prev, frozenset(("Hira", "Kana"))):
            out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                             "%s follows no kana, so it reads as a dash" % describe(c)))
        elif c in _ITERATION and not _in(prev, frozenset(("Kana",))):
            out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                             "%s (an iteration mark) follows no katakana" % describe(c)))
        elif c == _KANA_MIDDLE_DOT and any(s is not None and s.isascii() and s.isalpha() for s in (prev, nxt)):
            out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                             "%s stands beside a Latin letter, where it looks like a dot" % describe(c)))
        elif c in _CJK_LATIN_LIKE:
            # Digits after them make a number (一123); before them (d12一)
            # the ideograph ends a Latin-looking name.
            sides = [s for s in (prev, nxt if nxt is None or nxt not in "0123456789" else None)
                     if s is not None]
            if any(not _in(s, _CJK) for s in sides):
                out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                                 "%s looks like a Latin letter or punctuation and stands beside a non-CJK "
                                 "character" % describe(c)))
    # へべぺ and ヘベペ look the same: one of them in a label otherwise in the
    # other kana is a spoof of the label with the other.
    others = [c for c in label if c not in _HIRA_HE and c not in _KATA_HE]
    for odd, rest, rest_name in ((_HIRA_HE, "Kana", "katakana"), (_KATA_HE, "Hira", "hiragana")):
        pos = tuple(i for i, c in enumerate(label) if c in odd)
        if pos and others and all(_in(c, frozenset((rest,))) for c in others):
            out.append(Issue(PATTERN_RULE, "dangerous pattern", pos,
                             "%s in a label otherwise in %s looks exactly like its %s twin"
                             % (describe(label[pos[0]]), rest_name,
                                "katakana" if rest_name == "katakana" else "hiragana")))
    return out


def _mark_issues(label: str) -> List[Issue]:
    out: List[Issue] = []
    base: Optional[str] = None
    base_has_mark = False
    prev_mark: Optional[str] = None
    #: the offsets of the run of one mark repeated being read: one issue
    #: for the run, as a browser judges the label once (ICU's invisible
    #: check: "multiple occurrences of the same non-spacing mark"); one
    #: per mark made 500,000 findings of a megabyte of marks
    repeats: List[int] = []
    for i, c in enumerate(label):
        if repeats and prev_mark != c:
            out.append(_repeated_mark_issue(label, repeats))
            repeats = []
        if not _is_mark(c):
            base = c
            base_has_mark = len(unicodedata.normalize("NFD", c)) > 1
            prev_mark = None
            continue
        why = None
        if c in _KANA_VOICING and prev_mark is not None:
            why = "follows another mark: kana take one voicing mark"
        elif base is None:
            why = "starts the label with no letter to sit on"
        elif base in _DOTLESS:
            why = "sits on %s, and a dotless i or j under a mark looks like i or j" % describe(base)
        elif c == _DOT_ABOVE and base in "ijl":
            why = "puts a second dot on '%s'" % base
        elif prev_mark == c:
            repeats.append(i)
            continue  # prev_mark stays c
        elif _generic_mark(c):
            if not _in(base, _LGC):
                why = "is a Latin/Greek/Cyrillic diacritic over %s, of another script" % describe(base)
            elif prev_mark is not None and _generic_mark(prev_mark):
                why = "is stacked over another mark that did not combine with '%s'" % base
            elif base_has_mark:
                why = "sits on %s, which already carries a mark" % describe(base)
        elif _specific(base) and _specific(base).isdisjoint(_specific(c)):
            why = "belongs to %s but sits on %s" % (_char_script(c), describe(base))
        elif not _specific(base) and base.isascii() and not base.isdigit():
            # An ASCII digit may carry the vowel sign of the script that
            # follows it (Firefox and Chromium both show 5াব.com).
            why = "sits on '%s', which is not a letter of its script" % base
        if why is not None:
            out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,), "the combining mark %s %s" % (describe(c), why)))
        prev_mark = c
    if repeats:
        out.append(_repeated_mark_issue(label, repeats))
    return out


def _repeated_mark_issue(label: str, repeats: List[int]) -> Issue:
    """The issue of the marks at ``repeats``, each the same as the one before."""
    times = "" if len(repeats) == 1 else " %d times after the first" % len(repeats)
    return Issue(PATTERN_RULE, "dangerous pattern", tuple(repeats),
                 "the combining mark %s is repeated%s" % (describe(label[repeats[0]]), times))


def _thai_lao_issues(label: str) -> List[Issue]:
    """Thai and Lao letters and digits next to ASCII letters: many of them
    read as Latin letters (Chromium's Thai and Lao look-alike lists)."""
    out: List[Issue] = []
    n = len(label)
    for i, c in enumerate(label):
        if c.isascii() or not _in(c, _THAI_LAO):
            continue
        sides = [label[k] for k in (i - 1, i + 1) if 0 <= k < n]
        if any(s.isascii() and s.isalpha() for s in sides):
            out.append(Issue(PATTERN_RULE, "dangerous pattern", (i,),
                             "%s stands beside a Latin letter%s" % (
                                 describe(c), " and reads as '%s'" % _char_reading(c) if _char_reading(c) else "")))
    return out


def pattern_issues(label: str) -> List[Issue]:
    """Chromium's dangerous patterns: kana that look like slashes or Latin
    outside Japanese text, ー and ヽ out of context, へ/ヘ twins, Han and
    Bopomofo that look like Latin next to non-CJK characters, combining
    marks that are repeated, stacked, over a dotless i or j, a second dot
    over i/j/l, over a letter of another script; Thai and Lao beside Latin."""
    if label.isascii():
        return []
    return _kana_issues(label) + _mark_issues(label) + _thai_lao_issues(label)


# ---------------------------------------------------------------------------
# Step 5: whole-script confusables (Chromium's per-script look-alike letters)
# ---------------------------------------------------------------------------

#: For each script, the letters that look like Latin letters (Chromium's
#: lists, lowercase; IDNA mapping lowercases labels).  A single-script label
#: whose letters of that script are all in its list reads as Latin.
LATIN_LOOKALIKE_LETTERS: Dict[str, FrozenSet[str]] = {
    "Armn": frozenset("\u0561\u0563\u0566\u0567\u056c\u0570\u0575\u0578\u057d\u0582\u0585\u0559"),
    "Cyrl": frozenset("\u0430\u044b\u0441\u0501\u0435\u050d\u04bb\u0456\u044e\u043a\u0458\u04cf\u043e\u0440"
                      "\u0517\u051b\u0455\u051d\u0445\u0443\u044a\u044c\u04bd\u043f\u0433\u0475\u0461"),
    "Ethi": frozenset("\u1200\u1220\u1230\u1235\u1260\u1290\u1270\u12a8\u12d0\u12d5\u12d8\u1320\u1350\uab05"),
    "Geor": frozenset("\u10d8\u10dd\u10e7\u10eb\u10ee\u10fd\u10ff"),
    "Grek": frozenset("\u03b1\u03b9\u03ba\u03bd\u03c1\u03c5\u03c9\u03b7\u03bf\u03c4"),
    "Hebr": frozenset("\u05d3\u05d5\u05d7\u05d9\u05df\u05e1\u05f0\u05f2\u05f3\ufb26"),
    "Beng": frozenset("\u09e6\u09ed"),
    "Deva": frozenset("\u093d\u0966\u0971"),
    "Gujr": frozenset("\u0aa1\u0a9f\u0ae6\u0ae7"),
    "Guru": frozenset("\u0a66\u0a67"),
    "Knda": frozenset("\u0cbd\u0ce6\u0ce7"),
    "Mlym": frozenset("\u0d1f\u0d20\u0d27\u0d28\u0d31\u0d66"),
    "Orya": frozenset("\u0b20\u0b66\u0b6e"),
    "Taml": frozenset("\u0b9f\u0baa\u0be6"),
    "Telu": frozenset("\u0c66\u0c67"),
    "Mymr": frozenset("\u1001\u1002\u1004\u1011\u1015\u101d\u1040\u1042\u1054\u105c\u1090\u1091\u1095\u1096\u1097"
                      "\u100c"),
    "Thai": frozenset("\u0e17\u0e19\u0e1a\u0e1e\u0e23\u0e2b\u0e40\u0e41\u0e50\u0e14\u0e25\u0e1b\u0e1f\u0e21"
                      "\u0e01"),
    "Laoo": frozenset("\u0e9e\u0e9f\u0ea3\u0eae\u0e9a\u0ed0"),
}

#: Common words that are whole-script confusables by the lists above but
#: read as no Latin word (Chromium's policy allows them under every TLD:
#: "курс" reads as "kypc", which is not a name anyone imitates).
ALLOWED_WHOLE_SCRIPT_WORDS: FrozenSet[str] = frozenset((
    "\u0441\u0435\u043a\u0441",                      # секс
    "\u043a\u0430\u043a",                            # как
    "\u043a\u043e\u0441\u0430",                      # коса
    "\u043a\u0443\u0440\u0441",                      # курс
    "\u043f\u0430\u0440\u043a",                      # парк
    "\u0442\u0430\u043a\u0438\u0439",                # такий
    "\u0443\u043a\u0440\u043e\u043f",                # укроп
    "\u0441\u0430\u0445\u0430\u0440\u043e\u043a",    # сахарок
    "\u043f\u043e\u043a\u0440\u0430\u0441\u043a\u0430",  # покраска
))

#: Top-level domains under which labels of a script are normal, so a label
#: of that script that reads as Latin is not reported (registry practice and
#: the browsers' lists).  Besides these, any TLD holding a letter of the
#: label's script counts (.москва, .онлайн): Chromium's rule.
TLD_SCRIPTS: Dict[str, FrozenSet[str]] = {}
for _script, _tlds in (
    ("Cyrl", "рф ru su рус by бел ua укр kz қаз kg tj uz bg бг rs срб mk мкд ba mn мон eu ею"),
    ("Grek", "ελ gr cy ευ eu"),
    ("Armn", "am հայ"),
    ("Geor", "ge გე"),
    ("Hebr", "il"),
    ("Ethi", "er et"),
    ("Mymr", "mm"),
    ("Thai", "th ไทย"),
    ("Laoo", "la"),
):
    for _tld in _tlds.split():
        TLD_SCRIPTS[_tld] = TLD_SCRIPTS.get(_tld, frozenset()) | {_script}


@lru_cache(maxsize=8192)
def latin_lookalike_script(label: str) -> Optional[str]:
    """The script of a single-script, non-Latin ``label`` whose letters of
    that script are all Latin look-alikes of Chromium's list for it
    (``ძ4000``: Georgian ძ reads as 'd') or drawn like Latin letters by the
    browsers' skeleton (``шмнтв`` reads as 'wmhtb'), or None."""
    if label.isascii() or label in ALLOWED_WHOLE_SCRIPT_WORDS:
        return None
    resolved = resolved_script_set(label)
    if not resolved or LATIN in resolved:
        return None
    for script, letters in LATIN_LOOKALIKE_LETTERS.items():
        if script not in resolved:
            continue
        own = {c for c in label if script in script_extensions(c) and not c.isascii()}
        # A look-alike of a digit reads as Latin too (Devanagari ०२ is "o2"),
        # and so does a letter the browsers' skeleton draws like a Latin one
        # (Cyrillic ш н т as "wht"): the label's skeleton is then all Latin.
        if own and own <= letters | DIGIT_LOOKALIKES | _drawn_like_latin():
            return script
    return None


@lru_cache(maxsize=1)
def _drawn_like_latin() -> FrozenSet[str]:
    """The characters of ``irilint.lookalike_table`` drawn like Latin
    letters or digits in an address bar (the skeleton browsers compare
    hosts by)."""
    return frozenset(_drawn_like_table())


@lru_cache(maxsize=1)
def _drawn_like_table() -> Dict[str, str]:
    from .lookalike_table import DRAWN_LIKE
    return DRAWN_LIKE


def tld_allows_script(scripts: FrozenSet[str], tld: str) -> bool:
    """Whether labels of ``scripts`` are normal under ``tld`` (Unicode
    form), by Chromium's rule: the TLD is listed for one of them in
    :data:`TLD_SCRIPTS`, or holds a letter of one of them (it is then a TLD
    in that script: .москва, .срб, .ελ, .გე)."""
    if not scripts.isdisjoint(TLD_SCRIPTS.get(tld, ())):
        return True
    if tld.isascii():
        return False
    return any(not scripts.isdisjoint(_specific(c)) for c in tld if general_category(c).startswith("L"))


# ---------------------------------------------------------------------------
# Step 6: characters tied to a TLD
# ---------------------------------------------------------------------------

#: Characters that only some registries allow, and the TLDs (Unicode form)
#: where they are normal: Chromium's table (ə for .az, þ and ð for .is) and
#: the registries of the IDNA deviation characters.
TLD_CHARACTERS: Dict[str, Tuple[FrozenSet[str], str]] = {
    "\u0259": (frozenset(("az",)), "Azerbaijani"),
    "\u00fe": (frozenset(("is",)), "Icelandic"),
    "\u00f0": (frozenset(("is", "fo")), "Icelandic and Faroese"),
    "\u00df": (frozenset(("de", "at", "ch", "li", "lu")), "German"),
    "\u03c2": (frozenset(("gr", "\u03b5\u03bb", "cy", "\u03b5\u03c5", "eu")), "Greek"),
}
_MIDDLE_DOT = "\u00b7"


def tld_uses_character(c: str, tld: str) -> bool:
    """Whether the registry of ``tld`` (Unicode form) uses ``c``, one of the
    characters of :data:`TLD_CHARACTERS`: ß under .de, ς under .gr.  The
    joiners ZWNJ and ZWJ are no such character: browsers treat them as
    unsafe under every TLD (``idna-deviation`` reports them)."""
    entry = TLD_CHARACTERS.get(c)
    return entry is not None and tld in entry[0]


def tld_character_issues(label: str, tld: str) -> List[Issue]:
    """Characters of ``label`` that the registry of ``tld`` does not use,
    one issue per character (with all its occurrences)."""
    reasons: Dict[str, str] = {}
    positions: Dict[str, List[int]] = {}
    n = len(label)
    for i, c in enumerate(label):
        if c.isascii():
            continue
        why = None
        entry = TLD_CHARACTERS.get(c)
        if entry is not None:
            tlds, language = entry
            if tld not in tlds and n > 1:
                why = ("%s is a letter of %s that registries allow only under %s, not under .%s"
                       % (describe(c), language, ", ".join("." + t for t in sorted(tlds)), tld))
        elif c == _MIDDLE_DOT:
            if tld != "cat" or not (0 < i < n - 1 and label[i - 1] == "l" and label[i + 1] == "l"):
                why = ("%s is allowed only under .cat, between two 'l' (Catalan ela geminada), not %s"
                       % (describe(c), "under .%s" % tld if tld != "cat" else "here"))
        if why is not None:
            reasons.setdefault(c, why)
            positions.setdefault(c, []).append(i)
    return [Issue(TLD_CHAR_RULE, "TLD-specific character", tuple(positions[c]), reasons[c]) for c in reasons]


# ---------------------------------------------------------------------------
# The whole policy
# ---------------------------------------------------------------------------

@lru_cache(maxsize=8192)
def label_issues(label: str, tld: str, allowed: Tuple[str, ...] = ()) -> Tuple[Issue, ...]:
    """Every policy step that the mapped ``label`` fails under ``tld``
    (both in Unicode form), in policy order.  Steps 2 and 5 give issues of
    the ``mixed-script`` and ``whole-script-confusable`` rules."""
    from .unicode_security import mixed_script, whole_script_confusable
    if label.isascii():
        return ()
    out: List[Issue] = list(restricted_issues(label))
    mixed = mixed_script(label, allowed)
    if mixed.mixed:
        out.append(Issue(MIXED_RULE, "restriction level", (),
                         "it mixes the %s scripts" % " and ".join(mixed.scripts)))
    else:
        why = host_label_mixing(label, allowed)
        if why is not None:
            out.append(Issue(MIXED_RULE, "restriction level", (), why))
    d = digit_issue(label)
    if d is not None:
        out.append(d)
    out.extend(pattern_issues(label))
    resolved = resolved_script_set(label) or frozenset()
    # A label of digit look-alikes is one finding, of the digit step.
    if not is_digit_label(label) and resolved.isdisjoint(allowed) and (whole_script_confusable(label) is not None
                                         or latin_lookalike_script(label) is not None):
        if not tld_allows_script(resolved, tld):
            im = imitation(label)
            out.append(Issue(WSC_RULE, "whole-script confusable", (),
                             "it is written entirely in %s but %s"
                             % (" and ".join(script_name(s) for s in scripts_in(label)),
                                "looks like the Latin '%s'" % im if im else "reads as Latin")))
    out.extend(tld_character_issues(label, tld))
    return tuple(out)


def display_verdict(label: str, tld: str) -> Optional[str]:
    """Why browsers would show the U-label ``label`` under ``tld`` as
    Punycode (the first failed step, with what the label imitates), or
    None when its Unicode form is safe to show."""
    m, t = map_label(label), map_label(tld)
    for issue in label_issues(m, t):
        return "%s: %s%s" % (issue.step, issue.reason, "" if "looks like" in issue.reason else _looks(m))
    return None


# ---------------------------------------------------------------------------
# Letters drawn like Latin beyond UTS #39: comparison with protected domains
# and whole-script confusables only (Chromium's IDN display policy)
# ---------------------------------------------------------------------------

#: Scripts whose hosts lose their diacritics before the comparison (the
#: policy's Latin-Greek-Cyrillic hosts); marks over other scripts are
#: refused by earlier steps.
_LGC = frozenset((LATIN, "Grek", "Cyrl"))
#: Combining marks that the policy removes with the diacritics
#: (U+0300..U+0339, the Allowed Inherited marks).
_REMOVABLE_MARKS = range(0x0300, 0x033A)
#: More characters of several readings than this in one host: no
#: alternatives (the number of spellings would grow too fast, and such a
#: host is no convincing spoof).
_MAX_SEVERAL_READINGS = 5
_CYRILLIC_PALOCHKA = "\u04cf"


def _lgc_only(host: str) -> bool:
    for c in host:
        if c.isascii():
            if not (c.isalnum() or c in ".-_"):
                return False
        elif ord(c) in _REMOVABLE_MARKS:
            continue
        elif script_extensions(c).isdisjoint(_LGC):
            return False
    return True


def remove_diacritics(host: str) -> str:
    """``host`` without its diacritics when it is written in Latin, Greek
    and Cyrillic (plus ASCII digits, '.', '-', '_'): NFD, combining marks
    dropped, NFC, then the stroked letters đ, ł, ø read as d, l, o.  Other
    hosts are returned unchanged: marks over other scripts are judged by
    the dangerous-pattern step, not compared."""
    from .lookalike_table import STROKE_LETTERS

    if host.isascii() or not _lgc_only(host):
        return host
    bare = "".join(c for c in unicodedata.normalize("NFD", host) if not unicodedata.combining(c))
    bare = unicodedata.normalize("NFC", bare)
    return "".join(STROKE_LETTERS.get(c, c) for c in bare)


def _spellings(host: str) -> List[str]:
    from .lookalike_table import SEVERAL_READINGS

    several = [c for c in host if c in SEVERAL_READINGS]
    if not several or len(several) > _MAX_SEVERAL_READINGS:
        return [host]
    out = [""]
    for c in host:
        out = [o + r for o in out for r in SEVERAL_READINGS.get(c, (c,))]
    return out


@lru_cache(maxsize=8192)
def policy_skeletons(host: str) -> FrozenSet[str]:
    """The skeletons the browsers' policy compares with top (here:
    protected) domains: diacritics removed from Latin-Greek-Cyrillic hosts,
    each character of several readings tried both ways (þ as b and p, œ as
    ce and oe), the letters drawn like Latin of ``irilint.lookalike_table``
    read as those letters, then the UTS #39 skeleton -- and once more with
    Cyrillic palochka ``ӏ`` read as 'l' (UTS #39 reads it as 'i').
    ``host`` is lower case; its labels are separated by '.'."""
    from .lookalike_table import DRAWN_LIKE

    out = set()
    for spelling in _spellings(remove_diacritics(host)):
        mapped = "".join(DRAWN_LIKE.get(c, c) for c in spelling)
        out.add(skeleton(mapped))
        if _CYRILLIC_PALOCHKA in mapped:
            out.add(skeleton(mapped.replace(_CYRILLIC_PALOCHKA, "l")))
    return frozenset(out)
