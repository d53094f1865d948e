"""IRI205 confusable-collision: different hosts whose UTS #39 skeletons are
equal, within a document, across the documents of a run and against the
protected domains.  The host identities and skeletons are worked out here;
the project-wide collect and reduce steps are :mod:`irilint.rules.collisions`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from irilint.chars import to_nfkc
from irilint.convert import idna_to_unicode
from irilint.findings import Related
from irilint.idn_display import policy_skeletons
from irilint.iri import IDNA_DOTS
from irilint.unicode_security import skeleton

from ..collisions import HostsOfRule, collision_steps
from ..fastpath import FAST_HOST_GROUP, FAST_RE
from ..project_rules import Place
from ..registry import rule
from .common import _list_chars, _show


# ---------------------------------------------------------------------------
# IRI205 confusable-collision
# ---------------------------------------------------------------------------

#: The shortcuts of :func:`_local_hosts` and :class:`LocalHosts` (one
#: place per host, shared by the check and the collect step; fast-path
#: hosts read by group number, a repeated host counted through its entry).
#: Off: the plain way, which tests/test_collision_shortcuts.py compares.
SHORTCUTS = True

#: run state key of the hosts of the documents checked before with the
#: same run state (checks one after another in one process; the CLI and
#: the server reduce across files instead: irilint.rules.collisions)
_STATE_KEY = "lookalike.confusable-collision"
#: identities of one skeleton a document records for other documents
MAX_IDENTITIES = 4
_DOTS_RE = re.compile("[%s]" % IDNA_DOTS)


def _host_identity(u: str) -> str:
    """The host as IDNA would see it: NFKC, lowercase, one kind of dot, no
    trailing dot.  Two hosts with the same identity are the same host."""
    ident = to_nfkc(u.lower()).lower()
    ident = _DOTS_RE.sub(".", ident)
    return ident[:-1] if ident.endswith(".") else ident


#: RFC 1035 s2.3.4 (253 characters in text form).
_MAX_DOMAIN_LENGTH = 253


@lru_cache(maxsize=8192)
def _label_skeleton(label: str) -> str:
    return skeleton(label)


@lru_cache(maxsize=8192)
def _host_skeletons(ident: str) -> List[Tuple[str, str]]:
    """(suffix, skeleton of suffix) for every label suffix of the host,
    longest first; label skeletons are cached and joined (a skeleton never
    reaches across a '.').  Cached per host (documents repeat hosts): the
    list is shared, never change it."""
    labels = ident.split(".")
    sks = [_label_skeleton(l) for l in labels]
    # The whole host, then the parent domains that DNS allows (at most 253
    # characters): every suffix of a host of thousands of labels would
    # make the list quadratic in the host's length.
    first = len(labels)
    size = -1
    while first > 1 and size + len(labels[first - 1]) + 1 <= _MAX_DOMAIN_LENGTH:
        first -= 1
        size += len(labels[first]) + 1
    return [(ident, ".".join(sks))] + [(".".join(labels[k:]), ".".join(sks[k:]))
                                       for k in range(first, len(labels))]


def _decode_domain(domain: str) -> str:
    out = []
    for label in _DOTS_RE.sub(".", domain.strip()).split("."):
        if label[:4].lower() == "xn--":
            u = idna_to_unicode(label.lower())
            if u is None:
                try:
                    u = label[4:].lower().encode("ascii").decode("punycode")
                except (UnicodeError, ValueError):
                    u = None
            label = u or label
        out.append(label)
    return ".".join(out)


def domain_skeletons(ident: str) -> List[str]:
    """The skeletons a named domain (its identity, ``ident``) is known by:
    its UTS #39 skeleton first, then the other skeletons of the browsers'
    comparison with top domains (diacritics removed, letters drawn like
    Latin read as Latin), sorted.  tools/gen_well_known_domains.py stores
    these for every well-known domain."""
    first = _host_skeletons(ident)[0][1]
    return [first] + sorted(sk for sk in policy_skeletons(ident) if sk != first)


@lru_cache(maxsize=32)
def _protected_table(domains: Tuple[str, ...]) -> Dict[str, Tuple[str, str]]:
    """skeleton -> (identity, domain as configured)."""
    table: Dict[str, Tuple[str, str]] = {}
    for d in domains:
        ident = _host_identity(_decode_domain(d))
        if ident:
            for sk in domain_skeletons(ident):
                table.setdefault(sk, (ident, d))
    return table


def _suffix_keys(suffix: str, sk: str) -> Tuple[str, ...]:
    """The skeletons a suffix of a host is looked up by: its UTS #39
    skeleton ``sk``, then the policy's.  An ASCII suffix has no diacritic,
    no letter drawn like Latin and no letter of several readings: its
    policy skeleton is ``sk`` (a test checks it), so it is not computed."""
    return (sk,) if suffix.isascii() else (sk, *policy_skeletons(suffix))


@lru_cache(maxsize=8192)
def _well_known_match(ident: str) -> Optional[Tuple[int, Optional[Tuple[str, str]]]]:
    """(k, hit) for the first suffix ``_host_skeletons(ident)[k]`` that has
    the skeleton of a well-known domain: hit is (identity, how the finding
    names it), or None when the suffix is one of those domains (the host is
    it or under it).  None when no suffix has.  Cached per host: the table
    never changes, and documents repeat hosts.  The table is imported here,
    so a run without ``well-known-domains`` never loads it."""
    from irilint.well_known_domains import SKELETONS

    for k, (suffix, sk) in enumerate(_host_skeletons(ident)):
        for key in _suffix_keys(suffix, sk):
            domains = SKELETONS.get(key)
            if domains is not None:
                if suffix in domains:
                    return k, None  # a well-known domain itself, or a host under it
                return k, (domains[0], "'%s' from the list of well-known domains" % domains[0])
    return None


def _protected_hit(ident: str, protected: Dict[str, Tuple[str, str]],
                   well_known: bool = False) -> Optional[Tuple[str, str]]:
    """(identity, how the finding names it) of the protected domain, else
    (with ``well_known``) the well-known domain, that ``ident`` or a parent
    domain of it looks like without being it, or None; the longest such
    suffix decides, a protected domain first.  A host under such a domain
    (``mail.paypal.com``) is that domain's; a parent that only looks like
    one (``tést.net`` in ``some.tést.net``; ``test.nét``, whose skeleton is
    the protected ``test.net``) is not.  Well-known domains of one
    skeleton are each their own (none imitates another)."""
    suffixes = _host_skeletons(ident)
    match = _well_known_match(ident) if well_known else None
    if protected:
        for suffix, sk in suffixes[:len(suffixes) if match is None else match[0] + 1]:
            for key in _suffix_keys(suffix, sk):
                hit = protected.get(key)
                if hit is not None:
                    if hit[0] != suffix:
                        return hit[0], "the protected domain '%s'" % hit[1]
                    return None  # the protected domain itself, or a host under it
    return None if match is None else match[1]


#: _host_of by reference value: a pure function of the value, asked for
#: every reference of every document (the language server re-checks a
#: whole document on each change); bounded by clearing
_HOSTS_BY_VALUE: Dict[str, Optional[Tuple[int, int, str, str]]] = {}
_MAX_HOSTS_BY_VALUE = 8192


def _host_of(ctx) -> Optional[Tuple[int, int, str, str]]:
    """(value start, value end, display text, identity) of a reg-name host."""
    fast = getattr(ctx, "fast", None)
    if fast is not None:  # the engine's fast path: no parse needed
        start, end = fast.span(FAST_HOST_GROUP)
        if start >= end:
            return None
        raw = ctx.value[start:end]
        ident = _ascii_host_identity(raw)
        return None if ident is None else (start, end, raw, ident)
    value = ctx.value
    try:
        return _HOSTS_BY_VALUE[value]
    except KeyError:
        pass
    host = _find_host(ctx)
    if len(_HOSTS_BY_VALUE) >= _MAX_HOSTS_BY_VALUE:
        _HOSTS_BY_VALUE.clear()
    _HOSTS_BY_VALUE[value] = host
    return host


@lru_cache(maxsize=8192)
def _ascii_host_identity(raw: str) -> Optional[str]:
    """_find_host's identity of an ASCII host without "%" or "xn--"."""
    ident = _host_identity(raw)
    if not ident or ident.startswith(".") or ".." in ident:
        return None
    return ident


def _find_host(ctx) -> Optional[Tuple[int, int, str, str]]:
    ref = ctx.ref
    if ref.host is None or ref.host_kind != "reg-name" or ref.host.start == ref.host.end:
        return None
    raw = ctx.value[ref.host.start:ref.host.end]
    if raw.isascii() and "%" not in raw and "xn--" not in raw.lower():
        u = raw
    else:
        vref = ctx.view_ref
        if vref.host is None:
            return None
        u = ctx.view.text[vref.host.start:vref.host.end]
    ident = _host_identity(u)
    if not ident or ident.startswith(".") or ".." in ident:
        return None
    return ref.host.start, ref.host.end, u, ident


def _difference(mine: str, other: str) -> str:
    """The characters that tell two confusable hosts apart, for messages."""
    if len(mine) == len(other):
        pairs = [(a, b) for a, b in zip(mine, other) if a != b]
        if pairs:
            return "it has %s where the other has %s" % (
                _list_chars(a for a, _ in pairs), _list_chars(b for _, b in pairs))
    odd = [c for c in mine if not c.isascii()]
    if odd:
        return "it has " + _list_chars(odd)
    odd = [c for c in other if not c.isascii()]
    if odd:
        return "the other has " + _list_chars(odd)
    return "they differ only in characters with the same skeleton"


@rule(name="confusable-collision", code="IRI205", family="lookalike", severity="error",
      scope="document", project=collision_steps(HostsOfRule(
          # late-bound: these are defined further down this module
          local_hosts=lambda doc: local_hosts(doc),
          collision_message=lambda *a: collision_message(*a),
          other_file_partner=lambda *a: other_file_partner(*a),
          max_identities=MAX_IDENTITIES)))
def confusable_collision(doc):
    """Two different hosts that look the same.

    ## What it does
    Compares the UTS #39 skeletons of hosts (in Unicode form: ``xn--``
    labels and percent-encoding decoded, then NFKC and lowercase, as IDNA
    does) and reports a host whose skeleton equals that of a *different*
    host:

    * one of the ``protected-domains`` of the configuration, or a parent
      domain of the host equal to one (``login.раураl.com`` imitates
      ``paypal.com``).  ASCII typosquats count here: ``paypa1.com``.
      This comparison is the browsers' comparison with top domains
      (Chromium's IDN display policy), so it also removes the diacritics
      of hosts written in Latin, Greek and Cyrillic (``đigklmo68.com``,
      ``tést.net``) and reads the letters that common fonts draw like Latin
      ones as those letters (Cyrillic ``шмнтв`` as ``wmhtb``, Latin ``ŧ``
      as ``t``, ``œ`` as ``ce`` or ``oe``; the table is generated by
      ``tools/gen_lookalike_table.py``).  A host under a protected domain
      (``mail.paypal.com``) is that domain's; a parent domain that only
      looks like one is not (``éxample.test.nét`` against ``test.net``);
    * with ``well-known-domains = true`` in the configuration (off by
      default), one of the well-known domains: the nearly 5,000 of
      Chromium's list of top domains, the list its IDN display policy
      compares hosts with (BSD-style licence;
      ``tools/gen_well_known_domains.py`` generates
      ``irilint.well_known_domains`` from it).  They are compared exactly
      as the protected domains are, and the finding says which one the
      host looks like and that it is from the list of well-known domains
      (``аррӏе.com``, ``ģoogle.com`` and ``paypa1.com`` imitate
      ``apple.com``, ``google.com`` and ``paypal.com``); a well-known
      domain and the hosts under it (``mail.google.com``) are clean.  A
      ``protected-domains`` entry with the same skeleton is named first;
    * an earlier host of the same document;
    * a host of another file checked in the same run (the finding names
      the file and line).

    Hosts that are the same for IDNA (case, full-width forms, ``。`` for
    ``.``) are not collisions.  Between two hosts of the documents, at
    least one must be non-ASCII: ``rn``/``m`` or ``1``/``l`` between two
    plain ASCII hosts is left to ``ascii-lookalike``.  Each pair of hosts
    is reported once, at the first occurrence of the host that is not
    ASCII (of two non-ASCII hosts: the less frequent, else the later),
    with a related location at the other host; one finding names every
    host its host collides with.

    ## Why
    A document that links to both ``paypal.com`` and ``раураl.com``
    almost certainly holds a spoof, and a reviewer cannot see which one.

    ## Example
    With ``protected-domains = ["paypal.com"]``, ``http://раураl.com/``
    (Cyrillic р, а, у) is reported; with ``well-known-domains = true``,
    ``http://paypaľ.com/`` (ľ with a caron) is reported as confusable with
    ``'paypal.com' from the list of well-known domains``.

    ## Fix safety
    No fix: which host is genuine is for a person to decide.

    ## Reference
    UTS #39 s4 (confusable detection); RFC 3987 s7.5; RFC 3986 s6.2.2.1
    (case-insensitive hosts).
    """
    local = local_hosts(doc)
    if local is None:
        return
    info = doc.doc
    path = info.path
    state = info.run_state.setdefault(_STATE_KEY, {})
    partners = {ident: (skel, list(found)) for ident, (skel, found) in local.partners.items()}
    for skel, group in local.seen.items():
        before = state.get(skel)
        if not before:
            continue  # no document before had a host of this skeleton
        for ident in group:
            # Documents checked one after another with one run state: the
            # hosts of those before, reported here whichever is the spoof
            # (they cannot be reported again).
            others = [(o, d, p, line) for o, (d, p, line) in before.items()
                      if not (o.isascii() and ident.isascii()) and o != ident and o not in group
                      and not (path is not None and p == path)]
            for other_ident, other_display, other_path, other_line in others:
                partners.setdefault(ident, (skel, []))[1].append(
                    other_file_partner(other_ident, other_display, other_path, other_line))
    for ident, (skel, found) in partners.items():
        entry = local.seen[skel][ident]
        message, related = collision_message(entry[4], ident, found)
        finding = doc.report(entry[1], entry[2], entry[3], message)
        finding.related = related
        yield finding
    for skel, group in local.seen.items():
        known = state.setdefault(skel, {})
        for ident, entry in group.items():
            if ident not in known and len(known) < MAX_IDENTITIES:
                known[ident] = (entry[4], path, local.host_line(doc, ident, entry))


class LocalHosts:
    """The hosts of one document as confusable-collision sees them, shared
    by its check and its collect step."""

    def __init__(self, seen: Dict[str, Dict[str, list]], index, partners) -> None:
        #: skeleton -> identity -> [occurrences, ctx, start, end, display],
        #: in order of first occurrence
        self.seen = seen
        self.index = index
        #: identity -> (skeleton, [(other identity, text, Related or None)]):
        #: the protected domains and the hosts of the same document each
        #: host collides with, in the order its finding names them
        self.partners = partners
        #: identity -> the Place of its first occurrence, once asked
        self._places: Dict[str, Place] = {}

    def place(self, entry) -> Tuple[int, int]:
        return entry[1].candidate.source_span(entry[2], entry[3])

    def line_of(self, entry) -> int:
        """The 1-based line of a host's first occurrence."""
        return self.index.line_of(self.place(entry)[0]) + 1

    def host_place(self, doc, ident: str, entry) -> Place:
        """The :class:`Place` of the first occurrence of host ``ident``
        (``entry`` is its entry in ``seen``) in ``doc``, the DocContext the
        hosts were found with; worked out once.  (Not kept here: the
        DocContext holds this object, and a cycle would keep every
        reference of the document alive until a garbage collection.)"""
        if not SHORTCUTS:
            return Place.of(doc, entry[1], entry[2], entry[3])
        place = self._places.get(ident)
        if place is None:
            place = self._places[ident] = Place.of(doc, entry[1], entry[2], entry[3])
        return place

    def host_line(self, doc, ident: str, entry) -> int:
        """:meth:`line_of` the host ``ident``: its place's line (the check
        and the collect step ask for the same hosts' lines and places)."""
        if not SHORTCUTS:
            return self.line_of(entry)
        return self.host_place(doc, ident, entry).line


def local_hosts(doc) -> Optional[LocalHosts]:
    """The :class:`LocalHosts` of ``doc`` (worked out once per check), or
    None when it has no reg-name host."""
    if "confusable-collision" in doc.shared:
        return doc.shared["confusable-collision"]
    doc.shared["confusable-collision"] = local = _local_hosts(doc)
    return local


def _local_hosts(doc) -> Optional[LocalHosts]:
    info = doc.doc
    settings = info.settings
    domains = tuple(getattr(settings, "protected_domains", ()) or ())
    protected = _protected_table(domains) if domains else {}
    well_known = bool(getattr(settings, "well_known_domains", False))
    # skeleton -> identity -> [occurrences, ctx, start, end, display], in
    # order of first occurrence
    seen: Dict[str, Dict[str, list]] = {}
    #: raw host text of fast-path references -> (skeleton, identity): a
    #: document repeats its hosts, most of them plain ASCII
    by_raw: Dict[str, Optional[Tuple[str, str]]] = {}
    if SHORTCUTS:
        _seen_hosts(doc.refs, seen)
    else:
        for ctx in doc.refs:
            fast = ctx.fast
            if fast is not None:  # _host_of inlined for the engine's fast path
                start, end = fast.span(FAST_HOST_GROUP)
                if start >= end:
                    continue
                raw = ctx.value[start:end]
                known = by_raw.get(raw, False)
                if known is None:
                    continue
                if known is not False:
                    seen[known[0]][known[1]][0] += 1
                    continue
                ident = _ascii_host_identity(raw)
                if ident is None:
                    by_raw[raw] = None
                    continue
                display = raw
                skel = _host_skeletons(ident)[0][1]
                by_raw[raw] = (skel, ident)
            else:
                host = _host_of(ctx)
                if host is None:
                    continue
                start, end, display, ident = host
                skel = _host_skeletons(ident)[0][1]
            _count_host(seen, skel, ident, ctx, start, end, display)
    if not seen:
        return None
    index = doc.line_index()

    def place(entry) -> Tuple[int, int]:
        return entry[1].candidate.source_span(entry[2], entry[3])

    # identity -> (skeleton, [(other display, where, Related)]): one finding
    # per host that is to carry it, naming every host it collides with, so
    # each pair of hosts is reported once
    partners: Dict[str, Tuple[str, List[Tuple[str, str, Optional[Related]]]]] = {}

    def add(skel: str, ident: str, other_ident: str, text: str, related: Optional[Related]) -> None:
        partners.setdefault(ident, (skel, []))[1].append((other_ident, text, related))

    for skel, group in seen.items():
        if protected or well_known:
            for ident, entry in group.items():
                hit = _protected_hit(ident, protected, well_known)
                if hit is not None:
                    add(skel, ident, hit[0], hit[1], None)
        if len(group) > 1:
            idents = list(group)
            for k, first in enumerate(idents):
                for later in idents[k + 1:]:
                    if first.isascii() and later.isascii():
                        continue  # rn/m, 1/l: ascii-lookalike's
                    ident, other = _collision_side(first, group[first], later, group[later])
                    s, e = place(group[other])
                    (l1, c1), (l2, c2) = index.position(s), index.position(e)
                    add(skel, ident, other, "%s on line %d" % (_show(group[other][4]), l1 + 1),
                        Related("the host %s it is confusable with" % _show(group[other][4]),
                                l1 + 1, c1 + 1, l2 + 1, c2 + 1, None, s, e))
    return LocalHosts(seen, index, partners)


#: the number of FAST_RE's host group (a number is looked up faster than a name)
_FAST_HOST = FAST_RE.groupindex[FAST_HOST_GROUP]
#: fast-path matches _seen_hosts remembers at a time
_MATCHES_KEPT = 4096


def _seen_hosts(refs, seen: Dict[str, Dict[str, list]]) -> None:
    """Fill ``seen`` (see :func:`_local_hosts`) from the references."""
    #: raw host text of fast-path references -> its entry in ``seen``, or
    #: None for no host identity: a document repeats its hosts, most of
    #: them plain ASCII (two raw texts of one identity share the entry)
    by_raw: Dict[str, Optional[list]] = {}
    get_raw = by_raw.get
    #: the same by fast-path match (the engine shares one match between
    #: the repeats of a value): found without making the host's text
    by_match: Dict[object, Optional[list]] = {}
    get_match = by_match.get
    for ctx in refs:
        fast = ctx.fast
        if fast is not None:  # _host_of inlined for the engine's fast path
            known = get_match(fast, False)
            if known is not False:
                if known is not None:
                    known[0] += 1
                continue
            if len(by_match) >= _MATCHES_KEPT:
                by_match.clear()  # a streamed document holds no more of them
            raw = fast.group(_FAST_HOST)
            if not raw:  # no reg-name host (None), or an empty one
                by_match[fast] = None
                continue
            known = get_raw(raw, False)
            if known is not False:
                by_match[fast] = known
                if known is not None:
                    known[0] += 1
                continue
            ident = _ascii_host_identity(raw)
            if ident is None:
                by_raw[raw] = by_match[fast] = None
                continue
            start, end = fast.span(_FAST_HOST)
            display = raw
            skel = _host_skeletons(ident)[0][1]
        else:
            host = _host_of(ctx)
            if host is None:
                continue
            start, end, display, ident = host
            skel = _host_skeletons(ident)[0][1]
            raw = None
        entry = _count_host(seen, skel, ident, ctx, start, end, display)
        if raw is not None:
            by_raw[raw] = by_match[fast] = entry


def _count_host(seen: Dict[str, Dict[str, list]], skel: str, ident: str, ctx, start: int, end: int,
                display: str) -> list:
    """One more occurrence of the host ``ident`` in ``seen`` (see
    :func:`_local_hosts`): its entry, made at its first."""
    group = seen.get(skel)
    if group is None:
        group = seen[skel] = {}
    entry = group.get(ident)
    if entry is None:
        entry = group[ident] = [1, ctx, start, end, display]
    else:
        entry[0] += 1
    return entry


def other_file_partner(other_ident: str, display: str, path: Optional[str],
                       line: int) -> Tuple[str, str, Related]:
    """A partner of a host in another document, as its finding names it."""
    return (other_ident, "%s in %s, line %d" % (_show(display), path or "another document", line),
            Related("the host %s it is confusable with" % _show(display),
                    line, 0, line, 0, path or "another document"))


def collision_message(display: str, ident: str,
                      found: Sequence[Tuple[str, str, Optional[Related]]]) -> Tuple[str, List[Related]]:
    """The message and related locations of the finding on the host
    ``ident`` (shown as ``display``) that collides with ``found``."""
    first_other, first_text, first_related = found[0]
    # A named domain (protected or well-known) has no place in a document:
    # compare it with the part of the host that imitates it.
    mine = ident if first_related is not None else _protected_suffix(ident, first_other)
    message = "the host %s is confusable with %s (equal skeletons); %s" % (
        _show(display), first_text, _difference(mine, first_other))
    if len(found) > 1:
        message += "; also with " + ", ".join(t for _o, t, _r in found[1:])
    return message, [r for _o, _t, r in found if r is not None]


def _protected_suffix(ident: str, protected_ident: str) -> str:
    """The part of ``ident`` (itself or a parent domain) whose skeleton is
    one of the protected (or well-known) domain's, for the message's
    difference."""
    target = set(domain_skeletons(protected_ident))
    for suffix, sk in _host_skeletons(ident):
        if sk in target or not target.isdisjoint(policy_skeletons(suffix)):
            return suffix
    return ident


def _collision_side(first: str, first_entry: list, later: str, later_entry: list) -> Tuple[str, str]:
    """(the host to report, the other) of two confusable hosts of one
    document, ``first`` occurring first: the one that is not ASCII, else
    the less frequent, else the later."""
    if first.isascii():
        return later, first
    if later.isascii():
        return first, later
    if first_entry[0] < later_entry[0]:
        return first, later
    return later, first
