"""A file whose bytes cannot be decoded is told again from the result cache
(irilint.undecodable): a warm run neither reads it nor imports a scanner,
and prints exactly what a run without the cache prints, whatever changed
between the runs (the file's bytes, its settings, other files)."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint import config
from irilint.cache import Cache, StatIndex
from irilint.cli import main

SECOND = 10 ** 9
LATIN1 = b"caf\xe9 http://e.org/\n"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    # every stamp recorded (files written by a test are all "racy")
    monkeypatch.setattr(StatIndex, "RACY_NS", -10 * SECOND)
    (tmp_path / "docs").mkdir()
    config.clear_cache()
    yield tmp_path
    config.clear_cache()


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(["check", "--jobs", "1", "--format", "json", *args])
    finally:
        sys.stdout, sys.stderr = old
    config.clear_cache()
    return code, out.getvalue(), err.getvalue()


def _reads(monkeypatch):
    """The paths read_file is asked to read, from now on."""
    import irilint.project as project

    asked = []
    real = project.read_file

    def counting(settings, path, *args, **kwargs):
        asked.append(path)
        return real(settings, path, *args, **kwargs)

    monkeypatch.setattr(project, "read_file", counting)
    return asked


def test_a_warm_run_tells_an_undecodable_file_without_reading_it(tree, monkeypatch):
    (tree / "docs" / "bad.md").write_bytes(LATIN1)
    (tree / "docs" / "ok.md").write_text("see http://e.org/100%\n", encoding="utf-8")
    uncached = _run("--no-cache", "docs")
    assert uncached[0] == 2 and "cannot decode as UTF-8 at byte 3" in uncached[2]
    assert _run("docs") == uncached
    reads = _reads(monkeypatch)
    assert _run("docs") == uncached
    assert reads == []


def test_the_entry_follows_the_bytes_and_the_settings(tree, monkeypatch):
    bad = tree / "docs" / "bad.py"
    bad.write_bytes(LATIN1)
    cold = _run("docs")
    assert "cannot decode" in cold[2]
    # A declared encoding in the settings' scanner rules: the same bytes
    # read as Latin-1 now (another key: the file's content).
    bad.write_bytes(b"# -*- coding: latin-1 -*-\n" + LATIN1)
    assert _run("docs") == _run("--no-cache", "docs")
    assert "cannot decode" not in _run("docs")[2]
    # Back to undecodable, then decodable with the same size.
    bad.write_bytes(LATIN1)
    assert _run("docs") == _run("--no-cache", "docs") == cold
    bad.write_bytes(b"cafe http://e.org/\n")
    assert _run("docs") == _run("--no-cache", "docs")
    assert "cannot decode" not in _run("docs")[2]
    # Other settings: the file is checked under another key.
    bad.write_bytes(LATIN1)
    (tree / ".irilint.toml").write_text('exclude = ["nothing"]\n', encoding="utf-8")
    reads = _reads(monkeypatch)
    assert _run("docs") == _run("--no-cache", "docs")
    assert any(p.endswith("bad.py") for p in reads)


def test_a_file_changed_between_its_two_reads_gets_no_entry(tree, monkeypatch):
    """The bytes are read again for the key: when they no longer fail as
    the first read did, nothing is remembered."""
    import irilint.undecodable as undecodable

    bad = tree / "docs" / "bad.md"
    bad.write_bytes(LATIN1)
    real_open = open

    def changing_open(path, *args, **kwargs):
        if str(path).endswith("bad.md"):
            bad.write_bytes(b"cafe http://e.org/\n")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(undecodable, "open", changing_open, raising=False)
    first = _run("docs")
    assert "cannot decode" in first[2]
    monkeypatch.undo()
    monkeypatch.chdir(tree)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tree))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    assert _run("docs") == _run("--no-cache", "docs")
    assert "cannot decode" not in _run("docs")[2]


def test_a_damaged_error_entry_is_a_miss(tree):
    (tree / "docs" / "bad.md").write_bytes(LATIN1)
    cold = _run("docs")
    cache = Cache(str(tree))
    key = next(k for k, line in cache._pack().items() if b'{"error": ' in line)
    for payload in (b'{"error": ""}', b'{"error": 3}', b'{"error": "x", "y": 1}', b'{"error": "x"', b'{"error": '):
        cache._lines[key] = cache._lines[key].rsplit(b"\t", 1)[0] + b"\t" + payload
        assert cache.get(key, "docs/bad.md") is None
    assert cache.get(key[::-1], "x") is None
    assert cold[0] == 2


def test_a_warm_run_imports_no_scanner(tree):
    (tree / "docs" / "bad.md").write_bytes(LATIN1)
    (tree / "docs" / "bad.py").write_bytes(LATIN1)
    (tree / "docs" / "ok.md").write_text("see http://e.org/100%\n", encoding="utf-8")
    script = textwrap.dedent("""
        import sys
        from irilint.cli import main
        code = main(["check", "--jobs", "1", "docs"])
        print("SCANNERS", sorted(m for m in sys.modules if m.startswith("irilint.scanners.")
                                 and m != "irilint.scanners.base"), code)
    """)
    env = dict(os.environ, IRILINT_CACHE_ROOT=str(tree))
    env.pop("IRILINT_NO_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", script], cwd=str(tree), env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    assert runs[0].stdout.rpartition("SCANNERS")[0] == runs[1].stdout.rpartition("SCANNERS")[0]
    assert runs[0].stderr == runs[1].stderr and "cannot decode" in runs[1].stderr
    assert runs[1].stdout.rpartition("SCANNERS")[2].strip() == "[] 2"


_CONTENTS = st.sampled_from([
    LATIN1, b"caf\xc3\xa9 http://e.org/100%\n", b"# -*- coding: latin-1 -*-\n" + LATIN1, b"\xff\xfe\x00",
    b"see http://\xd1\x80\xd0\xb0\xd1\x83\xd1\x80\xd0\xb0l.com/\n", b"see https://paypal.com/\n", b"\x89PNG\x00",
    b"plain\n", b"http://e.org/\xe2\x80\xae\n", b"caf\xe9 http://e.org/100%\n",
])
_NAMES = st.sampled_from(["a.md", "b.py", "c.txt", "sub/d.md", "sub/e.html"])
_EDITS = st.lists(st.tuples(st.sampled_from(["write", "delete", "touch"]), _NAMES, _CONTENTS), max_size=4)


@hsettings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(_NAMES, _CONTENTS, min_size=1), edits=_EDITS, jobs=st.sampled_from(["1", "2"]))
def test_after_any_edits_a_cached_run_prints_what_an_uncached_one_prints(tree, files, edits, jobs):
    import shutil

    docs = tree / "docs"
    shutil.rmtree(docs)
    docs.mkdir()
    shutil.rmtree(tree / ".irilint_cache", ignore_errors=True)
    for name, data in files.items():
        (docs / name).parent.mkdir(exist_ok=True)
        (docs / name).write_bytes(data)
    for _ in range(2):
        assert _run("--jobs", jobs, "docs") == _run("--no-cache", "docs")
    for action, name, data in edits:
        p = docs / name
        if action == "delete":
            if p.exists():
                p.unlink()
        elif action == "touch":
            if p.exists():
                os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + SECOND))
        else:
            p.parent.mkdir(exist_ok=True)
            before = p.stat().st_mtime_ns if p.exists() else 0
            p.write_bytes(data)
            # (a write within the clock tick of the last one could keep
            # its stamp: the racy window, turned off here, covers that)
            os.utime(p, ns=(p.stat().st_atime_ns, max(p.stat().st_mtime_ns, before + SECOND)))
    assert _run("--jobs", jobs, "docs") == _run("--no-cache", "docs")
    assert _run("docs") == _run("--no-cache", "docs")
