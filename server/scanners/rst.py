"""reStructuredText: embedded URIs, hyperlink targets, image/figure, text.

What is found:

* embedded URIs in phrase references: ```text <iri>`_`` and ``__``
  (``<name_>``, an alias to another target, is not an IRI) -- ``rst-link``;
* hyperlink targets ``.. _name: iri``, anonymous ``.. __: iri`` and
  ``__ iri`` (indirect targets ``name_`` are skipped) -- ``rst-link``;
* the argument of ``.. image::`` and ``.. figure::`` (also in substitution
  definitions ``.. |x| image:: iri``) and their ``:target:`` option, and
  any ``:url:`` option -- ``rst-directive``.  Other directive arguments
  (``include``, ``literalinclude``) are file paths, not IRIs;
* bare IRIs everywhere else, comments (``.. text``) and literal blocks
  included.

Docutils removes whitespace from a target IRI split over lines; here it is
kept in the value (as for ``<...>`` in plain text) so the linter can report
it.  Targets are read from their first line.
"""
from __future__ import annotations

import re
from typing import List, Tuple

from ._common import finalize, gaps
from .base import Candidate, CommentSyntax, Scanner
from .text import find_iris

# ".. _name: target", ".. __: target", "__ target"; the name may contain
# escaped colons or be backquoted.  Group 1 is the target.
_TARGET_RX = re.compile(
    r"^[ \t]*(?:\.\.[ \t]+_(?:`[^`\n]*`|(?:[^:\\\n]|\\.)*):|__)[ \t]+"
    r"(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE)
_DIRECTIVE_RX = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?(?:image|figure)::[ \t]+"
    r"(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_OPTION_RX = re.compile(
    r"^[ \t]+:(?:target|url):[ \t]+(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE)
# `text <target>`_ : the phrase may not start with a space or a backquote;
# the target has no backquote or angle brackets.  Linear: [^`]* stops at the
# next backquote, so attempts from different backquotes never overlap.
_EMBEDDED_RX = re.compile(r"(?<![`\\])`(?![` ])[^`]*?<([^`<>]*)>`__?")


def _is_reference_name(target: str) -> bool:
    """``name_`` (not ``name\\_``) refers to another target."""
    return target.endswith("_") and not target.endswith("\\_")


def scan_rst(text: str) -> List[Candidate]:
    out: List[Candidate] = []
    claims: List[Tuple[int, int]] = []

    def add(lo: int, hi: int, context: str) -> None:
        if lo < hi and not _is_reference_name(text[lo:hi]):
            out.append(Candidate(lo, hi, text[lo:hi], None, context))
        claims.append((lo, hi))

    for m in _TARGET_RX.finditer(text):
        add(m.start(1), m.end(1), "rst-link")
    for m in _DIRECTIVE_RX.finditer(text):
        add(m.start(1), m.end(1), "rst-directive")
    for m in _OPTION_RX.finditer(text):
        add(m.start(1), m.end(1), "rst-directive")
    for m in _EMBEDDED_RX.finditer(text):
        lo, hi = m.span(1)
        # Leading/trailing whitespace inside <...> is not part of the IRI.
        while lo < hi and text[lo].isspace():
            lo += 1
        while hi > lo and text[hi - 1].isspace():
            hi -= 1
        add(lo, hi, "rst-link")
    claims.sort()
    # Claims never overlap in practice (they are different syntaxes); a
    # merged list keeps gaps() simple if they ever do.
    merged: List[Tuple[int, int]] = []
    for lo, hi in claims:
        if merged and lo < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    for lo, hi in gaps(merged, 0, len(text)):
        out.extend(find_iris(text, lo, hi))
    return finalize(out)


class RstScanner(Scanner):
    """reStructuredText documents."""

    name = "rst"
    comments = (CommentSyntax(".."),)

    def scan(self, text: str) -> List[Candidate]:
        return scan_rst(text)
