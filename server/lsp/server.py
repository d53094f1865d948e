"""The irilint language server: creation, capabilities, handlers, ``main``.

(One module, over 600 lines: the handlers share the server's state -- its
documents, settings and negotiated capabilities -- and are registered on one
server object; the features' own work lives in the other modules here.)

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
* document links (:mod:`irilint.lsp.links`), inlay hints
  (:mod:`irilint.lsp.inlay_hints`), and the whole workspace: the command
  ``irilint.checkWorkspace`` and ``workspace/diagnostic``
  (:mod:`irilint.lsp.workspace`);
* ``workspace/configuration`` (once per workspace folder, with its
  ``scopeUri``), ``didChangeConfiguration``, ``didChangeWorkspaceFolders``
  and a watcher on configuration files (registered dynamically when
  allowed).

Before ``initialize`` every request is answered ``ServerNotInitialized``
and notifications are dropped; after ``shutdown`` only ``exit`` is taken.

Settings precedence is described in :mod:`irilint.lsp.settings`.

Every handler answers even when it fails: the exception is logged on
stderr (and in the client's log) and the request gets an empty result.

Bad input never stops the server and never leaves a request unanswered:
framing errors are recovered from by :mod:`irilint.lsp.transport`, and
messages that do not fit their method are answered by
:class:`IrilintProtocol`.  When the client goes away (end of input, broken
pipe) the server exits at once (see :func:`main` for the exit codes).
"""
from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import sys
import threading
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

from cattrs.errors import ClassValidationError
from cattrs.v import transform_error
from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage
from pygls.protocol.language_server import lsp_method

from irilint import __version__

from . import actions as actions_mod
from .convert_positions import choose_encoding, requested_encoding
from .diagnostics import Linter
from .documents import DocumentStore
from .settings import SECTION, WATCH_GLOBS, SettingsManager, is_config_file, workspace_folders
from .transport import send_error, serve_stdio, serve_tcp
from .workspace_index import WorkspaceFacts

logger = logging.getLogger("irilint.lsp")

SERVER_NAME = "irilint"
#: the "Check the workspace" command (irilint.lsp.workspace)
CHECK_WORKSPACE_COMMAND = "irilint.checkWorkspace"
#: LSP's error code for a request sent before ``initialize``
SERVER_NOT_INITIALIZED = int(types.ErrorCodes.ServerNotInitialized)


class InvalidMessage:
    """A JSON-RPC message whose members do not fit its method (or a
    response that does not fit its request): answered, not dropped."""

    def __init__(self, data: Dict[str, Any], error: BaseException) -> None:
        self.data = data
        self.error = error

    def describe(self) -> str:
        """One line: where the params are wrong and why."""
        if isinstance(self.error, ClassValidationError):
            try:
                where = list(transform_error(self.error))
                why = [str(e) for e in _leaves(self.error) if isinstance(e, ValueError)]
                return "; ".join(where + why)[:500]
            except Exception:  # pragma: no cover
                pass
        return ("%s: %s" % (type(self.error).__name__, self.error))[:500]


def _valid_id(msg_id: Any) -> bool:
    """JSON-RPC ids are strings or numbers (we take integers, as LSP does)."""
    return isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)


def _leaves(exc: BaseException) -> List[BaseException]:
    inner = getattr(exc, "exceptions", None)
    if not inner:
        return [exc]
    return [leaf for e in inner for leaf in _leaves(e)]


class IrilintProtocol(LanguageServerProtocol):
    """pygls' protocol, with our own document store and capability fix-ups.

    pygls' built-in didOpen/didChange/didClose would also maintain pygls'
    workspace documents, whose line splitting differs from LSP's; ours
    skip that and only call the registered handlers.

    Messages that pygls cannot structure are answered instead of dropped
    (pygls logs a traceback and never answers: the client waits forever):

    * a request whose ``params`` do not fit its method (``textDocument/hover``
      without ``position``, a negative ``character``): ``InvalidParams``
      (-32602); one with an invalid ``id`` or ``method``: ``InvalidRequest``
      (-32600, ``id`` null if the id itself is invalid);
    * a notification with bad ``params``: ignored, one error line on stderr
      (a dropped ``didChange`` leaves the server's copy of the document
      behind the client's until the next full change; nothing better can be
      done without the text);
    * a response to one of our requests that does not fit it: the request
      fails (instead of waiting for its timeout);
    * JSON that is not a JSON-RPC 2.0 message (no ``"jsonrpc": "2.0"``,
      an array, a number): ``InvalidRequest`` if it looks like a request
      (has an ``id``) or is not an object, else ignored with a warning;
    * a request after ``shutdown``: ``InvalidRequest``, as LSP says (pygls
      drops it silently);
    * a request before ``initialize``: ``ServerNotInitialized`` (-32002), and
      a notification before it (but ``exit``) is dropped, as LSP says.
    """

    #: an ``initialize`` request has come (LSP: until then every request but
    #: it gets ServerNotInitialized and every notification but ``exit`` is
    #: dropped; pygls would answer them)
    _initialize_seen = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: ids of the requests the client cancelled ($/cancelRequest)
        self.cancel_requested: set = set()

    def structure_message(self, data: Any) -> Any:  # type: ignore[override]
        # pygls' own, except that a failure gives an InvalidMessage (and one
        # line on stderr) instead of raising into the reader with a traceback
        if not isinstance(data, dict) or "jsonrpc" not in data:
            return data
        if "id" in data and not _valid_id(data["id"]):
            return InvalidMessage(data, ValueError("invalid id %r" % (data["id"],)))
        try:
            if data.get("method") == types.CANCEL_REQUEST:
                params = data.get("params")
                if not isinstance(params, dict) or not _valid_id(params.get("id")):
                    raise ValueError("$/cancelRequest needs the id of a request")
            if "id" in data:
                if "error" in data:
                    return self._converter.structure(data, types.ResponseErrorMessage)
                if "method" in data:
                    kind = self.get_message_type(data["method"]) or JsonRPCRequestMessage
                    return self._converter.structure(data, kind)
                kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
                return self._converter.structure(data, kind)
            kind = self.get_message_type(data.get("method", "")) or JsonRPCNotification
            return self._converter.structure(data, kind)
        except Exception as exc:
            return InvalidMessage(data, exc)

    def handle_message(self, message: Any) -> None:  # type: ignore[override]
        if isinstance(message, InvalidMessage):
            self._handle_invalid(message)
            return
        if not hasattr(message, "jsonrpc") or getattr(message, "jsonrpc", None) != "2.0":
            self._handle_not_jsonrpc(message)
            return
        method = getattr(message, "method", None)
        if not self._initialize_seen and method is not None:
            if method == types.INITIALIZE:
                self._initialize_seen = True
            elif hasattr(message, "id"):
                logger.warning("request %r before initialize: answered ServerNotInitialized", method)
                send_error(self, message.id, SERVER_NOT_INITIALIZED,
                           "the server is not initialized: %s not handled (send initialize first)"
                           % method)
                return
            elif method != types.EXIT:  # LSP: notifications before it are dropped, exit is not
                logger.warning("notification %r before initialize: ignored", method)
                return
        if method == types.CANCEL_REQUEST:
            # remembered for the handlers that pygls cannot cancel (a
            # command runs in a task of its own): they look here
            if len(self.cancel_requested) >= 1000:  # bounded: old ids are long answered
                self.cancel_requested.clear()
            self.cancel_requested.add(message.params.id)
        if self._shutdown and method is not None and hasattr(message, "id") and method != types.EXIT:
            logger.warning("request %r after shutdown: answered InvalidRequest", method)
            send_error(self, message.id, JsonRpcInvalidRequest.CODE,
                       "the server is shutting down: %s not handled" % method)
            return
        self._drop_finished_futures()
        super().handle_message(message)

    def _drop_finished_futures(self) -> None:
        # pygls keeps the future of every notification it runs as a
        # coroutine, generator or thread (under a fresh id) and never drops
        # it: one per didChange, a leak over a long session.  A finished
        # one has nothing left to answer or cancel.  Only pending ones stay,
        # so the scan is short; a copy, as workers may add to the table.
        futures = self._request_futures
        for key, f in list(futures.items()):
            if f.done():
                futures.pop(key, None)

    def _handle_invalid(self, bad: InvalidMessage) -> None:
        data = bad.data
        method = data.get("method")
        if "id" in data and method is not None:
            msg_id = data["id"]
            id_ok = _valid_id(msg_id)
            if id_ok and isinstance(method, str) and isinstance(bad.error, ClassValidationError):
                code, what = JsonRpcInvalidParams.CODE, "Invalid params"
            else:
                code, what = JsonRpcInvalidRequest.CODE, "Invalid request"
            logger.error("bad input from the client: %s for %r: %s", what.lower(), method,
                         bad.describe())
            send_error(self, msg_id if id_ok else None, code,
                       "%s for %s: %s" % (what, method, bad.describe()))
        elif method is not None:
            logger.error("bad input from the client: ignoring a %r notification with invalid "
                         "params: %s", method, bad.describe())
        elif "id" in data:
            logger.error("bad input from the client: a response that does not fit request %r: %s",
                         data.get("id"), bad.describe())
            try:
                future = self._request_futures.pop(data["id"], None)
            except TypeError:
                future = None
            if future is not None and not future.done():
                future.set_exception(JsonRpcInvalidParams("invalid response: " + bad.describe()))
        else:
            logger.error("bad input from the client: ignoring a message: %s", bad.describe())

    def _handle_not_jsonrpc(self, message: Any) -> None:
        if hasattr(message, "jsonrpc"):  # structured, but "jsonrpc" is not "2.0"
            message = {"jsonrpc": message.jsonrpc, **({"id": message.id} if hasattr(message, "id") else {})}
        if isinstance(message, dict):
            if "id" in message:
                logger.error("bad input from the client: not a JSON-RPC 2.0 request "
                             "(\"jsonrpc\": %r)", message.get("jsonrpc"))
                send_error(self, message.get("id"), JsonRpcInvalidRequest.CODE,
                           "Invalid request: not a JSON-RPC 2.0 message")
            else:
                logger.error("bad input from the client: ignoring a message that is not "
                             "JSON-RPC 2.0 (\"jsonrpc\": %r)", message.get("jsonrpc"))
            return
        logger.error("bad input from the client: a message that is not a JSON object (%s)",
                     type(message).__name__)
        send_error(self, None, JsonRpcInvalidRequest.CODE,
                   "Invalid request: a message must be a JSON object")

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
        self.project_facts = WorkspaceFacts(self)
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

    # -- transports: our reader instead of pygls' (see .transport) ------------
    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:  # type: ignore[override]
        self._stop_event = threading.Event()
        try:
            why = serve_stdio(self.protocol, stdin, stdout)
            if why == "eof":
                logger.warning("the client closed the connection (end of input) without "
                               "exit: stopping")
            else:
                logger.warning("the client is gone (cannot write to it): stopping")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int) -> None:  # type: ignore[override]
        self._stop_event = threading.Event()
        try:
            serve_tcp(self.protocol, host, port)
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

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
        ls.project_facts.start()
        await _register_dynamic(ls)

    @server.feature(types.SHUTDOWN)
    @guarded()
    def shutdown(ls: IrilintLanguageServer, params: Any) -> None:
        ls.shutdown_requested = True
        ls.linter.shutdown()
        ls.project_facts.shutdown()

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
        uri = params.text_document.uri
        if uri not in ls.documents:  # see documents.py: ignored
            logger.warning("didChange for %s, which is not open: ignored", uri)
            ls.log_to_client("irilint: didChange for a document that is not open: ignored (%s)"
                             % uri, types.MessageType.Warning)
            return
        doc = ls.documents.change(uri, params.text_document.version, params.content_changes)
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
        _refresh_inlay_hints(ls)

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
                                            workspace_diagnostics=True))
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

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))
    @guarded(list)
    async def document_link(ls: IrilintLanguageServer, params: types.DocumentLinkParams) -> Any:
        from .links import links

        return await links(ls, params)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @guarded(list)
    async def inlay_hint(ls: IrilintLanguageServer, params: types.InlayHintParams) -> Any:
        from .inlay_hints import hints

        return await hints(ls, params)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: IrilintLanguageServer, params: types.WorkspaceDiagnosticParams) -> Any:
        from .workspace import workspace_diagnostic as report

        try:
            return await report(ls, params)
        except (JsonRpcException, asyncio.CancelledError):
            raise
        except Exception as exc:
            _log_failure(ls, "workspace_diagnostic", exc)
            return types.WorkspaceDiagnosticReport(items=[])

    @server.command(CHECK_WORKSPACE_COMMAND)
    async def check_workspace(ls: IrilintLanguageServer, *args: Any) -> Any:
        from .workspace import check_workspace as run

        try:
            return await run(ls)
        except Exception as exc:
            _log_failure(ls, "checkWorkspace", exc)
            return None

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def did_change_workspace_folders(ls: IrilintLanguageServer,
                                           params: types.DidChangeWorkspaceFoldersParams) -> None:
        if ls.client_supports_configuration():  # each folder has its own settings
            await _fetch_configuration(ls)
            ls.linter.relint_all()
            _refresh_inlay_hints(ls)

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


def _refresh_inlay_hints(ls: IrilintLanguageServer) -> None:
    """Settings changed (``inlayHints`` may be among them): ask a client
    that allows it to request the hints again."""
    if ls._cap("workspace.inlay_hint.refresh_support", False):
        try:
            ls.workspace_inlay_hint_refresh(None)
        except Exception as exc:  # pragma: no cover - the client may be gone
            logger.info("workspace/inlayHint/refresh failed: %s", exc)


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
    # One item without a scope (the workspace's settings), then one per
    # folder with its URI as scopeUri (a multi-root workspace's per-folder
    # settings); LSP answers them in order.
    folders = workspace_folders(ls)
    items = [types.ConfigurationItem(section=SECTION)]
    items += [types.ConfigurationItem(section=SECTION, scope_uri=uri) for uri, _ in folders]
    try:
        values = await asyncio.wait_for(
            ls.workspace_configuration_async(types.ConfigurationParams(items=items)), 10.0)
    except Exception as exc:
        logger.warning("workspace/configuration failed: %s", exc)
        return
    values = list(values or [])
    value = values[0] if values else None
    ls.settings.set_editor_settings(value if isinstance(value, dict) else {})
    ls.settings.set_folder_settings({
        path: values[i + 1] for i, (_, path) in enumerate(folders)
        if i + 1 < len(values) and isinstance(values[i + 1], dict)})


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
    """Run the server on stdio (or TCP).  The exit code: 0 after
    ``shutdown`` + ``exit``; 1 after ``exit`` without ``shutdown`` (as LSP
    says), and 1 too when the client goes away without ``shutdown`` (end of
    input, broken pipe: the server exits by itself, at once); 2 for a bad
    ``--tcp`` address."""
    _setup_logging()
    try:
        address = parse_tcp(tcp) if tcp else None
    except ValueError as exc:
        print("irilint server: %s" % exc, file=sys.stderr)
        return 2
    server = create_server()
    # Everything imported so far (lsprotocol's types, pygls...) lives as
    # long as the process: out of the cyclic collector's sight (the rules
    # and scanners follow after the first lint, see Linter._compute).
    gc.freeze()
    server.linter.freeze_after_first_lint = True
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
