"""What the review report shows, as data: filled by
:mod:`irilint.report.collect`, shown by :mod:`irilint.report.html` and
:mod:`irilint.report.markdown`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

SEVERITIES = ("error", "warning", "info", "hint")


@dataclass
class Occurrence:
    """Where an IRI reference occurs (1-based line and column)."""

    path: str
    line: int
    column: int
    iri: str


@dataclass
class LookalikeGroup:
    """Different hosts (``kind == "host"``) or IRIs (``"iri"``) with equal
    confusable skeletons; ``variants`` maps each to where it occurs."""

    kind: str
    skeleton: str
    variants: List[Tuple[str, List[Occurrence]]]


@dataclass
class Card:
    """One IRI reference with its findings (or one finding without an IRI)."""

    path: str
    iri: str
    line: int  # 1-based line of the reference
    column: int  # 1-based
    line_text: str
    #: columns (0-based, in ``line_text``) of the reference and the findings
    iri_span: Tuple[int, int]
    marks: List[Tuple[int, int]]
    findings: List[Any]  # irilint.output.Reported
    #: the document writes the reference as it is (no character references
    #: to decode), so escapes in it can be annotated in place
    literal: bool = True

    @property
    def severity(self) -> str:
        return max((r.finding.severity for r in self.findings)).label


@dataclass
class FileReport:
    path: str
    cards: List[Card] = field(default_factory=list)
    counts: Dict[str, int] = field(default_factory=dict)
    error: Optional[str] = None
    skipped: Optional[str] = None

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class RuleTotal:
    code: str
    name: str
    severity: str
    count: int
    summary: str


@dataclass
class ReportData:
    files: List[FileReport]
    files_checked: int
    references: int
    rules: List[RuleTotal]
    lookalikes: List[LookalikeGroup]
    version: str = ""

    @property
    def total(self) -> int:
        return sum(f.total for f in self.files)

    def counts(self) -> Dict[str, int]:
        c = {s: 0 for s in SEVERITIES}
        for f in self.files:
            for k, v in f.counts.items():
                c[k] = c.get(k, 0) + v
        return c

    @property
    def errors(self) -> List[FileReport]:
        return [f for f in self.files if f.error]


def plural(n: int, word: str, plural_form: Optional[str] = None) -> str:
    return "%d %s" % (n, word if n == 1 else (plural_form or word + "s"))


def counts_phrase(counts: Dict[str, int]) -> str:
    parts = []
    for sev, word, pl in (("error", "error", "errors"), ("warning", "warning", "warnings"),
                          ("info", "info", "info"), ("hint", "hint", "hints")):
        n = counts.get(sev, 0)
        if n:
            parts.append(plural(n, word, pl))
    return ", ".join(parts)
