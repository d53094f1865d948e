"""What the project decides for one document, and its check: whether
include/exclude admit it, the size cap, the encoding it is read in and the
scanner that reads it, for an open document of the server
(:func:`plan_document`, :func:`check_document`) and for a file on disk
(:func:`read_file`, :func:`check_file_on_disk`); and the files of a
folder that include/exclude admit (:func:`admitted_files`).

:class:`irilint.project.Project` runs ``irilint check`` and the report on
the same decisions; the server calls these directly.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple


def is_excluded(settings: Any, path: Optional[str]) -> bool:
    """Whether include/exclude keep the file ``path`` out (never an
    untitled document, ``path`` None: the user is looking at it)."""
    if not path:
        return False
    from . import config

    return not config.is_included(settings, path, is_dir=False)


def size_cap(settings: Any) -> int:
    """The largest file checked, in bytes (``max-file-size``; 0: no cap)."""
    return int(getattr(settings, "max_file_size", 0) or 0)


def over_size_cap(text: str, limit: int) -> Optional[int]:
    """The UTF-8 size of ``text`` (or a lower bound of it) when it is more
    than ``limit`` bytes, else None; encodes only when it has to."""
    n = len(text)
    if n > limit:
        return n
    if n * 4 <= limit:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    return size if size > limit else None


def scanner_for(settings: Any, path: Optional[str] = None, language_id: Optional[str] = None) -> Any:
    """The scanner that reads a document: the ``extensions`` setting for its
    path, then its language id, then its file name; plain text when an
    override names a scanner that does not exist."""
    from .scanners import scanner_for as find

    extensions = dict(getattr(settings, "extensions", ()) or ()) if settings is not None else None
    try:
        return find(path=path, language_id=language_id, extensions=extensions)
    except KeyError:
        import logging

        logging.getLogger(__name__).warning("no scanner for %s (%s); reading it as text", path, language_id)
        return find()


@dataclass
class DocumentPlan:
    """What the project decides for an open document before checking it:
    left out by include/exclude, over the size cap (its size), or read by
    ``scanner``."""

    excluded: bool = False
    too_large: Optional[int] = None
    limit: int = 0
    scanner: Any = None


def plan_document(settings: Any, path: Optional[str], text: str,
                  language_id: Optional[str] = None) -> DocumentPlan:
    """The decisions for an open document (the server's view of a file)."""
    try:
        excluded = is_excluded(settings, path)
    except Exception:  # a bad glob must not stop linting the document in view
        import logging

        logging.getLogger(__name__).exception("include/exclude failed for %s", path)
        excluded = False
    if excluded:
        return DocumentPlan(excluded=True)
    limit = size_cap(settings)
    if limit:
        size = over_size_cap(text, limit)
        if size is not None:
            return DocumentPlan(too_large=size, limit=limit)
    return DocumentPlan(limit=limit, scanner=scanner_for(settings, path, language_id))


def file_scanner(settings: Any, path: str) -> Any:
    """The scanner that checks the file ``path`` under ``settings`` (its
    ``extensions`` overrides, then its name), as the engine finds it when
    given none: found once, it reads the file's encoding declaration and
    then checks it."""
    scanners = _read_modules()[0]
    if settings is None or not settings.extensions:
        return scanners.scanner_for(path=path)
    return scanners.scanner_for(path=path, extensions=dict(settings.extensions))


@functools.lru_cache(maxsize=None)
def _read_modules() -> Tuple[Any, Any]:
    """(irilint.scanners, irilint.fileio), imported at the first file and
    kept (a from-import in each call was a microsecond a file)."""
    from . import fileio, scanners

    return scanners, fileio


def read_file(settings: Any, path: str, digest: bool = False, stat: Any = None, scanner: Any = None) -> Any:
    """A file on disk read as every caller reads it: under the size cap, in
    the encoding it declares to the rules of the scanner (or code language)
    that checks it.  Raises :class:`irilint.fileio.DocumentError`.
    ``stat``: the walk's stat of it, just made (see read_document).
    ``scanner``: :func:`file_scanner` of it, when the caller has it."""
    scanners, fileio = _read_modules()
    if scanner is None:
        scanner = file_scanner(settings, path)
    return fileio.read_document(path, max_size=size_cap(settings) or None, digest=digest,
                                syntax=scanners.syntax_of(scanner), stat=stat)


def document_error() -> type:
    """:class:`irilint.fileio.DocumentError`, imported when asked (an
    ``except`` clause asks only when something was raised)."""
    return _read_modules()[1].DocumentError


def admitted_files(roots: List[str], settings_for: Any) -> Any:
    """The files under ``roots`` that include/exclude admit, in walk order,
    with :class:`irilint.discovery.DiscoveryError` items for what could not
    be walked: the files ``irilint check`` walks, for the server's workspace
    check and index.  A file is judged under its own settings
    (``settings_for(abspath)``), a folder under its parent's, as the CLI
    judges it (a configuration governs what its folder holds)."""
    from . import config
    from .discovery import iter_files

    def included(path: str, is_dir: bool) -> bool:
        try:
            abspath = os.path.abspath(path)
            return config.is_included(settings_for(os.path.dirname(abspath) if is_dir else abspath), path,
                                      is_dir=is_dir)
        except Exception:  # a broken glob: check the file rather than lose it
            import logging

            logging.getLogger(__name__).exception("include/exclude failed for %s", path)
            return True

    return iter_files(roots, entry_included=included, path_type=str)


@dataclass
class DocumentCheck:
    """An open document (or a file the server reads) checked: the project's
    decisions (``plan``), then, when it was checked, the findings, the
    facts of the project rules and the engine's internal errors."""

    plan: DocumentPlan
    findings: List[Any] = field(default_factory=list)
    facts: Dict[str, Any] = field(default_factory=dict)
    errors: List[str] = field(default_factory=list)
    scanner: Any = None

    @property
    def checked(self) -> bool:
        return self.scanner is not None


def check_document(engine: Any, settings: Any, path: Optional[str], text: str, *,
                   language_id: Optional[str] = None, index: Any = None,
                   own_scanner: Any = None, run_state: Optional[Dict[str, Any]] = None) -> DocumentCheck:
    """Check a document as the server holds it: include/exclude, the size
    cap and the scanner decided by :func:`plan_document`, then the engine.
    ``own_scanner(scanner)``: the scanner to use instead (the server's
    incremental Markdown scanner of that document)."""
    plan = plan_document(settings, path, text, language_id)
    if plan.excluded or plan.too_large is not None:
        return DocumentCheck(plan)
    scanner = own_scanner(plan.scanner) if own_scanner is not None else plan.scanner
    result = engine.check_text(text, path=path, language_id=language_id, settings=settings,
                               scanner=scanner, index=index,
                               run_state={} if run_state is None else run_state)
    return DocumentCheck(plan, list(result.findings), result.facts, list(result.errors), scanner)


def check_file_on_disk(engine: Any, settings: Any, path: str) -> Optional[Tuple[str, DocumentCheck]]:
    """A file the server reads from disk (not open in the editor), read and
    checked as ``irilint check`` reads and checks it; its text and check,
    or None when it is not read (binary, over the size cap, undecodable)."""
    from .fileio import DocumentError

    try:
        doc = read_file(settings, path)
    except DocumentError:
        return None
    return doc.text, check_document(engine, settings, path, doc.text)
