"""A folder entry is judged by the settings of the folder it is in, as the
files beside it are: a configuration file governs what its folder holds,
not the folder itself (its patterns are relative to its own folder, so
they could not name it).  The CLI's walk and the server's workspace walk
agree, whichever entry is met first."""
from __future__ import annotations

import os

import pytest

from irilint import config
from irilint.discovery import DiscoveryError

from cli_run import run


@pytest.fixture
def in_tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config.clear_cache()
    yield tmp_path
    config.clear_cache()


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _checked_files(*argv):
    code, out, err = run(["check", "--no-cache", "--format", "json", *argv])
    assert code in (0, 1), err
    import json

    return sorted({f["path"] for f in json.loads(out)}), code


def _server_walk(root):
    """The files the server's workspace check walks (its settings lookup)."""
    from irilint.lsp.settings import SettingsManager
    from irilint.project_files import admitted_files

    manager = SettingsManager()
    manager.root = str(root)
    return sorted(os.path.relpath(p, str(root)) for p in admitted_files([str(root)], manager.settings_for)
                  if not isinstance(p, DiscoveryError))


@pytest.mark.parametrize("folder_name", ["a", "z"])  # met before and after the file in the walk
def test_a_file_beside_a_folder_is_judged_by_its_own_folder(in_tree, folder_name):
    _write(in_tree / "b.md", "http://example.com/%zz\n")
    _write(in_tree / folder_name / ".irilint.toml", 'include = []\nextend-exclude = ["*"]\n')
    _write(in_tree / folder_name / "c.md", "http://example.com/%zz\n")
    files, code = _checked_files(".")
    # the folder's configuration excludes what it holds, not the file beside it
    assert files == ["b.md"]
    assert code == 1
    assert _server_walk(in_tree) == ["b.md"]


def test_a_folder_excluded_by_its_parent_stays_out_though_it_has_a_configuration(in_tree):
    _write(in_tree / ".irilint.toml", 'extend-exclude = ["vendor"]\n')
    _write(in_tree / "doc.md", "http://example.com/%zz\n")
    _write(in_tree / "vendor" / ".irilint.toml", "")
    _write(in_tree / "vendor" / "lib.md", "http://example.com/%zz\n")
    files, _code = _checked_files(".")
    assert files == ["doc.md"]
    assert _server_walk(in_tree) == ["doc.md"]
    # named on the command line, it is checked all the same
    files, _code = _checked_files("vendor")
    assert files == [os.path.join("vendor", "lib.md")]


def test_a_folder_configuration_governs_its_files(in_tree):
    _write(in_tree / "b.md", "http://example.com/%zz\n")
    _write(in_tree / "a" / ".irilint.toml", 'extend-exclude = ["skip.md"]\n')
    _write(in_tree / "a" / "skip.md", "http://example.com/%zz\n")
    _write(in_tree / "a" / "keep.md", "http://example.com/%zz\n")
    _write(in_tree / "skip.md", "http://example.com/%zz\n")
    files, _code = _checked_files(".")
    assert files == sorted(["b.md", os.path.join("a", "keep.md"), "skip.md"])
    assert _server_walk(in_tree) == files


def test_include_patterns_name_files_in_the_server_walk_as_in_the_cli(in_tree):
    # "docs/**/*.md" describes files: applied to the folder "docs" it would
    # prune the walk before any file
    _write(in_tree / ".irilint.toml", 'include = ["docs/**/*.md"]\n')
    _write(in_tree / "docs" / "guide" / "x.md", "http://example.com/%zz\n")
    _write(in_tree / "docs" / "x.txt", "http://example.com/%zz\n")
    _write(in_tree / "top.md", "http://example.com/%zz\n")
    files, _code = _checked_files(".")
    assert files == [os.path.join("docs", "guide", "x.md")]
    assert _server_walk(in_tree) == files
