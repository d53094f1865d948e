"""Percent-encoding rules (RFC 3986 s2.1, s2.4, s6.2.2; RFC 3987 s3.2)."""
from __future__ import annotations

import re
from itertools import accumulate
from operator import methodcaller
from typing import Dict, List, Tuple

from irilint.chars import distinct_non_ascii, kept_encoded_in_iri, marks_end, to_nfc
from irilint.iri import would_make_dot_segment
from irilint.rules.context import NOT_JUDGED
from irilint.anatomy import quoted

from .registry import rule

_ESCAPE_RE = re.compile(r"%([0-9A-Fa-f]{2})")
#: the escapes of unreserved characters: the matches of _ESCAPE_RE that
#: decode to one (no escape starts inside another, so none is missed):
#: letters 41-5A and 61-7A, digits 30-39, "-" 2D, "." 2E, "_" 5F, "~" 7E,
#: written as classes (an alternation of the 66 escapes took 6x longer to
#: scan a megabyte of other escapes)
_UNRESERVED_ESCAPE_RE = re.compile(r"%([46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)", re.IGNORECASE | re.ASCII)
_LOWER_ESCAPE_RE = re.compile(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")
_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_DOUBLE_RE = re.compile(r"%25([0-9A-Fa-f]{2})")


@rule(name="bad-percent-encoding", code="IRI401", family="percent-encoding", severity="error",
      fix="safe", needs=("percent",))
def bad_percent_encoding(ctx):
    """A ``%`` that is not followed by two hexadecimal digits.

    ## What it does
    Flags ``%`` signs that start no valid escape, like ``100%`` or ``%zz``.

    ## Why
    A ``%`` must start an escape.  Browsers and servers handle a stray one
    differently: some pass it on, some reject the request, some decode what
    follows.

    ## Example
    ``http://example.org/100%`` becomes ``http://example.org/100%25``.

    ## Fix safety
    Safe: ``%25`` is the percent sign the stray ``%`` stands for.  Decoders
    that accept a stray ``%`` read it as itself, which is what ``%25``
    decodes to; strict ones reject the reference, and the fix makes it
    valid.  It is this rule's own repair: ``to_uri`` leaves a stray ``%``
    as it is, since RFC 3987 s3.1 says the percent sign must not be
    converted.  Unsafe in a host: a percent sign is no character of a
    domain name, encoded or not, so ``%25`` there only trades this error
    for ``idn-invalid``; which host was meant is for a person to decide.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s2.1 and s2.4; RFC 3987 s3.1.
    """
    for p in ctx.ref.problems:
        if p.kind != "bad-percent-encoding":
            continue
        # In a host, "%25" is still no letter of a domain name: the fix
        # would trade this error for idn-invalid, so it is not applied alone.
        yield ctx.report(p.start, p.end, "'%%' is not followed by two hexadecimal digits in the %s"
                         % p.component, [ctx.replace("Encode '%' as '%25'", p.start, p.start + 1, "%25",
                                                     p.component != "host")])


@rule(name="lowercase-percent-encoding", code="IRI402", family="percent-encoding", severity="info",
      fix="safe", needs=("percent",))
def lowercase_percent_encoding(ctx):
    """A percent-encoding written with lowercase hex digits.

    ## What it does
    Flags escapes like ``%e2`` and offers ``%E2``.

    ## Why
    RFC 3986 says producers should use uppercase; mixed case makes equal
    URIs look different to tools that compare strings (caches, link
    checkers, allow-lists).

    ## Example
    ``http://example.org/%e2%82%ac`` becomes ``http://example.org/%E2%82%AC``.

    ## Fix safety
    Safe: hex case is an equivalence (RFC 3986 s6.2.2.1).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s2.1, s6.2.2.1.
    """
    value = ctx.value
    for m in _RUN_RE.finditer(value):
        run = m.group()
        if not _LOWER_ESCAPE_RE.search(run):
            continue
        fixed = run.upper()
        yield ctx.report(m.start(), m.end(), "percent-encoding %s uses lowercase hex digits" % run,
                         [ctx.replace("Uppercase to %s" % fixed, m.start(), m.end(), fixed, True)])


#: ASCII and the well-formed UTF-8 sequences (The Unicode Standard, Table 3-7)
_UTF8_RUN_RE = re.compile(
    rb"(?:[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})+")


def _bad_utf8(octets: bytes):
    """Yield (start, end, reason) of octet ranges that are not strict UTF-8."""
    i, n = 0, len(octets)
    while i < n:
        # what the walk would pass over finding nothing (ASCII and strict
        # UTF-8 sequences) is passed in one match, in C
        ok = _UTF8_RUN_RE.match(octets, i)
        if ok is not None:
            i = ok.end()
            if i == n:
                break
        b = octets[i]
        size = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if size == 0:
            if 0x80 <= b <= 0xBF:
                reason = "a continuation byte with no lead byte"
            elif b in (0xC0, 0xC1):
                reason = "an overlong encoding (lead byte %02X)" % b
            else:
                reason = "byte %02X, which never occurs in UTF-8" % b
            yield i, i + 1, reason
            i += 1
            continue
        chunk = octets[i:i + size]
        if len(chunk) < size or any(not 0x80 <= c <= 0xBF for c in chunk[1:]):
            # truncated: count the continuation bytes that are there
            k = 1
            while k < len(chunk) and 0x80 <= chunk[k] <= 0xBF:
                k += 1
            yield i, i + k, "a truncated UTF-8 sequence"
            i += k
            continue
        if b == 0xE0 and chunk[1] < 0xA0 or b == 0xF0 and chunk[1] < 0x90:
            yield i, i + size, "an overlong encoding"
        elif b == 0xED and chunk[1] >= 0xA0:
            yield i, i + size, "an encoded surrogate (U+%04X)" % (
                ((b & 0x0F) << 12) | ((chunk[1] & 0x3F) << 6) | (chunk[2] & 0x3F))
        elif b == 0xF4 and chunk[1] >= 0x90:
            yield i, i + size, "a code point above U+10FFFF"
        i += size


@rule(name="percent-encoded-non-utf8", code="IRI403", family="percent-encoding", severity="warning",
      needs=("percent",))
def percent_encoded_non_utf8(ctx):
    """Percent-encoded octets that are not strict UTF-8.

    ## What it does
    Flags escapes that do not form legal UTF-8: Latin-1 and other legacy
    encodings (``%E9``), stray continuation bytes, truncated sequences,
    and, as errors, overlong encodings and encoded surrogates.

    ## Why
    IRIs use UTF-8 only (RFC 3987 s3.2 forbids guessing another encoding),
    so such text can never be shown as characters.  Overlongs and encoded
    surrogates are worse: they are the classic way to smuggle ``/`` or
    ``..`` past a filter that decodes differently from the server.

    ## Example
    ``http://example.org/r%E9sum%E9`` (Latin-1) should be
    ``http://example.org/r%C3%A9sum%C3%A9``; ``%C0%AF`` is an overlong ``/``.

    ## Fix safety
    No fix: the intended encoding cannot be known.

    ## Reference
    RFC 3987 s3.2 steps 4 and 6; RFC 3629 s3 and s10.
    """
    from irilint.findings import Severity

    value = ctx.value
    for m in _RUN_RE.finditer(value):
        octets = bytes.fromhex(m.group().replace("%", ""))
        if octets.isascii():
            continue
        for s, e, reason in _bad_utf8(octets):
            start, end = m.start() + 3 * s, m.start() + 3 * e
            severe = "overlong" in reason or "surrogate" in reason
            yield ctx.report(start, end, "%s is not UTF-8: %s" % (value[start:end], reason),
                             severity=Severity.ERROR if severe else None)


@rule(name="percent-encoded-unreserved", code="IRI404", family="percent-encoding", severity="info",
      fix="sometimes", needs=("percent",))
def percent_encoded_unreserved(ctx):
    """An unreserved ASCII character that is percent-encoded.

    ## What it does
    Flags escapes of letters, digits, ``-``, ``.``, ``_`` and ``~``, which
    never need encoding.

    ## Why
    They are equivalent to the plain character (RFC 3986 s6.2.2.2) but
    defeat string comparison and hide readable text; they are also a
    favourite of filter-evasion tricks (``%2E%2E``).

    ## Example
    ``http://example.org/%7Euser`` becomes ``http://example.org/~user``.

    ## Fix safety
    Safe, except where decoding creates a ``.`` or ``..`` segment: that
    segment would be removed on resolution while the encoded one is not, so
    the fix is offered as unsafe there, and where a ``%2E`` in a host
    would split a label.  Unsafe too at the very end of a
    reference in running text, where a decoded ``.``, ``_`` or ``~`` reads
    as punctuation after the link (scanners and autolinkers drop it).
    Not offered where the decoded reference would have a finding it does
    not have: a look-alike, bidi or host rule in force flags the decoded
    character (an ``A`` between Hebrew and Han letters makes the segment
    mixed-script), or another rule reports once more (a ``.`` segment,
    ``%257%41`` decoded to the double encoding ``%257A``).  In a component
    that shows non-ASCII text, the escapes are judged together too, as
    ``--fix`` decodes them in one pass: each ``%2e`` of ``ש%2e%2ea`` is
    harmless alone, but ``ש..a`` ends a right-to-left run with a number
    separator.  So are adjacent escapes when one of them decodes to a hex
    digit: each ``%41`` of ``%25%41%41`` is harmless alone, but both
    decoded give ``%25AA``, which reads as double encoding.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3986 s2.3, s6.2.2.2, s5.2.4.
    """
    value = ctx.value
    #: the escapes of unreserved characters in components that show
    #: non-ASCII text, by component: --fix decodes them all in one pass
    together: Dict[int, List[Tuple[int, int, str]]] = {}
    #: (match, the character it encodes, beside non-ASCII text) of each escape
    escapes = []
    #: escape start -> the edits of its run of adjacent escapes, for runs
    #: that decode to a hex digit: --fix decodes a run in one pass, and
    #: digits decoded side by side can complete an escape no single
    #: decoding makes ("%25%41%41" -> "%25AA", "%%41%42" -> "%AB")
    runs: Dict[int, List[Tuple[int, int, str]]] = {}
    run: List[Tuple[int, int, str]] = []
    for m in _UNRESERVED_ESCAPE_RE.finditer(value):
        ch = chr(int(m.group(1), 16))
        beside = _beside_non_ascii(ctx, m.start())
        if beside:
            together.setdefault(_component_key(ctx, m.start()), []).append((m.start(), m.end(), ch))
        escapes.append((m, ch, beside))
        if not run or run[-1][1] != m.start():
            _keep_hex_run(run, runs)
            run = []
        run.append((m.start(), m.end(), ch))
    _keep_hex_run(run, runs)
    for m, ch, beside in escapes:
        in_host = _in_host(ctx, m.start())
        dots = ch == "." and would_make_dot_segment(value, m.start(), m.end(), ".")
        # A label dot: "%2Eé" -> ".é" changes the labels IDNA converts.
        label = ch == "." and in_host
        if _composes(value, m.start(), m.end(), ch):
            continue  # "%4E" + U+0301: decoded, NFC would make it "Ń"
        sch = ctx.ref.scheme
        if sch is not None and sch.start <= m.start() < sch.end:
            # "%41http:" is no scheme (invalid-scheme says so); decoded,
            # "Ahttp:" would be one: the reference would change structure.
            yield ctx.report(m.start(), m.end(), "%s encodes %s in what should be the scheme"
                             % (m.group(), quoted(ch)))
            continue
        title = "Decode %s to %s" % (m.group(), quoted(ch))
        edits = [(m.start(), m.end(), ch)]
        stray = _stray_percent_before(value, m.start(), m.end(), ch)
        if stray is not None:
            # "%%41B" -> "%AB" would make a new escape of the stray "%":
            # it is encoded in the same fix ("%25AB").
            edits.insert(0, (stray, stray + 1, "%25"))
            title += " and encode the stray '%' before it as '%25'"
        why = " (unsafe: creates a dot-segment)" if dots else " (unsafe: splits a host label)" if label else ""
        message = "%s encodes the unreserved character %s, which needs no encoding" % (m.group(), quoted(ch))
        flagged = (ctx.decoding_flagged(m.start(), m.end(), ch) if in_host or beside
                   else None) or (
            ctx.edit_adds_finding(edits) if _may_restructure(value, m.start(), m.end(), ch, in_host) else None)
        siblings = together.get(_component_key(ctx, m.start()), ()) if not in_host else ()
        if flagged is None and len(siblings) > 1:
            # Each escape of "ש%2e%2ea" decodes harmlessly alone, but --fix
            # decodes both at once: "ש..a" ends a right-to-left run with
            # a number separator.  Judged together, as they will be applied.
            flagged = ctx.edit_adds_finding(list(siblings))
        if flagged is None and m.start() in runs:
            flagged = ctx.edit_adds_finding(runs[m.start()])
        if flagged is not None:
            # "ם%41日本": decoded, the "A" makes the segment mixed-script;
            # "%2e" alone in a segment becomes a dot-segment; "%257%41"
            # becomes "%257A", which reads as double encoding
            yield ctx.report(m.start(), m.end(), message + "; decoded, %s would flag it" % flagged)
            continue
        fix = ctx.fix(title + why, edits, not (dots or label))
        yield ctx.report(m.start(), m.end(), message, [fix])


@rule(name="double-percent-encoding", code="IRI405", family="percent-encoding", severity="warning",
      needs=("percent",))
def double_percent_encoding(ctx):
    """A percent-encoding that was encoded again (``%25`` + two hex digits).

    ## What it does
    Flags ``%25`` followed by two hexadecimal digits, such as ``%2520``.

    ## Why
    It usually means a URI went through an encoder twice: the link then
    asks for a literal ``%20`` instead of a space.  Double encoding is also
    used to slip ``../`` past filters that decode once.

    ## Example
    ``http://example.org/a%2520b`` was probably ``http://example.org/a%20b``.

    ## Fix safety
    No fix: a literal ``%`` followed by hex digits is sometimes meant.

    ## Reference
    RFC 3986 s2.4.
    """
    value = ctx.value
    for m in _DOUBLE_RE.finditer(value):
        yield ctx.report(m.start(), m.end(), "%s looks double-encoded: it decodes to the escape '%%%s', not to a character"
                         % (m.group(), m.group(1)))


@rule(name="percent-encoded-text", code="IRI406", family="percent-encoding", severity="hint",
      fix="safe", needs=("percent",))
def percent_encoded_text(ctx):
    """Readable text that is percent-encoded where an IRI could show it.

    ## What it does
    Flags runs of escapes that RFC 3987 s3.2 would decode to readable
    characters (``%D7%A9%D7%9C%D7%95%D7%9D`` is ``שלום``), and offers the
    IRI form.  One hint per reference, listing its runs: a title encoded
    word by word is one thing to convert.  Left alone: runs that decode to
    a delimiter look-alike or a
    compatibility character (their rules offer to encode them), and runs in
    a component that, decoded, mixes directions or has a weak edge (the
    bidi guidelines' remedy is to keep such a component encoded), and runs
    whose decoded text a look-alike, bidi or host rule in force flags in
    the reference (a Cyrillic ``р`` in ``pay%D1%80al``): shown, it would
    mislead, so it stays encoded, as ``irilint convert --to iri`` keeps it.
    A run is judged in stretches of non-ASCII characters: ASCII escapes and
    escapes s3.2 keeps encoded cut it.

    ## Why
    IRIs exist so that people read and write identifiers in their own
    script.  A run of ``%XX`` hides the text from readers and reviewers,
    including whatever spoof it may hold.

    ## Example
    ``http://example.org/%E6%97%A5%E6%9C%AC`` becomes
    ``http://example.org/日本``.

    ## Fix safety
    Safe: the conversion follows RFC 3987 s3.2 and maps back to the same
    URI; characters s3.2 keeps encoded (bidi controls, invisibles, spaces)
    stay encoded.  Not offered for part of a longer run when decoding it
    would give the reference a finding it does not have (``%2e%C3%A9%2e``
    would become two lowercase runs): the finding says so.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s3.2.
    """
    value = ctx.value
    q = ctx.ref.query
    units = []  # (start, end, escapes, decoded text), in the reference's order
    held = []   # the same, with why it is not converted now
    for m in _RUN_RE.finditer(value):
        octets = bytes.fromhex(m.group().replace("%", ""))
        if octets.isascii():
            continue
        in_query = q is not None and q.start <= m.start() < q.end
        for a, z, text in _text_units(octets, in_query):
            start, end = m.start() + 3 * a, m.start() + 3 * z
            run = value[start:end]
            if _composes(value, start, end, text):
                continue  # "e%CC%81": decoded, NFC would compose it into "é"
            if _keep_encoded_for_bidi(ctx, start, end):
                continue
            if any(_shown_as_something_else(c) for c in text):
                continue  # look-alikes stay encoded: their rules encode them
            flagged = ctx.decoding_flagged(start, end, text)
            if flagged is not None and flagged != NOT_JUDGED:
                continue  # decoded, a look-alike, bidi or host rule flags it
            added = flagged or (ctx.edit_adds_finding([(start, end, text)]) if (start, end) != m.span() else None)
            if added is not None:
                # Part of a run: "%2e%C3%A9%2e" -> "%2eé%2e" makes two
                # lowercase runs of one.  Reported all the same (another
                # fix may lift the reason), but not converted for now.
                held.append((start, end, run, text, added if added == NOT_JUDGED
                             else "decoded now, %s would report once more" % added))
                continue
            units.append((start, end, run, text))
    if not units and not held:
        return
    # One hint per reference: the reference is what a reader would see as
    # text, and one link title encoded word by word ("%D7%99%D7%A8_%D7%94")
    # is one thing to convert, not one per word.
    every = sorted(units + [h[:4] for h in held])
    start, end = every[0][0], every[-1][1]
    if len(every) == 1:
        _s, _e, run, text = every[0]
        message = "%s is the percent-encoded text %s" % (run, quoted(text))
        title = "Convert to IRI: %s" % quoted(text)
    else:
        shown = ", ".join(quoted(text) for _s, _e, _run, text in every[:_MAX_RUNS_SHOWN])
        if len(every) > _MAX_RUNS_SHOWN:
            shown += " and %d more" % (len(every) - _MAX_RUNS_SHOWN)
        message = "%d runs of escapes are percent-encoded text: %s" % (len(every), shown)
        title = "Convert to IRI: decode %d runs of escapes to text" % len(units)
    if held:
        message += "; not converted: %s" % "; ".join(
            "%s (%s)" % (run, why) for _s, _e, run, _t, why in held[:_MAX_RUNS_SHOWN])
    edits = [(s, e, text) for s, e, _run, text in units]
    if len(edits) > 1:
        # Each decoding was judged alone; together they must add nothing
        # either.
        added = ctx.edit_adds_finding(edits)
        if added is not None:
            message += "; not converted together: %s" % (
                added if added == NOT_JUDGED else "decoded at once, %s would report once more" % added)
            edits = []
    yield ctx.report(start, end, message, [ctx.fix(title, edits, True)] if edits else [])


#: Decoded runs a percent-encoded-text message lists before "and N more".
_MAX_RUNS_SHOWN = 6


def _text_units(octets: bytes, in_query: bool):
    """(first octet, end octet, text) of each stretch of a run that RFC 3987
    s3.2 decodes to non-ASCII characters: the run is cut at ASCII octets,
    at octets that are not UTF-8 and at characters s3.2 keeps encoded.
    Each stretch is judged alone, so a fix that decodes or removes an
    escape between two of them (``%C3%A9%74%C3%A9``) adds no finding."""
    # Python's strict decoder takes exactly the sequences the walk took,
    # and surrogateescape gives each other octet a lone surrogate of its
    # own (see context._decode_run): the units are the runs of characters
    # that are not ASCII, not such a surrogate and not kept encoded.
    decoded = octets.decode("utf-8", "surrogateescape")
    out = [c for c in distinct_non_ascii(decoded) if kept_encoded_in_iri(ord(c), in_query)]
    table = _NOT_TEXT
    if out:
        table = dict(_NOT_TEXT)
        table.update(dict.fromkeys(map(ord, out), " "))
    found = list(_UNIT_RUN_RE.finditer(decoded.translate(table)))
    if not found:
        return []
    bounds = list(accumulate(map(len, map(_ENCODE_OCTETS, decoded)), initial=0))
    return [(bounds[m.start()], bounds[m.end()], m.group()) for m in found]


#: str.translate: what ends a text unit, to " ": ASCII characters, and the
#: lone surrogates that stand for octets that are not UTF-8
_NOT_TEXT = dict.fromkeys(list(range(128)) + list(range(0xDC80, 0xDD00)), " ")
_UNIT_RUN_RE = re.compile("[^ ]+")
#: a decoded character -> its octets (one for a surrogateescape'd octet)
_ENCODE_OCTETS = methodcaller("encode", "utf-8", "surrogateescape")


def _keep_encoded_for_bidi(ctx, start: int, end: int) -> bool:
    """Whether the run ``[start, end)`` lies in a component that, decoded,
    mixes directions or has a weak edge: percent-encoding the whole
    component is the bidi guidelines' remedy (the unsafe fix of
    ``bidi-mixed-direction`` / ``bidi-component-edge``), so decoding it
    again would undo that fix and make ``--fix --unsafe-fixes`` oscillate."""
    import bisect

    from .bidi import breaks_component_rules

    comps = ctx.components()  # sorted and disjoint: bisect, not a scan per run
    starts = ctx.__dict__.get("_component_value_starts")
    if starts is None:
        starts = ctx.__dict__["_component_value_starts"] = [c.start for c in comps]
    k = max(bisect.bisect_right(starts, start) - 1, 0)
    while k < len(comps) and comps[k].start < end:
        c = comps[k]
        if c.kind != "host-label" and start < c.end and breaks_component_rules(c.text):
            return True
        k += 1
    return False


def _shown_as_something_else(ch: str) -> bool:
    """A delimiter look-alike or a compatibility character (full-width forms
    included): ``delimiter-lookalike``, ``fullwidth-form`` and
    ``compatibility-character`` offer to percent-encode it, so decoding it
    would undo their fixes."""
    import unicodedata

    from .lookalike import delimiter_imitated

    return unicodedata.normalize("NFKC", ch) != unicodedata.normalize("NFC", ch) \
        or delimiter_imitated(ch) is not None


_HEXDIGITS = frozenset("0123456789ABCDEFabcdef")


def _component_key(ctx, i: int) -> int:
    """Which component holds value offset ``i`` (its view start; -1 for
    none), to group the escapes of one component."""
    comp = ctx.component_at(ctx.view.index_of(i))
    return -1 if comp is None else comp.view_start


def _beside_non_ascii(ctx, i: int) -> bool:
    """Whether the component holding value offset ``i`` shows non-ASCII
    text: only there can a decoded ASCII character join a mixed-script word
    or a bidi component (in a host, the host rules judge it anyway)."""
    comp = ctx.component_at(ctx.view.index_of(i))
    return comp is None or not comp.text.isascii()


def _may_restructure(value: str, start: int, end: int, ch: str, in_host_label: bool) -> bool:
    """Whether decoding the escape ``value[start:end]`` to ``ch`` may give
    another rule more to report: it splits or ends a run of escapes
    (lowercase runs, percent-encoded text), follows a ``%`` (double
    encoding), makes a ``.`` (dot-segments) or changes a host label.  An
    escape with none of these is judged only by the look-alike, bidi and
    host rules (the whole judgement reruns every rule: too dear for every
    ``%7E``)."""
    return (ch == "." or in_host_label or value[end:end + 1] == "%"
            or "%" in value[max(start - 4, 0):start])


def _keep_hex_run(run: List[Tuple[int, int, str]], runs: Dict[int, List[Tuple[int, int, str]]]) -> None:
    """Note ``run`` (adjacent escapes' edits) under each escape's start when
    it has two escapes or more and one of them decodes to a hex digit."""
    if len(run) > 1 and any(ch in _HEXDIGITS for _, _, ch in run):
        for start, _, _ in run:
            runs[start] = run


def _stray_percent_before(value: str, start: int, end: int, ch: str):
    """The offset of a stray ``%`` that decoding ``value[start:end]`` to the
    hex digit ``ch`` would turn into an escape (``%%41B``, ``%4%41``), or
    None."""
    if ch not in _HEXDIGITS:
        return None
    if start >= 1 and value[start - 1] == "%" and value[end:end + 1] in _HEXDIGITS and end < len(value):
        return start - 1
    if start >= 2 and value[start - 2] == "%" and value[start - 1] in _HEXDIGITS:
        return start - 2
    return None


def _composes(value: str, start: int, end: int, decoded: str) -> bool:
    """Whether ``decoded``, put in place of ``value[start:end]``, would
    not be in NFC with its neighbours (the character before, the combining
    marks after): the not-nfc fix would then change the characters, and so
    the URI, which the escape kept apart."""
    k = marks_end(value, end)
    s = value[start - 1:start] + decoded + value[end:max(k, end + 1)]
    # to_nfc: a run of marks of classes out of order is not sorted by insertion
    return not s.isascii() and to_nfc(s) != s


def _in_host(ctx, i: int) -> bool:
    host = ctx.ref.host
    return host is not None and host.start <= i < host.end
