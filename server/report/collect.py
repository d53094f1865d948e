"""Gather what the review report shows from the per-file results of a check.

:func:`file_results` is the one place that turns paths into per-file
results (findings and the text they were found in); everything else here
works from those results, so another way of checking files can be put in
its place without touching the rest.  Each file is read once: its findings,
the lines shown around them and the IRI references counted for the
look-alikes all come from the one text.
"""
from __future__ import annotations

import argparse
import unicodedata
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from irilint.anatomy import CharInfo, char_info, is_invisible

from .model import (
    SEVERITIES,
    Card,
    FileReport,
    LookalikeGroup,
    Occurrence,
    ReportData,
    RuleTotal,
)


# ---------------------------------------------------------------------------
# Characters of an IRI, decoded
# ---------------------------------------------------------------------------

def characters(value: str) -> List[CharInfo]:
    """The distinct non-ASCII and invisible characters of an IRI reference,
    with ``%``-escapes of UTF-8 and ``xn--`` labels decoded; each says how
    the reference writes it."""
    from irilint.iri import parse
    from irilint.rules.context import LITERAL, build_view

    view = build_view(value, parse(value))
    out: Dict[str, CharInfo] = {}
    for i, ch in enumerate(view.text):
        if ch.isascii() and not is_invisible(ch):
            continue
        info = out.get(ch)
        if info is None:
            info = out[ch] = char_info(ch)
        s, e = view.spans[i]
        how = "literal" if view.origins[i] == LITERAL else value[s:e]
        if how not in info.written_as:
            info.written_as.append(how)
    return list(out.values())


# ---------------------------------------------------------------------------
# Look-alikes across the tree
# ---------------------------------------------------------------------------

_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def host_identity(value: str) -> Optional[str]:
    """The host of an IRI reference as IDNA compares it: Unicode form
    (``xn--`` labels and ``%``-escapes decoded), NFKC, lowercase, without a
    final dot.  None without a registered-name host."""
    from irilint.iri import parse
    from irilint.rules.context import build_view

    ref = parse(value)
    if ref.host is None or ref.host_kind != "reg-name":
        return None
    view = build_view(value, ref)
    vref = parse(view.text) if view.decoded_any else ref
    if vref.host is None:
        return None
    host = view.text[vref.host.start:vref.host.end]
    host = unicodedata.normalize("NFKC", host).translate(_DOTS).lower().rstrip(".")
    return host or None


def iri_identity(value: str) -> str:
    """The IRI reference as a reader sees it (escapes of UTF-8 and ``xn--``
    labels decoded)."""
    from irilint.iri import parse
    from irilint.rules.context import build_view

    if value.isascii() and "%" not in value and "xn--" not in value.lower():
        return value
    return build_view(value, parse(value)).text


def lookalike_groups(occurrences: Iterable[Occurrence]) -> List[LookalikeGroup]:
    """Hosts, then IRIs, that differ but whose UTS #39 skeletons are equal.

    IRIs are grouped only when they do not already differ by a look-alike
    host (that pair is listed with the hosts)."""
    from irilint.unicode_security import skeleton

    hosts: Dict[str, Dict[str, List[Occurrence]]] = {}
    iris: Dict[str, Dict[str, List[Occurrence]]] = {}
    host_of: Dict[str, Optional[str]] = {}
    cache: Dict[str, Tuple[Optional[str], str]] = {}  # the same IRI recurs
    for occ in occurrences:
        known = cache.get(occ.iri)
        if known is None:
            known = cache[occ.iri] = (host_identity(occ.iri), iri_identity(occ.iri))
        h, ident = known
        host_of[ident] = h
        if h:
            hosts.setdefault(skeleton(h), {}).setdefault(h, []).append(occ)
        if ident:
            iris.setdefault(skeleton(ident), {}).setdefault(ident, []).append(occ)

    def groups(kind: str, table: Dict[str, Dict[str, List[Occurrence]]]) -> List[LookalikeGroup]:
        out = []
        for sk, variants in table.items():
            if len(variants) < 2:
                continue
            if kind == "iri" and len({host_of.get(v) for v in variants}) > 1:
                continue
            items = sorted(variants.items(), key=lambda kv: (kv[1][0].path, kv[1][0].line, kv[1][0].column))
            out.append(LookalikeGroup(kind, sk, items))
        out.sort(key=lambda g: (g.variants[0][1][0].path, g.variants[0][1][0].line, g.variants[0][0]))
        return out

    return groups("host", hosts) + groups("iri", iris)


# ---------------------------------------------------------------------------
# Per-file results
# ---------------------------------------------------------------------------

@dataclass
class CheckedFile:
    """One file as the report needs it: its findings (``Reported``), the
    text they were found in and the settings it was checked with; or why
    it was not checked.  A view of :class:`irilint.project.FileResult`
    (which does not carry settings across worker processes) plus the
    settings the report's scan of occurrences needs."""

    path: str
    reported: List[Any]
    text: Optional[str] = None
    settings: Any = None
    error: Optional[str] = None
    skipped: Optional[str] = None


def _checker_args(paths: Sequence[str], select: Optional[Sequence[str]], ignore: Optional[Sequence[str]],
                  extend_select: Optional[Sequence[str]], config: Optional[str], jobs: int = 0,
                  follow_symlinks: bool = False) -> argparse.Namespace:
    # The namespace ``irilint check`` would have, without fixing, and with
    # the text of each file kept in its outcome.  No cache: the report needs
    # each file's text, and reading it is what the cache saves.
    return argparse.Namespace(
        command="report", paths=list(paths), select=list(select) if select else None,
        ignore=list(ignore) if ignore else None,
        extend_select=list(extend_select) if extend_select else None, fail_level=None,
        fix=False, diff=False, unsafe_fixes=False, config=config, stdin_filename=None, quiet=True,
        jobs=jobs, no_cache=True, no_progress=True, statistics=False, format="text",
        follow_symlinks=follow_symlinks, keep_text=True)


def file_results(paths: Sequence[str], *, select: Optional[Sequence[str]] = None,
                 ignore: Optional[Sequence[str]] = None, extend_select: Optional[Sequence[str]] = None,
                 config: Optional[str] = None, jobs: int = 0,
                 follow_symlinks: bool = False) -> List[CheckedFile]:
    """Check ``paths`` as ``irilint check`` does (the same discovery,
    configuration, rule selection, worker processes and look-alike hosts
    across files), each file read once: the outcome of each keeps the text
    it was checked in.  The results in discovery order.

    The one function that decides how files are found, read and checked
    for the report.  Raises :class:`irilint.config.ConfigError` on a bad
    configuration."""
    from irilint.project import Project
    from irilint.runner import check_files

    args = _checker_args(paths, select, ignore, extend_select, config, jobs, follow_symlinks)
    checker = Project(args)
    outcomes = check_files(checker, list(paths))
    results = []
    for o in outcomes:
        settings = checker.settings(o.abspath) if o.abspath and o.text is not None else None
        results.append(CheckedFile(o.path, o.reported, o.text, settings, o.error, o.skipped))
    return results


def scan_occurrences(path: str, text: str, settings: Any = None, index: Any = None) -> List[Occurrence]:
    """Every IRI reference of a document, with its position."""
    from irilint.lines import LineIndex
    from irilint.scanners import scanner_for

    extensions = dict(getattr(settings, "extensions", ()) or ()) if settings is not None else None
    scanner = scanner_for(path=path, extensions=extensions)
    index = index or LineIndex(text)
    out = []
    for cand in scanner.scan(text):
        line, col = index.position(cand.start)
        out.append(Occurrence(path, line + 1, col + 1, cand.value))
    return out


def file_report(path: str, reported: Sequence[Any], index: Any) -> FileReport:
    """Group a file's findings by the IRI reference they are about."""
    fr = FileReport(path)
    cards: Dict[Tuple[int, int, str], Card] = {}
    text = index.text
    for r in reported:
        f = r.finding
        fr.counts[f.severity.label] = fr.counts.get(f.severity.label, 0) + 1
        has_ref = bool(f.iri) and f.ref_end > f.ref_start
        key = (f.ref_start, f.ref_end, f.iri) if has_ref else (f.start, f.end, "\x00" + f.rule.code)
        card = cards.get(key)
        if card is None:
            anchor = f.ref_start if has_ref else f.start
            line0, col0 = index.position(anchor)
            line_text = index.line_text(line0)
            line_start = index.starts[line0]
            line_end = line_start + len(line_text)
            if has_ref:
                span = (f.ref_start - line_start, min(f.ref_end, line_end) - line_start)
            else:
                span = (col0, col0)
            card = cards[key] = Card(
                path=path, iri=f.iri if has_ref else "", line=line0 + 1, column=col0 + 1,
                line_text=line_text, iri_span=span, marks=[], findings=[],
                literal=has_ref and text[f.ref_start:f.ref_end] == f.iri)
        line_start = index.starts[card.line - 1]
        n = len(card.line_text)
        s = min(max(f.start - line_start, 0), n)
        e = min(max(f.end - line_start, s), n)
        card.marks.append((s, e))
        card.findings.append(r)
    fr.cards = sorted(cards.values(), key=lambda c: (c.line, c.column))
    return fr


def report_data(results: Iterable[CheckedFile]) -> ReportData:
    """What the report shows, from per-file results."""
    from irilint import __version__
    from irilint.lines import LineIndex
    from irilint.rules.registry import all_rules

    files: List[FileReport] = []
    occurrences: List[Occurrence] = []
    checked = 0
    for res in results:
        if res.error or res.skipped or res.text is None:
            files.append(FileReport(res.path, error=res.error, skipped=res.skipped))
            continue
        checked += 1
        index = LineIndex(res.text)
        occurrences.extend(scan_occurrences(res.path, res.text, res.settings, index))
        if res.reported:
            files.append(file_report(res.path, res.reported, index))
    files.sort(key=lambda f: f.path)
    summaries = {r.code: r.summary for r in all_rules()}
    totals: Dict[Tuple[str, str, str], int] = {}
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    for f in files:
        for c in f.cards:
            for r in c.findings:
                key = (r.rule.code, r.rule.name, r.finding.severity.label)
                totals[key] = totals.get(key, 0) + 1
    rules = [RuleTotal(code, name, sev, n, summaries.get(code, ""))
             for (code, name, sev), n in sorted(totals.items(), key=lambda kv: (rank[kv[0][2]], kv[0][0]))]
    return ReportData(files, checked, len(occurrences), rules, lookalike_groups(occurrences), __version__)


def collect(paths: Sequence[str] = (".",), *, select: Optional[Sequence[str]] = None,
            ignore: Optional[Sequence[str]] = None, extend_select: Optional[Sequence[str]] = None,
            config: Optional[str] = None, jobs: int = 0, no_cache: bool = False,
            follow_symlinks: bool = False) -> ReportData:
    """Check ``paths`` as ``irilint check`` does (same discovery, config and
    rule selection) and gather what the report shows.  Like ``check``, the
    walk does not follow a symlink out of ``paths`` unless
    ``follow_symlinks`` (such a link is listed as skipped).  ``no_cache``
    is accepted for the command line's sake: the report never uses the
    cache, since it reads each file's text anyway (once).  Raises
    :class:`irilint.config.ConfigError` on a bad configuration."""
    del no_cache
    return report_data(file_results(list(paths) or ["."], select=select, ignore=ignore,
                                    extend_select=extend_select, config=config, jobs=jobs,
                                    follow_symlinks=follow_symlinks))
