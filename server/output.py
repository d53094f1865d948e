"""Output formats for ``irilint check``: text, json (sarif and github too).

Every format works from :class:`Reported` findings, which carry 1-based
line and column numbers counted in code points.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from .findings import Finding
from .lines import LineIndex

#: Where the rule documentation lives; diagnostics and SARIF link into it.
DOCS_URL = "https://github.com/irilint/irilint/blob/main/docs/rules.md"


def rule_url(rule: Any) -> str:
    return "%s#%s" % (DOCS_URL, rule.url_fragment)


@dataclass
class Reported:
    path: str
    finding: Finding
    line: int  # 1-based
    column: int  # 1-based, code points
    end_line: int
    end_column: int
    #: the text of the finding's first line (for reports)
    line_text: str = ""

    @property
    def rule(self) -> Any:
        return self.finding.rule


def locate(path: str, findings: Sequence[Finding], index: LineIndex) -> List[Reported]:
    out: List[Reported] = []
    for f in findings:
        l1, c1 = index.position(f.start)
        l2, c2 = index.position(f.end)
        out.append(Reported(path, f, l1 + 1, c1 + 1, l2 + 1, c2 + 1, index.line_text(l1)))
    return out


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
    }


def format_text(r: Reported) -> str:
    # The issue fixes this shape: path:line:col: CODE name message
    return "%s:%d:%d: %s %s %s" % (r.path, r.line, r.column, r.rule.code, r.rule.name,
                                   _one_line(r.finding.message))


def _one_line(s: str) -> str:
    # A message must not break the one-finding-a-line shape, whatever
    # characters a hostile document put into it.
    return s.replace("\r", "\\r").replace("\n", "\\n")


def dumps_json(items: List[Dict[str, Any]]) -> str:
    return json.dumps(items, ensure_ascii=False, indent=2)
