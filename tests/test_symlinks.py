"""Symbolic links never lead a run out of the paths it was given.

The roots of a run are the realpaths of the paths on the command line (a
directory is a root, a file given explicitly is its own root).  A link met
in a walk whose target is outside every root is told once on stderr and is
neither read nor written; one whose target is inside is followed.  A link
named on the command line is checked, and fixed only when its target is
under the link's own folder or another root, or with --follow-symlinks.
"""
from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irilint import cache, config, discovery
from irilint.cli import main
from irilint.discovery import DiscoveryError, LinkOutsideRoots, fix_roots, inside_roots, iter_files, walk_roots
from irilint.report import collect

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks")

BAD = "see http://example.org/a%zz here\n"
FIXED = "see http://example.org/a%25zz here\n"
#: a line only the files outside the tree hold: it must never be printed
SECRET = "private http://example.org/secret%zz\n"
OUTSIDE_LINE = "symbolic link to a path outside the checked tree, not followed"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def rel(items, base: Path):
    out = []
    for item in items:
        if isinstance(item, LinkOutsideRoots):
            out.append(("outside", Path(os.path.relpath(item.path, base)).as_posix()))
        elif isinstance(item, DiscoveryError):
            out.append(("error", Path(os.path.relpath(item.path, base)).as_posix(), item.reason))
        else:
            out.append(Path(os.path.relpath(item, base)).as_posix())
    return out


@pytest.fixture
def layout(tmp_path):
    """proj/docs with links out (to a file, to a folder) and links in."""
    outside = tmp_path / "outside"
    write(outside / "private.md", SECRET)
    write(outside / "dir" / "secret.md", SECRET)
    docs = tmp_path / "proj" / "docs"
    write(docs / "in.md", BAD)
    write(docs / "sub" / "s.md", BAD)
    (docs / "link-file.md").symlink_to(os.path.join("..", "..", "outside", "private.md"))
    (docs / "link-dir").symlink_to(os.path.join("..", "..", "outside", "dir"), target_is_directory=True)
    return tmp_path


def run(argv, cwd: Path, monkeypatch):
    monkeypatch.chdir(cwd)
    config.clear_cache()
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(argv)
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def check(argv, cwd, monkeypatch, *flags):
    return run(["check", "--jobs", "1", "--no-progress", *flags, *argv], cwd, monkeypatch)


# -- the walk ----------------------------------------------------------------------


def test_walk_reports_links_out_of_the_tree_once_and_enters_none(layout, monkeypatch):
    listed = []
    items = list(iter_files([layout / "proj"], respect_gitignore=False,
                            on_directory=lambda folder, names: listed.append(folder)))
    assert rel(items, layout) == [
        "proj/docs/in.md",
        ("outside", "proj/docs/link-dir"),
        ("outside", "proj/docs/link-file.md"),
        "proj/docs/sub/s.md",
    ]
    assert not any("link-dir" in folder for folder in listed)


def test_links_inside_the_tree_are_followed_and_each_file_yielded_once(tmp_path):
    root = tmp_path / "root"
    write(root / "a" / "x.md", "x")
    write(root / "b.md", "b")
    write(root / ".inner" / "y.md", "y")   # hidden: reached only through the link
    (root / "y-link").symlink_to(".inner", target_is_directory=True)
    (root / "z-dir").symlink_to("a", target_is_directory=True)
    (root / "z-file.md").symlink_to("b.md")
    (root / "a" / "up.md").symlink_to(os.path.join("..", "b.md"))
    assert rel(iter_files([root], respect_gitignore=False), tmp_path) == [
        "root/a/up.md",        # b.md, first reached through this link
        "root/a/x.md",
        "root/y-link/y.md",
        # b.md, z-dir and z-file.md lead to what was yielded already
    ]


def test_dangling_link_is_skipped_silently(tmp_path):
    write(tmp_path / "root" / "a.md", "a")
    (tmp_path / "root" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    (tmp_path / "root" / "gone-out.md").symlink_to(tmp_path / "elsewhere" / "nowhere.md")
    assert rel(iter_files([tmp_path / "root"], respect_gitignore=False), tmp_path) == ["root/a.md"]


def test_link_loops_are_reported_as_loops(tmp_path):
    root = tmp_path / "root"
    write(root / "sub" / "x.md", "x")
    (root / "sub" / "back").symlink_to("..", target_is_directory=True)   # an ancestor, inside
    (root / "ping").symlink_to("pong")
    (root / "pong").symlink_to("ping")                                     # a link to itself, via one
    assert rel(iter_files([root], respect_gitignore=False), tmp_path) == [
        ("error", "root/ping", "symlink loop"),
        ("error", "root/pong", "symlink loop"),
        ("error", "root/sub/back", "symlink loop"),
        "root/sub/x.md",
    ]


def test_link_to_the_parent_of_the_root_is_outside_not_walked(tmp_path):
    write(tmp_path / "secret.md", SECRET)
    write(tmp_path / "root" / "a.md", "a")
    (tmp_path / "root" / "up").symlink_to("..", target_is_directory=True)
    assert rel(iter_files([tmp_path / "root"], respect_gitignore=False), tmp_path) == [
        "root/a.md", ("outside", "root/up"),
    ]


def test_follow_symlinks_follows_links_out_with_loop_protection(layout):
    docs = layout / "proj" / "docs"
    (layout / "outside" / "dir" / "back").symlink_to(docs, target_is_directory=True)
    items = rel(iter_files([layout / "proj"], respect_gitignore=False, follow_symlinks=True), layout)
    assert items == [
        "proj/docs/in.md",
        ("error", "proj/docs/link-dir/back", "symlink loop"),
        "proj/docs/link-dir/secret.md",
        "proj/docs/link-file.md",
        "proj/docs/sub/s.md",
    ]


def test_a_link_given_explicitly_is_walked_and_its_target_is_the_root(layout):
    docs = layout / "proj" / "docs"
    (layout / "outside" / "dir" / "again").symlink_to(".", target_is_directory=True)
    (layout / "outside" / "dir" / "alias.md").symlink_to("secret.md")
    (layout / "outside" / "dir" / "out.md").symlink_to(docs / "in.md")
    assert rel(iter_files([docs / "link-dir"], respect_gitignore=False), layout) == [
        ("error", "proj/docs/link-dir/again", "symlink loop"),
        "proj/docs/link-dir/alias.md",       # inside the link's target: followed (once)
        ("outside", "proj/docs/link-dir/out.md"),
    ]
    assert rel(iter_files([docs / "link-file.md"]), layout) == ["proj/docs/link-file.md"]


def test_another_given_path_makes_a_link_target_inside(layout):
    items = rel(iter_files([layout / "proj", layout / "outside" / "dir"], respect_gitignore=False), layout)
    assert items == [
        "proj/docs/in.md",
        "proj/docs/link-dir/secret.md",
        ("outside", "proj/docs/link-file.md"),
        "proj/docs/sub/s.md",
    ]


def test_the_walk_uses_the_listing_index_and_still_stops_links(layout, tmp_path, monkeypatch):
    """With the result cache's listing index (a warm walk lists nothing),
    links out are still told: the index records which names are links."""
    time.sleep(0.05)
    index = cache.ListingIndex(cache.Cache(str(tmp_path / "c")))
    index.RACY_NS = 0  # the tree does not change during the test
    cold = rel(iter_files([layout / "proj"], respect_gitignore=False, listings=index), layout)
    index.save()
    warm_index = cache.ListingIndex(cache.Cache(str(tmp_path / "c")))
    assert warm_index.get(os.stat(layout / "proj" / "docs"))[1] == {"link-dir", "link-file.md"}
    listed = []
    real_scandir = os.scandir
    monkeypatch.setattr(discovery.os, "scandir", lambda p: listed.append(p) or real_scandir(p))
    warm = rel(iter_files([layout / "proj"], respect_gitignore=False, listings=warm_index), layout)
    assert listed == []
    assert warm == cold and ("outside", "proj/docs/link-file.md") in warm


def test_roots(tmp_path):
    write(tmp_path / "d" / "f.md", "f")
    (tmp_path / "d" / "l.md").symlink_to("f.md")
    (tmp_path / "ld").symlink_to("d", target_is_directory=True)
    real = os.path.realpath(tmp_path)
    assert walk_roots([tmp_path / "ld", tmp_path / "d" / "l.md"]) == {
        os.path.join(real, "d", ""), os.path.join(real, "d", "f.md", "")}
    # A link named on the command line stands for itself: its root is its folder.
    assert fix_roots([tmp_path / "ld", str(tmp_path / "d" / "l.md"), str(tmp_path / "ld") + "/"]) == {
        os.path.join(real, ""), os.path.join(real, "d", "")}
    assert inside_roots(str(tmp_path / "ld" / "f.md"), walk_roots([tmp_path / "d"]))
    assert not inside_roots(str(tmp_path / "d"), walk_roots([tmp_path / "d" / "f.md"]))
    assert not inside_roots(str(tmp_path / "dd"), walk_roots([tmp_path / "d"]))  # a prefix, not a parent
    assert inside_roots("/", frozenset({"/"}))


_LINK_TARGETS = ["in", "in/a", "in/a/f.md", "in/g.md", "out", "out/h.md", "out/b", ".", "..", "nowhere"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(links=st.lists(st.tuples(st.sampled_from(["in/l1", "in/a/l2", "in/l3.md", "out/l4", "out/b/l5"]),
                                st.sampled_from(_LINK_TARGETS)), max_size=5, unique_by=lambda t: t[0]))
def test_no_walk_yields_a_file_outside_its_roots(tmp_path_factory, links):
    """Whatever links a tree holds, every file a walk yields is inside the
    root, every link it tells as outside leads out, and following links
    loses no file the default walk yields."""
    base = tmp_path_factory.mktemp("tree")
    write(base / "in" / "a" / "f.md", "f")
    write(base / "in" / "g.md", "g")
    write(base / "out" / "h.md", "h")
    write(base / "out" / "b" / "i.md", "i")
    for name, target in links:
        os.symlink(base / target, base / name)
    root = base / "in"
    roots = walk_roots([root])
    items = list(iter_files([root], respect_gitignore=False))
    for item in items:
        if isinstance(item, LinkOutsideRoots):
            assert os.path.islink(item.path) and not inside_roots(str(item.path), roots)
        elif not isinstance(item, DiscoveryError):
            assert inside_roots(str(item), roots)
    followed = {os.path.realpath(p) for p in iter_files([root], respect_gitignore=False, follow_symlinks=True)
                if not isinstance(p, DiscoveryError)}
    assert {os.path.realpath(p) for p in items if not isinstance(p, DiscoveryError)} <= followed


# -- irilint check -----------------------------------------------------------------


def test_check_tells_each_link_out_once_and_prints_nothing_from_outside(layout, monkeypatch):
    code, out, err = check(["docs"], layout / "proj", monkeypatch, "--no-cache")
    assert "secret" not in out + err and "private" not in out + err
    assert [line.split(":")[0] for line in out.splitlines()] == ["docs/in.md", "docs/sub/s.md"]
    told = [line for line in err.splitlines() if OUTSIDE_LINE in line]
    assert told == [
        "irilint: skipped docs/link-dir: %s (--follow-symlinks follows it)" % OUTSIDE_LINE,
        "irilint: skipped docs/link-file.md: %s (--follow-symlinks follows it)" % OUTSIDE_LINE,
    ]
    assert code == 1  # the findings inside; the skipped links change nothing


def test_skipping_a_link_out_does_not_change_the_exit_status(layout, monkeypatch):
    docs = layout / "proj" / "docs"
    (docs / "in.md").write_text("fine http://example.org/\n", encoding="utf-8")
    (docs / "sub" / "s.md").unlink()
    code, out, err = check(["docs"], layout / "proj", monkeypatch, "--no-cache")
    assert (code, out) == (0, "") and err.count(OUTSIDE_LINE) == 2


def test_fix_leaves_files_outside_byte_identical_and_fixes_inside(layout, monkeypatch):
    outside = [layout / "outside" / "private.md", layout / "outside" / "dir" / "secret.md"]
    before = [p.read_bytes() for p in outside]
    stamps = [p.stat().st_mtime_ns for p in outside]
    code, out, err = check(["--fix", "docs"], layout / "proj", monkeypatch, "--no-cache")
    assert [p.read_bytes() for p in outside] == before
    assert [p.stat().st_mtime_ns for p in outside] == stamps
    docs = layout / "proj" / "docs"
    assert (docs / "in.md").read_text(encoding="utf-8") == FIXED
    assert (docs / "sub" / "s.md").read_text(encoding="utf-8") == FIXED
    assert (docs / "link-file.md").is_symlink() and (docs / "link-dir").is_symlink()
    assert code == 0 and "Fixed 2 problems." in err and err.count(OUTSIDE_LINE) == 2


def test_fix_writes_through_a_link_inside_the_tree(tmp_path, monkeypatch):
    write(tmp_path / "docs" / "real" / "a.md", BAD)
    (tmp_path / "docs" / "a-alias.md").symlink_to(os.path.join("real", "a.md"))
    code, _, err = check(["--fix", "docs"], tmp_path, monkeypatch, "--no-cache")
    assert code == 0 and "note" not in err
    assert (tmp_path / "docs" / "real" / "a.md").read_text(encoding="utf-8") == FIXED
    assert (tmp_path / "docs" / "a-alias.md").is_symlink()


def test_a_link_named_on_the_command_line_is_checked_not_fixed(layout, monkeypatch):
    private = layout / "outside" / "private.md"
    code, out, err = check(["--fix", "docs/link-file.md"], layout / "proj", monkeypatch, "--no-cache")
    assert private.read_text(encoding="utf-8") == SECRET
    assert out.startswith("docs/link-file.md:1:")  # checked: the user named it
    assert code == 1
    assert ("irilint: note: docs/link-file.md: fixes not written: a symbolic link leads it outside the "
            "checked paths; --follow-symlinks lets --fix write through it") in err.splitlines()
    assert "Fixed" not in err


def test_a_link_named_on_the_command_line_is_fixed_with_follow_symlinks(layout, monkeypatch):
    private = layout / "outside" / "private.md"
    code, out, err = check(["--fix", "--follow-symlinks", "docs/link-file.md"], layout / "proj", monkeypatch,
                           "--no-cache")
    assert (code, out) == (0, "") and "note" not in err
    assert private.read_text(encoding="utf-8") == SECRET.replace("%zz", "%25zz")
    assert (layout / "proj" / "docs" / "link-file.md").is_symlink()


def test_a_named_link_into_its_own_folder_or_another_given_path_is_fixed(layout, monkeypatch):
    docs = layout / "proj" / "docs"
    (docs / "alias.md").symlink_to(os.path.join("sub", "s.md"))
    code, _, err = check(["--fix", "docs/alias.md"], layout / "proj", monkeypatch, "--no-cache")
    assert code == 0 and "note" not in err
    assert (docs / "sub" / "s.md").read_text(encoding="utf-8") == FIXED
    # The folder the link leads into is given too: its target is inside.
    code, _, err = check(["--fix", "docs/link-file.md", "../outside"], layout / "proj", monkeypatch, "--no-cache")
    assert code == 0 and "note" not in err
    assert (layout / "outside" / "private.md").read_text(encoding="utf-8") == SECRET.replace("%zz", "%25zz")


def test_a_named_link_to_a_folder_is_walked_but_not_fixed(layout, monkeypatch):
    secret = layout / "outside" / "dir" / "secret.md"
    code, out, err = check(["--fix", "docs/link-dir"], layout / "proj", monkeypatch, "--no-cache")
    assert secret.read_text(encoding="utf-8") == SECRET
    assert out.startswith(os.path.join("docs", "link-dir", "secret.md") + ":1:")
    assert "irilint: note: %s: fixes not written" % os.path.join("docs", "link-dir", "secret.md") in err
    assert code == 1


def test_follow_symlinks_walks_out_and_fixes(layout, monkeypatch):
    code, out, err = check(["--fix", "--follow-symlinks", "docs"], layout / "proj", monkeypatch, "--no-cache")
    assert code == 0 and OUTSIDE_LINE not in err and "Fixed 4 problems." in err
    assert (layout / "outside" / "dir" / "secret.md").read_text(encoding="utf-8") == SECRET.replace("%zz", "%25zz")


def test_parallel_run_keeps_links_out_too(layout, monkeypatch):
    docs = layout / "proj" / "docs"
    for i in range(8):
        write(docs / "many" / ("f%d.md" % i), BAD)
    before = (layout / "outside" / "private.md").read_bytes()
    code, out, err = run(["check", "--jobs", "2", "--no-progress", "--no-cache", "--fix", "docs"],
                         layout / "proj", monkeypatch)
    assert (layout / "outside" / "private.md").read_bytes() == before
    assert code == 0 and err.count(OUTSIDE_LINE) == 2 and "Fixed 10 problems." in err


_FIX_LINKS = ["in/l1.md", "in/a/l2.md", "in/l3", "in/a/l4"]
_FIX_TARGETS = ["in/a/f.md", "in/g.md", "in/a", "out/h.md", "out/b", "out/b/i.md", "out", ".."]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(links=st.lists(st.tuples(st.sampled_from(_FIX_LINKS), st.sampled_from(_FIX_TARGETS)),
                      max_size=4, unique_by=lambda t: t[0]),
       jobs=st.sampled_from(["1", "2"]))
def test_fix_never_writes_outside_whatever_the_links(tmp_path_factory, monkeypatch, links, jobs):
    """Whatever links the tree holds, ``--fix in`` fixes every file under
    in/ and leaves every file outside it byte for byte as it was."""
    base = tmp_path_factory.mktemp("fix")
    inside = [write(base / "in" / "a" / "f.md", BAD), write(base / "in" / "g.md", BAD)]
    outside = [write(base / "out" / "h.md", BAD), write(base / "out" / "b" / "i.md", BAD),
               write(base / "top.md", BAD)]
    for name, target in links:
        os.symlink(base / target, base / name)
    code, _, err = run(["check", "--jobs", jobs, "--no-progress", "--no-cache", "--fix", "in"], base, monkeypatch)
    assert [p.read_text(encoding="utf-8") for p in outside] == [BAD] * 3
    assert [p.read_text(encoding="utf-8") for p in inside] == [FIXED] * 2
    errors = [line for line in err.splitlines() if line.startswith("irilint: error")]
    assert all(line.endswith(": symlink loop") for line in errors), err  # a link to its own folder
    assert code == (2 if errors else 0), err


def test_stdin_is_unaffected(layout, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode()), encoding="utf-8"))
    code, out, err = check(["--fix", "--stdin-filename", "docs/link-file.md", "-"], layout / "proj",
                           monkeypatch, "--no-cache")
    assert (code, out) == (0, FIXED)


def test_a_warm_cached_run_tells_the_same_as_no_cache(layout, monkeypatch):
    proj = layout / "proj"
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(proj))
    monkeypatch.setattr(cache._StampedIndex, "RACY_NS", 0)  # record every stamp: the tree is not changing
    time.sleep(0.05)
    reference = check(["docs"], proj, monkeypatch, "--no-cache")
    cold = check(["docs"], proj, monkeypatch)
    warm = check(["docs"], proj, monkeypatch)
    assert cold == reference and warm == reference
    assert (proj / ".irilint_cache").is_dir()
    # A file replaced by a link out is seen on the next warm run.
    (proj / "docs" / "sub" / "s.md").unlink()
    (proj / "docs" / "sub" / "s.md").symlink_to(layout / "outside" / "private.md")
    time.sleep(0.05)
    again = check(["docs"], proj, monkeypatch)
    assert again == check(["docs"], proj, monkeypatch, "--no-cache")
    assert "irilint: skipped docs/sub/s.md: %s" % OUTSIDE_LINE in again[2]
    assert "private" not in again[1]


def test_check_help_documents_follow_symlinks(monkeypatch, capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "--follow-symlinks" in capsys.readouterr().out


# -- irilint report ----------------------------------------------------------------


def test_report_does_not_read_a_link_out_of_the_tree(layout, monkeypatch):
    monkeypatch.chdir(layout / "proj")
    data = collect(["docs"], jobs=1, no_cache=True)
    paths = [f.path for f in data.files]
    assert "docs/in.md" in paths
    skipped = {f.path: f.skipped for f in data.files if f.skipped}
    assert set(skipped) == {"docs/link-dir", "docs/link-file.md"}
    assert all(OUTSIDE_LINE in s for s in skipped.values())
    assert not any("secret" in c.line_text for f in data.files for c in f.cards)
    code, page, err = run(["report", "--format", "markdown", "--jobs", "1", "--no-cache", "docs"],
                          layout / "proj", monkeypatch)
    assert code == 0 and "secret" not in page and "private http" not in page
    assert err.count(OUTSIDE_LINE) == 2
    code, page, err = run(["report", "--format", "markdown", "--jobs", "1", "--no-cache", "--follow-symlinks",
                           "docs"], layout / "proj", monkeypatch)
    assert code == 0 and "secret" in page and OUTSIDE_LINE not in err
