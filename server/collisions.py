"""Project rules across the files of a run: each file's check collected
its facts (:mod:`irilint.rules.project_rules`; today the look-alike hosts
of confusable-collision), and the run reduces them in file order.  No file
is read again."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

if TYPE_CHECKING:  # pragma: no cover
    from .project import FileResult


def reduce_project_rules(outcomes: "List[FileResult]") -> None:
    """The findings of the project rules across the files of the run, from
    the facts each file's check collected.  Each supersedes the file's own
    finding of its rule on the same characters, or is added."""
    from irilint.rules.project_rules import reduce_documents

    checked = [o for o in outcomes if o.facts and not o.error and not o.skipped]
    found = reduce_documents([(o.path, o.facts) for o in checked])
    for n, pfs in found.items():
        _apply(checked[n], pfs)


def _apply(o: "FileResult", pfs: "List[Any]") -> None:
    """Put the project findings ``pfs`` of ``o`` in its reported findings."""
    from irilint.output import Reported
    from irilint.rules.project_rules import supersedes

    kept = [r for r in o.reported if not any(supersedes(pf.finding, r.finding) for pf in pfs)]
    for pf in pfs:
        p = pf.place
        kept.append(Reported(o.path, pf.finding, p.line, p.column, p.end_line, p.end_column, p.line_text))
    kept.sort(key=lambda r: r.finding.sort_key())
    o.reported = kept


class ProjectReduction:
    """:func:`reduce_project_rules` for results that go out one by one: a
    result no project finding can reach (``may_receive_findings`` of its
    facts is false) is final as soon as it is checked; the others, and
    every result after them (the output keeps file order), are held until
    :meth:`finish` has reduced the facts of the whole run.  Only the path
    and facts of a result that went out are kept."""

    def __init__(self, memo: Any = None) -> None:
        #: (path, facts) of every checked result with facts, in file order
        self._documents: List[Any] = []
        #: the result cache's :class:`~irilint.cache.ReductionMemo` (None:
        #: always reduce), and the cache key of each document (None when
        #: one has none: then the run reduces, and remembers nothing)
        self.memo = memo
        self._keys: "List[Any] | None" = [] if memo is not None else None
        #: id(facts) -> may_receive_findings(facts), for facts kept in
        #: _documents (results read from the cache share their facts)
        self._verdicts: Dict[int, bool] = {}
        #: index in _documents -> its held result
        self._held_at: Dict[int, "FileResult"] = {}
        #: results held, in file order
        self.held: "List[FileResult]" = []

    def add(self, o: "FileResult") -> "List[FileResult]":
        """The results final now (in file order) once ``o`` is added."""
        reducible = bool(o.facts) and not o.error and not o.skipped
        if reducible:
            self._documents.append((o.path, o.facts))
            if self._keys is not None:
                if o.cache_key is None:
                    self._keys = None
                else:
                    self._keys.append(o.cache_key)
        if self.held or (reducible and self._may_receive_findings(o.facts)):
            if reducible:
                self._held_at[len(self._documents) - 1] = o
            o.settle()  # held to the end of the run: its positions, not its text
            self.held.append(o)
            return []
        return [o]

    def _may_receive_findings(self, facts: Dict[str, Any]) -> bool:
        verdict = self._verdicts.get(id(facts))
        if verdict is None:
            from irilint.rules.project_rules import may_receive_findings

            verdict = self._verdicts[id(facts)] = may_receive_findings(facts)
        return verdict

    def finish(self) -> "List[FileResult]":
        """The held results, with the project rules' findings in."""
        from irilint.rules.project_rules import reduce_documents

        found = None
        if self._keys is not None:
            key = self.memo.key(self._keys)
            # An unchanged tree: the findings its facts were reduced to last time.
            found = self.memo.get(key, [path for path, _ in self._documents])
            if found is not None and not all(n in self._held_at for n in found):
                found = None  # not what these facts reduce to: a damaged memo
        if found is None:
            found = reduce_documents(self._documents)
            if self._keys is not None:
                self.memo.put(key, found)
        for n, pfs in found.items():
            o = self._held_at.get(n)
            if o is None:  # may_report of a rule said no: a bug of that rule
                raise AssertionError("a project finding for %s, written already" % self._documents[n][0])
            _apply(o, pfs)
        held, self.held = self.held, []
        return held
