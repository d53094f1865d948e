"""The project rules' reduction across files is remembered by a digest of
its inputs (irilint.cache.ReductionMemo): an unchanged tree skips it, and
after any change (content, mtime, a new, deleted or renamed file, the
settings) a cached run prints exactly what a run without the cache prints."""
from __future__ import annotations

import io
import json
import os
import shutil
import sys

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint import config
from irilint.cache import Cache, ReductionMemo, _read_checked, _write_checked
from irilint.cli import main
from irilint.rules.project_rules import Place
import irilint.rules.project_rules as project_rules

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"  # раураl.com
HOSTS = ["paypal.com", CYRILLIC_PAYPAL, "example.com", "ex\u0430mple.com", "\u0435x\u0430mple.com", "other.org"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    return tmp_path


@pytest.fixture
def reductions(monkeypatch):
    """How many times the run reduced the project rules' facts."""
    calls = []
    real = project_rules.reduce_documents

    def counting(documents, every_document=False):
        calls.append(len(documents))
        return real(documents, every_document)

    monkeypatch.setattr(project_rules, "reduce_documents", counting)
    return calls


def _run(*args, fmt="json"):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    config.clear_cache()
    try:
        code = main(["check", "--format", fmt, "--jobs", "1", *args])
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def _write(root, name, hosts):
    path = root / "docs" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join("see http://%s/x here\n" % h for h in hosts), encoding="utf-8")


def _colliding_tree(root):
    _write(root, "a.md", [CYRILLIC_PAYPAL])
    _write(root, "b.md", ["other.org"])
    _write(root, "sub/z.md", ["paypal.com", "example.com"])


def _memo_path(root):
    return os.path.join(Cache(str(root)).dir, ReductionMemo.NAME)


def test_an_unchanged_tree_is_not_reduced_again(project, reductions):
    _colliding_tree(project)
    cold = _run("docs")
    assert cold[0] == 1 and len(reductions) == 1
    found = [i for i in json.loads(cold[1]) if i["kind"] == "finding" and i["name"] == "confusable-collision"]
    assert [i["path"] for i in found] == [os.path.join("docs", "a.md")]
    for _ in range(2):
        assert _run("docs") == cold
    assert len(reductions) == 1  # the warm runs took the remembered findings
    assert _run("docs", fmt="text") == _run("--no-cache", "docs", fmt="text")


@pytest.mark.parametrize("change", ["content", "same-size-content", "add", "delete", "rename", "config"])
def test_any_change_reduces_again_and_prints_what_no_cache_prints(project, reductions, change):
    _colliding_tree(project)
    _run("docs")
    _run("docs")
    assert len(reductions) == 1
    if change == "content":  # the collision is gone
        _write(project, "sub/z.md", ["other.org"])
    elif change == "same-size-content":  # same size, and the other collision
        _write(project, "a.md", ["ex\u0430mple.com".ljust(len(CYRILLIC_PAYPAL.encode()) - 1, "x")])
        _write(project, "a.md", ["ex\u0430mple.com"])
    elif change == "add":  # a second document collides
        _write(project, "c.md", ["\u0440\u0430\u0443\u0440\u0430l.com"])
    elif change == "delete":
        (project / "docs" / "sub" / "z.md").unlink()
    elif change == "rename":  # file order changes: the later document's host reports
        os.replace(project / "docs" / "a.md", project / "docs" / "sub" / "zz.md")
    elif change == "config":  # the severity a document's facts hold
        (project / "docs" / "irilint.toml").write_text('[severity]\nconfusable-collision = "error"\n',
                                                       encoding="utf-8")
    warm = _run("docs")
    assert len(reductions) == 2
    assert _run("docs") == warm and len(reductions) == 2  # remembered again
    assert warm == _run("--no-cache", "docs")


def test_runs_of_other_paths_keep_their_own_reductions(project, reductions):
    _colliding_tree(project)
    _write(project, "sub/y.md", [CYRILLIC_PAYPAL])
    first, second = _run("docs"), _run("docs/sub")
    assert len(reductions) == 2
    assert _run("docs") == first and _run("docs/sub") == second
    assert len(reductions) == 2


def test_with_worker_processes_the_reduction_is_remembered_too(project, reductions):
    _colliding_tree(project)
    for n in range(8):  # enough files for the run to start workers
        _write(project, "w%d.md" % n, [HOSTS[n % len(HOSTS)]])
    cold = _run("docs", "--jobs", "2")
    assert _run("docs", "--jobs", "2") == cold
    assert len(reductions) == 1
    assert cold == _run("--no-cache", "docs")


def _rewrite_memo(root, value):
    """Every remembered reduction replaced by ``value`` (checksum intact)."""
    body = _read_checked(_memo_path(root), ReductionMemo.HEADER, b"\n")
    lines = [line.partition(b"\t")[0] + b"\t" + value for line in body.split(b"\n")]
    _write_checked(_memo_path(root), ReductionMemo.HEADER, b"\n", b"\n".join(lines))


@pytest.mark.parametrize("value", [
    b"not json", b"{}", b"[[99, {}, []]]", b"[[-1, {}, []]]", b'[["0", {}, []]]',
    # a finding for a document that went out before the reduction (0.md
    # holds only an ASCII host, and comes first: nothing across files can
    # reach it, and it is written as soon as it is checked)
    None,
])
def test_a_remembered_reduction_of_another_shape_is_not_trusted(project, reductions, value):
    _colliding_tree(project)
    _write(project, "0.md", ["other.org"])
    cold = _run("docs")
    if value is None:
        memo = ReductionMemo(Cache(str(project)))
        (line,) = memo._load().values()
        rows = json.loads(line)
        assert [n for n, _f, _p in rows] == [1]  # 0.md is document 0, a.md document 1
        rows[0][0] = 0
        value = json.dumps(rows).encode("utf-8")
    _rewrite_memo(project, value)
    assert _run("docs") == cold
    assert len(reductions) == 2


def test_a_damaged_memo_file_is_told_once_and_the_run_goes_on(project, reductions):
    _colliding_tree(project)
    cold = _run("docs")
    with open(_memo_path(project), "r+b") as fh:
        fh.seek(-3, os.SEEK_END)
        fh.write(b"xyz")
    code, out, err = _run("docs")
    assert (code, out) == cold[:2]
    assert err.count("irilint: note: cache") == 1 and ReductionMemo.NAME in err
    assert _run("docs") == cold  # rewritten whole by the run that found it damaged


def test_only_the_most_recent_reductions_are_kept(project, reductions, monkeypatch):
    monkeypatch.setattr(ReductionMemo, "KEEP", 2)
    _colliding_tree(project)
    _write(project, "sub/y.md", [CYRILLIC_PAYPAL])
    for paths in (["docs"], ["docs/sub"], ["docs/a.md", "docs/sub"]):
        _run(*paths)
    assert len(ReductionMemo(Cache(str(project)))._load()) == 2
    _run("docs/sub")
    _run("docs")  # pushed out by the third
    assert len(reductions) == 4


# -- random trees and edits between runs ---------------------------------------

_NAMES = ["a.md", "b.txt", "sub/c.md", "sub/d.md", "sub/deep/e.rst"]
_CONTENT = st.lists(st.sampled_from(HOSTS), min_size=0, max_size=3)
_STEP = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(_NAMES), _CONTENT),
    st.tuples(st.just("remove"), st.sampled_from(_NAMES), st.just([])),
    st.tuples(st.just("touch"), st.sampled_from(_NAMES), st.just([])),
    st.tuples(st.just("rename"), st.sampled_from(_NAMES), st.sampled_from(_NAMES)),
    st.tuples(st.just("nothing"), st.just(""), st.just([])),
)


def _step(root, op, name, arg):
    path = root / "docs" / name
    if op == "write":
        _write(root, name, arg)
    elif op == "remove" and path.exists():
        path.unlink()
    elif op == "touch" and path.exists():
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10 ** 9))
    elif op == "rename" and path.exists():
        target = root / "docs" / arg
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=st.lists(st.tuples(st.sampled_from(_NAMES), _CONTENT), min_size=1, max_size=5),
       steps=st.lists(_STEP, min_size=1, max_size=5))
def test_after_random_edits_a_cached_run_prints_what_no_cache_prints(tmp_path_factory, first, steps):
    root = tmp_path_factory.mktemp("memo")
    old_cwd, old_root = os.getcwd(), os.environ.get("IRILINT_CACHE_ROOT")
    os.chdir(root)
    os.environ["IRILINT_CACHE_ROOT"] = str(root)
    try:
        (root / "docs").mkdir()
        for name, hosts in first:
            _write(root, name, hosts)
        _run("docs")
        for op, name, arg in steps:
            _step(root, op, name, arg)
            assert _run("docs") == _run("--no-cache", "docs")
    finally:
        os.chdir(old_cwd)
        if old_root is None:
            os.environ.pop("IRILINT_CACHE_ROOT", None)
        else:
            os.environ["IRILINT_CACHE_ROOT"] = old_root
        shutil.rmtree(root, ignore_errors=True)


# -- objects read from the cache are those their constructors make ---------------

_text = st.text(max_size=8)
_count = st.integers(0, 10 ** 6)
_places = st.builds(lambda a, b, c, d, iri, l1, c1, dl, dc, text, sup: Place(
    a, a + b, c, c + d, iri, l1, c1, l1 + dl, dc, text, sup),
    _count, _count, _count, _count, _text, st.integers(1, 10 ** 6), st.integers(1, 10 ** 6),
    st.integers(0, 10), st.integers(1, 10 ** 6), _text, st.booleans())


@hsettings(max_examples=200, deadline=None)
@given(_places)
def test_a_place_read_back_is_the_place_written(place):
    import dataclasses
    import pickle

    back = Place.from_json(json.loads(json.dumps(place.to_json())))
    assert type(back) is Place and back == place and hash(back) == hash(place) and repr(back) == repr(place)
    assert pickle.loads(pickle.dumps(back)) == place
    with pytest.raises(dataclasses.FrozenInstanceError):
        back.line = 1


def test_a_cached_result_is_the_result_its_constructor_makes(project):
    import pickle

    from irilint.project import FileResult, Options, Project, cached_result

    _colliding_tree(project)
    _write(project, "p.md", ["e.org/100%"])
    _run("docs")
    checker = Project(Options(paths=["docs"], jobs=1, cache=True))
    for name in ("a.md", "p.md"):
        path = os.path.join("docs", name)
        hit = cached_result(checker, path)
        assert hit is not None and hit.cache_key is not None
        made = FileResult(hit.path, reported=hit.reported, fail_level=hit.fail_level, index=hit.index,
                          facts=hit.facts, abspath=hit.abspath, cache_key=hit.cache_key, stamp=hit.stamp)
        assert hit == made and repr(hit) == repr(made)
        back = pickle.loads(pickle.dumps(hit))  # as a worker process sends one
        assert back.index.table == hit.index.table
        back.index = hit.index
        assert back == made
    assert cached_result(checker, os.path.join("docs", "p.md")).reported  # a hit with findings
