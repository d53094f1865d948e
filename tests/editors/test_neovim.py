"""Neovim (Debian ``neovim``, 0.7.2) with editors/neovim/irilint.lua.

Proves, in a real headless Neovim that loads only that file (``-u NONE``):
the FileType autocommand starts ``irilint server`` and attaches it to
markdown, text and rst buffers (with the LSP language ids markdown,
plaintext, restructuredtext); the IRI401 and IRI101 diagnostics land on the right line
and byte column (Neovim converts the server's UTF-16 positions to bytes,
and the line starts with a 4-byte emoji); the code actions for the cursor
position include the preferred quick fix "Encode '%' as '%25'" with a
WorkspaceEdit; vim.lsp.util.apply_workspace_edit(edit, 'utf-16') turns
``100%`` into ``100%25`` in the buffer; after the didChange the server
drops IRI401 and keeps IRI101.
"""
from __future__ import annotations

import pytest

from editor_harness import (BIDI_CODE, BIDI_COL, FIXED_LINE, HERE, PERCENT_CODE, PERCENT_COL,
                            PERCENT_FIX_TITLE, PROBLEM_LINE, PROBLEM_LINE_NO, WAIT_DIAGNOSTICS, WAIT_REQUEST,
                            by_code, run_neovim, server_command, write_document)

DRIVER = HERE / "nvim_driver.lua"


@pytest.mark.parametrize("name, filetype, language_id", [
    ("links.md", "markdown", "markdown"),
    ("links.txt", "text", "plaintext"),
    ("links.rst", "rst", "restructuredtext"),
])
def test_neovim_diagnostics_and_quick_fix(workspace, tmp_path, name, filetype, language_id):
    doc = write_document(workspace, name)
    run = run_neovim(DRIVER, tmp_path / "nvim-result.json", env={"IRILINT_TEST_FILE": str(doc)},
                     cwd=workspace, state=tmp_path, wait_ms=WAIT_DIAGNOSTICS * 1000,
                     request_ms=WAIT_REQUEST * 1000)
    r = run.result
    why = run.explain() + "\n" + run.version
    assert r.get("ok"), why
    assert r["filetype"] == filetype, why
    assert r["language_id"] == language_id, why
    assert r["client_name"] == "irilint", why
    assert r["client_cmd"] == server_command(), why

    # Neovim's diagnostic columns are 0-based byte offsets into the line.
    percent = by_code(r["diagnostics"], PERCENT_CODE)
    bidi = by_code(r["diagnostics"], BIDI_CODE)
    assert len(percent) == 1 and len(bidi) == 1, why
    assert percent[0]["source"] == "irilint" and bidi[0]["source"] == "irilint", why
    assert (percent[0]["lnum"], percent[0]["col"]) == (PROBLEM_LINE_NO, PERCENT_COL.utf8), why
    assert percent[0]["end_col"] == PERCENT_COL.utf8 + 1, why
    # U+202E is 3 bytes in UTF-8.
    assert (bidi[0]["lnum"], bidi[0]["col"], bidi[0]["end_col"]) == (
        PROBLEM_LINE_NO, BIDI_COL.utf8, BIDI_COL.utf8 + 3), why
    assert "U+202E" in bidi[0]["message"], why

    # The quick fix: offered as preferred, applied as a WorkspaceEdit.
    titles = [a["title"] for a in r["actions"]]
    assert PERCENT_FIX_TITLE in titles, why
    assert r["chosen"] == PERCENT_FIX_TITLE, why
    assert r["line_after_fix"] == FIXED_LINE, why
    assert by_code(r["diagnostics_after_fix"], PERCENT_CODE) == [], why
    bidi_after = by_code(r["diagnostics_after_fix"], BIDI_CODE)
    assert len(bidi_after) == 1, why
    # The edit grew the line by 2 bytes before the bidi control.
    assert (bidi_after[0]["col"], bidi_after[0]["end_col"]) == (BIDI_COL.utf8 + 2, BIDI_COL.utf8 + 5), why
    # The file on disk is untouched: the fix is in the buffer only.
    assert doc.read_bytes().decode("utf-8").split("\n")[PROBLEM_LINE_NO] == PROBLEM_LINE
