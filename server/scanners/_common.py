"""Helpers shared by the scanners: decoded text with offset maps, windows.

A scanner often has to look at a *piece* of the document whose meaning
differs from its spelling (``&amp;`` in HTML, ``\\u202e`` in JSON).  It
decodes that piece into a :class:`Decoded`, which keeps, for every decoded
character, the document offset it came from.  Candidates found in the decoded
value are then turned back into document spans by :meth:`Decoded.candidate`.
"""
from __future__ import annotations

import sys
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

from .base import Candidate

#: The scanners' skip regexes (HTML/XML, JSON, code) need possessive
#: quantifiers (Python 3.11+) to stay linear: with plain greedy ones, nested
#: runs such as ``(?:[^<]+|...)*`` backtrack exponentially on a tag or a
#: literal that does not close.  Older Pythons use the tokenizers alone,
#: which give the same candidates (tested).
POSSESSIVE_QUANTIFIERS = sys.version_info >= (3, 11)

#: ASCII whitespace as HTML and the IRI pre-processing rules mean it
#: (RFC 3987 s7.2 / draft-weber-iri-guidelines s4 step 1).
ASCII_SPACE = " \t\n\r\f"


class Decoded:
    """A decoded piece of a document.

    ``value`` is the decoded text.  When ``offsets`` is ``None`` the value is
    the document text ``source[base:base + len(value)]`` unchanged; otherwise
    ``offsets`` has ``len(value) + 1`` entries, the document offset where each
    decoded character starts plus the end offset of the piece.
    """

    __slots__ = ("source", "base", "value", "offsets")

    def __init__(self, source: str, base: int, value: str,
                 offsets: Optional[List[int]] = None) -> None:
        self.source = source
        self.base = base
        self.value = value
        self.offsets = offsets

    @classmethod
    def plain(cls, source: str, lo: int, hi: int) -> "Decoded":
        """The undecoded document text ``source[lo:hi]``."""
        return cls(source, lo, source[lo:hi], None)

    def offset(self, i: int) -> int:
        """Document offset of position ``i`` of the value."""
        if self.offsets is None:
            return self.base + i
        return self.offsets[i]

    def candidate(self, i: int, j: int, context: str) -> Candidate:
        """The candidate for ``value[i:j]``, mapped back to the document."""
        value = self.value[i:j]
        if self.offsets is None:
            return Candidate(self.base + i, self.base + j, value, None, context)
        offs = self.offsets[i:j + 1]
        start, end = offs[0], offs[-1]
        # Every escape is longer than what it decodes to, so a source span as
        # long as the value means no escape is inside: no map is needed.
        if end - start == j - i:
            return Candidate(start, end, value, None, context)
        return Candidate(start, end, value, offs, context)

    def strip_span(self, i: int = 0, j: Optional[int] = None,
                   chars: str = ASCII_SPACE) -> Tuple[int, int]:
        """``(i, j)`` narrowed past leading/trailing ``chars`` of the value."""
        v = self.value
        if j is None:
            j = len(v)
        while i < j and v[i] in chars:
            i += 1
        while j > i and v[j - 1] in chars:
            j -= 1
        return i, j


class OffsetBuilder:
    """Builds a :class:`Decoded` piece by piece, recording offsets.

    Decoders copy plain runs with :meth:`copy` and add decoded escapes with
    :meth:`emit`.  When an escape decodes to several characters, the first one
    owns the whole escape and the others are empty at its end, so a finding
    on the first character points at the escape.
    """

    __slots__ = ("source", "lo", "parts", "offsets")

    def __init__(self, source: str, lo: int) -> None:
        self.source = source
        self.lo = lo
        self.parts: List[str] = []
        self.offsets: List[int] = []

    def copy(self, a: int, b: int) -> None:
        if a < b:
            self.parts.append(self.source[a:b])
            self.offsets.extend(range(a, b))

    def emit(self, decoded: str, a: int, b: int) -> None:
        if not decoded:
            return
        self.parts.append(decoded)
        self.offsets.append(a)
        if len(decoded) > 1:
            self.offsets.extend([b] * (len(decoded) - 1))

    def extend(self, piece: Decoded) -> None:
        """Append an already decoded piece (its offsets are kept)."""
        if not piece.value:
            return
        self.parts.append(piece.value)
        if piece.offsets is None:
            self.offsets.extend(range(piece.base, piece.base + len(piece.value)))
        else:
            self.offsets.extend(piece.offsets[:-1])

    def finish(self, hi: int) -> Decoded:
        self.offsets.append(hi)
        return Decoded(self.source, self.lo, "".join(self.parts), self.offsets)


def gaps(intervals: Sequence[Tuple[int, int]], lo: int, hi: int
         ) -> Iterator[Tuple[int, int]]:
    """The parts of ``[lo, hi)`` not covered by sorted ``intervals``."""
    pos = lo
    for a, b in intervals:
        if a > pos:
            yield pos, min(a, hi)
        if b > pos:
            pos = b
        if pos >= hi:
            return
    if pos < hi:
        yield pos, hi


def position(c: Candidate) -> Tuple[int, int]:
    """A candidate's sort key: (start, end), as scanners hand them out."""
    return c.start, c.end


def finalized(cands: Iterable[Candidate]) -> Iterator[Candidate]:
    """:func:`finalize` of candidates that come sorted by (start, end), as
    they come: those that overlap an earlier one dropped the same way."""
    last_start = last_end = -1
    for c in cands:
        start, end = c.start, c.end
        if start < last_end or start == end == last_start == last_end:
            continue
        yield c
        last_start, last_end = start, end


def finalize(cands: List[Candidate]) -> List[Candidate]:
    """Sort candidates by position and drop any that overlap an earlier one.

    Scanners build their candidates from disjoint windows, so this is only a
    safety net; it keeps the output contract (sorted, non-overlapping) even
    if two structural rules claim the same text.
    """
    # The usual case, candidates already in order and disjoint, in one pass.
    prev_start = prev_end = -1
    for c in cands:
        start = c.start
        if start < prev_end or (start == prev_end and start == c.end and prev_start == prev_end):
            break
        prev_start, prev_end = start, c.end
    else:
        return cands
    cands.sort(key=position)
    out: List[Candidate] = []
    last_end = -1
    last_start = -1
    for c in cands:
        if c.start < last_end:
            continue
        # Two empty candidates at one spot (``<>`` twice) would be duplicates.
        if c.start == c.end == last_start == last_end:
            continue
        out.append(c)
        last_start, last_end = c.start, c.end
    return out
