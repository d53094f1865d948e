"""Document offsets (code points) <-> LSP positions and ranges.

Everything in the engine is in code point offsets; LSP positions are
(line, character) with ``character`` counted in the negotiated position
encoding (UTF-16 code units by default, UTF-8 bytes or UTF-32 code
points when the client offers them).  The line index of the document's
version does the counting, with LSP line ends only.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

from lsprotocol import types

from irilint.lines import LineIndex

#: Our preference among the encodings a client offers: code points cost
#: nothing (they are our offsets), UTF-8 needs byte counts, UTF-16 needs
#: surrogate counts (and is the LSP default, always supported).
ENCODING_PREFERENCE = ("utf-32", "utf-8", "utf-16")


def choose_encoding(capabilities: Optional[types.ClientCapabilities],
                    requested: Optional[str] = None) -> str:
    """The position encoding to use with a client: ours among
    ``general.positionEncodings``, else UTF-16.

    ``requested`` (``initializationOptions.positionEncoding``) is for
    clients that count in another unit without saying so (Vim's ALE counts
    bytes): it is used when the client offers nothing, or offers it."""
    general = getattr(capabilities, "general", None) if capabilities is not None else None
    offered = getattr(general, "position_encodings", None) if general is not None else None
    names = set()
    for e in offered or ():
        names.add(str(getattr(e, "value", e)).lower())
    if requested:
        want = str(requested).strip().lower().replace("_", "-")
        want = {"utf8": "utf-8", "utf16": "utf-16", "utf32": "utf-32"}.get(want, want)
        if want in ENCODING_PREFERENCE and (not names or want in names):
            return want
    for enc in ENCODING_PREFERENCE:
        if enc in names:
            return enc
    return "utf-16"


def requested_encoding(options: Any) -> Optional[str]:
    """``positionEncoding`` from initializationOptions (top level or in the
    ``irilint`` section), if any."""
    if not isinstance(options, dict):
        return None
    for table in (options, options.get("irilint")):
        if isinstance(table, dict):
            for key in ("positionEncoding", "position-encoding", "position_encoding"):
                if isinstance(table.get(key), str):
                    return table[key]
    return None


def position(index: LineIndex, offset: int, encoding: str) -> types.Position:
    line, col = index.position(offset, encoding)
    return types.Position(line=line, character=col)


def to_range(index: LineIndex, start: int, end: int, encoding: str) -> types.Range:
    return types.Range(start=position(index, start, encoding), end=position(index, end, encoding))


def offset(index: LineIndex, pos: types.Position, encoding: str) -> int:
    return index.offset(pos.line, pos.character, encoding)


def from_range(index: LineIndex, rng: types.Range, encoding: str) -> Tuple[int, int]:
    a = offset(index, rng.start, encoding)
    b = offset(index, rng.end, encoding)
    return (a, b) if a <= b else (b, a)
