"""Findings as LSP diagnostics: the JSON a diagnostic is
(:func:`diagnostic_json`, the one place that decides what it says), the same
as lsprotocol objects (:func:`to_diagnostic`), and for a whole document at
once as dicts (:func:`diagnostics_json`) or as the JSON text a push sends
(:func:`diagnostics_text`), both tested equal to the one-finding conversion."""
from __future__ import annotations

import json
from bisect import bisect_right
from typing import Any, Dict, List, Optional, Tuple

from lsprotocol import types

from irilint.findings import Finding, Severity
from irilint.lines import LineIndex, column_units
from irilint.output import DOCS_URL, rule_url

SOURCE = "irilint"
#: Rule documentation (one address for every output: irilint.output)
RULES_URL = DOCS_URL

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


#: Rule.tags -> the LSP tag an editor shows them with
_DIAGNOSTIC_TAGS = {
    "unnecessary": types.DiagnosticTag.Unnecessary,
    "deprecated": types.DiagnosticTag.Deprecated,
}


def finding_data(f: Finding, version: Optional[int]) -> Dict[str, Any]:
    """What a code action needs, in document offsets (code points) of
    ``version``."""
    return {
        "rule": f.rule.name,
        "code": f.rule.code,
        "version": version,
        "start": f.start,
        "end": f.end,
        "fixes": [
            {"title": fx.title, "safe": fx.safe,
             "edits": [[e.start, e.end, e.new_text] for e in fx.edits]}
            for fx in f.fixes
        ],
    }


def _same_document_related(f: Finding) -> List[Any]:
    """The related locations of ``f`` that are in its own document (the
    only ones an editor can point at: other files are named by path and
    line in the message)."""
    return [r for r in f.related if r.path is None and r.start >= 0]


def to_diagnostic(f: Finding, index: LineIndex, encoding: str, version: Optional[int],
                  uri: Optional[str] = None) -> types.Diagnostic:
    """:func:`diagnostic_json` as an lsprotocol object: what a diagnostic
    says is decided there only.  ``uri``: the document's, for related
    information (none without it)."""
    d = diagnostic_json(f, index, encoding, version, uri)
    related = d.get("relatedInformation")
    return types.Diagnostic(
        related_information=[types.DiagnosticRelatedInformation(
            location=types.Location(uri=r["location"]["uri"], range=_range(r["location"]["range"])),
            message=r["message"]) for r in related] if related else None,
        range=_range(d["range"]),
        message=d["message"],
        severity=types.DiagnosticSeverity(d["severity"]),
        code=d["code"],
        code_description=types.CodeDescription(href=d["codeDescription"]["href"]),
        source=d["source"],
        tags=[types.DiagnosticTag(t) for t in d["tags"]] if "tags" in d else None,
        data=d["data"],
    )


def _range(r: Dict[str, Any]) -> types.Range:
    return types.Range(start=types.Position(line=r["start"]["line"], character=r["start"]["character"]),
                       end=types.Position(line=r["end"]["line"], character=r["end"]["character"]))


def diagnostic_json(f: Finding, index: LineIndex, encoding: str, version: Optional[int],
                    uri: Optional[str] = None) -> Dict[str, Any]:
    """A finding as the JSON of an LSP diagnostic, as pygls would send
    :func:`to_diagnostic`'s object (tested), made without lsprotocol objects
    and the converter: a change re-publishes every diagnostic of a
    document.  The one place that decides what a diagnostic says."""
    start_line, start_col = index.position(f.start, encoding)
    end_line, end_col = index.position(f.end, encoding)
    rule = f.rule
    out: Dict[str, Any] = {
        "range": {"start": {"line": start_line, "character": start_col},
                  "end": {"line": end_line, "character": end_col}},
        "message": "%s: %s" % (rule.name, f.message),
        "severity": int(SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning)),
        "code": rule.code,
        "codeDescription": {"href": rule_url(rule)},
        "source": SOURCE,
        "data": finding_data(f, version),
    }
    if rule.tags:
        out["tags"] = [int(_DIAGNOSTIC_TAGS[t]) for t in sorted(rule.tags)]
    if uri is not None and f.related:
        related = []
        for r in _same_document_related(f):
            l1, c1 = index.position(r.start, encoding)
            l2, c2 = index.position(r.end, encoding)
            related.append({"location": {"uri": uri, "range": {
                "start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}},
                "message": r.message})
        if related:
            out["relatedInformation"] = related
    return out


def _positions(findings: List[Finding], index: LineIndex, encoding: str) -> Any:
    """Each finding with its range (line, column, end line, end column),
    converted with the line table and the text looked up once, an end on
    its start's line counted from the start."""
    text = index.text
    starts = index.starts
    n_lines = len(starts)
    size = len(text)
    code_points = encoding == "utf-32"
    for f in findings:
        a = f.start
        b = f.end
        a = 0 if a < 0 else size if a > size else a
        b = 0 if b < 0 else size if b > size else b
        line = bisect_right(starts, a) - 1
        first = starts[line]
        col = a - first if code_points else column_units(text[first:a], encoding)
        following = starts[line + 1] if line + 1 < n_lines else size + 1
        if a <= b < following:  # on the same line: count from the start
            yield f, line, col, line, col + (b - a if code_points else column_units(text[a:b], encoding))
        else:
            end_line, end_col = index.position(b, encoding)
            yield f, line, col, end_line, end_col


def diagnostics_json(findings: List[Finding], index: LineIndex, encoding: str, version: Optional[int],
                     uri: Optional[str] = None) -> List[Dict[str, Any]]:
    """:func:`diagnostic_json` of each finding, in order (tested equal),
    made for many findings at once: positions by :func:`_positions`, and
    what a diagnostic says apart from where (message, severity, code,
    address, tags) made once per rule, severity and message: a document
    dense with findings repeats a few of them."""
    # Each diagnostic is ~10 new dicts and lists that live until the next
    # version: with the cyclic collector running, its young collections
    # traverse them over and over (a document dense with findings, 1 MB:
    # 25 -> 5 us per diagnostic).  Nothing here makes a cycle.  The pause
    # is the engine's: shared with checks running at the same time.
    from irilint.engine import _GC_PAUSE

    said: Dict[Any, Tuple[str, int, str, str, Optional[List[int]]]] = {}
    out: List[Dict[str, Any]] = []
    append = out.append
    with _GC_PAUSE:
        for f, line, col, end_line, end_col in _positions(findings, index, encoding):
            if f.related and uri is not None:
                append(diagnostic_json(f, index, encoding, version, uri))
                continue
            rule = f.rule
            key = (rule, f.severity, f.message)
            static = said.get(key)
            if static is None:
                static = said[key] = (
                    "%s: %s" % (rule.name, f.message),
                    int(SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning)),
                    rule.code, rule_url(rule),
                    [int(_DIAGNOSTIC_TAGS[t]) for t in sorted(rule.tags)] if rule.tags else None)
            d: Dict[str, Any] = {
                "range": {"start": {"line": line, "character": col},
                          "end": {"line": end_line, "character": end_col}},
                "message": static[0],
                "severity": static[1],
                "code": static[2],
                "codeDescription": {"href": static[3]},
                "source": SOURCE,
                "data": finding_data(f, version),
            }
            if static[4] is not None:
                d["tags"] = list(static[4])
            append(d)
    return out


def _json_string(cache: Dict[str, str], value: str) -> str:
    out = cache.get(value)
    if out is None:
        out = cache[value] = json.dumps(value)
    return out


class TextReuse:
    """The diagnostics' JSON texts of a document's last publication, kept
    for the next one: a finding the engine gives again as the same object
    (its per-reference memo does for every reference an edit did not
    touch or move) at the same position is not written again, only its
    ``version`` changes.  One per document, used by one thread at a time."""

    #: above this many findings nothing is kept (memory: a tuple per finding)
    MAX_FINDINGS = 20000

    def __init__(self) -> None:
        #: id(finding) -> (finding, its fixes, start, end, (line, column,
        #: end line, end column), text, where the version starts in the text)
        self.entries: Dict[int, Tuple[Any, ...]] = {}
        #: the version as written in the texts kept
        self.version_text = ""


def diagnostics_text(findings: List[Finding], index: LineIndex, encoding: str, version: Optional[int],
                     uri: Optional[str] = None, reuse: Optional[TextReuse] = None) -> List[str]:
    """Each diagnostic of :func:`diagnostics_json` as JSON text (tested
    equal once read): what a push sends, made without dicts nor an
    encoder; the strings are escaped by ``json.dumps`` (ASCII out), once
    per distinct string.  ``reuse``: the texts of the document's previous
    publication, taken again where they fit (see :class:`TextReuse`) and
    replaced by this one's."""
    strings: Dict[str, str] = {}
    said: Dict[Any, Tuple[str, str, str]] = {}
    version_text = "null" if version is None else "%d" % version
    out: List[str] = []
    append = out.append
    keep = reuse is not None and len(findings) <= TextReuse.MAX_FINDINGS
    before: Dict[int, Tuple[Any, ...]] = reuse.entries if keep else {}  # type: ignore[union-attr]
    old_version = len(reuse.version_text) if keep else 0  # type: ignore[union-attr]
    same_version = keep and reuse.version_text == version_text  # type: ignore[union-attr]
    kept: Dict[int, Tuple[Any, ...]] = {}
    for f, line, col, end_line, end_col in _positions(findings, index, encoding):
        if f.related and uri is not None:  # related places: the one-finding conversion
            append(json.dumps(diagnostic_json(f, index, encoding, version, uri)))
            continue
        if keep:
            last = before.get(id(f))
            # the same finding (objects the memo shares are never changed)
            # where it was: all but the version is what it was
            if last is not None and last[0] is f and last[1] is f.fixes and last[2] == f.start \
                    and last[3] == f.end and last[4] == (line, col, end_line, end_col):
                text, cut = last[5], last[6]
                if not same_version:
                    text = text[:cut] + version_text + text[cut + old_version:]
                append(text)
                kept[id(f)] = (f, f.fixes, f.start, f.end, last[4], text, cut)
                continue
        rule = f.rule
        key = (rule, f.severity, f.message)
        static = said.get(key)
        if static is None:
            static = said[key] = (
                '"message": %s, "severity": %d, "code": %s, "codeDescription": {"href": %s}, '
                '"source": %s' % (
                    json.dumps("%s: %s" % (rule.name, f.message)),
                    int(SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning)),
                    json.dumps(rule.code), json.dumps(rule_url(rule)), json.dumps(SOURCE)),
                '"rule": %s, "code": %s' % (json.dumps(rule.name), json.dumps(rule.code)),
                ', "tags": [%s]' % ", ".join("%d" % int(_DIAGNOSTIC_TAGS[t]) for t in sorted(rule.tags))
                if rule.tags else "")
        said_text, data_head, tags = static
        fixes = ", ".join(
            '{"title": %s, "safe": %s, "edits": [%s]}' % (
                _json_string(strings, fx.title), "true" if fx.safe else "false",
                ", ".join("[%d, %d, %s]" % (e.start, e.end, _json_string(strings, e.new_text))
                          for e in fx.edits))
            for fx in f.fixes)
        head = ('{"range": {"start": {"line": %d, "character": %d}, "end": {"line": %d, "character": %d}}, '
                '%s, "data": {%s, "version": ' % (line, col, end_line, end_col, said_text, data_head))
        text = '%s%s, "start": %d, "end": %d, "fixes": [%s]}%s}' % (
            head, version_text, f.start, f.end, fixes, tags)
        append(text)
        if keep:
            kept[id(f)] = (f, f.fixes, f.start, f.end, (line, col, end_line, end_col), text, len(head))
    if reuse is not None:
        reuse.entries = kept
        reuse.version_text = version_text
    return out
