"""End-to-end tests of the language server through a real LSP client
(pytest-lsp).  Every wait is bounded, so a broken handler fails a test
instead of hanging it."""
from __future__ import annotations

import pytest_lsp
from lsp_helpers import SERVER_COMMAND, instrument, shutdown
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    instrument(lsp_client)
    yield
    await shutdown(lsp_client)


