"""Vim 9.0 (Debian ``vim``) with ALE 3.3 (``vim-ale``) and editors/vim/irilint.vim.

Proves, in a real interactive Vim (on a pseudo-terminal, so its main loop,
autocommands, timers and jobs run) that loads ALE and then only that loader:
the loader puts the ``ale_linters/<filetype>/irilint.vim`` definitions on
'runtimepath' and ALE starts ``irilint server`` as an LSP linter for a
markdown and a text buffer (for text, ALE runs no linter unless listed: the
loader lists it); the IRI401 and IRI101 diagnostics reach ALE's loclist on
the right line (after a line holding U+2028, which is no line break) and
column; then two quick fixes, each typed as a user would: the cursor on the
diagnostic, ``:ALECodeAction``, and at ALE's numbered "Code Fixes" prompt
the number the screen shows beside the title, Enter.  After each, the line
is checked, and after ALE has sent the change (on the TextChanged that Vim
fires) the fixed diagnostic has left the loclist.

ALE 3.3 takes LSP columns as byte columns (it has no UTF-16 conversion);
editors/vim asks the server for UTF-8 positions (initializationOptions
``positionEncoding: "utf-8"``), so the expected columns are 1-based byte
columns, and the line's leading emoji (4 bytes, 2 UTF-16 units) makes a
server that ignores the request fail this test.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from editor_harness import (BIDI_CODE, BIDI_COL, DOCUMENT, EDITORS, FIXED_LINE, HERE, PERCENT_CODE,
                            PERCENT_COL, PERCENT_FIX_TITLE, PROBLEM_LINE_NO, WAIT_DIAGNOSTICS,
                            by_code, require_path, require_program, run_editor_in_terminal, server_command,
                            write_document)

LOADER = EDITORS / "vim" / "irilint.vim"
BIDI_FIX_TITLE = "Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe)"
#: After both fixes.
CLEAN_LINE = FIXED_LINE.replace("\u202E", "")
DRIVER = HERE / "vim_driver.vim"
#: Debian's vim-ale is an optional package: `packadd ale`.
DEBIAN_ALE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")

VIMRC = """\
set encoding=utf-8
scriptencoding utf-8
set nocompatible
filetype on
packadd ale
source {loader}
"""


@pytest.mark.parametrize("name, filetype", [
    ("links.md", "markdown"),
    # ALE runs no text linter unless listed: the loader lists irilint.
    ("links.txt", "text"),
])
def test_vim_ale_diagnostics_and_quick_fix(workspace, tmp_path, name, filetype):
    vim = require_program("vim", "vim")
    require_path(DEBIAN_ALE / "plugin" / "ale.vim", "vim-ale")
    doc = write_document(workspace, name)
    out = tmp_path / "vim-result.json"
    vimrc = tmp_path / "vimrc"
    vimrc.write_text(VIMRC.format(loader=str(LOADER).replace(" ", "\\ ")), encoding="utf-8")
    run = run_editor_in_terminal(
        [vim, "-N", "-u", str(vimrc), "-i", "NONE", "-n", "-S", str(DRIVER)],
        out,
        env={
            "HOME": str(tmp_path),
            "IRILINT_SERVER_CMD": json.dumps(server_command()),
            "IRILINT_TEST_FILE": str(doc),
            "IRILINT_TEST_OUT": str(out),
            "IRILINT_TEST_WAIT_MS": str(WAIT_DIAGNOSTICS * 1000),
        },
        cwd=workspace,
    )
    r = run.result
    why = run.explain()
    percent = by_code(r.get("diagnostics") or [], PERCENT_CODE)
    if percent and percent[0]["col"] == PERCENT_COL.utf16 + 1 != PERCENT_COL.utf8 + 1:
        raise AssertionError(
            "ALE got UTF-16 columns: the server ignored initializationOptions "
            "{'positionEncoding': 'utf-8'} that editors/vim sends (ALE counts LSP "
            "columns in bytes, so its markers and quick fixes land 2 bytes early "
            "after the emoji)\n" + why)
    assert r.get("ok"), why
    assert r["filetype"] == filetype, why
    assert "irilint" in r["linters"], why
    assert r["ale_linter_file"] == str(EDITORS / "vim" / "ale_linters" / filetype / "irilint.vim"), why

    # ALE's loclist: 1-based line, 1-based byte column, inclusive end column.
    percent = by_code(r["diagnostics"], PERCENT_CODE)
    bidi = by_code(r["diagnostics"], BIDI_CODE)
    assert len(percent) == 1 and len(bidi) == 1, why
    assert (percent[0]["lnum"], percent[0]["col"]) == (PROBLEM_LINE_NO + 1, PERCENT_COL.utf8 + 1), why
    assert percent[0]["end_col"] == PERCENT_COL.utf8 + 1, why
    assert percent[0]["detail"].startswith("[irilint] "), why
    # U+202E is 3 bytes in UTF-8: bytes utf8+1 .. utf8+3, 1-based.
    assert (bidi[0]["lnum"], bidi[0]["col"], bidi[0]["end_col"]) == (
        PROBLEM_LINE_NO + 1, BIDI_COL.utf8 + 1, BIDI_COL.utf8 + 3), why
    assert "U+202E" in bidi[0]["text"], why

    # The lines as Vim holds them: the U+2028 line is one line.
    assert "\n".join(r["lines_before"]) + "\n" == "\n".join(DOCUMENT.split("\n")[:PROBLEM_LINE_NO + 1]) + "\n", why

    first, second = r["menus"]
    assert any(e.endswith(") " + PERCENT_FIX_TITLE) for e in first["entries"]), why
    assert first["typed"] and first["prompt"].startswith("Type number"), why
    assert r["line_after_fix"] == FIXED_LINE, why
    assert r["modified"] in (1, True), why
    assert by_code(r["diagnostics_after_fix"], PERCENT_CODE) == [], why
    bidi_after = by_code(r["diagnostics_after_fix"], BIDI_CODE)
    assert len(bidi_after) == 1, why
    assert (bidi_after[0]["col"], bidi_after[0]["end_col"]) == (BIDI_COL.utf8 + 3, BIDI_COL.utf8 + 5), why

    assert any(e.endswith(") " + BIDI_FIX_TITLE) for e in second["entries"]) and second["typed"], why
    assert r["line_after_second_fix"] == CLEAN_LINE, why
    assert by_code(r["diagnostics_after_second_fix"], PERCENT_CODE) == [], why
    assert by_code(r["diagnostics_after_second_fix"], BIDI_CODE) == [], why
