"""``irilint report``: a review report of the IRIs in a tree of documents.

Two forms:

* **HTML** (the default): one self-contained page, for a browser or as a CI
  artifact.  Inline CSS only: no script, no font, no image, no link that
  loads anything, and a Content-Security-Policy that forbids all of them,
  so the page works offline and a hostile document cannot make it do
  anything.  The IRIs under review may be malicious: they are shown as
  text, never as links.
* **Markdown** (GitHub-flavoured): a summary for a pull-request comment,
  with one collapsed ``<details>`` per file, kept under 65,000 characters.

What the report shows:

* totals by rule (code, name, severity, count) and by file;
* for each IRI with findings: its findings; the line of text, in logical
  order, with invisible characters replaced by labelled chips
  (``U+202E RIGHT-TO-LEFT OVERRIDE``), characters hidden in escapes
  (``%E2%80%AE``) or in ``xn--`` labels shown decoded next to them, and
  confusable characters highlighted with their script
  (``U+0430 CYRILLIC SMALL LETTER A · Cyrillic``); the URI form (RFC 3987
  s3.1) and the IRI form (s3.2); for a bidi IRI, the order a reader sees
  it in a left-to-right context (UAX #9 via python-bidi, base direction L);
  and a table of its non-ASCII and invisible characters with their scripts;
* the hosts and IRIs that look alike across the whole tree: different
  hosts (or IRIs) whose UTS #39 confusable skeletons are equal, with where
  each occurs.

Everything taken from the documents (IRIs, lines, messages, file names) is
escaped; invisible characters are never written raw.

``irilint report`` exits 0 when it wrote the report, 2 on a usage or
configuration error or when a file could not be read (the report is still
written and lists the error).  Findings do not change the exit status: use
``irilint check`` to gate.
"""
from __future__ import annotations

import argparse
import html
import os
import re
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from irilint.unicode_security import is_invisible, visible_text  # noqa: F401 (shared with messages)
from irilint.report_args import FORMATS, add_arguments, add_subcommand  # noqa: F401 (the report command's API)
SEVERITIES = ("error", "warning", "info", "hint")
#: GitHub refuses comments over 65,536 characters; keep a margin.
MARKDOWN_LIMIT = 65000
#: characters of context shown either side of the IRI or finding on a line
CONTEXT = 80
#: longest IRI shown whole on a line (longer ones are cut around the findings)
MAX_IRI_SHOWN = 400
#: longest URI/IRI form or visual order shown (longer ones are excerpted)
MAX_FORM = 300
MAX_CHAR_ROWS = 64
#: IRIs (with their findings) shown in detail in the HTML, to keep the page
#: a size a browser opens; the totals count everything
MAX_HTML_CARDS = 3000
MAX_OCCURRENCES = 10
MAX_LOOKALIKE_GROUPS = 200
MAX_MARKDOWN_FILE_ROWS = 100
MAX_MARKDOWN_LOOKALIKES = 30

BIDI_RTL = frozenset(("R", "AL", "AN"))
#: explicit embeddings, overrides and isolates (they reorder what follows)
BIDI_CONTROLS = frozenset(("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"))


# ---------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------

def char_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    from irilint.unicode_security import describe

    return describe(ch)


def scripts_of(ch: str) -> str:
    """The script names of a character (Script_Extensions), e.g.
    ``Cyrillic``; ``Common``/``Inherited`` for shared characters."""
    from irilint.unicode_security import script_extensions, script_name

    names = sorted(script_name(c) for c in script_extensions(ch))
    if len(names) > 4:
        return ", ".join(names[:4]) + ", …"
    return ", ".join(names)


def chip_label(ch: str, with_script: bool = True) -> str:
    """``U+0430 CYRILLIC SMALL LETTER A · Cyrillic`` (the script is left out
    for invisible characters, whose script says nothing)."""
    label = char_label(ch)
    if with_script and not is_invisible(ch):
        label += " · " + scripts_of(ch)
    return label


def looks_like(ch: str) -> Optional[str]:
    """What a non-ASCII character can be mistaken for (its UTS #39
    confusable prototype), or None."""
    if ch.isascii():
        return None
    from irilint.unicode_security import confusable_prototype

    proto = confusable_prototype(ch)
    if not proto or proto == ch or proto == unicodedata.normalize("NFD", ch):
        return None
    return proto


def is_bidi(s: str) -> bool:
    """Whether the display order of ``s`` can differ from its logical
    order: a right-to-left character (bidi class R, AL or AN) or an explicit
    bidi control."""
    for ch in s:
        if not ch.isascii():
            b = unicodedata.bidirectional(ch)
            if b in BIDI_RTL or b in BIDI_CONTROLS:
                return True
    return False


def visual_order(s: str) -> str:
    """``s`` in the order a reader sees it, left to right, when it stands in
    a left-to-right context (UAX #9 via python-bidi, base direction L)."""
    from bidi import get_display

    return get_display(s, base_dir="L")


@dataclass
class CharInfo:
    """One distinct non-ASCII or invisible character of an IRI."""

    char: str
    label: str  # "U+0430 CYRILLIC SMALL LETTER A"
    scripts: str
    bidi_class: str
    invisible: bool
    looks_like: Optional[str]
    #: how the document writes it: "literal", or the escape ("%D0%B0") or
    #: the ``xn--`` label it is hidden in
    written_as: List[str] = field(default_factory=list)


def characters(value: str) -> List[CharInfo]:
    """The distinct non-ASCII and invisible characters of an IRI reference,
    with ``%``-escapes of UTF-8 and ``xn--`` labels decoded."""
    from irilint.iri import parse
    from irilint.rules.context import LITERAL, build_view

    view = build_view(value, parse(value))
    out: Dict[str, CharInfo] = {}
    for i, ch in enumerate(view.text):
        if ch.isascii() and not is_invisible(ch):
            continue
        info = out.get(ch)
        if info is None:
            info = out[ch] = CharInfo(
                ch, char_label(ch), scripts_of(ch), unicodedata.bidirectional(ch) or "?",
                is_invisible(ch), looks_like(ch))
        s, e = view.spans[i]
        how = "literal" if view.origins[i] == LITERAL else value[s:e]
        if how not in info.written_as:
            info.written_as.append(how)
    return list(out.values())


# ---------------------------------------------------------------------------
# Look-alikes across the tree
# ---------------------------------------------------------------------------

@dataclass
class Occurrence:
    """Where an IRI reference occurs (1-based line and column)."""

    path: str
    line: int
    column: int
    iri: str


@dataclass
class LookalikeGroup:
    """Different hosts (``kind == "host"``) or IRIs (``"iri"``) with equal
    confusable skeletons; ``variants`` maps each to where it occurs."""

    kind: str
    skeleton: str
    variants: List[Tuple[str, List[Occurrence]]]


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
# Collecting the findings
# ---------------------------------------------------------------------------

@dataclass
class Card:
    """One IRI reference with its findings (or one finding without an IRI)."""

    path: str
    iri: str
    line: int  # 1-based line of the reference
    column: int  # 1-based
    line_text: str
    #: columns (0-based, in ``line_text``) of the reference and the findings
    iri_span: Tuple[int, int]
    marks: List[Tuple[int, int]]
    findings: List[Any]  # irilint.output.Reported
    #: the document writes the reference as it is (no character references
    #: to decode), so escapes in it can be annotated in place
    literal: bool = True

    @property
    def severity(self) -> str:
        return max((r.finding.severity for r in self.findings)).label


@dataclass
class FileReport:
    path: str
    cards: List[Card] = field(default_factory=list)
    counts: Dict[str, int] = field(default_factory=dict)
    error: Optional[str] = None
    skipped: Optional[str] = None

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class RuleTotal:
    code: str
    name: str
    severity: str
    count: int
    summary: str


@dataclass
class ReportData:
    files: List[FileReport]
    files_checked: int
    references: int
    rules: List[RuleTotal]
    lookalikes: List[LookalikeGroup]
    version: str = ""

    @property
    def total(self) -> int:
        return sum(f.total for f in self.files)

    def counts(self) -> Dict[str, int]:
        c = {s: 0 for s in SEVERITIES}
        for f in self.files:
            for k, v in f.counts.items():
                c[k] = c.get(k, 0) + v
        return c

    @property
    def errors(self) -> List[FileReport]:
        return [f for f in self.files if f.error]


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


def _checker_args(paths: Sequence[str], select: Optional[Sequence[str]], ignore: Optional[Sequence[str]],
                  extend_select: Optional[Sequence[str]], config: Optional[str], jobs: int = 0,
                  no_cache: bool = False, follow_symlinks: bool = False) -> argparse.Namespace:
    # The namespace ``irilint check`` would have, without fixing.
    return argparse.Namespace(
        command="report", paths=list(paths), select=list(select) if select else None,
        ignore=list(ignore) if ignore else None,
        extend_select=list(extend_select) if extend_select else None, fail_level=None,
        fix=False, diff=False, unsafe_fixes=False, config=config, stdin_filename=None, quiet=True,
        jobs=jobs, no_cache=no_cache, no_progress=True, statistics=False, format="text",
        follow_symlinks=follow_symlinks)


def check_outcomes(args: argparse.Namespace) -> Tuple[Any, List[Any]]:
    """Check ``args.paths`` exactly as ``irilint check`` does: the same
    discovery, configuration, rule selection, worker processes, cache, and
    look-alike hosts across files.  Returns the checker and the
    :class:`irilint.project.FileResult` of each file, in order."""
    from irilint.project import Project
    from irilint.runner import check_files

    checker = Project(args)
    return checker, check_files(checker, list(args.paths) or ["."])


def collect(paths: Sequence[str] = (".",), *, select: Optional[Sequence[str]] = None,
            ignore: Optional[Sequence[str]] = None, extend_select: Optional[Sequence[str]] = None,
            config: Optional[str] = None, jobs: int = 0, no_cache: bool = False,
            follow_symlinks: bool = False) -> ReportData:
    """Check ``paths`` as ``irilint check`` does (same discovery, config and
    rule selection) and gather what the report shows.  Like ``check``, the
    walk does not follow a symlink out of ``paths`` unless
    ``follow_symlinks`` (such a link is listed as skipped).  Raises
    :class:`irilint.config.ConfigError` on a bad configuration."""
    from irilint import __version__
    from irilint.engine import declaration_syntax
    from irilint.fileio import DocumentError, read_document
    from irilint.lines import LineIndex
    from irilint.rules.registry import all_rules

    args = _checker_args(paths or ["."], select, ignore, extend_select, config, jobs, no_cache, follow_symlinks)
    checker, outcomes = check_outcomes(args)
    files: List[FileReport] = []
    occurrences: List[Occurrence] = []
    checked = 0
    for item in outcomes:
        if item.error or item.skipped:
            files.append(FileReport(item.path, error=item.error, skipped=item.skipped))
            continue
        # The report shows the text around each finding, and every IRI of
        # the tree for the look-alikes: read the file again (the findings
        # come from workers or the cache, which keep no text).
        source = getattr(item, "abspath", None) or item.path
        settings = checker.settings(source)
        try:
            text = read_document(source, max_size=settings.max_file_size,
                                 syntax=declaration_syntax(source, settings)).text
        except (DocumentError, OSError) as exc:
            files.append(FileReport(item.path, error=str(exc)))
            continue
        checked += 1
        index = LineIndex(text)
        occurrences.extend(scan_occurrences(item.path, text, settings, index))
        if item.reported:
            files.append(file_report(item.path, item.reported, index))
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


# ---------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------

def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _chip(text: str, kind: str, title: Optional[str] = None) -> str:
    t = ' title="%s"' % _esc(title) if title else ""
    return '<span class="chip %s"%s>%s</span>' % (kind, t, _esc(text))


def _glyph(ch: str) -> str:
    """A character as it can be shown alone (a combining mark on ◌)."""
    if is_invisible(ch):
        return ""
    if unicodedata.combining(ch):
        return "\u25cc" + ch
    return ch


def text_html(s: str) -> str:
    """Untrusted text (messages, file names): escaped, with invisible
    characters as chips."""
    if s.isascii() and s.isprintable():
        return _esc(s)
    out = []
    for ch in s:
        if is_invisible(ch):
            out.append(_chip(char_label(ch), "inv"))
        else:
            out.append(_esc(ch))
    return "".join(out)


def _word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN"


class _ChipQueue:
    """Chips for confusable characters, each written once, after the word
    that holds it (so the word stays readable)."""

    def __init__(self) -> None:
        self.seen: set = set()
        self.pending: List[str] = []

    def add(self, ch: str) -> None:
        if ch not in self.seen:
            self.seen.add(ch)
            self.pending.append(_chip(chip_label(ch), "conf"))

    def flush(self) -> str:
        out = "".join(self.pending)
        self.pending = []
        return out


def chars_html(s: str, confusables: bool = True, chips: bool = False) -> str:
    """An IRI (or a form of it): escaped; invisible characters as chips;
    confusable characters highlighted (and, if ``chips``, labelled by a
    chip after their word, once each)."""
    out = []
    plain: List[str] = []
    queue = _ChipQueue()
    for ch in s:
        if queue.pending and not _word_char(ch):
            if plain:
                out.append(_esc("".join(plain)))
                plain = []
            out.append(queue.flush())
        if ch.isascii() and not is_invisible(ch):
            plain.append(ch)
            continue
        if plain:
            out.append(_esc("".join(plain)))
            plain = []
        if is_invisible(ch):
            out.append(_chip(char_label(ch), "inv"))
        elif confusables and looks_like(ch) is not None:
            label = chip_label(ch)
            out.append('<span class="conf" title="%s">%s</span>' % (_esc(label), _esc(ch)))
            if chips:
                queue.add(ch)
        else:
            out.append('<span class="na" title="%s">%s</span>' % (_esc(chip_label(ch)), _esc(ch)))
    if plain:
        out.append(_esc("".join(plain)))
    out.append(queue.flush())
    return "".join(out)


def _cap(s: str, n: int = MAX_FORM) -> Tuple[str, bool]:
    return (s, False) if len(s) <= n else (s[:n], True)


def excerpt_parts(s: str, n: int = MAX_FORM) -> List[str]:
    """``[s]``, or when ``s`` is longer than ``n``, pieces of it (its start
    and the part around its first escape or non-ASCII character) with ""
    where text is left out."""
    if len(s) <= n:
        return [s]
    k = next((i for i, c in enumerate(s) if c == "%" or not c.isascii() or is_invisible(c)), 0)
    head = n // 5
    if k <= n - head:
        return [s[:n], ""]
    start = max(head, k - (n - head) // 3)
    end = min(len(s), start + n - head)
    return [s[:head], "", s[start:end]] + ([""] if end < len(s) else [])


def excerpt(s: str, n: int = MAX_FORM) -> str:
    """``s`` cut as :func:`excerpt_parts` does, with "…" for each cut."""
    return "".join(p or "…" for p in excerpt_parts(s, n))


def _excerpt_html(s: str, **kw: Any) -> str:
    return "".join(chars_html(p, **kw) if p else '<span class="cut">…</span>' for p in excerpt_parts(s))


_SOURCE_ESCAPE_RE = re.compile(r"&#[xX]([0-9a-fA-F]{1,6});|&#([0-9]{1,7});|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")


def _source_escapes(card: Card) -> Dict[int, Tuple[int, str, str]]:
    """Character references (``&#x202E;``) and string escapes (``\\u202e``)
    in the source of a reference, that stand for non-ASCII characters."""
    runs: Dict[int, Tuple[int, str, str]] = {}
    i0, i1 = card.iri_span
    for m in _SOURCE_ESCAPE_RE.finditer(card.line_text, i0, i1):
        digits = next(g for g in m.groups() if g is not None)
        cp = int(digits, 10 if m.group(2) else 16)
        if 0x80 <= cp <= 0x10FFFF:
            runs[m.start()] = (m.end(), "pct", chr(cp))
    return runs


def _runs(card: Card) -> Dict[int, Tuple[int, str, str]]:
    """Escapes and ``xn--`` labels of the reference that decode to non-ASCII
    characters, by line column: start -> (end, "pct"|"puny", decoded)."""
    if card.iri and not card.literal:
        return _source_escapes(card)
    if not card.iri or ("%" not in card.iri and "xn--" not in card.iri.lower()):
        return {}
    from irilint.iri import parse
    from irilint.rules.context import PERCENT, PUNYCODE, build_view

    view = build_view(card.iri, parse(card.iri))
    base = card.iri_span[0]
    limit = card.iri_span[1]
    runs: Dict[int, Tuple[int, str, str]] = {}
    for i, ch in enumerate(view.text):
        origin = view.origins[i]
        if origin not in (PERCENT, PUNYCODE):
            continue
        s, e = view.spans[i]
        if base + e > limit:
            continue
        kind = "pct" if origin == PERCENT else "puny"
        prev = runs.get(base + s)
        if prev is None:
            runs[base + s] = (base + e, kind, ch)
        else:
            runs[base + s] = (prev[0], kind, prev[2] + ch)
    return runs


def _decoded_chips(kind: str, decoded: str) -> str:
    if kind == "pct":
        out = []
        for ch in decoded:
            if is_invisible(ch) or looks_like(ch) is not None:
                out.append(_chip("= " + (_glyph(ch) + " " if _glyph(ch) else "") + chip_label(ch), "dec"))
            else:
                out.append(_chip("= " + _glyph(ch), "dec", chip_label(ch)))
        return "".join(out)
    # an xn-- label: its Unicode form, then the characters to look at
    out = ['<span class="chip dec">= %s</span>' % chars_html(decoded)]
    seen = set()
    for ch in decoded:
        if ch in seen or ch.isascii() and not is_invisible(ch):
            continue
        seen.add(ch)
        if is_invisible(ch):
            out.append(_chip(char_label(ch), "inv"))
        elif looks_like(ch) is not None:
            out.append(_chip(chip_label(ch), "conf"))
    return "".join(out)


def line_html(card: Card) -> str:
    """The card's line in logical order, cut around the reference, with
    the reference and the findings marked and every hidden character made
    visible."""
    text = card.line_text
    n = len(text)
    i0, i1 = card.iri_span
    ms = min([s for s, _ in card.marks] + ([i0] if i1 - i0 <= MAX_IRI_SHOWN else []))
    me = max([e for _, e in card.marks] + ([i1] if i1 - i0 <= MAX_IRI_SHOWN else []))
    w0 = max(0, ms - CONTEXT)
    w1 = min(n, max(me, ms) + CONTEXT)
    if w1 - w0 > MAX_IRI_SHOWN + 2 * CONTEXT:
        w1 = w0 + MAX_IRI_SHOWN + 2 * CONTEXT
    runs = _runs(card)
    zero = sorted({s for s, e in card.marks if s == e})
    pieces: List[Tuple[Tuple[bool, bool], str]] = []

    def in_mark(a: int, b: int) -> bool:
        return any(s < b and a < e for s, e in card.marks if s < e)

    j = w0
    # do not start inside an escape or label
    for rs, (re_, _, _) in runs.items():
        if rs < j < re_:
            j = rs
    queue = _ChipQueue()
    while j < w1:
        run = runs.get(j)
        if queue.pending and (run is not None or j in zero or not _word_char(text[j])):
            pieces.append((pieces[-1][0], queue.flush()))
        if j in zero:
            pieces.append(((True, True), '<span class="caret" title="here">\u2038</span>'))
        in_iri = i0 <= j < i1
        if run is not None:
            end, kind, decoded = run
            frag = '<span class="esc">%s</span>%s' % (_esc(text[j:end]), _decoded_chips(kind, decoded))
            pieces.append(((in_iri, in_mark(j, end)), frag))
            j = end
            continue
        ch = text[j]
        if ch == "\t" and not in_iri:
            frag = "\t"
        elif is_invisible(ch):
            frag = _chip(char_label(ch), "inv")
        elif ch.isascii():
            frag = _esc(ch)
        elif in_iri and looks_like(ch) is not None:
            frag = '<span class="conf" title="%s">%s</span>' % (_esc(chip_label(ch)), _esc(ch))
            queue.add(ch)
        else:
            frag = '<span class="na" title="%s">%s</span>' % (_esc(chip_label(ch)), _esc(ch))
        pieces.append(((in_iri, in_mark(j, j + 1)), frag))
        j += 1
    if queue.pending:
        pieces.append((pieces[-1][0], queue.flush()))
    if w1 in zero:
        pieces.append(((True, True), '<span class="caret" title="here">\u2038</span>'))
    out = []
    if w0 > 0:
        out.append('<span class="cut">…</span>')
    k = 0
    while k < len(pieces):
        cls, _ = pieces[k]
        group = []
        while k < len(pieces) and pieces[k][0] == cls:
            group.append(pieces[k][1])
            k += 1
        names = " ".join(nm for nm, on in (("iri", cls[0]), ("hit", cls[1])) if on)
        out.append('<span class="%s">%s</span>' % (names, "".join(group)) if names else "".join(group))
    if w1 < n:
        out.append('<span class="cut">…</span>')
    return "".join(out)


def _form_html(s: str) -> str:
    note = ' <span class="cut">(%d characters)</span>' % len(s) if len(s) > MAX_FORM else ""
    return ('<div class="mono box"><bdo dir="ltr" class="override">%s</bdo>%s</div>'
            % (_excerpt_html(s), note))


def _visual_html(s: str) -> str:
    shown, cut = _cap(visual_order(s))
    # python-bidi has already reordered the text: the browser must show it
    # as it is, so it is isolated and its direction overridden.
    return ('<div class="mono box visual" dir="ltr"><bdo dir="ltr" class="override">%s</bdo>%s</div>'
            % (chars_html(shown, confusables=False), '<span class="cut">…</span>' if cut else ""))


def _chars_table_html(value: str) -> str:
    infos = characters(value)
    if not infos:
        return ""
    rows = []
    for info in infos[:MAX_CHAR_ROWS]:
        glyph = _glyph(info.char)
        shown = ('<span class="glyph">%s</span>' % _esc(glyph)) if glyph else _chip("invisible", "inv")
        written = ", ".join(
            "literal" if w == "literal" else "<code>%s</code>" % _esc(w) for w in info.written_as)
        like = ""
        if info.looks_like is not None:
            like = "<code>%s</code>" % chars_html(info.looks_like, confusables=False)
        rows.append(
            '<tr%s><td class="mono">U+%04X</td><td class="c">%s</td><td>%s</td><td>%s</td>'
            '<td class="mono">%s</td><td>%s</td><td>%s</td></tr>' % (
                ' class="flag"' if info.invisible or info.looks_like else "", ord(info.char), shown,
                _esc(info.label.split(" ", 1)[1]), _esc(info.scripts), _esc(info.bidi_class), written, like))
    more = ""
    if len(infos) > MAX_CHAR_ROWS:
        more = '<p class="muted">… and %d more characters</p>' % (len(infos) - MAX_CHAR_ROWS)
    return ('<table class="chars"><thead><tr><th>Code point</th><th>Char</th><th>Name</th>'
            '<th>Script</th><th>Bidi</th><th>Written as</th><th>Looks like</th></tr></thead>'
            '<tbody>%s</tbody></table>%s' % ("".join(rows), more))


def _sev(label: str) -> str:
    return '<span class="sev sev-%s">%s</span>' % (label, label)


def card_html(card: Card) -> str:
    from irilint.convert import to_iri, to_uri

    items = []
    for r in card.findings:
        items.append('<li>%s <code class="code">%s</code> <span class="rule">%s</span> '
                     '<span class="pos">%d:%d</span> <span class="msg">%s</span></li>' % (
                         _sev(r.finding.severity.label), _esc(r.rule.code), _esc(r.rule.name),
                         r.line, r.column, text_html(r.finding.message)))
    note = '<br><span class="muted">logical order</span>' if is_bidi(card.line_text) else ""
    rows = ['<dt>Line %d%s</dt><dd><div class="mono box src"><bdo dir="ltr" class="override">%s</bdo></div></dd>'
            % (card.line, note, line_html(card))]
    if card.iri:
        value = card.iri
        try:
            uri, iri = to_uri(value), to_iri(value)
        except Exception:  # pragma: no cover - the conversions never raise
            uri = iri = value
        rows.append("<dt>URI form</dt><dd>%s</dd>" % _form_html(uri))
        if iri == uri:
            rows.append('<dt>IRI form</dt><dd class="muted">the same as the URI form</dd>')
        else:
            rows.append("<dt>IRI form</dt><dd>%s</dd>" % _form_html(iri))
        shown = []
        for label, s in (("as written", value), ("IRI form", iri)):
            if is_bidi(s) and s not in [x for _, x in shown]:
                shown.append((label, s))
        for label, s in shown:
            rows.append('<dt>Visual order<br><span class="muted">%s, left to right</span></dt><dd>%s</dd>'
                        % (label, _visual_html(s)))
        table = _chars_table_html(value)
        if table:
            rows.append("<dt>Characters</dt><dd>%s</dd>" % table)
    return ('<article class="card %s"><ul class="findings">%s</ul><dl class="rows">%s</dl></article>'
            % (card.severity, "".join(items), "".join(rows)))


def _lookalikes_html(groups: Sequence[LookalikeGroup]) -> str:
    if not groups:
        return '<p class="muted">No two different hosts or IRIs look alike.</p>'
    out = []
    for g in groups[:MAX_LOOKALIKE_GROUPS]:
        items = []
        for text, occs in g.variants:
            where = ", ".join("%s:%d:%d" % (text_html(o.path), o.line, o.column) for o in occs[:MAX_OCCURRENCES])
            if len(occs) > MAX_OCCURRENCES:
                where += " and %d more" % (len(occs) - MAX_OCCURRENCES)
            items.append('<li><div class="mono box"><bdo dir="ltr" class="override">%s</bdo></div>'
                         '<span class="where">%s</span></li>' % (_excerpt_html(text, chips=True), where))
        out.append('<div class="group"><h4>%s look alike</h4><ul>%s</ul></div>' % (
            "%d hosts" % len(g.variants) if g.kind == "host" else "%d IRIs" % len(g.variants), "".join(items)))
    if len(groups) > MAX_LOOKALIKE_GROUPS:
        out.append('<p class="muted">… and %d more groups</p>' % (len(groups) - MAX_LOOKALIKE_GROUPS))
    return "".join(out)


_CSS = """
:root{--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--panel:#f6f8fa;--err:#cf222e;--warn:#9a6700;--info:#0969da;--hint:#6e7781}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:#fff;font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans","DejaVu Sans","Liberation Sans",sans-serif}
.mono,code{font-family:ui-monospace,SFMono-Regular,"DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,monospace;font-size:13px}
header.top{background:#24292f;color:#fff;padding:18px 32px}
header.top h1{margin:0;font-size:22px}
header.top p{margin:4px 0 0;color:#d1d9e0}
nav{padding:8px 32px;border-bottom:1px solid var(--border);background:var(--panel)}
nav a{margin-right:16px;color:var(--info);text-decoration:none}
main{padding:4px 32px 32px;max-width:1280px}
h2{font-size:18px;border-bottom:1px solid var(--border);padding-bottom:4px;margin:28px 0 8px}
h3{font-size:15px;margin:22px 0 6px}
h4{font-size:14px;margin:0 0 6px}
table{border-collapse:collapse;margin:6px 0}
th,td{border:1px solid var(--border);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}
.sev{display:inline-block;min-width:58px;text-align:center;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;line-height:18px}
.sev-error{background:var(--err)}.sev-warning{background:var(--warn)}.sev-info{background:var(--info)}.sev-hint{background:var(--hint)}
.card{border:1px solid var(--border);border-left:4px solid var(--hint);border-radius:6px;margin:10px 0;padding:8px 14px}
.card.error{border-left-color:var(--err)}.card.warning{border-left-color:var(--warn)}.card.info{border-left-color:var(--info)}
.findings{list-style:none;margin:0 0 6px;padding:0}
.findings li{margin:3px 0}
.code{font-weight:600}
.rule{color:var(--muted)}
.pos{color:var(--muted);font-size:12px}
dl.rows{display:grid;grid-template-columns:130px minmax(0,1fr);gap:4px 12px;margin:4px 0}
dl.rows dt{color:var(--muted);font-size:12px;padding-top:4px}
dl.rows dd{margin:0;min-width:0}
.box{background:var(--panel);border:1px solid var(--border);border-radius:4px;padding:3px 8px;white-space:pre-wrap;overflow-wrap:anywhere;direction:ltr;unicode-bidi:isolate;text-align:left}
bdo.override{direction:ltr;unicode-bidi:bidi-override}
.visual{background:#fff8f0;border-color:#f0c8a0}
.iri{background:#ddf4ff}
.hit{background:#ffebe9;text-decoration:underline wavy var(--err);text-decoration-skip-ink:none}
.caret{color:var(--err);font-weight:700}
.chip{display:inline-block;direction:ltr;unicode-bidi:isolate;white-space:nowrap;font:600 11px/16px system-ui,"DejaVu Sans",sans-serif;padding:0 5px;margin:0 2px;border:1px solid;border-radius:4px;vertical-align:1px;text-decoration:none}
.chip.inv{background:#ffebe9;color:#82071e;border-color:#ff8182}
.chip.conf{background:#fff8c5;color:#6f4d00;border-color:#d4a72c}
.chip.dec{background:#fbefff;color:#6e40c9;border-color:#d8b9ff}
.conf{background:#fff8c5;outline:1px dashed #bf8700}
.na{background:#eef1f4}
.esc{text-decoration:underline dotted #6e40c9}
.cut{color:var(--muted)}
table.chars td.c{font-size:16px;text-align:center}
table.chars tr.flag td{background:#fff8f5}
.group{border:1px solid var(--border);border-radius:6px;padding:8px 14px;margin:8px 0}
.group ul{margin:0;padding-left:18px}
.group li{margin:4px 0}
.where{color:var(--muted);font-size:12px}
footer{color:var(--muted);font-size:12px;padding:16px 32px;border-top:1px solid var(--border)}
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def _summary_html(s: str) -> str:
    """A rule summary: ``literal`` (reST) or `literal` as code."""
    return re.sub(r"``(.+?)``|`([^`]+)`", lambda m: "<code>%s</code>" % (m.group(1) or m.group(2)), _esc(s))


def _plural(n: int, word: str, plural: Optional[str] = None) -> str:
    return "%d %s" % (n, word if n == 1 else (plural or word + "s"))


def _counts_phrase(counts: Dict[str, int]) -> str:
    parts = []
    for sev, word, pl in (("error", "error", "errors"), ("warning", "warning", "warnings"),
                          ("info", "info", "info"), ("hint", "hint", "hints")):
        n = counts.get(sev, 0)
        if n:
            parts.append(_plural(n, word, pl))
    return ", ".join(parts)


def render_html(data: ReportData, title: str = "irilint review report", max_cards: int = MAX_HTML_CARDS) -> str:
    """The report as one self-contained HTML page; at most ``max_cards``
    IRIs are shown in detail (the totals count every finding)."""
    from irilint.output import DOCS_URL

    counts = data.counts()
    with_findings = [f for f in data.files if f.total]
    summary = "%s in %d of %s checked · %s scanned" % (
        _plural(data.total, "finding"), len(with_findings),
        _plural(data.files_checked, "file"), _plural(data.references, "IRI reference"))
    if data.total:
        summary += " · " + _counts_phrase(counts)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en" dir="ltr"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="%s">' % _CSP,
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>%s</title><style>%s</style></head><body>" % (_esc(title), _CSS),
        '<header class="top"><h1>%s</h1><p>%s</p></header>' % (_esc(title), _esc(summary)),
        '<nav><a href="#rules">By rule</a><a href="#files">By file</a>'
        '<a href="#lookalikes">Look-alikes</a><a href="#findings">Findings</a></nav><main>',
    ]
    # totals by rule
    parts.append('<h2 id="rules">Findings by rule</h2>')
    if data.rules:
        rows = "".join(
            '<tr><td><code class="code">%s</code></td><td>%s</td><td>%s</td><td class="num">%d</td>'
            '<td>%s</td></tr>' % (_esc(t.code), _esc(t.name), _sev(t.severity), t.count, _summary_html(t.summary))
            for t in data.rules)
        parts.append('<table class="totals"><thead><tr><th>Code</th><th>Rule</th><th>Severity</th>'
                     '<th class="num">Count</th><th>Summary</th></tr></thead><tbody>%s</tbody></table>' % rows)
    else:
        parts.append('<p class="muted">No findings.</p>')
    # totals by file
    parts.append('<h2 id="files">Findings by file</h2>')
    if data.files:
        rows = []
        for k, f in enumerate(data.files):
            if f.error or f.skipped:
                rows.append('<tr><td class="mono">%s</td><td colspan="5">%s</td></tr>' % (
                    text_html(f.path), text_html(("error: " + f.error) if f.error else "skipped: %s" % f.skipped)))
                continue
            cells = "".join('<td class="num">%s</td>' % (f.counts.get(s, 0) or "") for s in SEVERITIES)
            rows.append('<tr><td class="mono"><a href="#file-%d">%s</a></td>%s<td class="num">%d</td></tr>'
                        % (k, text_html(f.path), cells, f.total))
        parts.append('<table class="totals"><thead><tr><th>File</th><th class="num">Errors</th>'
                     '<th class="num">Warnings</th><th class="num">Info</th><th class="num">Hints</th>'
                     '<th class="num">Total</th></tr></thead><tbody>%s</tbody></table>' % "".join(rows))
    else:
        parts.append('<p class="muted">No findings.</p>')
    # look-alikes
    parts.append('<h2 id="lookalikes">Hosts and IRIs that look alike</h2>'
                 '<p class="muted">Different hosts, or IRIs, whose confusable skeletons (UTS #39) are '
                 'equal, across all the files checked.</p>')
    parts.append(_lookalikes_html(data.lookalikes))
    # findings
    parts.append('<h2 id="findings">Findings</h2>')
    if not with_findings:
        parts.append('<p class="muted">No findings.</p>')
    budget = max_cards
    for k, f in enumerate(data.files):
        if not f.total:
            continue
        parts.append('<section class="file" id="file-%d"><h3 class="mono">%s <span class="muted">· %s</span></h3>'
                     % (k, text_html(f.path), _esc(_plural(f.total, "finding"))))
        shown = f.cards[:max(budget, 0)]
        budget -= len(shown)
        parts.extend(card_html(c) for c in shown)
        if len(shown) < len(f.cards):
            left = sum(len(c.findings) for c in f.cards[len(shown):])
            parts.append('<p class="muted cutnote">… %d more %s in this file not shown: the report shows '
                         'the first %d IRIs with findings in detail (<code>irilint check</code> lists all).</p>'
                         % (left, "finding" if left == 1 else "findings", max_cards))
        parts.append("</section>")
    parts.append("</main><footer>Generated by irilint %s. The IRIs are shown as text, never as links. "
                 "Rule documentation: <span class=\"mono\">%s</span></footer></body></html>\n"
                 % (_esc(data.version), _esc(DOCS_URL)))
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# Markdown (GitHub-flavoured, for a pull-request comment)
# ---------------------------------------------------------------------------

_MD_SPECIAL = set("\\`*_[]|~<>&#!:@")
_MD_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", ":": "&#58;", "@": "&#64;"}


def md_text(s: str) -> str:
    """Untrusted text as GitHub Markdown text: invisible characters as
    ``<U+XXXX>``, HTML and Markdown syntax escaped, no autolinks."""
    s = visible_text(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    out = []
    for ch in s:
        if ch in _MD_ENTITIES:
            out.append(_MD_ENTITIES[ch])
        elif ch in _MD_SPECIAL:
            out.append("\\" + ch)
        else:
            out.append(ch)
    # "www." starts an autolink in GitHub Markdown
    return "".join(out).replace("www.", "www&#46;").replace("WWW.", "WWW&#46;")


def md_code(s: str, cell: bool = False) -> str:
    """A code span holding ``s`` with invisible characters as ``<U+XXXX>``
    (inside a table ``cell``, "|" is escaped as GitHub needs)."""
    s = visible_text(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    if cell:
        s = s.replace("|", "\\|")
    longest = run = 0
    for c in s:
        run = run + 1 if c == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip(" ") else ""
    return "%s%s%s%s%s" % (fence, pad, s, pad, fence)


def _md_iri(s: str) -> str:
    code = md_code(excerpt(s, 200))
    # In logical order, so a bidi IRI reads as the document writes it.
    return '<bdo dir="ltr">%s</bdo>' % code if is_bidi(s) else code


def _md_char_notes(value: str) -> str:
    notes = []
    for info in characters(value):
        if not (info.invisible or info.looks_like is not None or info.written_as != ["literal"]):
            continue
        label = chip_label(info.char)
        how = [w for w in info.written_as if w != "literal"]
        note = md_code(label)
        if how:
            note += " (as %s)" % ", ".join(md_code(w) for w in how[:3])
        notes.append(note)
        if len(notes) >= 12:
            notes.append("…")
            break
    return ", ".join(notes)


def _md_card(card: Card) -> List[str]:
    from irilint.convert import to_iri, to_uri

    lines = []
    head = "**Line %d**" % card.line
    if card.iri:
        head += " · " + _md_iri(card.iri)
    lines.append(head)
    lines.append("")
    for r in card.findings:
        lines.append("- **%s** %s %s %d:%d — %s" % (
            r.finding.severity.label, md_code(r.rule.code), md_code(r.rule.name), r.line, r.column,
            md_text(r.finding.message)))
    if card.iri:
        value = card.iri
        notes = _md_char_notes(value)
        if notes:
            lines.append("- Characters: " + notes)
        uri, iri = to_uri(value), to_iri(value)
        lines.append("- URI form: %s" % _md_iri(uri))
        if iri != uri:
            lines.append("- IRI form: %s" % _md_iri(iri))
        for label, s in (("as written", value), ("IRI form", iri)):
            if is_bidi(s) and (label == "as written" or s != value):
                shown = _cap(visual_order(s), 200)[0]
                lines.append("- Visual order (%s, left to right): <bdo dir=\"ltr\">%s</bdo>" % (label, md_code(shown)))
    lines.append("")
    return lines


def _md_summary(data: ReportData) -> List[str]:
    with_findings = [f for f in data.files if f.total]
    out = ["## irilint review report", ""]
    line = "**%s** in %d of %s checked; %s scanned." % (
        _plural(data.total, "finding"), len(with_findings),
        _plural(data.files_checked, "file"), _plural(data.references, "IRI reference"))
    if data.total:
        line += " (%s)" % _counts_phrase(data.counts())
    out += [line, ""]
    if data.rules:
        out += ["| Code | Rule | Severity | Count |", "| --- | --- | --- | ---: |"]
        out += ["| %s | %s | %s | %d |" % (md_code(t.code, True), md_code(t.name, True), t.severity, t.count)
                for t in data.rules]
        out.append("")
    if data.files:
        out += ["| File | Errors | Warnings | Info | Hints | Total |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for f in data.files[:MAX_MARKDOWN_FILE_ROWS]:
            if f.error or f.skipped:
                out.append("| %s | %s |||||" % (md_code(f.path, True), md_text(
                    ("error: " + f.error) if f.error else "skipped: %s" % f.skipped)))
            else:
                out.append("| %s | %s | %d |" % (md_code(f.path, True), " | ".join(
                    str(f.counts.get(s, 0) or "") for s in SEVERITIES), f.total))
        if len(data.files) > MAX_MARKDOWN_FILE_ROWS:
            out.append("")
            out.append("… and %d more files." % (len(data.files) - MAX_MARKDOWN_FILE_ROWS))
        out.append("")
    if data.lookalikes:
        out += ["### Hosts and IRIs that look alike", ""]
        for g in data.lookalikes[:MAX_MARKDOWN_LOOKALIKES]:
            variants = []
            for text, occs in g.variants[:6]:
                where = ", ".join(md_code("%s:%d:%d" % (o.path, o.line, o.column)) for o in occs[:3])
                if len(occs) > 3:
                    where += " and %d more" % (len(occs) - 3)
                chars = [md_code(chip_label(c)) for c in dict.fromkeys(text)
                         if is_invisible(c) or looks_like(c) is not None][:4]
                variants.append("%s (%s)%s" % (_md_iri(text), where, (" — " + ", ".join(chars)) if chars else ""))
            out.append("- **%s:** %s" % ("Hosts" if g.kind == "host" else "IRIs", " ≈ ".join(variants)))
        if len(data.lookalikes) > MAX_MARKDOWN_LOOKALIKES:
            out.append("- … and %d more groups" % (len(data.lookalikes) - MAX_MARKDOWN_LOOKALIKES))
        out.append("")
    return out


def render_markdown(data: ReportData, limit: int = MARKDOWN_LIMIT) -> str:
    """The report as GitHub-flavoured Markdown, at most ``limit``
    characters: files whose details do not fit are left out, with a note."""
    head = "\n".join(_md_summary(data)) + "\n"
    note_room = 400
    budget = limit - note_room
    if len(head) > budget:
        head = head[:budget].rsplit("\n", 1)[0] + "\n"
    body: List[str] = []
    used = len(head)
    shown = 0
    truncated = False
    for f in data.files:
        if not f.total:
            continue
        if truncated:
            break
        opening = "<details>\n<summary><code>%s</code> — %s (%s)</summary>\n\n" % (
            _esc(visible_text(f.path)), _plural(f.total, "finding"), _counts_phrase(f.counts))
        closing = "</details>\n\n"
        if used + len(opening) + len(closing) > budget:
            truncated = True
            break
        block = [opening]
        size = len(opening) + len(closing)
        for c in f.cards:
            text = "\n".join(_md_card(c)) + "\n"
            if used + size + len(text) > budget:
                truncated = True
                break
            block.append(text)
            size += len(text)
            shown += len(c.findings)
        block.append(closing)
        body.append("".join(block))
        used += size
    out = head + "".join(body)
    if truncated:
        out += ("> **Note:** this report was cut to fit a comment (%s characters): %s are not shown. "
                "The HTML report (`irilint report --format html`) has them all.\n"
                % (format(limit, ","), _plural(data.total - shown, "finding")))
    return out


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _format_for(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    out = getattr(args, "output", None) or ""
    return "markdown" if out.lower().endswith((".md", ".markdown")) else "html"


def _write(path: Optional[str], text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    if not path or path == "-":
        buf = getattr(sys.stdout, "buffer", None)
        if buf is not None:
            sys.stdout.flush()
            buf.write(data)
            buf.flush()
        else:  # pragma: no cover - a replaced sys.stdout
            sys.stdout.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".irilint-report-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # mkstemp makes the file private; a report is an ordinary file
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def run(args: argparse.Namespace) -> int:
    from irilint import config

    paths = list(args.paths) or ["."]
    if "-" in paths:
        print("irilint: error: report reads files and directories, not stdin", file=sys.stderr)
        return 2
    try:
        data = collect(paths, select=args.select, ignore=args.ignore,
                       extend_select=getattr(args, "extend_select", None), config=args.config,
                       jobs=getattr(args, "jobs", 0), no_cache=getattr(args, "no_cache", False),
                       follow_symlinks=getattr(args, "follow_symlinks", False))
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except OSError as exc:
        print("irilint: error: %s: %s" % (getattr(exc, "filename", None) or args.config,
                                          exc.strerror or exc), file=sys.stderr)
        return 2
    fmt = _format_for(args)
    text = render_markdown(data) if fmt == "markdown" else render_html(data)
    try:
        _write(args.output, text)
    except OSError as exc:
        print("irilint: error: cannot write %s: %s" % (args.output, exc.strerror or exc), file=sys.stderr)
        return 2
    for f in data.files:
        if f.error:
            print("irilint: error: %s" % f.error, file=sys.stderr)
        elif f.skipped:
            print("irilint: skipped %s" % f.skipped, file=sys.stderr)
    if args.output and args.output != "-":
        print("irilint: wrote %s (%s, %s)" % (args.output, fmt, _plural(data.total, "finding")), file=sys.stderr)
    return 2 if data.errors else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``irilint report`` on its own (the same options as the subcommand)."""
    parser = argparse.ArgumentParser(prog="irilint report", description="Write a review report of the IRIs "
                                     "in files or directories (HTML or Markdown).")
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
