"""read_document given the stat a walk has just made of the file: it skips
its own look before opening and the first fingerprint, and reads what it
read without it, also when the file changed since that stat."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint.fileio import DocumentError, FileStamp, read_document

_HYPO = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_TEXTS = st.lists(st.sampled_from(["a", "\n", "\r\n", "é", "\u2028", "\U0001f600", "<?xml", "-*- coding: latin-1 -*-"]),
                  max_size=60).map("".join)


def _fields(doc):
    return (doc.path, doc.text, doc.encoding, doc.bom, doc.newline, doc.digest, doc.stat, doc.ctime_ns)


@_HYPO
@given(text=_TEXTS)
def test_read_with_the_walk_stat_is_read_without_it(tmp_path, text):
    path = str(tmp_path / "a.md")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    assert _fields(read_document(path, stat=os.stat(path))) == _fields(read_document(path))


@_HYPO
@given(before=_TEXTS, after=_TEXTS, same_size=st.booleans())
def test_a_file_changed_since_the_walk_stat_is_read_as_it_is_now(tmp_path, before, after, same_size):
    path = str(tmp_path / "b.md")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(before)
    walked = os.stat(path)
    if same_size:  # only the fingerprint's time tells the change
        after = "y" * len(before.encode("utf-8"))
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(after)
    # a change the stamp sees (mtime resolution can be coarse)
    os.utime(path, ns=(walked.st_atime_ns, walked.st_mtime_ns + 1_000_000_000))
    doc = read_document(path, stat=walked)
    assert _fields(doc) == _fields(read_document(path))
    assert doc.stat == FileStamp.of(os.stat(path))


def test_the_walk_stat_saves_the_stat_and_one_fstat(tmp_path, monkeypatch):
    path = str(tmp_path / "c.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("http://example.com/\n")
    walked = os.stat(path)
    calls = []
    real_stat, real_fstat = os.stat, os.fstat
    monkeypatch.setattr(os, "stat", lambda *a, **k: calls.append("stat") or real_stat(*a, **k))
    monkeypatch.setattr(os, "fstat", lambda *a, **k: calls.append("fstat") or real_fstat(*a, **k))
    read_document(path, stat=walked)
    assert calls == ["fstat"]
    calls.clear()
    read_document(path)
    assert calls == ["stat", "fstat", "fstat"]


def test_a_walk_stat_of_a_folder_is_refused_naming_the_path(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    with pytest.raises(DocumentError) as err:
        read_document(str(folder), stat=os.stat(str(folder)))
    assert err.value.path == str(folder) and err.value.reason == "is a directory"


def test_a_walk_stat_over_the_size_cap_is_refused_unopened(tmp_path):
    path = str(tmp_path / "e.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("x" * 100)
    with pytest.raises(DocumentError) as err:
        read_document(path, max_size=10, stat=os.stat(path))
    assert err.value.kind == "too-large" and err.value.path == path
