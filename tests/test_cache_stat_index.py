"""The stat index never serves a stale digest, the fast paths of a warm run
and of reading answer as the slow ones, and --jobs 2 prints what --jobs 1
prints on a tree with findings, errors, undecodable files and fixes."""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint import config
from irilint.cache import CACHE_DIR_NAME, Cache, StatIndex
from irilint.cli import _build_parser, main
from irilint.paths import display_path as _display_path, folder_of as _folder_of
from irilint.project import Project as _Checker
from irilint.runner import discover as _discover
from irilint.fileio import _BOMS, DocumentError, _read_all, decode_bytes, read_document

SECOND = 10 ** 9


def _stat_like(size, mtime_ns, ctime_ns, ino):
    # mode, ino, dev, nlink, uid, gid, size, 3 int times, 3 float times, 3 ns times
    return os.stat_result((0o100644, ino, 0, 1, 0, 0, size, 0, 0, 0, 0.0, 0.0, 0.0, 0, mtime_ns, ctime_ns))


# -- the stat index --------------------------------------------------------------


def test_racy_stamps_are_not_recorded_and_others_round_trip(tmp_path):
    now = 1_800_000_000 * SECOND
    index = StatIndex(Cache(str(tmp_path)), started_ns=now)
    old = _stat_like(10, now - 60 * SECOND, now - 60 * SECOND, 7)
    racy = _stat_like(10, now - 60 * SECOND, now - SECOND, 8)  # written a second before the run
    index.record("old.md", index.stamp(old), "a" * 64)
    index.record("racy.md", index.stamp(racy), "b" * 64)
    index.save()
    again = StatIndex(Cache(str(tmp_path)), started_ns=now + 60 * SECOND)
    assert again.digest("old.md", old) == "a" * 64
    assert again.digest("racy.md", racy) is None
    # Any part of the stamp changed: unknown.
    for changed in (_stat_like(11, now - 60 * SECOND, now - 60 * SECOND, 7),
                    _stat_like(10, now - 59 * SECOND, now - 60 * SECOND, 7),
                    _stat_like(10, now - 60 * SECOND, now - 59 * SECOND, 7),
                    _stat_like(10, now - 60 * SECOND, now - 60 * SECOND, 9)):
        assert again.digest("old.md", changed) is None
    assert again.digest("other.md", old) is None


def test_a_corrupt_stat_index_is_ignored(tmp_path):
    now = 1_800_000_000 * SECOND
    st_old = _stat_like(10, now - 60 * SECOND, now - 60 * SECOND, 7)
    index = StatIndex(Cache(str(tmp_path)), started_ns=now)
    index.record("old.md", index.stamp(st_old), "a" * 64)
    index.save()
    raw = open(index.path, "rb").read()
    assert raw.count(b"a" * 64) == 1
    # One digit of the digest changed: the checksum no longer matches.
    with open(index.path, "wb") as fh:
        fh.write(raw.replace(b"a" * 64, b"b" + b"a" * 63))
    assert StatIndex(Cache(str(tmp_path))).digest("old.md", st_old) is None
    for garbage in (b"", b"\0\0\0", b"irilint stat index 1 " + b"0" * 64 + b"\0x", os.urandom(200)):
        with open(index.path, "wb") as fh:
            fh.write(garbage)
        assert StatIndex(Cache(str(tmp_path))).digest("old.md", st_old) is None


@pytest.fixture
def small_tree(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("see http://e.org/100%\n", encoding="utf-8")
    (docs / "b.md").write_text("see http://e.org/ok\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    config.clear_cache()
    return tmp_path


def _findings(capsys, *args):
    capsys.readouterr()
    main(["check", "--format", "json", "--jobs", "1", *args])
    return [(d["path"], d["name"]) for d in json.loads(capsys.readouterr().out)]


def _same_stamp_rewrite(stale_stat, path, text):
    """Rewrite ``path`` (same size) and make the walk see its old stat."""
    size = os.stat(path).st_size
    stale_stat(path)
    path.write_text(text, encoding="utf-8")
    assert os.stat(path).st_size == size


def test_same_stamp_rewrite_within_the_racy_window_is_checked_again(small_tree, capsys, stale_stat):
    a = small_tree / "docs" / "a.md"
    cold = _findings(capsys, "docs")
    assert ("docs/a.md", "bad-percent-encoding") in cold
    # The files were written just now: their stamps were racy, not recorded,
    # so the rewrite is read and hashed even though its stat looks unchanged.
    _same_stamp_rewrite(stale_stat, a, "see http://e.org/1000\n")
    assert ("docs/a.md", "bad-percent-encoding") not in _findings(capsys, "docs")


def test_without_the_racy_rule_the_stale_digest_would_be_served(small_tree, capsys, monkeypatch, stale_stat):
    """The counterpart of the test above: with no racy window the index is
    trusted for an unchanged stamp (so it is really used)."""
    monkeypatch.setattr(StatIndex, "RACY_NS", -10 * SECOND)
    a = small_tree / "docs" / "a.md"
    cold = _findings(capsys, "docs")
    _same_stamp_rewrite(stale_stat, a, "see http://e.org/1000\n")
    assert _findings(capsys, "docs") == cold


def test_a_file_changed_with_a_new_mtime_is_checked_again(small_tree, capsys, monkeypatch):
    monkeypatch.setattr(StatIndex, "RACY_NS", -10 * SECOND)  # every stamp recorded
    a = small_tree / "docs" / "a.md"
    cold = _findings(capsys, "docs")
    assert ("docs/a.md", "bad-percent-encoding") in cold
    st = os.stat(a)
    a.write_text("see http://e.org/1000\n", encoding="utf-8")
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + SECOND))
    assert ("docs/a.md", "bad-percent-encoding") not in _findings(capsys, "docs")


def test_a_corrupt_index_on_disk_is_ignored_by_a_run(small_tree, capsys, monkeypatch):
    monkeypatch.setattr(StatIndex, "RACY_NS", -10 * SECOND)
    cold = _findings(capsys, "docs")
    (index,) = (small_tree / CACHE_DIR_NAME).glob("v*/stat-index")
    raw = index.read_bytes()
    a_digest = hashlib.sha256((small_tree / "docs" / "a.md").read_bytes()).hexdigest().encode()
    assert a_digest in raw
    # a.md's digest swapped for b.md's, the checksum recomputed: the
    # digest names content the file does not have, and a.md must still get
    # its own findings (the key misses, the file is checked again).
    head, _, body = raw.partition(b"\0")
    other = hashlib.sha256((small_tree / "docs" / "b.md").read_bytes()).hexdigest().encode()
    body = body.replace(a_digest, other)
    index.write_bytes(StatIndex.HEADER + hashlib.sha256(body).hexdigest().encode() + b"\0" + body)
    assert _findings(capsys, "docs") == cold
    index.write_bytes(b"garbage\0" + os.urandom(64))
    assert _findings(capsys, "docs") == cold


# -- fast paths against the slow ones ---------------------------------------------


def _display_path_reference(p):
    rel = os.path.relpath(p)
    return p if rel.startswith("..") else rel


_SEGMENTS = st.sampled_from(["a", "b", ".", "..", "", ".h", "build", "x.md"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_SEGMENTS, min_size=1, max_size=5), absolute=st.booleans(),
       where=st.sampled_from(["", "a", os.path.join("a", "b")]))
def test_display_path_fast_path_is_relpath(tmp_path, parts, absolute, where):
    """Relative and absolute paths, from the tree's top or from inside it
    (the memo of absolute folders follows the working directory)."""
    cwd = os.getcwd()
    os.makedirs(str(tmp_path / "a" / "b"), exist_ok=True)
    os.chdir(os.path.join(str(tmp_path), where))
    try:
        p = os.sep.join(parts)
        if absolute:
            p = os.path.join(str(tmp_path), p)
        if not p:
            return
        assert _display_path(p) == _display_path_reference(p)
        assert _display_path(p) == _display_path_reference(p)  # the memo answers the same
        checker = _Checker(_build_parser().parse_args(["check", "--no-cache", "."]))
        sibling = os.path.join(os.path.dirname(p), "x.md")  # another entry of the same folder
        for q in (p, sibling, p):
            assert checker.display_path(q) == _display_path_reference(q), q
        assert _folder_of(p) == os.path.dirname(p)
    finally:
        os.chdir(cwd)


def _decode_reference(data):
    """The BOM search without the first-byte shortcut."""
    for mark, codec in _BOMS:
        if data.startswith(mark):
            return codec, mark
    return "utf-8", b""


@settings(max_examples=400, deadline=None)
@given(data=st.one_of(
    st.binary(max_size=40),
    st.tuples(st.sampled_from([m for m, _ in _BOMS] + [b""]), st.text(max_size=20),
              st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]))
    .map(lambda t: t[0] + t[1].encode(t[2], "surrogatepass"))))
def test_decode_bytes_first_byte_shortcut_finds_every_mark(data):
    try:
        doc = decode_bytes(data)
    except DocumentError:
        return
    encoding, bom = _decode_reference(data)
    if encoding == "utf-32-le" and (len(data) - 4) % 4 != 0:
        encoding, bom = "utf-16-le", b"\xff\xfe"
    assert (doc.encoding, doc.bom) == (encoding, bom)
    assert doc.encode(doc.text) == data
    assert doc.digest == hashlib.sha256(data).hexdigest()
    assert decode_bytes(data, digest=False).digest == ""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(0, 5000), limit=st.one_of(st.none(), st.integers(0, 6000)),
       hint=st.sampled_from(["exact", "smaller", "larger", "none"]))
def test_read_all_with_a_size_hint_reads_what_the_loop_reads(tmp_path, size, limit, hint):
    p = tmp_path / "f.bin"
    data = bytes(random.Random(size).getrandbits(8) for _ in range(size))
    p.write_bytes(data)
    given_size = {"exact": size, "smaller": max(0, size - 7), "larger": size + 7, "none": -1}[hint]
    fd = os.open(str(p), os.O_RDONLY)
    try:
        got = _read_all(fd, limit, given_size)
        os.lseek(fd, 0, os.SEEK_SET)
        reference = _read_all(fd, limit)
    finally:
        os.close(fd)
    assert got == reference == (data if limit is None else data[:limit + 1])


def test_read_document_without_digest_is_the_same_document(tmp_path):
    for name, raw in [("u.md", "h\u00e9 http://e.org/\r\n".encode("utf-8")),
                      ("bom.md", b"\xef\xbb\xbfx http://e.org/\n"),
                      ("u16.md", "\ufeffx http://e.org/\n".encode("utf-16-le")),
                      ("empty.md", b"")]:
        p = tmp_path / name
        p.write_bytes(raw)
        with_digest = read_document(str(p))
        without = read_document(str(p), digest=False)
        assert without.digest == "" and with_digest.digest == hashlib.sha256(raw).hexdigest()
        without.digest = with_digest.digest
        assert without == with_digest


_NAMES = st.sampled_from(["a", "b", "build", "dist", "venv", "node_modules", "docs", "x.md", "y.txt"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.lists(st.lists(_NAMES, min_size=1, max_size=4), min_size=1, max_size=12),
       with_config=st.booleans())
def test_folder_verdicts_include_what_the_full_test_includes(tmp_path_factory, files, with_config):
    root = tmp_path_factory.mktemp("tree")
    for parts in files:
        p = root.joinpath(*parts[:-1], parts[-1] + ".md")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists():
                p.write_text("x", encoding="utf-8")
        except OSError:
            continue  # a file where a folder was wanted
    if with_config:
        (root / ".irilint.toml").write_text('extend-exclude = ["b"]\n', encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(str(root))
    config.clear_cache()
    try:
        args = _build_parser().parse_args(["check", "--no-cache", "."])
        checker = _Checker(args)
        fast = [item[0] for item in _discover(checker, ["."]) if isinstance(item, tuple)]
        from irilint.discovery import iter_files

        slow_checker = _Checker(args)
        slow = [str(p) for p in iter_files(["."], is_included=lambda p: slow_checker.included(p),
                                           path_type=str)]
        assert fast == slow
    finally:
        os.chdir(cwd)
        config.clear_cache()


# -- --jobs 2 against --jobs 1 -------------------------------------------------------


def _generated_tree(root, seed=7):
    """150 files in nested folders: findings, fixes, undecodable and binary
    files, a file over the size limit, a symlink loop, a cross-file
    look-alike host."""
    rng = random.Random(seed)
    docs = root / "docs"
    snippets = ["see http://e.org/100%", "http://e.org/x%E2%80%AE", "<http://b\u00fccher.de/>",
                "[x](http://\u0440\u0430\u0443\u0440\u0430l.com/)", "http://example.org/ok",
                "HTTP://Example.ORG/%7euser", "plain text", "https://paypal.com/"]
    for i in range(150):
        folder = docs / ("d%d" % (i % 9)) / ("e%d" % (i % 4))
        folder.mkdir(parents=True, exist_ok=True)
        kind = i % 25
        if kind == 3:
            (folder / ("bad%03d.md" % i)).write_bytes(b"caf\xe9 http://e.org/\n")  # not UTF-8
        elif kind == 7:
            (folder / ("img%03d.png" % i)).write_bytes(b"\x89PNG\x00\x01http://e.org/")
        elif kind == 11:
            (folder / ("big%03d.txt" % i)).write_text("http://e.org/ " * 200, encoding="utf-8")
        else:
            lines = [rng.choice(snippets) for _ in range(rng.randint(1, 6))]
            (folder / ("f%03d.md" % i)).write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.symlink("..", docs / "d1" / "loop")
    (root / ".irilint.toml").write_text("max-file-size = 2000\n", encoding="utf-8")


def _run(cwd, *args):
    env = dict(os.environ)
    env.pop("IRILINT_NO_CACHE", None)
    return subprocess.run([sys.executable, "-m", "irilint", "check", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_jobs_2_prints_what_jobs_1_prints(tmp_path):
    _generated_tree(tmp_path)
    for extra in (["--no-cache"], ["--no-cache", "--format", "json"], ["--no-cache", "--diff"],
                  ["--no-cache", "--statistics"]):
        one = _run(tmp_path, "docs", "--jobs", "1", *extra)
        two = _run(tmp_path, "docs", "--jobs", "2", *extra)
        assert one.returncode == two.returncode == 2, extra  # errors: exit 2
        assert (one.stdout, one.stderr) == (two.stdout, two.stderr), extra
    assert "cannot decode" in one.stderr and "symlink loop" in one.stderr and "too large" in one.stderr
    assert "confusable-collision" in _run(tmp_path, "docs", "--jobs", "1", "--no-cache").stdout
    # --fix: both write the same files and say the same.
    copy = tmp_path.parent / (tmp_path.name + "-copy")
    shutil.copytree(tmp_path, copy, symlinks=True)
    one = _run(tmp_path, "docs", "--jobs", "1", "--no-cache", "--fix")
    two = _run(copy, "docs", "--jobs", "2", "--no-cache", "--fix")
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    assert "Fixed" in one.stderr
    for p in sorted((tmp_path / "docs").rglob("*.md")):
        assert p.read_bytes() == (copy / p.relative_to(tmp_path)).read_bytes()
    # Cold and warm, with workers: the same output again.
    cold = _run(tmp_path, "docs", "--jobs", "2")
    warm = _run(tmp_path, "docs", "--jobs", "2")
    plain = _run(tmp_path, "docs", "--jobs", "1", "--no-cache")
    assert cold.stdout == warm.stdout == plain.stdout and cold.stderr == warm.stderr == plain.stderr


def test_concurrent_runs_share_the_cache_safely(tmp_path):
    _generated_tree(tmp_path, seed=11)
    expected = _run(tmp_path, "docs", "--jobs", "1", "--no-cache")
    env = dict(os.environ)
    env.pop("IRILINT_NO_CACHE", None)
    procs = [subprocess.Popen([sys.executable, "-m", "irilint", "check", "docs", "--jobs", jobs], cwd=tmp_path,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for jobs in ("1", "2", "1", "2")]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert (out, err) == (expected.stdout, expected.stderr)
    (pack,) = (tmp_path / CACHE_DIR_NAME).glob("v*/results.pack")
    head, _, body = pack.read_bytes().partition(b"\n")
    assert head.endswith(hashlib.sha256(body).hexdigest().encode())  # whole, not interleaved
    warm = _run(tmp_path, "docs", "--jobs", "1")
    assert (warm.stdout, warm.stderr) == (expected.stdout, expected.stderr)


def test_the_parent_checks_batches_itself_when_the_worker_is_busy(tmp_path, monkeypatch, capsys):
    # --jobs 2 is one worker process and this one: with one file per batch
    # the worker has its fill after three, and the parent takes the next
    from irilint import runner

    _generated_tree(tmp_path, seed=5)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    config.clear_cache()
    here = []
    real = runner._check_here

    def counting(checker, path):
        here.append(path)
        return real(checker, path)

    monkeypatch.setattr(runner, "_check_here", counting)
    monkeypatch.setattr(runner, "_BATCH_FILES", 1)

    def run(jobs):
        capsys.readouterr()
        try:
            code = main(["check", "docs", "--jobs", jobs, "--no-cache"])
        except SystemExit as exc:
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    two = run("2")
    assert here  # some files were checked in the parent...
    assert len(here) < 140  # ...and the worker had its share
    assert run("1") == two


def test_cache_keys_change_with_the_code(tmp_path, monkeypatch):
    """Results of other code (same version, edited or reinstalled modules)
    are never reused: the code's fingerprint is part of every key."""
    import os

    from irilint import cache

    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "b.py").write_text("y = 2\n")
    (pkg / "notes.txt").write_text("not code\n")
    first = cache.fingerprint_of([str(pkg)])
    assert cache.fingerprint_of([str(pkg)]) == first
    (pkg / "notes.txt").write_text("other\n")
    assert cache.fingerprint_of([str(pkg)]) == first  # only modules count
    st = os.stat(pkg / "sub" / "b.py")
    os.utime(pkg / "sub" / "b.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    second = cache.fingerprint_of([str(pkg)])
    assert second != first
    (pkg / "c.py").write_text("")
    assert cache.fingerprint_of([str(pkg)]) not in (first, second)

    keys = set()
    for fp in ("code-a", "code-b"):
        monkeypatch.setattr(cache, "_CODE_FINGERPRINT", fp)
        keys.add(cache.cache_key(cache.key_hasher("settings"), "digest", "doc.md"))
    assert len(keys) == 2
