"""The whole workspace: ``workspace/diagnostic`` and the command
``irilint.checkWorkspace`` ("Check the workspace").

Both check every file of the workspace folders that ``include`` /
``exclude`` admit, found as ``irilint check`` finds them
(:func:`irilint.discovery.iter_files`: ``.gitignore`` respected, walks kept
inside the folders), each with the settings of its own folder.  An open
document is checked as the editor holds it, a closed one as it is on disk;
binary files and files over ``max-file-size`` are left out, as the command
line leaves them out.

* ``workspace/diagnostic`` (for clients that pull; advertised only to
  them): a report for every file, with progress when the request carries
  a ``workDoneToken``; "unchanged" for a file whose result id is among the
  request's ``previousResultIds`` (a file unchanged on disk, or an open
  document at the same version, is not checked again).
* ``irilint.checkWorkspace`` publishes the diagnostics of every file
  (``textDocument/publishDiagnostics``; open documents only when the client
  does not pull) and answers ``{"files": N, "problems": M, "cancelled":
  bool}``.  It reports its progress (``window/workDoneProgress/create``,
  then ``$/progress`` begin, report and end) when the client supports it.

Either stops between two files when cancelled: ``$/cancelRequest`` for its
request, or ``window/workDoneProgress/cancel`` for its progress token.
Files are read and checked in the lint worker, one at a time, so the
server keeps answering meanwhile.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import os
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from lsprotocol import types

from irilint.lines import LineIndex

from .diagnostics import diagnostic_json

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

logger = logging.getLogger(__name__)

COMMAND = "irilint.checkWorkspace"
TITLE = "Check the workspace"
#: files found between two yields to the event loop while discovering
DISCOVERY_BATCH = 200


class Cancelled(Exception):
    """The client cancelled the request or its progress."""


async def discover(server: "IrilintLanguageServer", folders: List[str],
                   cancelled: Callable[[], bool] = lambda: False) -> List[str]:
    """The files of ``folders`` that include/exclude admit (each path under
    the settings that apply to it), in walk order.  Walks on the event loop
    (the settings are the loop's), giving it back every
    :data:`DISCOVERY_BATCH` entries; raises Cancelled when ``cancelled()``."""
    from irilint.discovery import DiscoveryError
    from irilint.project_files import admitted_files

    out: List[str] = []
    for n, item in enumerate(admitted_files(folders, server.settings.settings_for), 1):
        if n % DISCOVERY_BATCH == 0:
            await asyncio.sleep(0)
            if cancelled():
                raise Cancelled()
        if isinstance(item, DiscoveryError):
            logger.info("workspace check: %s: %s", item.path, item.reason)
            continue
        out.append(os.path.abspath(item))
    return out


def check_file(engine: Any, path: str, settings: Any, encoding: str, uri: str) -> Optional[List[Dict[str, Any]]]:
    """The diagnostics (as JSON) of a file on disk, or None when it is not
    checked (binary, too large, unreadable).  Runs in the lint worker."""
    from irilint.project_files import check_file_on_disk

    checked = check_file_on_disk(engine, settings, path)
    if checked is None or not checked[1].checked:
        logger.info("workspace check: %s: not checked (binary, too large, undecodable or excluded)", path)
        return None
    text, check = checked
    index = LineIndex(text)
    return [diagnostic_json(f, index, encoding, None, uri) for f in check.findings]


class WorkspaceRun:
    """One pass over the workspace, with progress and cancellation."""

    def __init__(self, server: "IrilintLanguageServer", token: Optional[Any],
                 request_id: Optional[Any]) -> None:
        self.server = server
        self.token = token
        self.request_id = request_id

    def cancelled(self) -> bool:
        protocol = self.server.protocol
        if self.request_id is not None and self.request_id in getattr(protocol, "cancel_requested", ()):
            return True
        if self.token is not None:
            future = self.server.work_done_progress.tokens.get(self.token)
            if future is not None and future.cancelled():
                return True
        return False

    def _progress(self, kind: str, **kw: Any) -> None:
        if self.token is None:
            return
        progress = self.server.work_done_progress
        if kind == "begin":
            progress.begin(self.token, types.WorkDoneProgressBegin(title=TITLE, cancellable=True, **kw))
        elif kind == "report":
            progress.report(self.token, types.WorkDoneProgressReport(**kw))
        else:
            progress.end(self.token, types.WorkDoneProgressEnd(**kw))

    async def each_file(self, visit: Callable[..., None]) -> Tuple[int, int]:
        """Check every file; ``visit(uri, path, diagnostics, version,
        result_id)`` each.  Returns (files checked, problems found); raises
        Cancelled.

        A file unchanged since the last pass (same stat, same settings; an
        open document: same version) is not read nor checked again: its
        diagnostics and result id are kept (a pulling client asks for the
        workspace again and again: VS Code every few seconds)."""
        from pathlib import Path

        from .settings import workspace_folders

        server = self.server
        await server.settings.wait_ready()
        self._progress("begin", message="finding files", percentage=0)
        ended = False
        try:
            folders = [path for _, path in workspace_folders(server)]
            files = await discover(server, folders, self.cancelled)
            if self.cancelled():
                raise Cancelled()
            open_paths = {doc.path: doc for doc in server.documents if doc.path}
            encoding = server.documents.encoding
            previous = known_results(server)
            seen: Dict[str, Tuple[Any, str, Optional[List[Dict[str, Any]]]]] = {}
            count = problems = 0
            for i, path in enumerate(files):
                if self.cancelled():
                    raise Cancelled()
                uri = Path(path).as_uri()
                doc = open_paths.get(path)
                key = self._key(path, doc, encoding)
                hit = previous.get(path)
                if hit is not None and key is not None and hit[0] == key:
                    result_id, diags = hit[1], hit[2]
                else:
                    diags = await self._check(path, uri, doc, encoding)
                    result_id = "%d" % next(_RESULT_IDS)
                version = doc.version if doc is not None else None
                if key is not None:
                    seen[path] = (key, result_id, diags)
                if diags is not None:
                    count += 1
                    problems += len(diags)
                    visit(uri, path, diags, version, result_id)
                self._progress("report", message="%d of %d files" % (i + 1, len(files)),
                               percentage=int(100 * (i + 1) / max(1, len(files))))
            previous.clear()
            previous.update(seen)
            self._progress("end", message="%d files checked, %d problems" % (count, problems))
            ended = True
            return count, problems
        except (Cancelled, asyncio.CancelledError):
            self._progress("end", message="cancelled")
            ended = True
            raise
        finally:
            if not ended:
                self._progress("end", message="failed")


    def _key(self, path: str, doc: Any, encoding: str) -> Any:
        """What a file's result depends on (None: cannot tell, check it)."""
        generation = self.server.settings.generation
        if doc is not None:
            return ("open", doc.version, id(doc.text), generation, encoding)
        try:
            st = os.stat(path)
        except OSError:
            return None
        return ("disk", st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns, generation, encoding)

    async def _check(self, path: str, uri: str, doc: Any, encoding: str) -> Optional[List[Dict[str, Any]]]:
        server = self.server
        if doc is not None:
            result = await server.linter.result_for(doc)
            if result.skipped:
                return None
            if result.published is not None:
                return result.published
            return [server.protocol._converter.unstructure(d) for d in result.diagnostics]
        settings = server.settings.settings_for(path)
        return await server.linter.run_in_worker(
            check_file, server.linter.engine(), path, settings, encoding, uri)


_RESULT_IDS = itertools.count(1)


def known_results(server: "IrilintLanguageServer") -> Dict[str, Any]:
    """The last full pass's results: path -> (key, result id, diagnostics)."""
    store = getattr(server, "_workspace_results", None)
    if store is None:
        store = server._workspace_results = {}  # type: ignore[attr-defined]
    return store


async def check_workspace(server: "IrilintLanguageServer") -> Dict[str, Any]:
    """The command: publish every file's diagnostics."""
    request_id = server.protocol._ctx_msg_id.get(None)
    token = None
    if server._cap("window.work_done_progress", False):
        token = "irilint-workspace-%s" % uuid.uuid4()
        try:
            await asyncio.wait_for(server.work_done_progress.create_async(token), 10.0)
        except Exception as exc:  # a client may refuse: work without progress
            logger.info("window/workDoneProgress/create failed: %s", exc)
            token = None
    run = WorkspaceRun(server, token, request_id)

    def publish(uri: str, path: str, diags: Optional[List[Dict[str, Any]]], version: Optional[int],
                result_id: str) -> None:
        if version is not None and server.pull_diagnostics:
            return  # an open document's diagnostics are pulled
        params: Dict[str, Any] = {"uri": uri, "diagnostics": diags}
        if version is not None:
            params["version"] = version
        server.protocol._send_data({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                                    "params": params})

    try:
        files, problems = await run.each_file(publish)
    except Cancelled:
        return {"files": None, "problems": None, "cancelled": True}
    return {"files": files, "problems": problems, "cancelled": False}


async def workspace_diagnostic(server: "IrilintLanguageServer",
                               params: types.WorkspaceDiagnosticParams) -> Any:
    """``workspace/diagnostic``: a full report per file."""
    items: List[Dict[str, Any]] = []
    known = {p.uri: p.value for p in params.previous_result_ids or ()}

    def add(uri: str, path: str, diags: Optional[List[Dict[str, Any]]], version: Optional[int],
            result_id: str) -> None:
        if known.get(uri) == result_id:
            items.append({"kind": "unchanged", "uri": uri, "version": version, "resultId": result_id})
        else:
            items.append({"kind": "full", "uri": uri, "version": version, "resultId": result_id,
                          "items": diags})

    run = WorkspaceRun(server, params.work_done_token, server.protocol._ctx_msg_id.get(None))
    try:
        await run.each_file(add)
    except Cancelled:
        from pygls.exceptions import JsonRpcRequestCancelled

        raise JsonRpcRequestCancelled("workspace/diagnostic cancelled") from None
    return {"items": items}
