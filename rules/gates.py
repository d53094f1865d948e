"""Which rules can fire on a non-ASCII reference, from its distinct characters.

Most non-ASCII references in documentation are letters of one script with
no bidi control, no look-alike of a delimiter, nothing invisible.  Running
every rule on them costs far more than finding that out: each rule with a
``gate`` (:class:`irilint.rules.registry.Rule`) names a test of one
character that must hold for some character of the reference, or the rule
finds nothing.  The engine classifies each distinct non-ASCII character once
(:func:`char_mask`, kept per character), ORs the bits, and skips the rules
whose bit is absent.

Gates apply only to references whose only trait is ``non_ascii``: without
``%`` and ``xn--`` the decoded view is the value, so a rule's view and the
characters tested here are the same.

:func:`plain_syntax_match` extends the ASCII fast path
(:mod:`irilint.rules.fastpath`) to such references: when every non-ASCII
character is a ``ucschar`` (allowed literally in every component), putting
``_`` (also allowed everywhere, and never part of a scheme, a port or an
IPv4 address, as no ``ucschar`` is) in their place changes nothing the
grammar rules judge, so a :data:`~irilint.rules.fastpath.FAST_RE` match of
that skeleton means the rules of
fast-path silent (``@rule(fast_path_silent=True)``) find nothing.

``tests/test_per_iri_speedups.py`` compares the findings with and without
the gates.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Dict, FrozenSet, Iterable, Optional

from irilint.chars import UCSCHAR_RANGES, class_rx

from .fastpath import _DOT_SEGMENT_RE, _search_slash_dot, fast_non_ascii_re

#: bit of each gate test, in registration order; bit 0: "not a ucschar"
_BITS: Dict[Callable[[str], bool], int] = {}
NOT_UCSCHAR = 1
_MASKS: Dict[str, int] = {}
_SET_MASKS: Dict[FrozenSet[str], int] = {}
_UCSCHAR_RE = re.compile(class_rx(UCSCHAR_RANGES))
_NON_ASCII_RE = re.compile("[^\\x00-\\x7f]")

#: Set False to run every rule (tests compare both ways).
ENABLED = True


def bit_of(test: Callable[[str], bool]) -> int:
    """The mask bit standing for a gate test."""
    bit = _BITS.get(test)
    if bit is None:
        bit = _BITS[test] = 1 << (len(_BITS) + 1)
        _MASKS.clear()  # masks computed before lack this bit
        _SET_MASKS.clear()
    return bit


def char_mask(chars: FrozenSet[str]) -> int:
    """The OR of the bits of the gate tests that hold for these
    (non-ASCII) characters, and :data:`NOT_UCSCHAR`.  Kept per set: the
    references of a document repeat their characters."""
    mask = _SET_MASKS.get(chars)
    if mask is None:
        mask = _char_mask(chars)
        if len(_SET_MASKS) >= 4096:
            _SET_MASKS.clear()
        _SET_MASKS[chars] = mask
    return mask


def _char_mask(chars: Iterable[str]) -> int:
    masks = _MASKS
    mask = 0
    for c in chars:
        m = masks.get(c)
        if m is None:
            m = 0 if _UCSCHAR_RE.match(c) else NOT_UCSCHAR
            for test, bit in list(_BITS.items()):
                if test(c):
                    m |= bit
            masks[c] = m
        mask |= m
    return mask


def rule_bit(r) -> Optional[int]:
    """The bit a rule's gate needs, or None (always run)."""
    return None if r.gate is None else bit_of(r.gate)


def plain_syntax_match(value: str, mask: int) -> bool:
    """Do the grammar rules of the fast path find nothing in ``value``
    (a reference with the "non_ascii" trait only, of character mask
    ``mask``)?  See the module docstring."""
    if mask & NOT_UCSCHAR:
        return False
    # fast_match of the skeleton (see the module docstring), without making
    # it: the regex allows non-ASCII characters where it allows "_".  The
    # skeleton cannot hold "xn--" in any case (that is the "punycode"
    # trait), and "/." is where it is in the value.
    # (re's literal search for the two characters on long values: ~3x
    # faster than str's over a megabyte of combining marks.)
    if (_search_slash_dot(value) is not None if len(value) > 4096 else "/." in value) \
            and _DOT_SEGMENT_RE.match(value):
        return False
    return fast_non_ascii_re().match(value) is not None


def skeleton(value: str) -> str:
    """The reference with "_" for each non-ASCII character."""
    return _NON_ASCII_RE.sub("_", value)


# -- gate tests shared by several modules -------------------------------------

def nfc_sensitive(c: str) -> bool:
    """Can ``c`` take part in a change NFC makes?  False means: ``c`` is
    in NFC alone, is a starter (canonical combining class 0), is no mark,
    no Hangul jamo (which compose with a syllable or jamo before them) and
    so never the second character of a composition; a string of such
    characters and ASCII is in NFC, and so is every part of it.
    ``tests/test_per_iri_speedups.py`` checks this against every
    composition of the running Python's Unicode data."""
    cp = ord(c)
    if 0x1100 <= cp <= 0x11FF or 0xA960 <= cp <= 0xA97F or 0xD7B0 <= cp <= 0xD7FF:
        return True
    if unicodedata.combining(c) or unicodedata.category(c)[0] == "M":
        return True
    return not unicodedata.is_normalized("NFC", c)

