"""The cold read's shortcuts (issue 18) read what the general steps read:

* ``_read_all`` reads a file that fstat measured right in one call; for a
  size that is wrong (the file grew or shrank since) or over the limit it
  goes on reading as before: the bytes are always the file's first
  ``limit + 1`` (all of them without a limit);
* ``decode_bytes`` looks for a byte order mark only when the first byte can
  start one: its encoding, mark and binary verdict are those of
  ``_bom_of`` and ``binary_offset``.
"""
from __future__ import annotations

import os

from hypothesis import example, given, settings, strategies as st

from irilint import fileio
from irilint.fileio import DocumentError, decode_bytes


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.integers(-1, 320), st.one_of(st.none(), st.integers(0, 320)))
@example(b"abc", 3, None)
@example(b"abcdef", 3, None)
@example(b"abc", 10, None)
@example(b"abcdef", 6, 5)
@example(b"abcdef", 6, 2)
@example(b"", 0, None)
@example(b"", 5, None)
def test_read_all_gives_the_first_limit_plus_one_bytes_whatever_size_it_is_told(tmp_path_factory, data,
                                                                               size, limit):
    path = tmp_path_factory.mktemp("read") / "f"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        got = fileio._read_all(fd, limit, size)
    finally:
        os.close(fd)
    assert got == (data if limit is None else data[:limit + 1])


_BOMS = [b"", b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xef",
         b"\xff", b"\x00"]


_BODIES = st.one_of(
    st.binary(max_size=40),
    st.lists(st.sampled_from([b"text ", b"\x00", b"\xc3\xa9", b"\xff", b"\n", b"# -*- coding: latin-1 -*-\n",
                              b"<meta charset=koi8-r>"]), max_size=8).map(b"".join),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_BOMS), _BODIES, st.sampled_from([None, "text", "python", "html"]))
@example(b"", b"plain", None)
@example(b"", b"a\x00b", None)
@example(b"", b"text\x00", None)
@example(b"\xff\xfe", b"a\x00", None)
@example(b"\xff\xfe\x00\x00", b"a\x00\x00\x00", "text")
def test_decode_bytes_reads_the_mark_and_the_nul_as_bom_of_and_binary_offset_do(bom, body, syntax):
    data = bom + body
    encoding, mark = fileio._bom_of(data)
    nul = fileio.binary_offset(data, encoding)
    try:
        doc = decode_bytes(data, "f", digest=False, syntax=syntax)
    except DocumentError as exc:
        if nul != -1:
            assert exc.kind == "binary" and str(nul) in exc.reason
        else:
            assert exc.kind == "decode"
        return
    assert nul == -1
    assert doc.bom == mark
    if mark:
        assert doc.encoding == encoding
