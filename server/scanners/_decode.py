"""Decoders for escaped text, each returning a :class:`Decoded` with offsets.

* :func:`decode_charrefs` -- HTML/XML character references (``&#x202E;``,
  ``&#8238;``, ``&amp;``, every HTML5 named reference).
* :func:`decode_backslashes` -- backslash escapes as JSON, YAML, TOML,
  Turtle and Markdown write them, configured by the caller.
* :func:`decode_code_escapes` -- string-literal escapes of programming
  languages (Python, JavaScript, C-family, Rust, bash ``$'...'``), each
  language an :class:`EscapeStyle`.

All are linear: they jump from one ``&`` / ``\\`` to the next with
``str.find`` and read each escape with a bounded match.
"""
from __future__ import annotations

import re
import unicodedata
from html.entities import html5 as _HTML5
from typing import Dict, Mapping, Optional, Tuple

from ._common import Decoded, OffsetBuilder

# Longest HTML5 entity name is "CounterClockwiseContourIntegral" (31 chars);
# reading a few more is enough and keeps "&aaaa..." (1 MB) linear.
_ENTITY_NAME_RX = re.compile(r"[A-Za-z][A-Za-z0-9]{0,40}")
_NUMERIC_RX = re.compile(r"#(?:[xX]([0-9A-Fa-f]+)|([0-9]+))")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _windows_1252() -> Dict[int, str]:
    # HTML maps &#128;..&#159; through windows-1252 (&#150; is an en dash);
    # the five code points windows-1252 leaves undefined stay as they are.
    table = {}
    for n in range(0x80, 0xA0):
        try:
            table[n] = bytes([n]).decode("cp1252")
        except UnicodeDecodeError:
            table[n] = chr(n)
    return table


_CP1252 = _windows_1252()


def _code_point(n: int, xml: bool) -> str:
    """The character a numeric reference stands for (HTML error handling)."""
    if n == 0 or n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
        return "\ufffd"
    if not xml and 0x80 <= n <= 0x9F:
        return _CP1252[n]
    return chr(n)


def decode_charrefs(text: str, lo: int, hi: int, *, attribute: bool = False,
                    xml: bool = False) -> Decoded:
    """``text[lo:hi]`` with character references decoded.

    HTML rules (``xml=False``): numeric references may omit the ``;``, the
    legacy named references (``&amp``, ``&copy``...) too, except inside an
    attribute value when followed by ``=`` or an alphanumeric (so
    ``?a=1&not=2`` keeps ``&not``).  XML rules: the ``;`` is required;
    named references are looked up among the HTML5 names, which covers the
    five XML ones and the XHTML entities.  Unknown references stay as text.
    """
    amp = text.find("&", lo, hi)
    if amp < 0:
        return Decoded.plain(text, lo, hi)
    out = OffsetBuilder(text, lo)
    pos = lo
    while amp >= 0:
        out.copy(pos, amp)
        pos = amp + 1  # default: the "&" is literal, copied with the next run
        ref_end = -1
        decoded = ""
        m = _NUMERIC_RX.match(text, amp + 1, hi)
        if m is not None:
            digits = m.group(1) or m.group(2)
            semicolon = m.end() < hi and text[m.end()] == ";"
            if semicolon or not xml:
                if len(digits) > 8:  # also spares int() a megabyte of digits
                    n = 0x110000
                else:
                    n = int(digits, 16 if m.group(1) else 10)
                decoded = _code_point(n, xml)
                ref_end = m.end() + (1 if semicolon else 0)
        else:
            m = _ENTITY_NAME_RX.match(text, amp + 1, hi)
            if m is not None:
                name = m.group()
                if m.end() < hi and text[m.end()] == ";" and name + ";" in _HTML5:
                    decoded = _HTML5[name + ";"]
                    ref_end = m.end() + 1
                elif not xml:
                    # Longest legacy name (no ";") that prefixes the run.
                    for k in range(len(name), 1, -1):
                        legacy = _HTML5.get(name[:k])
                        if legacy is None:
                            continue
                        after = amp + 1 + k
                        nxt = text[after] if after < hi else ""
                        if attribute and (nxt == "=" or nxt.isalnum()):
                            break
                        decoded = legacy
                        ref_end = after
                        break
        if ref_end >= 0:
            out.emit(decoded, amp, ref_end)
            pos = ref_end
        else:
            out.copy(amp, amp + 1)
        amp = text.find("&", pos, hi)
    out.copy(pos, hi)
    return out.finish(hi)


#: JSON string escapes besides ``\\uXXXX``.
JSON_ESCAPES: Mapping[str, str] = {
    '"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
    "r": "\r", "t": "\t"}
#: YAML double-quoted escapes (YAML 1.2 s5.7) besides ``\\x \\u \\U``.
YAML_ESCAPES: Mapping[str, str] = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n",
    "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"',
    "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
    "P": "\u2029"}
#: TOML basic-string escapes besides ``\\u \\U`` (and TOML 1.1's ``\\x``).
TOML_ESCAPES: Mapping[str, str] = {
    "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "e": "\x1b",
    '"': '"', "\\": "\\"}
#: Turtle / SPARQL string escapes (ECHAR) besides ``\\u \\U``.
TURTLE_ESCAPES: Mapping[str, str] = {
    "t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"',
    "'": "'", "\\": "\\"}
#: Markdown: a backslash escapes any ASCII punctuation character.
MARKDOWN_ESCAPES: Mapping[str, str] = {
    c: c for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}

#: Hex escapes: letter -> number of hex digits.
HEX_U: Mapping[str, int] = {"u": 4, "U": 8}
HEX_UX: Mapping[str, int] = {"u": 4, "U": 8, "x": 2}
HEX_U4: Mapping[str, int] = {"u": 4}


def _read_hex(text: str, i: int, n: int, hi: int) -> Optional[int]:
    if i + n > hi:
        return None
    digits = text[i:i + n]
    if all(c in _HEX_DIGITS for c in digits):
        return int(digits, 16)
    return None


def decode_backslashes(text: str, lo: int, hi: int,
                       simple: Mapping[str, str],
                       hex_escapes: Mapping[str, int] = HEX_U4, *,
                       line_continuation: bool = False) -> Decoded:
    """``text[lo:hi]`` with backslash escapes decoded.

    ``simple`` maps the character after ``\\`` to its meaning;
    ``hex_escapes`` maps an escape letter to its count of hex digits
    (``\\uD83D\\uDE00`` surrogate pairs are joined into one character).
    With ``line_continuation`` a backslash before a line break removes the
    break and the indentation after it (YAML, TOML multi-line strings).
    Unknown escapes are kept as written.
    """
    bs = text.find("\\", lo, hi)
    if bs < 0:
        return Decoded.plain(text, lo, hi)
    out = OffsetBuilder(text, lo)
    pos = lo
    while bs >= 0:
        out.copy(pos, bs)
        nxt = text[bs + 1] if bs + 1 < hi else ""
        end = -1
        decoded = ""
        if nxt in simple:
            decoded, end = simple[nxt], bs + 2
        elif nxt in hex_escapes:
            n = hex_escapes[nxt]
            cp = _read_hex(text, bs + 2, n, hi)
            if cp is not None:
                end = bs + 2 + n
                if (0xD800 <= cp <= 0xDBFF and text.startswith("\\u", end)
                        and end + 6 <= hi):
                    low = _read_hex(text, end + 2, 4, hi)
                    if low is not None and 0xDC00 <= low <= 0xDFFF:
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                        end += 6
                # A lone surrogate is kept: the linter reports it.
                decoded = chr(cp) if cp <= 0x10FFFF else "\ufffd"
        elif line_continuation and nxt in "\r\n":
            end = bs + 1
            while end < hi and text[end] in " \t\r\n":
                end += 1
        if end >= 0:
            out.emit(decoded, bs, end)
            pos = end
        else:
            out.copy(bs, bs + 1)
            pos = bs + 1
        bs = text.find("\\", pos, hi)
    out.copy(pos, hi)
    return out.finish(hi)


# ------------------------------------------------------------ code strings

class EscapeStyle:
    """How one language spells escapes in its (non-raw) string literals.

    ``simple`` maps the character after ``\\`` to its meaning; ``hex`` an
    escape letter to its count of hex digits (with ``hex_variable``, up to
    that many, at least one: bash ``$'\\u5'``); ``braced_u`` reads
    ``\\u{H...}`` (Rust, Swift, JavaScript, PHP); ``octal`` reads ``\\ooo``;
    ``named`` Python's ``\\N{NAME}``; ``surrogates`` joins a ``\\uD83D\\uDE00``
    pair into one character (UTF-16 languages; Python keeps two);
    ``identity`` makes any other escaped character stand for itself
    (JavaScript ``\\/``), else unknown escapes stay as written;
    ``line_continuation`` removes a backslash and the line break after it;
    ``css_hex`` reads CSS's ``\\202e`` (one to six hex digits, then one
    optional white space, CSS Syntax s4.3.7).
    """

    __slots__ = ("name", "simple", "hex", "hex_variable", "braced_u", "octal",
                 "named", "surrogates", "identity", "line_continuation", "css_hex")

    def __init__(self, name: str, simple: Mapping[str, str], hex: Mapping[str, int], *,
                 hex_variable: bool = False, braced_u: bool = False, octal: bool = False,
                 named: bool = False, surrogates: bool = False, identity: bool = False,
                 line_continuation: bool = True, css_hex: bool = False) -> None:
        self.name = name
        self.css_hex = css_hex
        self.simple = simple
        self.hex = hex
        self.hex_variable = hex_variable
        self.braced_u = braced_u
        self.octal = octal
        self.named = named
        self.surrogates = surrogates
        self.identity = identity
        self.line_continuation = line_continuation

    def __repr__(self) -> str:
        return "EscapeStyle(%r)" % self.name


_C_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
             "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}

#: Python str literals (bytes literals read the same way for IRIs: their
#: ``\\u`` stays as written, a difference only for non-ASCII, which bytes
#: cannot hold anyway).
PYTHON_STYLE = EscapeStyle(
    "python", {k: v for k, v in _C_SIMPLE.items() if k != "?"}, HEX_UX,
    octal=True, named=True)
#: JavaScript / TypeScript strings and template literals (ECMA-262 s12.9.4).
JS_STYLE = EscapeStyle(
    "javascript", {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"},
    {"x": 2, "u": 4}, braced_u=True, surrogates=True, identity=True)
#: C, C++, Objective-C, Java, C#, Go, Kotlin, Swift, Dart, Scala, Groovy,
#: Zig: the common set (``\\u{...}`` is Swift's and Zig's spelling).
C_STYLE = EscapeStyle("c", _C_SIMPLE, HEX_UX, braced_u=True, octal=True, surrogates=True)
#: Rust: ``\\xHH`` (ASCII only), ``\\u{H...}``; no octal, no ``\\uHHHH``.
RUST_STYLE = EscapeStyle(
    "rust", {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'},
    {"x": 2}, braced_u=True)
#: Bash ANSI-C quoting ``$'...'``: hex escapes of one digit up to their maximum.
SHELL_ANSI_C_STYLE = EscapeStyle(
    "shell", dict(_C_SIMPLE, e="\x1b", E="\x1b"), HEX_UX, hex_variable=True, octal=True,
    line_continuation=False)

#: PHP double-quoted strings and heredocs: ``\\x`` with one or two hex
#: digits, ``\\u{H...}``, octal (single-quoted strings are read as written).
PHP_STYLE = EscapeStyle(
    "php", {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "e": "\x1b", "f": "\f", "\\": "\\",
            "$": "$", '"': '"'},
    {"x": 2}, hex_variable=True, braced_u=True, octal=True, line_continuation=False)
#: Ruby double-quoted strings and backticks (single-quoted: as written).
RUBY_STYLE = EscapeStyle(
    "ruby", dict(_C_SIMPLE, e="\x1b", s=" "), {"x": 2, "u": 4}, braced_u=True, octal=True)

#: CSS strings (CSS Syntax Level 3 s4.3.7): hex escapes, any other
#: character stands for itself.
CSS_STYLE = EscapeStyle("css", {}, {}, identity=True, css_hex=True)

_OCTAL_RX = re.compile(r"[0-7]{1,3}")
_CSS_HEX_RX = re.compile(r"[0-9A-Fa-f]{1,6}(?:\r\n|[ \t\n\r\f])?")
_BRACED_HEX_RX = re.compile(r"\{([0-9A-Fa-f]{1,8})\}")
_NAMED_RX = re.compile(r"\{([^{}\n\\]{1,100})\}")


def _hex_run(text: str, i: int, n: int, hi: int, variable: bool) -> Tuple[int, int]:
    """``(code point, end)`` of the hex digits at ``i`` (exactly ``n``, or 1
    to ``n`` when ``variable``), or ``(-1, i)``."""
    j = i
    stop = min(i + n, hi)
    while j < stop and text[j] in _HEX_DIGITS:
        j += 1
    if j == i or (not variable and j - i != n):
        return -1, i
    return int(text[i:j], 16), j


def decode_code_escapes(text: str, lo: int, hi: int, style: EscapeStyle) -> Decoded:
    """``text[lo:hi]``, the body of a string literal, with the escapes of
    ``style`` decoded; each decoded character maps back to its escape.
    A code point out of range decodes to U+FFFD; a lone surrogate is kept
    (the linter reports it)."""
    bs = text.find("\\", lo, hi)
    if bs < 0:
        return Decoded.plain(text, lo, hi)
    out = OffsetBuilder(text, lo)
    pos = lo
    while bs >= 0:
        out.copy(pos, bs)
        i = bs + 1
        nxt = text[i] if i < hi else ""
        end = -1
        decoded = ""
        if not nxt:
            pass
        elif nxt == "0" and style is JS_STYLE and not (i + 1 < hi and text[i + 1].isdigit()):
            decoded, end = "\0", i + 1
        elif style.css_hex and nxt in _HEX_DIGITS:
            m = _CSS_HEX_RX.match(text, i, hi)
            assert m is not None
            cp = int(m.group().rstrip(" \t\n\r\f"), 16)
            decoded = "\ufffd" if cp == 0 or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF else chr(cp)
            end = m.end()
        elif nxt in style.simple:
            decoded, end = style.simple[nxt], i + 1
        elif nxt == "u" and style.braced_u and text.startswith("{", i + 1):
            m = _BRACED_HEX_RX.match(text, i + 1, hi)
            if m is not None:
                cp = int(m.group(1), 16)
                decoded, end = (chr(cp) if cp <= 0x10FFFF else "\ufffd"), m.end()
        elif nxt == "N" and style.named and text.startswith("{", i + 1):
            m = _NAMED_RX.match(text, i + 1, hi)
            if m is not None:
                try:
                    decoded, end = unicodedata.lookup(m.group(1)), m.end()
                except KeyError:
                    pass  # a SyntaxError in Python: kept as written
        elif nxt in style.hex:
            cp, j = _hex_run(text, i + 1, style.hex[nxt], hi, style.hex_variable)
            if cp >= 0:
                end = j
                if style.surrogates and 0xD800 <= cp <= 0xDBFF and text.startswith("\\u", end):
                    low, k = _hex_run(text, end + 2, 4, hi, False)
                    if 0xDC00 <= low <= 0xDFFF:
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                        end = k
                decoded = chr(cp) if cp <= 0x10FFFF else "\ufffd"
        elif style.octal and nxt in "01234567":
            m = _OCTAL_RX.match(text, i, hi)
            assert m is not None
            decoded, end = chr(int(m.group(), 8)), m.end()
        elif nxt in "\r\n" and style.line_continuation:
            end = i + 2 if text.startswith("\r\n", i) else i + 1
        elif style.identity:
            decoded, end = nxt, i + 1
        if end >= 0:
            out.emit(decoded, bs, end)
            pos = end
        else:
            # Unknown: the backslash and the character after it stay as written.
            out.copy(bs, min(bs + 2, hi))
            pos = min(bs + 2, hi)
        bs = text.find("\\", pos, hi)
    out.copy(pos, hi)
    return out.finish(hi)
