"""``LineIndex.offset`` (LSP position -> code point offset) counts a
line's UTF-8 and UTF-16 units in C; these properties hold it to the
per-character count it replaced, on every kind of character a column can
fall inside (multi-byte, astral, lone surrogates) and on any column,
including ones inside a character and past the line's end."""
from __future__ import annotations

import time

from hypothesis import given, strategies as st

from fuzz_profile import fuzz_settings
from irilint.lines import LineIndex, char_units

_CHARS = st.sampled_from(["a", "~", "\u00e9", "\u20ac", "\U0001d538", "\U0001f600", "\ud800", "\udc00",
                          "\u2028", "\r", "\n", "\x00", "\u0085"])
_TEXTS = st.lists(_CHARS, max_size=40).map("".join)


def offset_by_counting(index: LineIndex, line: int, column: int, encoding: str) -> int:
    """The first character at or after ``column`` units, counting one
    character at a time."""
    if line < 0:
        return 0
    if line >= len(index.starts):
        return len(index.text)
    start = index.starts[line]
    content = index.line_text(line)
    units = 0
    for i, ch in enumerate(content):
        if units >= column:
            return start + i
        units += char_units(ch, encoding)
    return start + len(content)


@fuzz_settings(1)
@given(text=_TEXTS, line=st.integers(-1, 6), column=st.integers(-3, 170),
       encoding=st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_offset_is_the_per_character_count(text, line, column, encoding):
    index = LineIndex(text)
    assert index.offset(line, column, encoding) == offset_by_counting(index, line, column, encoding)


@fuzz_settings(1)
@given(text=_TEXTS, encoding=st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_every_position_maps_back_to_its_offset(text, encoding):
    index = LineIndex(text)
    for off in range(len(text) + 1):
        line, column = index.position(off, encoding)
        assert index.offset(line, column, encoding) == min(off, index.line_end(line))


def test_offset_on_a_long_non_ascii_line_does_not_walk_it_per_character():
    # 600,000 characters on one line, 40 positions near its end: at most
    # half the time of counting one character at a time (a ratio, so that
    # the load of the machine cancels out; it was about 1 before)
    line = "\u00e9\U0001d538x" * 200000
    index = LineIndex(line + "\nend\n")
    columns = [(encoding, 900000 - k) for encoding in ("utf-8", "utf-16") for k in range(20)]

    def cpu(find) -> float:
        started = time.process_time()
        for encoding, column in columns:
            find(index, 0, column, encoding)
        return time.process_time() - started

    counting = cpu(offset_by_counting)
    assert cpu(LineIndex.offset) < counting / 2
