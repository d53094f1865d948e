"""Emacs 28 (Debian ``emacs-nox``) with Eglot 1.9 (``elpa-eglot``) and editors/emacs/irilint.el.

Proves, in a real interactive Emacs (``emacs -nw -Q`` on a pseudo-terminal,
so its command loop and idle timers run) that loads Debian's Eglot and then
only that file: irilint.el's ``eglot-server-programs`` entry is what Eglot
guesses for text-mode and rst-mode buffers (``irilint server``, language
ids ``plaintext`` and ``restructuredtext``); ``M-x eglot`` starts it; the
server's IRI401 and IRI101 diagnostics reach Flymake on the right line
(after a line holding U+2028, which is no line break) and column (Emacs
counts characters; Eglot converts the server's UTF-16 columns, and the line
starts with a non-BMP emoji); then two quick fixes, each through
``M-x eglot-code-actions`` and its prompt answered by typing: "Encode '%' as
'%25'" (the preferred action, the prompt's default) and "Remove U+202E ...
(unsafe)".  After each, the buffer is checked, and after Eglot's own idle
timer has sent the change, the fixed diagnostic has left Flymake.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from editor_harness import (BIDI_CODE, BIDI_COL, DOCUMENT, EDITORS, FIXED_LINE, HERE, PERCENT_CODE,
                            PERCENT_COL, PERCENT_FIX_TITLE, PROBLEM_LINE_NO, WAIT_DIAGNOSTICS,
                            by_code, require_path, require_program, run_editor_in_terminal,
                            server_command, write_document)

CONFIG = EDITORS / "emacs" / "irilint.el"
DRIVER = HERE / "emacs_driver.el"
COMMON = HERE / "emacs_common.el"
DEBIAN_ELPA = Path("/usr/share/emacs/site-lisp/elpa")
BIDI_FIX_TITLE = "Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe)"
#: After both fixes.
CLEAN_LINE = FIXED_LINE.replace("\u202E", "")

#: What Debian's site-start does for a normal Emacs, and -Q skips: make the
#: elpa-* packages (here elpa-eglot) loadable.
ACTIVATE_DEBIAN_ELPA = (
    "(progn (require 'package)"
    " (add-to-list 'package-directory-list %s)"
    " (package-initialize))" % json.dumps(str(DEBIAN_ELPA))
)


def emacs_session(emacs: str, config: Path, driver: Path, doc: Path, out: Path, home: Path,
                  workspace: Path):
    """An interactive ``emacs -nw -Q`` loading Debian's elpa packages, CONFIG, then DRIVER."""
    return run_editor_in_terminal(
        [emacs, "-nw", "-Q",
         "--eval", ACTIVATE_DEBIAN_ELPA,
         "--eval", "(add-to-list 'load-path %s)" % json.dumps(str(HERE)),
         "-l", str(config),
         "-l", str(driver)],
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
    run = emacs_session(emacs, CONFIG, DRIVER, doc, out, home, workspace)
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

    # The lines as Emacs holds them: the U+2028 line is one line.
    assert "\n".join(r["lines_before"]) + "\n" == "\n".join(DOCUMENT.split("\n")[:PROBLEM_LINE_NO + 1]) + "\n", why

    # First fix: the preferred action is the prompt's default; typing "Enc" TAB RET takes it.
    first = [p for p in r["prompts"] if "Pick an action" in p["prompt"]]
    assert len(first) == 2, why
    assert first[0]["default"] == PERCENT_FIX_TITLE, why
    assert PERCENT_FIX_TITLE in first[0]["candidates"], why
    assert r["line_after_fix"] == FIXED_LINE, why
    assert by_code(r["diagnostics_after_fix"], PERCENT_CODE) == [], why
    bidi_after = by_code(r["diagnostics_after_fix"], BIDI_CODE)
    assert len(bidi_after) == 1, why
    assert (bidi_after[0]["col"], bidi_after[0]["end_col"]) == (
        BIDI_COL.codepoints + 2, BIDI_COL.codepoints + 3), why

    # Second fix: an unsafe one, picked by its title.
    assert BIDI_FIX_TITLE in first[1]["candidates"], why
    assert first[1]["typed"] == "Rem TAB RET", why
    assert r["line_after_second_fix"] == CLEAN_LINE, why
    assert r["modified"] is True, why
    assert by_code(r["diagnostics_after_second_fix"], PERCENT_CODE) == [], why
    assert by_code(r["diagnostics_after_second_fix"], BIDI_CODE) == [], why
