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
* Trailing sentence punctuation (ASCII and full-width/CJK: ``.,;:!?'"*_~``,
  ``。、，：；！？``, closing typographic quotes) is dropped, and so are closing
  brackets ``) ] ） 】 」 』 〉 》`` without a matching opener inside the IRI:
  ``(see http://a.b/c)`` gives ``http://a.b/c`` but
  ``http://en.wikipedia.org/wiki/Foo_(bar)`` keeps its parentheses.
* ``<http://...>`` and ``<URL:http://...>``: the angle brackets delimit the
  reference (RFC 3986 Appendix C).  Inside them trailing punctuation is kept
  and the reference may contain spaces and line breaks (but not a blank
  line, and at most :data:`MAX_ANGLE_LENGTH` characters).  The whitespace
  is kept verbatim in the value: Appendix C tells readers to drop it, and
  the linter's job is to say that it is there.

Linear time: the search is anchored on ``:`` with one compiled regex whose
only literal prefix is the colon (no backtracking over long words), the walk
back to the scheme start is bounded by :data:`MAX_SCHEME_LENGTH`, and every
forward scan starts after the end of the previous candidate.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, Optional

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

# Characters that end an IRI in text: whitespace (re's \s is exactly
# str.isspace: U+00A0, U+2028, U+3000, ... included), ASCII controls, and the
# characters RFC 3987 never allows.  Bidi controls and other format
# characters are deliberately not in this set.
_STOP = r"\s\x00-\x1f\x7f\"<>`{}|\\^"
_RUN_RX = re.compile("[^%s]*" % _STOP)
# The same for ASCII text (str.isascii is a flag, O(1)): the ASCII characters
# \s matches are all in \x09-\x0d, \x1c-\x20, so a plain byte class, which
# re tests faster than a Unicode category (a 1 MB IRI: ~3 ms instead of ~4).
_ASCII_RUN_RX = re.compile(r'[^\x00-\x20\x7f"<>`{}|\\^]*')
_STOP_CHAR_RX = re.compile("[%s]" % _STOP)
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

#: Delimiter look-alikes stay: stripping them would hide a spoof.
_KEEP_TRAILING = frozenset("\uff0f\uff03\uff05\uff06\uff20\uff1d\u2215\u2044\u29f8")
#: Bidi marks after an IRI are display aids for the sentence in RTL text
#: (translators put an LRM after "http://" so it reads left to right).
_TRAILING_MARKS = frozenset("\u200e\u200f\u061c")
#: Sentence punctuation of CJK prose that ends an IRI's path: text glued to
#: a URL in Chinese or Japanese prose ("…/src/latest.tar.gz处取得。") is not
#: part of it.  Only after the host: inside a host "。" is a label dot.
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
    if hi is None:
        hi = len(text)
    out: List[Candidate] = []
    last_end = lo
    search = _COLON_RX.search
    pos = lo
    while True:
        m = search(text, pos, hi)
        if m is None:
            return out
        colon = m.start()
        pos = colon + 1
        # Walk back over scheme characters, never into the previous IRI.
        floor = max(last_end, colon - MAX_SCHEME_LENGTH)
        s = colon
        while s > floor and text[s - 1] in _SCHEME_CHARS:
            s -= 1
        if s == floor and s > last_end and text[s - 1] in _SCHEME_CHARS:
            continue  # a word longer than any scheme
        # A scheme starts with a letter: skip leading digits and "+-.".
        while s < colon and text[s] not in _ALPHA:
            s += 1
        if s == colon:
            continue
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
        elif s > lo and text[s - 1] in _ALNUM:
            continue  # glued to a preceding word: "1http://", "xmailto:"
        slashes = m.end() - colon == 3
        if not slashes and text[s:colon].lower() not in SCHEMES_WITHOUT_SLASHES:
            continue  # "x.mailto:" matched the lookbehind but is another word
        body = colon + (3 if slashes else 1)  # the IRI needs text after this
        if not slashes and text[body:body + 1] == ":":
            continue  # "File::Spec", "std::" - a name, not a scheme
        if not slashes and not text[s:colon].islower() and text[s:colon].upper() not in ("MAILTO", "URN", "TEL"):
            continue  # "DATA:", "Tag:" in prose are labels, not references
        if slashes and body < hi and _is_quote_like(text[body]):
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
                    out.append(Candidate(s, end, text[s:end], None,
                                         "angle" if context == "bare" else context,
                                         _after_backslash(text, s)))
                    last_end = pos = end
                continue
            # No closing ">": an ordinary IRI after a stray "<".

        end = (_ASCII_RUN_RX if text.isascii() else _RUN_RX).match(text, colon + 1, hi).end()
        if not text.isascii():
            path_start = text.find("/", body, end) if slashes else body
            if path_start >= 0:
                stop = _CJK_PROSE_STOP_RX.search(text, path_start, end)
                if stop is not None:
                    end = stop.start()
        end = _trim_end(text, s, end)
        if end > body:
            out.append(Candidate(s, end, text[s:end], None, context,
                                 _after_backslash(text, s)))
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

    def scan(self, text: str) -> List[Candidate]:
        return find_iris(text)
