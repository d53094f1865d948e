"""What rules produce: findings with their fixes, in document offsets."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from irilint.rules.registry import Rule

#: ``dataclass`` keywords for the classes made per finding and per
#: reference: slots (no ``__dict__``, about half the memory of each object)
#: where ``dataclass`` has them (Python 3.10 and later).
SLOTS: Dict[str, bool] = {"slots": True} if sys.version_info >= (3, 10) else {}


class Severity(IntEnum):
    """Ordered, so ``--fail-level`` compares with ``>=``."""

    HINT = 1
    INFO = 2
    WARNING = 3
    ERROR = 4

    @classmethod
    def parse(cls, name: str) -> "Severity":
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(
                "unknown severity %r (expected error, warning, info or hint)" % name
            ) from None

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, **SLOTS)
class Edit:
    """Replace ``document[start:end]`` with ``new_text`` (code point offsets)."""

    start: int
    end: int
    new_text: str

    # Rebuilt from its fields when pickled (a worker's result holds one per
    # fix): with slots, the generic state of a frozen dataclass took twice
    # as long each way.
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (Edit, (self.start, self.end, self.new_text))


@dataclass(frozen=True, **SLOTS)
class Fix:
    title: str
    edits: Tuple[Edit, ...]
    #: A safe fix changes neither what a reader sees nor where the link leads
    #: (up to RFC 3986 s6.2.2 equivalence); only safe fixes apply by default.
    safe: bool

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (Fix, (self.title, self.edits, self.safe))


@dataclass(frozen=True, **SLOTS)
class Related:
    """Another place a finding is about (the other host of a collision),
    with a note saying what is there.  ``path`` None: the finding's own
    document.  Positions are 1-based, columns in code points; ``start`` and
    ``end`` are code point offsets in the finding's document (-1 when the
    place is in another one)."""

    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    path: Optional[str] = None
    start: int = -1
    end: int = -1

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (Related, (self.message, self.line, self.column, self.end_line, self.end_column, self.path,
                          self.start, self.end))


@dataclass(**SLOTS)
class Finding:
    rule: "Rule"
    severity: Severity
    message: str
    start: int
    end: int
    fixes: List[Fix] = field(default_factory=list)
    #: span of the whole IRI reference in the document, and its value
    ref_start: int = 0
    ref_end: int = 0
    iri: str = ""
    #: filled by the engine for output: path and (line, column) 0-based
    path: Optional[str] = None
    #: other places the finding is about (SARIF relatedLocations, LSP
    #: relatedInformation)
    related: List[Related] = field(default_factory=list)

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (Finding, (self.rule, self.severity, self.message, self.start, self.end, self.fixes, self.ref_start,
                          self.ref_end, self.iri, self.path, self.related))

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def name(self) -> str:
        return self.rule.name

    def sort_key(self) -> Tuple[int, int, str]:
        return (self.start, self.end, self.rule.code)


def with_edits(text: str, edits: Iterable[Tuple[int, int, str]]) -> str:
    """``text`` with ``edits`` made: (start, end, new text) in offsets of
    ``text``, not overlapping; the judgements of a fix (the engine's, the
    prose reading of a reference) see the edited text this way."""
    out: List[str] = []
    last = 0
    for start, end, new_text in sorted(edits):
        out.append(text[last:start])
        out.append(new_text)
        last = end
    out.append(text[last:])
    return "".join(out)


def differing_runs(old: Sequence[Any], new: Sequence[Any]) -> List[Tuple[int, int]]:
    """The maximal runs ``[i, j)`` where two sequences of the same length
    (strings, lists of lines) differ item by item: the narrowest edits that
    turn one into the other, found in linear time."""
    runs: List[Tuple[int, int]] = []
    i, n = 0, len(old)
    while i < n:
        if old[i] == new[i]:
            i += 1
            continue
        j = i
        while j < n and old[j] != new[j]:
            j += 1
        runs.append((i, j))
        i = j
    return runs
