"""The walk finds the folders without a configuration file with one
lower() of their names, and the folders whose spelling names them exactly
without normpath: both answer as the plain way does."""
from __future__ import annotations

import os

from hypothesis import given, settings, strategies as st

from irilint import config
from irilint.runner import config_name_marks, holds_config_name

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
