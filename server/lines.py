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
from typing import Any, Dict, List, Optional, Tuple

_EOL_RE = re.compile(r"\r\n|\r|\n")
_LF_RE = re.compile("\n")
_ASTRAL_RE = re.compile("[\U00010000-\U0010FFFF]")

ENCODINGS = ("utf-16", "utf-8", "utf-32")

#: How many times the text's length a LineIndex counts (line ends between
#: queries, back to a line's start) before it builds the table instead.
_COUNTING_BUDGET = 4


def _line_starts(text: str) -> List[int]:
    """Offsets where lines start (``finditer`` measured faster than a
    ``str.find`` loop and than summing ``str.split`` lengths)."""
    starts = [0]
    starts.extend(m.end() for m in (_EOL_RE if "\r" in text else _LF_RE).finditer(text))
    return starts


def _splits_crlf(text: str, offset: int) -> bool:
    """Is ``offset`` between the "\r" and the "\n" of a CRLF?"""
    return 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"


def _line_ends_between(text: str, a: int, b: int) -> int:
    """How many line ends ("\r\n", "\r", "\n", as _EOL_RE finds them in
    ``text``) end in ``(a, b]``: the line of ``b`` minus the line of ``a``.
    Up to an offset ``o``, that many end: the "\r" and "\n" before ``o``,
    less one per CRLF before it, less one if ``o`` splits a CRLF."""
    if a == b:
        return 0
    ends = text.count("\r", a, b) + text.count("\n", a, b) - text.count("\r\n", a, b)
    # A CRLF that ``a`` splits: its "\n" was counted, but it ends one line
    # with its "\r" (not counted at ``a``) -- the count is right.  One
    # that ``b`` splits has its "\r" counted but ends after ``b``.
    return ends - (1 if _splits_crlf(text, b) else 0)


class LineIndex:
    """Line starts of one text, computed on first use.

    Most documents a CLI run checks have no findings, so nothing ever asks
    them for a position: building the table eagerly was ~6% of a run.
    Most of the others are asked a few positions, mostly in document
    order: those are answered by counting line ends between the query and
    the previous one (and finding the line's start with ``rfind``), in C;
    the table is built once the counting has cost a few passes over the
    text.
    """

    __slots__ = ("text", "_starts", "_lf_only", "_last", "_counted_chars")

    def __init__(self, text: str, starts: Optional[List[int]] = None) -> None:
        self.text = text
        #: may be given when known (the language server derives a new
        #: version's from the previous one's after an edit)
        self._starts: Optional[List[int]] = starts
        #: whether "\n" is the only line end (decided on the first query)
        self._lf_only: Optional[bool] = None
        #: (offset, line, line start or -1 if not looked for) of the last
        #: query answered by counting
        self._last = (0, 0, 0)
        #: characters counted or searched without the table so far
        self._counted_chars = 0

    @property
    def starts(self) -> List[int]:
        starts = self._starts
        if starts is None:
            starts = self._starts = _line_starts(self.text)
        return starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def _counted(self, offset: int) -> Optional[Tuple[int, int]]:
        """The line of ``offset`` by counting the line ends between it and
        the previous query (either way), and the line's start when known
        (the previous query was on the same line) or -1; None once the
        table is the cheaper way (or is built, or ``offset`` is out of
        range).  The previous query is kept as one tuple, read and written
        once: an index shared between threads (the server's) stays right."""
        if self._starts is not None:
            return None
        text = self.text
        if not 0 <= offset <= len(text):
            return None
        last_offset, last_line, last_start = self._last
        a, b = (last_offset, offset) if last_offset <= offset else (offset, last_offset)
        # Counting is a C loop per character; the table a Python object
        # per line: after a few passes over the text the table is cheaper.
        counted = self._counted_chars + b - a
        if counted > _COUNTING_BUDGET * (len(text) + 64):
            return None
        self._counted_chars = counted
        if self._lf_only is None:
            self._lf_only = "\r" not in text
        if self._lf_only:
            ends = text.count("\n", a, b)
        else:
            ends = _line_ends_between(text, a, b)
        line = last_line + ends if a == last_offset else last_line - ends
        start = last_start if ends == 0 else -1  # on the same line, the same start
        self._last = (offset, line, start)
        return line, start

    def line_of(self, offset: int) -> int:
        # Queries in document order (a rule noting the line of each host)
        # are answered by counting line ends since the previous one:
        # linear in all, without building the table.  One going back a
        # little (to the start of a host after its end) counts back.
        counted = self._counted(offset)
        if counted is None:
            return bisect_right(self.starts, offset) - 1
        return counted[0]

    def _line_start(self, offset: int) -> int:
        """Where the line of ``offset`` starts: after the last line end
        before ``offset`` (one that ``offset`` splits ends after it)."""
        text = self.text
        end = offset - 1 if _splits_crlf(text, offset) else offset
        start = text.rfind("\n", 0, end) + 1
        if not self._lf_only:
            # only a "\r" after that "\n" ends a later line
            start = text.rfind("\r", start, end) + 1 or start
        self._counted_chars += end - start
        return start

    def position(self, offset: int, encoding: str = "utf-32") -> Tuple[int, int]:
        """0-based (line, column) of a code point offset."""
        offset = max(0, min(offset, len(self.text)))
        counted = self._counted(offset)
        if counted is None:
            line = bisect_right(self.starts, offset) - 1
            start = self.starts[line]
        else:
            line, start = counted
            if start < 0:
                start = self._line_start(offset)
                self._last = (offset, line, start)
        if encoding == "utf-32":
            return line, offset - start
        chunk = self.text[start:offset]
        return line, column_units(chunk, encoding)

    def line_text_from(self, start: int) -> str:
        """The text, without its line end, of the line that starts at
        ``start`` (a line start: ``offset - column`` of a position in code
        points): ``line_text`` of that line, without the table."""
        text = self.text
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        cr = text.find("\r", start, end)
        return text[start:end if cr < 0 else cr]

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

    def offset(self, line: int, column: int, encoding: str = "utf-32") -> int:
        """Code point offset of a 0-based (line, column); clamped to the
        line's content, as LSP asks for positions past the end."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        content = self.line_text(line)
        if encoding == "utf-32" or content.isascii():
            return start + max(0, min(column, len(content)))
        return start + _column_index(content, column, encoding)


#: every byte value but UTF-8's continuation bytes (0x80-0xBF)
_UTF8_LEADING_BYTES = bytes(b for b in range(256) if not 0x80 <= b < 0xC0)


def _column_index(content: str, column: int, encoding: str) -> int:
    """Index of the first character of ``content`` that starts at or after
    ``column`` units of ``encoding`` (UTF-8 or UTF-16), or its length.

    Counted in C, not with a loop over the characters in Python: that loop
    was the cost of every position an editor sends on a long non-ASCII line."""
    if column <= 0:
        return 0
    if encoding == "utf-8":
        data = content.encode("utf-8", "surrogatepass")
        if column >= len(data):
            return len(content)
        # the characters that start before byte ``column``: its bytes less
        # the continuation bytes among them
        return column - len(data[:column].translate(None, _UTF8_LEADING_BYTES))
    # UTF-16: a character is one or two units, so the index is between
    # column / 2 and column; the units of a prefix grow with it: bisect
    if len(content.encode("utf-16-le", "surrogatepass")) // 2 < column:
        return len(content)
    lo, hi = (column + 1) // 2, min(column, len(content))
    while lo < hi:
        mid = (lo + hi) // 2
        if len(content[:mid].encode("utf-16-le", "surrogatepass")) // 2 >= column:
            hi = mid
        else:
            lo = mid + 1
    return lo


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


#: Longest line text a finding carries whole.  Minified files have lines of
#: megabytes: sending each finding's whole line from a worker process, and
#: printing it as a SARIF snippet, helps no reader.
LINE_TEXT_LIMIT = 1000
#: Characters kept on each side of the finding when its line is clipped.
LINE_TEXT_CONTEXT = 200


def clip_line(line: str, start: int, end: int) -> str:
    """``line``, or the part of it around ``line[start:end]`` when it is
    longer than :data:`LINE_TEXT_LIMIT` (at most that long)."""
    if len(line) <= LINE_TEXT_LIMIT:
        return line
    a = max(0, start - LINE_TEXT_CONTEXT)
    b = min(len(line), max(start, end) + LINE_TEXT_CONTEXT, a + LINE_TEXT_LIMIT)
    return line[a:b]


class Positions:
    """The (line, column) of every offset the output needs, computed where
    the text is, so only this small table travels back from a worker."""

    def __init__(self, index: "LineIndex", findings: List[Any]) -> None:
        table: Dict[int, Tuple[int, int]] = {}
        for f in findings:
            for fx in f.fixes:
                for e in fx.edits:
                    for off in (e.start, e.end):
                        if off not in table:
                            table[off] = index.position(off)
        self.table = table

    def position(self, offset: int, encoding: str = "utf-32") -> Tuple[int, int]:
        return self.table[offset]
