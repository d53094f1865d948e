"""Output named on the command line that is a device or a named pipe
(/dev/null, /dev/stdout, a FIFO) is written into, never replaced: the
atomic rename that protects a regular file would put a regular file in
its place (run as root, over /dev/null itself)."""
from __future__ import annotations

import os
import stat
import threading

import pytest

from irilint.fileio import AtomicTextOutput, write_file_atomic, writes_through
from cli_run import run

SAMPLE = "see http://example.com/\u202e%zz and http://\u0440\u0430\u0443\u0440\u0430l.com/\n"


def read_from_pipe(path, write):
    """What ``write()`` writes into the named pipe ``path``, read by a thread."""
    got = {}

    def reader():
        with open(path, "rb") as fh:
            got["data"] = fh.read()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    result = write()
    t.join(30)
    assert not t.is_alive(), "nothing was written into the pipe"
    return result, got["data"]


@pytest.fixture
def pipe(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    path = folder / "pipe"
    os.mkfifo(path)
    return path


def left_as_it_was(pipe):
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert os.listdir(pipe.parent) == ["pipe"]  # no temporary file left beside it


def test_writes_through_names_what_is_neither_a_file_nor_a_folder(tmp_path, pipe):
    (tmp_path / "f").write_text("x")
    assert writes_through(str(pipe))
    assert writes_through(os.devnull)  # asked, never written to here
    assert not writes_through(str(tmp_path / "f"))
    assert not writes_through(str(tmp_path))
    assert not writes_through(str(tmp_path / "missing"))


@pytest.mark.parametrize("fmt", ["json", "text", "sarif"])
def test_check_output_file_into_a_named_pipe(tmp_path, pipe, fmt):
    doc = tmp_path / "doc.md"
    doc.write_text(SAMPLE, encoding="utf-8")
    regular = tmp_path / "regular.out"
    argv = ["check", "--no-cache", "--jobs", "1", "--format", fmt, str(doc)]
    expected = run(argv + ["--output-file", str(regular)])
    assert expected[0] == 1
    result, data = read_from_pipe(pipe, lambda: run(argv + ["--output-file", str(pipe)]))
    assert result == expected
    assert data == regular.read_bytes() and data
    left_as_it_was(pipe)


def test_report_output_into_a_named_pipe(tmp_path, pipe):
    doc = tmp_path / "doc.md"
    doc.write_text(SAMPLE, encoding="utf-8")
    regular = tmp_path / "report.md"
    argv = ["report", "--no-cache", "--format", "markdown", str(doc)]
    code = run(argv + ["-o", str(regular)])[0]
    result, data = read_from_pipe(pipe, lambda: run(argv + ["-o", str(pipe)]))
    assert result[0] == code
    assert data == regular.read_bytes() and b"example.com" in data
    left_as_it_was(pipe)


def test_atomic_writers_write_into_a_named_pipe(tmp_path, pipe):
    data = "a line\n\udcff undecodable name\n".encode("utf-8", "surrogateescape")
    _, got = read_from_pipe(pipe, lambda: write_file_atomic(str(pipe), data))
    assert got == data
    left_as_it_was(pipe)
    # a lone surrogate that cannot go back: the whole output backslash-escaped,
    # as into a regular file
    text = ["first \udcff\n", "then \ud800 alone\n"]

    def written(path):
        out = AtomicTextOutput(str(path))
        for piece in text:
            out.write(piece)
        out.commit()

    written(tmp_path / "regular")
    _, got = read_from_pipe(pipe, lambda: written(pipe))
    assert got == (tmp_path / "regular").read_bytes() and b"\\udcff" in got
    left_as_it_was(pipe)
