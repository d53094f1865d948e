"""The findings of the reference rules for each reference, kept between
checks: the language server checks a whole document again on every change,
and most of its references did not change."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .findings import Edit, Finding, Fix


def shifted(f: Finding, delta: int) -> Finding:
    """``f`` moved by ``delta`` code points (its reference moved): a new
    Finding, its other fields shared as ``dataclasses.replace`` shares them."""
    return shifted_all([f], delta)[0]


def shifted_all(found: List[Finding], delta: int) -> List[Finding]:
    """``[shifted(f, delta) for f in found]``: the findings of one
    reference, moved.  Built directly (``replace`` was most of the cost of
    a repeated reference), and each moved offset is made once: the
    findings and edits of a reference repeat a few offsets, and a document
    dense with findings held an int object (32 bytes) for each use."""
    offsets = set()
    for f in found:
        offsets.update((f.start, f.end, f.ref_start, f.ref_end))
        for fx in f.fixes:
            for e in fx.edits:
                offsets.add(e.start)
                offsets.add(e.end)
    at = {o: o + delta for o in offsets}

    def moved(fx: Fix) -> Fix:
        return Fix(fx.title, tuple([Edit(at[e.start], at[e.end], e.new_text) for e in fx.edits]), fx.safe)

    # One fix (the common case) in a list display: allocated to its size,
    # where a comprehension leaves room for three more.
    return [Finding(f.rule, f.severity, f.message, at[f.start], at[f.end],
                    [moved(f.fixes[0])] if len(f.fixes) == 1 else [moved(fx) for fx in f.fixes],
                    at[f.ref_start], at[f.ref_end], f.iri, f.path, f.related) for f in found]


class ReferenceMemo:
    """The findings of reference-scope rules for each reference, kept
    between ``check_text`` calls (least recently used first out).

    What a reference-scope rule reports depends only on the reference: its
    value, the kind of place it was found in (``Candidate.context``, which
    also decides whether it is data, whose fixes are all unsafe), whether
    a backslash precedes it (``Candidate.after_backslash``), how
    its characters map to the source (``Candidate.offsets``, relative to
    its start: fixes are written back through escapes), the scanner name
    (escaping of fixes), the path (``Finding.path``) and the settings and
    rule selection.  Those make the key; a hit is the same findings moved
    to the reference's new start.  Reference-scope rules must not read the
    document text or ``run_state`` (document-scope rules do, and always run
    on the whole document; suppressions are applied afterwards, to every
    finding).

    The parsed reference is kept too, for document-scope rules.  Settings
    must be hashable by value (``irilint.config.Settings`` is frozen);
    other settings objects turn the memo off for that call.
    """

    #: distinct (settings, path, scanner, rules) combinations kept; past it
    #: everything is dropped (a server has a few per open document)
    MAX_NAMESPACES = 256

    def __init__(self, max_entries: int = 20000) -> None:
        self.max_entries = max_entries
        self._entries: "OrderedDict[Tuple[Any, ...], List[Any]]" = OrderedDict()
        self._namespaces: Dict[Tuple[Any, ...], int] = {}
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self._namespaces.clear()

    def namespace(self, settings: Any, path: Optional[str], scanner: Any,
                  rules: Sequence[Any]) -> Optional[int]:
        """A small number standing for what every key of one call shares,
        or None when ``settings`` cannot key a memo."""
        if settings is not None and type(settings).__hash__ in (None, object.__hash__):
            return None
        ns = (settings, path, getattr(scanner, "name", None), type(scanner), tuple(rules))
        number = self._namespaces.get(ns)
        if number is None:
            if len(self._namespaces) >= self.MAX_NAMESPACES:
                self.clear()
            number = self._namespaces[ns] = len(self._namespaces)
        return number

    @staticmethod
    def key(namespace: int, cand: Any) -> Tuple[Any, ...]:
        offsets = cand.offsets
        if offsets is not None:
            start = cand.start
            offsets = tuple(o - start for o in offsets)
        joined = cand.joined_ends
        if joined is not None:
            joined = tuple(sorted((k, e - cand.start) for k, e in joined.items()))
        return (namespace, cand.value, cand.context, offsets, cand.after_backslash, cand.template, joined)

    def get(self, key: Tuple[Any, ...], start: int) -> Optional[Tuple[Any, List[Finding], List[str]]]:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        old_start, ref, found, errors = entry
        if start != old_start:
            delta = start - old_start
            found = shifted_all(found, delta)
            entry[0], entry[2] = start, found
        return ref, found, errors

    def put(self, key: Tuple[Any, ...], start: int, ref: Any, found: List[Finding],
            errors: List[str]) -> None:
        self._entries[key] = [start, ref, found, errors]
        if len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
