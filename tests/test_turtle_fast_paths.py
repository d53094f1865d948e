"""The Turtle scanner's shortcuts give exactly what the plain scan gives.

Four shortcuts: text that holds no candidate (outside terms, short literals
with neither a backslash nor a colon, comments without a colon) is passed
in one match, not token by token; an IRI term whose text before it (past blanks) does not
end in ":" or "base" is no declaration, without the regex search over the
200 characters before it; an IRI term with no backslash is its own value,
without the decoder; a string literal with no backslash and no colon
where find_iris starts an IRI ("://", "mailto:", ...) holds no IRI, without
decoding it.  The reference below is the scan without them.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import List

from hypothesis import example, given, settings
from hypothesis import strategies as st

from irilint.scanners import turtle
from irilint.scanners._common import finalize
from irilint.scanners._decode import HEX_U, TURTLE_ESCAPES, decode_backslashes
from irilint.scanners.text import find_iris, scan_decoded


def _reference_context(text: str, lt: int) -> str:
    m = turtle._DECLARATION_RX.search(text, max(0, lt - 200), lt)
    if m is None:
        return "turtle-iri"
    return "turtle-prefix" if m.group(1) else "turtle-base"


#: every token that may start a candidate, one searched for at a time
_TOKEN_RX = re.compile(r"<|#|\"\"\"|'''|[\"']")


def _reference_scan(text: str):
    """scan_turtle without its shortcuts."""
    n = len(text)
    out: List = []
    pos = 0
    while pos < n:
        m = _TOKEN_RX.search(text, pos)
        if m is None:
            break
        t = m.group()
        start = m.start()
        if t == "<":
            iri = turtle._IRIREF_RX.match(text, start) or turtle._SPACED_IRIREF_RX.match(text, start)
            if iri is None:
                pos = start + 1
                continue
            lo, hi = iri.span(1)
            piece = decode_backslashes(text, lo, hi, {}, HEX_U)
            out.append(piece.candidate(0, len(piece.value), _reference_context(text, start)))
            pos = iri.end()
        elif t == "#":
            nl = text.find("\n", start)
            end = nl if nl >= 0 else n
            out.extend(find_iris(text, start + 1, end, "comment"))
            pos = end
        else:
            lo = m.end()
            if len(t) == 3:
                close = text.find(t, lo)
                hi = close if close >= 0 else n
                pos = close + 3 if close >= 0 else n
            else:
                hi = turtle._STRING_BODY_RX[t].match(text, lo).end()
                pos = hi + 1 if hi < n and text[hi] == t else hi
            piece = decode_backslashes(text, lo, hi, TURTLE_ESCAPES, HEX_U)
            out.extend(scan_decoded(piece, "string"))
    return finalize(out)


def _key(cands):
    return [(c.start, c.end, c.value, c.context, c.offsets, c.after_backslash, c.template, c.joined_ends)
            for c in cands]


_PIECES = st.sampled_from([
    "@prefix", "@PREFIX", "PREFIX", "prefix", "@base", "BASE", "Base", "basE", "ex:", "p:", ":", "e", "E",
    " ", "\t", "\n", "\r\n", " " * 210, "<http://a.example/x>", "<#me>", "<>", "<../y>", "<http://a b>",
    "<mailto:me@example.org>", "<http://e/\\u00e9>", "<http://e/\\U0001F600>", ".", ";", ",", "a",
    '"x"', '"http://s.example/a"', '"a\\u003Ab"', '"h\\u0074tp://e.example/"', '"x\\"y"', "'y'",
    '"""long http://l.example/ \n text"""', "'''no colon'''", '"mailto:me@x.example"', '"see urn:isbn:1 ok"', '"12:30"', '"tel\\u003A123"', "@en", "^^xsd:string",
    "# comment http://c.example/\n", "?a < ?b", "<http:a", '"', "'", "\\",
    "# no colon here\n", "# a: b\n", "#", "# ends the text", '""', "''", '"""', "'''", '"unterminated\n',
    "'x:y'", '"\u00e9:"', "'it\\'s'", "\u2028", "\r", '""""', "#<http://in.comment/>",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
@example("@prefix ex: <http://ex.org/> .\n@base <http://b/> .\n<s> <p> \"v\" .")
@example("BASE" + " " * 199 + "<http://b/>")
@example("BASE" + " " * 200 + "<http://b/>")
@example('"a\\u003A//b" "x:y" "nocolon"')
@example('# x\n"""a""" ""\'\' "" "b" # y: <http://c/>\n<http://d/>')
@example('"no colon" # no colon\n# http://c.example/ # and more')
def test_turtle_scan_equals_the_scan_without_shortcuts(text):
    expected = _key(_reference_scan(text))
    assert _key(turtle.scan_turtle(text)) == expected
    # Pythons without possessive quantifiers search the tokens one by one
    assert _key(turtle._scan_turtle(text, False)) == expected


_CORPUS = Path(os.environ.get("IRILINT_TEST_CORPUS", Path(__file__).resolve().parents[1] / "bench" / "real-corpus"))
_SUFFIXES = (".ttl", ".nt", ".nq", ".n3", ".trig", ".rq")


def _corpus_sample(limit: int = 300) -> List[Path]:
    if not _CORPUS.is_dir():
        return []
    files = sorted(p for p in _CORPUS.rglob("*") if p.suffix in _SUFFIXES and p.is_file())
    step = max(1, len(files) // limit)
    return files[::step]


def test_turtle_scan_equals_the_scan_without_shortcuts_on_the_corpus_sample():
    files = _corpus_sample()
    samples = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    # Without the corpus (a checkout in CI), a document of the kinds the
    # corpus holds: declarations, N-Triples lines, literals with and without
    # colons and escapes, comments.
    if not samples:
        lines = ["@prefix ex: <http://example.org/ns#> .", "PREFIX foaf: <http://xmlns.com/foaf/0.1/>",
                 "@base <http://example.org/base/> ."]
        for i in range(2000):
            lines.append('<http://example.org/s%d> <http://example.org/p> "value %d"@en .' % (i, i))
            lines.append('<#n%d> ex:see "see http://example.org/doc/%d" ; ex:v "a\\u003A//b%d" .' % (i, i, i))
            lines.append("# note %d: http://example.org/c/%d" % (i, i))
        samples = ["\n".join(lines)]
    assert turtle.FAST_SKIP == (sys.version_info >= (3, 11))
    for text in samples:
        expected = _key(_reference_scan(text))
        assert _key(turtle.scan_turtle(text)) == expected
        assert _key(turtle._scan_turtle(text, False)) == expected


_CONTEXT_PIECES = st.sampled_from([
    "@prefix", "prefix", "PREFIX", "pref\u0131x", "@base", "base", "BASE", "ba\u017fe", "database", "e", "E",
    "p", ":", "ex", "x:y", " ", "\t", "\r\n", "\n", "\u00a0", "\u2028", " " * 60, "<", ">", "#", "a", "\u00e9",
])


@settings(max_examples=800, deadline=None)
@given(st.lists(_CONTEXT_PIECES, max_size=30).map("".join), st.integers(min_value=0, max_value=400))
@example("@prefix ex: ", 12)
@example("x" * 150 + "@prefix p:" + " " * 44, 204)
@example("prefix" + " " * 194 + ":", 201)
@example("pref\u0131x p: ", 11)
@example("a:b: ", 5)
@example("base" + " " * 197, 201)  # "base" begins a character before the window
@example("base" + " " * 196, 200)
@example("prefix p:" + " " * 192, 201)
@example("prefix p:" + " " * 191, 200)
@example("@prefix\u00a0p: ", 11)
def test_the_context_of_an_iri_term_equals_the_search_of_its_window(text, at):
    lt = min(at, len(text))
    assert turtle._context(text, lt) == _reference_context(text, lt)
