"""RDF Turtle, N-Triples, N-Quads, TriG, N3 and SPARQL.

* Every ``<...>`` IRI term (IRIREF) is a candidate, relative ones included
  (``<#me>``, ``<../x>``, and ``<>``, which gives an empty value), with
  ``\\uXXXX`` / ``\\UXXXXXXXX`` escapes decoded through an offset map.
  Context ``turtle-prefix`` after ``@prefix p:`` / ``PREFIX p:``,
  ``turtle-base`` after ``@base`` / ``BASE``, ``turtle-iri`` otherwise.
  The grammar forbids spaces in an IRIREF; ``<scheme:... with spaces>`` is
  still taken (the linter reports the spaces), while ``?a < ?b`` in SPARQL
  is not an IRI.
* String literals (``"..."``, ``'...'``, ``\"\"\"...\"\"\"``, ``'''...'''``)
  are decoded (ECHAR and UCHAR escapes) and searched for bare IRIs
  (``string``); comments (``#``) too (``comment``).
* Prefixed names (``ex:thing``) are not IRIs until expanded, and are not
  reported.
* IRI terms and literals are data (``DATA_CONTEXTS``): no fix of them is
  safe.  Comments are prose.
"""
from __future__ import annotations

import re
from typing import List

from ._common import finalize
from ._decode import HEX_U, TURTLE_ESCAPES, decode_backslashes
from .base import Candidate, CommentSyntax, Scanner
from .text import _COLON_RX as _IRI_COLON_RX, find_iris, scan_decoded

_TOKEN_RX = re.compile(r"<|#|\"\"\"|'''|[\"']")
_IRIREF_RX = re.compile(
    r'<((?:[^\x00-\x20<>"{}|^`\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*)>')
# The lenient form: an absolute IRI with spaces, on one line.
_SPACED_IRIREF_RX = re.compile(
    r'<([A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x1f<>"{}|^`\\]*[^\x00-\x20<>"{}|^`\\])>')
_STRING_BODY_RX = {
    '"': re.compile(r'(?:[^"\\\n]|\\.)*'),
    "'": re.compile(r"(?:[^'\\\n]|\\.)*"),
}
_DECLARATION_RX = re.compile(
    r"(?:(@?prefix)[ \t\r\n]+[^\s:]*:|(@?base))[ \t\r\n]*$", re.IGNORECASE)
_EMPTY_UCHARS: dict = {}


def _context(text: str, lt: int) -> str:
    lo = max(0, lt - 200)
    # A declaration ends in "p:" or "base" before the blanks: anything else
    # before them (most IRIs follow "<s> " or "; ") is no declaration, and
    # the search that tries every start in the window is not needed.
    before = text[lo:lt].rstrip(" \t\r\n")
    if not before or before[-1] not in ":eE":
        return "turtle-iri"
    m = _DECLARATION_RX.search(text, lo, lt)
    if m is None:
        return "turtle-iri"
    return "turtle-prefix" if m.group(1) else "turtle-base"


def scan_turtle(text: str) -> List[Candidate]:
    n = len(text)
    out: List[Candidate] = []
    pos = 0
    while pos < n:
        m = _TOKEN_RX.search(text, pos)
        if m is None:
            break
        t = m.group()
        start = m.start()
        if t == "<":
            iri = _IRIREF_RX.match(text, start) or _SPACED_IRIREF_RX.match(text, start)
            if iri is None:
                pos = start + 1  # "<" as an operator in SPARQL
                continue
            lo, hi = iri.span(1)
            if text.find("\\", lo, hi) < 0:  # no escape: the text is the value
                out.append(Candidate(lo, hi, text[lo:hi], None, _context(text, start)))
            else:
                piece = decode_backslashes(text, lo, hi, _EMPTY_UCHARS, HEX_U)
                out.append(piece.candidate(0, len(piece.value), _context(text, start)))
            pos = iri.end()
        elif t == "#":
            nl = text.find("\n", start)
            end = nl if nl >= 0 else n
            out.extend(find_iris(text, start + 1, end, "comment"))
            pos = end
        else:
            lo = m.end()
            if len(t) == 3:
                close = text.find(t, lo)
                hi = close if close >= 0 else n
                pos = close + 3 if close >= 0 else n
            else:
                hi = _STRING_BODY_RX[t].match(text, lo).end()
                pos = hi + 1 if hi < n and text[hi] == t else hi
            if text.find("\\", lo, hi) < 0 and _IRI_COLON_RX.search(text, lo, hi) is None:
                # No escape, so the literal is its own text, and no "://" or
                # "mailto:"-like colon, where find_iris starts: no IRI inside.
                continue
            piece = decode_backslashes(text, lo, hi, TURTLE_ESCAPES, HEX_U)
            out.extend(scan_decoded(piece, "string"))
    return finalize(out)


class TurtleScanner(Scanner):
    """Turtle and its family (N-Triples, N-Quads, TriG, N3) and SPARQL."""

    name = "turtle"
    comments = (CommentSyntax("#"),)
    text_is_data = True

    def scan(self, text: str) -> List[Candidate]:
        return scan_turtle(text)
