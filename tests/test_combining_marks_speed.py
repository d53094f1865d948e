"""A long run of combining marks costs a few times ordinary text, not a
Python step per mark: the faster helpers of not-nfc, messages and template
detection each equal the plain per-character definition they replace."""
from __future__ import annotations

import gc
import time
import unicodedata

from hypothesis import example, given, settings, strategies as st

from irilint.engine import Engine
from irilint.rules.normalization import _changed_part
from irilint.templates import is_template
from irilint.unicode_security import is_invisible, visible_text

# Starters that compose (e, a, o, Hangul L and V jamo), precomposed letters,
# marks of several combining classes (230 above, 220 below, 202 attached,
# 240 iota subscript, 1 overlay), a Hangul T jamo, ASCII and invisibles.
_PIECES = ["e", "a", "o", "E", "\u1100", "\u1161", "\u11a8", "\u00e9", "\u00c5", "\u1e69",
           "\u0301", "\u0300", "\u0308", "\u0304", "\u0323", "\u0327", "\u0345", "\u0334",
           "\u0345\u0301", "\u0301" * 40, "\u0323" * 17, "/", "%", "x", "\u200b", "\u00ad",
           "\u05d0", "\u0591", "\u093f", "\u094d"]


def _reference_changed_part(run: str, fixed: str):
    """The per-character definition _changed_part must equal."""
    n, m = len(run), len(fixed)
    a = 0
    while a < n and a < m and run[a] == fixed[a]:
        a += 1
    tail = 0
    while tail < n - a and tail < m - a and run[n - 1 - tail] == fixed[m - 1 - tail]:
        tail += 1
    b = n - tail
    while 0 < a < n and unicodedata.combining(run[a]) != 0:
        a -= 1
    while b < n and unicodedata.combining(run[b]) != 0:
        b += 1
    if run[:a] + unicodedata.normalize("NFC", run[a:b]) + run[b:] != fixed:
        return 0, n
    return a, b


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30).map("".join))
@example("e" + "\u0301" * 500)
@example("x\u0323\u0301e\u0301\u0301")
@example("\u00e9\u0301" + "\u0323" * 3)
def test_changed_part_equals_the_per_character_definition(run):
    fixed = unicodedata.normalize("NFC", run)
    a, b = _changed_part(run, fixed)
    assert (a, b) == _reference_changed_part(run, fixed)
    assert run[:a] + unicodedata.normalize("NFC", run[a:b]) + run[b:] == fixed


def _reference_visible_text(s: str) -> str:
    return "".join("<U+%04X>" % ord(ch) if is_invisible(ch) else ch for ch in s)


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(),
    st.lists(st.sampled_from(_PIECES + ["\t", "\x7f", "\n", " ", "\u00a0", "\ue000", "\u0378", "\ufeff"]),
             max_size=40).map("".join),
    st.text(max_size=3).map(lambda s: s * 3000),  # long text: the regex passes
))
@example("e" + "\u0301" * 5000)
@example("a\x00b\x1f\x7f" + "\u200b" * 5000)
def test_visible_text_equals_the_per_character_rule(s):
    assert visible_text(s) == _reference_visible_text(s)


_TRIGGER_CHARS = frozenset("{%<$[\\*+(?^")


def _reference_is_template(value: str) -> bool:
    if not (value[:1] in "jJ" or value.count(":") > 1 or not _TRIGGER_CHARS.isdisjoint(value)):
        return False
    return is_template(value)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{%<$[\\*+(?^}]>)jJ:/ab.\u0301-_=")), max_size=30))
def test_is_template_equals_its_trigger_set_definition(value):
    assert is_template(value) == _reference_is_template(value)


def _cpu_per_char(text: str, path: str, runs: int = 3) -> float:
    eng = Engine()
    eng.check_text(text, path=path)  # warm-up
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            t = time.process_time()
            eng.check_text(text, path=path)
            best = min(best, time.process_time() - t)
        finally:
            gc.enable()
    return best / len(text.encode("utf-8"))


def test_a_megabyte_of_combining_marks_costs_a_few_times_ordinary_text():
    # bench/pathological.py's input; the ordinary text is prose with a
    # reference every few lines, of the same size in bytes.
    marks = "See https://example.org/e" + "\u0301" * 500_000 + " for details.\n"
    line = ("The manual at https://docs.example.org/guide/install.html#setup explains it; "
            "see also the notes below for the details of each step.\n")
    ordinary = (line + "Plain prose with no reference in it at all, just words and words.\n" * 3) * 2600
    finding = Engine().check_text(marks, path="combining.txt").findings
    assert [f.rule.name for f in finding] == ["not-nfc"]
    assert finding[0].fixes[0].edits[0].new_text == "\u00e9" + "\u0301" * 499_999
    ratio = _cpu_per_char(marks, "combining.txt") / _cpu_per_char(ordinary, "ordinary.txt")
    # It was ~28x: a Python step per mark in not-nfc and in the message;
    # now ~2x (unicodedata.normalize of the run is most of it).
    assert ratio < 6, "combining marks cost %.1fx ordinary text per byte" % ratio
