"""The review report as one self-contained HTML page.

The page is made from the templates in ``templates/`` by Jinja2 with
autoescape on: every string taken from the documents (IRIs, lines,
messages, file names) reaches the page only as a template value, so it is
escaped by Jinja2, never by hand.  This module only decides *what* is shown:
it cuts the text into :class:`Piece` s (plain text, or a ``<span>`` /
``<code>`` with a class and a title), which the template writes.

Inline CSS only: no script, no font, no image, no link that loads anything,
and a Content-Security-Policy that forbids all of them, so the page works
offline and a hostile document cannot make it do anything.  The IRIs under
review are shown as text, never as links; invisible characters are chips.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from irilint.anatomy import char_label, chip_label, glyph, is_bidi, is_invisible, looks_like, visual_order
from irilint.unicode_security import general_category

from .collect import characters
from .model import SEVERITIES, Card, LookalikeGroup, ReportData, counts_phrase, plural

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


@dataclass
class Piece:
    """A piece of shown text: plain (``tag`` None) or an element holding
    ``text`` then ``children``.  ``tag``, ``cls`` are this module's
    constants; ``text`` and ``title`` may come from the documents."""

    text: str = ""
    tag: Optional[str] = None
    cls: str = ""
    title: str = ""
    children: Sequence["Piece"] = ()


def _span(cls: str, text: str = "", title: str = "", children: Sequence[Piece] = ()) -> Piece:
    return Piece(text, "span", cls, title, children)


def _chip(text: str, kind: str, title: str = "") -> Piece:
    return _span("chip " + kind, text, title)


def text_pieces(s: str) -> List[Piece]:
    """Untrusted text (messages, file names), with invisible characters as
    chips."""
    if s.isascii() and s.isprintable():
        return [Piece(s)]
    out: List[Piece] = []
    plain: List[str] = []
    for ch in s:
        if is_invisible(ch):
            if plain:
                out.append(Piece("".join(plain)))
                plain = []
            out.append(_chip(char_label(ch), "inv"))
        else:
            plain.append(ch)
    if plain:
        out.append(Piece("".join(plain)))
    return out


def _word_char(ch: str) -> bool:
    return general_category(ch)[0] in "LMN"


class _ChipQueue:
    """Chips for confusable characters, each written once, after the word
    that holds it (so the word stays readable)."""

    def __init__(self) -> None:
        self.seen: set = set()
        self.pending: List[Piece] = []

    def add(self, ch: str) -> None:
        if ch not in self.seen:
            self.seen.add(ch)
            self.pending.append(_chip(chip_label(ch), "conf"))

    def flush(self) -> List[Piece]:
        out = self.pending
        self.pending = []
        return out


def chars_pieces(s: str, confusables: bool = True, chips: bool = False) -> List[Piece]:
    """An IRI (or a form of it): invisible characters as chips; confusable
    characters highlighted (and, if ``chips``, labelled by a chip after
    their word, once each)."""
    out: List[Piece] = []
    plain: List[str] = []
    queue = _ChipQueue()
    for ch in s:
        if queue.pending and not _word_char(ch):
            if plain:
                out.append(Piece("".join(plain)))
                plain = []
            out.extend(queue.flush())
        if ch.isascii() and not is_invisible(ch):
            plain.append(ch)
            continue
        if plain:
            out.append(Piece("".join(plain)))
            plain = []
        if is_invisible(ch):
            out.append(_chip(char_label(ch), "inv"))
        elif confusables and looks_like(ch) is not None:
            out.append(_span("conf", ch, chip_label(ch)))
            if chips:
                queue.add(ch)
        else:
            out.append(_span("na", ch, chip_label(ch)))
    if plain:
        out.append(Piece("".join(plain)))
    out.extend(queue.flush())
    return out


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


def _excerpt_pieces(s: str, **kw: Any) -> List[Piece]:
    out: List[Piece] = []
    for p in excerpt_parts(s):
        if p:
            out.extend(chars_pieces(p, **kw))
        else:
            out.append(_span("cut", "…"))
    return out


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


def _decoded_chips(kind: str, decoded: str) -> List[Piece]:
    if kind == "pct":
        out = []
        for ch in decoded:
            g = glyph(ch)
            if is_invisible(ch) or looks_like(ch) is not None:
                out.append(_chip("= " + (g + " " if g else "") + chip_label(ch), "dec"))
            else:
                out.append(_chip("= " + g, "dec", chip_label(ch)))
        return out
    # an xn-- label: its Unicode form, then the characters to look at
    out = [_span("chip dec", "= ", children=chars_pieces(decoded))]
    seen = set()
    for ch in decoded:
        if ch in seen or ch.isascii() and not is_invisible(ch):
            continue
        seen.add(ch)
        if is_invisible(ch):
            out.append(_chip(char_label(ch), "inv"))
        elif looks_like(ch) is not None:
            out.append(_chip(chip_label(ch), "conf"))
    return out


def line_pieces(card: Card) -> List[Piece]:
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
    pieces: List[Tuple[Tuple[bool, bool], List[Piece]]] = []
    caret = _span("caret", "\u2038", "here")

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
            pieces.append(((True, True), [caret]))
        in_iri = i0 <= j < i1
        if run is not None:
            end, kind, decoded = run
            frag = [_span("esc", text[j:end])] + _decoded_chips(kind, decoded)
            pieces.append(((in_iri, in_mark(j, end)), frag))
            j = end
            continue
        ch = text[j]
        if ch == "\t" and not in_iri:
            frag = [Piece("\t")]
        elif is_invisible(ch):
            frag = [_chip(char_label(ch), "inv")]
        elif ch.isascii():
            frag = [Piece(ch)]
        elif in_iri and looks_like(ch) is not None:
            frag = [_span("conf", ch, chip_label(ch))]
            queue.add(ch)
        else:
            frag = [_span("na", ch, chip_label(ch))]
        pieces.append(((in_iri, in_mark(j, j + 1)), frag))
        j += 1
    if queue.pending:
        pieces.append((pieces[-1][0], queue.flush()))
    if w1 in zero:
        pieces.append(((True, True), [caret]))
    out: List[Piece] = []
    if w0 > 0:
        out.append(_span("cut", "…"))
    k = 0
    while k < len(pieces):
        cls, _ = pieces[k]
        group: List[Piece] = []
        while k < len(pieces) and pieces[k][0] == cls:
            group.extend(pieces[k][1])
            k += 1
        group = _merge_plain(group)
        names = " ".join(nm for nm, on in (("iri", cls[0]), ("hit", cls[1])) if on)
        if names:
            out.append(_span(names, children=group))
        else:
            out.extend(group)
    if w1 < n:
        out.append(_span("cut", "…"))
    return out


def _merge_plain(pieces: List[Piece]) -> List[Piece]:
    # One plain piece per run of plain characters: fewer pieces to write.
    out: List[Piece] = []
    for p in pieces:
        if p.tag is None and out and out[-1].tag is None:
            out[-1] = Piece(out[-1].text + p.text)
        else:
            out.append(p)
    return out


@dataclass
class Form:
    """A form of the IRI (URI form, IRI form, visual order) as shown."""

    label: str
    note: str
    pieces: List[Piece]
    visual: bool = False
    #: characters, when the form is longer than shown
    length: int = 0
    cut: bool = False


@dataclass
class CharRow:
    code_point: str
    glyph: str
    name: str
    scripts: str
    bidi_class: str
    written_as: List[str]
    looks_like: List[Piece]
    flagged: bool


@dataclass
class CardView:
    severity: str
    findings: List[Dict[str, Any]]
    line: int
    bidi_line: bool
    line_pieces: List[Piece]
    has_iri: bool
    uri: Optional[Form] = None
    iri: Optional[Form] = None
    visual: Sequence[Form] = ()
    chars: Sequence[CharRow] = ()
    more_chars: int = 0


def _form(s: str) -> Form:
    return Form("", "", _excerpt_pieces(s), length=len(s) if len(s) > MAX_FORM else 0)


def _visual_form(label: str, s: str) -> Form:
    shown, cut = _cap(visual_order(s))
    # python-bidi has already reordered the text: the template shows it as it
    # is (isolated, its direction overridden).
    return Form("Visual order", label, chars_pieces(shown, confusables=False), visual=True, cut=cut)


def card_view(card: Card) -> CardView:
    from irilint.convert import to_iri, to_uri

    findings = [{"severity": r.finding.severity.label, "code": r.rule.code, "name": r.rule.name,
                 "line": r.line, "column": r.column, "message": text_pieces(r.finding.message)}
                for r in card.findings]
    view = CardView(card.severity, findings, card.line, is_bidi(card.line_text), line_pieces(card), bool(card.iri))
    if not card.iri:
        return view
    value = card.iri
    try:
        uri, iri = to_uri(value), to_iri(value)
    except Exception:  # pragma: no cover - the conversions never raise
        uri = iri = value
    view.uri = _form(uri)
    view.iri = None if iri == uri else _form(iri)
    shown: List[Tuple[str, str]] = []
    for label, s in (("as written", value), ("IRI form", iri)):
        if is_bidi(s) and s not in [x for _, x in shown]:
            shown.append((label, s))
    view.visual = [_visual_form(label, s) for label, s in shown]
    infos = characters(value)
    view.chars = [CharRow("U+%04X" % ord(i.char), glyph(i.char), i.name, i.scripts, i.bidi_class,
                          i.written_as,
                          chars_pieces(i.looks_like, confusables=False) if i.looks_like is not None else [],
                          bool(i.invisible or i.looks_like))
                  for i in infos[:MAX_CHAR_ROWS]]
    view.more_chars = max(0, len(infos) - MAX_CHAR_ROWS)
    return view


def summary_pieces(s: str) -> List[Piece]:
    """A rule summary: ``literal`` (reST) or `literal` as code."""
    out: List[Piece] = []
    pos = 0
    for m in re.finditer(r"``(.+?)``|`([^`]+)`", s):
        if m.start() > pos:
            out.extend(text_pieces(s[pos:m.start()]))
        out.append(Piece("", "code", children=text_pieces(m.group(1) or m.group(2))))
        pos = m.end()
    if pos < len(s):
        out.extend(text_pieces(s[pos:]))
    return out


def _lookalike_views(groups: Sequence[LookalikeGroup]) -> List[Dict[str, Any]]:
    out = []
    for g in groups[:MAX_LOOKALIKE_GROUPS]:
        items = []
        for text, occs in g.variants:
            where: List[Piece] = []
            for k, o in enumerate(occs[:MAX_OCCURRENCES]):
                if k:
                    where.append(Piece(", "))
                where.extend(text_pieces(o.path))
                where.append(Piece(":%d:%d" % (o.line, o.column)))
            if len(occs) > MAX_OCCURRENCES:
                where.append(Piece(" and %d more" % (len(occs) - MAX_OCCURRENCES)))
            items.append({"pieces": _excerpt_pieces(text, chips=True), "where": where})
        heading = "%d hosts" % len(g.variants) if g.kind == "host" else "%d IRIs" % len(g.variants)
        out.append({"heading": heading, "items": items})
    return out


_ENV: Any = None


def environment() -> Any:
    """The Jinja2 environment of the report's templates (package data),
    autoescaping everything."""
    global _ENV
    if _ENV is None:
        import jinja2

        _ENV = jinja2.Environment(loader=jinja2.PackageLoader("irilint.report", "templates"),
                                  autoescape=True, undefined=jinja2.StrictUndefined,
                                  trim_blocks=True, lstrip_blocks=True)
        # text from the documents, with invisible characters as chips
        _ENV.globals["pieces"] = text_pieces
    return _ENV


def render_html(data: ReportData, title: str = "irilint review report", max_cards: int = MAX_HTML_CARDS) -> str:
    """The report as one self-contained HTML page; at most ``max_cards``
    IRIs are shown in detail (the totals count every finding)."""
    from irilint.output import DOCS_URL

    with_findings = [f for f in data.files if f.total]
    summary = "%s in %d of %s checked · %s scanned" % (
        plural(data.total, "finding"), len(with_findings),
        plural(data.files_checked, "file"), plural(data.references, "IRI reference"))
    if data.total:
        summary += " · " + counts_phrase(data.counts())
    rows = []
    for k, f in enumerate(data.files):
        if f.error or f.skipped:
            note = ("error: " + f.error) if f.error else "skipped: %s" % f.skipped
            rows.append({"anchor": None, "path": text_pieces(f.path), "note": text_pieces(note)})
        else:
            rows.append({"anchor": "file-%d" % k, "path": text_pieces(f.path), "note": None,
                         "counts": [f.counts.get(s, 0) or "" for s in SEVERITIES], "total": f.total})
    sections = []
    budget = max_cards
    for k, f in enumerate(data.files):
        if not f.total:
            continue
        shown = f.cards[:max(budget, 0)]
        budget -= len(shown)
        left = sum(len(c.findings) for c in f.cards[len(shown):])
        sections.append({"anchor": "file-%d" % k, "path": text_pieces(f.path),
                         "count": plural(f.total, "finding"), "cards": [card_view(c) for c in shown],
                         "left": left, "left_word": "finding" if left == 1 else "findings"})
    rules = [{"code": t.code, "name": t.name, "severity": t.severity, "count": t.count,
              "summary": summary_pieces(t.summary)} for t in data.rules]
    page = environment().get_template("report.html.j2").render(
        title=title, summary=summary, rules=rules, files=rows, any_files=bool(data.files),
        lookalikes=_lookalike_views(data.lookalikes), more_lookalikes=max(0, len(data.lookalikes) - MAX_LOOKALIKE_GROUPS),
        any_findings=bool(with_findings), sections=sections, max_cards=max_cards,
        version=data.version, docs_url=DOCS_URL)
    return page + "\n"
