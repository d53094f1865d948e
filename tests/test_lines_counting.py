"""LineIndex answers positions by counting line ends between queries
(and finding a line's start with rfind) instead of building the table of
line starts: the same answers as the table, on every kind of line end and
of character, in document order and out of it."""
from __future__ import annotations

import re
from bisect import bisect_right

from hypothesis import HealthCheck, given, settings, strategies as st

from irilint.lines import LineIndex, column_units

_HYPO = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_PIECES = st.sampled_from(["a", "b", "\n", "\r", "\r\n", "\u2028", "\u0085", "\u00e9", "\U0001d538",
                           "\U0001f600", "\x0c"])
_TEXTS = st.lists(_PIECES, max_size=40).map("".join)
_ENCODINGS = st.sampled_from(["utf-8", "utf-16", "utf-32"])


def table_starts(text: str):
    return [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


def position_by_table(text: str, offset: int, encoding: str):
    """LineIndex.position as it was: bisection in the whole table."""
    starts = table_starts(text)
    offset = max(0, min(offset, len(text)))
    line = bisect_right(starts, offset) - 1
    return line, column_units(text[starts[line]:offset], encoding)


def line_text_by_table(text: str, line: int) -> str:
    starts = table_starts(text)
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    s = text[starts[line]:end]
    if s.endswith("\r\n"):
        return s[:-2]
    return s[:-1] if s.endswith(("\n", "\r")) else s


@_HYPO
@given(text=_TEXTS, offsets=st.lists(st.integers(-3, 90), max_size=25), encoding=_ENCODINGS,
       data=st.data())
def test_position_by_counting_is_position_by_table(text, offsets, encoding, data):
    in_order = sorted(offsets)
    shuffled = data.draw(st.permutations(offsets))
    index = LineIndex(text)
    for offset in in_order + shuffled + in_order:
        assert index.position(offset, encoding) == position_by_table(text, offset, encoding)
        assert index.line_of(max(0, min(offset, len(text)))) == position_by_table(text, offset, encoding)[0]


@_HYPO
@given(text=_TEXTS, offsets=st.lists(st.integers(0, 90), max_size=25))
def test_line_text_from_a_position_is_the_line_text(text, offsets):
    index = LineIndex(text)
    for offset in offsets:
        offset = min(offset, len(text))
        line, column = index.position(offset)
        assert index.line_text_from(offset - column) == line_text_by_table(text, line)


@_HYPO
@given(text=_TEXTS, offsets=st.lists(st.integers(0, 90), max_size=25))
def test_given_table_answers_the_same(text, offsets):
    counted, given_table = LineIndex(text), LineIndex(text, table_starts(text))
    for offset in offsets:
        assert counted.position(offset, "utf-16") == given_table.position(offset, "utf-16")


def test_queries_in_document_order_build_no_table():
    text = "".join("line %d http://example.com/%d\r\n" % (n, n) for n in range(2000))
    index = LineIndex(text)
    for offset in range(0, len(text), 97):
        index.position(offset)
        index.position(offset + 5)
    assert index._starts is None


def test_going_back_from_a_host_end_to_its_start_builds_no_table():
    # the collision rule asks the start and end of each host, then the
    # line of its start again
    text = "".join("line %d http://host%d.example/\n" % (n, n) for n in range(2000))
    index = LineIndex(text)
    for start in range(8, len(text) - 30, 211):
        index.position(start)
        index.position(start + 20)
        assert index.line_of(start) == position_by_table(text, start, "utf-32")[0]
    assert index._starts is None


def test_queries_going_back_again_and_again_build_the_table_once_counting_costs_more():
    text = "abc\n" * 5000
    index = LineIndex(text)
    for _ in range(10):
        index.position(len(text) - 1)
        index.position(1)
    assert index._starts is not None
    assert index.position(len(text) - 1) == position_by_table(text, len(text) - 1, "utf-32")


def test_an_index_shared_between_threads_answers_each_as_the_table():
    # The server's lint worker and its requests may ask one document's
    # index at once; each answer comes from one consistent previous query.
    import random
    import sys
    import threading

    text = "".join("l%d\r\n%s\n" % (n, "é" * (n % 7)) for n in range(3000))
    index = LineIndex(text)
    # no table: a budget that lets every query count
    index._counted_chars = -(1 << 60)
    table = LineIndex(text, table_starts(text))
    wrong = []

    def ask(seed):
        rng = random.Random(seed)
        for _ in range(4000):
            offset = rng.randrange(len(text) + 1)
            if index.position(offset, "utf-16") != table.position(offset, "utf-16"):
                wrong.append(offset)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert wrong == []
    assert index._starts is None
