#!/usr/bin/env python
"""Generate ``server/unicode_data.py`` (imported as ``irilint.unicode_data``).

Usage::

    python tools/gen_unicode_data.py            # rewrite server/unicode_data.py
    python tools/gen_unicode_data.py -o FILE    # write somewhere else ("-" = stdout)
    python tools/gen_unicode_data.py --check    # exit 1 if the committed file is stale

Every property is read from ICU through PyICU (PyPI package ``pyicu-wheels``,
``import icu``), so all tables describe one and the same Unicode version, the
one ICU was built with:

* Script_Extensions (UAX #24)                -- ``icu.Script.getScriptExtensions``
* Script (UAX #24)                           -- ``icu.Script.getScript``
* confusable prototypes (UTS #39 s4, the MA
  table of confusables.txt)                  -- ``icu.SpoofChecker.getSkeleton``
* Identifier_Status / Identifier_Type
  (UTS #39 s3.1, IdentifierStatus.txt and
  IdentifierType.txt; needs ICU >= 75)       -- ``icu.Char.getIntPropertyValue`` /
                                                ``icu.Char.getIDTypes``
* Default_Ignorable_Code_Point and
  Extended_Pictographic (UTS #51)            -- ``icu.Char.hasBinaryProperty``
* Joining_Type (ArabicShaping.txt, for the
  RFC 5892 CONTEXTJ rule of ZWNJ)            -- ``icu.Char.getIntPropertyValue``
* canonical decompositions and character names for characters newer than the
  oldest ``unicodedata`` irilint supports  -- ``icu.Normalizer2`` / ``icu.Char.charName``

The output depends only on the ICU data, never on the generating Python's
``unicodedata``, and is written in a fixed order with ASCII-only escapes, so
running the script twice gives byte-identical output.  Only ``icu`` is needed
here; at run time irilint uses the generated module and the standard library.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import unicodedata
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated_output import add_output_arguments, write_or_check  # noqa: E402

try:
    import icu
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("gen_unicode_data.py needs PyICU: pip install pyicu-wheels")

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "server", "unicode_data.py")
REGEN_COMMAND = "python tools/gen_unicode_data.py"

MAX_CP = 0x10FFFF
SURROGATES = range(0xD800, 0xE000)

# The oldest Unicode version whose ``unicodedata`` irilint may run with
# (Python 3.9 and 3.10 ship Unicode 13.0).  Names and canonical decompositions
# of characters added after it are stored, so that ``char_name`` and
# ``skeleton`` work for them on any supported Python.
BASELINE_AGE = (13, 0)

# ICU's enum names (as spelled by PyICU) -> UTS #39 Identifier_Type values.
# PyICU spells U_ID_TYPE_UNCOMMON_USE (8) as ``COMMON_USE``, so go by value.
ID_TYPE_NAMES = {
    0: "Not_Character",
    1: "Deprecated",
    2: "Default_Ignorable",
    3: "Not_NFKC",
    4: "Not_XID",
    5: "Exclusion",
    6: "Obsolete",
    7: "Technical",
    8: "Uncommon_Use",
    9: "Limited_Use",
    10: "Inclusion",
    11: "Recommended",
}

# ICU's UJoiningType values -> the one-letter Joining_Type codes of
# ArabicShaping.txt (U = Non_Joining, C = Join_Causing, D = Dual_Joining,
# L = Left_Joining, R = Right_Joining, T = Transparent).
JOINING_TYPE_CODES = {0: "U", 1: "C", 2: "D", 3: "L", 4: "R", 5: "T"}

# ICU has no long names for the UTS #39 s5.1 "augmented" script codes.
EXTRA_SCRIPT_NAMES = {
    "Hanb": "Han with Bopomofo",
    "Hans": "Han (Simplified)",
    "Hant": "Han (Traditional)",
    "Jamo": "Jamo",
    "Jpan": "Japanese",
    "Kore": "Korean",
}


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def code_points() -> Iterable[int]:
    """All code points except surrogates (which PyICU cannot put in a str)."""
    for cp in range(MAX_CP + 1):
        if cp not in SURROGATES:
            yield cp


def age(cp: int) -> Tuple[int, ...]:
    return tuple(int(x) for x in icu.Char.charAge(cp).split("."))


def is_assigned(cp: int) -> bool:
    return icu.Char.charType(cp) != icu.UCharCategory.UNASSIGNED


def segment(values: Callable[[int], object]) -> List[Tuple[int, object]]:
    """Split 0..10FFFF into maximal runs of equal ``values(cp)``.

    Returns ``[(start, value), ...]``; each run ends where the next starts.
    """
    runs: List[Tuple[int, object]] = []
    prev = object()
    for cp in range(MAX_CP + 1):
        v = values(cp)
        if v != prev:
            runs.append((cp, v))
            prev = v
    return runs


def boundaries(member: Callable[[int], bool]) -> List[int]:
    """Sorted boundary list of a code point set: ``[start0, end0 + 1, ...]``.

    ``cp`` is in the set iff ``bisect_right(boundaries, cp)`` is odd.
    """
    out: List[int] = []
    inside = False
    for cp in range(MAX_CP + 1):
        m = member(cp)
        if m != inside:
            out.append(cp)
            inside = m
    if inside:
        out.append(MAX_CP + 1)
    return out


def pystr(s: str) -> str:
    """ASCII-only, deterministic Python string literal.

    Non-ASCII is always escaped so the generated file contains no bidi
    controls, invisible characters or look-alikes of its own.
    """
    out = []
    for ch in s:
        cp = ord(ch)
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 0x20 <= cp < 0x7F:
            out.append(ch)
        elif cp <= 0xFFFF:
            out.append("\\u%04x" % cp)
        else:
            out.append("\\U%08x" % cp)
    return '"' + "".join(out) + '"'


def wrap(items: Sequence[str], indent: str = "    ", width: int = 79) -> str:
    """Join ``items`` with ", " into lines no longer than ``width``."""
    lines: List[str] = []
    line = indent
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def tuple_block(name: str, items: Sequence[str], comment: str = "") -> str:
    head = "%s = (%s\n" % (name, "  # " + comment if comment else "")
    return head + wrap(items) + "\n)\n"


def dict_block(name: str, mapping: Dict[int, str], comment: str = "") -> str:
    lines = ["%s = {%s" % (name, "  # " + comment if comment else "")]
    for cp in sorted(mapping):
        lines.append("    0x%04X: %s," % (cp, pystr(mapping[cp])))
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Data extraction
# --------------------------------------------------------------------------

def script_short(code: int) -> str:
    return icu.Script(code).getShortName()


def script_long(code: int) -> str:
    return icu.Script(code).getName().replace("_", " ")


def extract_scx():
    """Script_Extensions as (sets, starts, index)."""
    def scx(cp: int) -> Tuple[str, ...]:
        return tuple(sorted(script_short(c) for c in icu.Script.getScriptExtensions(cp)))

    runs = segment(scx)
    sets = sorted({v for _, v in runs})  # type: ignore[type-var]
    set_index = {s: i for i, s in enumerate(sets)}
    starts = [start for start, _ in runs]
    index = [set_index[v] for _, v in runs]  # type: ignore[index]
    return sets, starts, index


def extract_scripts() -> Tuple[List[int], str]:
    """The Script property as runs: (starts, the four-letter code of each
    run, concatenated)."""
    runs = segment(lambda cp: icu.Script.getScript(cp).getShortName())
    return [start for start, _ in runs], "".join(str(v) for _, v in runs)


def all_script_codes() -> List[int]:
    """Every UScriptCode value ICU knows (PyICU lacks constants for new ones)."""
    codes: List[int] = []
    code = 0
    while True:
        try:
            icu.Script(code)
        except (icu.ICUError, ValueError):
            return codes
        codes.append(code)
        code += 1


def extract_script_names(used: Iterable[str]) -> Dict[str, str]:
    names = {script_short(c): script_long(c) for c in all_script_codes()}
    names.update(EXTRA_SCRIPT_NAMES)
    return {k: v for k, v in names.items() if k in used}


def extract_recommended_scripts() -> List[str]:
    """UAX #31 Table 5 (Recommended scripts), from ICU's script usage data.

    ICU also marks the aliases Hans, Hant, Jamo, Jpan, Kore, Hanb and the
    pseudo-scripts Zyyy, Zinh as recommended; they are kept, harmlessly.
    """
    return sorted(
        script_short(c) for c in all_script_codes()
        if icu.Script(c).getUsage() == icu.UScriptUsage.RECOMMENDED)


def extract_id_types():
    def types(cp: int) -> Tuple[str, ...]:
        return tuple(sorted(ID_TYPE_NAMES[t] for t in icu.Char.getIDTypes(cp)))

    runs = segment(types)
    sets = sorted({v for _, v in runs})  # type: ignore[type-var]
    set_index = {s: i for i, s in enumerate(sets)}
    return sets, [s for s, _ in runs], [set_index[v] for _, v in runs]  # type: ignore[index]


def extract_newer_categories() -> Tuple[List[int], str]:
    """General_Category of the characters newer than BASELINE_AGE as runs:
    (starts, two letters per run); every other code point is "Cn" here
    (the standard library knows its category)."""
    prop = icu.UProperty.GENERAL_CATEGORY
    short = icu.UPropertyNameChoice.SHORT_PROPERTY_NAME

    def newer_category(cp: int) -> str:
        if cp in SURROGATES or not is_assigned(cp) or age(cp) <= BASELINE_AGE:
            return "Cn"
        return icu.Char.getPropertyValueName(prop, icu.Char.charType(cp), short)

    runs = segment(newer_category)
    return [start for start, _ in runs], "".join(str(v) for _, v in runs)


def extract_joining_types() -> Tuple[List[int], str]:
    """Joining_Type as runs: (starts, one code letter per run)."""
    prop = icu.UProperty.JOINING_TYPE
    runs = segment(lambda cp: JOINING_TYPE_CODES[icu.Char.getIntPropertyValue(cp, prop)])
    return [start for start, _ in runs], "".join(str(v) for _, v in runs)


def extract_confusables(nfd) -> Tuple[Dict[int, str], List[int]]:
    """UTS #39 s4 MA table, as seen through ICU's skeleton function.

    ICU exposes no accessor for the raw confusables.txt table, but since
    ICU 58 ``getSkeleton`` is exactly NFD -> map each character -> NFD with the
    single MA table (the skeleton type argument is ignored).  For a character
    that is its own NFD, its skeleton is therefore NFD(prototype); storing the
    NFD form of the prototype is equivalent for skeleton computation because
    the final NFD step is applied anyway.  Characters that change under NFD
    are decomposed before the mapping step, so their own rows in
    confusables.txt can never take effect and are not stored.

    confusables.txt maps the Default_Ignorable_Code_Points (assigned or not,
    4000+ of them, mostly the E0000 block) to the empty string; those
    deletions are returned separately as a compact boundary list.

    Returns (mapping, deleted boundaries).
    """
    checker = icu.SpoofChecker()
    table: Dict[int, str] = {}
    deleted: set = set()
    for cp in code_points():
        ch = chr(cp)
        if nfd.normalize(ch) != ch:
            continue
        sk = checker.getSkeleton(0, ch)
        if sk == "":
            deleted.add(cp)
        elif sk != ch:
            table[cp] = sk
    return table, boundaries(deleted.__contains__)


def extract_nfd_supplement(nfd) -> Dict[int, str]:
    """Full canonical decompositions of characters newer than BASELINE_AGE."""
    out: Dict[int, str] = {}
    for cp in code_points():
        if is_assigned(cp) and age(cp) > BASELINE_AGE:
            d = nfd.normalize(chr(cp))
            if d != chr(cp):
                out[cp] = d
    return out


def extract_names():
    """Names of characters newer than BASELINE_AGE, and every name of the
    form ``PREFIX-<hex code point>`` (CJK UNIFIED IDEOGRAPH-, EGYPTIAN
    HIEROGLYPH-, TANGUT IDEOGRAPH-, ...), stored as ranges, whatever its age:
    the standard library leaves some of those out (Python 3.11 has no name
    for a Tangut ideograph).
    """
    names: Dict[int, str] = {}
    ranges: List[List[object]] = []
    for cp in code_points():
        if not is_assigned(cp):
            continue
        name = icu.Char.charName(cp)
        if not name:
            continue
        suffix = "-%04X" % cp
        if age(cp) <= BASELINE_AGE and not name.endswith(suffix):
            continue
        if name.endswith(suffix):
            prefix = name[: -len(suffix) + 1]
            if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == prefix:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp, prefix])
        else:
            names[cp] = name
    return names, [tuple(r) for r in ranges]


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

HEADER = '''\
"""Unicode security data for irilint.  GENERATED FILE -- DO NOT EDIT.

Regenerate with:  {command}

Unicode version of the data:  {unicode_version}
ICU version:                  {icu_version}
Generator packages:           pyicu-wheels {pyicu_version} (import icu)
Generating Python:            unicodedata.unidata_version {stdlib_unidata}
                              (informational only: nothing here comes from it)

The Unicode version of these tables (UNICODE_VERSION) is in general NOT the
one of the ``unicodedata`` module of the Python that runs irilint
(``unicodedata.unidata_version``).  Characters newer than Unicode {baseline}
get their names (NAMES / NAME_RANGES) and canonical decompositions
(NFD_SUPPLEMENT) from here, so results do not depend on the Python version.

Contents (all code point sets are stored compactly and looked up with bisect):

SCX_STARTS, SCX_INDEX, SCX_SETS
    Script_Extensions (UAX #24) of every code point, as ISO 15924 codes
    ('Zyyy' = Common, 'Zinh' = Inherited, 'Zzzz' = Unknown).  Run i covers
    SCX_STARTS[i] .. SCX_STARTS[i + 1] - 1 and has SCX_SETS[SCX_INDEX[i]].
SCRIPT_STARTS, SCRIPT_VALUES
    Script (UAX #24, the single script of a character; 'Zyyy' for
    punctuation shared by several scripts): run i covers SCRIPT_STARTS[i] ..
    SCRIPT_STARTS[i + 1] - 1 and has the code SCRIPT_VALUES[4 * i:4 * i + 4].
SCRIPT_NAMES
    ISO 15924 code -> long name, for messages.
RECOMMENDED_SCRIPTS
    UAX #31 Table 5 "Recommended" scripts (ICU script usage data), used by the
    UTS #39 s5.2 Moderately Restrictive level.
IDENTIFIER_ALLOWED
    UTS #39 Identifier_Status=Allowed, as a boundary list
    [start0, end0 + 1, start1, end1 + 1, ...]: cp is Allowed iff
    bisect_right(IDENTIFIER_ALLOWED, cp) is odd.  Everything else is
    Restricted.  Read directly from ICU's Identifier_Status property.
IDTYPE_STARTS, IDTYPE_INDEX, IDTYPE_SETS
    UTS #39 Identifier_Type, same layout as the Script_Extensions table.
DEFAULT_IGNORABLE
    Default_Ignorable_Code_Point, boundary list like IDENTIFIER_ALLOWED.
EXTENDED_PICTOGRAPHIC
    Extended_Pictographic (UTS #51, emoji-data.txt), boundary list like
    IDENTIFIER_ALLOWED.
NEWER_CATEGORY_STARTS, NEWER_CATEGORY_VALUES
    General_Category of the characters added after Unicode {baseline}, which
    an older ``unicodedata`` calls "Cn": run i covers NEWER_CATEGORY_STARTS[i]
    .. NEWER_CATEGORY_STARTS[i + 1] - 1 and has the category
    NEWER_CATEGORY_VALUES[2 * i:2 * i + 2]; every older character is "Cn"
    here (the standard library has its category).
JOINING_TYPE_STARTS, JOINING_TYPE_VALUES
    Joining_Type (ArabicShaping.txt, derived values included): run i covers
    JOINING_TYPE_STARTS[i] .. JOINING_TYPE_STARTS[i + 1] - 1 and has the
    one-letter code JOINING_TYPE_VALUES[i] (U, C, D, L, R or T).
CONFUSABLES
    UTS #39 s4 confusables.txt (the single MA table): code point -> its
    prototype, already in NFD.  Only characters that are their own NFD are
    listed (others are decomposed before mapping), so
    skeleton(s) = NFD(''.join(CONFUSABLES.get(ord(c), c) for c in NFD(s))),
    except that characters in CONFUSABLE_DELETED map to the empty string.
CONFUSABLE_DELETED
    Code points whose prototype is empty (in practice exactly the
    Default_Ignorable_Code_Points); boundary list like IDENTIFIER_ALLOWED.
NFD_SUPPLEMENT, NAMES, NAME_RANGES
    Full canonical decompositions and names of characters added after
    Unicode {baseline}; NAME_RANGES holds (first, last, prefix) for every name
    of the form prefix + hex code point, whatever its age (the standard
    library has no name for some of them, e.g. the Tangut ideographs).
"""

UNICODE_VERSION = {unicode_version_lit}
ICU_VERSION = {icu_version_lit}
PYICU_VERSION = {pyicu_version_lit}
GENERATOR_STDLIB_UNIDATA_VERSION = {stdlib_unidata_lit}
NAMES_BASELINE_VERSION = {baseline_lit}
REGENERATE_COMMAND = {command_lit}
'''


def unicode_version() -> str:
    # icu.UNICODE_VERSION is e.g. "16.0"; normalise to "16.0.0".
    parts = icu.UNICODE_VERSION.split(".")
    while len(parts) < 3:
        parts.append("0")
    return ".".join(parts)


def generate() -> str:
    nfd = icu.Normalizer2.getNFDInstance()
    pyicu_version = importlib.metadata.version("pyicu-wheels")
    baseline = "%d.%d" % BASELINE_AGE
    uver = unicode_version()

    parts: List[str] = [
        HEADER.format(
            command=REGEN_COMMAND,
            unicode_version=uver,
            icu_version=icu.ICU_VERSION,
            pyicu_version=pyicu_version,
            stdlib_unidata=unicodedata.unidata_version,
            baseline=baseline,
            unicode_version_lit=pystr(uver),
            icu_version_lit=pystr(icu.ICU_VERSION),
            pyicu_version_lit=pystr(pyicu_version),
            stdlib_unidata_lit=pystr(unicodedata.unidata_version),
            baseline_lit=pystr(baseline),
            command_lit=pystr(REGEN_COMMAND),
        )
    ]

    sets, starts, index = extract_scx()
    sc_starts, sc_values = extract_scripts()
    used = {code for s in sets for code in s}
    used |= {sc_values[i:i + 4] for i in range(0, len(sc_values), 4)}
    recommended = extract_recommended_scripts()
    used |= set(recommended)
    names = extract_script_names(used)

    parts.append("SCRIPT_NAMES = {\n" + "".join(
        "    %s: %s,\n" % (pystr(k), pystr(names[k])) for k in sorted(names)) + "}\n")
    parts.append("RECOMMENDED_SCRIPTS = frozenset((\n" + wrap([pystr(s) for s in recommended]) + "\n))\n")
    parts.append(tuple_block("SCX_SETS", ["(" + "".join(pystr(c) + ", " for c in s).rstrip() + ")" for s in sets]))
    parts.append(tuple_block("SCX_STARTS", ["0x%X" % s for s in starts]))
    parts.append(tuple_block("SCX_INDEX", [str(i) for i in index]))
    parts.append(tuple_block("SCRIPT_STARTS", ["0x%X" % s for s in sc_starts]))
    parts.append("SCRIPT_VALUES = (\n" + "\n".join(
        "    %s" % pystr(sc_values[i:i + 64]) for i in range(0, len(sc_values), 64)) + "\n)\n")

    allowed = icu.UProperty.IDENTIFIER_STATUS
    parts.append(tuple_block(
        "IDENTIFIER_ALLOWED",
        ["0x%X" % b for b in boundaries(
            lambda cp: icu.Char.getIntPropertyValue(cp, allowed) == icu.UIdentifierStatus.ALLOWED)]))

    id_sets, id_starts, id_index = extract_id_types()
    parts.append(tuple_block("IDTYPE_SETS", ["(" + "".join(pystr(c) + ", " for c in s).rstrip() + ")" for s in id_sets]))
    parts.append(tuple_block("IDTYPE_STARTS", ["0x%X" % s for s in id_starts]))
    parts.append(tuple_block("IDTYPE_INDEX", [str(i) for i in id_index]))

    di = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
    parts.append(tuple_block(
        "DEFAULT_IGNORABLE",
        ["0x%X" % b for b in boundaries(lambda cp: icu.Char.hasBinaryProperty(cp, di))]))

    ep = icu.UProperty.EXTENDED_PICTOGRAPHIC
    parts.append(tuple_block(
        "EXTENDED_PICTOGRAPHIC",
        ["0x%X" % b for b in boundaries(lambda cp: icu.Char.hasBinaryProperty(cp, ep))]))

    gc_starts, gc_values = extract_newer_categories()
    parts.append(tuple_block("NEWER_CATEGORY_STARTS", ["0x%X" % s for s in gc_starts]))
    parts.append("NEWER_CATEGORY_VALUES = (\n" + "\n".join(
        "    %s" % pystr(gc_values[i:i + 64]) for i in range(0, len(gc_values), 64)) + "\n)\n")

    jt_starts, jt_values = extract_joining_types()
    parts.append(tuple_block("JOINING_TYPE_STARTS", ["0x%X" % s for s in jt_starts]))
    parts.append("JOINING_TYPE_VALUES = (\n" + "\n".join(
        "    %s" % pystr(jt_values[i:i + 64]) for i in range(0, len(jt_values), 64)) + "\n)\n")

    confusables, deleted = extract_confusables(nfd)
    parts.append(dict_block("CONFUSABLES", confusables))
    parts.append(tuple_block("CONFUSABLE_DELETED", ["0x%X" % b for b in deleted]))
    parts.append(dict_block("NFD_SUPPLEMENT", extract_nfd_supplement(nfd)))
    char_names, name_ranges = extract_names()
    parts.append(dict_block("NAMES", char_names))
    parts.append(tuple_block(
        "NAME_RANGES", ["(0x%X, 0x%X, %s)" % (a, b, pystr(p)) for a, b, p in name_ranges]))
    return "\n\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_output_arguments(ap, DEFAULT_OUTPUT)
    args = ap.parse_args(argv)

    text = generate()
    return write_or_check(text, args.output, args.check, REGEN_COMMAND)


if __name__ == "__main__":
    sys.exit(main())
