"""The client's pipes on stdio: read a whole-text change in one piece.

A pipe holds 64 KB by default, so a whole-text change of a 300 KB document
reaches the server in five or six pieces; handed over one by one, each is a
round trip between the reader thread and the event loop.  :func:`read_fd`
takes in the rest of a body whose length is known, and :func:`widen_pipe`
lets the pipes hold a megabyte where the system allows it.  TCP and Windows
read as before.
"""
from __future__ import annotations

import os
import select

#: what one read asks the system for
READ_SIZE = 1 << 20
#: How long the stdin reader waits for more of a body before it hands over
#: what it has (well below the transport's IDLE_SECONDS, whose wait starts after).
BODY_WAIT_SECONDS = 0.05
#: ...and hands over at most about this much at once (a huge body is not
#: held twice over in one piece)
BODY_GATHER = 4 << 20

#: poll() says when a pipe has more (not on Windows, where select() takes
#: sockets only: there each read hands over what has come)
_CAN_POLL = hasattr(select, "poll") and os.name != "nt"


def read_fd(fd: int, want: int = 0, wait: float = BODY_WAIT_SECONDS) -> bytes:
    """What comes next on ``fd`` (blocks until something does; b"" at the
    end), and when that is less than ``want`` bytes (the rest of a body),
    more as it comes, until ``want`` bytes (at most :data:`BODY_GATHER`) or
    ``wait`` seconds without any.

    A pipe holds 64 KB (unless :func:`widen_pipe` could widen it): a
    whole-text change of a 300 KB document comes in five or six pieces, and
    handing each over on its own is a round trip between this thread and
    the event loop per piece.  The event loop's wait for a body that never
    completes (its Content-Length too long) starts after this returns, as
    before."""
    data = os.read(fd, READ_SIZE)
    want = min(want, BODY_GATHER)
    if len(data) >= want or not data or not _CAN_POLL:
        return data
    parts = [data]
    got = len(data)
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    timeout_ms = max(1, int(wait * 1000))
    while got < want and poller.poll(timeout_ms):
        more = os.read(fd, READ_SIZE)
        if not more:  # the end of input: the next read says so again
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


#: What a pipe from the client is widened to (Linux: F_SETPIPE_SZ; an
#: unprivileged process may go up to /proc/sys/fs/pipe-max-size, 1 MB by
#: default)
PIPE_SIZE = 1 << 20


def widen_pipe(fd: int, size: int = PIPE_SIZE) -> int:
    """Let the pipe on ``fd`` hold ``size`` bytes (when it is a pipe and
    the system allows it): a client then writes a whole-text change of a
    300 KB document at once instead of 64 KB at a time, each piece waiting
    for this process to read the previous one.  Returns the pipe's size
    (0 when not a pipe or not known)."""
    import stat

    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return 0
        import fcntl

        setter = getattr(fcntl, "F_SETPIPE_SZ", None)
        getter = getattr(fcntl, "F_GETPIPE_SZ", None)
        if setter is None or getter is None:
            return 0
        current = fcntl.fcntl(fd, getter)
        if current < size:
            try:
                current = fcntl.fcntl(fd, setter, size)
            except OSError:  # over the system's limit: the pipe stays as it is
                pass
        return current
    except (OSError, ImportError, ValueError):
        return 0
