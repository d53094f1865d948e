"""Protocol conformance: before initialize, after shutdown, per-folder
settings (scopeUri), the position encoding a client may ask for, and
capabilities that list only what the server does."""
from __future__ import annotations

import json
import pathlib
from typing import Any, Dict

import pytest
import pytest_asyncio
from lsp_helpers import (
    RawServer,
    apply_action,
    bounded,
    capabilities,
    code_actions,
    diagnostics_for,
    open_doc,
    pos_of,
    request,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601

# Hebrew, Arabic, CJK and an emoji before an IRI holding a bidi control
TEXT = "שלום مرحبا 文字 😀 https://example.com/a\u202eb.txt\n"


@pytest_asyncio.fixture
async def raw():
    server = await RawServer().start()
    try:
        yield server
    finally:
        await server.stop()


def open_params(uri: str, text: str) -> Dict[str, Any]:
    return {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}


@bounded(60)
async def test_requests_before_initialize_get_server_not_initialized(raw: RawServer, tmp_path):
    uri = (tmp_path / "a.txt").as_uri()
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 22}}
    for method, params in (("textDocument/hover", hover),
                           ("textDocument/documentLink", {"textDocument": {"uri": uri}}),
                           ("workspace/executeCommand", {"command": "irilint.checkWorkspace"}),
                           ("shutdown", None)):
        reply = await raw.call(method, params)
        assert reply.get("error", {}).get("code") == SERVER_NOT_INITIALIZED, (method, reply)
    # notifications before initialize are dropped: this document is never opened
    await raw.notify("textDocument/didOpen", open_params(uri, TEXT))
    # "shutdown" above did not shut it down: initialize works
    await raw.initialize()
    reply = await raw.hover(uri, 0, 22)
    assert reply.get("result") is None and "error" not in reply, reply
    assert raw.published(uri) == []
    # after initialize the same requests are answered
    await raw.open(uri, TEXT)
    assert "IRI101" in [d["code"] for d in (await raw.diagnostics(uri, 1))["diagnostics"]]
    assert (await raw.hover(uri, 0, 22))["result"] is not None
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_after_shutdown_only_exit(raw: RawServer, tmp_path):
    await raw.initialize()
    uri = (tmp_path / "a.txt").as_uri()
    await raw.open(uri, TEXT)
    await raw.diagnostics(uri, 1)
    assert "error" not in await raw.call("shutdown")
    for method, params in (("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 0, "character": 22}}),
                           ("textDocument/documentLink", {"textDocument": {"uri": uri}}),
                           ("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
                               "start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}}),
                           ("workspace/executeCommand", {"command": "irilint.checkWorkspace"}),
                           ("shutdown", None)):
        reply = await raw.call(method, params)
        assert reply.get("error", {}).get("code") == INVALID_REQUEST, (method, reply)
    await raw.notify("exit")
    assert await raw.wait_exit() == 0


async def test_per_folder_settings_through_scope_uri(client: LanguageClient, tmp_path):
    strict, relaxed = tmp_path / "strict", tmp_path / "relaxed"
    strict.mkdir()
    relaxed.mkdir()
    client.set_configuration({"debounce": 0}, section="irilint")
    client.set_configuration({"debounce": 0, "ignore": ["bidi"]}, section="irilint",
                             scope_uri=relaxed.as_uri())
    await request(client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), initialization_options={"debounce": 0},
        workspace_folders=[types.WorkspaceFolder(uri=strict.as_uri(), name="strict"),
                           types.WorkspaceFolder(uri=relaxed.as_uri(), name="relaxed")])))
    codes = {}
    for folder in (strict, relaxed):
        uri = (folder / "a.txt").as_uri()
        open_doc(client, uri, TEXT)
        codes[folder.name] = sorted(str(d.code) for d in await diagnostics_for(client, uri, version=1))
    assert "IRI101" in codes["strict"]
    assert not any(c.startswith("IRI1") for c in codes["relaxed"])


async def test_emacs_lsp_mode_counts_code_points(client: LanguageClient, tmp_path):
    """lsp-mode announces no position encoding and counts code points: with
    initializationOptions.positionEncoding "utf-32" positions after an emoji
    are right and a quick fix edits the right characters."""
    caps = capabilities(encodings=None)
    result = await request(client.initialize_session(types.InitializeParams(
        capabilities=caps, initialization_options={"debounce": 0, "positionEncoding": "utf-32"})))
    assert result.capabilities.position_encoding == "utf-32"
    uri = (tmp_path / "a.txt").as_uri()
    text = "😀😀 https://example.com/%e2%80%aeb.txt\n"
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, version=1)
    by_code = {str(d.code): d for d in diags}
    lowercase = by_code["IRI402"]
    start = text.index("%e2")
    assert lowercase.range.start == pos_of(text, start, "utf-32") == types.Position(line=0, character=23)
    actions = await code_actions(client, uri, lowercase.range, [lowercase])
    fix = next(a for a in actions if a.kind == "quickfix" and a.edit is not None
               and "uppercase" in a.title.lower())
    fixed = apply_action(text, fix, uri, "utf-32")
    assert fixed == "😀😀 https://example.com/%E2%80%AEb.txt\n"


async def test_without_the_option_positions_are_utf16(client: LanguageClient, tmp_path):
    result = await request(client.initialize_session(types.InitializeParams(
        capabilities=capabilities(encodings=None), initialization_options={"debounce": 0})))
    assert result.capabilities.position_encoding == "utf-16"


# -- each advertised capability is answered ------------------------------

def _requests_for(caps: Dict[str, Any], uri: str):
    """For each advertised capability, a request (or notification whose
    effect is observable) that exercises it."""
    doc = {"textDocument": {"uri": uri}}
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
    pos = {"line": 0, "character": 22}
    table = {
        "hoverProvider": [("textDocument/hover", {**doc, "position": pos})],
        "codeActionProvider": [("textDocument/codeAction", {**doc, "range": whole,
                                                            "context": {"diagnostics": []}})],
        "documentLinkProvider": [("textDocument/documentLink", doc)],
        "inlayHintProvider": [("textDocument/inlayHint", {**doc, "range": whole})],
        "diagnosticProvider": [("textDocument/diagnostic", doc), ("workspace/diagnostic",
                                                                  {"previousResultIds": []})],
        "executeCommandProvider": [("workspace/executeCommand", {"command": c, "arguments": []})
                                   for c in caps.get("executeCommandProvider", {}).get("commands", [])],
    }
    return table


@pytest.mark.parametrize("pull", [False, True])
@bounded(90)
async def test_every_advertised_capability_is_answered(raw: RawServer, tmp_path, pull):
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    client_caps: Dict[str, Any] = {"window": {"workDoneProgress": False}}
    if pull:
        client_caps["textDocument"] = {"diagnostic": {}}
    reply = await raw.call("initialize", {"processId": None, "rootUri": tmp_path.as_uri(),
                                          "capabilities": client_caps,
                                          "initializationOptions": {"debounce": 0}})
    caps = reply["result"]["capabilities"]
    await raw.notify("initialized", {})
    uri = (tmp_path / "a.txt").as_uri()
    await raw.open(uri, TEXT)
    table = _requests_for(caps, uri)
    # what the server does without a request of its own
    known = set(table) | {"positionEncoding", "textDocumentSync", "workspace"}
    assert set(caps) <= known, "advertised but not tested: %s" % (set(caps) - known)
    assert ("diagnosticProvider" in caps) == pull  # pushing clients are not offered pulls
    for name, calls in table.items():
        if name not in caps:
            continue
        assert calls, name
        for method, params in calls:
            answer = await raw.call(method, params)
            assert "error" not in answer, (name, method, answer)
    # textDocumentSync: an opened document is checked (pushed, or pulled)
    if not pull:
        assert "IRI101" in [d["code"] for d in (await raw.diagnostics(uri, 1))["diagnostics"]]
    # workspace.workspaceFolders.changeNotifications: a change is taken
    # (the server asks for the new folders' settings when it can; this
    # client cannot, so it only has to keep answering)
    folders = caps["workspace"]["workspaceFolders"]
    assert folders == {"supported": True, "changeNotifications": True}
    await raw.notify("workspace/didChangeWorkspaceFolders", {"event": {
        "added": [{"uri": tmp_path.as_uri(), "name": "t"}], "removed": []}})
    assert "error" not in await raw.hover(uri, 0, 22)
    assert not caps["workspace"].get("fileOperations"), "no file operations are handled"
    assert await raw.shutdown_and_exit() == 0


def test_vscode_settings_are_the_ones_the_server_reads():
    from irilint.lsp.settings import EDITOR_OPTIONS, KNOWN_KEYS

    root = pathlib.Path(__file__).resolve().parents[2]
    manifest = json.loads((root / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    properties = manifest["contributes"]["configuration"]["properties"]
    assert "irilint.failLevel" not in properties  # irilint check's, not the editor's
    hints = properties["irilint.inlayHints"]
    assert "boolean" in hints["type"] and hints["scope"] == "resource"
    assert EDITOR_OPTIONS["inlayHints"] is True
    assert "fail-level" in KNOWN_KEYS  # still a configuration file key


async def test_added_folder_gets_its_own_settings(client: LanguageClient, tmp_path):
    first, added = tmp_path / "first", tmp_path / "added"
    first.mkdir()
    added.mkdir()
    client.set_configuration({"debounce": 0}, section="irilint")
    client.set_configuration({"debounce": 0, "ignore": ["bidi"]}, section="irilint",
                             scope_uri=added.as_uri())
    await request(client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), initialization_options={"debounce": 0},
        workspace_folders=[types.WorkspaceFolder(uri=first.as_uri(), name="first")])))
    uri = (added / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    assert "IRI101" in [str(d.code) for d in await diagnostics_for(client, uri, version=1)]
    count = len(client.published)
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=added.as_uri(), name="added")], removed=[])))

    def relinted():
        later = [p for p in client.published[count:] if p.uri == uri]
        return later[-1] if later else None

    params = await wait_for(relinted, what="diagnostics after the folder was added")
    assert not any(str(d.code).startswith("IRI1") for d in params.diagnostics)
