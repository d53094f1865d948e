"""The whole workspace: the "Check the workspace" command (publishes for
every file include/exclude admit, with progress, cancellable) and
workspace/diagnostic for pulling clients."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Dict, List

import pytest_asyncio
from lsp_helpers import RawServer, bounded

# Hebrew, Arabic, CJK and an emoji before the IRIs
BIDI = "שלום مرحبا 文字 😀 https://example.com/a\u202eb.txt\n"
LOWER = "😀 文字 http://example.com/%d7%a9\n"
CLEAN = "nothing here: https://example.com/\n"


@pytest_asyncio.fixture
async def raw():
    server = await RawServer().start()
    try:
        yield server
    finally:
        await server.stop()


def make_workspace(root: Path) -> Dict[str, Path]:
    files = {
        "bidi": root / "docs" / "שלום.md",
        "lower": root / "b.txt",
        "clean": root / "c.txt",
        "excluded": root / "vendor" / "v.md",
        "ignored": root / "build" / "out.txt",
    }
    for key, path in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text({"bidi": BIDI, "lower": LOWER, "clean": CLEAN}.get(key, BIDI), encoding="utf-8")
    (root / "blob.bin").write_bytes(b"\x00\x01 https://example.com/a\xe2\x80\xaeb \x00")
    (root / ".irilint.toml").write_text('extend-exclude = ["vendor"]\n', encoding="utf-8")
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    (root / ".git").mkdir()
    return files


async def init(raw: RawServer, root: Path, pull: bool = False, progress: bool = True) -> Dict[str, Any]:
    caps: Dict[str, Any] = {"window": {"workDoneProgress": progress}}
    if pull:
        caps["textDocument"] = {"diagnostic": {}}
    reply = await raw.call("initialize", {
        "processId": None, "rootUri": root.as_uri(), "capabilities": caps,
        "workspaceFolders": [{"uri": root.as_uri(), "name": "root"}],
        "initializationOptions": {"debounce": 0}})
    await raw.notify("initialized", {})
    return reply["result"]["capabilities"]


async def answer_progress_create(raw: RawServer, start: int = 0) -> str:
    create = await raw.wait_message(lambda m: m.get("method") == "window/workDoneProgress/create",
                                    what="window/workDoneProgress/create", start=start)
    await raw.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
    return create["params"]["token"]


def progress_of(raw: RawServer, token: str) -> List[Dict[str, Any]]:
    return [m["params"]["value"] for m in raw.messages
            if m.get("method") == "$/progress" and m["params"]["token"] == token]


def codes(params: Dict[str, Any]) -> List[str]:
    return sorted(str(d["code"]) for d in params["diagnostics"])


@bounded(90)
async def test_check_workspace_publishes_every_admitted_file(raw: RawServer, tmp_path):
    files = make_workspace(tmp_path)
    caps = await init(raw, tmp_path)
    assert "irilint.checkWorkspace" in caps["executeCommandProvider"]["commands"]
    # an open document is checked as the editor holds it, not as on disk
    open_uri = files["clean"].as_uri()
    await raw.open(open_uri, BIDI, version=7)
    await raw.diagnostics(open_uri, 7)
    before = len(raw.messages)
    msg_id = await raw.send_request("workspace/executeCommand", {"command": "irilint.checkWorkspace"})
    token = await answer_progress_create(raw, before)
    reply = await raw.response(msg_id)
    assert reply["result"] == {"files": 3, "problems": reply["result"]["problems"], "cancelled": False}

    published = {m["params"]["uri"]: m["params"] for m in raw.messages[before:]
                 if m.get("method") == "textDocument/publishDiagnostics"}
    assert set(published) == {files["bidi"].as_uri(), files["lower"].as_uri(), open_uri}
    assert "IRI101" in codes(published[files["bidi"].as_uri()])
    assert "IRI402" in codes(published[files["lower"].as_uri()])
    assert published[open_uri]["version"] == 7 and "IRI101" in codes(published[open_uri])
    assert "version" not in published[files["bidi"].as_uri()]
    assert reply["result"]["problems"] == sum(len(p["diagnostics"]) for p in published.values())
    # exact positions in a file read from disk (UTF-16 here): 😀 is 2 units
    bidi = next(d for d in published[files["bidi"].as_uri()]["diagnostics"] if d["code"] == "IRI101")
    line = BIDI[:BIDI.index("\u202e")]
    assert bidi["range"]["start"] == {"line": 0, "character": len(line.encode("utf-16-le")) // 2}

    steps = progress_of(raw, token)
    assert [s["kind"] for s in steps][0] == "begin" and steps[-1]["kind"] == "end"
    assert steps[0]["title"] == "Check the workspace" and steps[0]["cancellable"] is True
    assert any(s["kind"] == "report" and s.get("percentage") == 100 for s in steps)
    assert steps[-1]["message"] == "3 files checked, %d problems" % reply["result"]["problems"]
    assert await raw.shutdown_and_exit() == 0


@bounded(90)
async def test_workspace_diagnostic_pull(raw: RawServer, tmp_path):
    files = make_workspace(tmp_path)
    caps = await init(raw, tmp_path, pull=True)
    assert caps["diagnosticProvider"]["workspaceDiagnostics"] is True
    open_uri = files["lower"].as_uri()
    await raw.open(open_uri, LOWER + BIDI, version=3)
    reply = await raw.call("workspace/diagnostic", {"previousResultIds": [],
                                                    "workDoneToken": "pull-1"})
    items = {item["uri"]: item for item in reply["result"]["items"]}
    assert set(items) == {files["bidi"].as_uri(), files["lower"].as_uri(), files["clean"].as_uri()}
    assert all(item["kind"] == "full" for item in items.values())
    assert "IRI101" in codes({"diagnostics": items[files["bidi"].as_uri()]["items"]})
    assert items[files["bidi"].as_uri()]["version"] is None
    assert items[open_uri]["version"] == 3
    assert "IRI101" in codes({"diagnostics": items[open_uri]["items"]})  # the editor's text
    assert items[files["clean"].as_uri()]["items"] == []
    steps = progress_of(raw, "pull-1")
    assert steps[0]["kind"] == "begin" and steps[-1]["kind"] == "end"
    # a pulling client gets nothing pushed
    assert not [m for m in raw.messages if m.get("method") == "textDocument/publishDiagnostics"]
    assert await raw.shutdown_and_exit() == 0


def many_files(root: Path, n: int) -> None:
    (root / ".git").mkdir()
    for i in range(n):
        (root / ("f%03d.md" % i)).write_text(("%d 文字 😀 " % i) + BIDI * 40, encoding="utf-8")


@bounded(120)
async def test_progress_cancel_stops_the_check(raw: RawServer, tmp_path):
    many_files(tmp_path, 150)
    await init(raw, tmp_path)
    before = len(raw.messages)
    msg_id = await raw.send_request("workspace/executeCommand", {"command": "irilint.checkWorkspace"})
    token = await answer_progress_create(raw, before)
    await raw.wait_message(lambda m: m.get("method") == "$/progress" and m["params"]["token"] == token
                           and m["params"]["value"]["kind"] == "report", what="a progress report")
    await raw.notify("window/workDoneProgress/cancel", {"token": token})
    reply = await raw.response(msg_id)
    assert reply["result"]["cancelled"] is True, reply
    published = [m for m in raw.messages if m.get("method") == "textDocument/publishDiagnostics"]
    assert 0 < len(published) < 150
    assert progress_of(raw, token)[-1] == {"kind": "end", "message": "cancelled"}
    await asyncio.sleep(0.5)  # and nothing more comes
    assert len([m for m in raw.messages if m.get("method") == "textDocument/publishDiagnostics"]) \
        == len(published)
    assert await raw.shutdown_and_exit() == 0


@bounded(120)
async def test_cancel_request_stops_the_check(raw: RawServer, tmp_path):
    many_files(tmp_path, 150)
    await init(raw, tmp_path, progress=False)
    msg_id = await raw.send_request("workspace/executeCommand", {"command": "irilint.checkWorkspace"})
    await raw.wait_message(lambda m: m.get("method") == "textDocument/publishDiagnostics",
                           what="a first file's diagnostics")
    await raw.notify("$/cancelRequest", {"id": msg_id})
    reply = await raw.response(msg_id)
    assert reply["error"]["code"] == -32800, reply  # RequestCancelled
    await asyncio.sleep(0.5)
    count = len([m for m in raw.messages if m.get("method") == "textDocument/publishDiagnostics"])
    await asyncio.sleep(0.5)
    assert len([m for m in raw.messages if m.get("method") == "textDocument/publishDiagnostics"]) \
        == count < 150
    assert await raw.shutdown_and_exit() == 0


@bounded(90)
async def test_workspace_diagnostic_unchanged_files_are_not_checked_again(raw: RawServer, tmp_path):
    files = make_workspace(tmp_path)
    await init(raw, tmp_path, pull=True)
    first = (await raw.call("workspace/diagnostic", {"previousResultIds": []}))["result"]["items"]
    ids = {item["uri"]: item["resultId"] for item in first}
    assert len(ids) == 3 and all(item["kind"] == "full" for item in first)
    previous = [{"uri": uri, "value": value} for uri, value in ids.items()]
    again = (await raw.call("workspace/diagnostic", {"previousResultIds": previous}))["result"]["items"]
    assert {item["uri"]: (item["kind"], item["resultId"]) for item in again} == \
        {uri: ("unchanged", value) for uri, value in ids.items()}
    # one file changes on disk: only it is reported in full, with a new id
    files["clean"].write_text("文字 😀 " + BIDI, encoding="utf-8")
    third = (await raw.call("workspace/diagnostic", {"previousResultIds": previous}))["result"]["items"]
    by_uri = {item["uri"]: item for item in third}
    changed = by_uri[files["clean"].as_uri()]
    assert changed["kind"] == "full" and changed["resultId"] != ids[files["clean"].as_uri()]
    assert "IRI101" in codes({"diagnostics": changed["items"]})
    assert by_uri[files["bidi"].as_uri()]["kind"] == "unchanged"
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_files_are_decoded_as_irilint_check_decodes_them(raw: RawServer, tmp_path):
    """A Latin-1 HTML file that declares its encoding: positions count the
    decoded text, as in `irilint check`."""
    (tmp_path / ".git").mkdir()
    html = '<meta charset="iso-8859-1"><p>caf\u00e9 <a href="http://example.com/%e9">x</a></p>\n'
    (tmp_path / "a.html").write_bytes(html.encode("latin-1"))
    await init(raw, tmp_path, pull=True)
    items = (await raw.call("workspace/diagnostic", {"previousResultIds": []}))["result"]["items"]
    (item,) = items
    lower = next(d for d in item["items"] if d["code"] == "IRI402")
    assert lower["range"]["start"] == {"line": 0, "character": html.index("%e9")}
    assert await raw.shutdown_and_exit() == 0
