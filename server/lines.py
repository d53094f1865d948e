"""Line index: offsets <-> (line, column) with LSP line ends only.

LSP ends a line at "\\n", "\\r\\n" or "\\r" and nowhere else; Python's
``str.splitlines`` also splits at U+2028, U+2029, U+0085, form feed and
others, which would put diagnostics on the wrong line.  One index is built
per document version and answers every position query by bisection.

Columns can be counted in code points (CLI output, UTF-32), UTF-16 code
units (the LSP default) or UTF-8 bytes.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import List, Tuple

_EOL_RE = re.compile(r"\r\n|\r|\n")
_ASTRAL_RE = re.compile("[\U00010000-\U0010FFFF]")

ENCODINGS = ("utf-16", "utf-8", "utf-32")


class LineIndex:
    def __init__(self, text: str) -> None:
        self.text = text
        starts: List[int] = [0]
        # Fast path: most documents use "\n" only.
        if "\r" not in text:
            find = text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
        else:
            starts.extend(m.end() for m in _EOL_RE.finditer(text))
        self.starts = starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_text(self, line: int, keep_end: bool = False) -> str:
        """The text of a 0-based line, without its line end unless asked."""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        s = self.text[start:end]
        if not keep_end:
            if s.endswith("\r\n"):
                s = s[:-2]
            elif s.endswith(("\n", "\r")):
                s = s[:-1]
        return s

    def line_end(self, line: int) -> int:
        """Offset where the line's content ends (before its line end)."""
        return self.starts[line] + len(self.line_text(line))

    def position(self, offset: int, encoding: str = "utf-32") -> Tuple[int, int]:
        """0-based (line, column) of a code point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        if encoding == "utf-32":
            return line, offset - start
        chunk = self.text[start:offset]
        return line, column_units(chunk, encoding)

    def offset(self, line: int, column: int, encoding: str = "utf-32") -> int:
        """Code point offset of a 0-based (line, column); clamped to the
        line's content, as LSP asks for positions past the end."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        content = self.line_text(line)
        if encoding == "utf-32":
            return start + max(0, min(column, len(content)))
        units = 0
        for i, ch in enumerate(content):
            if units >= column:
                return start + i
            units += char_units(ch, encoding)
        return start + len(content)


def char_units(ch: str, encoding: str) -> int:
    cp = ord(ch)
    if encoding == "utf-16":
        return 2 if cp > 0xFFFF else 1
    if encoding == "utf-8":
        return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
    return 1


def column_units(chunk: str, encoding: str) -> int:
    """Length of ``chunk`` in the units of ``encoding``."""
    if encoding == "utf-32" or chunk.isascii():
        return len(chunk)
    if encoding == "utf-16":
        return len(chunk) + len(_ASTRAL_RE.findall(chunk))
    return len(chunk.encode("utf-8", "surrogatepass"))
