"""Decoders for escaped text, each returning a :class:`Decoded` with offsets.

* :func:`decode_charrefs` -- HTML/XML character references (``&#x202E;``,
  ``&#8238;``, ``&amp;``, every HTML5 named reference).
* :func:`decode_backslashes` -- backslash escapes as JSON, YAML, TOML,
  Turtle and Markdown write them, configured by the caller.

Both are linear: they jump from one ``&`` / ``\\`` to the next with
``str.find`` and read each escape with a bounded match.
"""
from __future__ import annotations

import re
from html.entities import html5 as _HTML5
from typing import Dict, Mapping, Optional

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
