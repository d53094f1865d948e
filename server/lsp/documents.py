"""The server's own copy of open documents.

pygls keeps documents too, but its ``TextDocument.lines`` splits at
U+2028, U+2029, U+0085 and form feed (``str.splitlines``), which LSP does
not: positions sent by the client would be resolved against the wrong
lines and incremental edits would corrupt the copy.  So the server keeps
its own store, applies incremental edits with :class:`irilint.lines.LineIndex`
(LSP line ends only: ``\\n``, ``\\r\\n``, ``\\r``) in the negotiated position
encoding, and never reads pygls' workspace documents.

One :class:`LineIndex` is built per document version, lazily, and reused by
diagnostics, code actions and hover.

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
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional
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

    def set_text(self, text: str, version: Optional[int]) -> None:
        self.text = text
        self.version = version
        self._index = None
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
                text = change.text
                index = None
                continue
            if index is None:
                index = LineIndex(text)
            text = apply_change(text, index, rng, change.text, self.encoding)
            index = None
        doc.set_text(text, version)
        return doc


def apply_change(text: str, index: LineIndex, rng: Any, new_text: str, encoding: str) -> str:
    start = index.offset(rng.start.line, rng.start.character, encoding)
    end = index.offset(rng.end.line, rng.end.character, encoding)
    if end < start:
        start, end = end, start
    # A position past a line's end is clamped to the line's content, so a
    # range may not split "\r\n" -- except one that really points between
    # "\r" and "\n" (line+1, char 0 after "\r"): LineIndex only knows the
    # pair as one line end, which is what LSP says too.
    return text[:start] + new_text + text[end:]

