#!/usr/bin/env python3
"""A bare pygls 2 language server: the yardstick of the server figures.

It does what every pygls server does for an open document (pygls keeps the
text, applying each change) and answers each ``didOpen`` and ``didChange``
with a ``publishDiagnostics`` of no diagnostics for that version, so a
client can time a change the same way against it and against
``irilint server``: what is left is irilint's own cost.

    python bench/bare_pygls_server.py        # speaks LSP on stdin/stdout
"""
from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

server = LanguageServer("bare-pygls", "0.1")


def _publish_nothing(ls: LanguageServer, uri: str, version: int) -> None:
    ls.workspace.get_text_document(uri)  # the text as pygls keeps it, edits applied
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=version))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    _publish_nothing(ls, params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    _publish_nothing(ls, params.text_document.uri, params.text_document.version)


if __name__ == "__main__":
    server.start_io()
