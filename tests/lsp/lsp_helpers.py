"""Helpers for the language server tests: a client capability builder,
bounded waits, and an independent position model to check against."""
from __future__ import annotations

import asyncio
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence

from lsprotocol import types
from pytest_lsp import LanguageClient

SERVER_COMMAND = [sys.executable, "-m", "irilint.lsp"]
TIMEOUT = 20.0


def instrument(client: LanguageClient) -> None:
    """Keep every publishDiagnostics (with its version) in
    ``client.published``, besides pytest-lsp's latest-per-URI; answer and
    record ``client/registerCapability`` and ``workspace/applyEdit``."""
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params.edit)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def recorder(params: types.PublishDiagnosticsParams) -> Any:
        client.published.append(params)  # type: ignore[attr-defined]
        return original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = recorder


async def shutdown(client: LanguageClient) -> None:
    if client.capabilities is None or client.error is not None:
        return
    server = getattr(client, "_server", None)
    if server is not None and server.returncode is not None:
        return  # the test shut it down itself
    try:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    except Exception:  # the test failed already; do not mask it
        pass


def capabilities(
    *,
    encodings: Optional[Sequence[str]] = ("utf-16",),
    pull: bool = False,
    document_changes: bool = True,
    literals: bool = True,
    configuration: bool = True,
    watch_registration: bool = False,
) -> types.ClientCapabilities:
    """A modern client's capabilities, with knobs."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=list(encodings) if encodings is not None else None),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[
                        "", "quickfix", "refactor", "refactor.rewrite", "source",
                        "source.fixAll"])) if literals else None,
                is_preferred_support=True,
                data_support=True,
            ),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                code_description_support=True, data_support=True, version_support=True),
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
        ),
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=document_changes),
            configuration=configuration,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=watch_registration),
        ),
    )


async def start(client: LanguageClient, caps: Optional[types.ClientCapabilities] = None,
                init: Optional[Dict[str, Any]] = None, root: Any = None,
                config: Optional[Dict[str, Any]] = None) -> types.InitializeResult:
    """Initialize the session (debounce 0 unless ``init`` says otherwise)."""
    options = {"debounce": 0}
    options.update(init or {})
    if config is not None:
        client.set_configuration(config, section="irilint")
    params = types.InitializeParams(
        capabilities=caps if caps is not None else capabilities(),
        initialization_options=options,
        root_uri=root.as_uri() if root is not None else None,
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="root")] if root else None,
    )
    return await asyncio.wait_for(client.initialize_session(params), TIMEOUT)


def open_doc(client: LanguageClient, uri: str, text: str, language_id: str = "plaintext",
             version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version,
                                             text=text)))


async def wait_for(condition: Callable[[], Any], timeout: float = TIMEOUT, what: str = "condition") -> Any:
    """Poll ``condition`` until it is truthy; fail after ``timeout``."""
    async def poll() -> Any:
        while True:
            value = condition()
            if value:
                return value
            await asyncio.sleep(0.02)

    try:
        return await asyncio.wait_for(poll(), timeout)
    except asyncio.TimeoutError:
        raise AssertionError("timed out waiting for %s" % what) from None


async def diagnostics_for(client: LanguageClient, uri: str, version: Optional[int] = None,
                          timeout: float = TIMEOUT) -> List[types.Diagnostic]:
    """The diagnostics published for ``uri`` (for ``version`` if given)."""
    def latest() -> Any:
        for p in reversed(client.published):  # type: ignore[attr-defined]
            if p.uri == uri and (version is None or p.version == version):
                return [p]
        return None

    found = await wait_for(latest, timeout, "diagnostics of %s v%s" % (uri, version))
    return list(found[0].diagnostics)


async def request(awaitable: Any, timeout: float = TIMEOUT) -> Any:
    return await asyncio.wait_for(awaitable, timeout)


async def code_actions(client: LanguageClient, uri: str, rng: types.Range,
                       diagnostics: Sequence[types.Diagnostic] = (),
                       only: Optional[Sequence[str]] = None) -> List[Any]:
    result = await request(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=list(diagnostics),
                                        only=list(only) if only else None))))
    return list(result or [])


def rng(line: int, char: int, end_line: Optional[int] = None, end_char: Optional[int] = None) -> types.Range:
    return types.Range(start=types.Position(line=line, character=char),
                       end=types.Position(line=end_line if end_line is not None else line,
                                          character=end_char if end_char is not None else char))


# -- an independent position model (not irilint.lines), for checking ------

_EOL = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> List[int]:
    return [0] + [m.end() for m in _EOL.finditer(text)]


def units(s: str, encoding: str) -> int:
    if encoding == "utf-16":
        return len(s.encode("utf-16-le")) // 2
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    return len(s)


def pos_of(text: str, offset: int, encoding: str) -> types.Position:
    starts = line_starts(text)
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return types.Position(line=line, character=units(text[starts[line]:offset], encoding))


def offset_of(text: str, pos: types.Position, encoding: str) -> int:
    starts = line_starts(text)
    start = starts[pos.line]
    end = starts[pos.line + 1] if pos.line + 1 < len(starts) else len(text)
    content = text[start:end]
    content = content[: len(content) - len(re.search(r"(\r\n|\r|\n)?\Z", content).group())]
    n = 0
    for i, ch in enumerate(content):
        if n >= pos.character:
            return start + i
        n += units(ch, encoding)
    return start + len(content)


def apply_text_edits(text: str, edits: Sequence[types.TextEdit], encoding: str = "utf-16") -> str:
    spans = []
    for e in edits:
        a = offset_of(text, e.range.start, encoding)
        b = offset_of(text, e.range.end, encoding)
        spans.append((a, b, e.new_text))
    for a, b, new in sorted(spans, key=lambda t: (t[0], t[1]), reverse=True):
        text = text[:a] + new + text[b:]
    return text


def edits_of(action: types.CodeAction, uri: str) -> List[types.TextEdit]:
    edit = action.edit
    assert edit is not None, "action %r has no edit" % action.title
    if edit.document_changes:
        out: List[types.TextEdit] = []
        for change in edit.document_changes:
            assert change.text_document.uri == uri
            out.extend(change.edits)
        return out
    assert edit.changes is not None
    return list(edit.changes[uri])


def apply_action(text: str, action: types.CodeAction, uri: str, encoding: str = "utf-16") -> str:
    return apply_text_edits(text, edits_of(action, uri), encoding)


def expected_findings(text: str, path: Optional[str] = None, language_id: Optional[str] = None,
                      settings: Any = None) -> List[Any]:
    """What the engine says in-process (to compare positions with)."""
    from irilint.engine import Engine
    from irilint.scanners import scanner_for

    return Engine().check_text(text, path=path, language_id=language_id, settings=settings,
                               scanner=scanner_for(path=path, language_id=language_id)).findings


# -- a raw JSON-RPC client over the server's stdio ------------------------
#
# pytest-lsp's client only sends well-formed messages; the stress tests need
# to send garbage too, so this one writes bytes.  It reads the server's
# stdout with Content-Length framing in a background task, answers nothing
# on its own (initialize it with capabilities that make the server ask
# nothing: no ``workspace.configuration``), and drains stderr so that a
# chatty server never blocks on a full pipe.

import json as _json
import os as _os


def frame(message: Any) -> bytes:
    """A message (dict, or already-encoded body bytes/str) with its header."""
    if isinstance(message, (bytes, bytearray)):
        body = bytes(message)
    elif isinstance(message, str):
        body = message.encode("utf-8")
    else:
        body = _json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def proc_status(pid: int) -> Dict[str, str]:
    """/proc/<pid>/status as a dict ({} when /proc is not there -- not
    Linux -- or the process is gone)."""
    out: Dict[str, str] = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                out[key] = value.strip()
    except OSError:
        return {}
    return out


def rss_kib(pid: int, peak: bool = False) -> Optional[int]:
    """The resident set size of a process (KiB; ``peak``: the high-water
    mark, VmHWM), from /proc; None without /proc or once the process is
    gone."""
    value = proc_status(pid).get("VmHWM" if peak else "VmRSS")
    return int(value.split()[0]) if value else None


def bounded(seconds: float) -> Callable[[Callable], Callable]:
    """Fail an async test that takes longer than ``seconds`` (a hang guard,
    not a speed check: the bounds are generous)."""
    import functools

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return await asyncio.wait_for(fn(*args, **kwargs), seconds)
            except asyncio.TimeoutError:
                raise AssertionError("%s did not finish within %ss" % (fn.__name__, seconds)) from None

        return wrapper

    return decorate


class RawServer:
    """The language server as a subprocess, spoken to in raw bytes."""

    def __init__(self, command: Sequence[str] = tuple(SERVER_COMMAND),
                 env: Optional[Dict[str, str]] = None) -> None:
        self.command = list(command)
        self.env = env
        self.proc: Optional[asyncio.subprocess.Process] = None
        #: every message read from the server, in order
        self.messages: List[Dict[str, Any]] = []
        #: bytes on stdout that were not a well-framed JSON message
        self.junk: List[bytes] = []
        self.stderr = bytearray()
        self._next_id = 0
        self._tasks: List[asyncio.Task] = []
        self._arrived = asyncio.Event()

    # -- process ---------------------------------------------------------
    async def start(self) -> "RawServer":
        env = dict(_os.environ)
        env.update(self.env or {})
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, limit=2 ** 26)
        self._tasks = [asyncio.ensure_future(self._read_stdout()),
                       asyncio.ensure_future(self._read_stderr())]
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def returncode(self) -> Optional[int]:
        return self.proc.returncode if self.proc is not None else None

    def rss_kib(self, peak: bool = False) -> Optional[int]:
        return rss_kib(self.pid, peak)

    async def wait_exit(self, timeout: float = TIMEOUT) -> int:
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError("the server did not exit within %ss" % timeout) from None

    async def close_stdin(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        if not self.proc.stdin.is_closing():
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.stdin.wait_closed(), TIMEOUT)
        except (BrokenPipeError, ConnectionResetError):
            pass

    async def stop(self) -> None:
        """Kill the process if it is still there; end the reader tasks."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await asyncio.wait_for(self.proc.wait(), TIMEOUT)
        for task in self._tasks:
            try:
                await asyncio.wait_for(task, TIMEOUT)
            except Exception:
                task.cancel()

    # -- reading ---------------------------------------------------------
    async def _read_stdout(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        while True:
            length: Optional[int] = None
            while True:  # headers
                line = await out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    try:
                        length = int(value.strip())
                    except ValueError:
                        self.junk.append(line)
                elif not _:
                    self.junk.append(line)
            if length is None:
                continue
            try:
                body = await out.readexactly(length)
            except asyncio.IncompleteReadError as exc:
                self.junk.append(exc.partial)
                return
            try:
                self.messages.append(_json.loads(body))
            except ValueError:
                self.junk.append(body)
            self._arrived.set()

    async def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while True:
            chunk = await self.proc.stderr.read(65536)
            if not chunk:
                return
            self.stderr.extend(chunk)

    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", "replace")

    # -- writing ---------------------------------------------------------
    async def write(self, data: bytes) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(data)
        await asyncio.wait_for(self.proc.stdin.drain(), TIMEOUT * 6)

    async def send(self, message: Any) -> None:
        await self.write(frame(message))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def notify(self, method: str, params: Any = None) -> None:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)

    async def send_request(self, method: str, params: Any = None,
                           msg_id: Any = None) -> Any:
        msg_id = self.new_id() if msg_id is None else msg_id
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return msg_id

    async def wait_message(self, match: Callable[[Dict[str, Any]], Any],
                           timeout: float = TIMEOUT, what: str = "a message",
                           start: int = 0) -> Dict[str, Any]:
        """The first message (from index ``start``) that ``match`` accepts."""
        async def poll() -> Dict[str, Any]:
            seen = start
            while True:
                for m in self.messages[seen:]:
                    if match(m):
                        return m
                seen = max(seen, len(self.messages))
                self._arrived.clear()
                if self.returncode is not None and self._tasks and self._tasks[0].done():
                    raise AssertionError("the server exited (%s) before %s; stderr:\n%s"
                                         % (self.returncode, what, self.stderr_text()[-4000:]))
                try:
                    await asyncio.wait_for(self._arrived.wait(), 0.5)
                except asyncio.TimeoutError:
                    pass

        try:
            return await asyncio.wait_for(poll(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError("timed out (%ss) waiting for %s; stderr tail:\n%s"
                                 % (timeout, what, self.stderr_text()[-4000:])) from None

    async def response(self, msg_id: Any, timeout: float = TIMEOUT) -> Dict[str, Any]:
        return await self.wait_message(
            lambda m: m.get("id") == msg_id and "method" not in m and ("result" in m or "error" in m),
            timeout, "the response to request %r" % (msg_id,))

    async def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Dict[str, Any]:
        """Send a request and wait for its response (the whole message)."""
        return await self.response(await self.send_request(method, params), timeout)

    # -- LSP conveniences --------------------------------------------------
    async def initialize(self, options: Optional[Dict[str, Any]] = None,
                         capabilities: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        init = {"debounce": 0}
        init.update(options or {})
        reply = await self.call("initialize", {
            "processId": _os.getpid(), "rootUri": None,
            "capabilities": capabilities if capabilities is not None else {},
            "initializationOptions": init})
        assert "result" in reply, reply
        await self.notify("initialized", {})
        return reply["result"]

    async def open(self, uri: str, text: str, version: int = 1, language_id: str = "plaintext") -> None:
        await self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language_id, "version": version, "text": text}})

    async def change(self, uri: str, version: int, changes: List[Dict[str, Any]]) -> None:
        await self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    async def hover(self, uri: str, line: int, character: int, timeout: float = TIMEOUT) -> Dict[str, Any]:
        return await self.call("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
            timeout)

    def published(self, uri: str) -> List[Dict[str, Any]]:
        return [m["params"] for m in self.messages
                if m.get("method") == "textDocument/publishDiagnostics"
                and m.get("params", {}).get("uri") == uri]

    async def diagnostics(self, uri: str, version: Optional[int] = None,
                          timeout: float = TIMEOUT) -> Dict[str, Any]:
        """The first publishDiagnostics params for ``uri`` (and ``version``)."""
        message = await self.wait_message(
            lambda m: m.get("method") == "textDocument/publishDiagnostics"
            and m["params"].get("uri") == uri
            and (version is None or m["params"].get("version") == version),
            timeout, "diagnostics of %s v%s" % (uri, version))
        return message["params"]

    async def shutdown_and_exit(self, timeout: float = TIMEOUT) -> int:
        reply = await self.call("shutdown", None, timeout)
        assert "error" not in reply, reply
        await self.notify("exit")
        return await self.wait_exit(timeout)
