"""A binary file found in a walk is skipped unread by a warm run (the stat
index remembers the verdict with the file's stamp), and told again when
named; a change to it is seen; the verdict is decode_bytes' own."""
from __future__ import annotations

import builtins
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from irilint import config
from irilint.cache import StatIndex
from irilint.cli import main
from irilint.fileio import _BOMS, DocumentError, binary_offset, decode_bytes

SECOND = 10 ** 9


@settings(max_examples=500, deadline=None)
@given(data=st.one_of(
    st.binary(max_size=40),
    st.tuples(st.sampled_from([m for m, _ in _BOMS] + [b""]), st.text(max_size=20),
              st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]),
              st.binary(max_size=3))
    .map(lambda t: t[0] + t[1].encode(t[2], "surrogatepass") + t[3])))
def test_binary_offset_is_the_nul_decode_bytes_refuses(data):
    offset = binary_offset(data)
    try:
        decode_bytes(data)
    except DocumentError as exc:
        if exc.kind == "binary":
            assert offset != -1 and exc.reason == "binary file (NUL byte at offset %d)" % offset
            return
    assert offset == -1


@pytest.fixture
def tree(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("see http://e.org/100%\n", encoding="utf-8")
    (docs / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR http://e.org/100%")
    (docs / "z.bin").write_bytes(b"http://e.org/100%\x00")
    (docs / "u16.md").write_bytes("\ufeffsee http://e.org/100%\n".encode("utf-16-le"))  # NULs, but text
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    # Every stamp recorded (the files were written just now).
    monkeypatch.setattr(StatIndex, "RACY_NS", -10 * SECOND)
    config.clear_cache()
    return tmp_path


def _run(capsys, *args):
    capsys.readouterr()
    try:
        code = main(["check", "--format", "json", *args])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, [(d["path"], d.get("name")) for d in json.loads(out.out)], out.err


def _spy_opens(monkeypatch):
    """The base names of the files opened from now on, by any reader."""
    seen = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):
        seen.append(os.path.basename(str(file)))
        return real_open(file, *args, **kwargs)

    def spy_os_open(path, *args, **kwargs):
        seen.append(os.path.basename(str(path)))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return seen


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_warm_run_skips_binary_files_unread(tree, capsys, monkeypatch, jobs):
    cold = _run(capsys, "docs", "--jobs", jobs)
    assert ("docs/u16.md", "bad-percent-encoding") in cold[1]
    assert not any("image.png" in p or "z.bin" in p for p, _ in cold[1])
    # --jobs 2: the workers read the binary files of the cold run; the
    # parent learns their verdict when it hashes them in the first warm run.
    first_warm = _run(capsys, "docs", "--jobs", jobs)
    assert first_warm == cold
    seen = _spy_opens(monkeypatch)
    warm = _run(capsys, "docs", "--jobs", jobs)
    assert warm == cold
    assert "image.png" not in seen and "z.bin" not in seen


def test_a_binary_file_named_on_the_command_line_is_still_told(tree, capsys):
    _run(capsys, "docs", "--jobs", "1")
    _run(capsys, "docs", "--jobs", "1")
    code, findings, err = _run(capsys, "docs", "docs/z.bin", "--jobs", "1")
    assert "skipped docs/z.bin: binary file (NUL byte at offset 17)" in err
    assert ("docs/a.md", "bad-percent-encoding") in findings


def test_a_binary_file_that_becomes_text_is_checked(tree, capsys):
    cold = _run(capsys, "docs", "--jobs", "1")
    assert _run(capsys, "docs", "--jobs", "1") == cold
    z = tree / "docs" / "z.bin"
    st = os.stat(z)
    z.write_bytes(b"see http://e.org/100%\n")
    os.utime(z, ns=(st.st_atime_ns, st.st_mtime_ns + SECOND))
    assert ("docs/z.bin", "bad-percent-encoding") in _run(capsys, "docs", "--jobs", "1")[1]


def test_a_same_stamp_rewrite_of_a_binary_file_within_the_racy_window_is_read(tree, capsys, monkeypatch,
                                                                               stale_stat):
    monkeypatch.setattr(StatIndex, "RACY_NS", 2 * SECOND)  # the default again: the files are racy
    cold = _run(capsys, "docs", "--jobs", "1")
    assert _run(capsys, "docs", "--jobs", "1") == cold
    z = tree / "docs" / "z.bin"
    stale_stat(str(z))
    z.write_bytes(b"see http://e.org/100%\n\n")
    assert ("docs/z.bin", "bad-percent-encoding") in _run(capsys, "docs", "--jobs", "1")[1]
