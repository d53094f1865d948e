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
