"""Output formats for ``irilint check``: text, json (sarif and github too).

Every format works from :class:`Reported` findings, which carry 1-based
line and column numbers counted in code points.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from .findings import SLOTS, Finding
from .lines import LINE_TEXT_CONTEXT, LINE_TEXT_LIMIT, LineIndex, clip_line  # noqa: F401 (re-exported)

#: Where the rule documentation lives; diagnostics and SARIF link into it.
DOCS_URL = "https://github.com/irilint/irilint/blob/main/docs/rules.md"


def rule_url(rule: Any) -> str:
    return "%s#%s" % (DOCS_URL, rule.url_fragment)


@dataclass(**SLOTS)
class Reported:
    path: str
    finding: Finding
    line: int  # 1-based
    column: int  # 1-based, code points
    end_line: int
    end_column: int
    #: the text of the finding's first line (for reports), clipped around
    #: the finding when the line is longer than LINE_TEXT_LIMIT
    line_text: str = ""

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:  # as findings.Edit's
        return (Reported, (self.path, self.finding, self.line, self.column, self.end_line, self.end_column,
                           self.line_text))

    @property
    def rule(self) -> Any:
        return self.finding.rule


def located(path: str, findings: Sequence[Finding], index: LineIndex) -> Iterator[Reported]:
    """Each finding as a :class:`Reported`, in order, made when it is
    asked for: a printer writes a dense file's findings without a list of
    them all."""
    # Findings come in document order, often several on a line: its text
    # is taken once (from its start, without the line table), and shared
    # by them when it is short enough to be shown whole.
    position, line_text_from, n = index.position, index.line_text_from, len(index.text)
    last_line, last_text = -1, ""
    for f in findings:
        l1, c1 = position(f.start)
        l2, c2 = position(f.end)
        if l1 != last_line:
            last_line, last_text = l1, line_text_from(min(max(f.start, 0), n) - c1)
        yield Reported(path, f, l1 + 1, c1 + 1, l2 + 1, c2 + 1, clip_line(last_text, c1, c2 if l2 == l1 else c1))


def locate(path: str, findings: Sequence[Finding], index: LineIndex) -> List[Reported]:
    return list(located(path, findings, index))


class Located:
    """The findings of one file as a sequence of :class:`Reported`, each
    located (line, column, line text) when it is read, from the file's
    :class:`LineIndex`: what the process that prints holds instead of a
    list of them all.  Pickled (a worker's result), it is that list."""

    __slots__ = ("path", "findings", "index")

    def __init__(self, path: str, findings: Sequence[Finding], index: LineIndex) -> None:
        self.path = path
        self.findings = findings
        self.index = index

    def __len__(self) -> int:
        return len(self.findings)

    def __bool__(self) -> bool:
        return bool(self.findings)

    def __iter__(self) -> Iterator[Reported]:
        return located(self.path, self.findings, self.index)

    def __getitem__(self, at: Union[int, slice]) -> Union[Reported, List[Reported]]:
        if isinstance(at, slice):
            return locate(self.path, self.findings[at], self.index)
        return locate(self.path, [self.findings[at]], self.index)[0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Located):
            other = list(other)
        return list(self) == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence, compared by its items

    def __reduce__(self) -> Tuple[Any, Tuple[List[Reported]]]:
        return (list, (list(self),))


def findings_of(reported: Sequence[Reported]) -> Iterator[Finding]:
    """The findings of ``reported`` (a list of :class:`Reported`, a :class:`Located`
    or an irilint.large_files.LocatedStream), without locating them."""
    if getattr(reported, "findings", None) is not None:
        return iter(reported.findings)  # type: ignore[attr-defined]
    return (r.finding for r in reported)


def _edit_json(edit: Any, index: LineIndex) -> Dict[str, Any]:
    l1, c1 = index.position(edit.start)
    l2, c2 = index.position(edit.end)
    return {
        "start": {"line": l1 + 1, "column": c1 + 1},
        "end": {"line": l2 + 1, "column": c2 + 1},
        "offset": edit.start,
        "end_offset": edit.end,
        "new_text": edit.new_text,
    }


def to_json_obj(r: Reported, index: Optional[LineIndex]) -> Dict[str, Any]:
    f = r.finding
    fixes = []
    for fx in f.fixes:
        fixes.append({
            "title": fx.title,
            "safe": fx.safe,
            "edits": [_edit_json(e, index) for e in fx.edits] if index is not None else [],
        })
    return {
        "kind": "finding",
        "path": r.path,
        "line": r.line,
        "column": r.column,
        "end_line": r.end_line,
        "end_column": r.end_column,
        "code": f.rule.code,
        "name": f.rule.name,
        "family": f.rule.family,
        "severity": f.severity.label,
        "message": f.message,
        "iri": f.iri,
        "url": rule_url(f.rule),
        "fixes": fixes,
        "related": [_related_json(rel, r.path) for rel in f.related],
    }


def finding_json_text(r: Reported, index: Optional[LineIndex], indent: str = "  ") -> str:
    """``json_text(to_json_obj(r, index), indent)``, written straight from
    the finding (the output of a document dense with findings is mostly
    these records)."""
    f = r.finding
    rule = f.rule
    i1 = indent + "  "
    key = (rule, indent)
    rule_part = _rule_parts.get(key)
    if rule_part is None:
        rule_part = _rule_parts[key] = "".join(",\n%s%s: %s" % (i1, _encode_string(k), _encode_string(v)) for k, v in (
            ("code", rule.code), ("name", rule.name), ("family", rule.family)))
    enc = _encode_string
    parts = [
        '{\n%s"kind": "finding",\n%s"path": %s,\n%s"line": %d,\n%s"column": %d,\n%s"end_line": %d,\n'
        '%s"end_column": %d' % (i1, i1, _json_string(r.path), i1, r.line, i1, r.column, i1, r.end_line, i1,
                                r.end_column),
        rule_part,
        ',\n%s"severity": %s,\n%s"message": %s,\n%s"iri": %s,\n%s"url": %s,\n%s"fixes": ' % (
            i1, _json_string(f.severity.label), i1, enc(f.message), i1, enc(f.iri), i1,
            _json_string(rule_url(rule)), i1),
    ]
    if not f.fixes:
        parts.append("[]")
    else:
        i2, i3, i4, i5, i6 = _indents(i1)[:5]
        sep = "[\n" + i2
        for fx in f.fixes:
            parts.append('%s{\n%s"title": %s,\n%s"safe": %s,\n%s"edits": ' % (
                sep, i3, enc(fx.title), i3, "true" if fx.safe is True else "false" if fx.safe is False
                else json_text(fx.safe), i3))
            if index is None or not fx.edits:
                parts.append("[]")
            else:
                esep = "[\n" + i4
                for e in fx.edits:
                    l1, c1 = index.position(e.start)
                    l2, c2 = index.position(e.end)
                    parts.append(
                        '%s{\n%s"start": {\n%s"line": %d,\n%s"column": %d\n%s},\n%s"end": {\n%s"line": %d,\n'
                        '%s"column": %d\n%s},\n%s"offset": %s,\n%s"end_offset": %s,\n%s"new_text": %s\n%s}' % (
                            esep, i5, i6, l1 + 1, i6, c1 + 1, i5, i5, i6, l2 + 1, i6, c2 + 1, i5,
                            i5, _json_int(e.start), i5, _json_int(e.end), i5, enc(e.new_text), i4))
                    esep = ",\n" + i4
                parts.append("\n%s]" % i3)
            parts.append("\n%s}" % i2)
            sep = ",\n" + i2
        parts.append("\n%s]" % i1)
    parts.append(',\n%s"related": ' % i1)
    parts.append(json_text([_related_json(rel, r.path) for rel in f.related], i1) if f.related else "[]")
    parts.append("\n%s}" % indent)
    return "".join(parts)


#: (rule, indent) -> the part of a finding's JSON record that names its rule
_rule_parts: Dict[Any, str] = {}


def _json_int(n: Any) -> str:
    return "%d" % n if type(n) is int else json_text(n)


@lru_cache(maxsize=4096)
def _json_string(s: str) -> str:
    """The JSON string of a text that many records repeat (a path, its
    artifact URI, a severity, a rule's URL)."""
    return _encode_string(s)


def _related_json(rel: Any, path: str) -> Dict[str, Any]:
    """A related location: its path (the finding's own when it is in the
    same document), 1-based line, and columns when known (0: the line)."""
    out: Dict[str, Any] = {"path": rel.path if rel.path is not None else path, "line": rel.line}
    if rel.column:
        out.update(column=rel.column, end_line=rel.end_line, end_column=rel.end_column)
    out["message"] = rel.message
    return out


def format_text(r: Reported) -> str:
    # path:line:col: CODE name [severity] message.  The prefix up to the
    # name is fixed (scripts cut it); the severity follows in brackets, so
    # an errorformat "%f:%l:%c: %m" still takes everything after the column
    # as the message, and a reader sees how serious it is.
    return "%s:%d:%d: %s %s [%s] %s" % (r.path, r.line, r.column, r.rule.code, r.rule.name,
                                        r.finding.severity.label, _one_line(r.finding.message))


def _one_line(s: str) -> str:
    # A message must not break the one-finding-a-line shape, whatever
    # characters a hostile document put into it.
    return s.replace("\r", "\\r").replace("\n", "\\n")


def dumps_json(items: List[Dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, indent=2)


def json_text(value: Any, indent: str = "") -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)`` as it would
    appear nested in a larger such dump at a line indented by ``indent``
    (the same bytes, made with the C string encoder; the ``indent``
    encoder of :mod:`json` is pure Python).  Keys must be strings."""
    out: List[str] = []
    _json_parts(value, indent, out)
    return "".join(out)


def _json_parts(value: Any, indent: str, out: List[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(_encode_string(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        sep = "{\n" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError("json_text: a key that is not a string: %r" % (key,))
            out.append(sep + _encode_string(key) + ": ")
            _json_parts(item, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        sep = "[\n" + inner
        for item in value:
            out.append(sep)
            _json_parts(item, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    else:  # floats and the rest: as json renders them
        out.append(json.dumps(value, ensure_ascii=False))


def _string_encoder() -> Any:
    from json import encoder

    return encoder.encode_basestring  # the C one when the accelerator is built


_encode_string = _string_encoder()


class JsonArrayWriter:
    """A JSON array written item by item to ``out`` (``write(str)``),
    byte for byte what :func:`dumps_json` of the whole list writes, at
    nesting depth ``depth`` (0: the top level)."""

    def __init__(self, out: Any, depth: int = 0) -> None:
        self.out = out
        self.indent = "  " * depth
        self.count = 0

    def add(self, item: Any) -> None:
        inner = self.indent + "  "
        self.out.write(("[\n" if not self.count else ",\n") + inner + json_text(item, inner))
        self.count += 1

    def add_text(self, text: str) -> None:
        """Add an item already written as :func:`json_text` at this array's
        items' indent (``item_indent``)."""
        self.out.write(("[\n" if not self.count else ",\n") + self.indent + "  " + text)
        self.count += 1

    @property
    def item_indent(self) -> str:
        return self.indent + "  "

    def close(self) -> None:
        self.out.write("\n" + self.indent + "]" if self.count else "[]")


@dataclass(frozen=True)
class NotChecked:
    """A path that was not checked (or not wholly): ``kind`` is ``"error"``
    (unreadable, undecodable, a broken configuration, a fix that could not
    be written; the run exits 2) or ``"skipped"`` (binary, too large, a
    link out of the tree; the exit status is not changed).  ``message`` is
    the line printed on stderr, path included."""

    path: str
    kind: str
    message: str


def not_checked_json(nc: NotChecked) -> Dict[str, Any]:
    """An entry of the JSON list for a path that was not checked.  Findings
    carry ``"kind": "finding"``; these carry ``"error"`` or ``"skipped"``
    and no rule, position or fixes, so a CI tool sees the file."""
    return {"kind": nc.kind, "path": nc.path, "message": nc.message}


# -- SARIF 2.1.0 -----------------------------------------------------------------

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def sarif_log(reported: List[Reported], indexes: Dict[str, LineIndex], version: str,
              not_checked: Sequence[NotChecked] = ()) -> Dict[str, Any]:
    """A SARIF 2.1.0 log: every rule's metadata, and each result with its
    location, region and fixes.  Columns are 1-based code points
    (``columnKind: unicodeCodePoints``).  The run's one invocation lists
    each path that was not checked as a tool execution notification
    (SARIF s3.20.21): ``error`` for what made the run fail, ``note`` for
    a skip; ``executionSuccessful`` is false when there was an error."""
    rule_index = sarif_rule_index()
    descriptors = sarif_descriptors()
    results = [sarif_result(rep, indexes.get(rep.path), rule_index) for rep in reported]
    log = sarif_skeleton(descriptors, version, not_checked)
    log["runs"][0]["results"] = results
    return log


def sarif_rule_index() -> Dict[str, int]:
    """Rule name -> its index in the SARIF log's rules table."""
    from irilint.rules.registry import all_rules

    return {r.name: i for i, r in enumerate(all_rules())}


def sarif_descriptors() -> List[Dict[str, Any]]:
    """The SARIF log's rules table: every rule's metadata."""
    from irilint.rules.registry import all_rules

    descriptors = []
    for r in all_rules():
        descriptors.append({
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": _doc_section(r.doc, "What it does") or r.summary},
            "help": {"text": r.doc, "markdown": r.doc},
            "helpUri": rule_url(r),
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity.label], "enabled": r.enabled},
            "properties": {"family": r.family, "fix": r.fix, "tags": [r.family]},
        })
    return descriptors


def sarif_skeleton(descriptors: List[Dict[str, Any]], version: str,
                   not_checked: Sequence[NotChecked] = ()) -> Dict[str, Any]:
    """The SARIF log with an empty ``results`` (the last key of its run)."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "irilint",
                "version": version,
                "semanticVersion": version,
                "informationUri": DOCS_URL.rsplit("/blob/", 1)[0],
                "rules": descriptors,
            }},
            "invocations": [_sarif_invocation(not_checked)],
            "columnKind": "unicodeCodePoints",
            "results": [],
        }],
    }


def sarif_result(rep: Reported, index: Optional[Any], rule_index: Dict[str, int]) -> Dict[str, Any]:
    """One SARIF result: a finding with its location, region and fixes
    (``index``: the positions of its file's offsets, None for no fixes)."""
    f = rep.finding
    region = {"startLine": rep.line, "startColumn": rep.column,
              "endLine": rep.end_line, "endColumn": rep.end_column}
    if rep.line_text:
        region["snippet"] = {"text": rep.line_text}
    result: Dict[str, Any] = {
        "ruleId": f.rule.code,
        "ruleIndex": rule_index[f.rule.name],
        "level": _SARIF_LEVEL[f.severity.label],
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": _artifact_uri(rep.path)},
            "region": region,
        }}],
        "properties": {"name": f.rule.name, "severity": f.severity.label, "iri": f.iri},
    }
    if f.related:
        result["relatedLocations"] = _sarif_related(rep)
    if f.fixes and index is not None:
        result["fixes"] = _sarif_fixes(rep, index)
    return result


def _sarif_related(rep: Reported) -> List[Dict[str, Any]]:
    related = []
    for k, rel in enumerate(rep.finding.related):
        where: Dict[str, Any] = {"startLine": rel.line}
        if rel.column:
            where.update(startColumn=rel.column, endLine=rel.end_line, endColumn=rel.end_column)
        related.append({"id": k, "message": {"text": rel.message}, "physicalLocation": {
            "artifactLocation": {"uri": _artifact_uri(rel.path if rel.path is not None else rep.path)},
            "region": where}})
    return related


def _sarif_fixes(rep: Reported, index: Any) -> List[Dict[str, Any]]:
    fixes = []
    for fx in rep.finding.fixes:
        replacements = []
        for e in fx.edits:
            l1, c1 = index.position(e.start)
            l2, c2 = index.position(e.end)
            replacements.append({
                "deletedRegion": {"startLine": l1 + 1, "startColumn": c1 + 1,
                                  "endLine": l2 + 1, "endColumn": c2 + 1},
                "insertedContent": {"text": e.new_text},
            })
        fixes.append({
            # a title that gives its reason ("(unsafe: ...)") says it once
            "description": {"text": fx.title + (
                "" if fx.safe or "(unsafe" in fx.title else " (unsafe)")},
            "artifactChanges": [{"artifactLocation": {"uri": _artifact_uri(rep.path)},
                                 "replacements": replacements}],
        })
    return fixes


def sarif_result_text(rep: Reported, index: Optional[Any], rule_index: Dict[str, int], indent: str) -> str:
    """``json_text(sarif_result(rep, index, rule_index), indent)``, written
    straight from the finding."""
    f = rep.finding
    rule = f.rule
    enc = _encode_string
    i1, i2, i3, i4, i5, i6 = _indents(indent)[:6]
    label = f.severity.label
    parts = [
        '{\n%s"ruleId": %s,\n%s"ruleIndex": %d,\n%s"level": %s,\n%s"message": {\n%s"text": %s\n%s},\n'
        '%s"locations": [\n%s{\n%s"physicalLocation": {\n%s"artifactLocation": {\n%s"uri": %s\n%s},\n'
        '%s"region": {\n%s"startLine": %d,\n%s"startColumn": %d,\n%s"endLine": %d,\n%s"endColumn": %d' % (
            i1, enc(rule.code), i1, rule_index[rule.name], i1, enc(_SARIF_LEVEL[label]), i1, i2,
            enc(f.message), i1, i1, i2, i3, i4, i5, _json_string(_artifact_uri(rep.path)), i4,
            i4, i5, rep.line, i5, rep.column, i5, rep.end_line, i5, rep.end_column),
    ]
    if rep.line_text:
        parts.append(',\n%s"snippet": {\n%s"text": %s\n%s}' % (i5, i6, enc(rep.line_text), i5))
    parts.append('\n%s}\n%s}\n%s}\n%s],\n%s"properties": {\n%s"name": %s,\n%s"severity": %s,\n%s"iri": %s\n%s}' % (
        i4, i3, i2, i1, i1, i2, enc(rule.name), i2, enc(label), i2, enc(f.iri), i1))
    if f.related:
        parts.append(',\n%s"relatedLocations": %s' % (i1, json_text(_sarif_related(rep), i1)))
    if f.fixes and index is not None:
        parts.append(',\n%s"fixes": ' % i1)
        _sarif_fixes_text(rep, index, i1, parts)
    parts.append("\n%s}" % indent)
    return "".join(parts)


def _sarif_fixes_text(rep: Reported, index: Any, indent: str, parts: List[str]) -> None:
    """``json_text(_sarif_fixes(rep, index), indent)``, into ``parts``."""
    enc = _encode_string
    i1, i2, i3, i4, i5, i6, i7 = _indents(indent)
    uri = _json_string(_artifact_uri(rep.path))
    sep = "[\n" + i1
    for fx in rep.finding.fixes:
        title = fx.title + ("" if fx.safe or "(unsafe" in fx.title else " (unsafe)")
        parts.append('%s{\n%s"description": {\n%s"text": %s\n%s},\n%s"artifactChanges": [\n%s{\n'
                     '%s"artifactLocation": {\n%s"uri": %s\n%s},\n%s"replacements": ' % (
                         sep, i2, i3, enc(title), i2, i2, i3, i4, i5, uri, i4, i4))
        if not fx.edits:
            parts.append("[]")
        else:
            esep = "[\n" + i5
            for e in fx.edits:
                l1, c1 = index.position(e.start)
                l2, c2 = index.position(e.end)
                parts.append('%s{\n%s"deletedRegion": {\n%s"startLine": %d,\n%s"startColumn": %d,\n'
                             '%s"endLine": %d,\n%s"endColumn": %d\n%s},\n%s"insertedContent": {\n%s"text": %s\n%s}\n%s}' % (
                                 esep, i6, i7, l1 + 1, i7, c1 + 1, i7, l2 + 1, i7, c2 + 1, i6, i6, i7,
                                 enc(e.new_text), i6, i5))
                esep = ",\n" + i5
            parts.append("\n%s]" % i4)
        parts.append("\n%s}\n%s]\n%s}" % (i3, i2, i1))
        sep = ",\n" + i1
    parts.append("\n%s]" % indent)


def _sarif_invocation(not_checked: Sequence[NotChecked]) -> Dict[str, Any]:
    notifications = []
    for nc in not_checked:
        notifications.append({
            "level": "error" if nc.kind == "error" else "note",
            "message": {"text": nc.message},
            "descriptor": {"id": "not-checked" if nc.kind == "error" else "skipped"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _artifact_uri(nc.path)}}}],
        })
    return {
        "executionSuccessful": not any(nc.kind == "error" for nc in not_checked),
        "toolExecutionNotifications": notifications,
    }


@lru_cache(maxsize=4096)
def _artifact_uri(path: str) -> str:
    from urllib.parse import quote

    return quote(path.replace("\\", "/"), safe="/:@-._~!$&'()*+,;=")


@lru_cache(maxsize=64)
def _indents(indent: str) -> Tuple[str, ...]:
    """``indent`` and 1 to 7 more levels of two spaces."""
    return tuple(indent + "  " * k for k in range(1, 8))


def _doc_section(doc: str, title: str) -> str:
    marker = "## %s\n" % title
    i = doc.find(marker)
    if i < 0:
        return ""
    j = doc.find("\n## ", i + len(marker))
    return doc[i + len(marker):j if j >= 0 else len(doc)].strip()


# -- GitHub Actions workflow commands ------------------------------------------------

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_property(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_github(r: Reported) -> str:
    """``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message``."""
    f = r.finding
    props = "file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s" % (
        _gh_escape_property(r.path), r.line, r.column, r.end_line, r.end_column,
        _gh_escape_property("%s %s" % (f.rule.code, f.rule.name)))
    return "::%s %s::%s" % (_GITHUB_LEVEL[f.severity.label], props, _gh_escape_data(f.message))
