"""Emacs 28 (Debian ``emacs-nox``) with lsp-mode 8.0 (``elpa-lsp-mode``) and editors/emacs/irilint-lsp.el.

lsp-mode counts columns in characters (code points) and announces no
position encoding, so irilint-lsp.el asks for UTF-32 through
``initializationOptions``.  Proves, in a real interactive Emacs (``emacs -nw
-Q`` on a pseudo-terminal) that loads Debian's lsp-mode and then only that
file: ``M-x lsp`` (the project question answered "i") starts ``irilint
server`` as the buffer's irilint client with the mode's language id, and the
server answers in UTF-32; the IRI401 and IRI101 diagnostics land on the
right characters after a line holding U+2028 and a non-BMP emoji (LSP
columns equal Emacs columns); two quick fixes, each through ``M-x
lsp-execute-code-action`` with its prompt answered by typing the start of
the title, change exactly the characters they name, and after lsp-mode has
sent the change the fixed diagnostic is gone.
"""
from __future__ import annotations

import pytest

from editor_harness import (BIDI_CODE, BIDI_COL, DOCUMENT, EDITORS, FIXED_LINE, HERE, PERCENT_CODE,
                            PERCENT_COL, PERCENT_FIX_TITLE, PROBLEM_LINE_NO, by_code, require_path,
                            require_program, server_command, write_document)
from test_emacs import BIDI_FIX_TITLE, CLEAN_LINE, DEBIAN_ELPA, emacs_session

CONFIG = EDITORS / "emacs" / "irilint-lsp.el"
DRIVER = HERE / "emacs_lsp_driver.el"


@pytest.mark.parametrize("name, mode, language_id", [
    ("links.txt", "text-mode", "plaintext"),
    ("links.rst", "rst-mode", "restructuredtext"),
])
def test_emacs_lsp_mode_diagnostics_and_two_quick_fixes(workspace, tmp_path, name, mode, language_id):
    emacs = require_program("emacs", "emacs-nox")
    if not sorted(DEBIAN_ELPA.glob("lsp-mode-*")):
        require_path(DEBIAN_ELPA / "lsp-mode-8.0.0", "elpa-lsp-mode")
    doc = write_document(workspace, name)
    out = tmp_path / "emacs-lsp-result.json"
    home = tmp_path / "home"
    home.mkdir()
    run = emacs_session(emacs, CONFIG, DRIVER, doc, out, home, workspace)
    r = run.result
    why = run.explain()
    assert r.get("ok"), why
    assert r["major_mode"] == mode, why
    assert r["language_id"] == language_id, why
    assert r["server_command"] == server_command(), why
    assert r["lsp_mode_file"].startswith(str(DEBIAN_ELPA)), why
    assert r["root"].rstrip("/") == str(workspace), why
    # The client's option reached the server, which answers in code points.
    assert r["position_encoding"] == "utf-32", why

    # The lines as Emacs holds them: the U+2028 line is one line.
    assert "\n".join(r["lines_before"]) + "\n" == "\n".join(DOCUMENT.split("\n")[:PROBLEM_LINE_NO + 1]) + "\n", why

    percent = by_code(r["diagnostics"], PERCENT_CODE)
    bidi = by_code(r["diagnostics"], BIDI_CODE)
    assert len(percent) == 1 and len(bidi) == 1, why
    assert percent[0]["source"] == "irilint" and percent[0]["in_flymake"], why
    # On the '%' itself: Emacs columns and LSP columns both count code points.
    assert (percent[0]["line"], percent[0]["col"], percent[0]["end_col"]) == (
        PROBLEM_LINE_NO, PERCENT_COL.codepoints, PERCENT_COL.codepoints + 1), why
    assert percent[0]["lsp_range"]["start"] == {"line": PROBLEM_LINE_NO, "character": PERCENT_COL.codepoints}, why
    assert (bidi[0]["line"], bidi[0]["col"], bidi[0]["end_col"]) == (
        PROBLEM_LINE_NO, BIDI_COL.codepoints, BIDI_COL.codepoints + 1), why
    assert bidi[0]["in_flymake"] and "U+202E" in bidi[0]["text"], why

    prompts = [p for p in r["prompts"] if p["prompt"].startswith("Select code action")]
    assert len(prompts) == 2, why
    assert PERCENT_FIX_TITLE in prompts[0]["candidates"] and prompts[0]["typed"] == "Enc TAB RET", why
    assert r["line_after_fix"] == FIXED_LINE, why
    assert by_code(r["diagnostics_after_fix"], PERCENT_CODE) == [], why
    bidi_after = by_code(r["diagnostics_after_fix"], BIDI_CODE)
    assert len(bidi_after) == 1, why
    assert (bidi_after[0]["col"], bidi_after[0]["end_col"]) == (
        BIDI_COL.codepoints + 2, BIDI_COL.codepoints + 3), why

    assert BIDI_FIX_TITLE in prompts[1]["candidates"] and prompts[1]["typed"] == "Rem TAB RET", why
    assert r["line_after_second_fix"] == CLEAN_LINE, why
    assert r["modified"] is True, why
    assert by_code(r["diagnostics_after_second_fix"], PERCENT_CODE) == [], why
    assert by_code(r["diagnostics_after_second_fix"], BIDI_CODE) == [], why
