"""The Turtle scanner and the bare-IRI finder give exactly the candidates
they gave before their speed-ups (issue 18).

The reference is the code as it was, copied here: ``_old_turtle`` (with its
regexes and ``_old_context``) and ``_old_iter_iris``, which share only the
helpers that did not change.  Compared with hypothesis over generated
Turtle / N-Triples / N3 / SPARQL documents and over prose, on every field
of every candidate; and the new loops stay linear.
"""
from __future__ import annotations

import gc
import re
import time
from typing import Iterator, List, Optional

from hypothesis import example, given, settings
from hypothesis import strategies as st

from irilint.scanners import turtle
from irilint.scanners._common import POSSESSIVE_QUANTIFIERS, finalize
from irilint.scanners._decode import HEX_U, TURTLE_ESCAPES, decode_backslashes
from irilint.scanners.base import Candidate
from irilint.scanners.text import (
    _ALNUM, _ALPHA, _ANGLE_RUN_RX, _ASCII_RUN_RX, _BLANK_LINE_RX, _COLON_RX, _DELIMITED_WINDOWS,
    _RUN_RX, _SCHEME_CHARS, MAX_ANGLE_LENGTH, MAX_SCHEME_LENGTH, SCHEMES_WITHOUT_SLASHES,
    _after_backslash, _angle_candidate, _bidi_wrap_end, _bracket_end, _cjk_prose_end,
    _glued_host_end, _is_quote_like, _trim_end, find_iris, iter_iris, scan_decoded)

_IRI_COLON_RX = _COLON_RX

# ---- the reference: the scanner as it was -------------------------------

_TOKEN_RX = re.compile(r"<|#|\"\"\"|'''|[\"']")
# What holds no candidate, passed in one match up to the next token that
# may hold one ("<", "#", a quote): text outside terms, short literals with
# neither "\\" nor ":" (the bare IRIs of a literal start at a colon), and
# comments without ":" up to their line end.  Three quotes open a long
# literal, never passed; a short one that does not close on its line is
# left to the token's own handling.  Possessive, so that a run of many
# short literals keeps no state to backtrack into (see
# POSSESSIVE_QUANTIFIERS; without them the tokens are searched one by one).
_NOTHING_RX = re.compile(
    r"""(?:[^<#"']++|"(?!"")[^"\\\n:]*+"|'(?!'')[^'\\\n:]*+'|#[^\n:]*+(?![^\n]))*+"""
    if POSSESSIVE_QUANTIFIERS else "")
_IRIREF_RX = re.compile(
    r'<((?:[^\x00-\x20<>"{}|^`\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*)>')
# The lenient form: an absolute IRI with spaces, on one line.
_SPACED_IRIREF_RX = re.compile(
    r'<([A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x1f<>"{}|^`\\]*[^\x00-\x20<>"{}|^`\\])>')
_STRING_BODY_RX = {
    '"': re.compile(r'(?:[^"\\\n]|\\.)*'),
    "'": re.compile(r"(?:[^'\\\n]|\\.)*"),
}
_DECLARATION_RX = re.compile(
    r"(?:(@?prefix)[ \t\r\n]+[^\s:]*:|(@?base))[ \t\r\n]*$", re.IGNORECASE)
_EMPTY_UCHARS: dict = {}
_BLANKS = " \t\r\n"



def _old_context(text: str, lt: int) -> str:
    lo = lt - 200 if lt > 200 else 0
    # The declaration pattern ends its match with blanks up to the IRI, so
    # the last character before them tells which declaration it can be,
    # and where its match must start: "base" ends there, or "prefix",
    # blanks and a name end at the colon.  One match tried there answers
    # what a search from every start in the window would.
    k = lt
    while k > lo and text[k - 1] in _BLANKS:
        k -= 1
    if k == lo:
        return "turtle-iri"
    last = text[k - 1]
    if last == ":":
        i = k - 1  # the name: back to a space or another colon
        while i > lo and text[i - 1] != ":" and not text[i - 1].isspace():
            i -= 1
        h = i
        while h > lo and text[h - 1] in _BLANKS:
            h -= 1
        if h - 6 >= lo and _DECLARATION_RX.match(text, h - 6, lt) is not None:
            return "turtle-prefix"
    elif last in "eE" and k - 4 >= lo and _DECLARATION_RX.match(text, k - 4, lt) is not None:
        return "turtle-base"
    return "turtle-iri"


def _old_turtle(text: str, fast: bool) -> Iterator[Candidate]:
    """The candidates of ``_scan_turtle`` before ``finalize``, in document
    order (the tokens are read left to right), found as they are asked for."""
    n = len(text)
    skip = _NOTHING_RX.match if fast else None
    token, iriref, spaced = _TOKEN_RX.search, _IRIREF_RX.match, _SPACED_IRIREF_RX.match
    find, colon = text.find, _IRI_COLON_RX.search
    pos = 0
    while True:
        if skip is not None:
            start = skip(text, pos).end()
            if start >= n:
                break
        else:
            m = token(text, pos)
            if m is None:
                break
            start = m.start()
        first = text[start]
        if first == "<":
            iri = iriref(text, start) or spaced(text, start)
            if iri is None:
                pos = start + 1  # "<" as an operator in SPARQL
                continue
            lo, hi = iri.span(1)
            if find("\\", lo, hi) < 0:  # no escape: the text is the value
                yield Candidate(lo, hi, text[lo:hi], None, _old_context(text, start))
            else:
                piece = decode_backslashes(text, lo, hi, _EMPTY_UCHARS, HEX_U)
                yield piece.candidate(0, len(piece.value), _old_context(text, start))
            pos = iri.end()
        elif first == "#":  # a comment, to the end of its line
            nl = find("\n", start)
            end = nl if nl >= 0 else n
            yield from _old_iter_iris(text, start + 1, end, "comment")
            pos = end
        else:  # a string literal
            if text.startswith(first * 3, start):  # long: to the same three quotes
                lo = start + 3
                close = find(first * 3, lo)
                hi = close if close >= 0 else n
                pos = close + 3 if close >= 0 else n
            else:
                lo = start + 1
                hi = _STRING_BODY_RX[first].match(text, lo).end()
                pos = hi + 1 if hi < n and text[hi] == first else hi
            if find("\\", lo, hi) < 0:
                # No escape: the literal is its own text, searched in place
                # (find_iris starts where "://" or a "mailto:"-like colon is).
                if colon(text, lo, hi) is not None:
                    yield from _old_iter_iris(text, lo, hi, "string")
                continue
            piece = decode_backslashes(text, lo, hi, TURTLE_ESCAPES, HEX_U)
            yield from scan_decoded(piece, "string")


def _old_iter_iris(text: str, lo: int = 0, hi: Optional[int] = None,
              context: str = "bare") -> Iterator[Candidate]:
    """The candidates of :func:`find_iris`, found as they are asked for (a
    large document is not scanned ahead of its check)."""
    if hi is None:
        hi = len(text)
    last_end = lo
    search = _COLON_RX.search
    pos = lo
    while True:
        m = search(text, pos, hi)
        if m is None:
            return
        colon = m.start()
        pos = colon + 1
        # Walk back over scheme characters, never into the previous IRI.
        floor = max(last_end, colon - MAX_SCHEME_LENGTH)
        s = colon
        while s > floor and text[s - 1] in _SCHEME_CHARS:
            s -= 1
        if s == floor and s > last_end and text[s - 1] in _SCHEME_CHARS:
            continue  # a word longer than any scheme
        # A scheme starts with a letter: skip leading digits and "+-.".
        while s < colon and text[s] not in _ALPHA:
            s += 1
        if s == colon:
            continue
        if s - 1 >= lo and text[s - 1] == "\\" and text[s] == "f" and colon - s > 2:
            # A roff font escape glued to the scheme: "\fBhttps://..." in
            # man pages.  Skip "f" and its font name.
            s += 2 if text[s + 1] != "(" else 4
            while s < colon and text[s] not in _ALPHA:
                s += 1
            if s == colon:
                continue
        elif s - 2 >= lo and text[s - 2:s] == "\\(" and colon - s > 2:
            s += 2  # "\(aqhttp://": a roff special character glued to it
            if s >= colon or text[s] not in _ALPHA:
                continue
        elif s - 3 >= lo and text[s - 3:s] == "\\f(" and colon - s > 2:
            s += 2  # "\f(CWhttp://": a two-letter roff font name
            if s >= colon or text[s] not in _ALPHA:
                continue
        elif s > lo and text[s - 1] in _ALNUM:
            continue  # glued to a preceding word: "1http://", "xmailto:"
        slashes = m.end() - colon == 3
        if not slashes and text[s:colon].lower() not in SCHEMES_WITHOUT_SLASHES:
            continue  # "x.mailto:" matched the lookbehind but is another word
        body = colon + (3 if slashes else 1)  # the IRI needs text after this
        if not slashes and text[body:body + 1] == ":":
            continue  # "File::Spec", "std::" - a name, not a scheme
        if not slashes and not text[s:colon].islower() and text[s:colon].upper() not in ("MAILTO", "URN", "TEL"):
            continue  # "DATA:", "Tag:" in prose are labels, not references
        if slashes and body < hi and _is_quote_like(text[body]):
            continue  # "http://'" or "https://”" in prose about URLs

        # <http://...> and <URL:http://...>: the brackets delimit it.
        angle = False
        if s > lo:
            if text[s - 1] == "<":
                angle = True
            elif (s - 5 >= lo and text[s - 5] == "<"
                  and text[s - 4:s].lower() == "url:"):
                angle = True
        if angle:
            limit = min(hi, colon + MAX_ANGLE_LENGTH)
            end = _ANGLE_RUN_RX.match(text, colon + 1, limit).end()
            if (end < limit and text[end] == ">"
                    and _BLANK_LINE_RX.search(text, colon, end) is None):
                if end > body:
                    yield _angle_candidate(
                        text, s, end, "angle" if context == "bare" else context,
                        _after_backslash(text, s))
                    last_end = pos = end
                continue
            # No closing ">": an ordinary IRI after a stray "<".

        ascii_text = text.isascii()
        end = (_ASCII_RUN_RX if ascii_text else _RUN_RX).match(text, colon + 1, hi).end()
        if s > lo or end < hi or context not in _DELIMITED_WINDOWS:
            # In prose.  (A reference that fills its whole window -- a
            # quoted string, a code span -- is delimited by it: RFC 3986
            # Appendix C; its brackets and punctuation are its own.)
            if not ascii_text:
                end = _bidi_wrap_end(text, lo, s, end)
            end = _bracket_end(text, body, end, ascii_text)
            if not ascii_text:
                end = _cjk_prose_end(text, body, end, slashes)
                if slashes:
                    end = _glued_host_end(text, body, end)
        end = _trim_end(text, s, end)
        if end > body:
            yield Candidate(s, end, text[s:end], None, context,
                            _after_backslash(text, s))
            last_end = pos = end


def _old_scan_decoded(piece, context: str = "bare") -> List[Candidate]:
    if piece.offsets is None:
        return list(_old_iter_iris(piece.source, piece.base,
                                   piece.base + len(piece.value), context))
    return [piece.candidate(c.start, c.end, c.context)
            for c in _old_iter_iris(piece.value, 0, len(piece.value), context)]


scan_decoded = _old_scan_decoded  # noqa: F811  (what _old_turtle calls)


def _old_scan_turtle(text: str, fast: bool = POSSESSIVE_QUANTIFIERS) -> List[Candidate]:
    return finalize(list(_old_turtle(text, fast)))


# ---- the comparisons ----------------------------------------------------


def _key(cands):
    return [(c.start, c.end, c.value, c.context, None if c.offsets is None else list(c.offsets),
             c.after_backslash, c.template, c.joined_ends) for c in cands]


_IRI_BODY = st.lists(st.sampled_from([
    "http://a.example/x", "https://b.example/p?q=1#f", "HTTP://C.EXAMPLE", "mailto:me@x.example", "urn:isbn:1",
    "ftp://", "http://", "x:y", "12:30", "a", "Z", "0", "/", "#", "?", "=", "&", "%41", "(", ")", "[", "]", ".",
    ",", ";", ":", "!", "'", "*", "_", "~", "-", "+", "@", "$", " ", "\t", "\u00e9", "\u4f8b", "\u3002", "\uff08",
    "\u202e", "\u2066", "\u2069", "\u200b", "\u00a0", "\\u00e9", "\\U0001F600", "\\u003A", "\\u003a", "\\U0000003E",
    "\\u00", "\\x", "\\", "\\\"", "\\'", "\\n", "\\t", "\\\\", "{", "}", "|", "^", "`", "\x01", "\x7f",
    "s" * 33 + "://x", "a" * 32 + "://x", "b" * 31 + "://y", "1http://x", "+a://x", "a.b-c+d://e",
    "http://'x", "http://(x)", "http://x)", "http://x]", "http://[::1]/", "http://x/(y)", "http://x.",
    "data:text/plain,a", "x.mailto:y", "File::Spec", "DATA:x", "Tag:x", "MAILTO:X",
]), max_size=8).map("".join)


def _literal(body, quote, closed):
    return quote + body + (quote if closed else "")


#: a body that starts as an IRI, then anything
_IRI_FIRST_BODY = st.builds("".join, st.tuples(st.sampled_from(
    ["http://", "https://a", "HTTP://a.b", "x+y.z-1://", "mailto:a", "urn:x", "a" * 31 + "://", "ftp://h"]), _IRI_BODY))


_TURTLE_PIECE = st.one_of(
    st.sampled_from([
        "@prefix", "@PREFIX", "PREFIX", "prefix", "PreFix", "@base", "BASE", "Base", "basE", "@BASE", "database",
        "ex:", "p:", ":", "a:b:", "e", "E", " ", "\t", "\n", "\r\n", "\r", " " * 210, ".", ";", ",", "a", "[", "]",
        "(", ")", " " * 190, "@en", "^^xsd:string", "^^<http://www.w3.org/2001/XMLSchema#string>", "?a < ?b", "?x<=3",
        "FILTER(?a<?b)", "<", ">", "<<", "<http:a", "<scheme:with spaces>", "<http://a b>", "<>", "<#me>",
        "<../y>", "#", "# comment http://c.example/\n", "# no colon\n", "# a: b\n", "#<http://in.comment/>",
        "\"", "'", "\"\"", "''", "\"\"\"", "'''", "\"\"\"\"", "\\", "\u2028", "\u00e9", "\u4f8b\u3002",
        "\ufeff", "_:b0", "true", "1.5e3",
    ]),
    st.builds(lambda b, c: "<" + b + (">" if c else ""), _IRI_BODY, st.booleans()),
    st.builds(_literal, _IRI_BODY, st.sampled_from(['"', "'", '"""', "'''"]), st.booleans()),
    st.builds(_literal, _IRI_FIRST_BODY, st.sampled_from(['"', "'", '"""', "'''"]), st.booleans()),
    st.builds(lambda b, c: "<" + b + (">" if c else ""), _IRI_FIRST_BODY, st.booleans()),
    st.builds(lambda b, end: "#" + b + end, _IRI_BODY, st.sampled_from(["\n", "\r\n", "\r", ""])),
)
_TURTLE = st.lists(_TURTLE_PIECE, max_size=30).map("".join)

_TURTLE_EXAMPLES = [
    "@prefix ex: <http://ex.org/> .\n@base <http://b/> .\n<s> <p> \"v\" .",
    "PREFIX p: <http://p/>\nBASE <http://b/>\nSELECT * WHERE { ?s <http://q/> 'http://lit.example/x' }",
    "<s> <p> \"http://a.example/x\" , 'https://b.example/y' ; <q> \"mailto:me@x.example\" .",
    "BASE" + " " * 199 + "<http://b/>", "BASE" + " " * 200 + "<http://b/>", " <a>", "\n<a>", "e <a>", ":\t<a>",
    *("BASE" + " " * k + "<http://b/>" for k in range(190, 200)),
    *("@prefix p:" + "\n" * k + "<http://p/>" for k in range(185, 200)),
    "\"http://a.example/x.\" \"http://a.example/(x)\" \"http://'x\" 'http://x' '''http://y''' \"http://z",
    "\"" + "s" * 33 + "://x\" \"" + "s" * 32 + "://x\" \"1http://x\" \"http://x/\u00e9\"",
    "<http://e/\\u00e9> <http://a b> <http:a <> <>", "\"http://(x\" 'https://(a' \"http://)b\" \"http://'b\" 'http://[b' \"http://]b\"", "'http://a b' \"http://a b\" 'http://a\tb' \"http://a\\\\b\"", "\"http://a\\u003Ab\" 'x:y' \"http://\"",
]


@settings(max_examples=1500, deadline=None)
@given(_TURTLE)
def test_turtle_candidates_equal_the_old_scanners(text):
    expected = _key(_old_scan_turtle(text, True))
    assert _key(_old_scan_turtle(text, False)) == expected
    assert _key(turtle.scan_turtle(text)) == expected
    assert _key(turtle._scan_turtle(text, False)) == expected
    assert _key(turtle.TurtleScanner().scan(text)) == expected


def test_turtle_candidates_equal_the_old_scanners_on_examples():
    for text in _TURTLE_EXAMPLES:
        expected = _key(_old_scan_turtle(text, True))
        assert _key(turtle.scan_turtle(text)) == expected, text
        assert _key(turtle._scan_turtle(text, False)) == expected, text
        assert _key(turtle.TurtleScanner().scan(text)) == expected, text


_PROSE_PIECE = st.sampled_from([
    "http://", "https://", "HTTPS://", "Http://", "ftp://", "mailto:", "Mailto:", "MAILTO:", "urn:", "URN:", "tel:",
    "data:", "DATA:", "tag:", "x.mailto:", "File::", "std::", "1http://", "xhttp://", "+http://", "a.b://",
    "s" * 31, "s" * 40, "<", ">", "<URL:", "<url:", "\\fB", "\\f(CW", "\\(aq", "\\fR", "\\", "\\\\", "(", ")", "[",
    "]", "{", "}", "\uff08", "\uff09", "\u3010", "\u3011", "\u300c", "\u300d", "\uff3d", "\u3002", "\u3001",
    "\uff0c", "\uff1a", "\u4f8b", "\u8a66", "\u53c2\u7167", "\u202a", "\u202b", "\u202c", "\u202e", "\u2066",
    "\u2067", "\u2069", "\u200e", "\u200f", "\u061c", ".", ",", ";", ":", "!", "?", "'", "\"", "*", "_", "~",
    "\u201d", "\u00bb", "\u2026", "\u06d4", "\uff0f", " ", "\t", "\n", "\r\n", "\r", "\n\n", "\n  ", "a",
    "example.com", "www.example.org", "/path", "/p?q=1#f", "@", "%20", "\u00e9", "\u3000", "\u00a0", "\u2028",
    "x", "Z", "0", "//", "://", "-", "+", "é.example",
])
_PROSE = st.lists(_PROSE_PIECE, max_size=30).map("".join)
_CONTEXTS = st.sampled_from(["bare", "string", "code", "comment", "docstring", "markdown-link"])


@settings(max_examples=2000, deadline=None)
@given(_PROSE, st.integers(0, 400), st.integers(0, 400), _CONTEXTS)
@example("see http://a.example/x. and <http://b.example/\n y> too", 0, 400, "bare")
@example("\\fBhttps://a.example/\\fR \\(aqhttp://b.example/ \\f(CWhttp://c.example/", 0, 400, "comment")
@example("\u4f8b http://\u4f8b\u5b50.\u6d4b\u8bd5/\u8def\u5f84\u3002\u8c22\u8c22 (http://www.scriptics.com\u53c2\u7167)", 0, 400, "bare")
@example("\u2066http://a.example/\u2069. mailto:me@x.example, Mailto:x MAILTO:y data:x", 0, 400, "bare")
@example("http://a.example/(x)", 0, 400, "string")
@example("xhttp://a 1http://b " + "s" * 33 + "://c", 0, 400, "code")
@example("\\http://a.example/ \\\\http://b.example/", 1, 400, "bare")
@example(" " + "a" * 32 + "://x " + "b" * 33 + "://y " + "c" * 31 + "://z", 0, 400, "bare")
def test_iter_iris_equals_the_old_one(text, lo, hi, context):
    lo = min(lo, len(text))
    hi = min(max(hi, lo), len(text))
    expected = _key(_old_iter_iris(text, lo, hi, context))
    assert _key(iter_iris(text, lo, hi, context)) == expected
    assert _key(find_iris(text, lo, hi, context)) == expected
    if lo == 0 and hi == len(text):
        assert _key(iter_iris(text, context=context)) == expected


#: every ASCII character and a few others, for the characters at the
#: edges of the shortcut's classes
_CHARS = st.characters(max_codepoint=0x7F) | st.sampled_from("\u00e9\u4f8b\u3002\u202e\u00a0\u2028")
_SCHEME = st.from_regex(r"[A-Za-z][A-Za-z0-9+.\-]{0,33}", fullmatch=True) | st.sampled_from(["", "1a", "+a", "a:b"])
_TERMS = st.lists(st.one_of(
    st.builds(lambda q, sch, rest: q + sch + "://" + rest + q, st.sampled_from(['"', "'"]), _SCHEME,
              st.text(_CHARS, max_size=10)),
    st.builds(lambda rest: "<" + rest + ">", st.text(_CHARS, max_size=10)),
    st.builds(_literal, _IRI_FIRST_BODY, st.sampled_from(['"', "'", '"""', "'''"]), st.booleans()),
    st.builds(lambda b, c: "<" + b + (">" if c else ""), _IRI_FIRST_BODY, st.booleans()),
    st.sampled_from([" ", "\n", " ;\n ", " . ", ",", "BASE ", "@prefix p: ", "# x: http://a/\n", "\u00e9"]),
), max_size=12).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_TERMS)
def test_iri_terms_and_literals_that_start_as_iris_equal_the_old_scanners(text):
    expected = _key(_old_scan_turtle(text, True))
    assert _key(turtle.TurtleScanner().scan(text)) == expected
    assert _key(turtle._scan_turtle(text, False)) == expected


# ---- linear time ----------------------------------------------------------


def _cpu(run, text: str) -> float:
    """The least CPU time of three runs: other work on a shared machine
    only ever adds to it.  Garbage collection off: its passes over every
    live candidate are not the scanner's time."""
    best = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            t = time.process_time()
            run(text)
            best.append(time.process_time() - t)
    finally:
        gc.enable()
    return min(best)


def _ratio_of(run, small: str, large: str) -> float:
    """CPU time of ``run(large)`` over that of ``run(small)`` (repeated
    until the small one takes 30 ms)."""
    t = time.process_time()
    run(small)
    once = time.process_time() - t
    repeat = min(4096, int(0.03 / max(once, 1e-5)) + 1)
    ts = _cpu(lambda t: [run(t) for _ in range(repeat)], small)
    tl = _cpu(lambda t: [run(t) for _ in range(repeat)], large)
    return tl / max(ts, 1e-9)


def _ratio(run, unit: str, size: int = 20_000) -> float:
    """The same for ``unit`` repeated ``size`` and 4x ``size`` times."""
    return _ratio_of(run, unit * size, unit * (4 * size))


_SCAN = lambda text: list(turtle.TurtleScanner().scan(text))  # noqa: E731


def test_the_turtle_step_stays_linear_on_runs_that_open_a_shortcut():
    # Each of these starts the one-match shortcuts (an IRI term, a literal
    # that is one IRI) again and again, or opens one that never closes.
    for unit in ("<", "\"", "'", "#", "\\u", "<a", "\"http://a", "'http://a", "\"http://a.", "<http://a\\u0041",
                 "\"a://", "\"" + "a" * 31 + "://b", "BASE ", "p: ", "e\t"):
        ratio = _ratio(_SCAN, unit)
        assert ratio < 8, (unit, ratio)
    for unit, tail in (("a", ""), (".", "\""), (" ", ">"), ("e", "\"")):
        # one long term or literal that fails at its very end
        for head in ("\"http://x", "'http://x", "<http://x"):
            ratio = _ratio_of(_SCAN, head + unit * 40_000 + tail, head + unit * 160_000 + tail)
            assert ratio < 8, (head, unit, ratio)
