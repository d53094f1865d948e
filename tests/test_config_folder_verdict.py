"""include/exclude judged per folder: the patterns' verdict on a folder's
own parts is worked out once, each entry then costs the matching of its
name.  The same verdicts as is_included on each whole path, and the same
files walked as with the per-path test (nested configuration files,
patterns on the command line)."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from irilint import config
from irilint.config import DEFAULT_EXCLUDE, FolderVerdict, Settings, is_included

_PATTERNS = st.sampled_from([
    "node_modules", ".git", "*.md", "docs/*.md", "/CHANGELOG.md", "docs/**/*.md", "**/build", "build/",
    "a?c", "[ab]*", "[!x]y", "[^x]z", "dist/**", "**", "x/", "/root-only", "*.min.js", "[unclosed",
    "sub/dir/", "é*", "**/tests/**/*.py", "venv", "*", "?", "a/b/c", "docs/", "/docs", "b/*.md",
    "**/x.md", "a/**", "/a/b/",
])
_NAMES = st.sampled_from([
    "docs", "a", "abc", "acc", "node_modules", "build", "CHANGELOG.md", "x.md", "y", "ay", "xz", "bz",
    "dist", "tests", "t.py", "sub", "dir", "é1", "x", "lib.min.js", "root-only", "b", "c",
])
_LISTS = st.lists(_PATTERNS, max_size=3).map(tuple)


@settings(max_examples=2000, deadline=None)
@given(include=_LISTS, exclude=st.one_of(st.just(DEFAULT_EXCLUDE), _LISTS), extend_exclude=_LISTS,
       folder=st.lists(_NAMES, max_size=5), name=_NAMES, is_dir=st.booleans())
# directory-only patterns judge a file by its folders alone
@example((), (), ("x/",), [], "x", False)
@example((), ("sub/dir/",), (), ["sub"], "dir", False)
@example((), ("sub/dir/",), (), ["sub", "dir"], "x.md", False)
@example(("docs/",), (), (), [], "docs", False)
@example(("docs/",), (), (), ["docs"], "x.md", False)
# anchored patterns see the folder's parts before the name
@example(("docs/*.md",), (), (), ["docs"], "x.md", False)
@example(("docs/*.md",), (), (), ["a", "docs"], "x.md", False)
@example((), (), ("a/b/c",), ["a", "b"], "c", True)
@example((), (), ("/root-only",), [], "root-only", False)
@example((), (), ("/root-only",), ["a"], "root-only", False)
def test_folder_verdict_is_is_included_of_the_whole_path(include, exclude, extend_exclude, folder, name,
                                                         is_dir):
    root = "/r/proj"
    settings_ = Settings(source=root + "/.irilint.toml", include=include, exclude=exclude,
                         extend_exclude=extend_exclude)
    path = "/".join([root] + folder + [name])
    assert FolderVerdict(settings_, folder)(name, is_dir) == is_included(settings_, path, is_dir=is_dir)


_HYPO_TREES = settings(max_examples=60, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
_TREE_NAMES = st.sampled_from(["a", "b", "docs", "x.md", "y.txt", "build", "t.py", "sub", "é.md"])


def _toml_list(patterns):
    return "[" + ", ".join('"%s"' % p for p in patterns) + "]"


@_HYPO_TREES
@given(files=st.lists(st.lists(_TREE_NAMES, min_size=1, max_size=4), min_size=1, max_size=25),
       configs=st.lists(st.tuples(st.lists(_TREE_NAMES, max_size=2), _LISTS, _LISTS, _LISTS),
                        max_size=3),
       cli_excludes=_LISTS, given_path=st.sampled_from([".", "./", "a", "a/../a", "docs", "./sub"]))
# a folder's configuration governs what it holds, not the file beside it
# (met before the file and after it)
@example(files=[["b"], ["a", "x.md"]], configs=[(["a"], (), (), ("*",))], cli_excludes=(), given_path=".")
@example(files=[["b"], ["sub", "x.md"]], configs=[(["sub"], (), (), ("*",))], cli_excludes=(), given_path=".")
# a folder its parent excludes stays out, though it holds a configuration
@example(files=[["x.md"], ["build", "t.py"]], configs=[([], (), (), ("build",)), (["build"], (), (), ())],
         cli_excludes=(), given_path=".")
def test_the_walk_admits_what_is_included_admits_path_by_path(tmp_path_factory, files, configs, cli_excludes,
                                                               given_path):
    from irilint.cli import _build_parser
    from irilint.discovery import DiscoveryError, iter_files
    from irilint.project import Project
    from irilint.runner import discover

    root = tmp_path_factory.mktemp("tree")
    for parts in files:
        p = root.joinpath(*parts)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists():
                p.write_text("http://example.com/\n", encoding="utf-8")
        except OSError:
            continue  # a file where a folder was wanted
    for where, include, exclude, extend_exclude in configs:
        folder = root.joinpath(*where)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue  # a file where a folder was wanted
        lines = ["include = %s" % _toml_list(include), "extend-exclude = %s" % _toml_list(extend_exclude)]
        if exclude:
            lines.append("exclude = %s" % _toml_list(exclude))
        (folder / ".irilint.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(str(root))
    config.clear_cache()
    try:
        argv = ["check", "--no-cache"]
        for pattern in cli_excludes:
            argv += ["--extend-exclude", pattern]
        args = _build_parser().parse_args(argv + [given_path])
        checker = Project(args)
        walked = [item[0] for item in discover(checker, [given_path]) if isinstance(item, tuple)]

        # each path judged alone, under the settings of the folder it is in
        # (nothing kept from one path to the next but config's own caches)
        vs, vsc = checker.validators
        explicit = os.path.abspath(given_path)

        def included_path_by_path(p, is_dir):
            if os.path.abspath(p) == explicit:
                return True
            try:
                folder_settings = config.settings_for(os.path.dirname(os.path.abspath(p)), checker.overrides,
                                                      validate_selector=vs, validate_scanner=vsc)
                return config.is_included(folder_settings, p, is_dir=is_dir)
            except config.ConfigError:
                return True

        expected = [p for p in iter_files([given_path], entry_included=included_path_by_path, path_type=str)
                    if not isinstance(p, DiscoveryError)]
        assert walked == expected
        if not cli_excludes and given_path in (".", "./"):
            # the server's workspace walk admits the same files
            from irilint.lsp.settings import SettingsManager
            from irilint.project_files import admitted_files

            manager = SettingsManager()
            manager.root = str(root)
            served = [os.path.relpath(p, str(root)) for p in admitted_files([str(root)], manager.settings_for)
                      if not isinstance(p, DiscoveryError)]
            assert served == [os.path.relpath(p) for p in walked]
    finally:
        os.chdir(cwd)
        config.clear_cache()
