"""A pack line is used only when it is whole (key, file, payload, each
field where the format puts it); any other line is a miss, never an error."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from irilint.cache import Cache

KEY = "ab" * 32
QUIET = b'{"findings": [], "facts": {}, "located": [], "edits": {}}'


def _get(tmp_path, line):
    cache = Cache(str(tmp_path))
    cache._lines = {KEY: line}
    return cache.get(KEY, "a.md")


def test_a_whole_line_is_a_hit_and_its_fields_are_where_the_format_puts_them(tmp_path):
    assert _get(tmp_path, KEY.encode() + b'\t"a.md"\t' + QUIET) == ([], {}, ([], {}))
    made = Cache.entry(KEY, "docs/x\ty.md", [], {}, [], {})
    assert made.split(b"\t", 2)[0] == KEY.encode()
    assert _get(tmp_path, made) == ([], {}, ([], {}))


@settings(max_examples=300, deadline=None)
@given(cut=st.integers(0, 64 + 8 + len(QUIET)), junk=st.binary(max_size=3))
def test_a_cut_or_garbled_line_is_a_miss(tmp_path_factory, cut, junk):
    whole = KEY.encode() + b'\t"a.md"\t' + QUIET
    line = whole[:cut] + junk
    result = _get(tmp_path_factory.mktemp("c"), line)
    if line != whole:
        fields = line.split(b"\t", 2)
        valid = len(fields) == 3 and fields[0] == KEY.encode() and fields[2] == QUIET
        assert result is None or valid
    else:
        assert result is not None


def test_a_key_field_longer_than_the_key_is_a_miss(tmp_path):
    assert _get(tmp_path, KEY.encode() + b'0\t"a.md"\t' + QUIET) is None
    assert _get(tmp_path, KEY.encode() + b'\t"a.md"' + QUIET) is None  # no tab after the file


def test_a_pack_over_the_size_cap_is_ignored_with_a_note_and_one_at_it_is_read(tmp_path, monkeypatch):
    from irilint import cache as cache_module

    body = KEY.encode() + b'\t"a.md"\t' + QUIET + b"\n"
    path = tmp_path / "results.pack"
    cache_module._write_checked(str(path), cache_module._PACK_HEADER, b"\n", body)
    size = path.stat().st_size
    notes = []
    monkeypatch.setattr(cache_module, "MAX_PACK_BYTES", size)
    assert cache_module._read_checked(str(path), cache_module._PACK_HEADER, b"\n",
                                      lambda p, what: notes.append(what)) == body
    assert notes == []
    monkeypatch.setattr(cache_module, "MAX_PACK_BYTES", size - 1)
    assert cache_module._read_checked(str(path), cache_module._PACK_HEADER, b"\n",
                                      lambda p, what: notes.append(what)) is None
    assert notes == ["is damaged (truncated, corrupted or too large) and was ignored"]
