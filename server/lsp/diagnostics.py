"""Linting documents and reporting the findings as LSP diagnostics.

* Push (``textDocument/publishDiagnostics``) is the default.  A lint runs
  on open and save at once, and after an edit when the document has been
  quiet for ``debounce`` milliseconds (setting, default 300); a newer edit
  cancels a pending run.  Each publication carries the version it was
  computed for, and a result whose document changed (or closed) while it
  was computed is dropped: the newer version's run publishes instead.
* Pull (``textDocument/diagnostic``) is used instead when the client says
  it supports it (``textDocument.diagnostic`` in its capabilities); then the
  server never pushes.  A pull answers for the current version; if the
  document keeps changing while it is computed, the request is cancelled
  with ``ServerCancelled`` and ``retriggerRequest``.

A document larger than ``max-file-size`` (UTF-8 bytes) gets one
Information diagnostic saying it was skipped.  A file that ``include`` /
``exclude`` leave out (as ``irilint check`` would) gets no diagnostics.

Linting runs in one worker thread, so the event loop keeps answering; a
run queued for a version that is no longer current is skipped when its
turn comes (a burst of edits costs one lint, not one per edit).
Results are cached per (document version, settings generation), and code
actions reuse them.  A Markdown document is linted with a scanner of its own
that re-scans only the blocks an edit touched
(:class:`irilint.scanners.markdown.IncrementalMarkdownScanner`).  A push
sends each diagnostic's JSON text made in the lint worker
(:func:`diagnostics_text`): the event loop neither builds nor encodes them;
the texts of the findings an edit left alone are taken over from the
document's previous push (:class:`TextReuse`).
"""
from __future__ import annotations

import asyncio
import gc
import inspect
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from lsprotocol import types

from irilint.findings import Finding
from irilint.lines import LineIndex
from irilint.project_files import check_document, over_size_cap

from .diagnostic_json import (  # noqa: F401  (SOURCE...: what the server's other modules import from here)
    RULES_URL, SEVERITY, SOURCE, TextReuse, diagnostic_json, diagnostics_json, diagnostics_text,
    finding_data, to_diagnostic)
from .documents import Document
from .transport import DaemonExecutor

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

logger = logging.getLogger(__name__)

#: per-reference results the server keeps (irilint.reference_memo.ReferenceMemo),
#: ~1.7 KB each: 50 open Markdown documents of 100 KB need ~5,000 (the
#: references no rule can flag skip the memo); least recently used out
MEMO_ENTRIES = 10000


@dataclass
class LintResult:
    uri: str
    version: Optional[int]
    generation: int
    text: str
    index: LineIndex
    findings: List[Finding] = field(default_factory=list)
    scanner: Any = None
    settings: Any = None
    #: too large (max-file-size) or left out by include/exclude
    skipped: bool = False
    #: what the project rules collected of it (irilint.rules.project_rules),
    #: reduced with the workspace's (see workspace_index)
    facts: Dict[str, Any] = field(default_factory=dict, repr=False)
    #: what else is computed from this result (code actions' fix-all...)
    extra: Dict[str, Any] = field(default_factory=dict, repr=False)
    encoding: str = "utf-16"
    #: the diagnostics as the JSON publishDiagnostics carries, made in the
    #: lint worker (None: publish ``diagnostics`` through pygls)
    _published: Optional[List[Dict[str, Any]]] = field(default=None, repr=False)
    #: each diagnostic as JSON text (:func:`diagnostics_text`), what a push
    #: sends; ``published`` is read from it when asked for
    published_text: Optional[List[str]] = field(default=None, repr=False)
    _diagnostics: Optional[List[types.Diagnostic]] = field(default=None, repr=False)

    @property
    def published(self) -> Optional[List[Dict[str, Any]]]:
        if self._published is None and self.published_text is not None:
            from irilint.engine import _GC_PAUSE

            with _GC_PAUSE:  # (see diagnostics_json)
                self._published = json.loads("[%s]" % ",".join(self.published_text))
        return self._published

    @published.setter
    def published(self, value: Optional[List[Dict[str, Any]]]) -> None:
        self._published = value

    @property
    def diagnostics(self) -> List[types.Diagnostic]:
        """The findings as lsprotocol diagnostics (for pull reports and code
        actions: made when first asked for, since pushing does not need
        them)."""
        if self._diagnostics is None:
            self._diagnostics = [to_diagnostic(f, self.index, self.encoding, self.version, self.uri)
                                 for f in self.findings]
        return self._diagnostics

    @diagnostics.setter
    def diagnostics(self, value: List[types.Diagnostic]) -> None:
        self._diagnostics = value


#: (hover asks it too)
oversize = over_size_cap


def skipped_diagnostic(limit: int) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        message="irilint skipped this document: it is larger than max-file-size "
                "(%s bytes)" % format(limit, ","),
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )


class Linter:
    """Runs the engine for open documents and reports the results."""

    def __init__(self, server: "IrilintLanguageServer") -> None:
        self.server = server
        self._pending: Dict[str, asyncio.Task] = {}
        self._results: Dict[str, LintResult] = {}
        #: the lint running for a document: (text, settings generation, task)
        self._inflight: Dict[str, Any] = {}
        self._executor: Optional[DaemonExecutor] = None
        self._engine: Any = None
        #: per-document scanners that keep what the last scan found
        #: (IncrementalMarkdownScanner), dropped when the document closes
        self._scanners: Dict[str, Any] = {}
        #: per-document diagnostics texts of the last push, for the next
        #: (TextReuse; the lint worker's), dropped when the document closes
        self._texts: Dict[str, TextReuse] = {}
        #: gc.freeze() after the first lint (set by the server's main(); not
        #: when a test runs a server in its own process)
        self.freeze_after_first_lint = False
        #: counts the changes of findings across documents (pull result ids)
        self.project_generation = 0

    @property
    def pull(self) -> bool:
        return self.server.pull_diagnostics

    def _pool(self) -> DaemonExecutor:
        if self._executor is None:
            # a daemon thread: the server exits at once when its client is
            # gone, even in the middle of linting a large document
            self._executor = DaemonExecutor("irilint-lint")
        return self._executor

    def engine(self) -> Any:
        """The server's engine, with its per-reference memo (unchanged
        references are not re-checked on each change).  For the lint
        worker's thread only: the memo is not shared between threads."""
        if self._engine is None:
            from irilint.engine import Engine

            self._engine = Engine(memo_size=MEMO_ENTRIES)
        return self._engine

    def run_in_worker(self, fn: Any, *args: Any) -> "asyncio.Future[Any]":
        """Run ``fn`` in the lint worker (after the lints queued before it)."""
        return asyncio.get_running_loop().run_in_executor(self._pool(), fn, *args)

    def shutdown(self) -> None:
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        for running in list(self._inflight.values()):
            running[2].cancel()
        self._inflight.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False)

    # -- computing ---------------------------------------------------------
    def cached(self, doc: Document) -> Optional[LintResult]:
        r = self._results.get(doc.uri)
        if r is not None and r.version == doc.version and r.text is doc.text \
                and r.generation == self.server.settings.generation:
            return r
        return None

    async def result_for(self, doc: Document) -> LintResult:
        """The findings of the document's current version (cached)."""
        hit = self.cached(doc)
        if hit is not None:
            return hit
        await self.server.settings.wait_ready()
        hit = self.cached(doc)
        if hit is not None:
            return hit
        generation = self.server.settings.generation
        text = doc.text
        running = self._inflight.get(doc.uri)
        if running is None or running[0] is not text or running[1] != generation:
            task = asyncio.ensure_future(self._lint(doc, text, generation))
            running = (text, generation, task)
            self._inflight[doc.uri] = running
            task.add_done_callback(lambda t, uri=doc.uri, r=running: self._finished(uri, r))
        # shielded: a cancelled request (or a newer edit cancelling a pending
        # push) does not abort a lint that another request may still await;
        # a lint nobody wants any more is skipped or dropped (see _compute)
        return await asyncio.shield(running[2])

    def _finished(self, uri: str, running: Any) -> None:
        if self._inflight.get(uri) is running:
            del self._inflight[uri]
        task = running[2]
        if not task.cancelled() and task.exception() is not None:  # retrieved: no warning
            logger.debug("lint of %s failed: %s", uri, task.exception())

    async def _lint(self, doc: Document, text: str, generation: int) -> LintResult:
        settings = self.server.settings.settings_for(doc.path)
        version = doc.version
        encoding = self.server.documents.encoding
        index = doc._index if doc._index is not None and doc._index.text is text else None
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            self._pool(), self._compute, doc, text, version, generation, settings, encoding, index)
        if doc.text is text and self.server.documents.get(doc.uri) is doc:
            # still the same version, still open: keep its index and result
            doc._index = result.index
            if generation == self.server.settings.generation:
                self._results[doc.uri] = result
                # the document's own publication (or pull) shows its
                # findings across documents; the others changed are told
                changed = self.server.project_facts.document_linted(doc.uri, doc.path, result.facts)
                self.project_findings_changed(changed - {doc.uri})
        return result

    def _compute(self, doc: Document, text: str, version: Optional[int], generation: int,
                 settings: Any, encoding: str, index: Optional[LineIndex]) -> LintResult:
        if doc.text is not text or self.server.documents.get(doc.uri) is not doc:
            # edited (or closed) while this waited for the worker: nobody wants it
            return LintResult(doc.uri, version, generation, text, index or LineIndex(""),
                              skipped=True)
        index = index or LineIndex(text)
        result = LintResult(doc.uri, version, generation, text, index, settings=settings,
                            encoding=encoding)
        # include/exclude, the size cap, the scanner and the check are the
        # project's, as for ``irilint check``
        first = self._engine is None
        check = check_document(self.engine(), settings, doc.path, text, language_id=doc.language_id,
                               index=index, own_scanner=lambda s: self._document_scanner(doc.uri, s))
        if check.plan.excluded:
            result.skipped = True
            result.diagnostics, result.published = [], []
            return result
        if check.plan.too_large is not None:
            result.diagnostics = [skipped_diagnostic(check.plan.limit)]
            result.skipped = True
            return result
        result.scanner = check.scanner
        if first and self.freeze_after_first_lint:
            # The rules, scanners and their tables, loaded by this first
            # lint, live as long as the process: moved out of the cyclic
            # collector's sight, a full collection walks ~1,000 objects
            # instead of ~60,000 (in-process on lsp_bench's document under
            # load: 114 ms -> 0.4 ms), a stall in the middle of a change.
            gc.freeze()
        for message in check.errors:
            logger.error("%s: %s", doc.uri, message)
        result.facts = check.facts
        result.findings = list(check.findings)
        if self.pull:
            result.published = diagnostics_json(result.findings, index, encoding, version, doc.uri)
        else:
            reuse = self._texts.get(doc.uri)
            if reuse is None:
                reuse = self._texts[doc.uri] = TextReuse()
            result.published_text = diagnostics_text(result.findings, index, encoding, version, doc.uri,
                                                     reuse)
        return result

    def _document_scanner(self, uri: str, scanner: Any) -> Any:
        """The scanner to lint ``uri`` with: for Markdown, the document's own
        incremental scanner (after an edit only the changed blocks are
        scanned again: ~1 ms instead of ~6 ms on lsp_bench's 5,000 lines)."""
        from irilint.scanners.markdown import IncrementalMarkdownScanner, MarkdownScanner

        if type(scanner) is not MarkdownScanner:
            return scanner
        own = self._scanners.get(uri)
        if own is None:
            own = self._scanners[uri] = IncrementalMarkdownScanner()
        return own

    # -- push --------------------------------------------------------------
    def schedule(self, doc: Document, delay_ms: Optional[int] = None) -> None:
        """Lint ``doc`` after ``delay_ms`` (the debounce setting when None)
        and publish; replaces a pending run."""
        if self.pull:
            return
        old = self._pending.pop(doc.uri, None)
        if old is not None:
            old.cancel()
        task = asyncio.ensure_future(self._run(doc.uri, delay_ms))
        self._pending[doc.uri] = task
        task.add_done_callback(lambda t, uri=doc.uri: self._done(uri, t))

    def _done(self, uri: str, task: "asyncio.Task") -> None:
        if self._pending.get(uri) is task:
            del self._pending[uri]
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            logger.error("linting %s failed", uri, exc_info=(type(exc), exc, exc.__traceback__))
            self.server.log_to_client("irilint: linting %s failed: %s: %s" % (
                uri, type(exc).__name__, exc))

    async def _run(self, uri: str, delay_ms: Optional[int]) -> None:
        doc = self.server.documents.get(uri)
        if doc is None:
            return
        if delay_ms is None:
            await self.server.settings.wait_ready()
            delay_ms = int(getattr(self.server.settings.settings_for(doc.path), "debounce", 0) or 0)
        if delay_ms > 0:
            await asyncio.sleep(delay_ms / 1000.0)
        version, text = doc.version, doc.text
        result = await self.result_for(doc)
        current = self.server.documents.get(uri)
        if current is not doc or doc.version != version or doc.text is not text \
                or result.text is not text:
            logger.debug("dropping stale diagnostics for %s version %s", uri, version)
            return
        if result.generation != self.server.settings.generation:
            return  # settings changed meanwhile; a new run is scheduled
        self._publish(uri, result)

    def _publish(self, uri: str, result: LintResult) -> None:
        texts = result.published_text
        if texts is not None and not self.server.project_facts.findings_for(uri):
            self._send_text(uri, result.version, texts)
            return
        published = self.published(result)
        if published is None:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=result.diagnostics,
                                               version=result.version))
            return
        # Plain JSON: pygls' converter would take ~60 us per diagnostic on
        # the event loop, for every diagnostic of the document on every change.
        params: Dict[str, Any] = {"uri": uri, "diagnostics": published}
        if result.version is not None:
            params["version"] = result.version
        self.server.protocol._send_data({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                                         "params": params})

    def _send_text(self, uri: str, version: Optional[int], texts: List[str]) -> None:
        """publishDiagnostics with the diagnostics' JSON texts as they are:
        neither dicts to make nor JSON to encode on the event loop (a
        document dense with findings: ~9 -> ~2 us per diagnostic)."""
        protocol = self.server.protocol
        body = ('{"jsonrpc": "2.0", "method": "%s", "params": {"uri": %s, "diagnostics": [%s]%s}}' % (
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, json.dumps(uri), ", ".join(texts),
            ', "version": %d' % version if version is not None else "")).encode("utf-8")
        if protocol.writer is None:
            logger.error("Unable to send data, no available transport!")
            return
        header = ("Content-Length: %d\r\nContent-Type: %s; charset=%s\r\n\r\n" % (
            len(body), protocol.CONTENT_TYPE, protocol.CHARSET)).encode("ascii")
        written = protocol.writer.write(header + body)
        if inspect.isawaitable(written):  # an asynchronous writer (as pygls' _send_data allows)
            asyncio.ensure_future(written)

    def published(self, result: LintResult) -> Optional[List[Dict[str, Any]]]:
        """The diagnostics JSON of ``result`` with its findings across
        documents (irilint.rules.project_rules) in."""
        across = self.server.project_facts.findings_for(result.uri)
        if not across or (result.published_text is None and result._published is None):
            return result.published  # (with findings across: not read from the text, made anew)
        from irilint.rules.project_rules import with_project_findings

        return diagnostics_json(with_project_findings(result.findings, across), result.index,
                                result.encoding, result.version, result.uri)

    def project_findings_changed(self, uris: Any) -> None:
        """The findings across documents of the open documents ``uris``
        changed (another document was edited, opened or closed, or the
        workspace was indexed): publish them again, or ask a pulling
        client to pull."""
        if not uris:
            return
        self.project_generation += 1
        if self.pull:
            if self.server.client_supports_refresh():
                self.server.workspace_diagnostic_refresh(None)
            return
        for uri in uris:
            doc = self.server.documents.get(uri)
            result = self.cached(doc) if doc is not None else None
            if result is not None and not result.skipped:
                self._publish(uri, result)
            # else: a lint of its current version is due, and publishes them

    def relint_all(self) -> None:
        """Settings changed: push new results, or ask a pulling client to
        pull again."""
        self._results.clear()
        self.server.project_facts.settings_changed()
        if self.pull:
            if self.server.client_supports_refresh():
                self.server.workspace_diagnostic_refresh(None)
            return
        for doc in self.server.documents:
            self.schedule(doc, 0)

    def forget(self, uri: str) -> None:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._results.pop(uri, None)
        self._scanners.pop(uri, None)
        self._texts.pop(uri, None)
        if not self.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.project_findings_changed(self.server.project_facts.document_closed(uri))

    # -- pull --------------------------------------------------------------
    async def pull_report(self, params: types.DocumentDiagnosticParams) -> Any:
        uri = params.text_document.uri
        doc = self.server.documents.get(uri)
        if doc is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        for _attempt in range(3):
            version, text = doc.version, doc.text
            result = await self.result_for(doc)
            if self.server.documents.get(uri) is not doc:
                return types.RelatedFullDocumentDiagnosticReport(items=[])
            if doc.text is text and result.text is text:
                result_id = "%s:%s:%s" % (version, result.generation, self.project_generation)
                if params.previous_result_id == result_id:
                    return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
                published = self.published(result)
                if published is not None:
                    # what the converter makes of RelatedFullDocumentDiagnosticReport,
                    # without lsprotocol objects (see diagnostic_json)
                    return {"kind": "full", "resultId": result_id, "items": published}
                return types.RelatedFullDocumentDiagnosticReport(items=result.diagnostics,
                                                                 result_id=result_id)
        from pygls.exceptions import JsonRpcException

        raise JsonRpcException(message="the document changed while it was being checked",
                               code=types.LSPErrorCodes.ServerCancelled,
                               data={"retriggerRequest": True})
