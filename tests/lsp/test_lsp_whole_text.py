"""Whole-text changes: the body of a large ``didChange`` read in one piece
(:func:`irilint.lsp.pipes.read_fd`), and the diagnostics texts of the
findings an edit left alone taken over from the previous publication
(:class:`irilint.lsp.diagnostic_json.TextReuse`), tested equal to writing
them anew."""
from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from typing import List, Optional

import pytest
from hypothesis import HealthCheck, given, settings as hsettings
from hypothesis import strategies as st

from irilint.config import Settings
from irilint.engine import Engine
from irilint.lines import LineIndex
from irilint.lsp.diagnostic_json import TextReuse, diagnostic_json, diagnostics_text
from irilint.lsp.pipes import read_fd
from irilint.lsp.transport import FrameParser
from irilint.scanners.markdown import IncrementalMarkdownScanner


def _writer(fd: int, pieces: List[bytes], pause: float, close: bool) -> threading.Thread:
    def run() -> None:
        for piece in pieces:
            os.write(fd, piece)
            time.sleep(pause)
        if close:
            os.close(fd)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.fixture
def pipe():
    """Both ends of a pipe that the test leaves open, closed after it."""
    r, w = os.pipe()
    yield r, w
    os.close(r)
    os.close(w)


def test_read_fd_takes_the_rest_of_a_body_that_comes_in_pieces_in_one_read(pipe):
    r, w = pipe
    pieces = [bytes([65 + i]) * 50_000 for i in range(7)]  # more than a pipe holds
    t = _writer(w, pieces, 0.002, close=False)
    got = read_fd(r, want=350_000, wait=2.0)
    t.join(10)
    assert got == b"".join(pieces)


def test_read_fd_hands_over_what_came_when_the_rest_does_not_come(pipe):
    # a Content-Length too long: the event loop's own wait takes over after
    r, w = pipe
    os.write(w, b"0123456789")
    t0 = time.monotonic()
    got = read_fd(r, want=100, wait=0.05)
    assert got == b"0123456789"
    assert time.monotonic() - t0 < 5


def test_read_fd_stops_at_the_end_of_input_and_says_so_next():
    r, w = os.pipe()
    try:
        t = _writer(w, [b"abc", b"def"], 0.01, close=True)
        got = read_fd(r, want=1000, wait=2.0)
        t.join(10)
        assert got == b"abcdef"
        assert read_fd(r, want=1000, wait=2.0) == b""
    finally:
        os.close(r)


def test_read_fd_hands_over_a_huge_body_in_pieces_of_a_bounded_size(monkeypatch, pipe):
    from irilint.lsp import pipes

    monkeypatch.setattr(pipes, "BODY_GATHER", 10)
    r, w = pipe
    os.write(w, b"abcdefgh")
    t = _writer(w, [b"ijklmnop"], 0, close=False)
    t0 = time.monotonic()
    got = read_fd(r, want=1000, wait=5.0)
    assert got == b"abcdefghijklmnop"
    # 10 bytes or more: handed over without waiting 5 s for the rest
    assert time.monotonic() - t0 < 4
    t.join(10)


def test_read_fd_without_a_body_to_finish_returns_what_is_there(pipe):
    r, w = pipe
    os.write(w, b"Content-Length: 2\r\n\r\n{}")
    assert read_fd(r, want=0) == b"Content-Length: 2\r\n\r\n{}"


def test_the_frame_parser_says_how_much_of_a_body_is_missing():
    parser = FrameParser()
    assert parser.body_missing == 0
    parser.feed(b'Content-Length: 9\r\n\r\n{"a": 1')
    assert parser.next_body() is None
    assert parser.body_missing == 2
    parser.feed(b'}\nContent-Length: 2\r\n')
    assert parser.next_body() == b'{"a": 1}\n'
    assert parser.next_body() is None
    assert parser.body_missing == 0  # headers, not a body, are being read


# -- the texts taken over --------------------------------------------------

PIECES = [
    "x", " ", "\u00e9", "\U0001F600", "\u05e2\u05d1\u05e8", "\u202e", "\n", "\r\n", "\r", "\u2028",
    "http://example.com/\u05e2\u05d1\u05e8%zz", "https://a.example/%7e", "http://EXAMPLE.org/%e2%82%ac",
    "https://paypal.com/", "https://\u0440\u0430\u0443\u0440\u0430l.com/", "[l](http://l.example/%7e)",
    "<http://auto.example/%zz>", "https://xn--bcher-kva.example/", "```\n", "%",
]
_TEXT = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, data=st.data(), encoding=st.sampled_from(["utf-16", "utf-8", "utf-32"]),
       uri=st.sampled_from(["file:///w/doc.md", None]))
def test_texts_taken_over_equal_texts_written_anew(text, data, encoding, uri):
    """Over edit sequences (the engine's memo gives the findings of
    unchanged references as the same objects, moved ones as copies), with
    versions that change, repeat or are null."""
    engine = Engine(memo_size=1000)
    scanner = IncrementalMarkdownScanner()
    reuse = TextReuse()
    for step in range(data.draw(st.integers(1, 6), label="edits")):
        if step:
            a = data.draw(st.integers(0, len(text)), label="start")
            b = data.draw(st.integers(a, len(text)), label="end")
            text = text[:a] + data.draw(_TEXT, label="inserted") + text[b:]
        version: Optional[int] = data.draw(st.sampled_from([None, 1, 7, 12345]), label="version")
        findings = engine.check_text(text, path="/w/doc.md", settings=Settings(select=("ALL",)),
                                     scanner=scanner).findings
        index = LineIndex(text)
        got = diagnostics_text(findings, index, encoding, version, uri, reuse)
        assert got == diagnostics_text(findings, index, encoding, version, uri)
        assert [json.loads(t) for t in got] == [diagnostic_json(f, index, encoding, version, uri)
                                                for f in findings]


def _doc_findings(text: str) -> tuple:
    engine = Engine(memo_size=1000)
    scanner = IncrementalMarkdownScanner()
    return engine, scanner, engine.check_text(text, path="/w/doc.md", settings=Settings(), scanner=scanner)


def test_a_finding_left_where_it_was_is_not_written_again():
    # each reference once (the memo keeps one place per reference)
    text = "".join("see http://example.com/%%e2%%82%%ac/%d and https://xn--bcher-kva.example/%d here\n"
                   % (i, i) for i in range(20))
    engine, scanner, first = _doc_findings(text)
    assert len(first.findings) >= 20
    reuse = TextReuse()
    index = LineIndex(text)
    before = diagnostics_text(first.findings, index, "utf-16", 3, "file:///w/doc.md", reuse)
    # the same version again: the very same texts
    again = diagnostics_text(first.findings, index, "utf-16", 3, "file:///w/doc.md", reuse)
    assert all(a is b for a, b in zip(again, before))
    # an edit at the end: the findings before it keep their texts, less the version
    edited = text + "tail\n"
    second = engine.check_text(edited, path="/w/doc.md", settings=Settings(), scanner=scanner)
    shared = [f for f in second.findings if any(f is g for g in first.findings)]
    assert len(shared) == len(first.findings)
    new_index = LineIndex(edited)
    after = diagnostics_text(second.findings, new_index, "utf-16", 4, "file:///w/doc.md", reuse)
    assert after == [t.replace('"version": 3', '"version": 4') for t in before]
    assert after == diagnostics_text(second.findings, new_index, "utf-16", 4, "file:///w/doc.md")


def test_a_finding_that_moved_to_another_line_is_written_anew():
    line = "see http://example.com/%e2%82%ac here\n"
    text = line * 5
    engine, scanner, first = _doc_findings(text)
    reuse = TextReuse()
    diagnostics_text(first.findings, LineIndex(text), "utf-16", 1, None, reuse)
    # the same objects, but the index says they are one line down
    moved = "\n" + text
    f = first.findings[0]
    shifted = [replace(g, start=g.start, end=g.end) for g in first.findings]
    index = LineIndex(moved)
    got = diagnostics_text(first.findings, index, "utf-16", 2, None, reuse)
    assert got == diagnostics_text(first.findings, index, "utf-16", 2, None)
    assert json.loads(got[0])["range"]["start"]["line"] == LineIndex(moved).position(f.start, "utf-16")[0]
    # copies of the findings (a memo hit moved elsewhere) are never taken for the kept ones
    assert diagnostics_text(shifted, index, "utf-16", 3, None, reuse) == diagnostics_text(
        shifted, index, "utf-16", 3, None)


def test_nothing_is_kept_for_a_document_with_too_many_findings(monkeypatch):
    monkeypatch.setattr(TextReuse, "MAX_FINDINGS", 3)
    line = "see http://example.com/%e2%82%ac here\n"
    text = line * 5
    _engine, _scanner, first = _doc_findings(text)
    assert len(first.findings) > 3
    reuse = TextReuse()
    got = diagnostics_text(first.findings, LineIndex(text), "utf-16", 1, None, reuse)
    assert reuse.entries == {}
    assert got == diagnostics_text(first.findings, LineIndex(text), "utf-16", 1, None)


# -- through a real server ---------------------------------------------------


async def test_whole_text_changes_larger_than_a_pipe_give_the_diagnostics_of_a_fresh_open(client, tmp_path):
    """Each body comes in several pieces (a pipe holds 64 KB); the
    findings the edits left alone have their texts taken over."""
    from lsp_helpers import capabilities, diagnostics_for, open_doc, start
    from lsprotocol import types
    from test_lsp_incremental import assert_like_fresh_open

    await start(client, capabilities(encodings=["utf-16"]))
    uri = (tmp_path / "doc.md").as_uri()
    lines = ["Line %d \u00e9\u00e9 \u05e2\u05d1\u05e8 \u65e5\u672c\u8a9e http://example.com/%%e2%%82%%ac/%d and "
             "https://xn--bcher-kva.example/%d." % (i, i, i) for i in range(1500)]
    text = "\n".join(lines) + "\n"
    assert len(text.encode("utf-8")) > 2 * 65536
    open_doc(client, uri, text, "markdown")
    first = await diagnostics_for(client, uri, version=1, timeout=60)
    assert len(first) >= 1500
    for version, (line, extra) in enumerate([(1000, " edit"), (10, " https://a.example/%7e"), (1499, "\n\n# T")],
                                            start=2):
        lines = list(lines)
        lines[line] += extra
        text = "\n".join(lines) + "\n"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await assert_like_fresh_open(client, tmp_path, uri, version, text)


def _pipe_max() -> int:
    with open("/proc/sys/fs/pipe-max-size") as f:
        return int(f.read())


def test_a_pipe_from_the_client_is_widened_to_hold_a_whole_text_change():
    from irilint.lsp.pipes import PIPE_SIZE, widen_pipe

    r, w = os.pipe()
    try:
        size = widen_pipe(r)
        assert size >= min(PIPE_SIZE, _pipe_max())
        assert size >= 300_000  # a 5,000-line document's whole text, at once
        # the writer does not wait for a reader: the whole change fits
        os.set_blocking(w, False)
        assert os.write(w, b"x" * 300_000) == 300_000
    finally:
        os.close(r)
        os.close(w)


def test_what_is_not_a_pipe_is_left_as_it_is(tmp_path):
    from irilint.lsp.pipes import widen_pipe

    with open(tmp_path / "f", "wb") as f:
        assert widen_pipe(f.fileno()) == 0
    assert widen_pipe(10_000) == 0  # not open
