"""File discovery: what is walked, skipped, reported - and in which order."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from irilint import config, discovery
from irilint.discovery import DiscoveryError, iter_files

def _git_or_fail():
    # .ci/run installs git: a test that needs it fails without it, never skips.
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test: install the Debian package 'git'")


needs_git = pytest.mark.usefixtures("_needs_git")


@pytest.fixture
def _needs_git():
    _git_or_fail()
needs_symlinks = pytest.mark.skipif(sys.platform == "win32", reason="symlinks")


def touch(path: Path, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def rel(results, base: Path):
    """Files as POSIX paths relative to base; errors as ("error", path, reason)."""
    out = []
    for item in results:
        if isinstance(item, DiscoveryError):
            out.append(("error", Path(os.path.relpath(item.path, base)).as_posix(), item.reason))
        else:
            out.append(Path(os.path.relpath(item, base)).as_posix())
    return out


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_walk_is_sorted_preorder(tmp_path):
    for name in ["b.md", "a/z.md", "a/b/c.md", "c.md", "A.md", "a.md"]:
        touch(tmp_path / name)
    assert rel(iter_files([str(tmp_path)], respect_gitignore=False), tmp_path) == [
        "A.md",
        "a/b/c.md",
        "a/z.md",
        "a.md",
        "b.md",
        "c.md",
    ]


def test_order_does_not_depend_on_listing_order(tmp_path, monkeypatch):
    for name in ["b.md", "a.md", "c/d.md"]:
        touch(tmp_path / name)
    expected = rel(iter_files([tmp_path], respect_gitignore=False), tmp_path)
    real_scandir = os.scandir

    class Reversed:
        def __init__(self, path):
            self._it = real_scandir(path)

        def __enter__(self):
            return reversed(list(self._it))

        def __exit__(self, *exc):
            self._it.close()

    monkeypatch.setattr(discovery.os, "scandir", Reversed)
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == expected


def test_hidden_vcs_and_tool_folders_are_skipped(tmp_path):
    touch(tmp_path / "keep.md")
    for skipped in [
        ".hidden.md",
        ".git/config",
        ".hg/x.md",
        ".svn/x.md",
        ".bzr/x.md",
        "_darcs/x.md",
        ".config/x.md",
        "node_modules/pkg/readme.md",
        "__pycache__/x.md",
        ".irilint_cache/x.md",
        "sub/.hidden/x.md",
        "sub/node_modules/x.md",
    ]:
        touch(tmp_path / skipped)
    touch(tmp_path / "sub" / "keep.md")
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == ["keep.md", "sub/keep.md"]


def test_explicit_hidden_file_and_directory_are_included(tmp_path):
    hidden = touch(tmp_path / ".github" / "README.md")
    dotfile = touch(tmp_path / ".env.md")
    assert list(iter_files([str(dotfile)])) == [dotfile]
    # Naming a hidden directory walks it (its own name is not filtered).
    assert list(iter_files([str(tmp_path / ".github")], respect_gitignore=False)) == [hidden]


def test_missing_path_is_reported_and_others_still_walked(tmp_path):
    touch(tmp_path / "a.md")
    results = list(iter_files([str(tmp_path / "nope.md"), str(tmp_path / "a.md")]))
    assert results == [DiscoveryError(tmp_path / "nope.md", "no such file or directory"), tmp_path / "a.md"]
    assert str(results[0]) == f"{tmp_path / 'nope.md'}: no such file or directory"


def test_same_file_given_twice_is_yielded_once(tmp_path):
    a = touch(tmp_path / "a.md")
    results = list(iter_files([str(a), str(tmp_path / "." / "a.md"), str(tmp_path)], respect_gitignore=False))
    assert results == [a]


def test_directory_given_twice_or_nested_is_walked_once(tmp_path):
    touch(tmp_path / "d" / "x.md")
    touch(tmp_path / "d" / "e" / "y.md")
    results = iter_files([tmp_path / "d" / "e", tmp_path / "d", tmp_path / "d"], respect_gitignore=False)
    assert rel(results, tmp_path) == ["d/e/y.md", "d/x.md"]


def test_permission_denied_directory_is_reported(tmp_path, monkeypatch):
    # Root ignores permission bits, so make scandir fail for one directory.
    touch(tmp_path / "a" / "x.md")
    touch(tmp_path / "locked" / "secret.md")
    touch(tmp_path / "z.md")
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == [
        "a/x.md",
        ("error", "locked", "permission denied"),
        "z.md",
    ]


@needs_symlinks
def test_symlink_loop_is_reported_and_walk_goes_on(tmp_path):
    touch(tmp_path / "a" / "x.md")
    (tmp_path / "a" / "loop").symlink_to("..", target_is_directory=True)
    touch(tmp_path / "b" / "y.md")
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == [
        ("error", "a/loop", "symlink loop"),
        "a/x.md",
        "b/y.md",
    ]


@needs_symlinks
def test_symlink_to_directory_is_followed_and_not_duplicated(tmp_path):
    touch(tmp_path / "shared" / "s.md")
    touch(tmp_path / "proj" / "p.md")
    (tmp_path / "proj" / "link").symlink_to(tmp_path / "shared", target_is_directory=True)
    # Walking proj alone: shared is outside it, so the link is told, not
    # followed (tests/test_symlinks.py) ...
    assert rel(iter_files([tmp_path / "proj"], respect_gitignore=False), tmp_path) == [
        ("error", "proj/link", "symbolic link to a path outside the checked tree, not followed"),
        "proj/p.md",
    ]
    # ... unless links are to be followed wherever they lead.
    assert rel(iter_files([tmp_path / "proj"], respect_gitignore=False, follow_symlinks=True), tmp_path) == [
        "proj/link/s.md",
        "proj/p.md",
    ]
    # Walking both reaches shared twice: it is walked once, quietly.
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == [
        "proj/link/s.md",
        "proj/p.md",
    ]


@needs_symlinks
def test_dangling_symlink_in_walk_is_skipped_but_explicit_one_reported(tmp_path):
    touch(tmp_path / "a.md")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "gone.md")
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == ["a.md"]
    assert list(iter_files([str(tmp_path / "dangling.md")])) == [
        DiscoveryError(tmp_path / "dangling.md", "broken symbolic link")
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_special_files_are_skipped_in_walks(tmp_path):
    touch(tmp_path / "a.md")
    os.mkfifo(tmp_path / "pipe.md")
    assert rel(iter_files([tmp_path], respect_gitignore=False), tmp_path) == ["a.md"]
    assert list(iter_files([str(tmp_path / "pipe.md")])) == [
        DiscoveryError(tmp_path / "pipe.md", "not a regular file or directory")
    ]


def test_is_included_prunes_walked_paths_not_explicit_ones(tmp_path):
    touch(tmp_path / "docs" / "a.md")
    touch(tmp_path / "docs" / "a.txt")
    touch(tmp_path / "build" / "out.md")
    settings = config.Settings(source=str(tmp_path / "irilint.toml"), include=("*.md",))
    included = functools.partial(config.is_included, settings)
    assert rel(iter_files([tmp_path], is_included=included, respect_gitignore=False), tmp_path) == [
        "docs/a.md"
    ]
    # Named explicitly: checked even though excluded...
    explicit = [str(tmp_path / "build" / "out.md")]
    assert rel(iter_files(explicit, is_included=included), tmp_path) == ["build/out.md"]
    # ...unless the caller asks for excludes to be forced.
    assert list(iter_files(explicit, is_included=included, force_exclude=True)) == []


@pytest.fixture
def repo(tmp_path):
    _git_or_fail()
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    touch(root / ".gitignore", "ignored.md\nbuild/\n*.log\n")
    touch(root / "kept.md")
    touch(root / "ignored.md")
    touch(root / "app.log")
    touch(root / "build" / "out.md")
    touch(root / "docs" / "guide.md")
    touch(root / "docs" / "debug.log")
    return root


@needs_git
def test_gitignore_is_honoured(repo):
    assert rel(iter_files([repo]), repo) == ["docs/guide.md", "kept.md"]
    # Turning it off walks everything (hidden .gitignore still skipped).
    assert rel(iter_files([repo], respect_gitignore=False), repo) == [
        "app.log",
        "build/out.md",
        "docs/debug.log",
        "docs/guide.md",
        "ignored.md",
        "kept.md",
    ]


@needs_git
def test_ignored_directory_is_not_entered(repo, monkeypatch):
    # Pruning matters for huge ignored trees (build output, caches).
    for i in range(5):
        touch(repo / "build" / "deep" / f"{i}.md")
    scanned = []
    real_scandir = os.scandir

    def scandir(path):
        scanned.append(Path(path).name)
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    list(iter_files([repo]))
    assert "docs" in scanned
    assert "build" not in scanned and "deep" not in scanned


@needs_git
def test_tracked_file_matching_gitignore_is_kept(repo):
    # git itself keeps checking a file once it is tracked.
    git(repo, "add", "-f", "app.log")
    assert rel(iter_files([repo]), repo) == ["app.log", "docs/guide.md", "kept.md"]


@needs_git
def test_gitignore_applies_when_walking_a_subdirectory(repo):
    assert rel(iter_files([repo / "docs"]), repo) == ["docs/guide.md"]


@needs_git
def test_explicit_ignored_file_and_directory_are_checked(repo):
    assert rel(iter_files([repo / "ignored.md"]), repo) == ["ignored.md"]
    assert rel(iter_files([repo / "build"]), repo) == ["build/out.md"]


@needs_git
def test_nested_repository_uses_its_own_gitignore(repo):
    nested = repo / "vendor"
    nested.mkdir()
    git(nested, "init", "-q")
    touch(nested / ".gitignore", "secret.md\n")
    touch(nested / "secret.md")
    touch(nested / "public.md")
    touch(nested / "ignored.md")  # ignored by the outer repo only
    assert rel(iter_files([repo]), repo) == ["docs/guide.md", "kept.md", "vendor/ignored.md", "vendor/public.md"]


@needs_git
def test_git_is_run_once_per_repository_not_per_file(repo, monkeypatch):
    for i in range(20):
        touch(repo / "many" / f"{i:02}.md")
    calls = []
    real_run = subprocess.run

    def counting_run(cmd, *args, **kwargs):
        calls.append(cmd[3:5])
        return real_run(cmd, *args, **kwargs)

    monkeypatch.setattr(discovery.subprocess, "run", counting_run)
    files = list(iter_files([repo]))
    assert len(files) == 22
    assert calls == [["rev-parse", "--is-inside-work-tree"], ["ls-files", "--cached"]]


def test_without_git_nothing_is_filtered(repo, monkeypatch):
    monkeypatch.setattr(discovery.shutil, "which", lambda name: None)
    assert "ignored.md" in rel(iter_files([repo]), repo)


def test_outside_a_repository_nothing_is_filtered(tmp_path, monkeypatch):
    _git_or_fail()
    # Stop git from finding a repository above tmp_path on this machine.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    touch(tmp_path / ".gitignore", "*.md\n")
    touch(tmp_path / "a.md")
    assert rel(iter_files([tmp_path]), tmp_path) == ["a.md"]
