"""The whole-run memo (irilint.run_memo): a warm run of an unchanged tree
prints what the last run printed; any change to what the output depends on
(a file's content, even rewritten with its size and mtime put back; the
set and order of files; a configuration; an option; the working
directory; the code) gives exactly what ``--no-cache`` gives."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint import config, run_memo
from irilint.cache import CACHE_DIR_NAME, ListingIndex, StatIndex

from cache_damage import DAMAGES, DAMAGE_IDS, corrupt, replace_with_folder
from cli_run import run

SECOND = 10 ** 9
#: longer than a tick of the coarse clock file stamps come from
TICK = 0.03
BROKEN = "see http://example.org/a%zz here\n"
MIXED = "[x](http://ex\u0430mple.com/) [y](http://example.com/)\n"
CLEAN = "[ok](https://example.org/ok)\n"


@pytest.fixture
def memo_env(tmp_path, monkeypatch):
    """A tree folder as the working directory, its own cache root, and
    stamps a tick old recorded (not only those two seconds old)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    monkeypatch.chdir(tree)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path / "cache"))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    monkeypatch.setattr(StatIndex, "RACY_NS", int(TICK / 2 * SECOND))
    monkeypatch.setattr(ListingIndex, "RACY_NS", int(TICK / 2 * SECOND))
    return tree


@pytest.fixture
def replays(monkeypatch) -> List[int]:
    """The exit status of each run the memo answered."""
    from irilint.cli import check

    seen: List[int] = []
    real = check._replay

    def counting(checker, record, progress):
        seen.append(record[0])
        return real(checker, record, progress)

    monkeypatch.setattr(check, "_replay", counting)
    return seen


def checked(*args: str) -> Tuple[int, str, str]:
    time.sleep(TICK)  # what changed before is no longer racy
    config.clear_cache()  # (a process's memo of configuration files: each run here is a new process)
    return run(["check", "--no-progress", *args])


def expected(*args: str) -> Tuple[int, str, str]:
    config.clear_cache()
    return run(["check", "--no-progress", "--no-cache", *args])


def memo_files(tree: Path) -> List[Path]:
    return sorted((tree.parent / "cache" / CACHE_DIR_NAME).glob("v*/run-*"))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def same_size_rewrite(path: Path, text: str) -> None:
    """Rewrite ``path`` with ``text`` (as long as the old), its mtime put back."""
    st = path.stat()
    assert len(text.encode("utf-8")) == st.st_size
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def make_tree(tree: Path) -> None:
    write(tree / "a.md", BROKEN)
    write(tree / "docs" / "b.md", MIXED)
    write(tree / "docs" / "c.txt", CLEAN)


def warm(*args: str) -> Tuple[int, str, str]:
    """Two cached runs (the first writes the memo, the second may use it)."""
    checked(*args)
    return checked(*args)


# -- the memo is used, and gives the run's output ----------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_an_unchanged_tree_is_answered_by_the_memo_with_the_same_output(memo_env, replays, fmt):
    make_tree(memo_env)
    first = checked("--format", fmt, "--jobs", "1", ".")
    assert memo_files(memo_env) and replays == []
    again = checked("--format", fmt, "--jobs", "1", ".")
    assert replays == [1]
    assert again == first == expected("--format", fmt, ".")


def test_the_memo_keeps_the_walk_s_errors_undecodable_and_binary_files(memo_env, replays):
    make_tree(memo_env)
    (memo_env / "latin1.txt").write_bytes(b"caf\xe9 http://example.org/\n")
    (memo_env / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0 http://example.org/")
    (memo_env / "dangling.md").symlink_to(memo_env / "gone.md")
    (memo_env / "outside.md").symlink_to(memo_env.parent / "elsewhere.md")
    write(memo_env.parent / "elsewhere.md", BROKEN)
    want = expected(".")
    assert want[0] == 2 and "latin1.txt" in want[2] and "outside.md" in want[2]
    assert warm("--jobs", "1", ".") == want
    assert replays == [2]
    assert checked("--jobs", "2", ".") == want and replays == [2, 2]


def test_an_undecodable_file_reaches_the_stat_index_in_its_first_run(memo_env):
    # (its result named no file to record, so every warm run read and
    # hashed it again, and no tree holding one could be keyed)
    from irilint.cache import Cache

    (memo_env / "latin1.txt").write_bytes(b"caf\xe9 http://example.org/\n")
    checked(".")
    index = StatIndex(Cache(str(memo_env.parent / "cache")))
    path = os.path.join(".", "latin1.txt")
    assert index.digest(path, os.stat(path)) is not None


def test_a_second_warm_run_and_stderr_order_are_kept(memo_env, replays):
    make_tree(memo_env)
    want = expected("--statistics", ".")
    assert [checked("--statistics", ".") for _ in range(3)] == [want] * 3
    assert replays == [1, 1]


# -- each input of the key ----------------------------------------------------


def test_content_rewritten_with_the_same_size_and_mtime_is_seen(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    same_size_rewrite(memo_env / "docs" / "c.txt", CLEAN.replace("https://example.org/ok", "http://exa%zzle.org/ok"))
    assert checked(".") == expected(".")
    assert "c.txt" in expected(".")[1]


def test_a_new_deleted_or_renamed_file_is_seen(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    write(memo_env / "docs" / "new.md", BROKEN)
    assert checked(".") == expected(".")
    (memo_env / "a.md").unlink()
    assert checked(".") == expected(".")
    (memo_env / "docs" / "b.md").rename(memo_env / "docs" / "z.md")
    assert checked(".") == expected(".")
    assert "z.md" in expected(".")[1]


def test_a_deleted_file_with_every_other_known_is_a_miss(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    assert replays == [1]
    (memo_env / "docs" / "b.md").unlink()  # the others' digests are all known
    assert checked(".") == expected(".")
    assert replays == [1]


def test_a_folder_renamed_and_back_is_seen(memo_env, replays):
    # Its files keep their stamps (a rename changes the folder, not them):
    # back under the old name, each is known to the stat index again.
    make_tree(memo_env)
    warm(".")
    (memo_env / "docs").rename(memo_env / "papers")
    assert checked(".") == expected(".")
    (memo_env / "papers").rename(memo_env / "docs")
    got = checked(".")
    assert got == expected(".") and "docs/b.md" in got[1]


def test_a_link_that_breaks_or_leads_outside_after_a_warm_run_is_seen(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    (memo_env / "docs" / "dangling.md").symlink_to(memo_env / "gone.md")
    (memo_env / "docs" / "outside.md").symlink_to(memo_env.parent / "elsewhere.md")
    write(memo_env.parent / "elsewhere.md", BROKEN)
    got = checked(".")
    assert got == expected(".") and "outside.md" in got[2]
    assert checked(".") == expected(".")


def test_a_file_over_the_size_cap_added_after_a_warm_run_is_seen(memo_env, replays):
    make_tree(memo_env)
    write(memo_env / ".irilint.toml", "max-file-size = 1000\n")
    warm(".")
    write(memo_env / "docs" / "big.md", BROKEN * 100)
    got = checked(".")
    assert got == expected(".") and "big.md" in got[2]
    assert checked(".") == expected(".")


def test_an_absolute_path_from_another_working_directory_is_seen(memo_env, replays, monkeypatch):
    # The same files, the same spelling of their paths: only the working
    # directory changes how they are shown.
    make_tree(memo_env)
    warm(str(memo_env))
    monkeypatch.chdir(memo_env.parent)
    got = checked(str(memo_env))
    assert got == expected(str(memo_env)) and "tree/a.md" in got[1]
    assert replays == [1]


def test_a_configuration_edit_is_seen(memo_env, replays):
    make_tree(memo_env)
    write(memo_env / ".irilint.toml", 'fail-level = "warning"\n')
    warm(".")
    write(memo_env / ".irilint.toml", 'fail-level = "error"\nextend-ignore = ["IRI401"]\n')
    got = checked(".")
    assert got == expected(".") and "IRI401" not in got[1]
    write(memo_env / "docs" / ".irilint.toml", 'select = ["IRI401"]\n')
    assert checked(".") == expected(".")


def test_other_options_are_another_memo(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    for args in (["--format", "json"], ["--select", "IRI401"], ["-q"], ["--show-fixes"], ["--exit-zero"],
                 ["--fail-level", "error"], ["--extend-exclude", "docs"], ["--statistics"]):
        assert checked(*args, ".") == expected(*args, ".")
        assert checked(*args, ".") == expected(*args, ".")
    assert checked(".") == expected(".")


def test_the_paths_as_given_and_the_working_directory_are_in_the_key(memo_env, replays, monkeypatch):
    make_tree(memo_env)
    warm(".")
    assert checked("docs") == expected("docs")
    assert checked("./docs", ".") == expected("./docs", ".")
    monkeypatch.chdir(memo_env / "docs")
    assert checked("..") == expected("..")
    assert checked("..") == expected("..")
    assert "../a.md" in expected("..")[1]


def test_other_code_is_another_memo(memo_env, replays, monkeypatch):
    from irilint import cache

    make_tree(memo_env)
    warm(".")
    assert replays == [1]
    monkeypatch.setattr(cache, "_CODE_FINGERPRINT", "another build")
    assert checked(".") == expected(".")
    assert replays == [1]


def test_a_damaged_pack_is_told_and_the_memo_not_used(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    (pack,) = (memo_env.parent / "cache" / CACHE_DIR_NAME).glob("v*/results.pack")
    data = bytearray(pack.read_bytes())
    data[-10] ^= 0x55
    pack.write_bytes(bytes(data))
    code, out, err = checked(".")
    assert (code, out) == expected(".")[:2]
    assert err.count("irilint: note: cache") == 1 and str(pack) in err
    assert replays == [1]
    assert checked(".") == expected(".")  # the pack and the memo written again, without the note


# -- the memo file itself -----------------------------------------------------


@pytest.mark.parametrize("damage", DAMAGES, ids=DAMAGE_IDS)
def test_a_damaged_memo_is_ignored_with_one_note(memo_env, replays, damage):
    make_tree(memo_env)
    checked(".")
    (memo,) = memo_files(memo_env)
    damage(memo)
    code, out, err = checked(".")
    assert (code, out) == expected(".")[:2]
    notes = [line for line in err.splitlines() if line.startswith("irilint: note:")]
    assert len(notes) == 1 and str(memo) in notes[0] and "the run went on without it" in notes[0]
    assert replays == []
    if damage is not replace_with_folder:  # written again: the next run uses it, and is not told
        assert checked(".") == expected(".") and replays == [1]


def test_damaged_listings_are_told_once_by_a_run_the_memo_answers(memo_env, replays):
    make_tree(memo_env)
    warm(".")
    (listings,) = (memo_env.parent / "cache" / CACHE_DIR_NAME).glob("v*/listings")
    corrupt(listings)
    code, out, err = checked(".")
    want = expected(".")
    assert replays == [1, 1] and (code, out) == want[:2]
    lines = err.splitlines()
    assert lines[0].startswith("irilint: note: cache %s" % listings) and lines[1:] == want[2].splitlines()
    assert checked(".") == want  # the listings written again


def test_a_memo_of_another_tree_or_shape_is_not_trusted(memo_env, replays):
    make_tree(memo_env)
    checked(".")
    (memo,) = memo_files(memo_env)
    body = memo.read_bytes().split(b"\n", 1)[1]
    from irilint.cache import _write_checked

    # a well-formed memo whose sizes do not add up, then one of another tree
    head, _, rest = body.partition(b"\n")
    fields = head.split(b" ")
    _write_checked(str(memo), run_memo.HEADER, b"\n", head[:-1] + b"9\n" + rest)
    assert checked(".") == expected(".") and replays == []
    _write_checked(str(memo), run_memo.HEADER, b"\n", b" ".join([b"0" * 64] + fields[1:]) + b"\n" + rest)
    assert checked(".") == expected(".") and replays == []


def test_an_output_over_the_cap_is_not_remembered(memo_env, replays, monkeypatch):
    make_tree(memo_env)
    want = expected(".")
    monkeypatch.setattr(run_memo, "MAX_OUTPUT_CHARS", len(want[1]) - 1)
    assert checked(".") == checked(".") == want
    assert memo_files(memo_env) == [] and replays == []
    monkeypatch.setattr(run_memo, "MAX_OUTPUT_CHARS", len(want[1]) + len(want[2]))
    assert warm(".") == want and replays == [1]


def test_at_most_keep_memo_files(memo_env, monkeypatch):
    monkeypatch.setattr(run_memo, "KEEP", 3)
    make_tree(memo_env)
    for rule in ("IRI401", "IRI203", "IRI205", "IRI101", "IRI102"):
        checked("--select", rule, ".")
    assert len(memo_files(memo_env)) == 3


def test_a_run_that_cannot_be_keyed_writes_no_memo(memo_env, replays, monkeypatch):
    make_tree(memo_env)
    monkeypatch.setattr(StatIndex, "RACY_NS", 2 * SECOND)  # every stamp racy: no digest recorded
    assert checked(".") == checked(".") == expected(".")
    assert memo_files(memo_env) == [] and replays == []


# -- random trees and edits -----------------------------------------------------

TEXTS = [BROKEN, MIXED, CLEAN, "plain words\n", "<http://example.org/\u05e2\u05d1\u05e8>\n",
         "x http://ex\u0430mple.com/ y\n"]
NAMES = ["a.md", "b.txt", "d/c.md", "d/e/f.txt", "g.html"]


@st.composite
def edits(draw):
    kind = draw(st.sampled_from(["none", "none", "rewrite", "same-size", "new", "delete", "rename", "config",
                                 "option", "binary", "undecodable"]))
    return kind, draw(st.sampled_from(NAMES)), draw(st.sampled_from(TEXTS)), draw(st.integers(0, 3))


OPTIONS = [[], ["--format", "json"], ["-q", "--select", "IRI401,IRI205"], ["--statistics"]]


def _apply(tree: Path, edit: Tuple[str, str, str, int], files: Dict[str, bytes]) -> None:
    kind, name, text, n = edit
    path = tree / name
    if kind in ("rewrite", "new") or (kind in ("same-size", "rename", "delete") and name not in files):
        data = text.encode("utf-8")
    elif kind == "same-size":
        old = files[name]
        data = old.replace(b"a", b"b", 1) if b"a" in old else old.replace(b"e", b"a", 1)
        st_ = path.stat()
        path.write_bytes(data)
        os.utime(path, ns=(st_.st_atime_ns, st_.st_mtime_ns))
        files[name] = data
        return
    elif kind == "delete":
        path.unlink()
        del files[name]
        return
    elif kind == "rename":
        path.rename(tree / (name + ".md"))
        files[name + ".md"] = files.pop(name)
        return
    elif kind == "config":
        write(tree / "d" / ".irilint.toml", ['fail-level = "error"\n', 'extend-ignore = ["IRI203"]\n',
                                             'extend-exclude = ["e"]\n', 'select = ["IRI401"]\n'][n])
        return
    elif kind == "binary":
        data = b"\0\1\2" + text.encode("utf-8")
    elif kind == "undecodable":
        data = b"caf\xe9 " + text.encode("utf-8")
    else:
        return  # "none", "option"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    files[name] = data


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(TEXTS)), min_size=1, max_size=5),
       steps=st.lists(edits(), min_size=2, max_size=5), jobs=st.sampled_from(["1", "2"]))
def test_warm_runs_after_random_edits_equal_no_cache(memo_env, start, steps, jobs):
    import shutil
    import tempfile

    tree = Path(tempfile.mkdtemp(dir=memo_env))
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        files: Dict[str, bytes] = {}
        for name, text in start:
            write(tree / name, text)
            files[name] = text.encode("utf-8")
        options: List[str] = []
        checked("--jobs", jobs, *options, ".")
        for edit in steps:
            _apply(tree, edit, files)
            if edit[0] == "option":
                options = OPTIONS[edit[3]]
            args = ("--jobs", jobs, *options, ".")
            assert checked(*args) == expected(*args)
    finally:
        os.chdir(cwd)
        shutil.rmtree(tree)
