#!/usr/bin/env python
"""Generate ``server/lookalike_table.py`` (imported as ``irilint.lookalike_table``).

Usage::

    python tools/gen_lookalike_table.py            # rewrite server/lookalike_table.py
    python tools/gen_lookalike_table.py -o FILE    # write somewhere else ("-" = stdout)
    python tools/gen_lookalike_table.py --check    # exit 1 if the committed file is stale

UTS #39's confusables map a letter to a Latin one only when the two are
drawn alike in the reference fonts.  Browsers go further when they compare a
host with the domains people know: Chromium's IDN display policy
(https://chromium.googlesource.com/chromium/src/+/main/docs/idn.md, "Top
domain similarity" and "Whole-script confusables") maps more letters that
look like Latin ones in the fonts of an address bar -- Cyrillic ``ш`` as
``w``, ``н`` as ``h``, ``т`` as ``t``, Latin ``ŧ`` as ``t``, Greek ``κ`` as
``k``, Thai ``พ`` as ``w`` -- and removes diacritics from hosts written in
Latin, Greek and Cyrillic (``đ`` is ``d``, ``ø`` is ``o``, ``ł`` is ``l``
besides what NFD and dropping the marks do).

The table below is irilint's own, written from those glyph shapes (grouped
by the Latin letter or digit each character is drawn like).  It is used
only where the policy uses it: comparing a host with ``protected-domains``
and deciding whether a single-script label looks all Latin.  A Russian or
Greek word in a path is never judged by it.

The output is byte-identical when run twice.
"""
from __future__ import annotations

import argparse
import os
import sys
import unicodedata
from typing import Dict, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated_output import add_output_arguments, write_or_check  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "server", "lookalike_table.py")
REGEN_COMMAND = "python tools/gen_lookalike_table.py"

#: Latin reading -> characters drawn like it in common sans-serif fonts,
#: beyond UTS #39's confusables.
DRAWN_LIKE: Dict[str, str] = {
    "ae": "\u00e6\u04d5",                                   # æ ӕ: the ligature
    "b": "\u0185\u044c\u048d\u0432",                          # ƅ ь ҍ в: a bowl on a stem
    "c": "\u04ab",                                            # ҫ: c with a tail
    "d": "\u0503\u10eb",                                      # ԃ ძ
    "e": "\u0454\u04bd\u04bf",                                # є ҽ ҿ
    "f": "\u0493\u04fb",                                      # ғ ӻ: a barred г
    "g": "\u050d",                                            # ԍ
    "h": "\u0127\u043d\u045b\u04a3\u04a5\u04c8\u04ca\u050b\u0527\u0529",  # ħ н ћ ң ҥ ӈ ӊ ԋ ԧ ԩ
    "k": "\u0138\u03ba\u043a\u049b\u049d\u049f\u04a1\u04c4\u051f",  # ĸ κ к қ ҝ ҟ ҡ ӄ ԟ
    "m": "\u043c\u04ce",                                      # м ӎ
    "n": "\u014b\u043f\u0525\u0e01\u05d7",                    # ŋ п ԥ ก ח: an arch
    "p": "\u03fc\u048f",                                      # ϼ ҏ
    "r": "\u0491",                                            # ґ
    "s": "\u0d1f\u0e23\u0ea3\u0eae",                          # ട ร ຣ ຮ
    "t": "\u0167\u0442\u04ad\u050f",                          # ŧ т ҭ ԏ
    "u": "\u0e1a\u0e9a",                                      # บ ບ
    "w": "\u03c9\u0448\u0449\u0e1e\u0e1f\u0e9e\u0e9f",        # ω ш щ พ ฟ ພ ຟ
    "x": "\u03c7\u04b3\u04fd\u04ff",                          # χ ҳ ӽ ӿ
    "y": "\u04b1",                                            # ұ
    "o": "\u0966\u09e6\u0a66\u0ae6\u0b30\u0b66\u0ce6",        # Indic zeros and ଠ: a ring
    "q": "\u09ed\u0a67\u0ae7",                                # ৭ ੧ ૧
    "0": "\u03b8",                                            # θ: a barred ring
    "2": "\u0577",                                            # շ
    "3": "\u0437\u0499\u04e1\u10d5\u10de",                    # з ҙ ӡ ვ პ
    "6": "\u0573",                                            # ճ
}

#: Latin letters with a stroke that NFD does not split into letter + mark;
#: removed with the diacritics (the policy's "ł > l; ø > o; đ > d").
STROKE_LETTERS: Dict[str, str] = {"\u0142": "l", "\u00f8": "o", "\u0111": "d"}

#: Characters drawn like two different Latin spellings: each is tried.
SEVERAL_READINGS: Dict[str, Tuple[str, ...]] = {
    "\u00fe": ("b", "p"),        # þ: b or p
    "\u0153": ("ce", "oe"),      # œ: ce or oe
}


def _check() -> None:
    seen: Dict[str, str] = {}
    for latin, chars in DRAWN_LIKE.items():
        if not latin.isascii():
            raise SystemExit("table: reading %r is not ASCII" % latin)
        for c in chars:
            if c.isascii() or c in seen:
                raise SystemExit("table: %s listed twice or ASCII" % unicodedata.name(c, hex(ord(c))))
            seen[c] = latin
    for c in list(STROKE_LETTERS) + list(SEVERAL_READINGS):
        if c in seen:
            raise SystemExit("table: %s listed twice" % unicodedata.name(c))


def generate() -> str:
    _check()
    lines = ['"""Letters that look like Latin ones beyond UTS #39 (GENERATED; do not edit).',
             "",
             "Regenerate with ``%s``; the table and why it exists are in that script." % REGEN_COMMAND,
             "Policy: Chromium's IDN display policy (docs/idn.md), used only for comparing",
             "hosts with protected domains and for whole-script confusable labels.",
             '"""',
             "",
             "REGENERATE_COMMAND = %r" % REGEN_COMMAND,
             "",
             "#: character -> the Latin letters (or digit) it is drawn like",
             "DRAWN_LIKE = {"]
    rows = sorted((c, latin) for latin, chars in DRAWN_LIKE.items() for c in chars)
    for c, latin in rows:
        lines.append("    %s: %r,  # %s" % (ascii(c), latin, unicodedata.name(c)))
    lines.append("}")
    lines.append("")
    lines.append("#: Latin letters with a stroke that diacritic removal maps too")
    lines.append("STROKE_LETTERS = {")
    for c, latin in sorted(STROKE_LETTERS.items()):
        lines.append("    %s: %r,  # %s" % (ascii(c), latin, unicodedata.name(c)))
    lines.append("}")
    lines.append("")
    lines.append("#: characters drawn like more than one Latin spelling")
    lines.append("SEVERAL_READINGS = {")
    for c, readings in sorted(SEVERAL_READINGS.items()):
        lines.append("    %s: %r,  # %s" % (ascii(c), readings, unicodedata.name(c)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_output_arguments(ap, DEFAULT_OUTPUT)
    args = ap.parse_args(argv)
    text = generate()
    return write_or_check(text, args.output, args.check, REGEN_COMMAND)


if __name__ == "__main__":
    sys.exit(main())
