"""The check of one document as a stream of findings (check_stream).

``Engine.check_text`` holds every reference's context and every finding
until the end, then filters, merges and sorts them: a 10 MB document dense
with findings peaked at 300 MB.  The stream yields the same findings, in
the same order and with the same content, holding only those that a
finding still to come could sort before:

* the document rules (scope "document") read every reference: they run
  first, each over a pass that makes each reference's context as it is
  asked for and drops it after (a parse is shared by the references of
  one value, in a bounded memo).  The first pass scans the document and
  logs its candidates compactly (_CandidateLog, 18 bytes each); the
  others and the references' pass read the log.  Their findings (few in
  practice) and facts are held; their errors come after the references'
  as in ``check_text``.
* then every candidate, in order, through the per-reference rules
  (engine._ReferenceLoop.run, the same loop ``check_text`` runs).  A
  reference's findings lie inside its span, and candidates come sorted:
  once the next candidate starts at ``w``, no finding still to come starts
  before ``w`` (the watermark).  A finding is emitted once it starts
  before the watermark, in ``Finding.sort_key`` order, ties in the order
  in which ``check_text`` lists them (per-reference findings, then the
  document rules', then the suppression rules'); findings on the same
  characters are merged (merge_same_characters) once all of them are in.
* suppressions filter each finding by its line as it comes.  Whether one
  was used is known once the watermark has passed every line it covers;
  until then nothing from its marker on is emitted (the suppression rules
  report there).  A file-wide suppression with selectors covers every
  line: everything after its marker is then held to the end (correct, not
  bounded).
"""
from __future__ import annotations

import heapq
from array import array
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .engine import CheckResult, _Document, _ReferenceLoop, merge_same_characters
from .findings import Finding
from .suppressions import is_suppressed, suppressions_by_line

#: per-reference findings, then the document rules', then the suppression
#: rules': their order in check_text's list, which breaks ties of sort_key
_REFERENCE, _DOCUMENT, _SUPPRESSION = 0, 1, 2
#: distinct reference values whose parse the document rules' pass keeps
_PARSE_MEMO = 4096


def check_stream(engine: Any, text: str, *, path: Optional[str] = None, language_id: Optional[str] = None,
                 settings: Any = None, run_state: Optional[Dict[str, Any]] = None, scanner: Any = None,
                 index: Any = None) -> "FindingStream":
    """The findings of ``engine.check_text`` with the same arguments, in
    the same order, yielded as the document is read, holding a bounded
    window of them: iterate the FindingStream once, then read its
    ``result`` for the rest of the CheckResult."""
    setup = engine._document(text, path=path, language_id=language_id, settings=settings,
                             run_state=run_state, scanner=scanner, index=index)
    return FindingStream(engine, setup)


class FindingStream:
    """The findings of one document, yielded once (``iter``).  The
    document rules run when it is made (``result.facts`` is then known);
    the references are checked as the findings are asked for, and
    ``result`` holds the rest of the CheckResult (errors, suppressed and
    references counts) once the stream is exhausted."""

    def __init__(self, engine: Any, setup: _Document) -> None:
        self.result = CheckResult([])
        self._findings: Iterator[Finding] = iter(())
        if setup.all_suppressed():
            return
        suppressions = setup.suppressions
        self._covering = suppressions_by_line(suppressions) if suppressions else None
        self._index = setup.line_index() if suppressions else None
        # (start, end, code, kind, order, finding): sort_key, then list order
        self._pending: List[Tuple[Any, ...]] = []
        # the first pass of the document rules fills it; the others, and
        # the references' pass, read it instead of scanning again
        self._log = _CandidateLog(setup)
        self._doc_errors = _document_rules(setup, self.result, self._pending, self._index, self._covering,
                                           self._log)
        self._findings = self._stream(engine, setup)

    def __iter__(self) -> Iterator[Finding]:
        return self._findings

    def _stream(self, engine: Any, setup: _Document) -> Iterator[Finding]:
        result, pending, covering, index = self.result, self._pending, self._covering, self._index
        waiting = _Waiting(setup) if setup.suppressions else None
        order = 0
        found: List[Finding] = []
        references = 0
        emitted_below = 0  # every finding that starts before it is out
        last: List[Tuple[Any, ...]] = [()]  # the key of the last one out
        log, self._log = self._log, None
        # The loop checks a candidate, then hands its context over with its
        # findings in ``found``: they start at the candidate or after it, so
        # what goes out before them is what would go out before the check.
        for ctx in _ReferenceLoop(engine, setup, result.errors).run(log.scan(), found):
            cand = ctx.candidate
            references += 1
            watermark = cand.start
            if waiting is not None:
                watermark = min(watermark, waiting.resolve(watermark, pending))
            if pending and pending[0][0] < watermark:
                yield from _emit(pending, watermark, last)
            emitted_below = max(emitted_below, watermark)
            for f in found:
                if covering is not None and is_suppressed(f, index, covering):
                    result.suppressed += 1
                    continue
                entry = (f.start, f.end, f.rule.code, _REFERENCE, order, f)
                if f.start < emitted_below and entry[:5] < last[0]:
                    # a rule reported before its reference, and before what
                    # went out already: said, not hidden
                    result.errors.append("rule %s reported at %d, before its reference at %d: out of order"
                                         % (f.rule.name, f.start, cand.start))
                heapq.heappush(pending, entry)
                order += 1
            found.clear()
        result.references = references
        if waiting is not None:
            waiting.resolve(None, pending)
        yield from _emit(pending, None, last)
        result.errors.extend(self._doc_errors)


def _emit(pending: List[Tuple[Any, ...]], watermark: Optional[int],
          last: List[Tuple[Any, ...]]) -> Iterator[Finding]:
    """Pops and yields the findings that start before ``watermark`` (None:
    all), each run of findings on the same characters merged as
    check_text merges them; ``last[0]``: the key of the last popped."""
    pop = heapq.heappop
    while pending and (watermark is None or pending[0][0] < watermark):
        first = pop(pending)
        if not pending or pending[0][:2] != first[:2]:
            last[0] = first[:5]
            yield first[5]
            continue
        batch = [first]
        while pending and pending[0][:2] == first[:2]:
            batch.append(pop(pending))
        last[0] = batch[-1][:5]
        batch.sort(key=lambda e: (e[3], e[4]))  # their order in check_text's list
        same = merge_same_characters([e[5] for e in batch])
        same.sort(key=Finding.sort_key)
        yield from same


def _document_rules(setup: _Document, result: CheckResult, pending: List[Tuple[Any, ...]],
                    index: Any, covering: Any, log: "_CandidateLog") -> List[str]:
    """Runs the document rules over a scan of their own, puts their
    findings that no suppression covers into ``pending`` and their facts
    into ``result``; returns their errors."""
    from irilint.rules.context import DocContext
    from irilint.rules.project_rules import Collected

    errors: List[str] = []
    doc_rules = setup.plan.doc_rules
    if not doc_rules:
        return errors
    refs = _RescannedRefs(setup, log)
    order = 0
    for r in doc_rules:
        dctx = DocContext(setup.doc, refs, setup.suppressions)  # type: ignore[arg-type]
        dctx.rule = r
        dctx.severity = setup.selection.severity_of(r)
        try:
            for f in r.check(dctx) or ():
                if covering is not None and is_suppressed(f, index, covering):
                    result.suppressed += 1
                    continue
                pending.append((f.start, f.end, f.rule.code, _DOCUMENT, order, f))
                order += 1
            if r.project is not None:
                result.facts[r.name] = Collected(dctx.severity, r.project.collect(dctx))
        except Exception as exc:
            errors.append("rule %s failed: %s: %s" % (r.name, exc.__class__.__name__, exc))
    heapq.heapify(pending)
    return errors


class _RescannedRefs:
    """Every reference's RefContext, as check_text's loop makes it (fast
    path or parsed), made anew at each iteration from the candidates (the
    log, or a scan): a document rule reads them one at a time."""

    def __init__(self, setup: _Document, log: "_CandidateLog") -> None:
        self.setup = setup
        self.log = log
        self._parsed: Dict[str, Any] = {}
        #: value -> fast_match(value), shared by the document rules' passes
        #: (each document rule reads every reference)
        self._fast: Dict[str, Any] = {}

    def __iter__(self) -> Iterator[Any]:
        from irilint.rules.context import RefContext

        doc = self.setup.doc
        fast_match = self.setup.plan.fast_match
        parsed, fast_of = self._parsed, self._fast
        for cand in self.log.scan():
            value = cand.value
            fast = None
            if fast_match is not None:
                fast = fast_of.get(value, fast_of)
                if fast is fast_of:
                    if len(fast_of) >= _PARSE_MEMO:
                        fast_of.clear()
                    fast = fast_of[value] = fast_match(value)
            if fast is not None:
                yield RefContext(cand, None, doc, fast)
                continue
            ctx = RefContext(cand, parsed.get(value), doc)
            yield ctx
            ref = ctx._ref  # parsed by the rule that asked for it, if one did
            if ref is not None and value not in parsed:
                if len(parsed) >= _PARSE_MEMO:
                    parsed.clear()
                parsed[value] = ref


class _CandidateLog:
    """The candidates of one scan of the document, kept compactly so that
    the next passes read them again instead of scanning again: a plain
    candidate (its value is its source text) costs its start, end and
    form (context and flags), 18 bytes; one with an offset map is kept
    whole.  Past MAX_WHOLE of those (a document of escaped strings), the
    log gives up and every pass scans (``complete`` stays False)."""

    MAX_WHOLE = 4096

    def __init__(self, setup: _Document) -> None:
        self.setup = setup
        self.starts = array("q")
        self.ends = array("q")
        self.forms = array("H")  # index into form_list; WHOLE: kept in ``whole``
        self.form_list: List[Tuple[str, bool, bool]] = []
        self.form_index: Dict[Tuple[str, bool, bool], int] = {}
        self.whole: Dict[int, Any] = {}
        self.complete = False
        self.abandoned = False

    WHOLE = 0xFFFF

    def scan(self) -> Iterator[Any]:
        """The candidates, from the log once it is complete, else from a
        scan (the first one fills the log)."""
        if self.complete:
            return self._replay()
        if self.abandoned or self.starts:
            return iter(self.setup.scanner.scan(self.setup.text))
        return self._record()

    def _record(self) -> Iterator[Any]:
        text = self.setup.text
        starts, ends, forms, whole = self.starts, self.ends, self.forms, self.whole
        form_index, form_list = self.form_index, self.form_list
        logging = True
        for cand in self.setup.scanner.scan(text):
            if logging:
                start, end = cand.start, cand.end
                if cand.offsets is None and cand.joined_ends is None and text[start:end] == cand.value:
                    form = (cand.context, cand.after_backslash, cand.template)
                    k = form_index.get(form)
                    if k is None:
                        k = form_index[form] = len(form_list)
                        form_list.append(form)
                else:
                    k = self.WHOLE
                    whole[len(starts)] = cand
                if len(whole) > self.MAX_WHOLE or len(form_list) >= self.WHOLE:
                    logging = False
                    self._abandon()
                else:
                    starts.append(start)
                    ends.append(end)
                    forms.append(k)
            yield cand
        self.complete = logging

    def _abandon(self) -> None:
        self.abandoned = True
        self.starts, self.ends, self.forms, self.whole = array("q"), array("q"), array("H"), {}

    def _replay(self) -> Iterator[Any]:
        from .scanners.base import Candidate

        text, whole, form_list, plain = self.setup.text, self.whole, self.form_list, self.WHOLE
        for i, (start, end, k) in enumerate(zip(self.starts, self.ends, self.forms)):
            if k == plain:
                yield whole[i]
            else:
                context, after_backslash, template = form_list[k]
                yield Candidate(start, end, text[start:end], None, context, after_backslash, template)


class _Waiting:
    """The suppressions whose use is not known yet: the suppression rules
    report on each once the watermark has passed every line it covers."""

    def __init__(self, setup: _Document) -> None:
        self.setup = setup
        index = setup.line_index()
        starts = index.starts
        n = len(setup.text)
        #: (offset past the last line it covers, its position, suppression)
        self._by_end: List[Tuple[float, int, Any]] = []
        for k, s in enumerate(setup.suppressions):
            if s.whole_file:
                end: float = float("inf")
            else:
                last = max(s.line, s.next_line if s.own_line else s.line)
                end = starts[last + 1] if last + 1 < len(starts) else n
            self._by_end.append((end, k, s))
        heapq.heapify(self._by_end)
        #: (marker start, position) of those not yet reported on
        self._by_start = [(s.start, k) for k, s in enumerate(setup.suppressions)]
        heapq.heapify(self._by_start)
        self._done: set = set()

    def resolve(self, watermark: Optional[int], pending: List[Tuple[Any, ...]]) -> float:
        """Reports on every suppression whose lines lie before
        ``watermark`` (None: all of them) into ``pending``; returns the
        first offset a finding about a suppression still waiting may have."""
        by_end = self._by_end
        setup = self.setup
        while by_end and (watermark is None or by_end[0][0] <= watermark):
            _, k, s = heapq.heappop(by_end)
            self._done.add(k)
            for ri, r in enumerate(setup.plan.suppression_rules):
                for i, f in enumerate(r.check(setup.suppression_check(r, [s]))):
                    heapq.heappush(pending, (f.start, f.end, f.rule.code, _SUPPRESSION, (ri, k, i), f))
        by_start = self._by_start
        while by_start and by_start[0][1] in self._done:
            heapq.heappop(by_start)
        return by_start[0][0] if by_start else float("inf")
