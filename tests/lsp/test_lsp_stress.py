"""The language server under stress: bad bytes, bad messages, positions
outside the document, a 10 MB document, 1,000 edits in a burst,
cancellation, and a client that disappears.

These tests talk to the server subprocess in raw bytes
(:class:`lsp_helpers.RawServer`), since a real client never sends most of
this.  What the server promises (see ``irilint/lsp/transport.py`` and the
``IrilintProtocol`` docstring in ``irilint/lsp/server.py``):

* it never dies from bad input, never answers it with a traceback loop,
  and after every bad message the next good request is answered;
* a request is always answered -- with its result, or with an error:
  ``ParseError`` -32700 (``id`` null) for a body that is not JSON,
  ``InvalidRequest`` -32600 for JSON that is not a JSON-RPC request (or a
  request after ``shutdown``), ``MethodNotFound`` -32601, ``InvalidParams``
  -32602 for params that do not fit (a missing ``position``, a negative
  ``character``), ``RequestCancelled`` -32800; notifications that are
  unknown or have bad params are ignored (a line on stderr);
* framing errors cost at most the message that carries them: garbage is
  dropped up to the next ``Content-Length`` header; a ``Content-Length``
  that is too long does not swallow the next message (the bytes after the
  first JSON value are read again), nor wait forever when nothing follows
  (after a second of silence a whole JSON value is taken as it is); a
  missing empty line after the headers or bare ``\\n`` line ends are
  tolerated; a bad or huge ``Content-Length`` drops its message without
  allocating or waiting for anything.  What is lost: the message of a
  too-short, non-numeric or missing ``Content-Length`` (its id cannot be
  trusted; the client gets ``ParseError`` with ``id`` null or nothing);
* when the client goes away (end of input, a broken pipe, the client
  process killed) the server exits by itself at once, code 1 (0 only after
  ``shutdown``), even in the middle of a long lint.

Every test is bounded (``bounded``), and so is every wait in it; none of
them checks how fast anything is.  Memory is read from /proc (Linux); the
memory checks are skipped elsewhere.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any, Callable, Dict, List, Optional

import pytest
from lsp_helpers import (
    SERVER_COMMAND,
    RawServer,
    bounded,
    expected_findings,
    frame,
    pos_of,
    proc_status,
)

TEXT = "see http://a.b/%7e here\n"  # the IRI is at 0:4-0:18
IRI_AT = (0, 6)
MB = 1000 * 1000
HAS_PROC = os.path.exists("/proc/self/status")

#: a generous bound for the server's memory with a 10 MB document: the
#: interpreter with pygls, lsprotocol and cattrs is ~45 MB; the document is
#: held as a str (10 MB; up to 40 MB if it were not ASCII), its JSON body is
#: decoded once (a transient 10 MB of bytes and a str), the line index is
#: 8 bytes a line, and the engine's references and findings, with the
#: hover's cached references, are ~150-250 MB for ~130,000 IRIs.  Measured:
#: ~310 MB.  A leak that keeps a copy per message (or per version) goes far
#: over it.
BIG_DOC_RSS_BOUND_KIB = 600 * 1024
#: RSS may grow by this much over 1,000 edits of a small document (the
#: allocator keeps what it took; a copy per version of a 20 KB document,
#: with its line index, would be ~40 MB, a copy per message more).
BURST_RSS_GROWTH_KIB = 100 * 1024


@pytest.fixture
async def raw():
    server = await RawServer().start()
    try:
        yield server
    finally:
        await server.stop()


def codes(params: Dict[str, Any]) -> List[str]:
    return sorted(str(d.get("code")) for d in params["diagnostics"])


def hover_body(uri: str, msg_id: Any, line: int = IRI_AT[0], character: int = IRI_AT[1]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",
                       "params": {"textDocument": {"uri": uri},
                                  "position": {"line": line, "character": character}}}).encode()


async def ready(raw: RawServer, tmp_path, text: str = TEXT, name: str = "a.txt",
                options: Optional[Dict[str, Any]] = None,
                capabilities: Optional[Dict[str, Any]] = None) -> str:
    """Initialize, open a document and wait for its diagnostics (push)."""
    await raw.initialize(options, capabilities)
    uri = (tmp_path / name).as_uri()
    await raw.open(uri, text)
    if "diagnostic" not in (capabilities or {}).get("textDocument", {}):
        published = await raw.diagnostics(uri, 1)
        assert ("IRI402" in codes(published)) == ("%7e" in text), published
    return uri


async def assert_alive(raw: RawServer, uri: str) -> None:
    """A good request still gets its (real) answer."""
    reply = await raw.hover(uri, *IRI_AT)
    assert reply.get("result") is not None, reply
    assert "IRI reference" in reply["result"]["contents"]["value"]
    assert raw.returncode is None


def assert_no_traceback(raw: RawServer) -> None:
    err = raw.stderr_text()
    assert "Traceback" not in err, err[-3000:]


def errors_with_null_id(raw: RawServer, code: int) -> List[Dict[str, Any]]:
    return [m for m in raw.messages
            if "method" not in m and m.get("id", 0) is None and m.get("error", {}).get("code") == code]


# ---------------------------------------------------------------------------
# 1. Bad bytes and bad messages


def _too_long_then_more(uri: str) -> bytes:
    a = hover_body(uri, 201)  # 20 bytes too long: it ends inside the next header
    return (b"Content-Length: %d\r\n\r\n" % (len(a) + 20) + a
            + frame(hover_body(uri, 202)) + frame(hover_body(uri, 203)))


def _too_long_by_more_than_the_next(uri: str) -> bytes:
    a = hover_body(uri, 201)  # longer than the next message: only silence ends it
    return b"Content-Length: %d\r\n\r\n" % (len(a) + 5000) + a + frame(hover_body(uri, 202))


def _with_length(length: bytes) -> Callable[[str], bytes]:
    return lambda uri: b"Content-Length: " + length + b"\r\n\r\n" + hover_body(uri, 201)


PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
REQUEST_CANCELLED = -32800

#: (bad bytes, {request id: what it must get}, an error with id null that
#: must come, whether stderr must say "bad input")
BAD_INPUT = {
    "body is not JSON": (
        lambda uri: b"Content-Length: 5\r\n\r\n{bad}", {}, PARSE_ERROR, True),
    "body is truncated JSON": (
        lambda uri: frame(hover_body(uri, 201)[:-7]), {}, PARSE_ERROR, True),
    "Content-Length too short": (  # its tail is garbage up to the next header
        lambda uri: (lambda b: b"Content-Length: %d\r\n\r\n" % (len(b) - 5) + b)(hover_body(uri, 201)),
        {}, PARSE_ERROR, True),
    "Content-Length too long, more messages after it": (
        _too_long_then_more, {201: "result", 202: "result", 203: "result"}, None, True),
    "Content-Length too long, nothing after it": (  # taken after a second of silence
        lambda uri: (lambda b: b"Content-Length: %d\r\n\r\n" % (len(b) + 20) + b)(hover_body(uri, 201)),
        {201: "result"}, None, True),
    "Content-Length too long by more than the next message": (
        _too_long_by_more_than_the_next, {201: "result", 202: "result"}, None, True),
    "Content-Length not a number": (_with_length(b"abc"), {}, None, True),
    "Content-Length negative": (_with_length(b"-5"), {}, None, True),
    "Content-Length huge": (_with_length(b"99999999999999999999"), {}, None, True),
    "Content-Length 2 GiB": (_with_length(b"2147483648"), {}, None, True),
    "Content-Length 0": (lambda uri: b"Content-Length: 0\r\n\r\n", {}, PARSE_ERROR, True),
    "no Content-Length header": (
        lambda uri: b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + hover_body(uri, 201),
        {}, None, True),
    "no header at all": (lambda uri: hover_body(uri, 201), {}, None, True),
    "no empty line after the header": (
        lambda uri: (lambda b: b"Content-Length: %d\r\n" % len(b) + b)(hover_body(uri, 201)),
        {201: "result"}, None, True),
    "bare LF line ends": (
        lambda uri: (lambda b: b"Content-Length: %d\n\n" % len(b) + b)(hover_body(uri, 201)),
        {201: "result"}, None, False),
    "lowercase header name and a Content-Type": (
        lambda uri: (lambda b: b"content-length:%d\r\nContent-Type: application/vscode-jsonrpc; "
                               b"charset=utf-8\r\n\r\n" % len(b) + b)(hover_body(uri, 201)),
        {201: "result"}, None, False),
    "garbage lines before a message": (
        lambda uri: b"hello\r\nGET / HTTP/1.1\r\n\x00\x01\x02\r\n" + frame(hover_body(uri, 201)),
        {201: "result"}, None, True),
    "binary garbage": (lambda uri: bytes(range(256)) * 400, {}, None, True),
    "200 KB without a line end": (lambda uri: b"x" * 200000, {}, None, True),
    "a JSON array": (lambda uri: frame(b"[1, 2]"), {}, INVALID_REQUEST, True),
    "a JSON number": (lambda uri: frame(b"42"), {}, INVALID_REQUEST, True),
    "JSON nested 100,000 deep": (
        lambda uri: frame(b"[" * 100000 + b"]" * 100000), {}, None, False),
    "no jsonrpc member": (
        lambda uri: frame({"id": 201, "method": "textDocument/hover",
                           "params": json.loads(hover_body(uri, 0))["params"]}),
        {201: INVALID_REQUEST}, None, True),
    "jsonrpc 1.0": (
        lambda uri: frame(dict(json.loads(hover_body(uri, 201)), jsonrpc="1.0")),
        {201: INVALID_REQUEST}, None, True),
    "invalid UTF-8": (
        lambda uri: frame(b'{"jsonrpc": "2.0", "method": "x\xff\xfe", "params": {}}'), {}, None, False),
    "an id that is an object": (
        lambda uri: frame(dict(json.loads(hover_body(uri, 0)), id={"a": 1})), {}, INVALID_REQUEST, True),
}


@pytest.mark.parametrize("case", list(BAD_INPUT))
@bounded(90)
async def test_bad_input_is_survived(raw: RawServer, tmp_path, case: str):
    make, answers, null_error, says_so = BAD_INPUT[case]
    uri = await ready(raw, tmp_path)
    await raw.write(make(uri))
    for msg_id, want in answers.items():
        reply = await raw.response(msg_id)
        if want == "result":
            assert reply.get("result") is not None, reply
        else:
            assert reply.get("error", {}).get("code") == want, reply
    await assert_alive(raw, uri)
    if null_error is not None:
        assert errors_with_null_id(raw, null_error), raw.messages[-3:]
    # the same once more: the server is not left in a state that breaks later
    await assert_alive(raw, uri)
    if says_so:
        assert "bad input from the client" in raw.stderr_text()
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit() == 0


@bounded(120)
async def test_a_flood_of_bad_messages_is_no_traceback_loop(raw: RawServer, tmp_path):
    """1,000 bad messages of every kind in one write: one short stderr line
    each at most, and the server still answers."""
    uri = await ready(raw, tmp_path)
    kinds = [make for name, (make, answers, *_rest) in BAD_INPUT.items()
             if not answers and "huge" not in name and "2 GiB" not in name and "deep" not in name]
    burst = b"".join(kinds[i % len(kinds)](uri) for i in range(1000))
    before = len(raw.stderr)
    await raw.write(burst)
    await assert_alive(raw, uri)
    assert_no_traceback(raw)
    logged = raw.stderr[before:].decode("utf-8", "replace").splitlines()
    assert len(logged) <= 3 * 1000, len(logged)
    assert max(map(len, logged), default=0) < 1000
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_unknown_methods(raw: RawServer, tmp_path):
    uri = await ready(raw, tmp_path)
    for method in ("irilint/noSuchRequest", "$/noSuchRequest", "textDocument/noSuch"):
        reply = await raw.call(method, {"x": 1})
        assert reply["error"]["code"] == METHOD_NOT_FOUND, reply
    count = len(raw.messages)
    for method in ("irilint/noSuchNotification", "$/noSuchNotification", "textDocument/noSuch"):
        await raw.notify(method, {"x": 1})
    await assert_alive(raw, uri)
    # ignored: nothing was sent back for them (only the hover's answer)
    assert [m for m in raw.messages[count:] if "error" in m] == []
    assert "unknown method" in raw.stderr_text()
    assert await raw.shutdown_and_exit() == 0


def _params(uri: str, **changes: Any) -> Dict[str, Any]:
    params = json.loads(hover_body(uri, 0))["params"]
    params.update(changes)
    return {k: v for k, v in params.items() if v is not None}


INVALID_PARAMS_REQUESTS = {
    "hover without position": ("textDocument/hover", lambda uri: _params(uri, position=None)),
    "hover without textDocument": ("textDocument/hover", lambda uri: _params(uri, textDocument=None)),
    "hover at a negative character": (
        "textDocument/hover", lambda uri: _params(uri, position={"line": 0, "character": -1})),
    "hover at a negative line": (
        "textDocument/hover", lambda uri: _params(uri, position={"line": -3, "character": 0})),
    "hover at a line that is not a number": (
        "textDocument/hover", lambda uri: _params(uri, position={"line": "zero", "character": 0})),
    "hover with an array for params": ("textDocument/hover", lambda uri: [uri, 0, 6]),
    "codeAction without range": (
        "textDocument/codeAction",
        lambda uri: {"textDocument": {"uri": uri}, "context": {"diagnostics": []}}),
    "codeAction with a negative range": (
        "textDocument/codeAction",
        lambda uri: {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
                     "range": {"start": {"line": 0, "character": -5},
                               "end": {"line": 0, "character": 2}}}),
    "diagnostic without textDocument": ("textDocument/diagnostic", lambda uri: {}),
}


@pytest.mark.parametrize("case", list(INVALID_PARAMS_REQUESTS))
@bounded(60)
async def test_invalid_params_are_answered(raw: RawServer, tmp_path, case: str):
    method, params = INVALID_PARAMS_REQUESTS[case]
    uri = await ready(raw, tmp_path)
    reply = await raw.call(method, params(uri))
    error = reply.get("error")
    assert error is not None and error["code"] in (INVALID_PARAMS, METHOD_NOT_FOUND), reply
    if method != "textDocument/diagnostic":  # a push server has no pull handler
        assert error["code"] == INVALID_PARAMS, reply
        assert method in error["message"]
    await assert_alive(raw, uri)
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_notifications_with_invalid_params_are_ignored(raw: RawServer, tmp_path):
    """A didChange that cannot be read is dropped (the document keeps its
    text; one line on stderr), and so are other bad notifications."""
    uri = await ready(raw, tmp_path)
    await raw.change(uri, 2, [{"range": {"start": {"line": -1, "character": 0},
                                         "end": {"line": 0, "character": 3}}, "text": "x"}])
    await raw.notify("textDocument/didChange", {"textDocument": {"uri": uri}})
    await raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri + "x"}})
    await raw.notify("$/cancelRequest", {})
    await raw.notify("$/cancelRequest", {"id": [1]})
    await raw.notify("textDocument/didClose", None)
    await assert_alive(raw, uri)  # still the same text: the IRI is where it was
    assert [p["version"] for p in raw.published(uri)] == [1]
    assert "ignoring a 'textDocument/didChange' notification with invalid params" in raw.stderr_text()
    assert_no_traceback(raw)
    # and the document still takes good changes
    await raw.change(uri, 3, [{"range": {"start": {"line": 0, "character": 0},
                                         "end": {"line": 0, "character": 0}}, "text": "x "}])
    assert "IRI402" in codes(await raw.diagnostics(uri, 3))
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_requests_after_shutdown_are_refused_not_dropped(raw: RawServer, tmp_path):
    uri = await ready(raw, tmp_path)
    assert "error" not in await raw.call("shutdown")
    reply = await raw.hover(uri, *IRI_AT)
    assert reply["error"]["code"] == INVALID_REQUEST, reply
    await raw.notify("exit")
    assert await raw.wait_exit() == 0


def _parse_in_chunks(stream: bytes, size: int) -> List[bytes]:
    from irilint.lsp.transport import FrameParser

    parser = FrameParser()
    bodies: List[bytes] = []
    for i in range(0, len(stream), size):
        parser.feed(stream[i:i + size])
        while True:
            body = parser.next_body()
            if body is None:
                break
            bodies.append(body)
    return bodies


@pytest.mark.parametrize("size", [1, 2, 7, 64, 1000, 10 ** 9])
def test_framing_does_not_depend_on_how_the_bytes_arrive(size: int):
    """The frame parser, in-process: the same messages whatever the read
    sizes (a header or a body split anywhere), through garbage, a missing
    empty line, bare LF line ends and a bad Content-Length."""
    good = [json.dumps({"jsonrpc": "2.0", "id": i, "method": "m", "params": {"s": "é" * i}},
                       ensure_ascii=False).encode("utf-8")
            for i in range(5)]
    stream = (frame(good[0]) + b"garbage\r\n\x00\xff" + frame(good[1])
              + b"Content-Length: %d\r\n" % len(good[2]) + good[2]
              + b"Content-Length: xyz\r\n\r\n{}" + frame(good[3])
              + b"Content-Length: %d\n\n" % len(good[4]) + good[4])
    assert _parse_in_chunks(stream, size) == good


# ---------------------------------------------------------------------------
# 2. Positions outside the document, documents that are not open


@bounded(60)
async def test_ranges_outside_the_document(raw: RawServer, tmp_path):
    """Positions past the end are clamped (documents.py): an edit at line
    1000 of a 1-line document appends; a range whose end is before its
    start is swapped; requests there answer null, or no action for that
    range (the document-wide fix-all may still be offered)."""
    uri = await ready(raw, tmp_path, "ab\n")
    await raw.change(uri, 2, [{"range": {"start": {"line": 1000, "character": 0},
                                         "end": {"line": 1000, "character": 7}},
                               "text": "http://a.b/%7e"}])
    diags = (await raw.diagnostics(uri, 2))["diagnostics"]
    d = next(d for d in diags if d["code"] == "IRI402")
    assert d["range"] == {"start": {"line": 1, "character": 11}, "end": {"line": 1, "character": 14}}
    # start past the end, end before it: the text from 0:2 to the end goes
    await raw.change(uri, 3, [{"range": {"start": {"line": 5, "character": 99},
                                         "end": {"line": 0, "character": 2}}, "text": "!"}])
    assert (await raw.diagnostics(uri, 3))["diagnostics"] == []
    await raw.change(uri, 4, [{"text": TEXT}])
    assert "IRI402" in codes(await raw.diagnostics(uri, 4))
    for line, character in ((1000, 0), (0, 5000), (2 ** 31 - 1, 2 ** 31 - 1), (1, 0)):
        reply = await raw.hover(uri, line, character)
        assert "error" not in reply and reply["result"] is None, (line, character, reply)
    for line in (1, 1000, 2 ** 31 - 1):
        reply = await raw.call("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "context": {"diagnostics": []},
            "range": {"start": {"line": line, "character": 0},
                      "end": {"line": line + 5 if line < 2 ** 31 - 6 else line, "character": 9}}})
        # nothing there: at most the document-wide fix-all
        assert "error" not in reply and isinstance(reply["result"], list), (line, reply)
        assert all(a["kind"].startswith("source") for a in reply["result"]), (line, reply)
    reply = await raw.hover(uri, 0, -1)
    assert reply["error"]["code"] == INVALID_PARAMS
    await assert_alive(raw, uri)
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit() == 0


@bounded(60)
async def test_did_change_for_a_document_never_opened(raw: RawServer, tmp_path):
    """Ignored, not treated as opened (documents.py says why): nothing is
    published for it, a warning goes to stderr and the client's log, and
    opening it later works."""
    uri = await ready(raw, tmp_path)
    ghost = (tmp_path / "never-opened.txt").as_uri()
    await raw.change(ghost, 2, [{"text": "http://a.b/%7e\n"}])
    await raw.change(ghost, 3, [{"range": {"start": {"line": 0, "character": 0},
                                           "end": {"line": 0, "character": 0}}, "text": "x"}])
    reply = await raw.hover(ghost, 0, 3)
    assert "error" not in reply and reply["result"] is None
    # lints run one after another, in order: had the ghost been linted, its
    # diagnostics would come before those of a document opened after it
    other = (tmp_path / "b.txt").as_uri()
    await raw.open(other, TEXT)
    await raw.diagnostics(other, 1)
    assert raw.published(ghost) == []
    assert "not open" in raw.stderr_text()
    assert any(m.get("method") == "window/logMessage" and "not open" in m["params"]["message"]
               for m in raw.messages)
    await raw.open(ghost, "http://a.b/%7e\n", version=4)
    assert "IRI402" in codes(await raw.diagnostics(ghost, 4))
    await assert_alive(raw, uri)
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit() == 0


# ---------------------------------------------------------------------------
# 3. A 10 MB document

LINE_OK = "Some prose with a link https://example.org/a/b/c?x=1#frag and more words here.\n"
LINE_BAD = "A bad one: http://a.b/%7e and https://xn--nxasmq6b.example/path here\n"


def big_text(size: int, bad_every: int = 100) -> str:
    """ASCII text of exactly ``size`` bytes: lines with an IRI each, one in
    ``bad_every`` with findings (the first one too)."""
    parts: List[str] = []
    total = 0
    i = 0
    while total + len(LINE_OK) < size:
        line = LINE_BAD if i % bad_every == 0 else LINE_OK
        parts.append(line)
        total += len(line)
        i += 1
    parts.append("x" * (size - total - 1) + "\n")
    text = "".join(parts)
    assert len(text.encode("utf-8")) == size
    return text


def bad_lines(text: str) -> int:
    return text.count(LINE_BAD)


def memory(raw: RawServer) -> Dict[str, Optional[int]]:
    return {"rss": raw.rss_kib(), "peak": raw.rss_kib(peak=True)}


@bounded(300)
async def test_10mb_document_with_a_raised_limit(raw: RawServer, tmp_path, capsys):
    """10.5 MB: over the default max-file-size (10,000,000 bytes), under
    the raised one.  Diagnostics come (within 120 s) and memory stays under
    the bound.  The server stays responsive meanwhile: linting runs in a
    worker thread, so a hover on another document sent right after the
    didOpen is answered before the big document's diagnostics.  A hover on
    the big document itself is answered too, best effort: it scans the
    document on the event loop (under a second for 10 MB, sharing the GIL
    with the lint) the first time."""
    small = await ready(raw, tmp_path, options={"max-file-size": 20 * MB})
    before = memory(raw)
    text = big_text(10 * MB + MB // 2)
    uri = (tmp_path / "big.txt").as_uri()
    await raw.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}})
        + frame(hover_body(small, 501)))
    reply = await raw.response(501, timeout=120)
    assert reply.get("result") is not None, reply
    assert raw.published(uri) == [], "the hover waited for the lint"
    reply = await raw.hover(uri, 0, 12, timeout=120)  # on the big document's first IRI
    assert reply.get("result") is not None, reply
    published = await raw.diagnostics(uri, 1, timeout=120)
    after = memory(raw)
    diags = published["diagnostics"]
    assert len(diags) >= 2 * bad_lines(text)
    assert {"IRI402", "IRI404"} <= set(codes(published))
    assert diags[0]["range"]["start"]["line"] == 0
    with capsys.disabled():
        print("\n[10.5 MB document, limit raised] RSS before %s KiB, after %s KiB, peak %s KiB"
              % (before["rss"], after["rss"], after["peak"]))
    if HAS_PROC:
        assert after["rss"] < BIG_DOC_RSS_BOUND_KIB, (before, after)
        assert after["peak"] < BIG_DOC_RSS_BOUND_KIB, (before, after)
    await assert_alive_big(raw, uri)
    assert await raw.shutdown_and_exit(timeout=120) == 0


async def assert_alive_big(raw: RawServer, uri: str) -> None:
    reply = await raw.hover(uri, 0, 12, timeout=120)
    assert reply.get("result") is not None, reply


@bounded(300)
async def test_documents_at_the_default_limit(raw: RawServer, tmp_path, capsys):
    """Default settings: 9,999,999 bytes is linted; 10,000,001 bytes gets
    the one "skipped" diagnostic (and no hover: it is not scanned)."""
    await raw.initialize()
    before = memory(raw)
    under = big_text(10 * MB - 1)
    over = big_text(10 * MB + 1)
    uri_under = (tmp_path / "under.txt").as_uri()
    uri_over = (tmp_path / "over.txt").as_uri()
    await raw.open(uri_over, over)
    skipped = (await raw.diagnostics(uri_over, 1, timeout=120))["diagnostics"]
    assert len(skipped) == 1 and "skipped" in skipped[0]["message"], skipped
    assert skipped[0]["severity"] == 3  # Information
    reply = await raw.hover(uri_over, 0, 12, timeout=120)
    assert "error" not in reply and reply["result"] is None
    await raw.open(uri_under, under)
    published = await raw.diagnostics(uri_under, 1, timeout=120)
    assert len(published["diagnostics"]) >= 2 * bad_lines(under)
    after = memory(raw)
    with capsys.disabled():
        print("\n[10 MB documents at the default limit] RSS before %s KiB, after %s KiB, peak %s KiB"
              % (before["rss"], after["rss"], after["peak"]))
    if HAS_PROC:
        assert after["rss"] < BIG_DOC_RSS_BOUND_KIB, (before, after)
        assert after["peak"] < BIG_DOC_RSS_BOUND_KIB, (before, after)
    assert await raw.shutdown_and_exit(timeout=120) == 0


# ---------------------------------------------------------------------------
# 4. 1,000 edits in a burst

BASE = "".join("line %d: https://example.org/%d\n" % (i, i) for i in range(600))  # ~20 KB


def burst_text(version: int) -> str:
    """Odd versions have a finding, on a line that moves with the version."""
    lines = BASE.splitlines(keepends=True)
    at = version % len(lines)
    bad = "http://a.b/%%7e%d\n" % version if version % 2 else "fine %d\n" % version
    return "".join(lines[:at]) + bad + "".join(lines[at:])


@bounded(240)
async def test_1000_full_changes_in_a_burst_publish_only_the_last(raw: RawServer, tmp_path, capsys):
    """With a debounce (here 2 s; the default is 0.3 s), a burst of edits
    is linted once: every publication after it is for the last version,
    with the last text's findings.  The burst is one write, so no pause in
    it can let the debounce expire."""
    uri = await ready(raw, tmp_path, burst_text(1), options={"debounce": 2000})
    before = raw.rss_kib()
    count = len(raw.published(uri))
    last = 1001
    await raw.write(b"".join(frame({
        "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": v},
                   "contentChanges": [{"text": burst_text(v)}]}}) for v in range(2, last + 1)))
    published = await raw.diagnostics(uri, last, timeout=120)
    await assert_alive_on(raw, uri, burst_text(last))
    await asyncio.sleep(3)  # a while (> the debounce) after the last change: nothing else comes
    after = raw.rss_kib()
    later = raw.published(uri)[count:]
    assert later and all(p["version"] == last for p in later), [p["version"] for p in later]
    d = next(d for d in published["diagnostics"] if d["code"] == "IRI402")
    assert d["range"]["start"]["line"] == last % BASE.count("\n")
    assert d["data"]["version"] == last
    with capsys.disabled():
        print("\n[1,000 full changes] RSS before %s KiB, after %s KiB" % (before, after))
    if HAS_PROC:
        assert after <= before + BURST_RSS_GROWTH_KIB, (before, after)
    assert await raw.shutdown_and_exit() == 0


async def assert_alive_on(raw: RawServer, uri: str, text: str) -> None:
    line = next(i for i, t in enumerate(text.splitlines()) if "%7e" in t)
    reply = await raw.hover(uri, line, 3)
    assert reply.get("result") is not None, reply


@bounded(240)
async def test_1000_incremental_changes_without_debounce(raw: RawServer, tmp_path, capsys):
    """Debounce 0 (lint as soon as the loop is free): edits that arrive
    together are still linted once, but one that lands while the server is
    idle may get its own publication.  What holds: versions only go up, no
    publication is for a version older than one published before it, the
    last publication is for the last version and has exactly the findings
    of the last text (checked against the engine in-process)."""
    text = "start http://a.b/%7e\n"
    uri = await ready(raw, tmp_path, text)
    before = raw.rss_kib()
    count = len(raw.published(uri))
    chunks = []
    for v in range(2, 1002):
        line = text.count("\n")
        piece = ("x http://a.b/%%7e%d\n" % v) if v % 3 == 0 else ("w%d " % v)
        chunks.append(frame({
            "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": v},
                       "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                                                     "end": {"line": line, "character": 0}},
                                           "text": piece}]}}))
        lines = text.split("\n")
        lines[-1] = piece + lines[-1]
        text = "\n".join(lines)
    await raw.write(b"".join(chunks))
    final = await raw.diagnostics(uri, 1001, timeout=120)
    await asyncio.sleep(1.0)
    after = raw.rss_kib()
    versions = [p["version"] for p in raw.published(uri)[count:]]
    assert versions == sorted(versions) and versions[-1] == 1001, versions
    got = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
                 for d in final["diagnostics"])
    path = str(tmp_path / "a.txt")
    want = sorted((f.rule.code, pos_of(text, f.start, "utf-16").line, pos_of(text, f.start, "utf-16").character)
                  for f in expected_findings(text, path=path, language_id="plaintext"))
    assert got == want
    with capsys.disabled():
        print("\n[1,000 incremental changes, debounce 0] RSS before %s KiB, after %s KiB, "
              "%d publications" % (before, after, len(versions)))
    if HAS_PROC:
        assert after <= before + BURST_RSS_GROWTH_KIB, (before, after)
    assert await raw.shutdown_and_exit() == 0


# ---------------------------------------------------------------------------
# 5. Cancellation, and a client that disappears


@bounded(240)
async def test_cancel_a_pull_diagnostic(raw: RawServer, tmp_path):
    """A pull on a 3 MB document, cancelled at once: answered with
    RequestCancelled (or its result if it was done), never left hanging;
    the next pull gets the full report."""
    text = big_text(3 * MB)
    uri = await ready(raw, tmp_path, text, name="pull.txt",
                      capabilities={"textDocument": {"diagnostic": {}}})
    params = {"textDocument": {"uri": uri}}
    first = raw.new_id()
    await raw.write(frame({"jsonrpc": "2.0", "id": first, "method": "textDocument/diagnostic",
                           "params": params})
                    + frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": first}}))
    reply = await raw.response(first, timeout=120)
    if "error" in reply:
        assert reply["error"]["code"] == REQUEST_CANCELLED, reply
    else:
        assert reply["result"]["kind"] == "full"
    again = await raw.call("textDocument/diagnostic", params, timeout=120)
    assert again["result"]["kind"] == "full"
    assert len(again["result"]["items"]) >= 2 * bad_lines(text)
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit(timeout=120) == 0


@bounded(240)
async def test_cancel_a_code_action_and_stale_cancels(raw: RawServer, tmp_path):
    """A code action on a 3 MB document being linted, cancelled at once:
    RequestCancelled or its result.  Cancelling an unknown id, or a request
    already answered, does nothing."""
    text = big_text(3 * MB)
    uri = (tmp_path / "ca.txt").as_uri()
    await raw.initialize()
    await raw.open(uri, text)
    params = {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
              "range": {"start": {"line": 0, "character": 12}, "end": {"line": 0, "character": 12}}}
    first = raw.new_id()
    await raw.write(frame({"jsonrpc": "2.0", "id": first, "method": "textDocument/codeAction",
                           "params": params})
                    + frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": first}}))
    reply = await raw.response(first, timeout=120)
    if "error" in reply:
        assert reply["error"]["code"] == REQUEST_CANCELLED, reply
    else:
        assert isinstance(reply["result"], list)
    again = await raw.call("textDocument/codeAction", params, timeout=120)
    assert any("Convert" in a["title"] or "%7E" in a["title"] for a in again["result"]), again
    count = len(raw.messages)
    await raw.notify("$/cancelRequest", {"id": first})  # answered already
    await raw.notify("$/cancelRequest", {"id": 987654})  # never sent
    await raw.notify("$/cancelRequest", {"id": "no-such-id"})
    await assert_alive_big(raw, uri)
    assert [m for m in raw.messages[count:] if "error" in m] == []
    assert_no_traceback(raw)
    assert await raw.shutdown_and_exit(timeout=120) == 0


@bounded(60)
async def test_server_exits_when_its_input_closes(raw: RawServer, tmp_path):
    """End of input without shutdown/exit: the server exits by itself,
    exit code 1, saying why on stderr."""
    await ready(raw, tmp_path)
    await raw.close_stdin()
    assert await raw.wait_exit(10) == 1
    assert "closed the connection" in raw.stderr_text()
    assert_no_traceback(raw)


@bounded(60)
async def test_server_exits_when_its_input_closes_after_shutdown(raw: RawServer, tmp_path):
    await ready(raw, tmp_path)
    assert "error" not in await raw.call("shutdown")
    await raw.close_stdin()
    assert await raw.wait_exit(10) == 0
    assert_no_traceback(raw)


@bounded(240)
async def test_server_exits_when_its_input_closes_during_a_long_lint(raw: RawServer, tmp_path):
    """A 10 MB document is being linted (seconds of work) when the client
    goes: the server does not wait for the lint (the worker is a daemon
    thread) and exits within 10 s."""
    await raw.initialize({"max-file-size": 20 * MB})
    uri = (tmp_path / "big.txt").as_uri()
    # every line with findings: no fast path, seconds of rules per version
    text = big_text(10 * MB, bad_every=1)
    await raw.open(uri, text)
    await raw.change(uri, 2, [{"text": text + "more\n"}])  # another lint, queued
    # answered once didOpen and didChange have been handled: the lint of
    # version 2 is queued or on (version 1's may have been published)
    await assert_alive_big(raw, uri)
    assert [p for p in raw.published(uri) if p.get("version") == 2] == []
    await raw.close_stdin()
    assert await raw.wait_exit(10) == 1
    assert_no_traceback(raw)


@bounded(60)
async def test_server_exits_when_the_client_stops_reading(raw: RawServer, tmp_path):
    """The client closes its end of the server's stdout: the next write
    fails (broken pipe) and the server exits, code 1, with one line on
    stderr (no error-reporting loop)."""
    uri = await ready(raw, tmp_path)
    transport = getattr(raw.proc, "_transport", None)
    if transport is None:  # pragma: no cover - asyncio internals changed
        pytest.skip("cannot close the pipe's read end")
    transport.get_pipe_transport(1).close()
    await raw.send(frame(hover_body(uri, 301)))
    await raw.send(frame(hover_body(uri, 302)))
    assert await raw.wait_exit(10) == 1
    err = raw.stderr_text()
    assert "gone" in err
    assert_no_traceback(raw)
    assert err.count("\n") < 20, err


MIDDLEMAN = r"""
import subprocess, sys, time
server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL)
print(server.pid, flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    state = proc_status(pid).get("State", "")
    return not state or state.startswith(("Z", "X"))  # a zombie has exited


@pytest.mark.skipif(not HAS_PROC or sys.platform != "linux", reason="needs /proc and SIGKILL")
@bounded(60)
async def test_server_exits_when_the_client_is_killed(tmp_path):
    """The client process is killed (SIGKILL: it closes nothing itself):
    its end of the pipes closes with it, and the server exits by itself
    within 10 s."""
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", MIDDLEMAN, *SERVER_COMMAND, stdout=asyncio.subprocess.PIPE)
    server_pid = None
    try:
        line = await asyncio.wait_for(client.stdout.readline(), 30)
        server_pid = int(line)
        assert not _gone(server_pid)
        client.send_signal(signal.SIGKILL)
        await asyncio.wait_for(client.wait(), 30)

        async def gone() -> None:
            while not _gone(server_pid):
                await asyncio.sleep(0.05)

        try:
            await asyncio.wait_for(gone(), 10)
        except asyncio.TimeoutError:
            raise AssertionError("the server outlived its client by 10 s") from None
    finally:
        if client.returncode is None:
            client.kill()
            await client.wait()
        if server_pid is not None and not _gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)


@bounded(240)
async def test_code_actions_on_a_big_document_do_not_block_the_server(raw: RawServer, tmp_path):
    """Fix-all on a 3 MB document checks it again, several times: that runs
    in the lint worker, so a hover on another document sent after the code
    action is answered before it (it used to run on the event loop, with a
    quadratic diff: minutes without an answer to anything)."""
    small = await ready(raw, tmp_path)
    uri = (tmp_path / "big.txt").as_uri()
    await raw.open(uri, big_text(3 * MB))
    action = raw.new_id()
    await raw.write(frame({"jsonrpc": "2.0", "id": action, "method": "textDocument/codeAction",
                           "params": {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
                                      "range": {"start": {"line": 0, "character": 23},
                                                "end": {"line": 0, "character": 23}}}})
                    + frame(hover_body(small, 401)))  # 0:23 is in "%7e"
    hover = await raw.response(401, timeout=120)
    assert hover.get("result") is not None
    assert not any(m.get("id") == action for m in raw.messages), "the hover waited for the code action"
    reply = await raw.response(action, timeout=120)
    kinds = [a["kind"] for a in reply["result"]]
    assert "source.fixAll.irilint" in kinds and "quickfix" in kinds, kinds
    assert await raw.shutdown_and_exit(timeout=120) == 0
