"""Code actions.

* ``quickfix``: one per fix of each finding in the range (the finding's
  first safe fix is ``isPreferred``; an unsafe fix says "(unsafe)"), and
  "Ignore RULE on this line", which writes ``irilint: ignore[rule-name]``
  in the file's own comment syntax (the scanner's first comment syntax:
  ``<!-- ... -->`` for Markdown/HTML/XML, ``# ...`` for Python, TOML, YAML
  and plain text, ``// ...`` for C-like languages), appended to the line; a
  line that already has an ``irilint: ignore[...]`` gets the rule added to
  its list instead.  reST comments cannot follow text, so there the comment
  ``.. irilint: ignore[rule-name]`` goes on its own line just above the
  finding's line (indented like it, with the blank lines reST needs around
  a comment), and an existing one there is extended.
* ``source.fixAll.irilint``: every safe fix, non-overlapping
  (:func:`irilint.fix_loop.fixes_to_apply`).
* ``refactor.rewrite`` on the IRI under the cursor, with or without
  findings: "Convert to URI" (RFC 3987 s3.1), "Convert to IRI" (s3.2),
  "Normalize to NFC", each offered only when it changes something.

Every action carries its ``edit`` (a WorkspaceEdit with ``documentChanges``
when the client supports them, else ``changes``), so a client applies it
without running a command.  A client without code action literals gets
``Command`` objects instead, run by ``irilint.applyEdit`` which sends
``workspace/applyEdit``.
"""
from __future__ import annotations

import asyncio
import difflib
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Set, Tuple

from lsprotocol import types

from irilint.findings import Edit, Finding, Fix, differing_runs
from irilint.scanners.base import CommentSyntax

from .convert_positions import from_range, to_range
from .diagnostics import SOURCE
from .documents import Document
from .scanning import candidate_at, candidates, comment_syntax, is_own_line, scanner_for_document

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

FIX_ALL_KIND = "source.fixAll.irilint"
APPLY_EDIT_COMMAND = "irilint.applyEdit"
KINDS = [
    types.CodeActionKind.QuickFix,
    types.CodeActionKind.RefactorRewrite,
    types.CodeActionKind.SourceFixAll,
    FIX_ALL_KIND,
]


def _wanted(only: Optional[Sequence[str]], kind: str) -> bool:
    """``context.only`` filters by kind prefix ("source" matches
    "source.fixAll.irilint")."""
    if not only:
        return True
    for o in only:
        o = str(getattr(o, "value", o))
        if kind == o or kind.startswith(o + "."):
            return True
    return False


def _overlaps(a: int, b: int, start: int, end: int) -> bool:
    """Whether ``[a, b)`` meets the requested range (a cursor touches it)."""
    if start == end or a == b:
        return a <= end and start <= b
    return a < end and start < b


class _Builder:
    def __init__(self, server: "IrilintLanguageServer", doc: Document) -> None:
        self.server = server
        self.doc = doc
        self.index = doc.index
        self.encoding = server.documents.encoding

    def workspace_edit(self, edits: Iterable[Edit]) -> types.WorkspaceEdit:
        text_edits = [
            types.TextEdit(range=to_range(self.index, e.start, e.end, self.encoding), new_text=e.new_text)
            for e in sorted(edits, key=lambda e: (e.start, e.end))
        ]
        if self.server.client_supports_document_changes():
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=self.doc.uri, version=self.doc.version),
                edits=text_edits)])
        return types.WorkspaceEdit(changes={self.doc.uri: text_edits})

    def action(self, title: str, kind: str, edits: Iterable[Edit],
               diagnostics: Optional[List[types.Diagnostic]] = None,
               preferred: Optional[bool] = None) -> types.CodeAction:
        return types.CodeAction(title=title, kind=kind, edit=self.workspace_edit(edits),
                                diagnostics=diagnostics or None, is_preferred=preferred or None)


def takes_comments(doc: Document, scanner: Any) -> bool:
    """Whether a suppression comment can be written: plain JSON has no
    comments (JSONC and JSON5 do)."""
    if getattr(scanner, "name", "") != "json":
        return True
    lang = (doc.language_id or "").lower()
    path = (doc.path or doc.uri).lower()
    return lang in ("jsonc", "json5") or path.endswith((".jsonc", ".json5"))


def fix_title(fix: Fix) -> str:
    if not fix.safe and "unsafe" not in fix.title.lower():
        return fix.title + " (unsafe)"
    return fix.title


class _Item:
    """A finding as code actions see it: from the diagnostic's ``data`` or
    from the server's own results."""

    def __init__(self, rule: str, code: str, start: int, end: int, fixes: List[Fix],
                 diagnostic: Optional[types.Diagnostic]) -> None:
        self.rule, self.code, self.start, self.end = rule, code, start, end
        self.fixes = fixes
        self.diagnostic = diagnostic

    @property
    def key(self) -> Tuple[str, int, int]:
        return (self.code, self.start, self.end)


def _item_from_data(d: types.Diagnostic, version: Optional[int]) -> Optional[_Item]:
    data = d.data
    if d.source != SOURCE or not isinstance(data, dict) or data.get("version") != version:
        return None
    try:
        fixes = [Fix(str(fx["title"]), tuple(Edit(int(a), int(b), str(t)) for a, b, t in fx["edits"]),
                     bool(fx["safe"])) for fx in data.get("fixes", ())]
        return _Item(str(data["rule"]), str(data.get("code") or d.code), int(data["start"]),
                     int(data["end"]), fixes, d)
    except (KeyError, TypeError, ValueError):
        return None


def _item_from_finding(f: Finding, diagnostic: Optional[types.Diagnostic]) -> _Item:
    return _Item(f.rule.name, f.rule.code, f.start, f.end, list(f.fixes), diagnostic)


async def code_actions(server: "IrilintLanguageServer", params: types.CodeActionParams) -> List[Any]:
    doc = server.documents.get(params.text_document.uri)
    if doc is None:  # not open (or closed meanwhile): nothing to offer
        return []
    version, text = doc.version, doc.text
    result = await server.linter.result_for(doc)
    if doc.text is not text or result.text is not text:
        return []  # edited meanwhile: the client asks again
    if result.skipped:
        return []  # too large, or excluded
    b = _Builder(server, doc)
    start, end = from_range(b.index, params.range, b.encoding)
    only = params.context.only
    # Neovim 0.7 documents `code_action({only = 'quickfix'})`: a bare
    # string where LSP wants a list.  Take it as the one-item list it means
    # (it may arrive as the string or as its characters).
    if isinstance(only, str):
        only = [only]
    elif only and all(isinstance(o, str) and len(o) == 1 for o in only):
        only = ["".join(only)]
    actions: List[types.CodeAction] = []

    # Findings: the diagnostics the client sent (their data, when it is for
    # this version), then the server's own findings in the range.
    items: List[_Item] = []
    seen: Set[Tuple[str, int, int]] = set()
    own = {(f.rule.code, f.start, f.end): f for f in result.findings}
    for d in params.context.diagnostics or ():
        item = _item_from_data(d, version)
        if item is None and d.source == SOURCE:
            a, z = from_range(b.index, d.range, b.encoding)
            f = own.get((str(d.code), a, z))
            item = _item_from_finding(f, d) if f is not None else None
        if item is not None and item.key not in seen:
            seen.add(item.key)
            items.append(item)
    for f in result.findings:
        key = (f.rule.code, f.start, f.end)
        if key not in seen and _overlaps(f.start, f.end, start, end):
            seen.add(key)
            diag = next((d for d in result.diagnostics
                         if isinstance(d.data, dict) and d.code == f.rule.code
                         and d.data.get("start") == f.start and d.data.get("end") == f.end), None)
            items.append(_item_from_finding(f, diag))

    if _wanted(only, types.CodeActionKind.QuickFix):
        for item in items:
            diags = [item.diagnostic] if item.diagnostic is not None else None
            preferred_given = False
            for fx in item.fixes:
                preferred = fx.safe and not preferred_given
                preferred_given = preferred_given or preferred
                actions.append(b.action(fix_title(fx), types.CodeActionKind.QuickFix, fx.edits,
                                        diags, preferred))
        scanner = result.scanner or scanner_for_document(doc, result.settings)
        syntax = comment_syntax(scanner)
        from irilint.rules.registry import get_rule

        done: Set[Tuple[int, str]] = set()
        for item in (items if takes_comments(doc, scanner) else ()):
            line = b.index.line_of(item.start)
            rule = get_rule(item.rule)
            if (rule is not None and not rule.suppressible) or (line, item.rule) in done:
                continue
            done.add((line, item.rule))
            edit = ignore_edit(text, b.index, line, item.rule, syntax)
            if edit is not None:
                diags = [item.diagnostic] if item.diagnostic is not None else None
                actions.append(b.action("Ignore %s (%s) on this line" % (item.rule, item.code),
                                        types.CodeActionKind.QuickFix, [edit], diags))

    if _wanted(only, FIX_ALL_KIND) and result.findings:
        fix_all = await _fix_all_for(server, text, result, doc)
        if doc.text is not text:
            return []  # edited meanwhile: the client asks again
        if fix_all:
            actions.append(b.action("Fix all safe irilint problems", FIX_ALL_KIND, fix_all))

    if _wanted(only, types.CodeActionKind.RefactorRewrite):
        actions.extend(refactor_actions(server, doc, b, start, end, result))

    if not server.client_supports_code_action_literals():
        return [_as_command(a) for a in actions]
    return actions


async def _fix_all_for(server: "IrilintLanguageServer", text: str, result: Any,
                       doc: Document) -> List[Edit]:
    """The fix-all edits of a lint result: computed once per result, in the
    lint worker (it checks the whole document again, maybe several times:
    seconds for a large one, which must not stop the event loop), shared by
    concurrent requests and kept for the next ones (a client asks for code
    actions at every cursor move)."""
    future = result.extra.get("fix_all")
    if future is None:
        future = server.linter.run_in_worker(_fix_all_edits, text, result, doc, server.linter.engine)
        result.extra["fix_all"] = future

        def forget_failure(f: Any) -> None:
            if (f.cancelled() or f.exception() is not None) and result.extra.get("fix_all") is f:
                del result.extra["fix_all"]

        future.add_done_callback(forget_failure)
    return list(await asyncio.shield(future))


def _fix_all_edits(text: str, result: Any, doc: Document, engine_of: Any = None) -> List[Edit]:
    """Every safe fix, as ``irilint check --fix`` applies them: fix, check
    again, until nothing changes (one fix can make another possible, as
    uppercasing "%7e" before decoding it to "~"); then one trimmed edit per
    changed run of lines, so the editor keeps cursors and marks elsewhere.
    ``engine_of``: the linter's engine (its memo re-checks only the
    references a pass changed), called in the lint worker."""
    from irilint.engine import default_engine
    from irilint.fix_loop import fix_until_stable

    engine = engine_of() if engine_of is not None else default_engine()
    # The result's findings are the first pass: a document with no safe fix
    # costs no check.
    new, _applied = fix_until_stable(engine, text, path=getattr(doc, "path", None),
                                     settings=result.settings, scanner=result.scanner,
                                     findings=result.findings)
    if new == text:
        return []
    old_lines = text.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    old_starts = [0]
    for line in old_lines:
        old_starts.append(old_starts[-1] + len(line))
    new_starts = [0]
    for line in new_lines:
        new_starts.append(new_starts[-1] + len(line))
    out: List[Edit] = []
    for i1, i2, j1, j2 in _changed_line_runs(old_lines, new_lines):
        a, b = old_starts[i1], old_starts[i2]
        c, d = new_starts[j1], new_starts[j2]
        old_part, new_part = text[a:b], new[c:d]
        k = 0
        while k < min(len(old_part), len(new_part)) and old_part[k] == new_part[k]:
            k += 1
        e1, e2 = len(old_part), len(new_part)
        while e1 > k and e2 > k and old_part[e1 - 1] == new_part[e2 - 1]:
            e1 -= 1
            e2 -= 1
        out.append(Edit(a + k, a + e1, new_part[k:e2]))
    return out


def _changed_line_runs(old: List[str], new: List[str]) -> List[Tuple[int, int, int, int]]:
    """The runs of lines that differ, as (old start, old end, new start,
    new end).  Fixes rewrite IRIs inside lines, so the line count rarely
    changes: then the lines are compared pairwise, in linear time (difflib
    is quadratic on a large document with many equal lines: minutes for a
    few MB).  Otherwise difflib."""
    if len(old) != len(new):
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    return [(i, j, i, j) for i, j in differing_runs(old, new)]


def refactor_actions(server: "IrilintLanguageServer", doc: Document, b: _Builder,
                     start: int, end: int, result: Any) -> List[types.CodeAction]:
    from irilint.convert import nfc, to_uri
    from irilint.engine import default_engine

    scanner = result.scanner or scanner_for_document(doc, result.settings)
    cand = candidate_at(candidates(doc, scanner, server.settings.generation), start, end, touching=True)
    if cand is None:
        return []
    out = []
    value = cand.value
    # Like ``irilint convert --to iri``: a piece whose Unicode form a
    # look-alike, bidi or host rule flags stays encoded, and the title says so.
    # (The engine's default instance: the linter's own is for its worker.)
    iri, kept = default_engine().safe_to_iri(value, result.settings)
    iri_title = "Convert to IRI"
    if kept:
        iri_title += " (keeps %s encoded: flagged by %s)" % (
            ", ".join(k.piece.encoded for k in kept),
            ", ".join(dict.fromkeys(k.finding.rule.name for k in kept)))
    for title, new in (("Convert to URI", to_uri(value)), (iri_title, iri),
                       ("Normalize to NFC", nfc(value))):
        if new != value:
            out.append(b.action(title, types.CodeActionKind.RefactorRewrite,
                                value_edits(cand, value, new)))
    return out


def value_edits(cand: Any, old: str, new: str) -> List[Edit]:
    """Edits that turn the reference's value ``old`` into ``new`` in the
    document.  Only the changed parts are rewritten, mapped through the
    scanner's offsets, so unchanged source text (``&amp;`` in HTML, escapes
    in strings) stays as it was."""
    if cand.offsets is None and old == new:
        return []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    edits: List[Edit] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        a, z = cand.source_span(i1, i2)
        edits.append(Edit(a, z, new[j1:j2]))
    return edits


def ignore_edit(text: str, index: Any, line: int, rule: str, syntax: CommentSyntax) -> Optional[Edit]:
    """The edit that suppresses ``rule`` on ``line``; None when it already is.

    A suppression that already covers the line (on it, or alone on the
    line above as the engine allows) gets the rule added to its list;
    otherwise a comment is appended to the line, or for reST put on its own
    line above it."""
    from irilint.suppressions import find_suppressions

    covering = []
    for s in find_suppressions(text, index):
        if s.whole_file:
            continue
        covers = getattr(s, "covers", None)
        if (covers(line) if covers is not None else s.line == line):
            covering.append(s)
    covering.sort(key=lambda s: (s.line != line, s.start))  # the line's own first
    for s in covering:
        if not s.selectors and text[s.end - 1:s.end] != "]":
            return None  # a bare "irilint: ignore" covers every rule
        if rule in s.selectors:
            return None
    for s in covering:
        if text[s.end - 1:s.end] == "]":
            return Edit(s.end - 1, s.end - 1, (", " if s.selectors else "") + rule)
    if is_own_line(syntax):
        return _own_line_comment(text, index, line, rule, syntax)
    stop = index.line_end(line)
    content = index.line_text(line)
    comment = "%s irilint: ignore[%s]" % (syntax.prefix, rule)
    if syntax.suffix:
        opened = text.rfind(syntax.prefix, 0, stop)
        if opened >= 0 and text.rfind(syntax.suffix, 0, stop) < opened:
            # the line ends inside an open comment: a nested "-->" would
            # close it early, and the marker is already in a comment
            comment = "irilint: ignore[%s]" % rule
        else:
            comment += " " + syntax.suffix
    # Two spaces before a line comment (PEP 8 and most C-like styles), one
    # before a markup comment, counting the spaces already there.
    wanted = 1 if syntax.suffix else 2
    trailing = len(content) - len(content.rstrip(" \t"))
    sep = "" if not content.strip() else " " * max(0, wanted - trailing)
    return Edit(stop, stop, sep + comment)


def _own_line_comment(text: str, index: Any, line: int, rule: str, syntax: CommentSyntax) -> Edit:
    """``.. irilint: ignore[rule]`` alone on a line above ``line``, indented
    like it, with the blank lines reST needs around a comment (the engine
    applies a comment alone on its line to the next line with text)."""
    content = index.line_text(line)
    indent = content[: len(content) - len(content.lstrip(" \t"))]
    eol = _line_end_of(text, index)
    start = index.starts[line]
    before = "" if line == 0 or not index.line_text(line - 1).strip() else eol
    return Edit(start, start, "%s%s%s irilint: ignore[%s]%s%s" % (
        before, indent, syntax.prefix, rule, eol, eol))


def _line_end_of(text: str, index: Any) -> str:
    if index.line_count > 1:
        first = index.line_text(0, keep_end=True)[len(index.line_text(0)):]
        if first:
            return first
    return "\n"


def _as_command(action: types.CodeAction) -> types.Command:
    from lsprotocol.converters import get_converter

    return types.Command(title=action.title, command=APPLY_EDIT_COMMAND,
                         arguments=[get_converter().unstructure(action.edit)])


async def apply_edit_command(server: "IrilintLanguageServer", edit: Any) -> Any:
    from lsprotocol.converters import get_converter

    if isinstance(edit, dict):
        edit = get_converter().structure(edit, types.WorkspaceEdit)
    result = await server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit))
    return getattr(result, "applied", None)

