"""The irilint language server: creation, capabilities, handlers, ``main``.

Start it with ``python -m irilint.lsp`` (stdio) or
``python -m irilint.lsp --tcp HOST:PORT``; ``irilint server`` calls
:func:`main`.

Negotiated with the client:

* ``positionEncoding``: UTF-32 if the client offers it, else UTF-8, else
  UTF-16 (the default); a client that counts otherwise without announcing
  ``general.positionEncodings`` (Vim's ALE counts bytes) may ask with
  ``initializationOptions: {"positionEncoding": "utf-8"}``;
* text sync: incremental, applied to the server's own document store
  (:mod:`irilint.lsp.documents`), with LSP line ends only;
* diagnostics: pulled (``diagnosticProvider``) when the client supports
  ``textDocument/diagnostic``, else pushed -- never both;
* code actions with edits (``documentChanges`` or ``changes``), or
  ``Command`` objects for clients without code action literals;
* hover (Markdown, or plain text when the client only takes that);
* ``workspace/configuration``, ``didChangeConfiguration`` and a watcher on
  configuration files (registered dynamically when allowed).

Settings precedence is described in :mod:`irilint.lsp.settings`.

Every handler answers even when it fails: the exception is logged on
stderr (and in the client's log) and the request gets an empty result.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
import uuid
from typing import Any, Callable, Optional, Tuple

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from irilint import __version__

from . import actions as actions_mod
from .convert_positions import choose_encoding, requested_encoding
from .diagnostics import Linter
from .documents import DocumentStore
from .settings import SECTION, WATCH_GLOBS, SettingsManager, is_config_file

logger = logging.getLogger("irilint.lsp")

SERVER_NAME = "irilint"


class IrilintProtocol(LanguageServerProtocol):
    """pygls' protocol, with our own document store and capability fix-ups.

    pygls' built-in didOpen/didChange/didClose would also maintain pygls'
    workspace documents, whose line splitting differs from LSP's; ours
    skip that and only call the registered handlers."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):  # type: ignore[override]
        result = yield from super().lsp_initialize(params)
        self._server.adjust_capabilities(result.capabilities)  # type: ignore[attr-defined]
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):  # type: ignore[override]
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):  # type: ignore[override]
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):  # type: ignore[override]
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)
        if handler is not None:
            yield handler, (params,), None


class IrilintLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(SERVER_NAME, __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=IrilintProtocol)
        self.documents = DocumentStore()
        self.settings = SettingsManager(report=self._report_config_error)
        self.linter = Linter(self)
        self.pull_diagnostics = False
        self.shutdown_requested = False
        self.exit_requested = False

    # -- capabilities --------------------------------------------------------
    def _cap(self, path: str, default: Any = None) -> Any:
        caps = self.protocol.client_capabilities if hasattr(self.protocol, "client_capabilities") else None
        if caps is None:
            return default
        return get_capability(caps, path, default)

    def client_supports_document_changes(self) -> bool:
        return bool(self._cap("workspace.workspace_edit.document_changes", False))

    def client_supports_code_action_literals(self) -> bool:
        caps = getattr(self.protocol, "client_capabilities", None)
        if caps is None or caps == types.ClientCapabilities():
            return True  # a client that says nothing: literals are LSP 3.8+
        return self._cap("text_document.code_action.code_action_literal_support") is not None

    def client_supports_markdown_hover(self) -> bool:
        formats = self._cap("text_document.hover.content_format")
        if not formats:
            return True
        return types.MarkupKind.Markdown in formats or "markdown" in formats

    def client_supports_refresh(self) -> bool:
        return bool(self._cap("workspace.diagnostics.refresh_support", False))

    def client_supports_configuration(self) -> bool:
        return bool(self._cap("workspace.configuration", False))

    def adjust_capabilities(self, caps: types.ServerCapabilities) -> None:
        """Capabilities pygls cannot express: our position encoding, and the
        diagnostic provider only for pulling clients."""
        caps.position_encoding = self.documents.encoding
        if not self.pull_diagnostics:
            caps.diagnostic_provider = None

    def _report_config_error(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning, message="irilint: " + message))

    def log_to_client(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # pragma: no cover - the client may be gone
            pass


# ---------------------------------------------------------------------------
# Handler guard: never leave a request unanswered.


def guarded(fallback: Callable[[], Any] = lambda: None) -> Callable[[Callable], Callable]:
    def decorate(fn: Callable) -> Callable:
        if asyncio.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(ls: IrilintLanguageServer, params: Any) -> Any:
                try:
                    return await fn(ls, params)
                except (JsonRpcException, asyncio.CancelledError):
                    raise
                except Exception as exc:
                    _log_failure(ls, fn.__name__, exc)
                    return fallback()

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(ls: IrilintLanguageServer, params: Any) -> Any:
            try:
                return fn(ls, params)
            except JsonRpcException:
                raise
            except Exception as exc:
                _log_failure(ls, fn.__name__, exc)
                return fallback()

        return wrapper

    return decorate


def _log_failure(ls: IrilintLanguageServer, name: str, exc: BaseException) -> None:
    logger.error("handler %s failed", name, exc_info=(type(exc), exc, exc.__traceback__))
    ls.log_to_client("irilint: %s failed: %s: %s" % (name, type(exc).__name__, exc))


# ---------------------------------------------------------------------------


def create_server() -> IrilintLanguageServer:
    server = IrilintLanguageServer()

    @server.feature(types.INITIALIZE)
    @guarded()
    def initialize(ls: IrilintLanguageServer, params: types.InitializeParams) -> None:
        caps = params.capabilities
        ls.documents.encoding = choose_encoding(caps, requested_encoding(params.initialization_options))
        ls.pull_diagnostics = get_capability(caps, "text_document.diagnostic") is not None
        root = None
        if params.workspace_folders:
            from .documents import uri_to_path

            root = uri_to_path(params.workspace_folders[0].uri)
        if root is None and params.root_uri:
            from .documents import uri_to_path

            root = uri_to_path(params.root_uri)
        ls.settings.root = root or params.root_path
        ls.settings.set_initialization_options(params.initialization_options)
        if not ls.client_supports_configuration():
            ls.settings.mark_ready()

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(ls: IrilintLanguageServer, params: types.InitializedParams) -> None:
        if ls.client_supports_configuration():
            try:
                await _fetch_configuration(ls)
            finally:
                late = ls.settings.gave_up_waiting
                ls.settings.mark_ready()
            if late:  # documents were linted with the settings known then
                ls.linter.relint_all()
        await _register_dynamic(ls)

    @server.feature(types.SHUTDOWN)
    @guarded()
    def shutdown(ls: IrilintLanguageServer, params: Any) -> None:
        ls.shutdown_requested = True
        ls.linter.shutdown()

    @server.feature(types.EXIT)
    @guarded()
    def exit_(ls: IrilintLanguageServer, params: Any) -> None:
        ls.exit_requested = True

    # -- documents -------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: IrilintLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        doc = ls.documents.open(td.uri, td.text, td.version, td.language_id)
        ls.linter.schedule(doc, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: IrilintLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.documents.change(params.text_document.uri, params.text_document.version,
                                  params.content_changes)
        ls.linter.schedule(doc)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(ls: IrilintLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.documents.get(uri)
        if doc is not None and is_config_file(doc.path):
            ls.settings.files_changed()
            ls.linter.relint_all()
            return
        if doc is not None:
            ls.linter.schedule(doc, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: IrilintLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.documents.close(uri)
        ls.linter.forget(uri)

    # -- settings --------------------------------------------------------
    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def did_change_configuration(ls: IrilintLanguageServer,
                                       params: types.DidChangeConfigurationParams) -> None:
        if ls.client_supports_configuration():
            await _fetch_configuration(ls)
        elif isinstance(params.settings, dict) and params.settings:
            ls.settings.set_editor_settings(params.settings)
        else:
            return
        ls.linter.relint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def did_change_watched_files(ls: IrilintLanguageServer,
                                 params: types.DidChangeWatchedFilesParams) -> None:
        from .documents import uri_to_path

        if any(is_config_file(uri_to_path(change.uri)) for change in params.changes):
            ls.settings.files_changed()
            ls.linter.relint_all()

    # -- features --------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                    types.DiagnosticOptions(identifier=SERVER_NAME, inter_file_dependencies=False,
                                            workspace_diagnostics=False))
    @guarded(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def diagnostic(ls: IrilintLanguageServer, params: types.DocumentDiagnosticParams) -> Any:
        return await ls.linter.pull_report(params)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=list(actions_mod.KINDS),
                                            resolve_provider=False))
    @guarded(list)
    async def code_action(ls: IrilintLanguageServer, params: types.CodeActionParams) -> Any:
        return await actions_mod.code_actions(ls, params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    def hover(ls: IrilintLanguageServer, params: types.HoverParams) -> Any:
        from .hover import hover as make_hover

        return make_hover(ls, params)

    @server.command(actions_mod.APPLY_EDIT_COMMAND)
    async def apply_edit(ls: IrilintLanguageServer, *args: Any) -> Any:
        try:
            if not args:
                return None
            return await actions_mod.apply_edit_command(ls, args[0])
        except Exception as exc:
            _log_failure(ls, "applyEdit", exc)
            return None

    return server


async def _register_dynamic(ls: IrilintLanguageServer) -> None:
    registrations = []
    if ls._cap("workspace.did_change_watched_files.dynamic_registration", False):
        registrations.append(types.Registration(
            id=str(uuid.uuid4()), method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS])))
    if ls._cap("workspace.did_change_configuration.dynamic_registration", False):
        registrations.append(types.Registration(
            id=str(uuid.uuid4()), method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION)))
    if not registrations:
        return
    try:
        await asyncio.wait_for(
            ls.client_register_capability_async(types.RegistrationParams(registrations=registrations)),
            10.0)
    except Exception as exc:  # a client may refuse; the server works without
        logger.info("dynamic registration failed: %s", exc)


async def _fetch_configuration(ls: IrilintLanguageServer) -> None:
    try:
        values = await asyncio.wait_for(
            ls.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section=SECTION)])), 10.0)
    except Exception as exc:
        logger.warning("workspace/configuration failed: %s", exc)
        return
    value = values[0] if values else None
    ls.settings.set_editor_settings(value if isinstance(value, dict) else {})


def parse_tcp(spec: str) -> Tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6, or just ``PORT``)."""
    host, sep, port = spec.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", spec
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise ValueError("expected HOST:PORT, got %r" % spec) from None
    if not 0 <= number <= 65535:
        raise ValueError("port out of range: %r" % spec)
    return host, number


def _setup_logging() -> None:
    level = os.environ.get("IRILINT_LOG_LEVEL", "WARNING").upper()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("irilint-lsp %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level, logging.WARNING))


def main(tcp: Optional[str] = None) -> int:
    """Run the server on stdio (or TCP); the exit code: 0 after a clean
    ``shutdown`` + ``exit``, 1 otherwise (as LSP says)."""
    _setup_logging()
    try:
        address = parse_tcp(tcp) if tcp else None
    except ValueError as exc:
        print("irilint server: %s" % exc, file=sys.stderr)
        return 2
    server = create_server()
    try:
        if address is not None:
            server.start_tcp(*address)
        else:
            server.start_io()
    except SystemExit:  # pygls exits from the "exit" handler (TCP)
        pass
    except KeyboardInterrupt:
        pass
    finally:
        server.linter.shutdown()
    sys.stderr.flush()
    return 0 if server.shutdown_requested else 1
