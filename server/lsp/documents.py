"""The server's own copy of open documents.

pygls keeps documents too, but its ``TextDocument.lines`` splits at
U+2028, U+2029, U+0085 and form feed (``str.splitlines``), which LSP does
not: positions sent by the client would be resolved against the wrong
lines and incremental edits would corrupt the copy.  So the server keeps
its own store, applies incremental edits with :class:`irilint.lines.LineIndex`
(LSP line ends only: ``\\n``, ``\\r\\n``, ``\\r``) in the negotiated position
encoding, and never reads pygls' workspace documents.

One :class:`LineIndex` is kept per document version and reused by
diagnostics, code actions and hover.  After a range edit the new version's
line starts are derived from the previous version's (those before the edit
kept, those after it shifted, only the edited text searched for line ends):
a 5,000-line document's table costs ~1 ms to build from scratch, on every
keystroke.

What the store does with edits that do not fit:

* **A range outside the document** (a line past the last one, a character
  past the end of its line) is clamped: a position past a line's end means
  the end of that line's content, a line past the last means the end of the
  document (as LSP says for positions), and a range whose end comes before
  its start is swapped.  So an edit "at line 1000" of a 3-line document
  appends; nothing is refused and nothing crashes.  Requests (hover, code
  actions) at such positions are resolved the same way and answer null or
  an empty list when nothing is there.  Negative numbers are not positions
  at all (LSP's ``uinteger``): a request carrying one gets ``InvalidParams``
  and a notification carrying one is ignored (see
  :class:`irilint.lsp.server.IrilintProtocol`).
* **``didChange`` for a document that was never opened (or was closed)** is
  ignored, with a warning on stderr and in the client's log: the store does
  not treat it as opened.  An incremental change cannot be applied without
  the text it edits, and even a whole-document change would make the server
  publish diagnostics for a document the client does not consider open
  (and will never close).  :meth:`DocumentStore.change` raises ``KeyError``
  for it; the ``didChange`` handler checks first.
"""
from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Tuple
from urllib.parse import unquote, urlparse

from irilint.lines import LineIndex

def uri_to_path(uri: str) -> Optional[str]:
    """The file system path of a ``file:`` URI, else None (untitled buffers,
    virtual documents)."""
    try:
        parsed = urlparse(uri)
    except ValueError:
        return None
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt":  # pragma: no cover - Windows: /C:/x -> C:/x
        if len(path) >= 3 and path[0] == "/" and path[2] == ":":
            path = path[1:]
        if parsed.netloc:
            path = "//%s%s" % (parsed.netloc, path)
        path = path.replace("/", "\\")
    return path or None


@dataclass
class Document:
    uri: str
    text: str
    version: Optional[int]
    language_id: Optional[str] = None
    _index: Optional[LineIndex] = field(default=None, repr=False)
    #: anything computed for this version (scan results...), dropped on edit
    cache: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def path(self) -> Optional[str]:
        return uri_to_path(self.uri)

    @property
    def index(self) -> LineIndex:
        """The line index of this version (built once)."""
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text)
        return self._index

    def set_text(self, text: str, version: Optional[int], index: Optional[LineIndex] = None) -> None:
        """A new version (``index``: its line index, when already known)."""
        self.text = text
        self.version = version
        self._index = index if index is not None and index.text is text else None
        self.cache = {}


class DocumentStore:
    """Open documents by URI, with LSP-exact incremental edits."""

    def __init__(self) -> None:
        self._docs: Dict[str, Document] = {}
        self.encoding = "utf-16"

    def __contains__(self, uri: str) -> bool:
        return uri in self._docs

    def __iter__(self):
        return iter(list(self._docs.values()))

    def __len__(self) -> int:
        return len(self._docs)

    def get(self, uri: str) -> Optional[Document]:
        return self._docs.get(uri)

    def __getitem__(self, uri: str) -> Document:
        doc = self._docs.get(uri)
        if doc is None:
            raise KeyError("document not open: %s" % uri)
        return doc

    def open(self, uri: str, text: str, version: Optional[int], language_id: Optional[str]) -> Document:
        doc = Document(uri, text, version, language_id or None)
        self._docs[uri] = doc
        return doc

    def close(self, uri: str) -> Optional[Document]:
        return self._docs.pop(uri, None)

    def change(self, uri: str, version: Optional[int], changes: Iterable[Any]) -> Document:
        """Apply ``contentChanges`` in order.  Each change is either a whole
        document (``text`` only) or a range edit whose positions are in the
        negotiated encoding and refer to the text as left by the previous
        change."""
        doc = self[uri]
        text = doc.text
        index: Optional[LineIndex] = doc.index
        for change in changes:
            rng = getattr(change, "range", None)
            if rng is None:
                index = whole_text_index(text, index, change.text)
                text = change.text
                continue
            if index is None:
                index = LineIndex(text)
            text, index = apply_change_indexed(text, index, rng, change.text, self.encoding)
        doc.set_text(text, version, index)
        return doc


def whole_text_index(old: str, index: Optional[LineIndex], new: str) -> Optional[LineIndex]:
    """The line index of ``new``, the whole text of the next version, when
    ``index`` (of ``old``) has its line starts: derived from them as for the
    range edit that differs (common prefix and suffix found a chunk at a
    time: ~0.1 ms instead of ~1 ms to find a 5,000-line document's line
    ends again, for a client that sends whole texts).  None when there is
    nothing to derive from (built when first asked)."""
    if index is None or index._starts is None or index.text is not old:
        return None
    from irilint.scanners.markdown import common_prefix, common_suffix

    prefix = common_prefix(old, new)
    suffix = common_suffix(old, new, min(len(old), len(new)) - prefix)
    starts = edited_line_starts(index.starts, new, prefix, len(old) - suffix, len(new) - suffix)
    return LineIndex(new, starts)


def apply_change(text: str, index: LineIndex, rng: Any, new_text: str, encoding: str) -> str:
    return apply_change_indexed(text, index, rng, new_text, encoding)[0]


def apply_change_indexed(text: str, index: LineIndex, rng: Any, new_text: str,
                         encoding: str) -> Tuple[str, LineIndex]:
    """The text after one range edit, and its line index."""
    start = index.offset(rng.start.line, rng.start.character, encoding)
    end = index.offset(rng.end.line, rng.end.character, encoding)
    if end < start:
        start, end = end, start
    # A position past a line's end is clamped to the line's content, so a
    # range may not split "\r\n" -- except one that really points between
    # "\r" and "\n" (line+1, char 0 after "\r"): LineIndex only knows the
    # pair as one line end, which is what LSP says too.
    edited = text[:start] + new_text + text[end:]
    starts = edited_line_starts(index.starts, edited, start, end, start + len(new_text))
    return edited, LineIndex(edited, starts)


_EOL_RX = re.compile(r"\r\n|\r|\n")


def edited_line_starts(starts: List[int], text: str, start: int, end: int,
                       new_end: int) -> List[int]:
    """The line starts of ``text``, made by replacing ``[start, end)`` of a
    text whose line starts were ``starts`` with what is now
    ``text[start:new_end]``.

    Starts before ``start`` depend only on the unchanged text before the
    edit; an old start after ``end`` (the one right after it included: the
    character at ``end`` is kept and ends a line by itself, or is a "\r"
    followed by the same character as before) moves with the edit; the
    ones in between are found again in the edited text and the character on
    each side of it ("\r" + "\n" may join or split at its edges)."""
    delta = new_end - end
    head = starts[:max(1, bisect_left(starts, start))]  # 0 always starts a line
    tail = starts[bisect_right(starts, end):]
    if delta:
        tail = [s + delta for s in tail]
    middle = [p for p in (m.end() for m in _EOL_RX.finditer(text, max(0, start - 1), new_end + 1))
              if start <= p <= new_end]
    if middle:
        head.extend(middle)
    head.extend(tail)
    return head

