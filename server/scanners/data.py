"""JSON, YAML and TOML: IRIs in strings (keys included) and comments.

* Strings are decoded with an offset map: JSON ``\\uXXXX`` (surrogate pairs
  joined) and ``\\/``; YAML double-quoted escapes (``\\x \\u \\U``, line
  continuations) and ``''`` in single-quoted scalars; TOML basic-string
  escapes.  So ``"\\u202e"`` is found as U+202E pointing at six characters.
* A string is searched for bare IRIs (context ``string``).  When it is the
  value of a key that names an IRI (``$ref``, ``$id``, ``$schema``, ``@id``,
  ``@base``, ``@vocab``, ``@context``, ``href``, ``src``, or a key ending in
  ``url``/``uri``/``iri``/``href``, any case) the whole value -- a relative
  reference such as ``#/definitions/x`` included -- is one candidate
  (context ``iri-value``); blank node labels ``_:b0`` are skipped.
* Comments (``//``, ``/* */`` in JSONC/JSON5; ``#`` in YAML and TOML,
  context ``comment``) and, in YAML, plain scalars (and in TOML the text
  outside strings, context ``unquoted``) are searched for bare IRIs.
* Everything but a comment is data (``string``, ``iri-value`` and
  ``unquoted`` are in ``DATA_CONTEXTS``): a program reads it as written,
  so no fix of it is safe; comments are prose.

YAML is read with quote awareness, not parsed: a quote opens a quoted
scalar only where a scalar can start (line start, after ``:``, ``-``,
``[``, ``{``, ``,``, ``?``), so ``Don't`` in a plain scalar is text.
"""
from __future__ import annotations

import re
from typing import Iterator, List, Optional

from ._common import POSSESSIVE_QUANTIFIERS, Decoded, OffsetBuilder, finalize, finalized
from ._decode import (HEX_U4, HEX_UX, JSON_ESCAPES, TOML_ESCAPES,
                      YAML_ESCAPES, decode_backslashes)
from .base import Candidate, CommentSyntax, Scanner
from .text import iter_iris, scan_decoded

_IRI_KEYS = frozenset((
    "$ref", "$id", "$schema", "$dynamicref", "@id", "@base", "@vocab",
    "@context", "href", "src"))
_IRI_KEY_SUFFIXES = ("url", "uri", "iri", "href")


def is_iri_key(key: str) -> bool:
    """Whether a value under ``key`` is meant as an IRI reference."""
    k = key.strip().lower()
    return k in _IRI_KEYS or k.endswith(_IRI_KEY_SUFFIXES)


def _string_candidates(piece: Decoded, iri_value: bool) -> List[Candidate]:
    if iri_value:
        i, j = piece.strip_span()
        if i < j and not piece.value.startswith("_:", i):
            return [piece.candidate(i, j, "iri-value")]
        return []
    if piece.offsets is None and ":" not in piece.value:
        return []
    return scan_decoded(piece, "string")


# ---------------------------------------------------------------- JSON

_JSON_TOKEN_RX = re.compile(r'"|//|/\*')
_JSON_STRING_BODY_RX = re.compile(r'(?:[^"\\\n]|\\.)*')
_KEY_COLON_RX = re.compile(r"[ \t\r\n]*:")
_SPACE_RX = re.compile(r"[ \t\r\n]*")


def _json_skip_rx() -> "re.Pattern[str]":
    """A run of JSON that gives no candidate, matched at C speed.

    Text outside strings is never searched (only ``"``, ``//`` and ``/*``
    start something), and a string gives a candidate only when it holds a
    colon, an escape (which may decode to one) or is the value of an IRI
    key.  So the run is: text without ``"`` or a comment opener, and strings
    with no colon, backslash or line break that cannot be an IRI key.  The
    key test is a superset of :func:`is_iri_key` (``str.strip`` strips what
    ``\\s`` matches; its ``lower`` maps no other character to these ASCII
    letters but "\\u0130", which it also maps to a combining mark): a word
    from ``_IRI_KEYS`` between spaces, or a string ending with a suffix or a
    space.  Applied to every string, key or not: only stricter.
    """
    def ascii_ci(word: str) -> str:
        return "".join("[%s%s]" % (c.lower(), c.upper()) if c.isalpha() else re.escape(c)
                       for c in word)
    keys = "|".join(ascii_ci(k) for k in sorted(_IRI_KEYS))
    suffixes = "".join("(?<!%s)" % ascii_ci(sfx) for sfx in _IRI_KEY_SUFFIXES)
    string = r'"(?!\s*+(?:%s)\s*+")[^"\\\n:]*+%s(?<!\s)"' % (keys, suffixes)
    return re.compile(r"(?:[^\"/]++|/(?![/*])|%s)*+" % string) if FAST_SKIP else re.compile("")


#: Whether the skip regex is used (see POSSESSIVE_QUANTIFIERS).
FAST_SKIP = POSSESSIVE_QUANTIFIERS
_JSON_SKIP_RX = _json_skip_rx()


def scan_json(text: str) -> List[Candidate]:
    """Candidates in JSON (JSONC and JSON5 comments tolerated)."""
    return _scan_json(text, FAST_SKIP)


def _scan_json(text: str, fast: bool) -> List[Candidate]:
    """``scan_json``; ``fast=False`` tokenizes every string (the reference
    the skip regex is tested against)."""
    return finalize(list(_json(text, fast)))


def _json(text: str, fast: bool) -> Iterator[Candidate]:
    """The candidates of ``_scan_json`` before ``finalize``: in document
    order (the tokens are read left to right), found as they are asked for."""
    n = len(text)
    key_is_iri = False
    value_start = -1  # where a value after an IRI key's colon must start
    pos = 0
    skip = _JSON_SKIP_RX.match if fast else None
    while pos < n:
        if skip is not None and not key_is_iri:
            pos = skip(text, pos).end()
        m = _JSON_TOKEN_RX.search(text, pos)
        if m is None:
            break
        t = m.group()
        if t == "//":
            nl = text.find("\n", m.end())
            end = nl if nl >= 0 else n
            yield from iter_iris(text, m.end(), end, "comment")
            pos = end
            continue
        if t == "/*":
            close = text.find("*/", m.end())
            end = close if close >= 0 else n
            yield from iter_iris(text, m.end(), end, "comment")
            pos = end + 2 if close >= 0 else n
            continue
        lo = m.end()
        hi = _JSON_STRING_BODY_RX.match(text, lo).end()
        pos = hi + 1 if hi < n and text[hi] == '"' else hi
        piece = decode_backslashes(text, lo, hi, JSON_ESCAPES, HEX_U4)
        colon = _KEY_COLON_RX.match(text, pos)
        if colon is not None:  # a key
            yield from _string_candidates(piece, False)
            key_is_iri = is_iri_key(piece.value)
            value_start = _SPACE_RX.match(text, colon.end()).end()
            continue
        iri_value = key_is_iri and m.start() == value_start
        yield from _string_candidates(piece, iri_value)
        key_is_iri = False


# ---------------------------------------------------------------- YAML

_YAML_TOKEN_RX = re.compile(r"(?<!\S)#|[\"']")
_YAML_DOUBLE_RX = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_YAML_SINGLE_RX = re.compile(r"(?:[^']|'')*'")
#: How far back a key is looked for before a quoted value.
_KEY_LOOKBACK = 256


def _key_before(text: str, q: int, separator: str, key_chars: str) -> Optional[str]:
    """The key whose value is the string opening at ``q``, if any.

    Walks back from the quote over ``separator`` (``:`` or ``=``) to a
    quoted key or a run of key characters (the last part of a dotted TOML
    key).  The walk is bounded by :data:`_KEY_LOOKBACK`.
    """
    floor = max(0, q - _KEY_LOOKBACK)
    p = q - 1
    while p >= floor and text[p] in " \t":
        p -= 1
    if p < floor or text[p] != separator:
        return None  # most strings are not the value of a key
    p -= 1
    while p >= floor and text[p] in " \t":
        p -= 1
    if p < floor:
        return None
    if text[p] in "\"'":
        o = text.rfind(text[p], floor, p)
        if o < 0 or text.find("\n", o, p) >= 0:
            return None
        return text[o + 1:p]
    end = p + 1
    while p >= floor and (text[p] in key_chars if key_chars else
                          not text[p].isspace() and text[p] not in _YAML_NOT_KEY):
        p -= 1
    return text[p + 1:end] or None


_YAML_NOT_KEY = ":{},\"'[]#"
_TOML_KEY_CHARS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                   "0123456789_-")


def _decode_yaml_single(text: str, lo: int, hi: int) -> Decoded:
    """A single-quoted YAML scalar: ``''`` stands for ``'``."""
    q = text.find("''", lo, hi)
    if q < 0:
        return Decoded.plain(text, lo, hi)
    out = OffsetBuilder(text, lo)
    pos = lo
    while q >= 0:
        out.copy(pos, q)
        out.emit("'", q, q + 2)
        pos = q + 2
        q = text.find("''", pos, hi)
    out.copy(pos, hi)
    return out.finish(hi)


def _yaml_scalar_can_start(text: str, q: int) -> bool:
    p = q - 1
    while p >= 0 and text[p] in " \t":
        p -= 1
    return p < 0 or text[p] in "\n\r:-[{,?"


def scan_yaml(text: str) -> List[Candidate]:
    """Candidates in YAML."""
    return finalize(list(_yaml(text)))


def _yaml(text: str) -> Iterator[Candidate]:
    """The candidates of ``scan_yaml`` before ``finalize``, in document order."""
    n = len(text)
    plain_start = 0  # start of the pending plain text
    pos = 0
    while pos < n:
        m = _YAML_TOKEN_RX.search(text, pos)
        if m is None:
            break
        t = m.group()
        q = m.start()
        if t == "#":
            yield from iter_iris(text, plain_start, q, "unquoted")
            nl = text.find("\n", q)
            end = nl if nl >= 0 else n
            yield from iter_iris(text, q + 1, end, "comment")
            pos = plain_start = end
            continue
        if not _yaml_scalar_can_start(text, q):
            pos = q + 1  # a quote inside a plain scalar
            continue
        body = (_YAML_DOUBLE_RX if t == '"' else _YAML_SINGLE_RX).match(text, q + 1)
        if body is None:
            pos = q + 1  # never closed: leave it to the plain text
            continue
        yield from iter_iris(text, plain_start, q, "unquoted")
        lo, hi = q + 1, body.end() - 1
        if t == '"':
            piece = decode_backslashes(text, lo, hi, YAML_ESCAPES, HEX_UX,
                                       line_continuation=True)
        else:
            piece = _decode_yaml_single(text, lo, hi)
        key = _key_before(text, q, ":", "")
        yield from _string_candidates(piece, key is not None and is_iri_key(key))
        pos = plain_start = body.end()
    yield from iter_iris(text, plain_start, n, "unquoted")


# ---------------------------------------------------------------- TOML

_TOML_TOKEN_RX = re.compile(r"#|\"\"\"|'''|[\"']")
_TOML_BASIC_RX = re.compile(r'(?:[^"\\\n]|\\.)*')
_TOML_LITERAL_RX = re.compile(r"[^'\n]*")


def scan_toml(text: str) -> List[Candidate]:
    """Candidates in TOML."""
    return finalize(list(_toml(text)))


def _toml(text: str) -> Iterator[Candidate]:
    """The candidates of ``scan_toml`` before ``finalize``, in document order."""
    n = len(text)
    pos = 0
    while pos < n:
        m = _TOML_TOKEN_RX.search(text, pos)
        if m is None:
            break
        t = m.group()
        q = m.start()
        if q > pos:
            yield from iter_iris(text, pos, q, "unquoted")
        if t == "#":
            nl = text.find("\n", q)
            end = nl if nl >= 0 else n
            yield from iter_iris(text, q + 1, end, "comment")
            pos = end
            continue
        lo = m.end()
        if len(t) == 3:
            close = text.find(t, lo)
            if close < 0:
                hi = pos = n
            else:
                # Up to two quotes before the closing delimiter belong to
                # the string: four closing quotes leave one in the value.
                extra = 0
                while extra < 2 and close + 3 < n and text[close + 3] == t[0]:
                    close += 1
                    extra += 1
                hi, pos = close, close + 3
        else:
            rx = _TOML_BASIC_RX if t == '"' else _TOML_LITERAL_RX
            hi = rx.match(text, lo).end()
            pos = hi + 1 if hi < n and text[hi] == t else hi
        if t[0] == '"':
            piece = decode_backslashes(text, lo, hi, TOML_ESCAPES, HEX_UX,
                                       line_continuation=len(t) == 3)
        else:
            piece = Decoded.plain(text, lo, hi)
        key = _key_before(text, q, "=", _TOML_KEY_CHARS)
        yield from _string_candidates(piece, key is not None and is_iri_key(key))
    if pos < n:
        yield from iter_iris(text, pos, n, "unquoted")


class JsonScanner(Scanner):
    """JSON, JSONC, JSON5, JSON-LD, GeoJSON, ..."""

    name = "json"
    comments = (CommentSyntax("//"), CommentSyntax("/*", "*/"))
    text_is_data = True

    def scan(self, text: str) -> Iterator[Candidate]:
        return finalized(_json(text, FAST_SKIP))


class YamlScanner(Scanner):
    name = "yaml"
    comments = (CommentSyntax("#"),)
    text_is_data = True

    def scan(self, text: str) -> Iterator[Candidate]:
        return finalized(_yaml(text))


class TomlScanner(Scanner):
    name = "toml"
    comments = (CommentSyntax("#"),)
    text_is_data = True

    def scan(self, text: str) -> Iterator[Candidate]:
        return finalized(_toml(text))
