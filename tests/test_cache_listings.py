"""The listing index never serves a stale directory listing: a walk that
uses it yields what a walk that lists every directory yields, after any
change to the tree, and a warm ``irilint check`` prints what a run without
the cache prints."""
from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint import config
from irilint import discovery
from irilint.cache import Cache, ListingIndex
from irilint.cli import main

SECOND = 10 ** 9
#: longer than a tick of the kernel's coarse clock, which stamps files
TICK = 0.03

pytestmark = pytest.mark.skipif(not ListingIndex.USABLE, reason="the listing index is for POSIX systems")


def _stat_like(dev, ino, mtime_ns, ctime_ns):
    # mode, ino, dev, nlink, uid, gid, size, 3 int times, 3 float times, 3 ns times
    return os.stat_result((0o40755, ino, dev, 2, 0, 0, 4096, 0, 0, 0, 0.0, 0.0, 0.0, 0, mtime_ns, ctime_ns))


def test_listings_round_trip_and_any_changed_stamp_is_unknown(tmp_path):
    now = 1_800_000_000 * SECOND
    index = ListingIndex(Cache(str(tmp_path)), started_ns=now)
    old = _stat_like(5, 7, now - 60 * SECOND, now - 60 * SECOND)
    empty = _stat_like(5, 8, now - 60 * SECOND, now - 60 * SECOND)
    odd_name = os.fsdecode(b"caf\xe9 \xff.md")  # not UTF-8: kept as the filesystem's bytes
    names = sorted(["a b.md", "\u05e9\u05dc\u05d5\u05dd.md", odd_name, ".hidden", "link", "z"])
    index.put(old, names, frozenset({"link", odd_name}))
    index.put(empty, [], frozenset())
    index.save()
    again = ListingIndex(Cache(str(tmp_path)), started_ns=now + 60 * SECOND)
    assert again.get(old) == (names, frozenset({"link", odd_name}))
    assert again.get(empty) == ([], frozenset())
    for changed in (_stat_like(5, 7, now - 59 * SECOND, now - 60 * SECOND),
                    _stat_like(5, 7, now - 60 * SECOND, now - 59 * SECOND),
                    _stat_like(6, 7, now - 60 * SECOND, now - 60 * SECOND),
                    _stat_like(5, 9, now - 60 * SECOND, now - 60 * SECOND)):
        assert again.get(changed) is None


def test_racy_listings_and_unknown_inodes_are_not_recorded(tmp_path):
    now = 1_800_000_000 * SECOND
    index = ListingIndex(Cache(str(tmp_path)), started_ns=now)
    racy = _stat_like(5, 7, now - 60 * SECOND, now - SECOND)  # changed a second before the run
    no_inode = _stat_like(5, 0, now - 60 * SECOND, now - 60 * SECOND)
    index.put(racy, ["a"], frozenset())
    index.put(no_inode, ["a"], frozenset())
    index.save()
    again = ListingIndex(Cache(str(tmp_path)), started_ns=now + 60 * SECOND)
    assert again.get(racy) is None and again.get(no_inode) is None
    assert not os.path.exists(index.path)  # nothing to write


def test_a_corrupt_listing_index_is_ignored(tmp_path):
    now = 1_800_000_000 * SECOND
    old = _stat_like(5, 7, now - 60 * SECOND, now - 60 * SECOND)
    index = ListingIndex(Cache(str(tmp_path)), started_ns=now)
    index.put(old, ["aaa.md"], frozenset())
    index.save()
    raw = open(index.path, "rb").read()
    with open(index.path, "wb") as fh:
        fh.write(raw.replace(b"aaa.md", b"aab.md"))  # the checksum no longer matches
    assert ListingIndex(Cache(str(tmp_path))).get(old) is None
    for garbage in (b"", b"\0\0", ListingIndex.HEADER + b"0" * 64 + b"\0x", os.urandom(300)):
        with open(index.path, "wb") as fh:
            fh.write(garbage)
        assert ListingIndex(Cache(str(tmp_path))).get(old) is None


# -- walks -----------------------------------------------------------------------


def _walk(root, listings=None):
    seen = []
    items = discovery.iter_files([str(root)], respect_gitignore=False, path_type=str, with_stat=True,
                                 listings=listings, on_directory=lambda d, names: seen.append((d, list(names))))
    out = [(item[0], item[1].st_ino) if isinstance(item, tuple) else repr(item) for item in items]
    return out, seen


def _index(tmp_path):
    # RACY_NS: the tests wait out a tick of the coarse clock after each
    # change instead of two seconds.
    index = ListingIndex(Cache(str(tmp_path / "cache")))
    index.RACY_NS = int(TICK / 2 * SECOND)
    return index


def _tree(root):
    (root / "docs" / "deep" / "deeper").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("a", encoding="utf-8")
    (root / "docs" / "deep" / "b.md").write_text("b", encoding="utf-8")
    (root / "docs" / "deep" / "deeper" / "c.md").write_text("c", encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "h.md").write_text("h", encoding="utf-8")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "n.md").write_text("n", encoding="utf-8")
    (root / "empty").mkdir()
    os.symlink(root / "docs" / "deep", root / "link-to-deep")
    os.symlink(root / "docs" / "a.md", root / "link-to-a.md")
    os.symlink(root / "nowhere", root / "dangling")


def test_an_unchanged_tree_is_walked_without_listing_a_directory(tmp_path, monkeypatch):
    root = tmp_path / "root"
    root.mkdir()
    _tree(root)
    time.sleep(TICK)
    reference = _walk(root)
    index = _index(tmp_path)
    assert _walk(root, index) == reference
    index.save()
    calls = []
    real_scandir = os.scandir
    monkeypatch.setattr(discovery.os, "scandir", lambda p: calls.append(p) or real_scandir(p))
    warm = ListingIndex(Cache(str(tmp_path / "cache")))
    assert _walk(root, warm) == reference
    assert calls == []
    files = [os.path.relpath(item[0], root) for item in reference[0] if isinstance(item, tuple)]
    assert files == ["docs/a.md", "docs/deep/b.md", "docs/deep/deeper/c.md"]  # each file once
    assert len(reference[1]) == 5  # root, docs, deep, deeper, empty


#: things done to the tree between walks: (operation, first name, second name)
_NAMES = ["a", "b", "sub", "sub/x", "sub/y", "sub/inner", "sub/inner/z"]
_OPS = st.lists(st.tuples(st.sampled_from(["write", "mkdir", "remove", "rename", "symlink", "touch"]),
                          st.sampled_from(_NAMES), st.sampled_from(_NAMES)), min_size=1, max_size=6)


def _apply(root, op, first, second):
    a, b = root / first, root / second
    try:
        if op == "write":
            a.write_text(first, encoding="utf-8")
        elif op == "mkdir":
            a.mkdir()
        elif op == "remove":
            if a.is_dir() and not a.is_symlink():
                shutil.rmtree(a)
            else:
                a.unlink()
        elif op == "rename":
            os.replace(a, b)
        elif op == "symlink":
            os.symlink(b, a)
        elif op == "touch":
            os.utime(a)  # a new mtime for a file or folder, no new entry
    except OSError:
        pass  # e.g. the parent is missing: the tree stays as it was


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_OPS, min_size=1, max_size=4))
def test_after_any_changes_a_walk_with_the_index_is_a_full_walk(tmp_path_factory, steps):
    tmp_path = tmp_path_factory.mktemp("listings")
    root = tmp_path / "root"
    root.mkdir()
    (root / "sub").mkdir()
    (root / "sub" / "x").write_text("x", encoding="utf-8")
    time.sleep(TICK)
    index = _index(tmp_path)
    assert _walk(root, index) == _walk(root)
    for ops in steps:
        index.save()
        for op in ops:
            _apply(root, op[0], op[1], op[2])
        time.sleep(TICK)  # after a change, the stamps of the next walk are not racy
        index = _index(tmp_path)  # read back from the file, as the next run does
        assert _walk(root, index) == _walk(root)


# -- the check command -------------------------------------------------------------


@pytest.fixture
def project(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "a.md").write_text("see http://e.org/100%\n", encoding="utf-8")
    (docs / "b.md").write_text("see http://e.org/ok\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    # Every listing is recorded: the tests wait out a tick after each change.
    monkeypatch.setattr(ListingIndex, "RACY_NS", int(TICK / 2 * SECOND))
    config.clear_cache()
    time.sleep(TICK)
    return tmp_path


def _findings(capsys, *args):
    capsys.readouterr()
    config.clear_cache()
    main(["check", "--format", "json", "--jobs", "1", *args])
    return sorted((d["path"], d["name"], d["line"]) for d in json.loads(capsys.readouterr().out))


def _both(capsys):
    """The findings of a cached run and of a run without the cache."""
    return _findings(capsys, "docs"), _findings(capsys, "--no-cache", "docs")


def test_a_warm_check_sees_every_change_to_the_tree(project, capsys):
    docs = project / "docs"
    cold = _findings(capsys, "docs")
    assert ("docs/guide/a.md", "bad-percent-encoding", 1) in cold
    assert os.path.exists(project / ".irilint_cache" / "v3" / ListingIndex.NAME)
    steps = [
        # a new file in a listed folder
        lambda: (docs / "guide" / "new.md").write_text("x http://e.org/%zz\n", encoding="utf-8"),
        # a file removed, and one renamed to a name that is skipped
        lambda: (docs / "guide" / "a.md").unlink(),
        lambda: os.replace(docs / "guide" / "new.md", docs / "guide" / ".new.md"),
        # a file replaced by a folder holding a file
        lambda: ((docs / "b.md").unlink(), (docs / "b.md").mkdir(),
                 (docs / "b.md" / "c.md").write_text("y http://e.org/%q\n", encoding="utf-8")),
        # a link to a folder
        lambda: os.symlink(docs / "b.md", docs / "guide" / "link"),
        # a configuration file in a folder: its settings govern the folder
        lambda: (docs / "b.md" / "irilint.toml").write_text('ignore = ["bad-percent-encoding"]\n',
                                                              encoding="utf-8"),
    ]
    for step in steps:
        step()
        time.sleep(TICK)
        warm, reference = _both(capsys)
        assert warm == reference
    paths = {p for p, _, _ in warm}
    assert "docs/guide/a.md" not in paths and "docs/guide/new.md" not in paths
    assert not any(p.startswith("docs/b.md/") for p in paths)  # the config's ignore holds


def test_a_change_within_the_racy_window_is_seen(project, capsys, monkeypatch, stale_stat):
    """The folder changed just now: its listing was not recorded, so a new
    entry that leaves the folder's stamp as it was is still found."""
    monkeypatch.setattr(ListingIndex, "RACY_NS", 2 * SECOND)
    guide = project / "docs" / "guide"
    _findings(capsys, "docs")
    # The folder keeps its stamp: an addition within the tick it was listed in.
    stale_stat(guide)
    (guide / "new.md").write_text("x http://e.org/%zz\n", encoding="utf-8")
    assert ("docs/guide/new.md", "bad-percent-encoding", 1) in _findings(capsys, "docs")


def test_without_the_racy_rule_the_recorded_listing_would_be_used(project, capsys, monkeypatch, stale_stat):
    """The counterpart of the test above: for an unchanged stamp the index
    is trusted (so it is really used)."""
    monkeypatch.setattr(ListingIndex, "RACY_NS", -10 * SECOND)
    guide = project / "docs" / "guide"
    cold = _findings(capsys, "docs")
    # The folder keeps its stamp: an addition within the tick it was listed in.
    stale_stat(guide)
    (guide / "new.md").write_text("x http://e.org/%zz\n", encoding="utf-8")
    assert _findings(capsys, "docs") == cold
