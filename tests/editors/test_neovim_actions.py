"""Every irilint code action, applied in Neovim 0.7 (Debian ``neovim``).

"All code actions work in Neovim, the least capable of the clients": one
headless Neovim that loads only editors/neovim/irilint.lua (``-u NONE``),
with the server command set through ``$IRILINT_SERVER_CMD`` to this
checkout's ``irilint server``, opens one small document per case and applies
one action in it (nvim_actions_driver.lua does what a user does; this file
says what must come out).  Each case proves:

* the action is offered at the cursor: the driver sets the cursor by byte
  column on a line that starts with an emoji (4 UTF-8 bytes, 2 UTF-16 units)
  and a CJK character (3 bytes, 1 unit), and the request Neovim builds
  carries the UTF-16 column of that character;
* applying it the way Neovim 0.7 does - ``vim.lsp.buf.code_action()`` picking
  the title in ``vim.ui.select``, so Neovim's own ``apply_action`` runs
  ``vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)``
  (or, for the ``command`` case, ``workspace/executeCommand irilint.applyEdit``
  whose ``workspace/applyEdit`` Neovim's handler applies) - gives exactly the
  expected buffer (the edit's UTF-16 range mapped back to bytes);
* after the didChange the line's diagnostics become exactly the expected
  codes, and asking again at the same place no longer offers the action.

The cases: the preferred safe quick fix (IRI401 ``%`` -> ``%25``); an unsafe
quick fix (remove U+202E, IRI101); ``source.fixAll.irilint`` over a document
with several safe fixes (uppercasing, decoding unreserved, ``%25``) in one
edit; "Ignore RULE on this line" in Markdown (``<!-- ... -->``) and Python
(``# ...`` after a string literal); the refactors "Convert to URI",
"Convert to IRI" and "Normalize to NFC"; and a quick fix's edit run through
the ``irilint.applyEdit`` command.  ``test_every_advertised_kind_applied``
checks that every code action kind the server advertises, and every refactor
title it offered, was applied by some case.
"""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from editor_harness import HERE, SEPARATOR_LINE, WAIT_REQUEST, EditorRun, run_neovim, server_command

DRIVER = HERE / "nvim_actions_driver.lua"

#: Before every IRI: 1 code point / 2 UTF-16 units / 4 bytes, then 1 / 1 / 3.
LEAD = "\U0001F600 \u4E2D "

PERCENT_RULE = "bad-percent-encoding"
IGNORE_PERCENT_TITLE = "Ignore %s (IRI401) on this line" % PERCENT_RULE
PERCENT_FIX_TITLE = "Encode '%' as '%25'"

IRI = "http://\u4F8B\u3048.jp/\u30D1\u30B9"            # http://例え.jp/パス
URI = "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"
DECOMPOSED = "http://example.org/re\u0301sume\u0301"
COMPOSED = unicodedata.normalize("NFC", DECOMPOSED)      # http://example.org/résumé
assert COMPOSED == "http://example.org/r\u00E9sum\u00E9"


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    filetype: str
    language_id: str
    lines: Tuple[str, ...]          # the document
    line: int                       # 0-based line of the IRI under the cursor
    cursor: str                     # the cursor goes on the first occurrence of this
    title: str                      # the action to apply
    kind: str
    expect: Tuple[str, ...]         # the whole buffer afterwards
    before_codes: Tuple[str, ...]   # must be on the line first
    after_codes: Tuple[str, ...]    # exactly these on the line afterwards
    only: Optional[Tuple[str, ...]] = None
    after_only: Optional[Tuple[str, ...]] = None
    via: str = "code_action"
    preferred: Optional[bool] = None  # None: not checked
    gone_after: Tuple[str, ...] = ()  # titles no longer offered afterwards
    offered_after: Tuple[str, ...] = ()  # titles offered afterwards

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    @property
    def col_bytes(self) -> int:
        line = self.lines[self.line]
        return len(line[:line.index(self.cursor)].encode("utf-8"))

    @property
    def col_utf16(self) -> int:
        line = self.lines[self.line]
        return len(line[:line.index(self.cursor)].encode("utf-16-le")) // 2


def _md(*lines: str) -> Tuple[str, ...]:
    # The U+2028 line: no line break to Neovim or LSP, so MD_LINE is where the lines start.
    return ("# irilint code action test", "", SEPARATOR_LINE) + lines


MD_LINE = 3


PERCENT_LINE = LEAD + "see http://example.com/100%"
BIDI_LINE = LEAD + "http://example.com/abc\u202Egpj.exe"
FIXALL_LINE = LEAD + "http://example.com/%7euser/100%?q=%3a"
FIXALL_LINE2 = "\u4E2D http://example.com/%41%62c"
PY_LINE = 'URL = "' + LEAD + 'http://example.com/100%"'

CASES: List[Case] = [
    Case("quickfix-safe", "percent.md", "markdown", "markdown",
         _md(PERCENT_LINE), MD_LINE, "%", PERCENT_FIX_TITLE, "quickfix",
         expect=_md(PERCENT_LINE.replace("100%", "100%25")),
         before_codes=("IRI401",), after_codes=(), only=("quickfix",), preferred=True,
         gone_after=(PERCENT_FIX_TITLE,)),
    Case("quickfix-unsafe", "bidi.md", "markdown", "markdown",
         _md(BIDI_LINE), MD_LINE, "\u202E", "Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe)", "quickfix",
         expect=_md(BIDI_LINE.replace("\u202E", "")),
         before_codes=("IRI101",), after_codes=(), preferred=False,
         gone_after=("Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe)",)),
    # only = source.fixAll: the server must match its source.fixAll.irilint by
    # prefix; afterwards asked for by its full kind, it is no longer offered.
    Case("fix-all", "fixall.md", "markdown", "markdown",
         _md(FIXALL_LINE, "", FIXALL_LINE2), MD_LINE, "%7e", "Fix all safe irilint problems",
         "source.fixAll.irilint",
         expect=_md(LEAD + "http://example.com/~user/100%25?q=%3A", "",
                    "\u4E2D http://example.com/Abc"),
         before_codes=("IRI401", "IRI402", "IRI404"), after_codes=(),
         only=("source.fixAll",), after_only=("source.fixAll.irilint",),
         gone_after=("Fix all safe irilint problems",)),
    Case("ignore-markdown", "ignore.md", "markdown", "markdown",
         _md(PERCENT_LINE), MD_LINE, "%", IGNORE_PERCENT_TITLE, "quickfix",
         expect=_md(PERCENT_LINE + " <!-- irilint: ignore[%s] -->" % PERCENT_RULE),
         before_codes=("IRI401",), after_codes=(), only=("quickfix",),
         gone_after=(IGNORE_PERCENT_TITLE, PERCENT_FIX_TITLE)),
    Case("ignore-python", "ignore.py", "python", "python",
         ("import os", "# " + SEPARATOR_LINE, PY_LINE), 2, "%", IGNORE_PERCENT_TITLE, "quickfix",
         expect=("import os", "# " + SEPARATOR_LINE, PY_LINE + "  # irilint: ignore[%s]" % PERCENT_RULE),
         before_codes=("IRI401",), after_codes=(), only=("quickfix",),
         gone_after=(IGNORE_PERCENT_TITLE, PERCENT_FIX_TITLE)),
    # The cursor on a CJK character of the IRI, which has no findings: the
    # refactors are offered without any diagnostic.  The URI it becomes gets
    # the hints that it could be shown as an IRI.
    Case("convert-to-uri", "to_uri.md", "markdown", "markdown",
         _md(LEAD + IRI), MD_LINE, "\u3048", "Convert to URI", "refactor.rewrite",
         expect=_md(LEAD + URI),
         before_codes=(), after_codes=("IRI406", "IRI503"), only=("refactor",),
         gone_after=("Convert to URI",), offered_after=("Convert to IRI",)),
    # No context.only at all: every kind comes back, the refactor among them.
    Case("convert-to-iri", "to_iri.md", "markdown", "markdown",
         _md(LEAD + URI), MD_LINE, "xn--", "Convert to IRI", "refactor.rewrite",
         expect=_md(LEAD + IRI),
         before_codes=("IRI406", "IRI503"), after_codes=(), only=None,
         gone_after=("Convert to IRI",), offered_after=("Convert to URI",)),
    Case("normalize-nfc", "nfc.md", "markdown", "markdown",
         _md(LEAD + DECOMPOSED), MD_LINE, "sume", "Normalize to NFC", "refactor.rewrite",
         expect=_md(LEAD + COMPOSED),
         before_codes=("IRI301",), after_codes=(), only=("refactor.rewrite",),
         gone_after=("Normalize to NFC",)),
    # The Command form (what the server sends clients without code action
    # literals): irilint.applyEdit -> workspace/applyEdit -> Neovim applies it.
    Case("command-applyEdit", "command.md", "markdown", "markdown",
         _md(PERCENT_LINE), MD_LINE, "%", PERCENT_FIX_TITLE, "quickfix",
         expect=_md(PERCENT_LINE.replace("100%", "100%25")),
         before_codes=("IRI401",), after_codes=(), only=("quickfix",), via="command",
         preferred=True, gone_after=(PERCENT_FIX_TITLE,)),
]


@dataclass
class ActionsRun:
    run: EditorRun
    workspace: Path
    version: str
    by_id: Dict[str, Dict] = field(default_factory=dict)

    def why(self, case_id: Optional[str] = None) -> str:
        r = self.run
        shown = self.by_id.get(case_id) if case_id else r.result
        return ("%s, editor exit %s\n--- result of %s ---\n%s\n--- stderr (tail) ---\n%s"
                % (self.version, r.returncode, case_id or "the run",
                   json.dumps(shown, indent=1, ensure_ascii=False), r.stderr[-3000:]))


@pytest.fixture(scope="module")
def nvim_actions(tmp_path_factory) -> ActionsRun:
    base = tmp_path_factory.mktemp("nvim-actions")
    workspace = base / "project"
    workspace.mkdir()
    (workspace / ".git").mkdir()
    specs = []
    for case in CASES:
        path = workspace / case.file
        assert not path.exists(), "two cases share %s" % case.file
        path.write_bytes(case.text.encode("utf-8"))
        spec = {"id": case.id, "path": str(path), "line": case.line, "col": case.col_bytes,
                "title": case.title, "via": case.via, "before_codes": list(case.before_codes),
                "after_codes": list(case.after_codes)}
        if case.only is not None:
            spec["only"] = list(case.only)
        if case.after_only is not None:
            spec["after_only"] = list(case.after_only)
        specs.append(spec)
    cases_file = base / "cases.json"
    cases_file.write_text(json.dumps(specs, ensure_ascii=False), encoding="utf-8")
    run = run_neovim(DRIVER, base / "nvim-actions-result.json", env={"IRILINT_TEST_CASES": str(cases_file)},
                     cwd=workspace, state=base, wait_ms=WAIT_REQUEST * 1000, request_ms=WAIT_REQUEST * 1000)
    result = ActionsRun(run, workspace, run.version)
    for c in run.result.get("cases") or []:
        result.by_id[c.get("id")] = c
    return result


def _titles(actions) -> List[str]:
    return [a.get("title") for a in actions or []]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_neovim_applies_code_action(nvim_actions: ActionsRun, case: Case):
    r = nvim_actions.by_id.get(case.id)
    if r is None:
        pytest.fail("[%s] the Neovim driver never ran this case\n%s" % (case.id, nvim_actions.why()))
    why = "\n" + nvim_actions.why(case.id)
    tag = "[%s] " % case.id

    if r.get("error"):
        detail = ""
        if r.get("line_after") is not None:
            detail = ("\n  line %d after the action: %r\n  expected:                 %r"
                      % (case.line, r["line_after"], case.expect[case.line]))
        pytest.fail(tag + str(r["error"]) + detail + why, pytrace=False)
    assert r.get("ok"), tag + "the driver did not finish the case" + why
    assert r["filetype"] == case.filetype, tag + "filetype %r" % r["filetype"] + why
    assert r["language_id"] == case.language_id, tag + "language id %r" % r["language_id"] + why
    assert r["client_cmd"] == server_command(), tag + "not this checkout's server" + why
    assert r["offset_encoding"] == "utf-16", tag + "offset encoding %r" % r["offset_encoding"] + why
    assert r["buffer_before"] == list(case.lines), tag + "the document was not read as written" + why

    # The cursor was set by byte column; Neovim sent the UTF-16 column.
    assert r["cursor"] == [case.line + 1, case.col_bytes], tag + "cursor %r" % r["cursor"] + why
    start = r["request_range"]["start"]
    assert (start["line"], start["character"]) == (case.line, case.col_utf16), (
        tag + "the request's position %r is not line %d, UTF-16 column %d"
        % (start, case.line, case.col_utf16) + why)

    # Offered, of the right kind, with an edit (Neovim 0.7 has code action
    # literals: no command needed).
    offered = r["actions"]
    assert case.title in _titles(offered), tag + "not offered: %r" % _titles(offered) + why
    chosen = r["chosen"]
    assert chosen["kind"] == case.kind, tag + "kind %r, expected %r" % (chosen["kind"], case.kind) + why
    assert chosen["has_edit"] and chosen["edits"], tag + "the action has no edit" + why
    assert not chosen["has_command"], tag + "the action also has a command" + why
    if case.preferred is not None:
        assert chosen["isPreferred"] is case.preferred, (
            tag + "isPreferred is %r, expected %r" % (chosen["isPreferred"], case.preferred) + why)
    if case.only is not None:
        wrong = [a for a in offered
                 if not any(a["kind"] == k or a["kind"].startswith(k + ".") for k in case.only)]
        assert not wrong, tag + "context.only=%r but the server also offered %r" % (
            list(case.only), [(a["title"], a["kind"]) for a in wrong]) + why
    if "unsafe" in case.id:
        assert "(unsafe)" in case.title and not chosen["isPreferred"], tag + why
    if case.kind == "source.fixAll.irilint":
        # Every safe fix in one edit, for the whole document.
        lines = {e["start"][0] for e in chosen["edits"]}
        assert {MD_LINE, MD_LINE + 2} <= lines, tag + "the fix-all edit does not cover both lines: %r" % chosen["edits"] + why
        assert len({e["uri"] for e in chosen["edits"]}) == 1, tag + why

    # How it was applied.
    if case.via == "command":
        provider = r.get("execute_command_provider") or {}
        assert "irilint.applyEdit" in (provider.get("commands") or []), (
            tag + "the server does not advertise irilint.applyEdit: %r" % provider + why)
        response = r.get("execute_command_response") or {}
        assert response.get("error") in (None, {}) and response.get("result") is True, (
            tag + "workspace/executeCommand answered %r (expected applied: true)" % response + why)
    else:
        picked = r["ui_select"]
        assert picked["called"] and picked["chose"] and picked["kind"] == "codeaction", tag + why
        assert case.title in picked["presented"], tag + why

    # The exact text afterwards, the whole buffer.
    expected_line = case.expect[case.line]
    assert r["line_after"] == expected_line, (
        tag + "line %d after the action:\n  got      %r\n  expected %r"
        % (case.line, r["line_after"], expected_line) + why)
    assert r["buffer_after"] == list(case.expect), (
        tag + "buffer after the action:\n  got      %r\n  expected %r"
        % (r["buffer_after"], list(case.expect)) + why)
    # The file on disk is untouched: the edit is in the buffer.
    on_disk = (nvim_actions.workspace / case.file).read_bytes().decode("utf-8")
    assert on_disk == case.text, tag + "the file on disk changed" + why

    # Diagnostics afterwards (the driver waited until they were exactly so).
    codes_after = sorted({str(d["code"]) for d in r["diagnostics_after"]})
    assert codes_after == sorted(case.after_codes), (
        tag + "codes on the line after: %r, expected %r" % (codes_after, sorted(case.after_codes)) + why)
    if case.kind == "source.fixAll.irilint":
        safe_left = [d for d in r["buffer_diagnostics_after"]
                     if any(f.get("safe") for f in d.get("fixes") or [])]
        assert not safe_left, tag + "safe-fixable diagnostics left after fix-all: %r" % safe_left + why
    if case.title.startswith("Ignore "):
        # Nothing left in the document: the finding is suppressed, and the
        # new comment is not reported (as unused, or as a malformed one).
        assert r["buffer_diagnostics_after"] == [], (
            tag + "diagnostics left after the ignore comment: %r" % r["buffer_diagnostics_after"] + why)

    # Asked again at the same place.
    after = _titles(r["actions_after"])
    for title in case.gone_after:
        assert title not in after, tag + "%r is still offered afterwards: %r" % (title, after) + why
    for title in case.offered_after:
        assert title in after, tag + "%r is not offered afterwards: %r" % (title, after) + why


def test_every_advertised_kind_applied(nvim_actions: ActionsRun):
    """Every kind in the server's codeActionProvider.codeActionKinds, and every
    refactor title the server offered in any case, was applied by a case."""
    results = nvim_actions.by_id
    kinds = None
    for r in results.values():
        if r.get("code_action_kinds"):
            kinds = r["code_action_kinds"]
            break
    assert kinds, "no case recorded the server's code action kinds\n" + nvim_actions.why()
    # Applied: offered with the expected kind, and picking it changed the buffer
    # (whether the rest of its case passed is that case's test).
    applied = set()
    for c in CASES:
        r = results.get(c.id) or {}
        chosen = r.get("chosen") or {}
        if chosen.get("kind") == c.kind and r.get("buffer_after") not in (None, r.get("buffer_before")):
            applied.add((c.kind, c.title))
    missing = [k for k in kinds
               if not any(kind == k or kind.startswith(k + ".") for kind, _ in applied)]
    assert not missing, ("advertised code action kinds no case applied: %r; applied: %r\n"
                         % (missing, sorted(applied)) + nvim_actions.why())
    refactors = set()
    for r in results.values():
        for a in (r.get("actions") or []) + (r.get("actions_after") or []):
            if (a.get("kind") or "").startswith("refactor"):
                refactors.add(a["title"])
    untested = sorted(refactors - {t for _, t in applied})
    assert not untested, "refactor actions offered but never applied: %r" % untested
