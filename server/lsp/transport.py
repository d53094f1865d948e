"""Reading JSON-RPC messages from a client that may misbehave.

pygls' reader (``pygls.io_.run_async``) trusts its input: a header it does
not recognise, a ``Content-Length`` that is wrong, or a missing blank line
makes it lose the *next* message too (the client then waits forever for an
answer), and a huge ``Content-Length`` crashes the server (``OverflowError``)
or makes it wait for gigabytes.  The server reads its input with
:class:`FrameParser` instead, on stdio (:func:`serve_stdio`) and TCP
(:func:`serve_tcp`) alike.  What it does with bad input:

* **Headers**: ``Name: value`` lines ended by ``\\r\\n`` (a bare ``\\n`` is
  accepted too), names compared case-insensitively, up to an empty line.
  Only ``Content-Length`` is used; other headers are ignored.
* **Garbage** where a header should be (bytes that are not a header line,
  binary data, the tail of a message whose ``Content-Length`` was too
  short) is dropped up to the next ``Content-Length:`` header, even in the
  middle of a line; one line on stderr says how many bytes were dropped.
* **A bad ``Content-Length``** (not a decimal number, negative, over
  :data:`MAX_CONTENT_LENGTH`) or **none** before the empty line: the message
  is dropped (its body is garbage, see above) with an error on stderr.  A
  huge length is never allocated nor waited for.
* **No empty line after the headers**: when a line that cannot be a header
  follows a valid ``Content-Length``, the body is taken to start there.
* **A body that is not JSON**: if it starts with a whole JSON value
  followed by more bytes, the ``Content-Length`` was too long and ran into
  the next message: the value is handled as the message and the bytes
  after it are read again (they start the next message).  Else, if it holds
  a next message's header (``Content-Length: N`` and a line end -- bytes a
  JSON text cannot hold outside a string), the input is read again from
  there.  Whatever is left is answered with ``ParseError`` (-32700, ``id``
  null, as JSON-RPC 2.0 says).  So a too-long ``Content-Length`` loses no
  message, and a too-short one loses only its own message (its tail is
  garbage up to the next header).
* **A too-long ``Content-Length`` with nothing after it**: when the bytes
  received so far are a whole JSON value and nothing more arrives for
  :data:`IDLE_SECONDS`, they are taken as the message.  A message can only
  be incomplete *and* start with a whole JSON value when its length is
  wrong, so a slow client is never cut short.
* **Valid JSON that is not a JSON-RPC 2.0 message** (an array, a number,
  an object without ``"jsonrpc": "2.0"``): ``InvalidRequest`` (-32600;
  ``id`` null unless it is an object with a valid ``id``), except for an
  object without ``id`` (a would-be notification): a warning only.
  Requests whose ``params`` do not fit the method (``textDocument/hover``
  without ``position``, a negative ``character``) get ``InvalidParams``
  (-32602); notifications with bad ``params`` are ignored with an error on
  stderr (see :class:`irilint.lsp.server.IrilintProtocol`).

The reader never raises on bad input, so one bad message cannot stop the
server, and every stderr line about it is a single line (no traceback).

End of input (the client closed our stdin, or the TCP peer went away) or a
broken pipe on output ends the session: the server exits at once (a lint in
progress is abandoned, its thread is a daemon) with exit code 1, or 0 if
``shutdown`` had been received (see :func:`irilint.lsp.server.main`).
"""
from __future__ import annotations

import asyncio
import json
import logging
import queue
import re
import sys
import threading
from concurrent.futures import Executor, Future
from typing import Any, Awaitable, Callable, List, Optional, Tuple

from .pipes import READ_SIZE, read_fd, widen_pipe

logger = logging.getLogger(__name__)

#: The largest message body read (a 10 MB document is about 10-60 MB of JSON).
MAX_CONTENT_LENGTH = 1 << 30
#: Garbage without a line end is dropped in pieces of this size.
MAX_LINE = 1 << 16
#: Quiet time after which a body shorter than its Content-Length is looked at.
IDLE_SECONDS = 1.0

_HEADER_START_BYTE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z\r\n]")
_HEADER_LINE = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*:[ \t]*(.*?)[ \t]*")
#: where a Content-Length header starts (searched for in garbage)
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
#: a whole Content-Length header line: cannot occur inside a JSON text
#: (a raw line end is not allowed in a JSON string)
_HEADER_IN_BODY = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n", re.IGNORECASE)
_DECODER = json.JSONDecoder()


def _split(data: bytes) -> Tuple[Any, Optional[int]]:
    """A body that is not one JSON text: the JSON value it starts with (or
    None), and the offset where the bytes that follow it (or, without a
    value, the next message's header) start, if there are any."""
    text = data.decode("utf-8", "surrogateescape")
    start = len(text) - len(text.lstrip())
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        m = _HEADER_IN_BODY.search(data, 1)
        return None, (m.start() if m is not None else None)
    rest = text[end:]
    if not rest.strip():
        return value, None
    return value, len(data) - len(rest.encode("utf-8", "surrogateescape"))


class FrameParser:
    """Splits a byte stream into message bodies (``Content-Length``
    framing), recovering from framing errors as the module says.

    :meth:`feed` bytes, then call :meth:`next_body` until it returns None;
    :attr:`problems` collects one message per recovered error."""

    def __init__(self, max_length: int = MAX_CONTENT_LENGTH) -> None:
        self.max_length = max_length
        self.buf = bytearray()
        self.problems: List[str] = []
        self._length: Optional[int] = None  # Content-Length of the current header block
        self._headers = False  # the current block has headers
        self._bad = False  # ...and its Content-Length was invalid (reported)
        self._body: Optional[int] = None  # reading a body of this length
        self._garbage = 0  # bytes dropped since the last good header
        self._checked = -1  # take_partial looked at this many bytes in vain

    # -- input ---------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        self.buf += data

    def unread(self, data: bytes) -> None:
        """Put bytes back in front of the input (read as headers)."""
        self.buf[0:0] = data
        self._body = None
        self._reset()

    @property
    def body_missing(self) -> int:
        """How many bytes of the body being read have not come yet (0
        when no body is being read or it is all here)."""
        return max(0, self._body - len(self.buf)) if self._body is not None else 0

    @property
    def in_body(self) -> bool:
        """Waiting for the rest of a body (some of it already here)."""
        return self._body is not None and 0 < len(self.buf) < self._body

    # -- parsing -------------------------------------------------------------
    def _reset(self) -> None:
        self._checked = -1
        self._length = None
        self._headers = False
        self._bad = False

    def _drop(self, n: int) -> None:
        del self.buf[:n]
        self._garbage += n

    def _report_garbage(self) -> None:
        if self._garbage:
            self.problems.append("dropped %d bytes that were not a message" % self._garbage)
            self._garbage = 0

    def next_body(self) -> Optional[bytes]:
        """The next complete message body, or None until more bytes come."""
        buf = self.buf
        while True:
            if self._body is not None:
                n = self._body
                if len(buf) < n:
                    return None
                view = memoryview(buf)  # one copy of a large body, not two
                body = view[:n].tobytes()
                view.release()
                del buf[:n]
                self._body = None
                self._reset()
                return body
            nl = buf.find(b"\n")
            if nl < 0 and self._length is not None and buf and not _HEADER_START_BYTE.match(buf):
                # no empty line after the headers, and what follows cannot
                # be a header (a JSON body starts with "{"): the body is here
                self.problems.append("no empty line after the headers: "
                                     "reading the body right after them")
                self._body = self._length
                continue
            if nl < 0:
                if len(buf) > MAX_LINE:  # no header is that long: garbage up to the next one
                    m = _CONTENT_LENGTH.search(buf, 1)
                    self._drop(m.start() if m is not None else len(buf) - 32)
                    self._reset()
                    continue
                return None
            line = bytes(buf[:nl]).rstrip(b"\r")
            if not line.strip():  # the empty line that ends the headers
                del buf[:nl + 1]
                if self._length is not None:
                    self._body = self._length
                elif self._headers and not self._bad:
                    self.problems.append("a message without a Content-Length header: dropped")
                self._reset()
                continue
            header = _HEADER_LINE.fullmatch(line)
            if header is None and self._length is not None:
                # the headers were not ended by an empty line: the body starts here
                self.problems.append("no empty line after the headers: "
                                     "reading the body right after them")
                self._body = self._length
                continue
            m = _CONTENT_LENGTH.search(line)
            if m is not None and m.start() > 0:  # garbage, then a header
                self._drop(m.start())
                self._reset()
                continue
            if header is None:
                self._drop(nl + 1)
                self._reset()
                continue
            del buf[:nl + 1]
            self._report_garbage()
            self._headers = True
            if header.group(1).lower() == b"content-length":
                value = header.group(2)
                if value.isdigit() and len(value) <= 12 and int(value) <= self.max_length:
                    self._length = int(value)
                    self._bad = False
                else:
                    self._length = None
                    self._bad = True
                    self.problems.append("invalid Content-Length %r: message dropped"
                                         % value[:40].decode("latin-1"))

    def salvage(self, data: bytes) -> Tuple[Any, bool]:
        """``data`` (a body that is not one JSON text) ran into the next
        message (its Content-Length was too long): give the bytes of the next
        message back to the input.  Returns the JSON value ``data`` starts
        with (None if it starts with no JSON value) and whether anything was
        given back or found."""
        value, cut = _split(data)
        if cut is not None:
            self.unread(data[cut:])
        return value, value is not None or cut is not None

    def take_partial(self) -> Tuple[Any, bool]:
        """After :data:`IDLE_SECONDS` of silence in the middle of a body:
        when the bytes received are a whole JSON value (maybe followed by
        the start of another message), take them as the message.  Returns
        (the value or None, whether anything was taken); (None, False):
        keep waiting."""
        if not self.in_body or len(self.buf) == self._checked:
            return None, False
        partial = bytes(self.buf)
        value, cut = _split(partial)
        if value is None and cut is None:
            self._checked = len(partial)  # look again when more has come
            return None, False
        del self.buf[:]
        self._body = None
        self._reset()
        if cut is not None:
            self.unread(partial[cut:])
        return value, True

    def eof(self) -> None:
        self._report_garbage()
        if self._body is not None and self.buf:
            self.problems.append("end of input in the middle of a message (%d of %d bytes)"
                                 % (len(self.buf), self._body))
        elif self._headers:
            self.problems.append("end of input in the middle of a message's headers")


# ---------------------------------------------------------------------------


class DaemonExecutor(Executor):
    """A one-thread executor whose thread is a daemon: the process can exit
    while it works (``ThreadPoolExecutor`` threads are joined at exit, so a
    server whose client is gone would wait for a long lint to finish)."""

    def __init__(self, name: str) -> None:
        self._queue: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._closed = False
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> "Future[Any]":
        if self._closed:
            raise RuntimeError("executor is shut down")
        future: "Future[Any]" = Future()
        self._queue.put((future, fn, args, kwargs))
        return future

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        self._queue.put(None)
        if wait:
            self._thread.join()


class SafeWriter:
    """Writes to the client; when the client is gone (broken pipe, closed
    stream) it says so once, calls ``on_lost`` and drops further output,
    instead of raising into pygls (whose error reporting would try to write
    again, and again)."""

    def __init__(self, write: Callable[[bytes], Any], close: Callable[[], Any],
                 on_lost: Callable[[], None]) -> None:
        self._write = write
        self._close = close
        self._on_lost = on_lost
        self.lost = False

    def write(self, data: bytes) -> None:
        if self.lost:
            return
        try:
            self._write(data)
        except (OSError, ValueError) as exc:  # BrokenPipeError; ValueError: closed file
            self.lost = True
            logger.warning("cannot write to the client (%s): it is gone", type(exc).__name__)
            self._on_lost()

    def close(self) -> None:
        try:
            self._close()
        except (OSError, ValueError):
            pass


# ---------------------------------------------------------------------------


async def serve(read: Callable[[int], Awaitable[bytes]], protocol: Any,
                stop: "asyncio.Event", idle: float = IDLE_SECONDS) -> str:
    """Read messages with ``read`` (returns b"" at the end; its argument,
    a hint, is how many bytes of a body are still to come) and hand them to
    ``protocol`` until the input ends or ``stop`` is set.  Returns why it
    stopped ("eof" or "stopped").  ``exit`` raises SystemExit through it."""
    parser = FrameParser()
    pending: Optional["asyncio.Future[bytes]"] = None
    stopper = asyncio.ensure_future(stop.wait())
    try:
        while not stop.is_set():
            body = parser.next_body()
            _log_problems(parser)
            if body is not None:
                dispatch(protocol, parser, body)
                continue
            if pending is None:
                pending = asyncio.ensure_future(read(parser.body_missing))
            done, _ = await asyncio.wait({pending, stopper}, timeout=idle if parser.in_body else None,
                                         return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                return "stopped"
            if not done:  # silence in the middle of a body
                _take_partial(protocol, parser)
                continue
            try:
                data = pending.result()
            except (OSError, ValueError) as exc:
                logger.warning("cannot read from the client: %s", exc)
                data = b""
            pending = None
            if not data:
                while _take_partial(protocol, parser):
                    while True:
                        body = parser.next_body()
                        if body is None:
                            break
                        dispatch(protocol, parser, body)
                parser.eof()
                _log_problems(parser)
                return "eof"
            parser.feed(data)
        return "stopped"
    finally:
        stopper.cancel()
        if pending is not None and not pending.done():
            pending.cancel()


def _log_problems(parser: FrameParser) -> None:
    for problem in parser.problems:
        logger.error("bad input from the client: %s", problem)
    parser.problems.clear()


def _take_partial(protocol: Any, parser: FrameParser) -> bool:
    value, taken = parser.take_partial()
    if taken:
        logger.error("bad input from the client: a message shorter than its Content-Length "
                     "(nothing more came): reading what came")
        if value is None:
            _parse_error(protocol, ValueError("not JSON"))
        else:
            handle(protocol, value)
    return taken


def dispatch(protocol: Any, parser: FrameParser, body: bytes) -> None:
    """Decode one body and hand it to the protocol; bad JSON is answered
    with ParseError (after trying the too-long-Content-Length repair)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        value, found = parser.salvage(body)
        if found:
            logger.error("bad input from the client: a message ran into the next one "
                         "(Content-Length too long?): reading the next one again")
        if value is None:
            _parse_error(protocol, exc)
        else:
            handle(protocol, value)
        return
    handle(protocol, data)


def handle(protocol: Any, data: Any) -> None:
    try:
        message = protocol.structure_message(data) if isinstance(data, dict) else data
        protocol.handle_message(message)
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception:  # never let one message stop the server
        logger.exception("cannot handle a message")


def _parse_error(protocol: Any, exc: BaseException) -> None:
    logger.error("bad input from the client: the message is not JSON: %s", str(exc)[:200])
    send_error(protocol, None, -32700, "Parse error: %s" % str(exc)[:200])


def send_error(protocol: Any, msg_id: Any, code: int, message: str, data: Any = None) -> None:
    """An error response (``id`` null when it cannot be known)."""
    if isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
        msg_id = None
    error: dict = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": error})


# -- the two transports -------------------------------------------------------


def serve_stdio(protocol: Any, stdin: Any = None, stdout: Any = None,
                on_stop: Optional[Callable[[], None]] = None) -> str:
    """Serve on stdin/stdout until the input ends, the client is gone or
    ``exit`` (SystemExit, propagated).  Returns "eof" or "stopped"."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    reader = DaemonExecutor("irilint-lsp-stdin")
    try:
        fd: Optional[int] = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None:
        widen_pipe(fd)
    try:
        widen_pipe(stdout.fileno())  # a large publication is written at once too
    except (AttributeError, OSError, ValueError):
        pass

    def read_chunk(want: int) -> bytes:
        if fd is not None:
            return read_fd(fd, want)
        read1 = getattr(stdin, "read1", None)
        return read1(READ_SIZE) if read1 is not None else stdin.read(READ_SIZE)

    def write(data: bytes) -> None:
        stdout.write(data)
        stdout.flush()

    async def main() -> str:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()

        def lost() -> None:
            loop.call_soon_threadsafe(stop.set)

        protocol.set_writer(SafeWriter(write, stdout.close, lost))
        return await serve(lambda want: loop.run_in_executor(reader, read_chunk, want), protocol, stop)

    try:
        return asyncio.run(main())
    finally:
        reader.shutdown(wait=False, cancel_futures=True)
        if on_stop is not None:
            on_stop()


def serve_tcp(protocol: Any, host: str, port: int) -> None:
    """Listen on ``host:port`` and serve the first client that connects
    until ``exit`` or the end of its connection (as pygls does)."""

    async def main() -> None:
        done = asyncio.get_running_loop().create_future()

        async def connection(sr: asyncio.StreamReader, sw: asyncio.StreamWriter) -> None:
            stop = asyncio.Event()

            def write(data: bytes) -> None:
                if sw.is_closing():
                    raise BrokenPipeError("connection closed")
                sw.write(data)

            protocol.set_writer(SafeWriter(write, sw.close, stop.set))
            try:
                why = await serve(lambda want: sr.read(READ_SIZE), protocol, stop)
                logger.info("client connection ended (%s)", why)
            finally:
                sw.close()
                if not done.done():
                    done.set_result(None)

        server = await asyncio.start_server(connection, host, port)
        async with server:
            await done

    asyncio.run(main())
