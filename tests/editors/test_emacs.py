"""Emacs 28 (Debian ``emacs-nox``) with Eglot 1.9 (``elpa-eglot``) and editors/emacs/irilint.el.

Proves, in a real ``emacs --batch -Q`` that loads Debian's Eglot and then only
that file: irilint.el's ``eglot-server-programs`` entry is what Eglot
guesses for text-mode and rst-mode buffers (``irilint server``, language
ids ``plaintext`` and ``restructuredtext``); the server's IRI401 and IRI101
diagnostics reach Flymake on the right line and column (Emacs counts characters; Eglot converts the
server's UTF-16 columns, and the line starts with a non-BMP emoji);
``eglot-code-actions`` offers "Encode '%' as '%25'" as the preferred, default
choice, and taking the default applies its WorkspaceEdit
(``eglot--apply-workspace-edit``) so ``100%`` becomes ``100%25``; after the
didChange, IRI401 leaves Flymake and IRI101 stays.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from editor_harness import (BIDI_CODE, BIDI_COL, EDITORS, FIXED_LINE, HERE, PERCENT_CODE,
                            PERCENT_COL, PERCENT_FIX_TITLE, PROBLEM_LINE_NO, WAIT_DIAGNOSTICS,
                            by_code, require_path, require_program, run_editor, server_command,
                            write_document)

CONFIG = EDITORS / "emacs" / "irilint.el"
DRIVER = HERE / "emacs_driver.el"
DEBIAN_ELPA = Path("/usr/share/emacs/site-lisp/elpa")

#: What Debian's site-start does for a normal Emacs, and -Q skips: make the
#: elpa-* packages (here elpa-eglot) loadable.
ACTIVATE_DEBIAN_ELPA = (
    "(progn (require 'package)"
    " (add-to-list 'package-directory-list %s)"
    " (package-initialize))" % json.dumps(str(DEBIAN_ELPA))
)


@pytest.mark.parametrize("name, mode, language_id", [
    ("links.txt", "text-mode", "plaintext"),
    ("links.rst", "rst-mode", "restructuredtext"),
])
def test_emacs_eglot_diagnostics_and_quick_fix(workspace, tmp_path, name, mode, language_id):
    emacs = require_program("emacs", "emacs-nox")
    eglot_dirs = sorted(DEBIAN_ELPA.glob("eglot-*")) if DEBIAN_ELPA.is_dir() else []
    if not eglot_dirs:
        require_path(DEBIAN_ELPA / "eglot-1.9", "elpa-eglot")
    doc = write_document(workspace, name)
    out = tmp_path / "emacs-result.json"
    home = tmp_path / "home"
    home.mkdir()
    run = run_editor(
        [emacs, "--batch", "-Q",
         "--eval", ACTIVATE_DEBIAN_ELPA,
         "-l", str(CONFIG),
         "-l", str(DRIVER)],
        out,
        env={
            "HOME": str(home),
            "IRILINT_SERVER_CMD": json.dumps(server_command()),
            "IRILINT_TEST_FILE": str(doc),
            "IRILINT_TEST_OUT": str(out),
            "IRILINT_TEST_WAIT": str(WAIT_DIAGNOSTICS),
        },
        cwd=workspace,
    )
    r = run.result
    why = run.explain()
    assert r.get("ok"), why
    assert r["major_mode"] == mode, why
    assert r["language_id"] == language_id, why
    assert r["server_command"] == server_command(), why
    assert r["eglot_file"].startswith(str(DEBIAN_ELPA)), why

    # Emacs columns count characters: the emoji is one.
    percent = by_code(r["diagnostics"], PERCENT_CODE)
    bidi = by_code(r["diagnostics"], BIDI_CODE)
    assert len(percent) == 1 and len(bidi) == 1, why
    assert percent[0]["source"] == "irilint", why
    assert (percent[0]["line"], percent[0]["col"]) == (PROBLEM_LINE_NO, PERCENT_COL.codepoints), why
    assert percent[0]["end_col"] == PERCENT_COL.codepoints + 1, why
    # ... while the LSP range Eglot converted counts UTF-16 code units.
    assert percent[0]["lsp_range"]["start"] == {"line": PROBLEM_LINE_NO, "character": PERCENT_COL.utf16}, why
    assert (bidi[0]["line"], bidi[0]["col"], bidi[0]["end_col"]) == (
        PROBLEM_LINE_NO, BIDI_COL.codepoints, BIDI_COL.codepoints + 1), why
    assert bidi[0]["lsp_range"]["start"] == {"line": PROBLEM_LINE_NO, "character": BIDI_COL.utf16}, why
    assert "U+202E" in bidi[0]["text"], why

    # The preferred action is Eglot's default choice, and taking it fixes the line.
    preferred = [a["title"] for a in r["actions"] if a["isPreferred"]]
    assert preferred == [PERCENT_FIX_TITLE], why
    assert len(r["prompts"]) == 1 and r["prompts"][0]["default"] == PERCENT_FIX_TITLE, why
    assert r["line_after_fix"] == FIXED_LINE, why
    assert r["modified"] is True, why
    assert by_code(r["diagnostics_after_fix"], PERCENT_CODE) == [], why
    bidi_after = by_code(r["diagnostics_after_fix"], BIDI_CODE)
    assert len(bidi_after) == 1, why
    assert (bidi_after[0]["col"], bidi_after[0]["end_col"]) == (
        BIDI_COL.codepoints + 2, BIDI_COL.codepoints + 3), why
