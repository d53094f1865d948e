"""The project rules in the editor: facts of the workspace, reduced.

A project rule (irilint.rules.project_rules; today confusable-collision)
judges a document against the others.  The server keeps what each
rule collected of

* every file of the workspace folder, as on disk: indexed in the
  background after start-up (in a thread of its own, with an engine of its
  own), honouring include/exclude and ``max-file-size`` as ``irilint
  check`` does, and again for a file when its document is closed;
* every open document, as last linted (it stands for its file on disk).

After each change it reduces them all, in path order, and tells the
linter which open documents' findings across documents changed, so that
a collision between two documents shows on both and goes from both when
either is edited.  Everything here runs on the event loop, except the
indexing, which only returns facts.
"""
from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from irilint.findings import Finding

from .transport import DaemonExecutor

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

logger = logging.getLogger(__name__)


class WorkspaceFacts:
    def __init__(self, server: "IrilintLanguageServer") -> None:
        self.server = server
        #: absolute path -> the facts of the file on disk
        self._disk: Dict[str, Dict[str, Any]] = {}
        #: uri -> (absolute path or None, facts of its last lint)
        self._open: Dict[str, Tuple[Optional[str], Dict[str, Any]]] = {}
        #: uri -> the findings across documents of an open document
        self._found: Dict[str, List[Finding]] = {}
        self._executor: Optional[DaemonExecutor] = None
        self._task: Optional["asyncio.Task[Any]"] = None
        #: set when the first indexing of the workspace is over
        self.indexed = asyncio.Event()

    # -- what the linter asks -------------------------------------------
    def findings_for(self, uri: str) -> List[Finding]:
        """The findings across documents of the open document ``uri``, in
        offsets of the text its facts were collected from."""
        return self._found.get(uri, [])

    def document_linted(self, uri: str, path: Optional[str], facts: Dict[str, Any]) -> Set[str]:
        """Record the facts of a lint of ``uri``; the open documents whose
        findings across documents changed (``uri`` among them or not)."""
        self._open[uri] = (path, facts)
        return self._reduce()

    def document_closed(self, uri: str) -> Set[str]:
        """``uri`` was closed: its file counts as on disk again (indexed
        anew in the background); the open documents whose findings across
        documents changed."""
        entry = self._open.pop(uri, None)
        self._found.pop(uri, None)
        if entry is not None and entry[0] is not None and self._executor is not None:
            asyncio.ensure_future(self._index([entry[0]]))
        return self._reduce()

    # -- indexing ---------------------------------------------------------
    def start(self) -> None:
        """Index the workspace folder in the background."""
        root = self.server.settings.root
        if not root or self._task is not None:
            self.indexed.set()
            return
        self._executor = DaemonExecutor("irilint-index")
        self._task = asyncio.ensure_future(self._index(None))

    def settings_changed(self) -> None:
        """Index the workspace again (what a rule collects depends on the
        settings: its selection, protected domains, include/exclude)."""
        if self._executor is not None:
            asyncio.ensure_future(self._index(None))

    def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False)

    async def _index(self, paths: Optional[List[str]]) -> None:
        try:
            await self.server.settings.wait_ready()
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self._executor, self._collect, paths)
        except asyncio.CancelledError:
            raise
        except Exception:  # indexing must not take the server down
            logger.exception("indexing the workspace failed")
            found = {}
        finally:
            if paths is None:
                self.indexed.set()
        if paths is None:
            self._disk = found
        else:
            for path in paths:
                self._disk.pop(path, None)
            self._disk.update(found)
        self.server.linter.project_findings_changed(self._reduce())

    def _collect(self, paths: Optional[List[str]]) -> Dict[str, Dict[str, Any]]:
        """The facts of the workspace's files (``paths``: just these), in
        the index thread."""
        from irilint.discovery import DiscoveryError
        from irilint.engine import Engine
        from irilint.project_files import admitted_files, check_file_on_disk

        from .settings import workspace_folders

        settings_of = self.server.settings.settings_for
        engine = Engine()
        if paths is None:
            walk = admitted_files([folder for _uri, folder in workspace_folders(self.server)], settings_of)
        else:
            walk = iter(paths)
        out: Dict[str, Dict[str, Any]] = {}
        for item in walk:
            if isinstance(item, DiscoveryError):
                continue
            path = os.path.abspath(item)
            # unreadable, binary, over max-file-size or excluded: as check skips it
            checked = check_file_on_disk(engine, settings_of(path), path)
            if checked is not None and checked[1].facts:
                out[path] = checked[1].facts
        return out

    # -- reducing ---------------------------------------------------------
    def _shown(self, path: Optional[str], uri: str) -> str:
        """The path findings name a document by: relative to the workspace
        folder when inside it."""
        if path is None:
            return uri
        root = self.server.settings.root
        if root:
            rel = os.path.relpath(path, root)
            if not rel.startswith(".."):
                return rel
        return path

    def _reduce(self) -> Set[str]:
        from irilint.rules.project_rules import reduce_documents

        documents: Dict[str, Tuple[str, Dict[str, Any], Optional[str]]] = {}
        for path, facts in self._disk.items():
            documents[path] = (self._shown(path, path), facts, None)
        for uri, (path, facts) in self._open.items():
            documents[path or uri] = (self._shown(path, uri), facts, uri)
        ordered = [documents[key] for key in sorted(documents)]
        found = reduce_documents([(shown, facts) for shown, facts, _uri in ordered], every_document=True)
        new: Dict[str, List[Finding]] = {}
        for n, pfs in found.items():
            uri = ordered[n][2]
            if uri is not None:
                new[uri] = [pf.finding for pf in pfs]
        changed = {uri for uri in set(new) | set(self._found)
                   if _key(new.get(uri, [])) != _key(self._found.get(uri, []))}
        self._found = new
        return changed


def _key(findings: List[Finding]) -> List[Tuple[Any, ...]]:
    return [(f.rule.code, f.start, f.end, f.message, f.severity) for f in findings]
