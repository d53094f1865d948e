"""Look-alike hosts across the files of a run (confusable-collision):
after every file was checked, in file order, each file whose hosts
collide with another file's is checked again for that rule alone.  The
rule's run state travels under the keys of :mod:`irilint.project`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from .project import HOSTS_KEY, TARGETS_KEY

if TYPE_CHECKING:
    from .project import FileResult, Project


def cross_file_collisions(checker: "Project", outcomes: List["FileResult"]) -> None:
    """Look-alike hosts across files.  Each pair of confusable hosts of two
    different files is reported once: in the file where the host that is
    not ASCII first occurs (of two non-ASCII hosts, the later file's),
    unless one file holds both (its own check reports them).  Such a file
    is checked again for confusable-collision, told which hosts of other
    files each of its hosts collides with."""
    try:
        from irilint.rules.lookalike import _MAX_IDENTITIES
    except ImportError:  # pragma: no cover
        return
    # skeleton -> identity -> (display, path, line, file number) of its
    # first occurrence in the run, in file order
    first: Dict[str, Dict[str, Tuple[Any, Any, Any, int]]] = {}
    files = []
    for n, o in enumerate(outcomes):
        rows = o.host_rows
        if not rows or o.error or o.skipped:
            continue
        mine: Dict[str, List[str]] = {}
        for row in rows:  # irilint.cache.iter_host_rows, inlined: a row per host of every file
            skel = row[0]
            if len(row) == 2:
                ident, value = skel, (skel, o.path, row[1], n)
            else:
                ident, value = row[1], (row[2], row[3], row[4], n)
            mine.setdefault(skel, []).append(ident)
            seen = first.get(skel)
            if seen is None:
                seen = first[skel] = {}
            if ident not in seen and len(seen) < _MAX_IDENTITIES:
                seen[ident] = value
        files.append((n, o, mine))
    for n, o, mine in files:
        targets: Dict[str, List[Tuple[str, Any, Any, Any]]] = {}
        for skel, idents in mine.items():
            group = first[skel]
            if len(group) < 2:
                continue  # most hosts: nothing else looks like them
            for ident in idents:
                me = group.get(ident)
                if me is None or me[3] != n or ident.isascii():
                    continue  # reported where it first occurs, on the non-ASCII side
                for other, (display, path, line, m) in group.items():
                    if other == ident or other in idents or (not other.isascii() and m > n):
                        continue
                    if any(other in f_mine.get(skel, ()) and ident in f_mine.get(skel, ())
                           for _k, _o, f_mine in files):
                        continue  # one file holds both: its own check reports them
                    targets.setdefault(ident, []).append((other, display, path, line))
        if targets and o.abspath:
            _recheck_collisions(checker, o, targets)


def _recheck_collisions(checker: "Project", o: "FileResult", targets: Dict[str, Any]) -> None:
    from irilint.engine import declaration_syntax
    from irilint.fileio import DocumentError, read_document
    from irilint.output import locate

    settings = checker.settings(o.abspath)
    text = o.text
    if text is None:
        try:
            text = read_document(o.abspath, max_size=settings.max_file_size,
                                 syntax=declaration_syntax(o.abspath, settings)).text
        except DocumentError:
            return
    only = settings.merged({"select": ["confusable-collision"], "ignore": []})
    run_state = {HOSTS_KEY: {}, TARGETS_KEY: targets}
    findings, index = checker.check_document(o.path, text, only, run_state)
    kept = [r for r in o.reported if r.finding.rule.name != "confusable-collision"]
    kept.extend(locate(o.path, [f for f in findings if f.rule.name == "confusable-collision"], index))
    kept.sort(key=lambda r: r.finding.sort_key())
    o.reported = kept
