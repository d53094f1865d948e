"""The capabilities real editors send (replayed by pytest-lsp): each client
opens a document, gets its diagnostics at the right place in the encoding it
negotiated, and gets code actions it can apply."""
from __future__ import annotations

import pytest
from lsp_helpers import (
    apply_action,
    code_actions,
    diagnostics_for,
    open_doc,
    pos_of,
    request,
    start,
)
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

TEXT = "Intro \U0001F600\u2028 see http://a.b/%7e\u202Ex/y.html\n"

CLIENTS = [
    # spec, expected encoding, pull?, documentChanges?
    ("neovim", "utf-32", True, False),          # latest replay (0.11)
    ("neovim@v0.7.0", "utf-16", False, False),
    ("emacs", "utf-32", False, True),
    ("visual-studio-code", "utf-16", False, True),
]


@pytest.mark.parametrize("spec, encoding, pull, document_changes", CLIENTS)
async def test_replayed_client(client: LanguageClient, tmp_path, spec, encoding, pull, document_changes):
    caps = client_capabilities(spec)
    result = await start(client, caps)
    assert result.capabilities.position_encoding == encoding
    assert (result.capabilities.diagnostic_provider is not None) == pull

    uri = (tmp_path / "doc.txt").as_uri()
    open_doc(client, uri, TEXT)
    if pull:
        report = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri))))
        diags = list(report.items)
    else:
        diags = await diagnostics_for(client, uri, version=1)

    start_offset = TEXT.index("%7e")
    lower = next(d for d in diags if d.code == "IRI402")
    assert lower.range == types.Range(start=pos_of(TEXT, start_offset, encoding),
                                      end=pos_of(TEXT, start_offset + 3, encoding))
    bidi = next(d for d in diags if d.code == "IRI101")
    assert bidi.range.start == pos_of(TEXT, start_offset + 3, encoding)
    assert bidi.range.end == pos_of(TEXT, start_offset + 4, encoding)

    actions = await code_actions(client, uri, lower.range, [lower])
    assert actions and all(isinstance(a, types.CodeAction) and a.edit is not None for a in actions)
    edit = actions[0].edit
    assert (edit.document_changes is not None) == document_changes
    upper = next(a for a in actions if a.title == "Uppercase to %7E")
    assert apply_action(TEXT, upper, uri, encoding) == TEXT.replace("%7e", "%7E")

    hover = await request(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=pos_of(TEXT, TEXT.index("http") + 2, encoding))))
    assert hover is not None and "RIGHT-TO-LEFT OVERRIDE" in hover.contents.value
