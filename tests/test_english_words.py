"""Tests for tools/gen_wordlist.py and the generated irilint.english_words."""
import importlib.util
import os
import string

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from irilint import english_words as data
from irilint.rules.lookalike import english_words

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(REPO, "tools", "gen_wordlist.py")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_wordlist", GENERATOR)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_header_records_source_and_version():
    assert data.SOURCE_PACKAGE == "wamerican" and data.SOURCE_VERSION
    assert data.SOURCE_VERSION in data.__doc__ and data.REGENERATE_COMMAND in data.__doc__


def test_decoded_words_match_the_recorded_count_and_shape():
    words = english_words()
    assert len(words) == data.WORD_COUNT
    assert all(w.isascii() and w.isalpha() and w.islower() and data.MIN_LEN <= len(w) <= data.MAX_LEN
               for w in words)
    assert {"broken", "orange", "password", "paypal", "google", "microsoft"} <= words
    assert not {"ally" + "project", "sha" + "lsum"} & words


@hsettings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet=string.ascii_letters, min_size=1, max_size=20), max_size=40))
def test_generator_round_trips_any_word_list(tmp_path_factory, raw):
    gen = _generator()
    src = tmp_path_factory.mktemp("words") / "list"
    kept = {w.lower() for w in raw if gen.MIN_LEN <= len(w) <= gen.MAX_LEN}
    src.write_text("\n".join(sorted(raw) + ["it's", "caf\u00e9s"]) + "\n", encoding="utf-8")
    if not kept:
        with pytest.raises(SystemExit, match=str(src)):
            gen.generate(str(src), None)
        return
    namespace = {}
    exec(gen.generate(str(src), "1.0"), namespace)
    decoded = []
    prev = ""
    import re
    for m in re.finditer(r"[A-Z][a-z]*", "".join(namespace["FRONT_CODED"])):
        prev = prev[:ord(m.group()[0]) - ord("A")] + m.group()[1:]
        decoded.append(prev)
    assert decoded == sorted(kept) and namespace["WORD_COUNT"] == len(kept)


def test_generator_names_a_missing_source(tmp_path):
    missing = tmp_path / "nope"
    with pytest.raises(SystemExit, match="nope.*apt-get install wamerican"):
        _generator().generate(str(missing), None)
