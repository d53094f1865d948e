"""Files too large to hold every finding of: checked as a stream.

A file of more than STREAM_ABOVE characters, in a plain ``irilint check``
(no --fix/--diff), in the process that prints, gets a
:class:`LocatedStream` as its reported findings: the engine's
FindingStream (irilint.stream), each finding located as the printer reads
it.  Nothing holds every finding of it, so a 10 MB file dense with
findings is checked within 100 MB.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Optional

from .findings import Finding, Severity
from .lines import LineIndex
from .output import Reported, located

#: A file of more characters than this is checked as a stream of findings
#: by ``irilint check``: each finding is printed as it is found, never
#: held with all the others.  Below it, a file's findings are held and
#: cached as before (a stream costs a second scan for the document rules,
#: and gets no cache entry); 4 M characters is above almost every real
#: document, and far below where holding findings costs hundreds of MB.
STREAM_ABOVE = 4 * 1024 * 1024


class LocatedStream:
    """The findings of one large file as they are checked (the engine's
    FindingStream), each located when it is read: read ONCE, by the
    printer, which learns how many there were (``count``) and the highest
    severity among them (``worst``) as it goes.  ``done`` is called once
    the last one is read."""

    __slots__ = ("path", "findings", "index", "count", "worst")

    def __init__(self, path: str, findings: Iterable[Finding], index: LineIndex,
                 done: Optional[Callable[[], None]] = None) -> None:
        self.path = path
        self.index = index
        self.count = 0
        self.worst: Optional[Severity] = None
        #: the findings, counted as they pass (one-shot)
        self.findings = self._counted(findings, done)

    def _counted(self, findings: Iterable[Finding], done: Optional[Callable[[], None]]) -> Iterator[Finding]:
        count, worst = 0, None
        try:
            for f in findings:
                count += 1
                if worst is None or f.severity > worst:
                    worst = self.worst = f.severity
                self.count = count
                yield f
        finally:
            self.count = count
        if done is not None:
            done()

    def __iter__(self) -> Iterator[Reported]:
        return located(self.path, self.findings, self.index)


def streamed_outcome(project: Any, out: Any, path: str, text: str, settings: Any) -> Any:
    """``out`` (the FileResult of ``path``) with the findings of ``text``
    as a one-shot :class:`LocatedStream`: the references are checked as
    the printer reads the findings.  No cache entry: it would hold every
    finding, what the stream avoids (a warm run checks such a file again)."""
    from .stream import check_stream  # with the engine: a warm run reads every file from the cache

    index = LineIndex(text)
    stream = check_stream(project.engine, text, path=path, settings=settings, run_state={}, index=index)
    out.facts = stream.result.facts  # the document rules ran: known before the findings
    out.reported = LocatedStream(path, stream, index, lambda: project.tell_errors(path, stream.result.errors))
    out.index = index
    return out
