"""confusable-collision across documents: its collect and reduce steps.

The rule itself (irilint.rules.lookalike, IRI205) reports the collisions
one document shows by itself.  Its collect step records each document's
hosts (:class:`HostFact`); its reduce step finds the hosts of different
documents with equal skeletons, and reports each such pair once:

* in the document where the host that is not ASCII first occurs (of two
  non-ASCII hosts, the later document's);
* not when one document holds both hosts (its own check reported them);
* on the host's first occurrence, one finding naming every host it
  collides with: those of its own document first (as its check named
  them), then those of the other documents, in file order.

Each document records at most ``MAX_IDENTITIES`` hosts per skeleton, and
only the first ``MAX_IDENTITIES`` of a skeleton across the documents
count (a skeleton shared by hundreds of hosts names a few, not all).
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

from irilint.findings import Related

from .project_rules import (
    DocumentFacts, FactsCodec, Place, ProjectFinding, ProjectSteps, finding_at, related_from_json, related_to_json,
)

#: changes whenever HostFact changes shape or meaning
FACTS_VERSION = 1


class HostFact(NamedTuple):
    """One host of a document, at its first occurrence."""

    skeleton: str
    identity: str
    #: as written (decoded from Punycode and escapes)
    display: str
    #: 1-based line of its first occurrence
    line: int
    #: where a finding on it goes; None for an ASCII host read from the
    #: cache (see :func:`encode_hosts`)
    place: Optional[Place]
    #: the protected domains and hosts of its own document it collides
    #: with: (identity, text, related location), as its finding names them
    local: Tuple[Tuple[str, str, Optional[Related]], ...] = ()


class HostsOfRule(NamedTuple):
    """What the rule that owns the facts (confusable-collision, in
    :mod:`irilint.rules.lookalike`) tells the two steps: given, not
    imported, so this module does not import the rule's module back."""

    #: the document's hosts as the rule's check found them (shared)
    local_hosts: Any
    #: the message and related locations of a finding on a host
    collision_message: Any
    #: a partner of a host in another document, as its finding names it
    other_file_partner: Any
    #: how many different hosts of one skeleton are kept
    max_identities: int


def collect_hosts(rule_side: HostsOfRule, doc: Any) -> Tuple[HostFact, ...]:
    """The hosts of a document (the rule's check found them: shared),
    each with its place."""
    MAX_IDENTITIES = rule_side.max_identities
    local = rule_side.local_hosts(doc)
    if local is None:
        return ()
    out: List[HostFact] = []
    for skel, group in local.seen.items():
        for ident, entry in list(group.items())[:MAX_IDENTITIES]:
            # (worked out once per host: the check asked for the same lines)
            place = local.host_place(doc, ident, entry)
            found = local.partners.get(ident)
            out.append(HostFact(skel, ident, entry[4], local.host_line(doc, ident, entry), place,
                                tuple(found[1]) if found is not None else ()))
    return tuple(out)


def reduce_hosts(rule_side: HostsOfRule, rule: Any, documents: Sequence[DocumentFacts],
                 every_document: bool = False) -> Iterator[ProjectFinding]:
    """The collisions between hosts of different documents: once per pair
    (a run's output), or with ``every_document`` on each host of each
    document involved (an editor shows a collision on both documents)."""
    MAX_IDENTITIES = rule_side.max_identities
    collision_message, other_file_partner = rule_side.collision_message, rule_side.other_file_partner

    # skeleton -> identity -> (its first HostFact, document number), the
    # first MAX_IDENTITIES identities of each skeleton in file order
    first: Dict[str, Dict[str, Tuple[HostFact, int]]] = {}
    #: per document: skeleton -> its identities there
    mine: List[Dict[str, Set[str]]] = []
    for n, d in enumerate(documents):
        idents: Dict[str, Set[str]] = {}
        for h in d.facts:
            idents.setdefault(h.skeleton, set()).add(h.identity)
            group = first.setdefault(h.skeleton, {})
            if h.identity not in group and len(group) < MAX_IDENTITIES:
                group[h.identity] = (h, n)
        mine.append(idents)
    # skeleton -> the pairs of identities some document holds both of
    together: Dict[str, Set[Tuple[str, str]]] = {}
    if not every_document:
        for idents in mine:
            for skel, those in idents.items():
                if len(those) > 1 and len(first[skel]) > 1:
                    together.setdefault(skel, set()).update((a, b) for a in those for b in those if a != b)
    for n, d in enumerate(documents):
        for fact in d.facts:
            ident = fact.identity
            group = first[fact.skeleton]
            if len(group) < 2 or fact.place is None:
                continue  # most hosts: nothing else looks like them
            if not every_document and (group.get(ident, (None, -1))[1] != n or ident.isascii()):
                continue  # reported where it first occurs, on the non-ASCII side
            idents = mine[n][fact.skeleton]
            pairs = together.get(fact.skeleton, ())
            found = list(fact.local)
            for other, (other_fact, k) in group.items():
                if other == ident or other in idents or (ident.isascii() and other.isascii()):
                    continue
                if not every_document and (not other.isascii() and k > n or (ident, other) in pairs):
                    # the later document's host reports two non-ASCII
                    # ones; one document holding both reported them itself
                    continue
                found.append(other_file_partner(other, other_fact.display, documents[k].path,
                                                other_fact.line))
            if len(found) == len(fact.local) or fact.place.suppressed:
                continue
            message, related = collision_message(fact.display, ident, found)
            yield ProjectFinding(n, finding_at(rule, d, fact.place, message, related), fact.place)


def for_cache(h: HostFact) -> HostFact:
    """What the cache keeps of a host: a run reports a collision across
    files once per pair, on the host that is not ASCII, so an ASCII host's
    place is left out (most hosts are ASCII: their rows stay two fields)."""
    return h._replace(place=None) if h.identity.isascii() else h


def encode_hosts(facts: Tuple[HostFact, ...]) -> List[List[Any]]:
    """JSON rows of :func:`for_cache` of each host: ``[skeleton, line]``
    for an ASCII host written as its skeleton with no partner in its
    document (most hosts), else every field."""
    rows: List[List[Any]] = []
    for h in map(for_cache, facts):
        if h.place is None and not h.local and h.skeleton == h.identity == h.display:
            rows.append([h.skeleton, h.line])
        else:
            rows.append([h.skeleton, h.identity, h.display, h.line,
                         None if h.place is None else h.place.to_json(),
                         [[o, t, None if r is None else related_to_json(r)] for o, t, r in h.local]])
    return rows


_new_tuple = tuple.__new__


def decode_hosts(rows: Any) -> Tuple[HostFact, ...]:
    """What :func:`encode_hosts` made; ValueError for any other shape."""
    if not isinstance(rows, list):
        raise ValueError("bad host facts")
    out: List[HostFact] = []
    for row in rows:
        if not isinstance(row, list) or not row or not isinstance(row[0], str):
            raise ValueError("bad host fact")
        if len(row) == 2:
            if type(row[1]) is not int or row[1] < 1:
                raise ValueError("bad host fact")
            # most rows: made as a tuple, not through the named tuple's
            # __new__ (a Python function)
            out.append(_new_tuple(HostFact, (row[0], row[0], row[0], row[1], None, ())))
            continue
        if len(row) != 6 or not (isinstance(row[1], str) and isinstance(row[2], str)
                                 and type(row[3]) is int and row[3] >= 1 and isinstance(row[5], list)):
            raise ValueError("bad host fact")
        local = []
        for partner in row[5]:
            if not (isinstance(partner, list) and len(partner) == 3 and isinstance(partner[0], str)
                    and isinstance(partner[1], str)):
                raise ValueError("bad host partner")
            local.append((partner[0], partner[1], None if partner[2] is None else related_from_json(partner[2])))
        place = None if row[4] is None else Place.from_json(row[4])
        out.append(HostFact(row[0], row[1], row[2], row[3], place, tuple(local)))
    return tuple(out)


def collision_steps(rule_side: HostsOfRule) -> ProjectSteps:
    """The project steps of confusable-collision, given its rule's side."""
    return ProjectSteps(collect=lambda doc: collect_hosts(rule_side, doc),
                        reduce=lambda rule, documents, every_document=False: reduce_hosts(
                            rule_side, rule, documents, every_document),
                        version=FACTS_CODEC.version, encode=FACTS_CODEC.encode, decode=FACTS_CODEC.decode,
                        may_report=FACTS_CODEC.may_report)


def may_report_hosts(facts: Tuple[HostFact, ...]) -> bool:
    """Whether :func:`reduce_hosts` for a run's output can report on one of
    these hosts: it reports only on a host that is not ASCII, at its place."""
    return any(h.place is not None and not h.identity.isascii() for h in facts)


#: how the cache reads confusable-collision's facts (irilint.rules.project_rules.FACTS_CODECS)
FACTS_CODEC = FactsCodec(version=FACTS_VERSION, encode=encode_hosts, decode=decode_hosts,
                         may_report=may_report_hosts)
