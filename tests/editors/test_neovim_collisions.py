"""Neovim (Debian ``neovim``, 0.7.2) with editors/neovim/irilint.lua: confusable
hosts across documents (IRI205), end to end.

In a real headless Neovim that loads only that file (``-u NONE``), in a
workspace folder holding a.md (``http://exаmple.com/``, Cyrillic а), b.md
(``http://example.com/``) and c.md (``http://exаmple.org/``, never opened):

1. ``:edit a.md`` then ``:edit b.md``: both buffers show IRI205 on the host's
   characters (byte columns: a.md's line starts with "Café", and its host
   holds a 2-byte letter), each naming the other file;
2. ``ra`` on the Cyrillic letter in a.md's buffer (not saved): IRI205 goes
   from both buffers, b.md's too although b.md was not touched (the server
   must publish b.md again when a.md changes);
3. typing a line with ``http://example.org/`` into b.md: b.md shows IRI205
   naming c.md, which lies in the workspace but is in no buffer.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from editor_harness import HERE, WAIT_DIAGNOSTICS, by_code, run_neovim, server_command

DRIVER = HERE / "nvim_collisions_driver.lua"
CODE = "IRI205"

CYRILLIC_A = "\u0430"
SPOOF_COM = "ex%smple.com" % CYRILLIC_A
SPOOF_ORG = "ex%smple.org" % CYRILLIC_A

A_TEXT = "# Sign in\n\nCaf\u00e9: http://%s/login\n" % SPOOF_COM
B_TEXT = "Home page:\n\nhttp://example.com/\n"
C_TEXT = "# Archive\n\nOld mirror: http://%s/\n" % SPOOF_ORG
#: Typed into b.md (as a new last line) in step 3.
NEW_LINE = "Mirror: http://example.org/"


def host_span(text: str, host: str) -> Tuple[int, int, int]:
    """(0-based line, start byte column, end byte column) of ``host`` in
    ``text``: Neovim's diagnostic columns are byte offsets into the line."""
    for number, line in enumerate(text.split("\n")):
        if host in line:
            start = len(line[:line.index(host)].encode("utf-8"))
            return number, start, start + len(host.encode("utf-8"))
    raise AssertionError("%r not in %r" % (host, text))


def span(d: Dict) -> Tuple[int, int, int]:
    assert d["end_lnum"] == d["lnum"], d
    return d["lnum"], d["col"], d["end_col"]


def collisions(shot: Dict, buffer: str) -> List[Dict]:
    return by_code(shot.get(buffer, []), CODE)


def test_neovim_collisions_across_documents_follow_edits(workspace, tmp_path):
    for name, text in (("a.md", A_TEXT), ("b.md", B_TEXT), ("c.md", C_TEXT)):
        (workspace / name).write_bytes(text.encode("utf-8"))
    run = run_neovim(DRIVER, tmp_path / "nvim-result.json",
                     env={"IRILINT_TEST_DIR": str(workspace), "IRILINT_TEST_NEW_LINE": NEW_LINE},
                     cwd=workspace, state=tmp_path, wait_ms=WAIT_DIAGNOSTICS * 1000)
    r = run.result
    why = run.explain() + "\n" + run.version
    assert r.get("ok"), why
    assert r["one_client"] and r["client_cmd"] == server_command(), why
    assert r["buffer_names"] == {"a": str(workspace / "a.md"), "b": str(workspace / "b.md")}, why
    assert r["listed_buffers"] == 2, why

    # 1. On both buffers, exactly on the host, naming the other file.
    opened = r["opened_diagnostics"]
    (on_a,), (on_b,) = collisions(opened, "a"), collisions(opened, "b")
    assert span(on_a) == host_span(A_TEXT, SPOOF_COM) == (2, 14, 26), why
    assert span(on_b) == host_span(B_TEXT, "example.com") == (2, 7, 18), why
    assert on_a["source"] == on_b["source"] == "irilint", why
    assert "b.md, line 3" in on_a["message"] and "c.md" not in on_a["message"], why
    assert "a.md, line 3" in on_b["message"] and "c.md" not in on_b["message"], why

    # 2. After `ra` in a.md only: gone from both; a.md is changed in the
    # buffer, not on disk.
    assert r["a_line_after_edit"] == "Caf\u00e9: http://example.com/login", why
    assert r["a_modified"] is True, why
    assert (workspace / "a.md").read_bytes() == A_TEXT.encode("utf-8"), why
    edited = r["edited_diagnostics"]
    assert collisions(edited, "a") == [] and collisions(edited, "b") == [], why
    # a.md was linted again as edited: its mixed-script host is gone too
    assert edited["a"] == [], why

    # 3. The host typed into b.md collides with c.md's, which no buffer holds.
    assert r["b_lines_after_typing"] == B_TEXT.split("\n")[:-1] + [NEW_LINE], why
    assert r["c_loaded"] is False, why
    typed = r["typed_diagnostics"]
    (with_c,) = collisions(typed, "b")
    b_now = "\n".join(r["b_lines_after_typing"]) + "\n"
    assert span(with_c) == host_span(b_now, "example.org") == (3, 15, 26), why
    assert "c.md, line 3" in with_c["message"] and "a.md" not in with_c["message"], why
    assert collisions(typed, "a") == [], why
