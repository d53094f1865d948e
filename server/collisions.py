"""Project rules across the files of a run: each file's check collected
its facts (:mod:`irilint.rules.project_rules`; today the look-alike hosts
of confusable-collision), and the run reduces them in file order.  No file
is read again."""
from __future__ import annotations

from typing import TYPE_CHECKING, List

if TYPE_CHECKING:  # pragma: no cover
    from .project import FileResult


def reduce_project_rules(outcomes: "List[FileResult]") -> None:
    """The findings of the project rules across the files of the run, from
    the facts each file's check collected.  Each supersedes the file's own
    finding of its rule on the same characters, or is added."""
    from irilint.output import Reported
    from irilint.rules.project_rules import reduce_documents, supersedes

    checked = [o for o in outcomes if o.facts and not o.error and not o.skipped]
    found = reduce_documents([(o.path, o.facts) for o in checked])
    for n, pfs in found.items():
        o = checked[n]
        kept = [r for r in o.reported if not any(supersedes(pf.finding, r.finding) for pf in pfs)]
        for pf in pfs:
            p = pf.place
            kept.append(Reported(o.path, pf.finding, p.line, p.column, p.end_line, p.end_column, p.line_text))
        kept.sort(key=lambda r: r.finding.sort_key())
        o.reported = kept
