"""include/exclude matching joins the globs of a list into one regex per
kind and takes a path's parts below its base without relpath: both answer
exactly as the one-pattern-at-a-time matching and relpath do."""
from __future__ import annotations

import os

from hypothesis import example, given, settings
from hypothesis import strategies as st

from irilint import config
from irilint.config import DEFAULT_EXCLUDE, Settings, _any_match, _compile, _matches, _relative_parts

_PATTERNS = st.sampled_from([
    "node_modules", ".git", "*.md", "docs/*.md", "/CHANGELOG.md", "docs/**/*.md", "**/build", "build/",
    "a?c", "[ab]*", "[!x]y", "[^x]z", "dist/**", "**", "x/", "/root-only", "*.min.js", "[unclosed",
    "sub/dir/", "é*", "**/tests/**/*.py", ".venv", "venv", "*", "?", "a/b/c",
])
_PARTS = st.lists(st.sampled_from([
    "docs", "a", "abc", "acc", "node_modules", "build", "CHANGELOG.md", "x.md", "y", "ay", "xz", "bz",
    "dist", "tests", "t.py", "sub", "dir", "é1", "x", ".git", "lib.min.js", "root-only", "b", "c",
]), min_size=1, max_size=6)


def _reference_any_match(patterns, parts, is_dir):
    return any(_matches(_compile(p), parts, is_dir) for p in patterns)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PATTERNS, max_size=8), _PARTS, st.booleans())
@example(list(DEFAULT_EXCLUDE), ["src", "node_modules", "x.js"], False)
def test_joined_globs_match_as_each_pattern_does(patterns, parts, is_dir):
    assert _any_match(patterns, parts, is_dir) == _reference_any_match(patterns, parts, is_dir)


def _reference_relative_parts(settings_, path):
    absolute = os.path.abspath(os.fspath(path))
    bases = ([str(settings_.root)] if settings_.root is not None else []) + [os.getcwd()]
    for base in bases:
        rel = os.path.relpath(absolute, base)
        if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
            return [part for part in rel.split(os.sep) if part not in ("", ".")]
    return [part for part in absolute.split(os.sep) if part]


_SEGMENT = st.sampled_from(["a", "b", "docs", "..", ".", "", "x.md", "ab", "a b", "é"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["/", "/r", "/r/a", "/r/a/", "/ra", "/r/./a", "/r//a", "/r/a/.."]),
       st.lists(_SEGMENT, max_size=5).map("/".join), st.booleans())
@example("/r/a", "/r/a", True)
@example("/", "x", False)
@example("/r/a", "/r/a", True)  # "//r/a": relpath takes it as "/r/a"
@example("/r", "..", True)
def test_relative_parts_are_those_relpath_gives(root, rest, absolute):
    path = ("/" + rest) if absolute else rest
    settings_ = Settings(source=root.rstrip("/") + "/.irilint.toml")
    assert _relative_parts(settings_, path) == _reference_relative_parts(settings_, path)
    assert _relative_parts(Settings(), path) == _reference_relative_parts(Settings(), path)
    assert _relative_parts(Settings(), "/" + path.lstrip("/")) == _reference_relative_parts(
        Settings(), "/" + path.lstrip("/"))


def test_is_included_answers_as_before_for_paths_outside_the_current_folder(tmp_path):
    root = tmp_path / "proj"
    st_ = Settings(source=str(root / ".irilint.toml"), extend_exclude=("docs/*.tmp", "out/"))
    assert config.is_included(st_, root / "docs" / "a.md", is_dir=False)
    assert not config.is_included(st_, root / "docs" / "a.tmp", is_dir=False)
    assert not config.is_included(st_, root / "out", is_dir=True)
    assert config.is_included(st_, root / "out", is_dir=False)
    assert not config.is_included(st_, root / "build" / "a.md", is_dir=False)
    assert not config.is_included(st_, root / "x" / "node_modules" / "y.md", is_dir=False)
