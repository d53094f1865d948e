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

An embedded URI is read as docutils reads it: its whitespace removed (a
URI wrapped over lines is joined, with an offset map back to each piece),
backslash escapes decoded.  Hyperlink targets are read from their first
line.
"""
from __future__ import annotations

import heapq
import re
from typing import Iterator, List, Tuple

from ._common import Decoded, OffsetBuilder, finalize, finalized, gaps, position
from .base import Candidate, CommentSyntax, Scanner
from .text import find_iris, iter_iris

# ".. _name: target", ".. __: target", "__ target"; the name may contain
# escaped colons or be backquoted.  Group 1 is the target.
_TARGET_RX = re.compile(
    r"^[ \t]*(?:\.\.[ \t]+_(?:`[^`\n]*`|(?:[^:\\\n]|\\.)*):|__)[ \t]+"
    r"(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE)
_DIRECTIVE_RX = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?(?:image|figure)::[ \t]+"
    r"(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_SPACE_RX = re.compile(r"\s")
_OPTION_RX = re.compile(
    r"^[ \t]+:(?:target|url):[ \t]+(\S(?:[^\n]*\S)?)[ \t]*$", re.MULTILINE)
# `text <target>`_ : the phrase may not start with a space or a backquote;
# as in docutils, the "<" starts the phrase or follows whitespace (so
# `\<name\>`_ is a reference name, not a target) and the ">" is not
# escaped; the target has no backquote or angle brackets.  Linear: [^`]*
# stops at the next backquote, so attempts from different backquotes never
# overlap.
_EMBEDDED_RX = re.compile(
    r"(?<![`\\])`(?![` ])(?:[^`]*?\s)?<([^`<>]*)(?<!\\)>`__?")


def _is_reference_name(target: str) -> bool:
    """``name_`` (not ``name\\_``) refers to another target."""
    return target.endswith("_") and not target.endswith("\\_")


def embedded_uri(text: str, lo: int, hi: int) -> Decoded:
    """The embedded URI ``text[lo:hi]`` as docutils reads it, with an
    offset map: whitespace removed (a URI wrapped over lines is joined),
    escaped whitespace ``\\ `` read as one space, and a backslash escape
    read as the character it escapes (docutils' ``phrase_ref``:
    ``split_escaped_whitespace``, then ``unescape``)."""
    if text.find("\\", lo, hi) < 0 and _SPACE_RX.search(text, lo, hi) is None:
        return Decoded.plain(text, lo, hi)
    out = OffsetBuilder(text, lo)
    run = lo  # start of the pending run of plain characters
    i = lo
    while i < hi:
        c = text[i]
        if c == "\\" and i + 1 < hi:
            out.copy(run, i)
            escaped = text[i + 1]
            out.emit(" " if escaped.isspace() else escaped, i, i + 2)
            i += 2
            run = i
        elif c.isspace():
            out.copy(run, i)
            i += 1
            run = i
        else:
            i += 1
    out.copy(run, hi)
    return out.finish(hi)


def scan_rst(text: str) -> List[Candidate]:
    out, merged = _structure(text)
    for lo, hi in gaps(merged, 0, len(text)):
        out.extend(find_iris(text, lo, hi))
    return finalize(out)


def iter_rst(text: str) -> Iterator[Candidate]:
    """The candidates of :func:`scan_rst`, the bare IRIs of prose found as
    they are asked for (those of targets, directives and embedded links,
    found by whole-document searches, are held)."""
    out, merged = _structure(text)
    out.sort(key=position)  # stable: ties in the order scan_rst lists them
    bare = (c for lo, hi in gaps(merged, 0, len(text)) for c in iter_iris(text, lo, hi))
    return finalized(heapq.merge(out, bare, key=position))


def _structure(text: str) -> Tuple[List[Candidate], List[Tuple[int, int]]]:
    """The candidates of targets, directives, options and embedded links,
    and the text they claim (merged, sorted)."""
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
        if lo < hi and not _is_reference_name(text[lo:hi]):
            piece = embedded_uri(text, lo, hi)
            out.append(piece.candidate(0, len(piece.value), "rst-link"))
        claims.append((lo, hi))
    claims.sort()
    # Claims never overlap in practice (they are different syntaxes); a
    # merged list keeps gaps() simple if they ever do.
    merged: List[Tuple[int, int]] = []
    for lo, hi in claims:
        if merged and lo < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return out, merged


class RstScanner(Scanner):
    """reStructuredText documents."""

    name = "rst"
    comments = (CommentSyntax(".."),)

    def scan(self, text: str) -> Iterator[Candidate]:
        return iter_rst(text)
