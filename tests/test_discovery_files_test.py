"""The walk tests a folder's files by name, from one answer per folder
(``files_test`` of irilint.discovery.iter_files, given by
irilint.runner.discover), and finds the folders without a configuration
file with one lower() of their names: both must answer as the test of each
entry does, whatever the tree, the settings and the paths named."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings, strategies as st

import irilint.discovery as discovery
from irilint import config
from irilint.cli import _build_parser
from irilint.project import Project
from irilint.runner import config_name_marks, discover, holds_config_name

_PARTS = st.sampled_from(["a", "b", "build", "venv", "node_modules", "docs", "x.md", "y.txt", "Z.MD", ".hid"])
_CONFIGS = st.sampled_from([
    None, 'extend-exclude = ["b"]\n', 'exclude = ["*.txt"]\n', 'extend-exclude = ["a/x.md", "**/y.txt"]\n',
    'include = ["*.md"]\n', 'extend-exclude = ["docs/"]\n', 'exclude = [\n',  # the last: a broken file
])


def _walk(root, named, with_files_test):
    real = discovery.iter_files

    def without(*args, **kwargs):
        kwargs.pop("files_test", None)
        return real(*args, **kwargs)

    cwd = os.getcwd()
    os.chdir(str(root))
    config.clear_cache()
    try:
        if not with_files_test:
            discovery.iter_files = without
        args = _build_parser().parse_args(["check", "--no-cache", *named])
        checker = Project(args)
        out = []
        for item in discover(checker, named):
            out.append(item[0] if isinstance(item, tuple) else (item.path, item.error, item.skipped))
        return out, sorted(checker._no_config_folders)
    finally:
        discovery.iter_files = real
        os.chdir(cwd)
        config.clear_cache()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.lists(st.lists(_PARTS, min_size=1, max_size=4), min_size=1, max_size=12),
       top_config=_CONFIGS, inner_config=_CONFIGS, data=st.data())
def test_the_walk_by_folder_answers_as_the_test_of_each_entry(tmp_path_factory, files, top_config,
                                                              inner_config, data):
    root = tmp_path_factory.mktemp("tree")
    made = []
    for parts in files:
        p = root.joinpath(*parts)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists():
                p.write_text("x", encoding="utf-8")
            made.append("/".join(parts))
        except OSError:
            continue  # a file where a folder was wanted
    if top_config is not None:
        (root / ".irilint.toml").write_text(top_config, encoding="utf-8")
    if inner_config is not None and (root / "a").is_dir():
        (root / "a" / "IRILINT.toml").write_text(inner_config, encoding="utf-8")
    # the tree, its folders and files named (as spelled, or not quite),
    # and paths that are not there
    spellings = sorted({".", "a", "./a", "a/", "b/../a", "nothing"} | set(made)
                       | {m.rpartition("/")[0] for m in made if "/" in m})
    named = data.draw(st.lists(st.sampled_from(spellings), min_size=1, max_size=3))
    assert _walk(root, named, True) == _walk(root, named, False)


_NAMES = st.lists(st.one_of(
    st.sampled_from([".irilint.toml", "IRILINT.TOML", "pyproject.toml", "PyProject.Toml", "x.toml",
                     "irilint.toml.bak", "a.irilint.toml", "\u03a3", "A\u03a3", "\u03a3.toml", "\u0130rilint.toml"]),
    st.text(st.characters(blacklist_characters="/\0"), min_size=1, max_size=6)), max_size=8)


@settings(max_examples=400, deadline=None)
@given(names=_NAMES)
def test_one_lower_of_the_names_joined_finds_what_lowering_each_finds(names):
    config_names = {name.lower() for name in config.CONFIG_FILE_NAMES}
    assert holds_config_name(names, config_name_marks(config.CONFIG_FILE_NAMES)) == (
        not config_names.isdisjoint(map(str.lower, names)))


def test_a_named_file_the_settings_exclude_keeps_its_place_in_the_walk(tmp_path):
    """A folder holding a path named on the command line is tested entry by
    entry: the named file is in, where the walk finds it."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "y.txt").write_text("x", encoding="utf-8")
    (tmp_path / "a" / "b" / "venv").write_text("x", encoding="utf-8")
    (tmp_path / "a" / "x.md").write_text("x", encoding="utf-8")
    for settings_text in (None, 'exclude = ["*.txt", "venv"]\n'):
        if settings_text is not None:
            (tmp_path / ".irilint.toml").write_text(settings_text, encoding="utf-8")
        for named in ([".", "a/b/y.txt", "a/b/venv"], ["a/b/venv", ".", "a/b/y.txt"]):
            walked = _walk(tmp_path, named, True)
            assert walked == _walk(tmp_path, named, False)
            if named[0] == ".":
                assert walked[0][:2] == ["./a/b/venv", "./a/b/y.txt"]


_STEPS = st.sampled_from(["a", "b", ".", "..", "", ".x", "a.b", "..."])


@settings(max_examples=400, deadline=None)
@given(roots=st.lists(st.tuples(st.booleans(), st.lists(_STEPS, max_size=3)), min_size=1, max_size=3),
       children=st.lists(st.lists(_STEPS, min_size=1, max_size=3), max_size=4))
def test_a_walked_folder_names_itself_exactly_as_normpath_says(roots, children):
    """irilint.runner.names_exactly answers from the parent's answer what
    normpath and dirname answer, for folders met parents first."""
    from irilint.runner import names_exactly

    def plain(folder):
        return os.path.normpath(folder) == folder and os.path.dirname(folder) != folder

    exact: set = set()
    for absolute, parts in roots:
        root = ("/" if absolute else "") + "/".join(parts)
        for folder in [root] + [root + "/" + "/".join(steps) for steps in children]:
            # a walk meets each folder of the spelling after its parent
            for cut in range(len(folder) + 1):
                if cut == len(folder) or folder[cut] == "/":
                    spelled = folder[:cut]
                    assert names_exactly(spelled, exact) == plain(spelled), spelled
