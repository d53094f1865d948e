"""Character classes of RFC 3987 and RFC 3986, and the sets s3.2 keeps encoded.

Everything here is a pure function of a code point, so the rules, the parser
and the conversions agree on what each character is.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import islice
from typing import List, Optional, Tuple

# RFC 3986 s2.3 / s2.2.
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
HEXDIG = DIGIT + "ABCDEFabcdef"
UNRESERVED_ASCII = ALPHA + DIGIT + "-._~"
GEN_DELIMS = ":/?#[]@"
SUB_DELIMS = "!$&'()*+,;="
RESERVED = GEN_DELIMS + SUB_DELIMS
#: Every ASCII character that may stand literally somewhere in a URI.
URI_ASCII = UNRESERVED_ASCII + RESERVED + "%"

# RFC 3987 s2.2, ucschar and iprivate, as (first, last) inclusive ranges.
UCSCHAR_RANGES = (
    (0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF),
    (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD),
    (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD),
    (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD),
    (0xD0000, 0xDFFFD), (0xE1000, 0xEFFFD),
)
IPRIVATE_RANGES = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def _class_of(ranges) -> str:
    return "".join(
        "%s-%s" % (re.escape(chr(a)), re.escape(chr(b))) for a, b in ranges
    )


UCSCHAR_CLASS = _class_of(UCSCHAR_RANGES)
IPRIVATE_CLASS = _class_of(IPRIVATE_RANGES)


def ranges_of(chars: str) -> List[Tuple[int, int]]:
    """The code points of ``chars`` as (first, last) inclusive ranges."""
    return [(ord(c), ord(c)) for c in chars]


def class_rx(ranges, negate: bool = False) -> str:
    """A regex character class matching exactly the code points in
    ``ranges`` ((first, last) inclusive pairs, any order, may overlap), or
    every other code point when ``negate``.

    Written as the set or as the negation of its complement, whichever
    lists fewer BMP code points: re's compiler visits each listed BMP code
    point in Python, so ``[\xa0-\ud7ff...]`` (ucschar) costs ~3 ms to
    compile and ``[^...]`` of its complement ~0.6 ms.  Only for regexes
    matched a character or a few at a time: a negated class, or a class
    of the complement, matches long runs several times slower (measured:
    ``[^allowed]`` of a component over a megabyte, 2.6 ms; the positive
    class of its complement, 20 ms)."""
    merged: List[Tuple[int, int]] = []
    for a, b in sorted(ranges):
        if merged and a <= merged[-1][1] + 1:
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    complement = []
    nxt = 0
    for a, b in merged:
        if a > nxt:
            complement.append((nxt, a - 1))
        nxt = b + 1
    if nxt <= 0x10FFFF:
        complement.append((nxt, 0x10FFFF))

    def bmp_size(rs) -> int:
        return sum(min(b, 0xFFFF) - a + 1 for a, b in rs if a <= 0xFFFF)

    if negate:
        merged, complement = complement, merged
    if bmp_size(complement) < bmp_size(merged):
        body, negated = complement, True
    else:
        body, negated = merged, False
    if not body:  # "[^]" and "[]" are no classes: any / no code point
        return "(?s:.)" if negated else "(?!)"
    return "[%s%s]" % ("^" if negated else "", "".join(
        re.escape(chr(a)) if a == b else "%s-%s" % (re.escape(chr(a)), re.escape(chr(b)))
        for a, b in body))

#: The bidi formatting characters RFC 3987 s4.1 forbids (and ALM, U+061C,
#: which Unicode 6.3 added with the same effect).
BIDI_CONTROLS = frozenset(
    [0x200E, 0x200F, 0x061C] + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))
)
BIDI_CONTROL_CHARS = "".join(chr(c) for c in sorted(BIDI_CONTROLS))

#: Invisible characters that to_iri keeps percent-encoded (s3.2 step 5 with
#: s6.1): a reader cannot see them, so decoding them would hide a difference
#: between two IRIs.  ZWJ and ZWNJ are *not* here: Persian, Indic scripts and
#: emoji sequences use them legitimately; the invisible-character rule judges
#: their context instead.
INVISIBLE = frozenset(
    [0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x2060,
     0x2061, 0x2062, 0x2063, 0x2064, 0x3164, 0xFEFF, 0xFFA0]
    + list(range(0x1D173, 0x1D17B))
)


def in_ranges(cp: int, ranges) -> bool:
    for a, b in ranges:
        if cp < a:
            return False
        if cp <= b:
            return True
    return False


def is_ucschar(cp: int) -> bool:
    return in_ranges(cp, UCSCHAR_RANGES)


def is_iprivate(cp: int) -> bool:
    return in_ranges(cp, IPRIVATE_RANGES)


def is_noncharacter(cp: int) -> bool:
    """Unicode noncharacters: U+FDD0..U+FDEF and U+xxFFFE/U+xxFFFF."""
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def is_surrogate(cp: int) -> bool:
    return 0xD800 <= cp <= 0xDFFF


def is_bidi_control(cp: int) -> bool:
    return cp in BIDI_CONTROLS


def is_unicode_space(cp: int) -> bool:
    """Space separators, line and paragraph separators (Zs, Zl, Zp)."""
    return unicodedata.category(chr(cp)) in ("Zs", "Zl", "Zp")


def kept_encoded_in_iri(cp: int, in_query: bool) -> bool:
    """True when s3.2 step 5 keeps this character percent-encoded.

    ``cp`` is a non-ASCII code point decoded from UTF-8.
    """
    if cp in BIDI_CONTROLS or cp in INVISIBLE:
        return True
    if is_ucschar(cp):
        # Whitespace is in ucschar but would split the IRI in running text
        # and cannot be told apart from an ordinary space.
        return is_unicode_space(cp)
    if in_query and is_iprivate(cp):
        return False
    return True


def is_hex(c: str) -> bool:
    return c in HEXDIG and c != ""


# -- finding a few kinds of character in long text -------------------------
# Rules that care about a few characters (invisible ones, look-alikes, right-
# to-left letters) judge each *distinct* character of a text once, then find
# where the ones they care about stand with one C-level regex search, so a
# megabyte of combining marks costs a hash per character, not a Python loop.

#: Texts shorter than this are walked in Python: building the set of their
#: characters and a pattern would cost more than it saves.
SHORT_TEXT = 64


def _class_re_uncached(chars: frozenset) -> "re.Pattern[str]":
    return re.compile("[%s]" % "".join(re.escape(c) for c in sorted(chars)))


_CLASS_RES: dict = {}


def class_re(chars: frozenset) -> "re.Pattern[str]":
    """A compiled ``[...]`` of ``chars`` (kept for reuse: a document repeats
    the same few flagged characters)."""
    rx = _CLASS_RES.get(chars)
    if rx is None:
        if len(_CLASS_RES) >= 256:
            _CLASS_RES.clear()
        rx = _CLASS_RES[chars] = _class_re_uncached(chars)
    return rx


#: Below this length a text is walked in Python when no pattern for the
#: characters sought is compiled yet: compiling one costs more than the walk,
#: and a set of characters seen once (fuzzed or rare text) is never reused.
_WALK_UNCOMPILED = 256


def positions_of(text: str, chars: frozenset):
    """Offsets of the characters of ``text`` that are in ``chars``, in order."""
    if not chars:
        return iter(())
    if len(text) < _WALK_UNCOMPILED and chars not in _CLASS_RES:
        return (i for i, c in enumerate(text) if c in chars)
    return (m.start() for m in class_re(chars).finditer(text))


#: From this length on, a text is searched for a few characters with one
#: ``str.find`` each rather than one regex class: a class costs about 2 ns a
#: character, a find (memchr on the character's low byte) a small fraction,
#: so a megabyte of combining marks is not walked once per class sought.
FIND_EACH_FROM = 1024
#: ... for at most this many characters sought.
FIND_EACH_MAX = 24


def first_index(text: str, chars, start: int = 0, end: Optional[int] = None) -> int:
    """Offset of the first character of ``text[start:end]`` that is in
    ``chars`` (a short string or set of characters), or -1: what
    ``re.compile("[chars]").search(text, start, end)`` finds, one
    ``str.find`` per character, each stopping where an earlier one found."""
    best = len(text) if end is None else min(end, len(text))
    stop = best
    for c in chars:
        k = text.find(c, start, best)
        if k >= 0:
            best = k
    return best if best < stop else -1


def first_positions(text: str, chars, count: int) -> List[int]:
    """The first ``count`` offsets of characters of ``text`` that are in
    ``chars``, in order: ``list(islice(positions_of(text, chars), count))``.
    In long text, one ``str.find`` per character sought and per offset
    taken, instead of a regex pass over the whole text for a few offsets."""
    if len(text) < FIND_EACH_FROM or len(chars) > FIND_EACH_MAX:
        return list(islice(positions_of(text, frozenset(chars)), count))
    ahead = {}
    for c in chars:
        k = text.find(c)
        if k >= 0:
            ahead[c] = k
    out: List[int] = []
    while ahead and len(out) < count:
        c = min(ahead, key=ahead.__getitem__)
        k = ahead[c]
        out.append(k)
        k = text.find(c, k + 1)
        if k >= 0:
            ahead[c] = k
        else:
            del ahead[c]
    return out


def first_in_class(text: str, chars: str, rx: "re.Pattern[str]", start: int = 0, end: Optional[int] = None) -> int:
    """Offset of the first character of ``text[start:end]`` in ``chars``,
    or -1; ``rx`` is their compiled class, searched in short text (one
    ``str.find`` per character in long text: :func:`first_index`)."""
    stop = len(text) if end is None else end
    if stop - start >= FIND_EACH_FROM:
        return first_index(text, chars, start, stop)
    m = rx.search(text, start, stop)
    return -1 if m is None else m.start()


def first_of(text: str, chars: frozenset) -> int:
    """Offset of the first character of ``text`` in ``chars``, or -1."""
    if not chars:
        return -1
    if len(text) >= FIND_EACH_FROM:
        if len(chars) <= FIND_EACH_MAX:
            return first_index(text, chars)
        ascii_sought = frozenset(c for c in chars if c < "\x80")
        if ascii_sought and len(chars) - len(ascii_sought) <= FIND_EACH_MAX:
            k = _first_ascii_of(text, ascii_sought)
            j = first_index(text, chars - ascii_sought, 0, len(text) if k < 0 else k)
            return j if j >= 0 else k
    if len(text) < _WALK_UNCOMPILED and chars not in _CLASS_RES:
        for i, c in enumerate(text):
            if c in chars:
                return i
        return -1
    m = class_re(chars).search(text)
    return -1 if m is None else m.start()


_ASCII_RUN_RE = re.compile("[\\x00-\\x7f]*")


def _first_ascii_of(text: str, chars: frozenset) -> int:
    """Offset of the first character of ``text`` in ``chars`` (ASCII
    characters), or -1.  The ASCII characters of a text keep their order
    when the others are dropped (a C-level encode), so the first one sought
    there is the first in the text, found there with one ``str.find``."""
    ascii_only = text.encode("ascii", "ignore")
    m = class_re(chars).search(ascii_only.decode("ascii"))
    return -1 if m is None else text.find(m.group())
#: Past this many distinct characters, collecting them one regex search at a
#: time costs more than hashing every character.
_FEW_DISTINCT = 24
_DISTINCT_CACHE: dict = {}
_ASCII_CHARS = frozenset(map(chr, range(128)))
_EMPTY: frozenset = frozenset()
_last: tuple = ("", _EMPTY)


def distinct_non_ascii(text: str) -> frozenset:
    """The distinct non-ASCII characters of ``text``.

    Long text with few distinct characters (a megabyte of one combining
    mark) is matched over with a regex class of ASCII and the characters
    already found, up to the next new one, so it costs a few C-level passes
    instead of hashing each character.  (A class matched with ``*`` is
    tested faster than its complement searched for.)
    The last results are kept: several rules ask about the same text.
    """
    global _last
    if len(text) < 4096:
        last = _last
        if last[0] is text:  # the engine, then a rule, ask about one reference
            return last[1]
        found = frozenset(text).difference(_ASCII_CHARS) if not text.isascii() else _EMPTY
        _last = (text, found)
        return found
    found = _DISTINCT_CACHE.get(text)
    if found is not None:
        return found
    chars: set = set()
    n = len(text)
    i = _ASCII_RUN_RE.match(text).end()
    while i < n:
        chars.add(text[i])
        if len(chars) > _FEW_DISTINCT:
            chars = {c for c in set(text) if c >= "\x80"}
            break
        rx = re.compile("[\\x00-\\x7f%s]*" % "".join(re.escape(c) for c in sorted(chars)))
        i = rx.match(text, i + 1).end()
    found = frozenset(chars)
    if len(_DISTINCT_CACHE) >= 8:
        _DISTINCT_CACHE.clear()
    _DISTINCT_CACHE[text] = found
    return found


#: a run of one repeated mark ending a text is normalized apart from its
#: head when it is longer than this (shorter: one call costs less than three)
LONG_RUN = 64


def to_nfc(text: str) -> str:
    """``unicodedata.normalize("NFC", text)``, without normalizing a long
    run of one repeated combining mark that ends the text character by
    character (~9 ns each: a megabyte of one mark stacked on a letter, in
    bench/pathological.py, cost more than a check of a megabyte of ordinary
    text).

    Such a run settles after its first copies.  Canonical ordering keeps
    the copies (one class) in order, after the marks of the head's last
    cluster of lower or the same class and before those of higher classes.
    Once a copy is left uncomposed, every later copy is blocked from the
    starter (UAX #15: an uncomposed mark of its class lies between them),
    and the marks of higher classes, which the copies never block, compose
    or not as they did.  So when the second copy is seen to stay uncomposed
    at the very end (``NFC(head + m + m) == NFC(head + m) + NFD(m)``, which
    also says no mark of a higher class is left after the copies), the NFC
    is ``NFC(head + m)`` and then ``NFD(m)`` once per further copy;
    otherwise the whole text is normalized as usual."""
    n = len(text)
    if n > LONG_RUN:
        mark = text[-1]
        ccc = unicodedata.combining(mark)
        if ccc:
            copies = _copies_at_end(text, mark)
            if copies > LONG_RUN:
                # the head's own long runs of marks put in order (canonically
                # equivalent): a head of marks of alternating classes
                head = _presorted(text[:n - copies])
                parts = unicodedata.normalize("NFD", mark)
                # Every part of one class: no copy reorders around another.
                if all(unicodedata.combining(c) == ccc for c in parts):
                    one = unicodedata.normalize("NFC", head + mark)
                    if unicodedata.normalize("NFC", head + mark + mark) == one + parts:
                        return one + parts * (copies - 1)
    return unicodedata.normalize("NFC", _presorted(text))


def to_nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, with long runs of marks
    put in canonical order first (:func:`_presorted`: canonically
    equivalent text has the same NFKC)."""
    return unicodedata.normalize("NFKC", _presorted(text))


#: non-starters in a row from which _presorted orders them itself
PRESORT_RUN = 32


def _presorted(text: str) -> str:
    """``text`` with each run of PRESORT_RUN or more characters that
    decompose to combining marks only (canonical combining class not 0)
    decomposed and put in canonical order: a stable sort by class, as NFD
    orders them.  The text is canonically equivalent (its NFC is the
    same), and CPython's normalize, which orders marks by insertion, then
    finds them in order: 16,000 cedillas and acutes in turn took 0.5 s to
    normalize, 64,000 took 8 s."""
    if len(text) < PRESORT_RUN or text.isascii():
        return text
    marks = [c for c in distinct_non_ascii(text) if _only_marks(c)]
    if not marks:
        return text
    runs = re.compile("[%s]{%d,}" % ("".join(re.escape(c) for c in sorted(marks)), PRESORT_RUN))
    out = []
    last = 0
    for m in runs.finditer(text):
        parts = "".join(map(_nfd_of_char, m.group()))
        out.append(text[last:m.start()])
        out.append("".join(sorted(parts, key=unicodedata.combining)))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=4096)
def _nfd_of_char(c: str) -> str:
    return unicodedata.normalize("NFD", c)


def _only_marks(c: str) -> bool:
    return all(unicodedata.combining(d) for d in _nfd_of_char(c))


def _copies_at_end(text: str, mark: str) -> int:
    """How many copies of ``mark`` end ``text``: taken off in the largest
    blocks of a power of two that fit, each compared in place (``str.rstrip``
    tests every character in turn, several times slower)."""
    end = len(text)
    copies = 0
    while text.endswith(mark, 0, end):
        block = 1
        while 2 * block <= end and text.endswith(mark * (2 * block), 0, end):
            block *= 2
        copies += block
        end -= block
    return copies


#: the size of the first slice marks_end looks at past one mark
_MARKS_SLICE = 64


def marks_end(value: str, k: int) -> int:
    """The end of the run of combining marks (canonical combining class
    not 0) that starts at ``k``.  A run of 500,000 marks after one escape
    was walked a mark at a time in Python: the run is now taken in slices
    twice as long each time, each judged by its distinct characters."""
    combining = unicodedata.combining
    n = len(value)
    if k >= n or not combining(value[k]):
        return k  # the usual case: no mark after the escape
    size = _MARKS_SLICE
    while k < n:
        chunk = value[k:k + size]
        starters = [c for c in set(chunk) if not combining(c)]
        if starters:
            if len(starters) <= 4:
                return k + min(chunk.find(c) for c in starters)
            # many distinct characters: a walk ends at the first, and this
            # slice is at most twice the marks walked past so far
            for j, c in enumerate(chunk):
                if not combining(c):
                    return k + j
        k += len(chunk)
        size *= 2
    return n
