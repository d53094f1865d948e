"""Files too large to hold every finding of: checked as a stream.

A file of more than STREAM_ABOVE characters, in a plain ``irilint check``
(no --fix/--diff), in the process that prints, gets a
:class:`LocatedStream` as its reported findings: the engine's
FindingStream (irilint.stream), each finding located as the printer reads
it.  Nothing holds every finding of it, so a 10 MB file dense with
findings is checked within 100 MB.  A streamed file with few findings
(CACHED_FINDINGS at most) still gets its cache entry, made once the last
finding went out: a warm run must not check a large clean file again.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, List, Optional

from .findings import Finding, Severity
from .lines import LineIndex
from .output import Reported, located

#: A file of more characters than this is checked as a stream of findings
#: by ``irilint check``: each finding is printed as it is found, never
#: held with all the others.  Below it, a file's findings are held as
#: before (a stream costs the document rules a pass of their own); 4 M
#: characters is above almost every real document, and far below where
#: holding findings costs hundreds of MB.
STREAM_ABOVE = 4 * 1024 * 1024
#: A streamed file with at most this many findings gets a cache entry (they
#: are kept until the stream ends: a few MB); one with more is checked
#: again by the next run, which costs less than holding them would.
CACHED_FINDINGS = 10_000


class LocatedStream:
    """The findings of one large file as they are checked (the engine's
    FindingStream), each located when it is read: read ONCE, by the
    printer, which learns how many there were (``count``) and the highest
    severity among them (``worst``) as it goes.  ``done`` is called once
    the last one is read."""

    __slots__ = ("path", "findings", "index", "count", "worst", "kept")

    def __init__(self, path: str, findings: Iterable[Finding], index: LineIndex,
                 done: Optional[Callable[["LocatedStream"], None]] = None, keep: int = 0) -> None:
        self.path = path
        self.index = index
        self.count = 0
        self.worst: Optional[Severity] = None
        #: every finding that went out, while there are at most ``keep``
        #: of them (None past that, and when ``keep`` is 0)
        self.kept: Optional[List[Finding]] = [] if keep > 0 else None
        #: the findings, counted as they pass (one-shot)
        self.findings = self._counted(findings, done, keep)

    def _counted(self, findings: Iterable[Finding], done: Optional[Callable[["LocatedStream"], None]],
                 keep: int) -> Iterator[Finding]:
        count, worst, kept = 0, None, self.kept
        try:
            for f in findings:
                count += 1
                if worst is None or f.severity > worst:
                    worst = self.worst = f.severity
                self.count = count
                if kept is not None:
                    if count > keep:
                        kept = self.kept = None
                    else:
                        kept.append(f)
                yield f
        finally:
            self.count = count
        if done is not None:
            done(self)

    def __iter__(self) -> Iterator[Reported]:
        return located(self.path, self.findings, self.index)


def streamed_outcome(project: Any, out: Any, path: str, text: str, settings: Any, doc: Any = None) -> Any:
    """``out`` (the FileResult of ``path``) with the findings of ``text``
    as a one-shot :class:`LocatedStream`: the references are checked as
    the printer reads the findings.  ``doc``: the file as read (None for
    stdin); with the result cache on, the file's entry is added once the
    stream ends, if it had at most CACHED_FINDINGS findings (more would be
    held for it, what the stream avoids)."""
    from .stream import check_stream  # with the engine: a warm run reads every file from the cache

    index = LineIndex(text)
    stream = check_stream(project.engine, text, path=path, settings=settings, run_state={}, index=index)
    out.facts = stream.result.facts  # the document rules ran: known before the findings
    cache = project.cache
    if doc is not None and cache is not None:
        if doc.stat is not None:
            st = doc.stat
            out.stamp = ((st.size, st.mtime_ns, doc.ctime_ns, st.ino), doc.digest)
        out.cache_key = project.cache_key(doc.digest, settings, path)

    def done(located_stream: LocatedStream) -> None:
        project.tell_errors(path, stream.result.errors)
        findings = located_stream.kept
        if out.cache_key is not None and findings is not None:
            cache.add(project.cache_line(out, doc.path, findings, index))

    out.reported = LocatedStream(path, stream, index, done,
                                 keep=CACHED_FINDINGS if out.cache_key is not None else 0)
    out.index = index
    return out
