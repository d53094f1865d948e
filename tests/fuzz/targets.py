"""Fast fuzz targets, one per layer, each with the invariants of its layer.

The whole-pipeline harness (:mod:`atheris_harness`) runs every layer and
every invariant on each input, about 13 inputs a second.  These targets
each run one layer on a short input, so that a coverage-guided fuzzer gets
through a million inputs in minutes:

==================  ==========================================================
``iri``             ``parse``: component spans are ordered, inside the text,
                    and re-join to it; problems lie inside the text
``to_uri``          never raises; ASCII; idempotent; no character that may not
                    stand in a URI is left
``to_iri``          never raises; of a URI, keeps the URI (``to_uri`` of it is
                    the same URI up to RFC 3986 equivalence); never decodes a
                    bidi control; idempotent on its own output
``scan_<format>``   the scanner alone: candidates sorted, disjoint, inside the
                    text; offset maps monotone; where one source character
                    maps to one value character, it is that character
``engine``          every rule on one reference: findings and fix edits inside
                    it; safe fixes keep the URI; fixes converge
``stream``          the streamed check of a document (the format from the first
                    byte) yields check_text's findings, in its order, and
                    leaves the same facts (known before the first finding),
                    errors, suppressed and references counts
``lsp_positions``   UTF-8/16/32 positions over arbitrary text (U+2028, CR,
                    CRLF, lone surrogates from ``\\uD800`` escapes): the
                    counts are the encoders' counts, lines are LSP lines, and
                    offset -> position -> offset round-trips
==================  ==========================================================

Each target takes bytes and raises :class:`invariants.InvariantError` on a
violation.  Run one with atheris (``run_targets.py``), or call it directly.
"""
from __future__ import annotations

import os
import re
import sys
from bisect import bisect_right
from typing import Callable, Dict, List, NamedTuple, Tuple

_HERE = os.path.dirname(os.path.abspath(__file__))
for _p in (os.path.dirname(_HERE), _HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import invariants as inv  # noqa: E402
from fuzz_strategies import uri_key  # noqa: E402  (the engine target)
from irilint import convert, parse  # noqa: E402
from irilint.engine import Engine, _WholeTextScanner  # noqa: E402
from irilint.fix_loop import fixes_to_apply  # noqa: E402
from irilint.fileio import apply_edits  # noqa: E402
from irilint.lines import LineIndex  # noqa: E402
from irilint.lsp import convert_positions  # noqa: E402
from irilint.scanners import get_scanner  # noqa: E402
from irilint.stream import check_stream  # noqa: E402

InvariantError = inv.InvariantError

#: Bidi formatting characters (RFC 3987 s4.1): to_iri must never produce one
#: from an escape.
BIDI_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SURROGATE_ESCAPE_RE = re.compile(r"\\u([dD][89a-fA-F][0-9a-fA-F]{2})")
_URI_CHARS_RE = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*\Z")


def _fail(target: str, what: str, value: str, detail: str = "") -> None:
    raise InvariantError("%s: %s %s\n  input: %r" % (target, what, detail, value[:300]))


def text_of(data: bytes) -> str:
    """The text a fuzzer input stands for: UTF-8 with surrogateescape, and
    ``\\uD800``-style escapes made into the lone surrogates they name (so
    that surrogates come from the dictionary, not only from bad bytes)."""
    text = data.decode("utf-8", "surrogateescape")
    if "\\u" in text:
        text = _SURROGATE_ESCAPE_RE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return text


# -- the IRI parser ----------------------------------------------------------

_ORDER = ("scheme", "authority", "path", "query", "fragment")


def target_iri(data: bytes) -> None:
    text = text_of(data)
    ref = parse(text)
    n = len(text)
    last = 0
    for name in _ORDER:
        span = getattr(ref, name)
        if span is None:
            continue
        if not (last <= span.start <= span.end <= n):
            _fail("iri", "component out of order or outside the text", text, "%s %r" % (name, span))
        last = span.end
    # the components and their delimiters re-join to the input
    joined = []
    if ref.scheme is not None:
        joined.append(ref.get("scheme") + ":")
    if ref.authority is not None:
        joined.append("//" + ref.get("authority"))
    joined.append(ref.get("path"))
    if ref.query is not None:
        joined.append("?" + ref.get("query"))
    if ref.fragment is not None:
        joined.append("#" + ref.get("fragment"))
    if "".join(joined) != text:
        _fail("iri", "components do not re-join to the input", text, repr(joined))
    if ref.authority is None:
        if ref.host is not None or ref.userinfo is not None or ref.port is not None:
            _fail("iri", "host, userinfo or port without an authority", text)
    else:
        a = ref.authority
        for name in ("userinfo", "host", "port"):
            span = getattr(ref, name)
            if span is not None and not (a.start <= span.start <= span.end <= a.end):
                _fail("iri", "%s outside the authority" % name, text, repr(span))
        sub = []
        if ref.userinfo is not None:
            sub.append(ref.get("userinfo") + "@")
        sub.append(ref.get("host") or "")
        if ref.port is not None:
            sub.append(":" + ref.get("port"))
        rejoined = "".join(sub)
        if rejoined != ref.get("authority") and not _gap_reported(ref, a.start + len(rejoined), a.end):
            _fail("iri", "userinfo, host and port do not re-join to the authority", text, repr(sub))
    if (ref.host is None) != (ref.host_kind is None):
        _fail("iri", "host kind without a host (or the reverse)", text, repr(ref.host_kind))
    for p in ref.problems:
        if not (0 <= p.start <= p.end <= n):
            _fail("iri", "problem outside the text", text, repr(p))


def _gap_reported(ref, start: int, end: int) -> bool:
    # text after an IP literal that is not a port belongs to no component;
    # the parser reports it as a problem instead
    return (ref.get("host") or "").startswith("[") and any(
        p.start == start and p.end == end for p in ref.problems)


# -- the conversions ---------------------------------------------------------


def target_to_uri(data: bytes) -> None:
    text = text_of(data)
    u = convert.to_uri(text)
    if not u.isascii():
        _fail("to_uri", "non-ASCII output", text, repr(u))
    if not _URI_CHARS_RE.match(u):
        bad = sorted({ch for ch in u if not _URI_CHARS_RE.match(ch)})
        _fail("to_uri", "characters that may not stand in a URI", text, repr((u, bad)))
    again = convert.to_uri(u)
    if again != u:
        _fail("to_uri", "not idempotent", text, "%r -> %r" % (u, again))
    detailed = convert.to_uri_detailed(text)
    if detailed.text != u:
        _fail("to_uri", "to_uri_detailed disagrees", text, "%r != %r" % (detailed.text, u))


def _bidi_count(s: str) -> int:
    return sum(1 for ch in s if ch in BIDI_CONTROLS)


def target_to_iri(data: bytes) -> None:
    text = text_of(data)
    uri = convert.to_uri(text)
    # most inputs are ASCII URIs already: their URI is the text, checked once
    for value in (text,) if uri == text else (text, uri):
        i = convert.to_iri(value)
        # the private join, so that the public function's "never raise"
        # guard cannot hide a bug
        parts = convert._iri_parts(value) if ("%" in value or "xn--" in value.lower()) else None
        if parts is not None and "".join(t for _s, _e, t, _p in parts) != i:
            _fail("to_iri", "not the join of its parts", value)
        if _bidi_count(i) > _bidi_count(value):
            _fail("to_iri", "decoded a bidi control", value, repr(i))
        if convert.to_iri(i) != i:
            _fail("to_iri", "not idempotent", value, "%r -> %r" % (i, convert.to_iri(i)))
    # the IRI of a URI maps back to the same URI, up to RFC 3986
    # equivalence (the case of escapes, escaped unreserved characters, and
    # a host either percent-encoded or in Punycode: RFC 3987 s3.1 allows both)
    back = convert.to_uri(i)
    # (the same URI back has the same key: the keys are computed only when
    # they can differ)
    if back != uri and uri_key(back) != uri_key(uri):
        _fail("to_iri", "the IRI of a URI maps to another URI", uri, "%r -> %r -> %r" % (uri, i, back))


# -- the scanners ------------------------------------------------------------


def _scan_target(fmt: str) -> Callable[[bytes], None]:
    scanner = get_scanner(fmt)

    def target(data: bytes) -> None:
        text = text_of(data)
        cands = scanner.scan(text)
        n = len(text)
        last = 0
        for c in cands:
            if not (last <= c.start <= c.end <= n):
                _fail("scan_" + fmt, "candidate unsorted, overlapping or outside the text", text, repr(c))
            last = c.end
            if c.offsets is None:
                if text[c.start:c.end] != c.value:
                    _fail("scan_" + fmt, "candidate value is not its source text", text, repr(c))
                continue
            offs = c.offsets
            if len(offs) != len(c.value) + 1 or offs[0] != c.start or offs[-1] != c.end:
                _fail("scan_" + fmt, "offset map does not span the candidate", text, repr(c))
            prev = offs[0]
            value = c.value
            for i in range(len(value)):
                nxt = offs[i + 1]
                if nxt < prev:
                    _fail("scan_" + fmt, "offset map not monotone", text, repr(c))
                # a character whose source is one character is that character
                if nxt - prev == 1 and text[prev] != value[i]:
                    _fail("scan_" + fmt, "decoded character differs from its one-character source", text,
                          "%r at %d: %r != %r" % (c, prev, text[prev], value[i]))
                prev = nxt

    target.__name__ = "target_scan_" + fmt
    return target


# -- the engine on one reference --------------------------------------------

_ENGINE = Engine()
_REFERENCE = _WholeTextScanner()


def _check_reference(value: str):
    result = _ENGINE.check_text(value, path="ref.txt", settings=inv.ALL_SETTINGS, scanner=_REFERENCE,
                                run_state={})
    if result.errors:
        _fail("engine", "a rule crashed", value, "; ".join(result.errors))
    return result.findings


def target_engine(data: bytes) -> None:
    value = text_of(data)
    findings = _check_reference(value)
    # the engine is deterministic: a text that both fix loops reach (the
    # safe fixes are often all the fixes) is checked once
    checked = {value: findings}
    key = None
    n = len(value)
    for f in findings:
        if not (0 <= f.start <= f.end <= n):
            _fail("engine", "finding outside the reference", value, "%s %d-%d" % (f.rule.name, f.start, f.end))
        for fx in f.fixes:
            for e in fx.edits:
                if not (0 <= e.start <= e.end <= n):
                    _fail("engine", "fix edit outside the reference", value, "%s %r" % (f.rule.name, e))
            # unused-suppression edits the comment, here inside the text
            if fx.safe and f.rule.name != "unused-suppression":
                new = apply_edits(value, fx.edits)
                if key is None:
                    key = uri_key(value)
                if uri_key(new) != key:
                    _fail("engine", "a safe fix changed the URI", value, "%s %s: %r -> %r" % (
                        f.rule.name, fx.title, value, new))
    for unsafe in (False, True):
        text = value
        for _ in range(inv.MAX_PASSES):
            if text not in checked:
                checked[text] = _check_reference(text)
            edits = fixes_to_apply(checked[text], unsafe=unsafe)
            new = apply_edits(text, edits) if edits else text
            if new == text:
                break
            text = new
        else:
            _fail("engine", "%s fixes do not converge" % ("unsafe" if unsafe else "safe"), value, repr(text))


# -- the streamed check -------------------------------------------------------

_FORMATS = inv.formats()


def target_stream(data: bytes) -> None:
    fmt = _FORMATS[data[0] % len(_FORMATS)] if data else "text"
    text = text_of(data[1:])
    path = inv.FORMAT_FILES[fmt]
    expected = _ENGINE.check_text(text, path=path, settings=inv.ALL_SETTINGS)
    stream = check_stream(_ENGINE, text, path=path, settings=inv.ALL_SETTINGS)
    facts = dict(stream.result.facts)  # the project reads them before any finding
    got = list(stream)
    result = stream.result
    if got != expected.findings:
        diff = next((i for i, (a, b) in enumerate(zip(got, expected.findings)) if a != b),
                    min(len(got), len(expected.findings)))
        _fail("stream", "findings differ from check_text's (%s)" % fmt, text, "at %d: %r != %r" % (
            diff, got[diff:diff + 1], expected.findings[diff:diff + 1]))
    if facts != expected.facts or result.facts != expected.facts:
        _fail("stream", "facts differ from check_text's (%s)" % fmt, text)
    for name in ("errors", "suppressed", "references"):
        if getattr(result, name) != getattr(expected, name):
            _fail("stream", "%s differ from check_text's (%s)" % (name, fmt), text, "%r != %r" % (
                getattr(result, name), getattr(expected, name)))


# -- LSP positions -----------------------------------------------------------

_LSP_LINE_END_RE = re.compile(r"\r\n|\r|\n")
_ENCODINGS = ("utf-8", "utf-16", "utf-32")


def _units(chunk: str, encoding: str) -> int:
    """The length of ``chunk`` in ``encoding``'s units, by the codec (a
    lone surrogate counts as one UTF-16 unit and as three UTF-8 bytes)."""
    if encoding == "utf-32":
        return len(chunk)
    if encoding == "utf-16":
        return len(chunk.encode("utf-16-le", "surrogatepass")) // 2
    return len(chunk.encode("utf-8", "surrogatepass"))


#: offsets checked per input: each check counts from the line start (O(n)),
#: so checking all of them would make the target quadratic and slow
_MAX_OFFSETS = 24


def _offsets_to_check(text: str, starts: List[int], content_ends: List[int]) -> List[int]:
    """The offsets where counting can go wrong (either side of every
    non-ASCII character and line end, line starts and ends, the end of the
    text), then evenly spread ones, at most ``_MAX_OFFSETS`` in all."""
    picked = {0, len(text)}
    picked.update(starts)
    picked.update(content_ends)
    for m in _TRICKY_RE.finditer(text):
        picked.add(m.start())
        picked.add(m.end())
    ordered = sorted(picked)
    if len(ordered) > _MAX_OFFSETS:
        step = len(ordered) / _MAX_OFFSETS
        ordered = sorted({ordered[int(k * step)] for k in range(_MAX_OFFSETS)} | {len(text)})
    return ordered


_TRICKY_RE = re.compile(r"[^\x00-\x7f]|\r")


def target_lsp_positions(data: bytes) -> None:
    text = text_of(data)
    index = LineIndex(text)
    # LSP lines end at CR, LF and CRLF only (not at U+2028 or NEL)
    starts = [0] + [m.end() for m in _LSP_LINE_END_RE.finditer(text)]
    if index.starts != starts:
        _fail("lsp_positions", "line starts are not LSP's", text, "%r != %r" % (index.starts, starts))
    content_ends = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(text)
        m = _LSP_LINE_END_RE.search(text, s, e)
        content_ends.append(m.start() if m else e)
    for off in _offsets_to_check(text, starts, content_ends):
        line = bisect_right(starts, off) - 1
        for enc in _ENCODINGS:
            pos = convert_positions.position(index, off, enc)
            want = _units(text[starts[line]:off], enc)
            if (pos.line, pos.character) != (line, want):
                _fail("lsp_positions", "position of offset %d in %s" % (off, enc), text,
                      "%r != %r" % ((pos.line, pos.character), (line, want)))
            back = convert_positions.offset(index, pos, enc)
            if back != min(off, content_ends[line]):
                _fail("lsp_positions", "offset %d -> %r -> %d in %s" % (off, pos, back, enc), text)
    # ranges: from_range(to_range(a, b)) gives (a, b) back, in order
    n = len(text)
    a, b = n // 3, (2 * n) // 3
    for enc in _ENCODINGS:
        rng = convert_positions.to_range(index, b, a, enc)
        got = convert_positions.from_range(index, rng, enc)
        la, lb = index.line_of(a), index.line_of(b)
        if got != (min(a, content_ends[la]), min(b, content_ends[lb])):
            _fail("lsp_positions", "range round trip in %s" % enc, text, "(%d, %d) -> %r" % (a, b, got))
    # a position past a line's end, or past the last line, is clamped
    for enc in _ENCODINGS:
        k = len(starts) - 1
        if convert_positions.offset(index, type(rng.start)(line=k, character=1 << 30), enc) != content_ends[k]:
            _fail("lsp_positions", "a column past the end is not clamped to the line", text, enc)
        if convert_positions.offset(index, type(rng.start)(line=k + 1, character=0), enc) != n:
            _fail("lsp_positions", "a line past the end is not the end of the text", text, enc)


class Target(NamedTuple):
    function: Callable[[bytes], None]
    #: inputs are cut to this many bytes: the targets are for speed, and the
    #: linearity tests cover long inputs
    max_len: int
    #: the modules of the target's layer (a name and the modules under it):
    #: only these are instrumented for coverage.  The layers below have
    #: their own targets; instrumenting them here too made each call several
    #: times slower for edges those targets already explore.
    layer: Tuple[str, ...]


_CONVERSIONS = ("irilint.convert",)
TARGETS: Dict[str, Target] = {
    "iri": Target(target_iri, 512, ("irilint.iri",)),
    "to_uri": Target(target_to_uri, 512, _CONVERSIONS),
    "to_iri": Target(target_to_iri, 512, _CONVERSIONS),
}
TARGETS.update({"scan_" + fmt: Target(_scan_target(fmt), 1024, ("irilint.scanners",)) for fmt in inv.formats()})
TARGETS["engine"] = Target(target_engine, 128, ("irilint.engine", "irilint.rules"))
TARGETS["stream"] = Target(target_stream, 512, ("irilint.stream",))
TARGETS["lsp_positions"] = Target(target_lsp_positions, 160, ("irilint.lines", "irilint.lsp.convert_positions"))


def in_layer(module: str, layer: Tuple[str, ...]) -> bool:
    """Whether ``module`` is one of ``layer``'s modules or under one."""
    return any(module == name or module.startswith(name + ".") for name in layer)


def run(name: str, data: bytes) -> None:
    """Run target ``name`` on one input, cut as the fuzzer cuts it."""
    target = TARGETS[name]
    target.function(data[:target.max_len])


def seeds(name: str) -> List[bytes]:
    """The seed inputs of a target: the references extracted from real
    documents (``seeds/references.txt``), the tests' sample document cut
    into lines, and for the scanners the whole-pipeline harness's documents
    of that format (for ``stream``, all of them and the whole sample)."""
    out: List[bytes] = []
    with open(os.path.join(_HERE, "seeds", "references.txt"), "rb") as fh:
        out.extend(line.rstrip(b"\n") for line in fh if line.strip())
    sample = os.path.join(os.path.dirname(_HERE), "samples", "sample.md")
    with open(sample, "rb") as fh:
        lines = fh.read().split(b"\n")
    out.extend(line for line in lines if line.strip())
    if name.startswith("scan_") or name == "lsp_positions":
        import atheris_harness

        fmt = name[5:] if name.startswith("scan_") else None
        for s in atheris_harness.SEEDS:
            if fmt is None or atheris_harness.pick(s)[0] == fmt:
                out.append(s[1:])
        out.append(b"\n".join(lines))
    if name == "stream":  # documents, the format in their first byte as the harness picks it
        import atheris_harness

        out.extend(atheris_harness.SEEDS)
        out.append(bytes([_FORMATS.index("markdown")]) + b"\n".join(lines))
    return out
