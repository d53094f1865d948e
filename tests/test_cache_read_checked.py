"""A checked cache file is read without copying its body
(irilint.cache._read_checked_whole): it must accept and refuse exactly
what cutting it with bytes.partition does, and the pack's lines are those
of its body."""
from __future__ import annotations

import hashlib

from hypothesis import given, settings, strategies as st

from irilint.cache import MAX_PACK_BYTES, _read_checked, _read_checked_whole

HEADER = b"irilint test 1 "


def plain_read(raw: bytes, header: bytes, separator: bytes):
    head, _, body = raw.partition(separator)
    if (len(raw) <= MAX_PACK_BYTES and head.startswith(header)
            and head[len(header):] == hashlib.sha256(body).hexdigest().encode("ascii")):
        return body
    return None


@st.composite
def files(draw):
    separator = draw(st.sampled_from([b"\n", b"\0"]))
    body = draw(st.binary(max_size=40) | st.lists(st.binary(max_size=8), max_size=5).map(separator.join))
    digest = hashlib.sha256(body).hexdigest().encode("ascii")
    raw = draw(st.sampled_from([
        HEADER + digest + separator + body,  # as written
        HEADER + digest,  # no body, no separator
        HEADER + hashlib.sha256(b"").hexdigest().encode("ascii"),
        HEADER + digest + separator,
        HEADER[:-1] + digest + separator + body,
        b"",
        separator,
    ]))
    if draw(st.booleans()) and raw:
        cut = draw(st.integers(0, len(raw) - 1))
        raw = raw[:cut] + draw(st.binary(max_size=2)) + raw[cut + 1:]
    return raw, separator


@settings(max_examples=500, deadline=None)
@given(files())
def test_a_checked_file_reads_as_partition_cuts_it(tmp_path_factory, case):
    raw, separator = case
    path = tmp_path_factory.mktemp("c") / "f"
    path.write_bytes(raw)
    told = []
    expected = plain_read(raw, HEADER, separator)
    assert _read_checked(str(path), HEADER, separator, lambda p, what: told.append(what)) == expected
    assert bool(told) == (expected is None)
    whole = _read_checked_whole(str(path), HEADER, separator)
    if expected is None:
        assert whole is None
    else:
        assert whole[0] == raw and whole[0][whole[1]:] == expected
        if separator == b"\n":  # the pack's lines (an empty one is none)
            assert [line for line in whole[0].split(b"\n")[1:] if line] == [
                line for line in expected.split(b"\n") if line]
