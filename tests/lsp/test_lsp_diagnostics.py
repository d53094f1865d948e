"""Diagnostics: push, pull, versions and stale results, max-file-size,
settings from the editor and from configuration files."""
from __future__ import annotations

import asyncio

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_helpers import (
    TIMEOUT,
    capabilities,
    code_actions,
    diagnostics_for,
    open_doc,
    request,
    start,
    wait_for,
)

RULES_URL = "https://github.com/irilint/irilint/blob/main/docs/rules.md#"


def codes(diags):
    return sorted(str(d.code) for d in diags)


async def test_push_diagnostic_fields(client: LanguageClient, tmp_path):
    result = await start(client)
    assert result.capabilities.diagnostic_provider is None  # push client: no pull
    uri = (tmp_path / "a.md").as_uri()
    open_doc(client, uri, "# Title\n\nSee [x](http://a.b/%7e).\n", "markdown")
    diags = await diagnostics_for(client, uri, version=1)
    d = next(d for d in diags if d.code == "IRI402")
    assert d.source == "irilint"
    assert d.range == types.Range(start=types.Position(line=2, character=19),
                                  end=types.Position(line=2, character=22))
    assert d.severity == types.DiagnosticSeverity.Information
    assert d.message.startswith("lowercase-percent-encoding: ")
    assert d.code_description.href == RULES_URL + "iri402-lowercase-percent-encoding"
    assert d.data["rule"] == "lowercase-percent-encoding"
    assert d.data["version"] == 1
    assert d.data["fixes"][0]["safe"] is True
    assert d.data["fixes"][0]["edits"] == [[28, 31, "%7E"]]
    assert all(p.version == 1 for p in client.published if p.uri == uri)


async def test_change_and_close(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "nothing here\n")
    assert await diagnostics_for(client, uri, version=1) == []
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="http://a.b/%7e\n")]))
    diags = await diagnostics_for(client, uri, version=2)
    assert "IRI402" in codes(diags)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: client.published[-1].uri == uri and len(client.published[-1].diagnostics) == 0
                   and client.published[-1].version is None, what="cleared diagnostics")


async def test_debounce_publishes_only_the_latest_version(client: LanguageClient, tmp_path):
    await start(client, init={"debounce": 300})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "x\n")
    await diagnostics_for(client, uri, version=1)  # open lints at once
    for v in range(2, 12):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=0, character=0),
                                  end=types.Position(line=0, character=0)),
                text="http://a.b/%7e " if v == 11 else "y")]))
    diags = await diagnostics_for(client, uri, version=11)
    assert "IRI402" in codes(diags)
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == [1, 11], versions  # the edits in between were debounced


async def test_each_publication_matches_its_version(client: LanguageClient, tmp_path):
    """Stale results are never published: whatever gets published for
    version N describes the text of version N."""
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    texts = {1: "plain\n"}
    open_doc(client, uri, texts[1])
    for v in range(2, 30):
        texts[v] = "http://a.b/%7e\n" if v % 2 == 0 else "plain %d\n" % v
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=texts[v])]))
    await diagnostics_for(client, uri, version=29)
    await asyncio.sleep(0.3)  # anything still in flight
    mine = [p for p in client.published if p.uri == uri]
    assert mine[-1].version == 29
    for p in mine:
        has = any(d.code == "IRI402" for d in p.diagnostics)
        assert has == (p.version % 2 == 0), (p.version, p.diagnostics)


async def test_pull_diagnostics(client: LanguageClient, tmp_path):
    result = await start(client, capabilities(pull=True))
    provider = result.capabilities.diagnostic_provider
    assert provider is not None and provider.inter_file_dependencies is False
    uri = (tmp_path / "a.md").as_uri()
    open_doc(client, uri, "[x](http://a.b/%7e)\n", "markdown")
    report = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri))))
    assert report.kind == "full"
    assert "IRI402" in codes(report.items)
    d = next(d for d in report.items if d.code == "IRI402")
    assert d.range.start == types.Position(line=0, character=15)
    again = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id)))
    assert again.kind == "unchanged" and again.result_id == report.result_id
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="nothing\n")]))
    changed = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id)))
    assert changed.kind == "full" and list(changed.items) == []
    await asyncio.sleep(0.3)
    assert [p for p in client.published if p.uri == uri] == []  # never both


async def test_oversized_document_gets_one_info_diagnostic(client: LanguageClient, tmp_path):
    await start(client, init={"max-file-size": 100})
    uri = (tmp_path / "big.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n" * 20)
    diags = await diagnostics_for(client, uri, version=1)
    assert len(diags) == 1
    assert diags[0].severity == types.DiagnosticSeverity.Information
    assert "skipped" in diags[0].message and "max-file-size" in diags[0].message
    # nothing else is computed for it
    hover = await request(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=3))))
    assert hover is None
    assert await code_actions(client, uri, types.Range(start=types.Position(line=0, character=12),
                                                       end=types.Position(line=0, character=12))) == []
    small = (tmp_path / "small.txt").as_uri()
    open_doc(client, small, "http://a.b/%7e\n")
    assert "IRI402" in codes(await diagnostics_for(client, small, version=1))


async def test_oversized_counts_utf8_bytes(client: LanguageClient, tmp_path):
    # 40 code points but 120 UTF-8 bytes: over a 100-byte limit
    await start(client, init={"max_file_size": 100})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "\u20ac" * 40)
    diags = await diagnostics_for(client, uri, version=1)
    assert len(diags) == 1 and "skipped" in diags[0].message


async def test_did_change_configuration_changes_selected_rules(client: LanguageClient, tmp_path):
    await start(client, config={})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    assert {"IRI402", "IRI404"} <= set(codes(await diagnostics_for(client, uri, version=1)))
    n = len(client.published)
    client.set_configuration({"select": ["IRI404"]}, section="irilint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: len(client.published) > n and client.published[-1].uri == uri,
                   what="new diagnostics")
    assert codes(client.published[-1].diagnostics) == ["IRI404"]


async def test_did_change_configuration_without_workspace_configuration(client: LanguageClient, tmp_path):
    await start(client, capabilities(configuration=False))
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    await diagnostics_for(client, uri, version=1)
    n = len(client.published)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"irilint": {"ignore": ["percent-encoded-unreserved"]}}))
    await wait_for(lambda: len(client.published) > n, what="new diagnostics")
    assert codes(client.published[-1].diagnostics) == ["IRI402"]


async def test_config_file_is_the_base_editor_overrides_its_keys(client: LanguageClient, tmp_path):
    (tmp_path / "irilint.toml").write_text('select = ["IRI402", "IRI404", "IRI301"]\n')
    await start(client, root=tmp_path, config={"ignore": ["IRI404"]})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e http://ex.com/\u0065\u0301 http://x.y/%c3%a4\n")
    # select from the file (IRI406 is not in it), ignore from the editor
    assert codes(await diagnostics_for(client, uri, version=1)) == ["IRI301", "IRI402", "IRI402"]


async def test_config_file_change_relints_without_restart(client: LanguageClient, tmp_path):
    cfg = tmp_path / ".irilint.toml"
    cfg.write_text('select = ["IRI402"]\n')
    await start(client, capabilities(watch_registration=True), root=tmp_path)
    await wait_for(lambda: client.registrations, what="the watcher registration")
    watch = [r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert sorted(w["globPattern"] for w in watch[0].register_options["watchers"]) == [
        "**/.irilint.toml", "**/irilint.toml", "**/pyproject.toml"]
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    assert codes(await diagnostics_for(client, uri, version=1)) == ["IRI402"]

    cfg.write_text('select = ["IRI404"]\n')
    n = len(client.published)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=cfg.as_uri(), type=types.FileChangeType.Changed)]))
    await wait_for(lambda: len(client.published) > n, what="diagnostics after the watch event")
    assert codes(client.published[-1].diagnostics) == ["IRI404"]

    # saving an open configuration file works too
    cfg.write_text('select = ["IRI402", "IRI404"]\n')
    open_doc(client, cfg.as_uri(), cfg.read_text(), "toml")
    await diagnostics_for(client, cfg.as_uri(), version=1)
    n = len(client.published)
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=cfg.as_uri())))
    await wait_for(lambda: any(p.uri == uri for p in client.published[n:]),
                   what="diagnostics after saving the config")
    latest = [p for p in client.published[n:] if p.uri == uri][-1]
    assert codes(latest.diagnostics) == ["IRI402", "IRI404"]


async def test_invalid_editor_settings_are_reported_and_ignored(client: LanguageClient, tmp_path):
    await start(client, config={"select": ["no-such-rule"]})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    assert {"IRI402", "IRI404"} <= set(codes(await diagnostics_for(client, uri, version=1)))
    await wait_for(lambda: any("no-such-rule" in m.message for m in client.messages),
                   timeout=TIMEOUT, what="a message about the bad setting")


async def test_initialization_options_kebab_and_snake_case(client: LanguageClient, tmp_path):
    await start(client, capabilities(configuration=False),
                init={"extend-ignore": ["IRI404"], "severity": {"IRI402": "error"}})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    diags = await diagnostics_for(client, uri, version=1)
    assert codes(diags) == ["IRI402"]
    assert diags[0].severity == types.DiagnosticSeverity.Error


async def test_pull_client_is_asked_to_refresh_after_a_settings_change(client: LanguageClient, tmp_path):
    caps = capabilities(pull=True)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    await start(client, caps, config={})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    ident = types.TextDocumentIdentifier(uri=uri)
    first = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=ident)))
    assert {"IRI402", "IRI404"} <= set(codes(first.items))
    client.set_configuration({"select": ["IRI404"]}, section="irilint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: client.diagnostic_refresh_count > 0, what="workspace/diagnostic/refresh")
    second = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=ident, previous_result_id=first.result_id)))
    assert second.kind == "full" and codes(second.items) == ["IRI404"]
    assert [p for p in client.published if p.uri == uri] == []
