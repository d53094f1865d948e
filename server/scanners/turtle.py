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
from typing import Iterator, List

from ._common import POSSESSIVE_QUANTIFIERS, finalize
from ._decode import HEX_U, TURTLE_ESCAPES, decode_backslashes
from .base import Candidate, CommentSyntax, Scanner
from .text import _COLON_RX as _IRI_COLON_RX, MAX_SCHEME_LENGTH, iter_iris, scan_decoded

_TOKEN_RX = re.compile(r"<|#|\"\"\"|'''|[\"']")
# What holds no candidate, passed in one match up to the next token that
# may hold one ("<", "#", a quote): text outside terms, short literals with
# neither "\\" nor ":" (the bare IRIs of a literal start at a colon), and
# comments without ":" up to their line end.  Three quotes open a long
# literal, never passed; a short one that does not close on its line is
# left to the token's own handling.  Possessive, so that a run of many
# short literals keeps no state to backtrack into (see
# POSSESSIVE_QUANTIFIERS; without them the tokens are searched one by one).
_NOTHING_RX = re.compile(
    r"""(?:[^<#"']++|"(?!"")[^"\\\n:]*+"|'(?!'')[^'\\\n:]*+'|#[^\n:]*+(?![^\n]))*+"""
    if POSSESSIVE_QUANTIFIERS else "")
# The commonest candidates, taken in the same match as the skip before
# them: an IRI term without escapes (group 1; one with "\\" fails here and
# is read by _IRIREF_RX), and a short literal without escapes that is
# exactly one "scheme://..." IRI of ASCII IRI characters (groups 2 and 3),
# which iter_iris would give whole: it fills its window, a string literal,
# so only trailing punctuation is trimmed -- the last character here is
# none (nor a closing bracket), the first after "://" is no quote or
# bracket (_is_quote_like), and the scheme is at most MAX_SCHEME_LENGTH
# letters.  Anything else is read token by token below.
_WHOLE_IRI = (r"[A-Za-z][A-Za-z0-9+.\-]{0,%d}+://[!#-&*-;=?-\[\]_a-z~]%%s*+"
              r"(?<=[#-&(+\-/0-9=@-\[a-z])") % (MAX_SCHEME_LENGTH - 1)
_STEP_RX = re.compile(
    _NOTHING_RX.pattern + r"""(?:<([^\x00-\x20<>"{}|^`\\]*+)>|"(%s)"|'(%s)')?""" % (
        _WHOLE_IRI % r"[!#-;=?-\[\]_a-z~]", _WHOLE_IRI % r"[!#-&(-;=?-\[\]_a-z~]")
    if POSSESSIVE_QUANTIFIERS else "")
#: Whether the skip regex is used (see POSSESSIVE_QUANTIFIERS).
FAST_SKIP = POSSESSIVE_QUANTIFIERS
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
_BLANKS = " \t\r\n"
#: The last character before an IRI term, past blanks, is one of these
#: when a declaration can precede the term ("p:" or "base").
_MAYBE_DECLARATION = ":eE"


def _context(text: str, lt: int) -> str:
    lo = lt - 200 if lt > 200 else 0
    # The declaration pattern ends its match with blanks up to the IRI, so
    # the last character before them tells which declaration it can be,
    # and where its match must start: "base" ends there, or "prefix",
    # blanks and a name end at the colon.  One match tried there answers
    # what a search from every start in the window would.
    k = lt
    while k > lo and text[k - 1] in _BLANKS:
        k -= 1
    if k == lo:
        return "turtle-iri"
    last = text[k - 1]
    if last == ":":
        i = k - 1  # the name: back to a space or another colon
        while i > lo and text[i - 1] != ":" and not text[i - 1].isspace():
            i -= 1
        h = i
        while h > lo and text[h - 1] in _BLANKS:
            h -= 1
        if h - 6 >= lo and _DECLARATION_RX.match(text, h - 6, lt) is not None:
            return "turtle-prefix"
    elif last in "eE" and k - 4 >= lo and _DECLARATION_RX.match(text, k - 4, lt) is not None:
        return "turtle-base"
    return "turtle-iri"


def scan_turtle(text: str) -> List[Candidate]:
    return _scan_turtle(text, FAST_SKIP)


def _scan_turtle(text: str, fast: bool) -> List[Candidate]:
    """``scan_turtle``; ``fast=False`` searches the tokens one by one (as
    on Pythons without possessive quantifiers)."""
    return finalize(list(_turtle(text, fast)))


def _turtle(text: str, fast: bool) -> Iterator[Candidate]:
    """The candidates of ``_scan_turtle`` before ``finalize``, in document
    order (the tokens are read left to right), found as they are asked for."""
    n = len(text)
    step = _STEP_RX.match if fast else None
    token, iriref, spaced = _TOKEN_RX.search, _IRIREF_RX.match, _SPACED_IRIREF_RX.match
    find, colon = text.find, _IRI_COLON_RX.search
    maybe_declaration, blanks = _MAYBE_DECLARATION, _BLANKS
    pos = 0
    while True:
        if step is not None:
            m = step(text, pos)
            group = m.lastindex
            if group == 1:  # an IRI term without escapes
                lo, hi = m.span(1)
                lt = lo - 1
                # _context only where the text before can end a declaration
                # ("...:" or "...base", then blanks): most terms follow ">",
                # ".", ";", "(" or a name, past blanks.
                context = "turtle-iri"
                k = lt
                floor = lt - 200 if lt > 200 else 0  # _context's window
                while k > floor and text[k - 1] in blanks:
                    k -= 1
                if k > floor and text[k - 1] in maybe_declaration:
                    context = _context(text, lt)
                yield Candidate(lo, hi, m.group(1), None, context)
                pos = m.end()
                continue
            if group is not None:  # a short literal that is one IRI
                lo, hi = m.span(group)
                yield Candidate(lo, hi, m.group(group), None, "string")
                pos = m.end()
                continue
            start = m.end()
            if start >= n:
                break
        else:
            m = token(text, pos)
            if m is None:
                break
            start = m.start()
        first = text[start]
        if first == "<":
            iri = iriref(text, start) or spaced(text, start)
            if iri is None:
                pos = start + 1  # "<" as an operator in SPARQL
                continue
            lo, hi = iri.span(1)
            if find("\\", lo, hi) < 0:  # no escape: the text is the value
                yield Candidate(lo, hi, text[lo:hi], None, _context(text, start))
            else:
                piece = decode_backslashes(text, lo, hi, _EMPTY_UCHARS, HEX_U)
                yield piece.candidate(0, len(piece.value), _context(text, start))
            pos = iri.end()
        elif first == "#":  # a comment, to the end of its line
            nl = find("\n", start)
            end = nl if nl >= 0 else n
            yield from iter_iris(text, start + 1, end, "comment")
            pos = end
        else:  # a string literal
            if text.startswith(first * 3, start):  # long: to the same three quotes
                lo = start + 3
                close = find(first * 3, lo)
                hi = close if close >= 0 else n
                pos = close + 3 if close >= 0 else n
            else:
                lo = start + 1
                hi = _STRING_BODY_RX[first].match(text, lo).end()
                pos = hi + 1 if hi < n and text[hi] == first else hi
            if find("\\", lo, hi) < 0:
                # No escape: the literal is its own text, searched in place
                # (find_iris starts where "://" or a "mailto:"-like colon is).
                if colon(text, lo, hi) is not None:
                    yield from iter_iris(text, lo, hi, "string")
                continue
            piece = decode_backslashes(text, lo, hi, TURTLE_ESCAPES, HEX_U)
            yield from scan_decoded(piece, "string")


class TurtleScanner(Scanner):
    """Turtle and its family (N-Triples, N-Quads, TriG, N3) and SPARQL."""

    name = "turtle"
    comments = (CommentSyntax("#"),)
    text_is_data = True

    def scan(self, text: str) -> Iterator[Candidate]:
        # Already what finalized() would pass through: every candidate lies
        # inside its token (an IRI term, a literal, a comment), the tokens
        # are read left to right without overlapping, a window's bare IRIs
        # come sorted and disjoint, and an empty candidate (``<>``) is one
        # per term.
        return _turtle(text, FAST_SKIP)
