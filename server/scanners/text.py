"""Bare IRIs in running text: the building block of every scanner.

What counts as an IRI in prose (RFC 3987 s7.3: "a non-ASCII character should
not be taken as the indication of the end of an IRI"):

* ``scheme://...`` for any syntactically valid scheme
  (``ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )``, case-insensitive), and
  ``scheme:...`` without ``//`` for a short list of well-known schemes
  (:data:`SCHEMES_WITHOUT_SLASHES`).  ``www.`` hosts without a scheme are not
  reported: they are not IRIs, only things a browser would complete.
* The scheme must not be glued to a preceding ASCII letter or digit
  (``xhttp://`` is not ``http://``).  Letters of other scripts do not count:
  Japanese, Chinese or Thai prose puts IRIs right next to its words.
* The IRI runs until whitespace (any Unicode space, U+2028/U+2029 too), an
  ASCII control, or a character never allowed in an IRI:
  ``" < > ` { } | \\ ^``.  Everything else stays, in particular bidi
  controls (U+202A..U+202E, U+2066..U+2069, U+200E/U+200F, U+061C) and
  invisible characters (U+200B...) inside the IRI: they are exactly what a
  spoofing linter must see.
* In prose -- unless the IRI fills its whole window, a string literal or a
  code span that delimits it (RFC 3986 Appendix C) -- a closing bracket
  ``) ] ） 】 」 』 〉 》 ］`` without an opener inside the IRI ends it
  wherever it stands, as a reader sees it close a bracket of
  the prose: ``(see http://a.b/c)``, ``[![alt](http://img)](http://link)``
  and ``[http://a.b/c][ref]`` give ``http://a.b/c``, ``http://img`` and
  ``http://link``, while ``http://en.wikipedia.org/wiki/Foo_(bar)`` and
  ``http://[::1]/`` keep their balanced pairs.
* CJK punctuation (``。、，；！？：．`` and the opening brackets ``（【「『〈《``):
  RFC 3987 allows these characters in an IRI (they are ``ucschar``), so the
  rule is what a reader of CJK prose sees.  They end the IRI when followed
  by CJK text, by the end of the IRI's run (nothing but punctuation up to a
  space) or by another IRI's scheme; followed by anything else they stay
  (``/index。html`` is a look-alike for the rules to report).  In the
  authority, an ideographic full stop followed by more of the IRI (a path,
  query or fragment after the host) is a label separator (UTS #46).  CJK
  text glued to an ASCII host that ends the IRI (``http://example.com参照``)
  is prose too: no top-level domain mixes the two.
* A bidi embedding or isolate around the whole IRI -- LRE/RLE ... PDF,
  LRI/RLI/FSI ... PDI, as RFC 3987 s4.1 recommends for an IRI in
  right-to-left prose -- belongs to the prose: the IRI ends before the
  terminator.  An unbalanced, mismatched or nested control stays inside.
* Trailing sentence punctuation (ASCII and full-width/CJK: ``.,;:!?'"*_~``,
  ``。、，：；！？``, closing typographic quotes) is dropped, and so are closing
  brackets without a matching opener inside the IRI.
* ``<http://...>`` and ``<URL:http://...>``: the angle brackets delimit the
  reference (RFC 3986 Appendix C).  Inside them trailing punctuation is kept
  and the reference may be wrapped over lines (but not over a blank line,
  and at most :data:`MAX_ANGLE_LENGTH` characters).  Appendix C says the
  whitespace of such a wrap is to be ignored, and reST drops it from an
  embedded URI: a line break and the spaces and tabs around it are left out
  of the value, with an offset map back to each piece.  A space within one
  line stays, for the rules to report.

Linear time: the search is anchored on ``:`` with one compiled regex whose
only literal prefix is the colon (no backtracking over long words), the walk
back to the scheme start is bounded by :data:`MAX_SCHEME_LENGTH`, and every
forward scan starts after the end of the previous candidate.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, Iterator, List, Optional

from ..chars import first_in_class
from ._common import Decoded
from .base import Candidate, CommentSyntax, Scanner

#: Schemes recognised in prose without ``//`` after the colon.  Kept short:
#: a word before a colon (``Note:``, ``INFO:root:``) is much more often not an
#: IRI, and every scheme with an authority is found through ``://`` anyway.
SCHEMES_WITHOUT_SLASHES = (
    "about", "acct", "bitcoin", "cid", "data", "file", "geo", "magnet",
    "mailto", "mid", "news", "sip", "sips", "sms", "tag", "tel", "urn",
    "xmpp",
)

#: Longest scheme the walk back from ``:`` looks for.  Registered schemes are
#: far shorter; the bound is what keeps a 100 KB word before a colon linear.
MAX_SCHEME_LENGTH = 32

#: Longest reference read between ``<`` and ``>``: enough for any wrapped
#: IRI, and a stray ``<http://...`` in prose cannot swallow a whole
#: paragraph up to some later ``->``.
MAX_ANGLE_LENGTH = 2048

_SCHEME_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
_ALNUM = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

# A colon that may end a scheme: followed by "//", or preceded by one of the
# well-known schemes.  The pattern starts with a literal colon, so the regex
# engine skips to colons at C speed and never re-reads a long word.
# The cheap "(?<=[a-z]:)" first keeps runs of punctuation colons fast.
_COLON_RX = re.compile(
    ":(?://|(?<=[a-z]:)(?:"
    + "|".join("(?<=%s:)" % s for s in SCHEMES_WITHOUT_SLASHES) + "))",
    re.IGNORECASE)

# Characters that end an IRI in text: whitespace (str.isspace, which is re's
# \s: U+00A0, U+2028, U+3000, ... included), ASCII controls, and the
# characters RFC 3987 never allows.  Bidi controls and other format
# characters are deliberately not in this set.
_STOP_CHARS = ("".join(map(chr, range(0x21))) + "\x7f\"<>`{}|\\^"
               + "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200b))) + "\u2028\u2029\u202f\u205f\u3000")


def _class_outside(chars: str) -> str:
    """The ranges of a regex class of every code point not in ``chars``."""
    out, lo = [], 0
    for cp in sorted(set(map(ord, chars))) + [0x110000]:
        if cp > lo:
            out.append(re.escape(chr(lo)) if cp - 1 == lo else "%s-%s" % (re.escape(chr(lo)), re.escape(chr(cp - 1))))
        lo = cp + 1
    return "".join(out)


# The run is matched with the complement written out as ranges, not as
# "[^\s...]": re tests a negated class, and a category, item by item, but a
# class of plain ranges with one table look-up a character (a megabyte of
# combining marks: 0.7 ms instead of 3.1).  tests/test_scanner_fast_paths.py
# checks the class against \s and the characters above on every code point.
_RUN_RX = re.compile("[%s]*" % _class_outside(_STOP_CHARS))
# The same for ASCII text (str.isascii is a flag, O(1)), a class of ASCII
# characters only (a 1 MB ASCII IRI: 0.8 ms, the negated class 1.7).
_ASCII_RUN_RX = re.compile(r"[!#-;=?-\[\]_a-z~]*")
_STOP_CHAR_RX = re.compile("[%s]" % re.escape(_STOP_CHARS))
# Inside <...> whitespace is allowed; the reference ends at ">".
_ANGLE_RUN_RX = re.compile(r"[^\x00-\x08\x0e-\x1f\x7f\"<>`{}|\\^]*")
_BLANK_LINE_RX = re.compile(r"\n[ \t\f\v\r]*\n|\r[ \t\f\v]*\r")

#: Trailing characters that belong to the sentence, not to the IRI.
_TRAILING = frozenset(
    ".,;:!?'\"*_~"
    "\u3002\u3001\uff0c\uff1a\uff1b\uff01\uff1f\uff0e\uff61\uff64"  # 。、，：；！？．｡､
    "\u2018\u2019\u201c\u201d\u00bb\u203a\u2026")  # ‘’“”»›…
#: Closing bracket -> its opener; stripped from the end only when unbalanced.
_CLOSERS: Dict[str, str] = {
    ")": "(", "]": "[",
    "\uff09": "\uff08",  # ）（
    "\u3011": "\u3010",  # 】【
    "\u300d": "\u300c",  # 」「
    "\u300f": "\u300e",  # 』『
    "\u3009": "\u3008",  # 〉〈
    "\u300b": "\u300a",  # 》《
    "\uff3d": "\uff3b",  # ］［
}


_OPENERS = frozenset(_CLOSERS.values())
#: ASCII characters that neither end a sentence nor close a bracket nor
#: start a quote: an IRI that ends in one keeps its end (_trim_end), and
#: one after "://" is no quote (_is_quote_like).
_KEEPS_END = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/#=&-+%@$")

#: Delimiter look-alikes stay: stripping them would hide a spoof.
_KEEP_TRAILING = frozenset("\uff0f\uff03\uff05\uff06\uff20\uff1d\u2215\u2044\u29f8")
#: Bidi marks after an IRI are display aids for the sentence in RTL text
#: (translators put an LRM after "http://" so it reads left to right).
_TRAILING_MARKS = frozenset("\u200e\u200f\u061c")
#: CJK punctuation that may end a bare IRI in prose (see _cjk_prose_end):
#: a fix must not put one into a link.
_CJK_PROSE_STOP_RX = re.compile("[\uff08\uff09\uff0c\u3001\uff1b\uff01\u300c\u300d\u300e\u300f\u3010\u3011\u300a\u300b\u3008\u3009\u3002]")


def prose_stop_char(c: str) -> bool:
    """Whether ``c`` ends a bare IRI wherever it stands (after the host for
    CJK punctuation): for fixes, which must not move a link's end."""
    return _STOP_CHAR_RX.match(c) is not None or _CJK_PROSE_STOP_RX.match(c) is not None


def trailing_char(c: str) -> bool:
    """Whether ``c`` is dropped from the end of a bare IRI (sentence
    punctuation, bidi marks, closing brackets when unbalanced)."""
    return c in _TRAILING or c in _TRAILING_MARKS or c in _CLOSERS


def bracket_char(c: str) -> bool:
    """Whether ``c`` is a bracket whose balance decides if a closing one
    at the end of a bare IRI belongs to it."""
    return c in _CLOSERS or c in _OPENERS


def _is_quote_like(c: str) -> bool:
    """Quotes and brackets cannot start a host: 'http://"' is prose."""
    if c in "'\"()<>":
        return True
    return c > "\x7f" and unicodedata.category(c) in ("Pi", "Pf", "Ps", "Pe")


def _is_trailing(c: str) -> bool:
    if c in _TRAILING or c in _TRAILING_MARKS:
        return True
    # Any other non-ASCII sentence punctuation (Arabic full stop U+06D4,
    # Devanagari danda, ...) ends a sentence, not an IRI.
    return c > "\x7f" and c not in _KEEP_TRAILING and unicodedata.category(c) in ("Po", "Pi", "Pf")


def _trim_end(text: str, start: int, end: int) -> int:
    """End of the IRI ``text[start:end]`` without trailing punctuation."""
    counts: Dict[str, int] = {}
    while end > start:
        c = text[end - 1]
        if _is_trailing(c):
            end -= 1
            continue
        opener = _CLOSERS.get(c)
        if opener is None:
            break
        # Balance of this bracket pair inside the IRI, counted once.
        balance = counts.get(c)
        if balance is None:
            balance = text.count(c, start, end) - text.count(opener, start, end)
        if balance <= 0:
            break
        counts[c] = balance - 1
        end -= 1
    return end


#: Bidi embedding and isolate initiators that may wrap an IRI in running
#: text (RFC 3987 s4.1 recommends LRE ... PDF or LRI ... PDI around an IRI in
#: right-to-left prose), with the terminator that closes each.  Overrides
#: (LRO, RLO) are not wraps: they change how the IRI itself is drawn.
_WRAP_TERMINATORS: Dict[str, str] = {
    "\u202a": "\u202c", "\u202b": "\u202c",  # LRE, RLE ... PDF
    "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069",  # LRI, RLI, FSI ... PDI
}
#: Every explicit embedding, override and isolate control (and PDF, PDI).
_EXPLICIT_BIDI_RX = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _bidi_wrap_end(text: str, lo: int, s: int, end: int) -> int:
    """End of the IRI starting at ``s`` when a bidi embedding or isolate
    wraps it (RFC 3987 s4.1): ``LRI http://... PDI`` puts the pair in the
    prose, so the IRI ends before the terminator.  Only a pair around the
    whole IRI counts: the initiator right before the scheme, its
    terminator the first explicit bidi control after it, and nothing but
    sentence punctuation after the terminator in the run.  A nested,
    mismatched or unclosed control stays inside the IRI, where the rules
    report it."""
    if s <= lo:
        return end
    terminator = _WRAP_TERMINATORS.get(text[s - 1])
    if terminator is None:
        return end
    m = _EXPLICIT_BIDI_RX.search(text, s, end)
    if m is None or m.group() != terminator:
        return end
    k = m.start()
    if _trim_end(text, k + 1, end) != k + 1:
        return end  # "LRI http://a PDI/b": the pair is not around all of it
    return k


_ASCII_BRACKET_RX = re.compile(r"[()\[\]]")
_BRACKETS = "".join(_CLOSERS) + "".join(sorted(_OPENERS))
_BRACKET_RX = re.compile("[%s]" % re.escape(_BRACKETS))


def _bracket_end(text: str, start: int, end: int, ascii_text: bool) -> int:
    """Where the first closing bracket without an opener in
    ``text[start:end]`` stands, or ``end``: a reader sees ``(see
    http://a/b)c`` or ``[![x](http://img)](http://link)`` close a
    parenthesis of the prose there.  Balanced pairs stay
    (``http://en.wikipedia.org/wiki/Mercury_(planet)``, ``http://[::1]/``)."""
    rx = _ASCII_BRACKET_RX if ascii_text else _BRACKET_RX
    first = first_in_class(text, "()[]" if ascii_text else _BRACKETS, rx, start, end)
    if first < 0:
        return end
    depth: Dict[str, int] = {}
    for m in rx.finditer(text, first, end):
        c = m.group()
        opener = _CLOSERS.get(c)
        if opener is None:
            depth[c] = depth.get(c, 0) + 1
        elif depth.get(opener):
            depth[opener] -= 1
        else:
            return m.start()
    return end


#: CJK sentence punctuation and opening brackets: prose when what follows
#: is CJK text, the end of the IRI, or another IRI (see _cjk_prose_end).
#: Closing brackets are left to the bracket balance.
_CJK_PUNCT = ("\u3001\u3002\uff0c\uff1b\uff01\uff1f\uff1a\uff0e\uff61\uff64"  # 、。，；！？：．｡､
              "\uff08\u3010\u300c\u300e\u3008\u300a\uff3b\u3014\u3016\u3018\u301a")  # （【「『〈《［〔〖〘〚
_CJK_PUNCT_RX = re.compile("[%s]" % _CJK_PUNCT)
#: Full stops that UTS #46 maps to "." in a host: label separators there.
_IDEOGRAPHIC_DOTS = frozenset("\u3002\uff0e\uff61")
_AUTHORITY_END_RX = re.compile("[/?#]")
#: Contexts whose window is delimited: a string literal's body, a code span.
_DELIMITED_WINDOWS = ("string", "code")
_SCHEME_AT_RX = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}(?=:)")


def _is_cjk_text(c: str) -> bool:
    """Han, kana, Hangul, Bopomofo, CJK symbols and punctuation, and the
    full-width/half-width forms: the characters of CJK prose."""
    o = ord(c)
    return (0x3000 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7FF
            or 0xFF00 <= o <= 0xFFEF or 0xF900 <= o <= 0xFAFF
            or 0x1100 <= o <= 0x11FF or 0x2E80 <= o <= 0x2FDF
            or 0xA960 <= o <= 0xA97F or 0xFE30 <= o <= 0xFE4F
            or 0x20000 <= o <= 0x3FFFF)


def _starts_iri(text: str, i: int, end: int) -> bool:
    """Whether ``text[i:]`` starts with a scheme that find_iris reads."""
    m = _SCHEME_AT_RX.match(text, i, end)
    return m is not None and _COLON_RX.match(text, m.end(), end) is not None


def _cjk_prose_end(text: str, body: int, end: int, slashes: bool) -> int:
    """Where CJK punctuation ends the IRI whose body is ``text[body:end]``,
    or ``end``.

    RFC 3987 allows these characters in an IRI (they are ucschar), so the
    rule is what a reader of CJK prose sees: ``。`` ``，`` ``、`` ``（`` ... are
    the sentence's punctuation when followed by CJK text
    (``http://例子.测试/路径。谢谢``), by the end of the IRI's run (only
    punctuation up to a space or the end), or by the scheme of another IRI
    (``http://a.example/、http://b.example/``).  Followed by anything else
    they stay inside (``/index。html`` is a file-name dot to report).  In
    the authority an ideographic full stop is a label separator (UTS #46)
    when the authority is followed by a path, query or fragment.
    """
    first = first_in_class(text, _CJK_PUNCT, _CJK_PUNCT_RX, body, end)
    if first < 0:
        return end
    tail = end  # the run's trailing punctuation starts here
    while tail > body and _is_trailing(text[tail - 1]):
        tail -= 1
    auth_end = -1
    label_dots = False
    if slashes:
        after = _AUTHORITY_END_RX.search(text, body, end)
        auth_end = after.start() if after is not None else end
        label_dots = after is not None and text.find("://", body, auth_end) < 0
    for m in _CJK_PUNCT_RX.finditer(text, first, end):
        i = m.start()
        if label_dots and i < auth_end and m.group() in _IDEOGRAPHIC_DOTS:
            continue
        nxt = i + 1
        if nxt >= tail or _is_cjk_text(text[nxt]) or _starts_iri(text, nxt, end):
            return i
    return end


_ASCII_LABEL_RX = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


def _glued_host_end(text: str, body: int, end: int) -> int:
    """Where CJK text glued to the end of an ASCII host starts, or ``end``:
    ``(http://www.scriptics.com参照)で`` -- a reader of Japanese sees "参照"
    ("see") as prose.  Only when nothing of the IRI follows the host and
    its last label starts in ASCII: no top-level domain mixes ASCII and
    CJK letters, and an IDN label written in CJK is left whole."""
    if _AUTHORITY_END_RX.search(text, body, end) is not None:
        return end
    dot = max(text.rfind(".", body, end), text.rfind("\u3002", body, end),
              text.rfind("\uff0e", body, end), text.rfind("\uff61", body, end))
    if dot < 0:
        return end
    m = _ASCII_LABEL_RX.match(text, dot + 1, end)
    if m is None or m.end() >= end or not _is_cjk_text(text[m.end()]):
        return end
    return m.end()


#: A line break inside <...>: the reference is wrapped there.
_LINE_BREAK_RX = re.compile(r"\r\n?|\n")


def _angle_candidate(text: str, s: int, end: int, context: str,
                     after_backslash: bool) -> Candidate:
    """The reference ``text[s:end]`` inside ``<...>``, joined where it is
    wrapped over lines.  RFC 3986 Appendix C: whitespace in a reference
    delimited by angle brackets is to be ignored when it is extracted, as
    line wrapping puts it there (reST drops it from an embedded URI too).
    A line break and the horizontal whitespace around it are dropped, with
    an offset map back to each piece; a space within one line stays, for
    the rules to report."""
    m = _LINE_BREAK_RX.search(text, s, end)
    if m is None:
        return Candidate(s, end, text[s:end], None, context, after_backslash)
    parts: List[str] = []
    offsets: List[int] = []
    pos = s
    while m is not None:
        a = m.start()
        while a > pos and text[a - 1] in " \t":
            a -= 1
        parts.append(text[pos:a])
        offsets.extend(range(pos, a))
        pos = m.end()
        while pos < end and text[pos] in " \t":
            pos += 1
        m = _LINE_BREAK_RX.search(text, pos, end)
    parts.append(text[pos:end])
    offsets.extend(range(pos, end))
    offsets.append(end)
    return Candidate(s, end, "".join(parts), offsets, context, after_backslash)


def _after_backslash(text: str, i: int) -> bool:
    """Whether ``text[i]`` follows an unescaped backslash."""
    if i == 0 or text[i - 1] != "\\":
        return False
    k = i - 1
    while k > 0 and text[k - 1] == "\\":
        k -= 1
    return (i - k) % 2 == 1


def find_iris(text: str, lo: int = 0, hi: Optional[int] = None,
              context: str = "bare") -> List[Candidate]:
    """Bare IRIs in ``text[lo:hi]``, sorted and non-overlapping.

    The window bounds are hard: no candidate reaches outside it, and ``lo``
    counts as a word boundary.  Offsets are into ``text``.
    """
    return list(iter_iris(text, lo, hi, context))


def iter_iris(text: str, lo: int = 0, hi: Optional[int] = None,
              context: str = "bare") -> Iterator[Candidate]:
    """The candidates of :func:`find_iris`, found as they are asked for (a
    large document is not scanned ahead of its check)."""
    if hi is None:
        hi = len(text)
    last_end = lo
    search = _COLON_RX.search
    # The whole text is ASCII or not (a flag of str): one run class for all.
    ascii_text = text.isascii()
    run = (_ASCII_RUN_RX if ascii_text else _RUN_RX).match
    scheme_chars, keeps_end = _SCHEME_CHARS, _KEEPS_END
    pos = lo
    while True:
        m = search(text, pos, hi)
        if m is None:
            return
        colon = m.start()
        pos = colon + 1
        # Walk back over scheme characters, never into the previous IRI.
        floor = colon - MAX_SCHEME_LENGTH
        if floor < last_end:
            floor = last_end
        s = colon
        while s > floor and text[s - 1] in scheme_chars:
            s -= 1
        if s == floor and s > last_end and text[s - 1] in scheme_chars:
            continue  # a word longer than any scheme
        # A scheme starts with a letter: skip leading digits and "+-.".
        while s < colon and text[s] not in _ALPHA:
            s += 1
        if s == colon:
            continue
        before = text[s - 1] if s > lo else ""
        if before == "\\" or before == "(":  # a roff escape may be glued to it
            if s - 1 >= lo and text[s - 1] == "\\" and text[s] == "f" and colon - s > 2:
                # A roff font escape glued to the scheme: "\fBhttps://..." in
                # man pages.  Skip "f" and its font name.
                s += 2 if text[s + 1] != "(" else 4
                while s < colon and text[s] not in _ALPHA:
                    s += 1
                if s == colon:
                    continue
            elif s - 2 >= lo and text[s - 2:s] == "\\(" and colon - s > 2:
                s += 2  # "\(aqhttp://": a roff special character glued to it
                if s >= colon or text[s] not in _ALPHA:
                    continue
            elif s - 3 >= lo and text[s - 3:s] == "\\f(" and colon - s > 2:
                s += 2  # "\f(CWhttp://": a two-letter roff font name
                if s >= colon or text[s] not in _ALPHA:
                    continue
        elif before and before in _ALNUM:
            continue  # glued to a preceding word: "1http://", "xmailto:"
        slashes = m.end() - colon == 3
        if not slashes and text[s:colon].lower() not in SCHEMES_WITHOUT_SLASHES:
            continue  # "x.mailto:" matched the lookbehind but is another word
        body = colon + (3 if slashes else 1)  # the IRI needs text after this
        if not slashes and text[body:body + 1] == ":":
            continue  # "File::Spec", "std::" - a name, not a scheme
        if not slashes and not text[s:colon].islower() and text[s:colon].upper() not in ("MAILTO", "URN", "TEL"):
            continue  # "DATA:", "Tag:" in prose are labels, not references
        if slashes and body < hi and text[body] not in keeps_end and _is_quote_like(text[body]):
            continue  # "http://'" or "https://”" in prose about URLs

        # <http://...> and <URL:http://...>: the brackets delimit it.
        angle = False
        if s > lo:
            if text[s - 1] == "<":
                angle = True
            elif (s - 5 >= lo and text[s - 5] == "<"
                  and text[s - 4:s].lower() == "url:"):
                angle = True
        if angle:
            limit = min(hi, colon + MAX_ANGLE_LENGTH)
            end = _ANGLE_RUN_RX.match(text, colon + 1, limit).end()
            if (end < limit and text[end] == ">"
                    and _BLANK_LINE_RX.search(text, colon, end) is None):
                if end > body:
                    yield _angle_candidate(
                        text, s, end, "angle" if context == "bare" else context,
                        _after_backslash(text, s))
                    last_end = pos = end
                continue
            # No closing ">": an ordinary IRI after a stray "<".

        end = run(text, colon + 1, hi).end()
        if s > lo or end < hi or context not in _DELIMITED_WINDOWS:
            # In prose.  (A reference that fills its whole window -- a
            # quoted string, a code span -- is delimited by it: RFC 3986
            # Appendix C; its brackets and punctuation are its own.)
            if not ascii_text:
                end = _bidi_wrap_end(text, lo, s, end)
            end = _bracket_end(text, body, end, ascii_text)
            if not ascii_text:
                end = _cjk_prose_end(text, body, end, slashes)
                if slashes:
                    end = _glued_host_end(text, body, end)
        if end <= s or text[end - 1] not in keeps_end:
            end = _trim_end(text, s, end)
        if end > body:
            yield Candidate(s, end, text[s:end], None, context,
                            s > 0 and text[s - 1] == "\\" and _after_backslash(text, s))
            last_end = pos = end


def scan_decoded(piece: Decoded, context: str = "bare") -> List[Candidate]:
    """Bare IRIs in a decoded piece, mapped back to document offsets."""
    if piece.offsets is None:
        return find_iris(piece.source, piece.base,
                         piece.base + len(piece.value), context)
    return [piece.candidate(c.start, c.end, c.context)
            for c in find_iris(piece.value, 0, len(piece.value), context)]


class TextScanner(Scanner):
    """Plain text: every bare or angle-bracketed IRI."""

    name = "text"
    comments = (CommentSyntax("#"),)

    def scan(self, text: str) -> Iterator[Candidate]:
        return iter_iris(text)
