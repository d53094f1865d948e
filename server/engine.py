"""The engine: text -> scanner -> references -> rules -> findings.

One engine serves the CLI and the language server.  It never imports pygls.

One module, over 600 lines: the check of a text and the judgements of
fixes (would an edit or a decoding give the reference a finding more?)
share the engine's rule plans and memos, and split apart they would pass
them around through every call.  The suppression comments
(:mod:`irilint.suppressions`), the memo of references' findings
(:mod:`irilint.reference_memo`) and the fix loop (:mod:`irilint.fix_loop`)
are modules of their own.
"""
from __future__ import annotations

import functools
import gc
import threading
from itertools import chain
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .config import Settings, per_file_ignores_for
from .findings import Finding, with_edits
from .chars import distinct_non_ascii
from .convert import IRIPiece, iri_pieces, to_iri_detailed
from .iri import parse
from .lines import LineIndex
from .reference_memo import ReferenceMemo, shifted_all
from .suppressions import (Suppression, SuppressionCheck, find_suppressions, is_suppressed,
                           suppressions_by_line)
from .templates import is_template, literal_authority


def template_rules(run: Sequence[Any], value: str, regex: bool = False) -> List[Any]:
    """The rules of ``run`` that check the template ``value`` (``regex``: it
    is in a regular expression).  A template ("{% url 'x' %}", "{{ link }}",
    "${base}/x", "/users/{id}", a regular expression, "javascript:" code;
    see irilint.templates) is not an IRI yet: each rule says whether it
    checks one (``Rule.templates``): always, or only when its scheme and
    authority are written literally."""
    if literal_authority(value, regex):
        return [r for r in run if r.templates != "never"]
    return [r for r in run if r.templates == "always"]


#: The rule families that judge a decoding: a piece of a URI (an A-label, a
#: run of escapes) whose Unicode form one of their rules flags is kept
#: encoded, by ``convert --to iri``, the "Convert to IRI" action and the
#: fixes that decode (RFC 3987 s3.2.1 allows keeping Punycode).  Shown, such
#: text misleads: a look-alike, a bidi reordering, a host IDNA maps apart.
JUDGED_FAMILIES = frozenset(("lookalike", "bidi", "host"))

#: Engine.judge_edit stops running rules on an edited reference at the first
#: finding it answers with (False: every rule runs; tests compare the two)
EARLY_JUDGEMENT = True

#: Engine.check_text without a cross-call memo runs the reference rules once
#: per distinct reference of a document (ReferenceMemo.key) and moves the
#: findings to each further occurrence (False: every occurrence is checked;
#: tests compare the two)
DOCUMENT_MEMO = True

#: The reference loop asks the fast path once per distinct value of a
#: document (a link repeated on every page of a site is matched once; the
#: same match object is then shared: rules only read its spans), keeping at
#: most _FAST_KEPT values at a time (False: once per occurrence; tests
#: compare the two)
FAST_MEMO = True
_FAST_KEPT = 4096

#: Engine.check_text sets up no reference loop for a document whose scanner
#: finds no reference, and no ignore-file test for one without suppressions
#: (False: it does; tests compare the two)
NO_REFERENCE_SHORTCUT = True

#: Judged results kept for values up to this many characters (at most this
#: many of them); of longer values, rarely judged twice, only the last two.
_LONG_JUDGED_VALUE = 4096
_JUDGED_KEPT = 4096


@dataclass(frozen=True)
class KeptPiece:
    """A piece :meth:`Engine.safe_to_iri` kept encoded, and the finding of
    a judged rule on its Unicode form."""

    piece: IRIPiece
    finding: Finding

    @property
    def reason(self) -> str:
        """E.g. "kept xn--80ak6aa92e: its Unicode form 'аррӏе' is flagged
        by whole-script-confusable (IRI204)"."""
        r = self.finding.rule
        return "kept %s: its Unicode form '%s' is flagged by %s (%s)" % (
            self.piece.encoded, _shown(self.piece.decoded), r.name, r.code)


def _shown(text: str) -> str:
    """``text`` for a message, with controls, format characters (bidi
    controls among them) and spaces written as <U+XXXX>."""
    from irilint.unicode_security import general_category

    return "".join("<U+%04X>" % ord(c) if general_category(c)[0] in "CZ" else c for c in text)


@dataclass
class CheckResult:
    findings: List[Finding]
    suppressed: int = 0
    #: internal errors of rules, as messages (a rule bug must not lose the
    #: other findings, nor crash an editor)
    errors: List[str] = field(default_factory=list)
    references: int = 0
    #: what each project rule in force collected of the document, by rule
    #: name (irilint.rules.project_rules: reduced across documents by the
    #: caller)
    facts: Dict[str, Any] = field(default_factory=dict)


class _GcPause:
    """Pauses CPython's cyclic garbage collector while a document is checked.

    A check keeps a few objects per reference alive until the document rules
    have run, and the collector traverses them again at every young
    collection (one per ~700 allocations): about a third of the cost of a
    non-ASCII reference (bench/run_bench.py --only iri: 31 -> 22 us).
    Reference counting still frees everything that is not in a cycle; the
    few cycles a check makes are collected after it.  Nested and concurrent
    checks (the language server lints in worker threads) share one pause:
    the collector is enabled again when the last one ends, and only if it
    was enabled when the first began.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(self, *exc: Any) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._was_enabled:
                gc.enable()


_GC_PAUSE = _GcPause()


class Engine:
    """Checks documents with a set of rules.

    ``settings`` is an :class:`irilint.config.Settings` (None: the
    defaults); the rule selection is computed once per settings object.
    """

    def __init__(self, memo_size: int = 0) -> None:
        self._selections: Dict[Any, Any] = {}
        self._plans: Dict[Any, _RulePlan] = {}
        #: per-reference results kept between calls (see ReferenceMemo);
        #: off by default: the CLI sees each file once, the server re-lints
        #: the same references on every keystroke
        self.memo: Optional[ReferenceMemo] = ReferenceMemo(memo_size) if memo_size > 0 else None
        #: (selection id, judged rules only, value) -> (selection,
        #: findings): documents repeat references, and a fix judges the
        #: encoded reference each time
        self._judged: Dict[Tuple[int, bool, str], Tuple[Any, List[Finding]]] = {}
        #: the same for the last two long values judged (a reference and a
        #: candidate): too long for the dict, but a run of one character
        #: makes every fix that removes one of them the same candidate
        #: (8,000 bidi controls were judged 8 times over, each a run of
        #: every rule on it)
        self._judged_long: Dict[Tuple[int, bool, str], Tuple[Any, List[Finding]]] = {}
        #: (selection id, value, thread) -> the rules run so far on a
        #: reference whose edits are being judged (see _counts_before)
        self._counting: Dict[Tuple[int, str, int], _CountsBefore] = {}

    def selection_for(self, settings: Optional[Settings]) -> Any:
        key = id(settings) if settings is not None else None
        sel = self._selections.get(key)
        if sel is None or sel[0] is not settings:
            from irilint.rules.registry import select_rules

            if settings is None:
                selection = select_rules()
            else:
                selection = select_rules(
                    select=settings.select or (),
                    ignore=settings.ignore + settings.extend_ignore,
                    extend_select=settings.extend_select,
                    severity=dict(settings.severity),
                )
            sel = (settings, selection)
            self._selections[key] = sel
        return sel[1]

    # -- decodings a rule would flag ------------------------------------
    #
    # The judgement behind ``convert --to iri``, the "Convert to IRI"
    # action and the fixes that decode: a piece whose Unicode form a rule
    # of JUDGED_FAMILIES flags stays encoded.  The rules judge a decoded
    # view of the reference too (a spoof cannot hide behind encoding), so
    # "flags" means a finding on the decoded text itself, or one more
    # finding of a rule than the encoded reference has.

    def safe_to_iri(self, uri: str, settings: Optional[Settings] = None) -> Tuple[str, List[KeptPiece]]:
        """``uri`` converted to an IRI (RFC 3987 s3.2), keeping encoded the
        A-labels and escape runs whose Unicode form a look-alike, bidi or
        host rule in force flags; returns the IRI and the pieces kept."""
        pieces = iri_pieces(uri)
        if not pieces:
            return to_iri_detailed(uri).text, []
        kept: Dict[Tuple[int, int], KeptPiece] = {}
        while True:
            conv = to_iri_detailed(uri, lambda p: (p.start, p.end) in kept)
            if not conv.decoded:
                break
            flagged = self._flagged_spans(uri, conv.text, [span for _p, span in conv.decoded], settings)
            if not flagged:
                break
            # Decoded together, pieces may be flagged that alone are not
            # (and the reverse): convert again with these kept, until none
            # of the decoded ones is flagged (at most one round per piece).
            for k, finding in flagged.items():
                piece = conv.decoded[k][0]
                kept[(piece.start, piece.end)] = KeptPiece(piece, finding)
        return conv.text, sorted(kept.values(), key=lambda kp: kp.piece.start)

    def judge_decoding(self, value: str, start: int, end: int, new_text: str,
                       settings: Optional[Settings] = None) -> Optional[Finding]:
        """The finding of a judged rule that ``value`` with ``[start, end)``
        replaced by its decoded form ``new_text`` has on that text (or as
        a finding more than ``value`` has), or None: whether a fix that
        decodes may be offered."""
        candidate = value[:start] + new_text + value[end:]
        flagged = self._flagged_spans(value, candidate, [(start, start + len(new_text))], settings)
        return flagged.get(0)

    def judge_edit(self, value: str, edits: Sequence[Tuple[int, int, str]],
                   settings: Optional[Settings] = None) -> Optional[Finding]:
        """A finding of a rule in force that ``value`` with ``edits`` (value
        offsets, not overlapping) applied has once more than ``value``, or
        None: whether a fix that changes a reference's structure (removes
        a character, puts a delimiter in) may be offered without making a
        new problem."""
        candidate = with_edits(value, edits)
        if EARLY_JUDGEMENT:
            before = self._counts_before(value, settings)
            count_before = before.count
        else:
            counts: Dict[str, int] = {}
            for f in self._all_findings(value, settings):
                counts[f.rule.code] = counts.get(f.rule.code, 0) + 1
            count_before = lambda code: counts.get(code, 0)  # noqa: E731
        after: Dict[str, int] = {}
        # The candidate's findings come rule by rule, and the answer is the
        # first one past its rule's count before: the rules after it need
        # not run (a fix refused this way never makes the candidate, so its
        # findings are not worth keeping).  On ``value`` the rules run in
        # their order only as far as the counts asked for (most rules find
        # nothing on the candidate, and so need no count before).
        # EARLY_JUDGEMENT = False runs them all, as the tests compare.
        for found in self._findings_by_rule(candidate, settings, False, EARLY_JUDGEMENT):
            for f in found:
                n = after[f.rule.code] = after.get(f.rule.code, 0) + 1
                if n > count_before(f.rule.code):
                    return f
        return None

    def _counts_before(self, value: str, settings: Optional[Settings]) -> "_CountsBefore":
        """Per rule, the findings of every rule in force on ``value`` alone
        (what :meth:`_all_findings` finds), counted as far as asked: the
        rules run in their order, on one context, until the rule asked
        about has run, and the rest wait for a later question (the
        judgements of one reference's fixes share it)."""
        selection = self.selection_for(settings)
        hit = self._judged_hit((id(selection), False, value))
        if hit is not None and hit[0] is selection:
            return _CountsBefore.of_findings(hit[1])
        # per thread: a partly run reference cannot be resumed by two at once
        key = (id(selection), value, threading.get_ident())
        counting = self._counting.get(key)
        if counting is None or counting.selection is not selection:
            rules, parts = self._run_alone(value, settings, False, selection, with_rules=True)
            counting = _CountsBefore(selection, rules, parts,
                                     lambda found: self._keep_judged((id(selection), False, value), selection,
                                                                     value, found))
            if len(self._counting) >= 8:
                self._counting.clear()
            self._counting[key] = counting
        return counting

    def _flagged_spans(self, original: str, candidate: str, spans: Sequence[Any],
                       settings: Optional[Settings]) -> Dict[int, Finding]:
        """For each span of ``candidate`` (index -> finding), the first
        judged finding that overlaps it; a judged rule that reports more
        often on ``candidate`` than on ``original`` without touching any
        span flags them all (the finding is new, whichever piece made it)."""
        found = self._judged_findings(candidate, settings)
        if not found:
            return {}
        bounds = [(sp[0], sp[1]) if isinstance(sp, tuple) else (sp.start, sp.end) for sp in spans]
        out: Dict[int, Finding] = {}
        attributed = set()
        for f in found:
            for k, (a, b) in enumerate(bounds):
                if f.start < b and a < f.end or (f.start == f.end and a <= f.start <= b):
                    out.setdefault(k, f)
                    attributed.add(id(f))
        loose = [f for f in found if id(f) not in attributed]
        if loose:
            before: Dict[str, int] = {}
            for f in self._judged_findings(original, settings):
                before[f.rule.code] = before.get(f.rule.code, 0) + 1
            after: Dict[str, int] = {}
            for f in loose:
                after[f.rule.code] = after.get(f.rule.code, 0) + 1
            attributed_counts: Dict[str, int] = {}
            for f in found:
                if id(f) in attributed:
                    attributed_counts[f.rule.code] = attributed_counts.get(f.rule.code, 0) + 1
            for f in loose:
                code = f.rule.code
                if after[code] + attributed_counts.get(code, 0) > before.get(code, 0):
                    for k in range(len(bounds)):
                        out.setdefault(k, f)
                    break
        return out

    def _judged_findings(self, value: str, settings: Optional[Settings]) -> List[Finding]:
        """The findings of the judged rules in force for ``settings`` on
        ``value`` alone (a fresh run state; suppressions do not apply: the
        text judged is not in any document yet)."""
        return self._findings_alone(value, settings, True)

    def _all_findings(self, value: str, settings: Optional[Settings]) -> List[Finding]:
        """The findings of every rule in force on ``value`` alone, as a
        check finds them (decodings judged), but with no fix judged: what
        judge_edit compares."""
        return self._findings_alone(value, settings, False)

    def _findings_alone(self, value: str, settings: Optional[Settings], judged_only: bool) -> List[Finding]:
        found: List[Finding] = []
        for part in self._findings_by_rule(value, settings, judged_only, False):
            found.extend(part)
        return found

    def _findings_by_rule(self, value: str, settings: Optional[Settings], judged_only: bool,
                          lazily: bool) -> Iterable[List[Finding]]:
        """The findings of :meth:`_findings_alone`, one list per rule in the
        order they run.  ``lazily``: each rule runs when its list is asked
        for (a caller may stop early), and the whole list is kept only if
        the caller takes every rule's; otherwise all run first, and are kept."""
        selection = self.selection_for(settings)
        key = (id(selection), judged_only, value)
        hit = self._judged_hit(key)
        if hit is not None and hit[0] is selection:
            return (hit[1],)
        parts = self._run_alone(value, settings, judged_only, selection)
        if lazily:
            return self._kept_when_done(parts, key, selection, value)
        found: List[Finding] = []
        for part in parts:
            found.extend(part)
        self._keep_judged(key, selection, value, found)
        return (found,)

    def _kept_when_done(self, parts: Iterable[List[Finding]], key: Tuple[int, bool, str], selection: Any,
                        value: str) -> Iterable[List[Finding]]:
        found: List[Finding] = []
        for part in parts:
            found.extend(part)
            yield part
        self._keep_judged(key, selection, value, found)

    def _keep_judged(self, key: Tuple[int, bool, str], selection: Any, value: str, found: List[Finding]) -> None:
        cache = self._judged
        if len(value) <= _LONG_JUDGED_VALUE:
            if len(cache) >= _JUDGED_KEPT:
                cache.clear()
            cache[key] = (selection, found)
        else:  # long values are rarely judged twice: only the last two are kept
            long = self._judged_long
            for old in list(long)[:-1]:
                long.pop(old, None)
            long[key] = (selection, found)

    def _judged_hit(self, key: Tuple[int, bool, str]) -> Optional[Tuple[Any, List[Finding]]]:
        hit = self._judged.get(key)
        return hit if hit is not None or len(key[2]) <= _LONG_JUDGED_VALUE else self._judged_long.get(key)

    def _run_alone(self, value: str, settings: Optional[Settings], judged_only: bool,
                   selection: Any, with_rules: bool = False) -> Any:
        """The findings of the rules on ``value`` alone, one list per rule
        in the order they run, each rule run when its list is asked for;
        ``with_rules``: (the rules in that order, the lists)."""
        from irilint.rules.context import DocumentInfo, RefContext
        from irilint.scanners.base import Candidate

        if judged_only:
            rules = [r for r in selection.rules if r.family in JUDGED_FAMILIES]
            doc = DocumentInfo(text=value, path=None, scanner="reference", settings=settings, run_state={})
        else:
            rules = [r for r in selection.rules if r.scope != "suppressions"]
            doc = DocumentInfo(text=value, path=None, scanner="reference", settings=settings, run_state={},
                               judge_decoding=self.judge_decoding)
        # The rules run as a check runs them: the plan's trait gates and
        # fast path, then the document rules.
        plan = self._plan_for(selection, rules)
        cand = Candidate(0, len(value), value)
        fast = plan.fast_match(value) if plan.fast_match is not None else None
        if fast is not None:
            ctx = RefContext(cand, None, doc, fast)
            run: List[Any] = []
        else:
            run, grammar_ok = plan.run_for(value)
            ctx = RefContext(cand, parse(value, grammar_checked=grammar_ok), doc)
            if is_template(value):  # as check_text judges a template
                run = template_rules(run, value)
        parts = self._parts_alone(ctx, doc, run, plan, selection)
        return (run + plan.doc_rules, parts) if with_rules else parts

    @staticmethod
    def _parts_alone(ctx: Any, doc: Any, run: List[Any], plan: "_RulePlan",
                     selection: Any) -> Iterable[List[Finding]]:
        from irilint.rules.context import DocContext

        for r in run:
            ctx.rule = r
            ctx.severity = plan.severities[r.name]
            part: List[Finding] = []
            try:
                part.extend(r.check(ctx) or ())
            except Exception:  # a rule bug is reported by the check itself
                pass  # (what it found before failing counts, as it did)
            yield part
        for r in plan.doc_rules:
            dctx = DocContext(doc, [ctx])
            dctx.rule = r
            dctx.severity = plan.severities.get(r.name) or selection.severity_of(r)
            part = []
            try:
                part.extend(r.check(dctx) or ())
            except Exception:
                pass
            yield part

    def _plan_for(self, selection: Any, rules: List[Any]) -> "_RulePlan":
        """The rule plan of a selection (less the rules a file's
        per-file-ignores drop), kept: building it per document was ~3% of
        a CLI run.  Keyed by rule names, not rules (hashing a Rule is a
        Python call)."""
        # ``rules`` is the selection's list, or that list less some rules.
        key = (id(selection), None if len(rules) == len(selection.rules) else tuple(r.name for r in rules))
        plan = self._plans.get(key)
        if plan is None or plan.selection is not selection:
            plan = _RulePlan(selection, rules)
            if len(self._plans) >= 64:
                self._plans.clear()
            self._plans[key] = plan
        return plan

    def check_text(
        self,
        text: str,
        *,
        path: Optional[str] = None,
        language_id: Optional[str] = None,
        settings: Optional[Settings] = None,
        run_state: Optional[Dict[str, Any]] = None,
        scanner: Any = None,
        index: Optional[LineIndex] = None,
    ) -> CheckResult:
        with _GC_PAUSE:
            return self._check_text(text, path, language_id, settings, run_state, scanner, index)

    def _check_text(
        self,
        text: str,
        path: Optional[str],
        language_id: Optional[str],
        settings: Optional[Settings],
        run_state: Optional[Dict[str, Any]],
        scanner: Any,
        index: Optional[LineIndex],
    ) -> CheckResult:
        DocContext, Collected = _rule_types()
        setup = self._document(text, path=path, language_id=language_id, settings=settings,
                               run_state=run_state, scanner=scanner, index=index)
        result = CheckResult([])
        suppressions, plan, doc = setup.suppressions, setup.plan, setup.doc
        shortcut = NO_REFERENCE_SHORTCUT
        if (suppressions or not shortcut) and setup.all_suppressed():  # none: nothing is silenced
            return result

        findings: List[Finding] = []
        candidates = iter(setup.scanner.scan(text))
        first = next(candidates, None) if shortcut else _NOT_PEEKED
        if first is None:  # many files: no reference, so nothing to set up for one
            contexts: List[Any] = []
        else:
            if first is not _NOT_PEEKED:
                candidates = chain((first,), candidates)
            contexts = list(_ReferenceLoop(self, setup, result.errors).run(candidates, findings))
        result.references = len(contexts)
        # The plan's severities are the selection's, for every rule of it.
        severities = plan.severities
        for r in plan.doc_rules:
            dctx = DocContext(doc, contexts, suppressions)
            dctx.rule = r
            dctx.severity = severities[r.name]
            try:
                findings.extend(r.check(dctx) or ())
                if r.project is not None:
                    result.facts[r.name] = Collected(dctx.severity, r.project.collect(dctx))
            except Exception as exc:
                result.errors.append("rule %s failed: %s: %s" % (r.name, exc.__class__.__name__, exc))
        # Every reference's context (and candidate) is done with: not held
        # while the findings are filtered, merged and sorted (with them, a
        # document dense with findings peaked there).
        contexts = dctx = None  # type: ignore[assignment]

        if suppressions:
            index = setup.line_index()
            kept: List[Finding] = []
            covering = suppressions_by_line(suppressions)
            for f in findings:
                if is_suppressed(f, index, covering):
                    result.suppressed += 1
                else:
                    kept.append(f)
            findings = kept
            for r in plan.suppression_rules:
                findings.extend(r.check(setup.suppression_check(r, suppressions)))
        if len(findings) > 1:
            findings = merge_same_characters(findings)
        findings.sort(key=Finding.sort_key)
        result.findings = findings
        return result

    def _document(self, text: str, *, path: Optional[str], language_id: Optional[str],
                  settings: Optional[Settings], run_state: Optional[Dict[str, Any]],
                  scanner: Any, index: Optional[LineIndex]) -> "_Document":
        """What a check of ``text`` needs before its first reference
        (check_text, and irilint.stream.check_stream)."""
        DocumentInfo = _document_info()
        selection = self.selection_for(settings)
        rules = selection.rules  # shared, never changed: no copy per document
        if path is not None and settings is not None and settings.per_file_ignores:
            rules = _drop_per_file_ignored(rules, settings, path)
        if scanner is None:
            from irilint.scanners import scanner_for

            extensions = dict(settings.extensions) if settings is not None else None
            scanner = scanner_for(path=path, language_id=language_id, extensions=extensions)
        doc = DocumentInfo(text=text, path=path, scanner=scanner.name, settings=settings,
                           run_state=run_state if run_state is not None else {},
                           index=index if index is not None and index.text is text else None,
                           judge_decoding=self.judge_decoding, judge_edit=self.judge_edit)
        suppressions = find_suppressions(text, index)
        return _Document(text, path, settings, scanner, doc, selection, rules, suppressions,
                         self._plan_for(selection, rules), index)


#: a candidate not looked at before the reference loop (the shortcut off)
_NOT_PEEKED = object()
#: a value the reference loop has not asked the fast path about yet
_NOT_MATCHED = object()

# Imported at the first check, then kept: a from-import in each check was
# a microsecond a file, and a run that checks nothing need not load the rules.
@functools.lru_cache(maxsize=None)
def _rule_types() -> Tuple[Any, Any]:
    """(DocContext, Collected)."""
    from irilint.rules.context import DocContext
    from irilint.rules.project_rules import Collected

    return DocContext, Collected


@functools.lru_cache(maxsize=None)
def _document_info() -> Any:
    """irilint.rules.context.DocumentInfo."""
    from irilint.rules.context import DocumentInfo

    return DocumentInfo


class _Document:
    """One document being checked: its scanner, rules and suppressions."""

    def __init__(self, text: str, path: Optional[str], settings: Optional[Settings], scanner: Any,
                 doc: Any, selection: Any, rules: List[Any], suppressions: List[Suppression],
                 plan: "_RulePlan", index: Optional[LineIndex]) -> None:
        self.text = text
        self.path = path
        self.settings = settings
        self.scanner = scanner
        self.doc = doc
        self.selection = selection
        self.rules = rules
        self.suppressions = suppressions
        self.plan = plan
        self.index = index

    def all_suppressed(self) -> bool:
        """Whether an ``irilint: ignore-file`` without selectors silences
        the whole document (its file-wide suppressions are then used)."""
        file_wide = [s for s in self.suppressions if s.whole_file]
        if any(not s.selectors for s in file_wide):
            for s in file_wide:
                s.used = True
            return True
        return False

    def line_index(self) -> LineIndex:
        if self.index is None:
            self.index = LineIndex(self.text)
        return self.index

    def suppression_check(self, r: Any, suppressions: List[Suppression]) -> "SuppressionCheck":
        return SuppressionCheck(r, self.selection.severity_of(r), suppressions, self.text,
                                self.line_index(), self.scanner, self.path)


class _ReferenceLoop:
    """The per-reference rules of one document, one reference at a time
    (``run``), with the engine's memo or a memo of this document."""

    def __init__(self, engine: Engine, setup: _Document, errors: List[str]) -> None:
        self.doc = setup.doc
        self.plan = setup.plan
        self.errors = errors
        memo = self.memo = engine.memo
        self.namespace = (memo.namespace(setup.settings, setup.path, setup.scanner, setup.rules)
                          if memo is not None else None)
        # Without a memo across calls, one for this document alone: the same
        # reference written again (a link repeated on every line) costs a
        # copy of its findings, not a run of every rule.
        self.seen: Optional[Dict[Tuple[Any, ...], Tuple[int, Any, List[Finding], List[str]]]] = (
            {} if memo is None and DOCUMENT_MEMO else None)

    def run(self, candidates: Iterable[Any], findings: List[Finding]) -> Iterator[Any]:
        """For each candidate in turn: appends its findings to ``findings``
        (its errors to ``errors``), then yields its RefContext.  One loop
        with its names bound once, not a call per reference: a document
        of Turtle has a reference every 130 bytes."""
        from irilint.rules.context import RefContext

        doc = self.doc
        plan = self.plan
        errors = self.errors
        fast_match = plan.fast_match
        severities = plan.severities
        run_for = plan.run_for
        memo = self.memo
        namespace = self.namespace
        seen = self.seen
        memo_key = ReferenceMemo.key
        # value -> fast_match(value) (None included), see FAST_MEMO
        fast_of: Optional[Dict[str, Any]] = {} if fast_match is not None and FAST_MEMO else None
        fast_known = fast_of.get if fast_of is not None else None
        unknown = _NOT_MATCHED
        for cand in candidates:
            value = cand.value
            if fast_of is not None:
                fast = fast_known(value, unknown)  # type: ignore[misc]
                if fast is unknown:
                    if len(fast_of) >= _FAST_KEPT:
                        fast_of.clear()
                    fast = fast_of[value] = fast_match(value)  # type: ignore[misc]
                if fast is not None:  # no rule in force can flag it: parsed only if asked
                    yield RefContext(cand, None, doc, fast)
                    continue
            elif fast_match is not None:
                fast = fast_match(value)
                if fast is not None:
                    yield RefContext(cand, None, doc, fast)
                    continue
            if namespace is not None:
                key = memo.key(namespace, cand)  # type: ignore[union-attr]
                hit = memo.get(key, cand.start)  # type: ignore[union-attr]
                if hit is not None:
                    ref, ref_findings, ref_errors = hit
                    findings.extend(ref_findings)
                    errors.extend(ref_errors)
                    yield RefContext(cand, ref, doc)
                    continue
                first_finding, first_error = len(findings), len(errors)
            elif seen is not None:
                key = memo_key(0, cand)
                again = seen.get(key)
                if again is not None:
                    first_start, ref, ref_findings, ref_errors = again
                    # copies even at the same start: merging tells findings apart by identity
                    findings.extend(shifted_all(ref_findings, cand.start - first_start))
                    errors.extend(ref_errors)
                    yield RefContext(cand, ref, doc)
                    continue
                first_finding, first_error = len(findings), len(errors)
            run, grammar_ok = run_for(value)
            ref = parse(value, grammar_checked=grammar_ok)
            ctx = RefContext(cand, ref, doc)
            if cand.template or is_template(value):
                run = template_rules(run, value, cand.template)
            for r in run:
                ctx.rule = r
                ctx.severity = severities[r.name]
                try:
                    findings.extend(r.check(ctx) or ())
                except Exception as exc:  # a rule bug must not lose the rest
                    from .anatomy import quoted

                    errors.append("rule %s failed on %s: %s: %s" % (
                        r.name, quoted(value, 200), exc.__class__.__name__, exc))
            ctx.release_components()
            if namespace is not None:
                memo.put(key, cand.start, ref, findings[first_finding:],  # type: ignore[union-attr]
                         errors[first_error:])
            elif seen is not None:
                seen[key] = (cand.start, ref, findings[first_finding:], errors[first_error:])
            yield ctx


class _CountsBefore:
    """The findings per rule code of the rules run so far on one reference
    alone (Engine._counts_before): ``count(code)`` runs the rules, in
    their order and on one context, until every rule of ``code`` has run
    (none if no rule of it is among them), so each count is the count of
    a run of every rule."""

    __slots__ = ("selection", "_counts", "_pending", "_left", "_parts", "_found", "_done", "_every")

    def __init__(self, selection: Any, rules: List[Any], parts: Iterable[List[Finding]],
                 done: Any) -> None:
        self.selection = selection
        self._counts: Dict[str, int] = {}
        #: rule code -> how many of the rules still to run have it
        self._pending: Dict[str, int] = {}
        for r in rules:
            self._pending[r.code] = self._pending.get(r.code, 0) + 1
        self._left = len(rules)
        self._parts = zip(rules, parts)
        self._found: List[Finding] = []
        #: called with every finding once every rule has run
        self._done = done
        #: a rule reported a finding of another rule: no count is settled
        #: before every rule has run
        self._every = False

    @classmethod
    def of_findings(cls, findings: List[Finding]) -> "_CountsBefore":
        counts = cls(None, [], (), None)
        for f in findings:
            counts._counts[f.rule.code] = counts._counts.get(f.rule.code, 0) + 1
        return counts

    def count(self, code: str) -> int:
        counts = self._counts
        while self._left and (self._every or self._pending.get(code)):
            r, part = next(self._parts)
            self._left -= 1
            self._pending[r.code] -= 1
            for f in part:
                counts[f.rule.code] = counts.get(f.rule.code, 0) + 1
                if f.rule is not r:
                    self._every = True
            self._found.extend(part)
            if not self._left and self._done is not None:
                self._done(self._found)  # kept, as _all_findings keeps a run of every rule
                self._done = None
        return counts.get(code, 0)


def merge_same_characters(findings: List[Finding]) -> List[Finding]:
    """One finding per problem: where findings of several rules cover the
    same characters of a reference, the one of the most specific rule
    (``Rule.specificity``, then the lower code) stands for them.  Its
    message names the others, its severity is the highest of them (a
    merge must not let a run pass ``--fail-level``) and it offers their
    fixes after its own.  Runs after suppressions: a rule suppressed there
    is not named.  The findings are not changed (the memo keeps them);
    merged ones are new."""
    groups: Dict[Tuple[int, int, int], List[Finding]] = {}
    for f in findings:
        # Specificity 0: the rule is about something else than the
        # characters (a component's direction, a label's form), and its
        # finding is never merged.
        if f.start < f.end and f.rule.specificity > 0:
            key = (f.ref_start, f.start, f.end)
            group = groups.get(key)
            if group is None:
                groups[key] = [f]
            else:
                group.append(f)
    if all(len(group) == 1 for group in groups.values()):
        return findings  # the common case: no two findings on the same characters
    merged: Dict[int, Optional[Finding]] = {}
    for group in groups.values():
        if len(group) < 2 or len({f.rule.name for f in group}) < 2:
            continue
        best = max(group, key=lambda f: (f.rule.specificity, [-ord(c) for c in f.rule.code]))
        others = [f for f in group if f.rule is not best.rule]
        names: List[str] = []
        for o in others:
            name = "%s %s" % (o.rule.code, o.rule.name)
            if name not in names:
                names.append(name)
        fixes = list(best.fixes)
        for o in others:
            fixes.extend(fx for fx in o.fixes if fx not in fixes)
        merged[id(best)] = replace(best, message="%s (also %s)" % (best.message, ", ".join(names)),
                                   severity=max([best.severity] + [o.severity for o in others]),
                                   fixes=fixes)
        for o in others:
            merged[id(o)] = None
    if not merged:
        return findings
    out: List[Finding] = []
    for f in findings:
        m = merged.get(id(f), f)
        if m is not None:
            out.append(m)
    return out


class _RulePlan:
    """Which reference rules run on a reference, for one rule selection:
    the rules that run always, plus those whose trait the reference has,
    less those that cannot fire on it (irilint.rules.gates and the
    grammar part of irilint.rules.fastpath).  The lists are kept per
    combination, so a reference costs a few dictionary lookups."""

    def __init__(self, selection: Any, rules: List[Any]) -> None:
        from irilint.rules import gates
        from irilint.rules.fastpath import fast_match
        from irilint.rules.registry import has_punycode_trait

        self.selection = selection
        self.severities = {r.name: selection.severity_of(r) for r in rules}
        #: reference rules that run on every reference, those that need a
        #: trait, and the document rules
        self.always = always = [r for r in rules if r.scope == "reference" and r.needs is None]
        self.by_trait = by_trait = [r for r in rules if r.scope == "reference" and r.needs is not None]
        self.doc_rules = [r for r in rules if r.scope == "document"]
        #: the rules about the suppression comments, run after those apply
        self.suppression_rules = [r for r in rules if r.scope == "suppressions"]
        self._gates = gates
        self._fast_match = fast_match
        self._has_punycode = has_punycode_trait
        self._bits = {r.name: gates.rule_bit(r) for r in by_trait}
        #: the engine tries irilint.rules.fastpath on each reference first
        #: when it is exact for these rules
        self.fast_match = _fast_path(always)
        self.fast_path_on = self.fast_match is not None
        #: (traits, character mask or None, grammar checked) -> rules
        self._runs: Dict[Tuple[Any, ...], List[Any]] = {}

    def run_for(self, value: str) -> Tuple[List[Any], bool]:
        """The rules to run on ``value``, and whether the grammar is known
        to hold (the parser then skips its character checks)."""
        traits = []
        ascii_only = value.isascii()
        if not ascii_only:
            traits.append("non_ascii")
        if "%" in value:
            traits.append("percent")
        if self._has_punycode(value):
            traits.append("punycode")
        gates = self._gates
        mask = None
        grammar_ok = False
        if gates.ENABLED:
            if ascii_only:
                if not traits and not self.fast_path_on:
                    # the fast path's grammar test, where that path is off
                    # (where it is on, it has just failed on this value)
                    grammar_ok = self._fast_match(value) is not None
            elif len(traits) == 1:
                mask = gates.char_mask(distinct_non_ascii(value))
                grammar_ok = gates.plain_syntax_match(value, mask)
        key = (tuple(traits), mask, grammar_ok)
        run = self._runs.get(key)
        if run is None:
            run = self._runs[key] = self._build(frozenset(traits), mask, grammar_ok)
        return run, grammar_ok

    def _build(self, traits: frozenset, mask: Optional[int], grammar_ok: bool) -> List[Any]:
        run = [r for r in self.always if not (grammar_ok and r.fast_path_silent)]
        for r in self.by_trait:
            if not r.needs & traits:
                continue
            bit = self._bits[r.name]
            if mask is not None and bit is not None and not mask & bit:
                continue
            run.append(r)
        return run


def _fast_path(always_rules: List[Any]) -> Any:
    """The fast path's matcher for these rules, or None (irilint.rules.fastpath)."""
    from irilint.rules.fastpath import fast_matcher

    return fast_matcher(always_rules)


def _drop_per_file_ignored(rules: List[Any], settings: Settings, path: str) -> List[Any]:
    selectors = per_file_ignores_for(settings, path)
    if not selectors:
        return rules
    from irilint.rules.registry import resolve_selector

    drop = set()
    for s in selectors:
        try:
            drop.update(r.name for r in resolve_selector(s))
        except KeyError:
            pass
    return [r for r in rules if r.name not in drop]


_DEFAULT_ENGINE: Optional[Engine] = None


def default_engine() -> Engine:
    global _DEFAULT_ENGINE
    if _DEFAULT_ENGINE is None:
        _DEFAULT_ENGINE = Engine()
    return _DEFAULT_ENGINE


def check_text(text: str, **kwargs: Any) -> List[Finding]:
    """Convenience: the findings of ``text`` with the default engine."""
    return default_engine().check_text(text, **kwargs).findings


class _WholeTextScanner:
    """Treats the whole text as one reference (for rule tests and the
    ``check_reference`` helper)."""

    name = "reference"
    comments = ()

    def scan(self, text: str):
        from irilint.scanners.base import Candidate

        return [Candidate(0, len(text), text)] if text else []


def check_reference(value: str, select: Optional[Sequence[str]] = None,
                    settings: Optional[Settings] = None,
                    run_state: Optional[Dict[str, Any]] = None) -> List[Finding]:
    """The findings of one IRI reference, with the given rules (by name,
    code or family; default: those of ``settings``, else the rules enabled
    by default); ``select`` replaces the selection of ``settings`` and
    keeps the rest of them."""
    engine = Engine()
    if select is not None:
        settings = replace(settings if settings is not None else Settings(), select=tuple(select))
    result = engine.check_text(value, settings=settings, scanner=_WholeTextScanner(),
                               run_state=run_state)
    if result.errors:
        # A helper for tests and scripts: a crashing rule must not look
        # like a rule that found nothing.
        raise RuntimeError("; ".join(result.errors))
    return result.findings
