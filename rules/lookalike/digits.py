"""IRI207 ascii-lookalike (off by default): digits that stand for letters in
an ASCII word (``paypa1``, ``g00gle``), read against the English word list
and the names of the protected domains.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import FrozenSet, Iterable, List, Optional, Tuple

from ..registry import rule
from .common import _list_chars


# ---------------------------------------------------------------------------
# IRI207 ascii-lookalike
# ---------------------------------------------------------------------------

_DIGIT_RUN_RE = re.compile(r"[0-9]+")
_ALNUM_RUN_RE = re.compile(r"[A-Za-z0-9]+")
_ESCAPE_RE = re.compile(r"%[0-9A-Fa-f]{2}")
_WORD_PART_RE = re.compile(r"[a-z]+")
_FRONT_CODED_WORD_RE = re.compile(r"[A-Z][a-z]*")
#: The letters each digit is drawn like: 0 and o, 1 and l (or I), 3 and a
#: reversed E, 4 and A, 5 and S, 7 and T, 8 and B, 9 and g.  2 and 6 look
#: like no letter (b2b, p2p, x264).
_READ_AS_LETTERS = {"0": "o", "1": "li", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}
#: The first letter each digit reads as (the hypothesis tests' reading).
_READS_AS = {d: letters[0] for d, letters in _READ_AS_LETTERS.items()}
#: Digits that pass for a letter on their own in any word; the others only
#: between letters (see :func:`_path_swap`).
_LETTER_DIGITS = frozenset("01")
#: More digits than this in one word are a number, not spelling (and keep
#: the 1 -> l/i readings few).
_MAX_SPELLING_DIGITS = 4
#: A numeronym: a first letter, the count of the letters left out, a last
#: letter (i18n, l10n, a11y, o11y, k8s).  Its digits are digits even where
#: they would spell a word (a11y is not "ally", l10n not "lion").
_NUMERONYM_RE = re.compile(r"[a-z][1-9][0-9]*[a-z]")


@lru_cache(maxsize=1)
def english_words() -> FrozenSet[str]:
    """The generated English word list (4..15 letters, lower case)."""
    from irilint.english_words import FRONT_CODED

    words = []
    prev = ""
    for m in _FRONT_CODED_WORD_RE.finditer("".join(FRONT_CODED)):
        piece = m.group()
        prev = prev[:ord(piece[0]) - ord("A")] + piece[1:]
        words.append(prev)
    return frozenset(words)


@lru_cache(maxsize=32)
def _brand_words(domains: Tuple[str, ...]) -> FrozenSet[str]:
    """The letter words of the ``protected-domains`` labels other than the
    top-level one (``paypal`` of ``paypal.com``, ``my`` and ``bank`` of
    ``my-bank.co.uk``): the names a digit-for-letter spoof imitates."""
    words = set()
    for domain in domains:
        labels = domain.lower().rstrip(".").split(".")
        for label in labels[:-1]:
            words.update(w for w in _WORD_PART_RE.findall(label) if len(w) >= 4)
    return frozenset(words)


def _is_word(text: str, brands: FrozenSet[str]) -> bool:
    return text in brands or text in english_words()


def _readings(token: str) -> Iterable[str]:
    """``token`` (lower case) with each digit read as a letter it is drawn
    like, every combination (1 is both l and i); nothing if a digit looks
    like no letter."""
    readings = [""]
    for c in token:
        letters = _READ_AS_LETTERS.get(c, c) if c.isdigit() else c
        if not letters:
            return []
        readings = [r + x for r in readings for x in letters]
    return readings


def digit_reading(token: str, brands: FrozenSet[str] = frozenset()) -> Optional[str]:
    """The word an ASCII word ``token`` spells when its digits are read as
    the letters they imitate (``paypa1`` -> ``paypal``, ``br0ken`` ->
    ``broken``), or None when its digits are digits.

    The policy: the reading must be an English word of the generated list
    (SCOWL) or a word of a protected domain, while the token as written is
    not a word with a number: not a word followed by a number (``media1``,
    ``server1``: numbering), not a numeronym (``a11y``, ``l10n``), not
    hexadecimal (``c0ffee``: ids and colours).  Everything else --
    ``sha1sum``, ``mpi4py``, ``uniroma1``, ``0pointer`` -- reads as no word
    and so is left alone without a list of exceptions."""
    if not token.isascii() or not token.isalnum():
        return None
    token = token.lower()
    digits = sum(c.isdigit() for c in token)
    letters = len(token) - digits
    if not digits or letters < 2 or digits > _MAX_SPELLING_DIGITS or len(token) < 4:
        return None
    if all(c in "0123456789abcdef" for c in token):
        return None  # hex-like: ids, hashes, colours
    if _NUMERONYM_RE.fullmatch(token):
        return None
    head = token.rstrip("0123456789")
    if head != token and len(head) >= 4 and _is_word(head, brands):
        return None  # a word and its number: media1, schema1, server01
    for reading in _readings(token):
        if _is_word(reading, brands):
            return reading
    return None


def _digit_swaps(token: str, brands: FrozenSet[str] = frozenset()) -> List[Tuple[int, int]]:
    """Spans of the digit runs of the ASCII word ``token`` that read as
    letters (see :func:`digit_reading`)."""
    if digit_reading(token, brands) is None:
        return []
    return [m.span() for m in _DIGIT_RUN_RE.finditer(token)]


def _path_words(value: str, segments) -> Iterable[Tuple[int, str]]:
    """(value offset, word) of the ASCII letter-and-digit runs of the path
    segments; escapes separate words."""
    for seg in segments:
        text = value[seg.start:seg.end]
        if "%" in text:
            text = _ESCAPE_RE.sub(lambda m: "   ", text)
        for m in _ALNUM_RUN_RE.finditer(text):
            yield seg.start + m.start(), m.group()


def _swap_finding(ctx, start: int, token: str, reading: str, s: int, e: int, where: str):
    run = token[s:e]
    final = e == len(token)
    position = "between letters" if s > 0 and not final else "before letters" if s == 0 else "after letters"
    letters = list(dict.fromkeys(reading[s:e]))
    message = ("%s %s in %s may be read as the letter %s ('%s')"
               % (_list_chars(run), position, where, " and ".join("'%s'" % c for c in letters), reading))
    return ctx.report(start + s, start + e, message)


@rule(name="ascii-lookalike", code="IRI207", family="lookalike", severity="info", enabled=False)
def ascii_lookalike(ctx):
    """A digit that stands in for a letter in a host or path word (``br0ken``, ``paypa1``).

    ## What it does
    Off by default.  Looks at each word (run of ASCII letters and digits)
    of each ASCII host label and of each path segment, reads its digits as
    the letters they are drawn like (``0`` o, ``1`` l or i, ``3`` e, ``4``
    a, ``5`` s, ``7`` t, ``8`` b, ``9`` g) and flags the digits when that
    reading is an English word of at least four letters (the SCOWL word
    list of Debian's ``wamerican``, generated into ``irilint.english_words``
    by ``tools/gen_wordlist.py``; brand names such as PayPal and Microsoft
    are in it) or a word of one of the ``protected-domains``: ``br0ken``,
    ``g00gle``, ``micr0soft``, ``paypa1``, ``0range``, ``p4ssw0rd``.

    Digits that are digits read as no word and are left alone:
    ``sha1sum``, ``mpi4py``, ``uniroma1``, ``0pointer``, ``gs1us``,
    ``mp3player``, ``win10``.  So are words whose digits spell a word only
    by chance: a word followed by its number (``media1``, ``server01``),
    numeronyms -- a letter, the count of the letters left out and a letter
    (``a11y`` is not "ally", ``l10n`` not "lion", ``k8s``) --, words of
    hexadecimal digits only (``c0ffee``), words of fewer than four
    characters or two letters, ``xn--`` labels and IP addresses.

    Path segments name files and tools far more often than hosts do, so in
    a path word only a single ``0`` or ``1`` between letters of a
    lower-case word (``br0ken``) or a final ``1`` (``paypa1.html``) counts;
    a ``data:`` URI's path is not read as words.

    ## Why
    RFC 3987 s7.5 warns about ASCII look-alikes: ``br0ken.example`` is not
    ``broken.example``, and ``1`` versus ``l`` is hard to see in many fonts.

    ## Example
    ``http://paypa1-secure.example/`` and ``http://g00gle.com/`` are
    flagged; ``http://ns1.example/mp3/`` and ``https://www.a11yproject.com/``
    are not.

    ## Fix safety
    No fix: the digit may be part of the real name.

    ## Reference
    RFC 3987 s7.5; UTS #39 s4.
    """
    ref = ctx.ref
    value = ctx.value
    brands = _brand_words(tuple(getattr(ctx.settings, "protected_domains", ()) or ()))
    if ref.host is not None and ref.host_kind == "reg-name":
        host = value[ref.host.start:ref.host.end]
        if host.isascii():
            for lab in ref.host_labels:
                label = value[lab.start:lab.end]
                if label[:4].lower() == "xn--":
                    continue
                where = "the host label '%s'" % label
                for m in _ALNUM_RUN_RE.finditer(label):
                    token = m.group()
                    reading = digit_reading(token, brands)
                    if reading is not None:
                        for s, e in _digit_swaps(token, brands):
                            yield _swap_finding(ctx, lab.start + m.start(), token, reading, s, e, where)
    segments = ref.segments
    if segments and ref.scheme_lower != "data":  # a data: URI's path is content, not words
        for start, word in _path_words(value, segments):
            reading = digit_reading(word, brands)
            if reading is None:
                continue
            for s, e in _digit_swaps(word, brands):
                if _path_swap(word, s, e):
                    yield _swap_finding(ctx, start, word, reading, s, e, "the path word '%s'" % word)


def _path_swap(word: str, s: int, e: int) -> bool:
    """Whether a digit that :func:`_digit_swaps` reads as a letter is
    reported in a path word, which names files and tools far more often
    than a host does (``md5sum``, ``ext4magic``, ``sha1sum``, test files
    ``stc1E.n3``): only a single ``0`` or ``1``, the digits drawn like
    letters in most fonts (UTS #39 confusables: ``0`` o, ``1`` l), with
    letters on both sides in a lower-case word (``br0ken``), or a final
    ``1`` completing an "-al" or "-il" word (``paypa1``), counts.
    Leetspeak digits (``3`` e, ``4`` a, ``5`` s) read as digits there, and
    a mixed-case word is an identifier, not spelling."""
    if not (e - s == 1 and word[s] in _LETTER_DIGITS and 0 < s and word.islower()):
        return False
    return e < len(word) or word[s] == "1"  # between letters, or a final "-a1"/"-i1" (paypa1)
