"""The one fix loop: the non-overlapping fixes of a text's findings are
chosen and applied, and the text checked again, until nothing changes
(``check --fix``, the language server's fix-all, the tests)."""
from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple

from .findings import Edit, Finding, Fix

if TYPE_CHECKING:
    from .engine import Engine


def fixes_to_apply(findings: Iterable[Finding], unsafe: bool = False) -> List[Edit]:
    """Non-overlapping edits of the first applicable fix of each finding,
    in document order; a fix whose edits overlap an earlier one is left for
    the next pass (``--fix`` loops until nothing changes)."""
    edits = [e for _, fx in chosen_fixes(findings, unsafe) for e in fx.edits]
    edits.sort(key=lambda e: (e.start, e.end))
    return edits


def chosen_fixes(findings: Iterable[Finding], unsafe: bool = False) -> List[Tuple[Finding, Fix]]:
    """The findings :func:`fixes_to_apply` fixes, each with the fix it
    applies."""
    chosen: List[Tuple[Finding, Fix]] = []
    taken = _TakenSpans()
    for f in sorted(findings, key=Finding.sort_key):
        for fx in f.fixes:
            if not fx.safe and not unsafe:
                continue
            if any(taken.overlaps(e.start, e.end) for e in fx.edits):
                break
            chosen.append((f, fx))
            for e in fx.edits:
                taken.add(e.start, e.end)
            break
    return chosen


#: The most check-and-fix passes of :func:`fix_until_stable`: one fix can
#: make another possible (uppercasing "%7e" before decoding it to "~"), and
#: no chain of fixes is longer than a few passes.
MAX_FIX_PASSES = 10


def fix_until_stable(engine: "Engine", text: str, *, path: Optional[str] = None, settings: Any = None,
                     scanner: Any = None, unsafe: bool = False,
                     findings: Optional[Sequence[Finding]] = None,
                     max_passes: int = MAX_FIX_PASSES,
                     fixed: Optional[List[Finding]] = None) -> Tuple[str, int]:
    """Fix, check again, until nothing changes (at most ``max_passes``
    checks): the one fix loop of ``check --fix``, the server's fix-all and
    the tests.  ``findings``: those of ``text`` already known (the first
    pass then checks nothing).  Returns the fixed text and how many fixes
    were applied (edits to distinct spans); ``fixed``, when given, gets
    each finding whose fix was applied."""
    from .fileio import apply_edits

    applied = 0
    for _ in range(max_passes):
        if findings is None:
            # A throwaway run state: fixing must not record hosts twice.
            findings = engine.check_text(text, path=path, settings=settings, scanner=scanner,
                                         run_state={}).findings
        chosen = chosen_fixes(findings, unsafe=unsafe)
        findings = None
        edits = sorted((e for _, fx in chosen for e in fx.edits), key=lambda e: (e.start, e.end))
        if not edits:
            break
        new_text = apply_edits(text, edits)
        if new_text == text:
            break
        applied += len({(e.start, e.end) for e in edits})
        if fixed is not None:
            fixed.extend(f for f, _ in chosen)
        text = new_text
    return text, applied


class _TakenSpans:
    """The spans of the edits chosen so far, sorted, for overlap tests that
    look only at the neighbours of a span (testing every chosen edit made
    choosing the fixes of a file quadratic in its findings)."""

    def __init__(self) -> None:
        self._spans: List[Tuple[int, int]] = []

    def overlaps(self, start: int, end: int) -> bool:
        spans = self._spans
        # Only spans starting at or before ``end`` can overlap.  Chosen
        # spans do not overlap one another, so their ends grow with their
        # starts: scanning back, the first span that ends before ``start``
        # ends the search.
        k = bisect.bisect_right(spans, (end, float("inf")))
        while k > 0:
            k -= 1
            a, b = spans[k]
            if b < start:
                return False
            if _overlaps(start, end, a, b):
                return True
        return False

    def add(self, start: int, end: int) -> None:
        bisect.insort(self._spans, (start, end))


def _overlaps(s1: int, e1: int, s2: int, e2: int) -> bool:
    if s1 == e1 and s2 == e2:
        return s1 == s2
    return s1 < e2 and s2 < e1 or (s1 == e1 and s2 <= s1 < e2) or (s2 == e2 and s1 <= s2 < e1)
