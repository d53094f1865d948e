"""Failures are answered, start-up paths work, shutdown and exit are clean."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    TIMEOUT,
    capabilities,
    code_actions,
    diagnostics_for,
    instrument,
    open_doc,
    request,
    rng,
    shutdown,
    start,
    wait_for,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, make_test_lsp_client

HERE = Path(__file__).parent


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, str(HERE / "faulty_server.py")]))
async def faulty(lsp_client: LanguageClient):
    instrument(lsp_client)
    yield
    await shutdown(lsp_client)


async def test_failing_handlers_are_answered_and_logged(faulty: LanguageClient, tmp_path):
    await start(faulty)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(faulty, uri, "http://a.b/%7e\n")
    assert [d.code for d in await diagnostics_for(faulty, uri, version=1)]  # linting works
    hover = await request(faulty.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=3))))
    assert hover is None
    assert await code_actions(faulty, uri, rng(0, 3)) == []
    await wait_for(lambda: any("boom" in m.message for m in faulty.log_messages),
                   what="the failure in the client's log")
    # and the server goes on
    faulty.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="ok\n")]))
    assert await diagnostics_for(faulty, uri, version=2) == []


async def test_requests_on_unknown_documents(client: LanguageClient, tmp_path):
    await start(client, capabilities(pull=True))
    uri = (tmp_path / "never-opened.txt").as_uri()
    ident = types.TextDocumentIdentifier(uri=uri)
    assert await request(client.text_document_hover_async(types.HoverParams(
        text_document=ident, position=types.Position(line=0, character=0)))) is None
    assert await code_actions(client, uri, rng(0, 0)) == []
    report = await request(client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=ident)))
    assert list(report.items) == []


async def test_unknown_command_gets_an_error(client: LanguageClient):
    await start(client)
    with pytest.raises(JsonRpcException):
        await request(client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="irilint.noSuchCommand", arguments=[])))


async def test_edits_outside_the_document_are_clamped(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "ab\n")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=rng(0, 50, 7, 3), text=" http://a.b/%7e")]))
    diags = await diagnostics_for(client, uri, version=2)
    assert "IRI402" in [d.code for d in diags]
    assert diags[0].range.start.line == 0


async def test_shutdown_then_exit_is_clean(client: LanguageClient):
    await start(client)
    await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    assert client._server.returncode == 0


async def test_exit_without_shutdown_exits_1(client: LanguageClient):
    await start(client)
    client.exit(None)
    await asyncio.wait_for(client._server.wait(), TIMEOUT)
    assert client._server.returncode == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The network block (tests/netblock) refuses every socket but Unix ones; this
# test checks the --tcp transport, so it (and the server it starts) may use
# the loopback interface, and only that.
@pytest.mark.allow_loopback
async def test_tcp(tmp_path):
    port = _free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "irilint.lsp", "--tcp", "127.0.0.1:%d" % port,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lsp = make_test_lsp_client()
    instrument(lsp)
    try:
        async def connect():
            while True:
                try:
                    return await lsp.start_tcp("127.0.0.1", port)
                except OSError:
                    await asyncio.sleep(0.05)

        await asyncio.wait_for(connect(), TIMEOUT)
        await start(lsp)
        uri = (tmp_path / "a.txt").as_uri()
        open_doc(lsp, uri, "http://a.b/%7e\n")
        assert "IRI402" in [d.code for d in await diagnostics_for(lsp, uri, version=1)]
        await request(lsp.shutdown_async(None))
        lsp.exit(None)
        assert await asyncio.wait_for(proc.wait(), TIMEOUT) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await asyncio.wait_for(lsp.stop(), TIMEOUT)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "irilint", "server"]))
async def cli_client(lsp_client: LanguageClient):
    instrument(lsp_client)
    yield
    await shutdown(lsp_client)


def _cli_wired() -> bool:
    try:
        out = subprocess.run([sys.executable, "-m", "irilint", "server", "--help"],
                             capture_output=True, timeout=60, env=dict(os.environ))
    except Exception:
        return False
    return out.returncode == 0


@pytest.mark.skipif(not _cli_wired(), reason="`irilint server` is not wired yet")
async def test_irilint_server_command(cli_client: LanguageClient, tmp_path):
    await start(cli_client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(cli_client, uri, "http://a.b/%7e\n")
    assert "IRI402" in [d.code for d in await diagnostics_for(cli_client, uri, version=1)]
    await asyncio.wait_for(cli_client.shutdown_session(), TIMEOUT)
    assert cli_client._server.returncode == 0
