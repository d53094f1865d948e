"""What a rule sees: one reference, its decoded view and its components.

(One module, over 600 lines: the decoded view, its components and the two
contexts built on them are the one interface every rule reads;
:class:`RefContext` alone is a third of it.)

Spoofs cannot hide behind encoding: besides the reference as written
(``ctx.value``), rules read ``ctx.view``, where percent-encoded UTF-8 and
``xn--`` labels are decoded to the characters a browser would show.  Each
character of the view maps back to the span of the value it came from, so a
finding on a decoded U+202E points at the ``%E2%80%AE`` that encodes it.
"""
from __future__ import annotations

import bisect
import re
from itertools import accumulate
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from irilint.chars import distinct_non_ascii, first_of
from irilint.convert import idna_to_unicode
from irilint.findings import Edit, Finding, Fix, Severity, differing_runs, with_edits
from irilint.iri import IRIReference, parse
from irilint.rules.registry import has_punycode_trait
from irilint.scanners.base import DATA_CONTEXTS
from irilint.anatomy import quoted, visible_text

if TYPE_CHECKING:  # pragma: no cover
    from irilint.rules.registry import Rule
    from irilint.scanners.base import Candidate

_PCT_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

LITERAL, PERCENT, PUNYCODE = "literal", "percent", "punycode"


def _uts46_ignored_ranges() -> Tuple[Tuple[int, int], ...]:
    """The code point ranges the UTS #46 mapping table marks "ignored"
    (mapped to nothing: U+00AD SOFT HYPHEN, U+200B ZERO WIDTH SPACE,
    variation selectors...), read from the table the ``idna`` package
    ships, in either of the layouts its versions use."""
    from idna import uts46data

    if hasattr(uts46data, "uts46_starts"):
        rows = list(zip(uts46data.uts46_starts, (chr(b) for b in uts46data.uts46_statuses)))
    else:  # idna < 3.8: a tuple of (start, status[, mapping]) rows
        rows = [(row[0], row[1]) for row in uts46data.uts46data]
    out = []
    for k, (start, status) in enumerate(rows):
        if status == "I":
            end = rows[k + 1][0] - 1 if k + 1 < len(rows) else 0x10FFFF
            out.append((start, end))
    return tuple(out)


UTS46_IGNORED_RANGES = _uts46_ignored_ranges()
_UTS46_IGNORED_RE = re.compile("[%s]" % "".join(
    "%s-%s" % (re.escape(chr(a)), re.escape(chr(b))) for a, b in UTS46_IGNORED_RANGES))


def is_uts46_ignored(ch: str) -> bool:
    """Does UTS #46 map ``ch`` to nothing (status "ignored")?"""
    cp = ord(ch)
    return cp >= 0xAD and any(a <= cp <= b for a, b in UTS46_IGNORED_RANGES)


def strip_uts46_ignored(text: str) -> str:
    """``text`` without the characters UTS #46 maps to nothing: the label
    IDNA judges."""
    return text if text.isascii() else _UTS46_IGNORED_RE.sub("", text)


def uts46_ignored_positions(text: str) -> List[int]:
    return [] if text.isascii() else [m.start() for m in _UTS46_IGNORED_RE.finditer(text)]


class DecodedView:
    """The reference with percent-encoded UTF-8 and A-labels decoded.

    ``spans[i]`` is the value span that produced ``text[i]``; ``origins[i]``
    says how (literal, percent, punycode).  ASCII escapes stay as they are,
    so the view has the same structure (delimiters) as the value.

    When nothing was decoded (``spans`` and ``origins`` given as None) the
    view is the value itself: character ``i`` comes from ``[i, i + 1)``.
    The two lists are then built only if a rule asks for them, so a long
    literal reference costs no Python object per character.
    """

    def __init__(self, text: str, spans: Optional[List[Tuple[int, int]]] = None,
                 origins: Optional[List[str]] = None) -> None:
        self.text = text
        self._identity = spans is None
        self._spans = spans
        self._origins = origins

    def __repr__(self) -> str:
        return "DecodedView(%r)" % (self.text,)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DecodedView):
            return NotImplemented
        return (self.text, self.spans, self.origins) == (other.text, other.spans, other.origins)

    @property
    def spans(self) -> List[Tuple[int, int]]:
        if self._spans is None:
            n = len(self.text)
            self._spans = list(zip(range(n), range(1, n + 1)))
        return self._spans

    @property
    def origins(self) -> List[str]:
        if self._origins is None:
            self._origins = [LITERAL] * len(self.text)
        return self._origins

    @property
    def decoded_any(self) -> bool:
        if self._identity:
            return False
        origins = self.origins
        return PERCENT in origins or PUNYCODE in origins  # C-level scans

    @property
    def non_ascii_chars(self) -> FrozenSet[str]:
        """The distinct non-ASCII characters of the text."""
        found = self.__dict__.get("_non_ascii")
        if found is None:
            found = self.__dict__["_non_ascii"] = distinct_non_ascii(self.text)
        return found

    def index_of(self, value_offset: int) -> int:
        """The view character produced from ``value_offset`` (bisection in
        a list built once: rules call this for every finding)."""
        if self._identity:
            return max(min(value_offset, len(self.text) - 1), 0)
        starts = self.__dict__.get("_starts")
        if starts is None:
            starts = self.__dict__["_starts"] = [s for s, _ in self.spans]
        return max(bisect.bisect_right(starts, value_offset) - 1, 0)

    def value_span(self, i: int, j: int) -> Tuple[int, int]:
        """Value span covering view characters ``[i, j)``."""
        if self._identity:
            n = len(self.text)
            if i >= j:
                p = i if i < n else n
                return p, p
            return i, j
        if i >= j:
            if i < len(self.spans):
                p = self.spans[i][0]
            elif self.spans:
                p = self.spans[-1][1]
            else:
                p = 0
            return p, p
        return self.spans[i][0], self.spans[j - 1][1]


def build_view(value: str, ref: IRIReference) -> DecodedView:
    if "%" not in value and not has_punycode_trait(value):
        # Nothing to decode (no label can start with "xn--" if the
        # lowercased value holds none): the host labels are not needed.
        return DecodedView(value)
    return _decode_view(value, ref)


def _decode_view(value: str, ref: IRIReference) -> DecodedView:
    text: List[str] = []
    spans: List[Tuple[int, int]] = []
    origins: List[str] = []
    # A-labels in a reg-name host, by start offset.
    labels: Dict[int, Tuple[int, str]] = {}
    for lab in ref.host_labels:
        # Characters UTS #46 maps to nothing are gone before IDNA reads the
        # label: "xn--80ak6aa<SOFT HYPHEN>92e" is the A-label xn--80ak6aa92e.
        s = strip_uts46_ignored(value[lab.start:lab.end])
        if s[:4].lower() == "xn--":
            # "XN--" is only case: show what the lowercase label encodes.
            u = idna_to_unicode(s) or idna_to_unicode(s.lower()) or _lenient_punycode(s.lower())
            if u:
                labels[lab.start] = (lab.end, u)
    n = len(value)
    if not labels and "%" not in value:  # nothing decoded: the common case
        return DecodedView(value)
    i = 0
    pct_iter = _PCT_RUN_RE.finditer(value) if "%" in value else iter(())
    next_pct = next(pct_iter, None)
    label_starts = sorted(labels)
    next_label = 0
    while i < n:
        if i in labels:
            end, u = labels[i]
            for ch in u:
                text.append(ch)
                spans.append((i, end))
                origins.append(PUNYCODE)
            i = end
            continue
        while next_pct is not None and next_pct.start() < i:
            next_pct = next(pct_iter, None)
        if next_pct is not None and next_pct.start() == i:
            _decode_run(value, next_pct.start(), next_pct.end(), text, spans, origins)
            i = next_pct.end()
            next_pct = next(pct_iter, None)
            continue
        # A literal run up to the next escape or A-label, copied at once.
        while next_label < len(label_starts) and label_starts[next_label] <= i:
            next_label += 1
        stop = min(next_pct.start() if next_pct is not None else n,
                   label_starts[next_label] if next_label < len(label_starts) else n)
        text.append(value[i:stop])
        spans.extend(zip(range(i, stop), range(i + 1, stop + 1)))
        origins.extend([LITERAL] * (stop - i))
        i = stop
    return DecodedView("".join(text), spans, origins)


def _lenient_punycode(label: str) -> Optional[str]:
    """Decode an A-label that IDNA rejects, to show what it hides."""
    try:
        u = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError, IndexError):
        return None
    return u or None


#: Characters of a run's octets decoded with ``surrogateescape`` that the
#: view keeps as written: ASCII octets (an escaped ASCII character is not
#: text to show) and the lone surrogates that stand for octets that are not
#: UTF-8.  Each stands for one octet.
_KEPT_OCTETS_RE = re.compile("[\x00-\x7f\udc80-\udcff]+")


def _decode_run(value: str, start: int, end: int, text, spans, origins) -> None:
    """Append the view of escape run ``value[start:end]``: each strict UTF-8
    sequence one character (origin PERCENT, spanning its escapes), each
    other octet its escape's three characters (LITERAL)."""
    # Python's strict decoder takes exactly the well-formed sequences, and
    # surrogateescape gives each octet of an ill-formed one its own lone
    # surrogate (the rest of a maximal subpart is continuation octets,
    # which start no sequence): the octet-by-octet walk, done in C.
    decoded = bytes.fromhex(value[start:end].replace("%", "")).decode("utf-8", "surrogateescape")
    pos = start  # where the next octet's escape starts
    done = 0
    for m in _KEPT_OCTETS_RE.finditer(decoded):
        if m.start() > done:
            pos = _decoded_piece(decoded[done:m.start()], pos, text, spans, origins)
        stop = pos + 3 * (m.end() - m.start())
        text.append(value[pos:stop])
        spans.extend(zip(range(pos, stop), range(pos + 1, stop + 1)))
        origins.extend([LITERAL] * (stop - pos))
        pos = stop
        done = m.end()
    if done < len(decoded):
        _decoded_piece(decoded[done:], pos, text, spans, origins)


def _decoded_piece(piece: str, pos: int, text, spans, origins) -> int:
    """Append decoded characters whose escapes start at ``pos``; returns
    where their escapes end."""
    bounds = list(accumulate(map((3).__mul__, map(len, map(str.encode, piece))), initial=pos))
    text.append(piece)
    spans.extend(zip(bounds, bounds[1:]))
    origins.extend([PERCENT] * len(piece))
    return bounds[-1]


@dataclass
class Component:
    """A bidi component (draft-ietf-iri-bidi-guidelines, "Bidi IRI
    Structure"): the userinfo, each host label, each path segment (its
    file extension apart), each query name and value, the fragment."""

    kind: str  # userinfo, host-label, segment, extension, query-name, query-value, fragment
    text: str  # in the decoded view
    view_start: int
    view_end: int
    start: int  # in the value
    end: int

    @property
    def label(self) -> str:
        return {
            "userinfo": "userinfo", "host-label": "host label", "segment": "path segment",
            "extension": "file extension", "query-name": "query name",
            "query-value": "query value", "fragment": "fragment",
        }[self.kind]


def view_components(view: DecodedView, vref: Optional[IRIReference] = None) -> List[Component]:
    """The components of the view; ``vref`` is the view's text parsed, if
    the caller has it."""
    if vref is None:
        vref = parse(view.text)
    out: List[Component] = []
    text = view.text
    identity = view._identity  # view offsets are value offsets

    def add(kind: str, s: int, e: int) -> None:
        if s < e:
            vs, ve = (s, e) if identity else view.value_span(s, e)
            out.append(Component(kind, text[s:e], s, e, vs, ve))

    if vref.userinfo is not None:
        add("userinfo", vref.userinfo.start, vref.userinfo.end)
    for lab in vref.host_labels:
        add("host-label", lab.start, lab.end)
    for seg in vref.segments:
        dot = view.text.rfind(".", seg.start, seg.end)
        if dot > seg.start and dot < seg.end - 1:
            add("segment", seg.start, dot)
            add("extension", dot + 1, seg.end)
        else:
            add("segment", seg.start, seg.end)
    for name, val in vref.query_parts:
        add("query-name", name.start, name.end)
        if val is not None:
            add("query-value", val.start, val.end)
    if vref.fragment is not None:
        add("fragment", vref.fragment.start, vref.fragment.end)
    return out


@dataclass
class DocumentInfo:
    text: str
    path: Optional[str]
    scanner: str
    settings: Any = None
    #: shared across the files of one run (e.g. confusable-collision)
    run_state: Dict[str, Any] = field(default_factory=dict)
    #: the text's irilint.lines.LineIndex when the caller has one (the
    #: language server keeps one per version), else None: build it
    index: Any = None
    #: the engine's judgement of a decoding (Engine.judge_decoding), or
    #: None: see RefContext.decoding_flagged
    judge_decoding: Any = None
    #: the engine's judgement of an edit (Engine.judge_edit), or None: see
    #: RefContext.edit_adds_finding
    judge_edit: Any = None


#: Contexts where delimiters, not the prose rules of the text scanner
#: (which end a link at whitespace and drop trailing punctuation), say
#: where a reference ends.
_DELIMITED_CONTEXTS = frozenset((
    "angle", "autolink", "html-attr", "xml-attr", "attribute", "iri-value", "markdown-link",
    "turtle-iri", "turtle-base", "turtle-prefix"))  # not "rst-link": `x <name_>`_ is no IRI


_ASCII_CHARS = tuple(map(chr, range(128)))


def data_reason(context: str) -> str:
    """Why a fix of a reference found in ``context`` (a data context) is
    unsafe, as a fix title says it."""
    return "changes %s, which is data" % DATA_CONTEXTS[context]


def _first_char_where(text: str, test) -> Optional[str]:
    """The first character of ``text`` for which ``test`` holds, or None.
    Each distinct character is tested once (an NFC fix of a long run of
    combining marks writes 500,000 of them); in long text the distinct
    characters are found, and the first that qualifies, in C-level passes."""
    if len(text) < 256:
        for ch in dict.fromkeys(text):
            if test(ch):
                return ch
        return None
    chars = frozenset([c for c in distinct_non_ascii(text) if test(c)] + [c for c in _ASCII_CHARS if test(c)])
    k = first_of(text, chars)
    return None if k < 0 else text[k]


def _prose_stop(value: str, edits: Sequence[Tuple[int, int, str]]) -> Optional[str]:
    """The character that would end the link in prose after ``edits`` (in
    value offsets), or None.  Looks only at the edits' new text and at the
    new last character, so it costs nothing on long references."""
    from irilint.scanners.text import bracket_char, prose_stop_char, trailing_char

    n = len(value)
    if n and bracket_char(value[-1]):
        # "http://e.org/a_(b/..)": the ")" stays because a "(" balances it;
        # an edit that removes or adds a bracket may change that.
        for s, e, t in edits:
            if _first_char_where(t, bracket_char) is not None or \
                    _first_char_where(value[s:e], bracket_char) is not None:
                return value[-1]

    def stops(ch: str) -> bool:
        # Non-ASCII sentence punctuation (quotes, CJK stops) also ends
        # or interrupts a link in prose, wherever it is put.
        return prose_stop_char(ch) or (not ch.isascii() and trailing_char(ch))

    for s, e, t in edits:
        ch = _first_char_where(t, stops)
        if ch is not None:
            return ch
        if e == n:
            last = t[-1:] or value[s - 1:s]
            if last and trailing_char(last):
                return last
    return None


#: how far beside a reference its line is scanned again to judge a fix,
#: and the longest reference judged that way
_PROSE_WINDOW = 256
_PROSE_RESCAN_LIMIT = 2048


def _trim(value: str, start: int, end: int, new_text: str) -> List[Tuple[int, int, str]]:
    """The edit narrowed to what changes: a fix that rewrites a whole path
    or host leaves the characters it keeps as they are spelled in the
    source (character references, escapes, quotes doubled in YAML).  A
    rewrite of the same length (a case change) becomes one edit per run of
    changed characters, so an escaped quote between them stays escaped."""
    old = value[start:end]
    if old == new_text:
        return [(start, end, new_text)]
    if len(old) == len(new_text):
        return [(start + k, start + j, new_text[k:j]) for k, j in differing_runs(old, new_text)]
    p = 0
    limit = min(len(old), len(new_text))
    while p < limit and old[p] == new_text[p]:
        p += 1
    q = 0
    limit -= p
    while q < limit and old[-1 - q] == new_text[-1 - q]:
        q += 1
    return [(start + p, end - q, new_text[p:len(new_text) - q])]


#: Characters of rule work the engine may spend judging the fixes of one
#: reference (see RefContext._judge_budget).
_JUDGE_BUDGET = 1 << 16
#: the reason given past that budget
NOT_JUDGED = "no judgement (the reference is too long to judge every fix)"


def _reason(finding: Optional[Finding]) -> Optional[str]:
    return None if finding is None else "%s (%s)" % (finding.rule.name, finding.rule.code)


class RefContext:
    """One reference as a rule sees it."""

    # Defaults as class attributes: the engine makes one context per
    # reference, and the fast path makes them for references no rule reads.
    rule: Optional["Rule"] = None
    severity: Optional[Severity] = None
    _view: Optional[DecodedView] = None
    _components: Optional[List[Component]] = None
    _view_ref: Optional[IRIReference] = None

    def __init__(self, candidate: "Candidate", ref: Optional[IRIReference], doc: DocumentInfo,
                 fast: Optional["re.Match[str]"] = None) -> None:
        self.candidate = candidate
        self._ref = ref
        self.value = candidate.value
        self.doc = doc
        #: the irilint.rules.fastpath match when the engine took the fast
        #: path for this reference (then ``ref`` is parsed on first use)
        self.fast = fast

    @property
    def ref(self) -> IRIReference:
        if self._ref is None:
            self._ref = parse(self.value)
        return self._ref

    @property
    def view(self) -> DecodedView:
        if self._view is None:
            self._view = build_view(self.value, self.ref)
        return self._view

    @property
    def view_ref(self) -> IRIReference:
        if self._view_ref is None:
            self._view_ref = self.ref if not self.view.decoded_any else parse(self.view.text)
        return self._view_ref

    def components(self) -> List[Component]:
        if self._components is None:
            self._components = view_components(self.view, self.view_ref)
        return self._components

    def release_components(self) -> None:
        """Forget the components (rebuilt if asked again).  The engine
        calls this once the reference rules are done: the document rules
        do not read them, and a document of many references kept them all
        alive, which made Python's cycle collector walk them again and
        again (a third of the time per reference on a long document)."""
        self._components = None
        self.__dict__.pop("_component_starts", None)
        view = self._view
        if view is not None and view._identity:
            # as cheap to rebuild as to keep (DecodedView(value))
            self._view = self._view_ref = None

    def component_at(self, i: int) -> Optional[Component]:
        """The component that holds view character ``i``, or None.
        Components are sorted and disjoint: found by bisection."""
        comps = self.components()
        starts = self.__dict__.get("_component_starts")
        if starts is None:
            starts = self.__dict__["_component_starts"] = [c.view_start for c in comps]
        k = bisect.bisect_right(starts, i) - 1
        if k >= 0 and i < comps[k].view_end:
            return comps[k]
        return None

    @property
    def settings(self) -> Any:
        return self.doc.settings

    # -- making findings --------------------------------------------------
    def edit(self, start: int, end: int, new_text: str) -> Edit:
        """An edit in value offsets, mapped to the document."""
        s, e = self.candidate.source_span(start, end)
        return Edit(s, e, self._escape_for_source(new_text))

    def fix(self, title: str, edits: Iterable[Tuple[int, int, str]], safe: bool) -> Fix:
        edits = list(edits)
        if safe and self.candidate.is_data:
            # A string literal or a value in a data file is read by a
            # program as written: "http://xn--...", a mixed-case URL in a
            # test are expected values, and an equivalent spelling fails.
            safe = False
            title += " (unsafe: %s)" % data_reason(self.candidate.context)
        if safe and self.candidate.context not in _DELIMITED_CONTEXTS:
            stop = _prose_stop(self.value, edits)
            if stop is not None:
                # Found in prose, the reference ends where the sentence's
                # punctuation starts: a fix that puts such a character at
                # its end (or a stop inside it) changes the link readers,
                # scanners and autolinkers see.
                safe = False
                title += " (unsafe: in running text the link would end at %s)" % quoted(stop)
        if safe and self.candidate.context not in _DELIMITED_CONTEXTS:
            reading = self._prose_reading(edits)
            if reading is not None:
                # "http://。xn--r8jz45g.com" decoded: "。" before CJK text
                # ends a sentence, and prose no longer reads a link.
                safe = False
                title += " (unsafe: in running text %s)" % reading
        if safe and self.candidate.after_backslash and any(s == 0 for s, _e, _t in edits):
            # "\\FTP://" lowercased is "\\ftp://", a roff font escape
            # ("\\f"), so scanners read the link from a later character.
            safe = False
            title += " (unsafe: the backslash before the link would escape its new first character)"
        if safe and self.candidate.offsets is not None and self._rewrites_escapes(edits):
            # "<&#x48;TTP://e.org/>" is text in Markdown; written back as a
            # literal "h" the same characters become an autolink, read by
            # other rules.  A character the source spells as a reference or
            # escape is only rewritten by an unsafe fix.
            safe = False
            title += " (unsafe: rewrites a character the source writes as an escape)"
        return Fix(title, tuple(e for s, end, t in edits for e in self._minimal_edits(s, end, t)), safe)

    def _prose_reading(self, edits: Sequence[Tuple[int, int, str]]) -> Optional[str]:
        """How prose would read the link once ``edits`` (value offsets) are
        made, when the text scanner, run again on the reference's line,
        reads it other than as the edited reference; None when it reads
        the same.  ``_prose_stop`` judges the new characters alone: here
        their neighbours count too ("http://。xn--r8jz45g.com" decoded is
        "http://。例え.com", and "。" before CJK text ends a sentence)."""
        cand = self.candidate
        if cand.offsets is not None or cand.context in _DELIMITED_CONTEXTS:
            return None  # decoded text, or delimited: not the prose rules
        if len(self.value) > _PROSE_RESCAN_LIMIT or all(t.isascii() for _s, _e, t in edits):
            # The prose rules that look beside a character (CJK stops,
            # CJK text glued to a host, bidi wraps) turn on non-ASCII text:
            # ASCII is _prose_stop's.  A reference past a few thousand
            # characters is judged by its new characters alone, so that a
            # long one with many fixes stays linear.
            return None
        from irilint.scanners.text import find_iris

        text, start, end = self.doc.text, cand.start, cand.end
        if text[start:end] != self.value:
            return None
        # The reference's line and its end, at most _PROSE_WINDOW
        # characters each side: enough for the rules that look beside a
        # link, and linear.
        lo = max(text.rfind("\n", max(0, start - _PROSE_WINDOW), start) + 1, start - _PROSE_WINDOW)
        nl = text.find("\n", end, end + _PROSE_WINDOW)
        hi = min(len(text), end + _PROSE_WINDOW) if nl < 0 else nl + 1
        before = [c for c in find_iris(text, lo, hi, cand.context) if c.start == start]
        if not before or before[0].end != end:
            return None  # read otherwise already: the window is not the scanner's
        new = with_edits(self.value, edits)
        window = text[lo:start] + new + text[end:hi]
        after = [c for c in find_iris(window, 0, len(window), cand.context) if c.start == start - lo]
        if after and after[0].end == start - lo + len(new):
            return None
        if after and after[0].end < start - lo + len(new):
            return "the link would end at %s" % quoted(window[after[0].end])
        return "it would no longer read as one link"

    def _rewrites_escapes(self, edits: Sequence[Tuple[int, int, str]]) -> bool:
        """Whether an edit (value offsets) replaces a character that the
        source spells with more than one character."""
        span = self.candidate.source_span
        for start, end, new_text in edits:
            s, e = span(start, end)
            if e - s == end - start:
                continue  # no escape in the span at all
            for a, b, _t in _trim(self.value, start, end, new_text):
                s, e = span(a, b)
                if e - s == b - a:
                    continue
                for i in range(a, b):
                    s, e = span(i, i + 1)
                    if e - s != 1:
                        return True
        return False

    def _minimal_edits(self, start: int, end: int, new_text: str) -> List[Edit]:
        if self.candidate.offsets is not None:
            s, e = self.candidate.source_span(start, end)
            if e - s != end - start:  # escapes in the span: keep those not changed
                return [self.edit(a, b, t) for a, b, t in _trim(self.value, start, end, new_text)]
        return [self.edit(start, end, new_text)]

    def decoding_flagged(self, start: int, end: int, decoded: str) -> Optional[str]:
        """Why ``decoded`` put in place of value span ``[start, end)`` (an
        A-label or escapes it decodes) would mislead, e.g.
        "whole-script-confusable (IRI204)", or None.  A fix that decodes is
        not offered when there is a reason: it would show a reader what a
        look-alike, bidi or host rule warns about.  The engine judges
        (rules cannot run rules); without an engine, None."""
        judge = self.doc.judge_decoding
        if judge is None:
            return None
        if not self._judge_budget():
            return NOT_JUDGED
        return _reason(judge(self.value, start, end, decoded, self.doc.settings))

    def edit_adds_finding(self, edits: Sequence[Tuple[int, int, str]]) -> Optional[str]:
        """Which rule (e.g. "mixed-script (IRI203)") reports once more after
        ``edits`` (value offsets), or None.  Fixes that change a
        reference's structure ask before they are offered: removing a bidi
        control can merge what it split, a delimiter put in can make a
        dot-segment.  Without an engine (or inside its judgement), None."""
        judge = self.doc.judge_edit
        if judge is None:
            return None
        if not self._judge_budget():
            return NOT_JUDGED
        return _reason(judge(self.value, edits, self.doc.settings))

    def _judge_budget(self) -> bool:
        """Whether the engine may judge one more edit of this reference.
        Each judgement runs rules on the whole reference: a long reference
        with a finding in every segment would cost time quadratic in its
        length, so a reference gets about _JUDGE_BUDGET characters of
        judging (at least one judgement); past that, the answer is "not
        judged" and the fix is not offered, which adds no finding."""
        spent = self.__dict__.get("_judged_chars", 0)
        if spent and spent + len(self.value) > _JUDGE_BUDGET:
            return False
        self.__dict__["_judged_chars"] = spent + len(self.value) + 1
        return True

    def replace(self, title: str, start: int, end: int, new_text: str, safe: bool) -> Fix:
        return self.fix(title, [(start, end, new_text)], safe)

    def report(self, start: int, end: int, message: str, fixes: Sequence[Fix] = (),
               severity: Optional[Severity] = None) -> Finding:
        """A finding on value span ``[start, end)``.  Invisible characters
        in the message and fix titles are written as ``<U+XXXX>``, whatever
        text of the document a rule quoted."""
        assert self.rule is not None
        s, e = self.candidate.source_span(start, end)
        fixes = [fx if visible_text(fx.title) is fx.title else Fix(visible_text(fx.title), fx.edits, fx.safe)
                 for fx in fixes]
        return Finding(
            rule=self.rule,
            severity=severity or self.severity or self.rule.severity,
            message=visible_text(message), start=s, end=e, fixes=fixes,
            ref_start=self.candidate.start, ref_end=self.candidate.end,
            iri=self.value, path=self.doc.path,
        )

    def report_view(self, i: int, j: int, message: str, fixes: Sequence[Fix] = (),
                    severity: Optional[Severity] = None) -> Finding:
        """A finding on view characters ``[i, j)``."""
        s, e = self.view.value_span(i, j)
        return self.report(s, e, message, fixes, severity)

    def origin_note(self, i: int) -> str:
        """How view character ``i`` was written, for messages."""
        o = self.view.origins[i]
        s, e = self.view.spans[i]
        if o == PERCENT:
            return " (percent-encoded as %s)" % self.value[s:e]
        if o == PUNYCODE:
            # an A-label is ASCII; anything else in it (a soft hyphen UTS #46
            # ignores) is shown by code point, not printed invisibly
            label = "".join(c if c.isascii() else "<U+%04X>" % ord(c) for c in self.value[s:e])
            return " (hidden in the Punycode label %s)" % label
        return ""

    def _escape_for_source(self, text: str) -> str:
        # Inside HTML/XML attributes "&", "<" and quotes must be written as
        # character references, or the fix would change the markup.
        context = self.candidate.context
        if context in ("html-attr", "xml-attr", "attribute"):
            return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") \
                .replace("'", "&#39;")  # the attribute may be single-quoted
        if self.candidate.offsets is not None and self.doc.scanner in ("html", "xml", "markdown") \
                and context in ("bare", "autolink", "markdown-link"):
            # Character references were decoded in this text: a literal "&"
            # or "<" written back must be one too ("&amp;" would decode).
            text = text.replace("&", "&amp;").replace("<", "&lt;")
            if context == "markdown-link":  # and backslash escapes
                text = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return text


class DocContext:
    """Every reference of one document, for document-wide rules.  ``refs``
    is iterated, never indexed nor measured: the streamed check
    (irilint.stream) makes the contexts anew at each iteration."""

    def __init__(self, doc: DocumentInfo, refs: Iterable[RefContext], suppressions: Sequence[Any] = ()) -> None:
        self.doc = doc
        self.refs = refs
        self.rule: Optional["Rule"] = None
        self.severity: Optional[Severity] = None
        #: the document's ``irilint: ignore`` comments (irilint.suppressions.Suppression)
        self.suppressions = suppressions
        #: work a rule's check shares with its collect step (a project
        #: rule's; the engine calls both with this context)
        self.shared: Dict[str, Any] = {}

    def line_index(self) -> Any:
        """The document's irilint.lines.LineIndex (built once)."""
        if self.doc.index is None:
            from irilint.lines import LineIndex

            self.doc.index = LineIndex(self.doc.text)
        return self.doc.index

    def suppressed_at(self, start: int) -> bool:
        """Whether a finding of this rule starting at ``start`` would be
        suppressed (the suppression is not marked used: nothing is
        reported yet)."""
        if not self.suppressions:
            return False
        line = self.line_index().line_of(start)
        return any(s.covers(line) and s.matches_rule(self.rule) for s in self.suppressions)

    def report(self, ctx: RefContext, start: int, end: int, message: str,
               fixes: Sequence[Fix] = ()) -> Finding:
        ctx.rule = self.rule
        ctx.severity = self.severity
        return ctx.report(start, end, message, fixes)
