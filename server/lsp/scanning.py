"""Which scanner reads a document, its comment syntax, and the IRI
references it holds (cached per document version and settings)."""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

from irilint.scanners.base import CommentSyntax

from .documents import Document


HASH = CommentSyntax("#")


def scanner_for_document(doc: Document, settings: Any) -> Any:
    """The scanner for a document: the ``extensions`` setting for its path,
    then its language id, then its file name (see
    :func:`irilint.scanners.scanner_for`)."""
    from irilint.project_files import scanner_for

    return scanner_for(settings, doc.path, doc.language_id)


def comment_syntax(scanner: Any) -> CommentSyntax:
    """How to write a suppression comment: the scanner's first (preferred)
    comment syntax."""
    comments = tuple(getattr(scanner, "comments", ()) or ())
    return comments[0] if comments else HASH


def is_own_line(syntax: CommentSyntax) -> bool:
    """A comment that must stand alone on its line (reST ``..``)."""
    return syntax.prefix.strip() == ".." and not syntax.suffix


def candidates(doc: Document, scanner: Any, key: Any) -> List[Any]:
    """The IRI references of the document's current version (cached under
    ``key``, e.g. the settings generation)."""
    cached: Optional[Tuple[Any, List[Any]]] = doc.cache.get("candidates")
    if cached is not None and cached[0] == key:
        return cached[1]
    found = list(scanner.scan(doc.text))
    doc.cache["candidates"] = (key, found)
    return found


def candidate_at(cands: List[Any], start: int, end: Optional[int] = None,
                 touching: bool = False) -> Optional[Any]:
    """The reference under the cursor (``start``), else the first one that
    overlaps ``[start, end)``; with ``touching``, also one that ends right
    before the cursor."""
    for c in cands:
        if c.start <= start < c.end:
            return c
    if end is not None and end > start:
        for c in cands:
            if c.start < end and start < c.end:
                return c
    if touching:
        for c in cands:  # the cursor just after the last character
            if c.end == start and c.end > c.start:
                return c
    return None


def document_candidates(server: Any, doc: Document) -> Optional[List[Any]]:
    """The references of an open document as the server's settings scan
    it, or None when it is larger than ``max-file-size`` (not scanned)."""
    from .diagnostics import oversize

    settings = server.settings.settings_for(doc.path)
    limit = int(getattr(settings, "max_file_size", 0) or 0)
    if limit and oversize(doc.text, limit) is not None:
        return None
    return candidates(doc, scanner_for_document(doc, settings), server.settings.generation)
