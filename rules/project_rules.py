"""Project rules: rules that judge a document against the other documents.

A project rule is a document rule (its check reports what one document
shows by itself) that declares two more steps, in the shape of pylint's
``get_map_data``/``reduce_map_data``:

* ``collect(doc) -> facts``: what the rule needs to know of one document
  to judge it against the others.  The engine calls it right after the
  rule's check, with the same :class:`~irilint.rules.context.DocContext`
  (so the two can share their work through ``DocContext.shared``).  Facts
  are immutable plain values that do not depend on the document's path,
  and they are kept with the file's cached result: ``encode`` makes JSON
  of them, ``decode`` reads it back (ValueError for anything of another
  shape) and ``version`` changes whenever their shape or meaning does.
* ``reduce(rule, documents, every_document) -> findings``: given every document's facts in
  file order (:class:`DocumentFacts`), the findings that only several
  documents together show, each at a :class:`Place` its facts recorded.
  No document is read again.  A finding of reduce supersedes the
  document's own finding of the same rule on the same characters (it says
  more: it also names partners in other documents); otherwise it is added.

The CLI reduces over the files of a run, the language server over the
open documents and the files of its workspace.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from irilint.findings import Finding, Related, Severity
from irilint.lines import clip_line


@dataclass(frozen=True)
class ProjectSteps:
    """The steps across documents of a project rule (``@rule(project=...)``)."""

    collect: Callable[[Any], Any]
    #: ``reduce(rule, documents, every_document)``: with ``every_document``
    #: (an editor), a finding about several documents goes on each of
    #: them; without (a run's output), on one
    reduce: Callable[[Any, Sequence["DocumentFacts"], bool], Iterable["ProjectFinding"]]
    #: changes whenever the facts change shape or meaning: cached facts of
    #: another version are not used (the file is checked again)
    version: int
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]
    #: ``may_report(facts)``: whether reduce, for a run's output (without
    #: ``every_document``), can put a finding on a document with these
    #: facts, whatever the other documents hold.  A run writes the output
    #: of a document that none of its rules' ``may_report`` answers for
    #: as soon as it is checked; the others wait for the reduction.  None:
    #: it can (every document waits).
    may_report: Optional[Callable[[Any], bool]] = None


@dataclass(frozen=True)
class Place:
    """Where in its document a finding of a project rule would go: the
    offsets a :class:`~irilint.findings.Finding` holds and the positions
    (1-based, columns in code points) and line text the output shows, so
    that reduce makes findings without the document's text."""

    start: int
    end: int
    ref_start: int
    ref_end: int
    iri: str
    line: int
    column: int
    end_line: int
    end_column: int
    line_text: str
    #: an ``irilint: ignore`` comment covering it names the rule
    suppressed: bool

    @classmethod
    def of(cls, doc: Any, ctx: Any, start: int, end: int) -> "Place":
        """The place of value span ``[start, end)`` of the reference
        ``ctx`` in the document of ``doc`` (a DocContext of the rule)."""
        s, e = ctx.candidate.source_span(start, end)
        index = doc.line_index()
        l1, c1 = index.position(s)
        l2, c2 = index.position(e)
        # (the line's text without the index's table: most documents are
        # asked a place or two, in document order)
        line_text = clip_line(index.line_text_from(s - c1), c1, c2 if l2 == l1 else c1)
        return cls(s, e, ctx.candidate.start, ctx.candidate.end, ctx.value,
                   l1 + 1, c1 + 1, l2 + 1, c2 + 1, line_text, doc.suppressed_at(s))

    def to_json(self) -> List[Any]:
        return [self.start, self.end, self.ref_start, self.ref_end, self.iri, self.line, self.column,
                self.end_line, self.end_column, self.line_text, self.suppressed]

    @classmethod
    def from_json(cls, data: Any) -> "Place":
        if not (isinstance(data, list) and len(data) == 11):
            raise ValueError("bad place")
        numbers = data[:4] + data[5:9]
        if not all(type(n) is int and n >= 0 for n in numbers) or not all(n >= 1 for n in data[5:9]):
            raise ValueError("bad place position")
        if not (isinstance(data[4], str) and isinstance(data[9], str) and type(data[10]) is bool):
            raise ValueError("bad place")
        if data[0] > data[1] or data[2] > data[3]:
            raise ValueError("bad place span")
        # A frozen dataclass's __init__ sets each field through
        # object.__setattr__; a warm run reads thousands of places.
        place = _new_object(cls)
        place.__dict__.update(zip(_PLACE_FIELDS, data))
        return place


_new_object = object.__new__
_PLACE_FIELDS = tuple(f.name for f in fields(Place))


def related_to_json(r: Related) -> List[Any]:
    return [r.message, r.line, r.column, r.end_line, r.end_column, r.path, r.start, r.end]


def related_from_json(data: Any) -> Related:
    if not (isinstance(data, list) and len(data) == 8):
        raise ValueError("bad related location")
    message, line, column, end_line, end_column, path, start, end = data
    if not isinstance(message, str) or not (path is None or isinstance(path, str)) or not all(
            type(n) is int for n in (line, column, end_line, end_column, start, end)):
        raise ValueError("bad related location")
    return Related(message, line, column, end_line, end_column, path, start, end)


@dataclass(frozen=True)
class Collected:
    """One project rule's facts of one document, with the severity the
    rule has there (settings may change it per folder)."""

    severity: Severity
    facts: Any


@dataclass(frozen=True)
class DocumentFacts:
    """What reduce sees of one document: the path its findings and
    messages name (None: not a file), the rule's severity there, and its
    facts."""

    path: Optional[str]
    severity: Severity
    facts: Any


@dataclass(frozen=True)
class ProjectFinding:
    """A finding of reduce: the document it is in (an index into the
    documents reduce was given), the finding, and its place."""

    document: int
    finding: Finding
    place: Place


def finding_at(rule: Any, document: DocumentFacts, place: Place, message: str,
               related: Sequence[Related] = ()) -> Finding:
    """A finding of ``rule`` at ``place``, as ``DocContext.report`` makes
    one (invisible characters in the message written as ``<U+XXXX>``)."""
    from irilint.unicode_security import visible_text

    return Finding(rule=rule, severity=document.severity, message=visible_text(message),
                   start=place.start, end=place.end, ref_start=place.ref_start, ref_end=place.ref_end,
                   iri=place.iri, path=document.path, related=list(related))


def supersedes(new: Finding, old: Finding) -> bool:
    """Whether a finding of reduce replaces a document's own finding."""
    return old.rule is new.rule and old.start == new.start and old.end == new.end


def encode_facts(collected: Dict[str, Collected]) -> Dict[str, List[Any]]:
    """A document's facts as JSON for the result cache: rule name ->
    [version, severity, the rule's encoding of its facts]."""
    from irilint.rules.registry import get_rule

    out: Dict[str, List[Any]] = {}
    for name, c in collected.items():
        steps = get_rule(name).project  # type: ignore[union-attr]
        out[name] = [steps.version, c.severity.label, steps.encode(c.facts)]
    return out


#: project rule name -> the module whose ``FACTS_CODEC`` (a
#: :class:`FactsCodec`, the very functions of the rule's ProjectSteps)
#: reads its cached facts: a module light to import, where the rule's own
#: imports the checking code a warm run never runs.  A project rule not
#: named here is looked up in the registry (every rule module imported).
#: tests/test_registry_catalogue.py checks it against the registered rules.
FACTS_CODECS = {"confusable-collision": "irilint.rules.collisions"}


@dataclass(frozen=True)
class FactsCodec:
    """What reading a project rule's cached facts needs of its
    :class:`ProjectSteps` (the fields of the same names)."""

    version: int
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]
    may_report: Optional[Callable[[Any], bool]] = None


#: rule name -> its FactsCodec, once imported
_codecs: Dict[str, Any] = {}


def facts_codec(name: str) -> Any:
    """The FactsCodec (or ProjectSteps) of the project rule ``name``, or
    None when no project rule has that name."""
    codec = _codecs.get(name)
    if codec is not None:
        return codec
    module = FACTS_CODECS.get(name)
    if module is not None:
        import importlib

        # (asked per cached file with facts: import_module is a few
        # Python calls each time)
        codec = _codecs[name] = importlib.import_module(module).FACTS_CODEC  # type: ignore[attr-defined]
        return codec
    from irilint.rules.registry import get_rule

    r = get_rule(name)
    return r.project if r is not None and r.name == name else None


def decode_facts(data: Any) -> Dict[str, Collected]:
    """What :func:`encode_facts` made; ValueError for an unknown rule, a
    rule that is no project rule, facts of another version, or anything of
    another shape (the cache then checks the file again)."""
    if not isinstance(data, dict):
        raise ValueError("bad facts")
    out: Dict[str, Collected] = {}
    for name, entry in data.items():
        codec = facts_codec(name) if isinstance(name, str) else None
        if codec is None:
            raise ValueError("facts of an unknown project rule")
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[1], str)):
            raise ValueError("bad facts")
        if type(entry[0]) is not int or entry[0] != codec.version:
            raise ValueError("facts of another version")
        # (made as Place.from_json makes a place: a warm run reads one per file)
        collected = _new_object(Collected)
        collected.__dict__.update(severity=_SEVERITY_BY_LABEL.get(entry[1]) or Severity.parse(entry[1]),
                                  facts=codec.decode(entry[2]))
        out[name] = collected
    return out


#: the labels a severity is written as (Severity.parse reads any other spelling)
_SEVERITY_BY_LABEL = {s.label: s for s in Severity}


def reduce_documents(documents: Sequence[Tuple[Optional[str], Dict[str, Collected]]],
                     every_document: bool = False) -> Dict[int, List[ProjectFinding]]:
    """The findings of every project rule across ``documents`` (path, the
    facts collected from it), in file order: document index -> findings
    (``ProjectFinding.document`` is an index into ``documents``).  A rule
    sees only the documents it ran on; ``every_document``: see
    :attr:`ProjectSteps.reduce`."""
    from irilint.rules.registry import get_rule

    names = sorted({name for _path, collected in documents for name in collected},
                   key=lambda n: get_rule(n).code)  # type: ignore[union-attr]
    out: Dict[int, List[ProjectFinding]] = {}
    for name in names:
        r = get_rule(name)
        assert r is not None and r.project is not None
        numbers: List[int] = []
        seen: List[DocumentFacts] = []
        for n, (path, collected) in enumerate(documents):
            c = collected.get(name)
            if c is not None:
                numbers.append(n)
                seen.append(DocumentFacts(path, c.severity, c.facts))
        if len(seen) < 2:
            continue  # one document: its own check said everything
        for pf in r.project.reduce(r, seen, every_document):
            n = numbers[pf.document]
            out.setdefault(n, []).append(ProjectFinding(n, pf.finding, pf.place))
    return out


def may_receive_findings(collected: Dict[str, Collected]) -> bool:
    """Whether reducing a run's documents (:func:`reduce_documents`
    without ``every_document``) can add a finding to, or replace one of, a
    document whose project rules collected ``collected``."""
    for name, c in collected.items():
        steps = facts_codec(name)
        if steps is None or steps.may_report is None or steps.may_report(c.facts):
            return True
    return False


def with_project_findings(own: Sequence[Finding], new: Sequence[Finding]) -> List[Finding]:
    """A document's findings with those of reduce in: each supersedes the
    document's own finding on the same characters, or is added; sorted."""
    if not new:
        return list(own)
    kept = [f for f in own if not any(supersedes(n, f) for n in new)]
    kept.extend(new)
    kept.sort(key=Finding.sort_key)
    return kept
