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
@example("e" + "\u0301" * 8192 + "\u0323x")  # whole blocks of one mark, then another mark
@example("e" + "\u0301" * 4095 + "a\u0301" * 3)
@example("\u00e9\u0301" * 3 + "\u0323" * 9000)
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


# Long values take the find-per-character path of the trigger check.
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{%<$[\\*+(?^}]>)jJ:/ab.-_=")), max_size=6),
       st.sampled_from(["\u0301", "a", "\u3001", "\x00"]), st.integers(1024, 3000),
       st.text(alphabet=st.sampled_from(list("{%<$[\\*+(?^}]>)jJ:/ab.\u0301-_=")), max_size=6))
@example("{{", "a", 1100, "}}")
@example("%(a)s", "\u0301", 1100, "")
@example("", "a", 1100, "{b}")
@example("", "\u0301", 1100, "[^b]")
def test_is_template_of_a_long_value_equals_its_trigger_set_definition(head, filler, n, tail):
    from irilint.templates import REGEX_RE, TEMPLATE_RE
    value = head + filler * n + tail
    # The definition without the trigger prefilter, which only saves time.
    assert is_template(value) == (TEMPLATE_RE.search(value) is not None or REGEX_RE.search(value) is not None)


def _class_search(text: str, chars) -> int:
    import re
    m = re.compile("[%s]" % "".join(re.escape(c) for c in sorted(chars))).search(text) if chars else None
    return -1 if m is None else m.start()


_SOUGHT = [chr(c) for c in range(0x21)] + list("<>\"`{}|\\^()[]\x7f") + [
    "\u0301", "\u0300", "\u3001", "\u3002", "\uff08", "\u3010", "\u200b", "\u202e", "\u00a0", "\u0101"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SOUGHT + ["a", "\u0301" * 700, "x" * 600, "\u3000"]), max_size=12).map("".join),
       st.sets(st.sampled_from(_SOUGHT), max_size=60), st.integers(0, 1))
@example("\u0301" * 2000 + " ", set(map(chr, range(0x21))) | {"\u0302"}, 0)
@example("\u0301" * 2000 + "\u0300 <", set(map(chr, range(0x21))) | {"\u0300"}, 0)
def test_first_of_equals_a_regex_class_search(text, chars, pad):
    from irilint.chars import first_index, first_of
    text = ("\u0301" * 1100 if pad else "") + text  # long text: the find-per-character paths
    chars = frozenset(chars)
    assert first_of(text, chars) == _class_search(text, chars)
    if len(chars) <= 24:
        assert first_index(text, chars) == _class_search(text, chars)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["see ", "http://a.example/", "\u0301" * 600, "x" * 400, "(", ")", "[", "]",
                                 "\uff08", "\uff09", "\u3001", "\u3002", "\u4e2d", " ", "\n", "。http://b/"]),
                min_size=1, max_size=14).map("".join))
def test_long_references_end_where_the_regex_searches_end_them(text):
    # The scanner looks for brackets and CJK punctuation in a long reference
    # with one find per character; a regex class search must agree.
    import irilint.scanners.text as scanner
    fast = [(c.start, c.end, c.value) for c in scanner.TextScanner().scan(text)]
    from irilint import chars

    saved = chars.FIND_EACH_FROM
    chars.FIND_EACH_FROM = 1 << 62
    try:
        slow = [(c.start, c.end, c.value) for c in scanner.TextScanner().scan(text)]
    finally:
        chars.FIND_EACH_FROM = saved
    assert fast == slow


_SCAN_PIECES = ["\u0301" * 700, "x" * 500, "(", ")", "[", "]", "\uff08", "\uff09", "\u3010", "\u3011",
                "\u3001", "\u3002", "\uff0e", "\u4e2d", "a", "/", "?", "http://b.example/"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SCAN_PIECES), min_size=1, max_size=12).map("".join),
       st.booleans(), st.booleans())
def test_bracket_and_cjk_ends_equal_their_regex_searches(body, ascii_text, slashes):
    # Called on the span of a long reference, as the scanner calls them.
    import irilint.scanners.text as scanner
    text = "see http://a.example/" + body + " end"
    if ascii_text:
        text = text.encode("ascii", "ignore").decode("ascii")
    start, end = 4, len(text) - 4
    fast = (scanner._bracket_end(text, start, end, ascii_text), scanner._cjk_prose_end(text, start, end, slashes))
    from irilint import chars

    saved = chars.FIND_EACH_FROM
    chars.FIND_EACH_FROM = 1 << 62
    try:
        slow = (scanner._bracket_end(text, start, end, ascii_text),
                scanner._cjk_prose_end(text, start, end, slashes))
    finally:
        chars.FIND_EACH_FROM = saved
    assert fast == slow


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



def test_a_megabyte_of_combining_marks_costs_less_than_prose_dense_with_references():
    # The same two texts.  Each regex pass over the marks, each copy and
    # each hash of the megabyte counts here: ~1.05x before the run classes
    # were written as plain ranges, the reference split with str.find and
    # not-nfc's extra passes removed; ~0.5x since.
    marks = "See https://example.org/e" + "\u0301" * 500_000 + " for details.\n"
    line = ("The manual at https://docs.example.org/guide/install.html#setup explains it; "
            "see also the notes below for the details of each step.\n")
    ordinary = (line + "Plain prose with no reference in it at all, just words and words.\n" * 3) * 2600
    ratio = _cpu_per_char(marks, "combining.txt") / _cpu_per_char(ordinary, "ordinary.txt")
    assert ratio < 0.8, "combining marks cost %.2fx prose with references per byte" % ratio

def test_a_long_non_nfc_run_is_quoted_in_part_and_a_short_one_whole():
    long_run = Engine().check_text("See https://example.org/e" + "\u0301" * 5000 + " now\n", path="a.txt").findings
    assert [f.rule.name for f in long_run] == ["not-nfc"]
    assert long_run[0].message.endswith("...'") and len(long_run[0].message) < 300
    assert long_run[0].fixes[0].edits[0].new_text == "\u00e9" + "\u0301" * 4999  # the fix is whole
    short = Engine().check_text("See https://example.org/re\u0301sume\u0301 now\n", path="a.txt").findings
    assert [f.rule.name for f in short] == ["not-nfc", "not-nfc"]
    assert all(f.message.endswith("NFC gives '\u00e9'") for f in short)


def test_not_nfc_run_class_is_every_non_ascii_code_point():
    import re
    import sys

    from irilint.rules.normalization import _RUN_RE

    reference = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")  # the class as first written
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        assert (_RUN_RE.fullmatch(c) is None) == (reference.fullmatch(c) is None) == (cp < 0x80), hex(cp)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + ["\U0001d165", "\U0010fffd", "\ud800", "\x7f", "\x80"]),
                max_size=30).map("".join))
def test_not_nfc_runs_are_the_runs_of_the_first_pattern(value):
    import re

    from irilint.rules.normalization import _RUN_RE

    reference = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")
    assert [m.span() for m in _RUN_RE.finditer(value)] == [m.span() for m in reference.finditer(value)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\u0301", max_size=12), st.text(alphabet="ab\u0301", max_size=12),
       st.text(alphabet="ab\u0301", max_size=12), st.integers(0, 30))
@example("aa", "a", "", 5)
def test_common_suffix_len_is_the_common_prefix_of_the_reversed_texts(x, y, shared, limit):
    from irilint.rules.normalization import _common_prefix_len, _common_suffix_len

    x, y = x + shared, y + shared
    expected = min(_common_prefix_len(x[::-1], y[::-1]), limit)
    assert _common_suffix_len(x, y, limit) == expected


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30).map("".join),
       st.sets(st.sampled_from(["\u0301", "\u0323", "\u00e9", "\u05d0", "\u3042", "\u0345", "\u1161"]), max_size=5))
@example("e" + "\u0301" * 5000, set())
@example("e" + "\u0301" * 8192 + "\u0323x", {"\u0300"})
def test_changed_part_given_more_characters_than_the_run_holds_is_the_same(run, extra):
    # not_nfc passes a long run the value's characters, a superset of its own.
    from irilint.chars import distinct_non_ascii

    fixed = unicodedata.normalize("NFC", run)
    chars = frozenset(distinct_non_ascii(run) | extra)
    assert _changed_part(run, fixed, chars) == _reference_changed_part(run, fixed)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["e", "\u0301", "\u0301" * 700, "x" * 600, "\u3001", "\u0323", "a"]),
                max_size=12).map("".join),
       st.sets(st.sampled_from(["e", "\u0301", "\u3001", "\u0323", "a", "z", "\u00e9"]), max_size=5),
       st.integers(0, 6), st.booleans())
def test_first_positions_are_the_first_of_positions_of(text, chars, count, long_text):
    from itertools import islice

    from irilint.chars import first_positions, positions_of

    if long_text:
        text = "\u0301" * 1100 + text  # the find-per-character path
    assert first_positions(text, chars, count) == list(islice(positions_of(text, frozenset(chars)), count))


def _reference_not_nfc(value):
    """The literal part of not-nfc as first written: (start, end, message,
    normalized text) of each finding, with the per-character definitions."""
    import re

    from irilint.anatomy import describe, quoted
    from irilint.rules.normalization import SHOWN_NFC_CHARACTERS

    out = []
    for m in re.finditer(r"[\x00-\x7f]?[^\x00-\x7f]+", value):
        run, s, e = m.group(), m.start(), m.end()
        fixed = unicodedata.normalize("NFC", run)
        if fixed == run:
            continue
        a, b = _reference_changed_part(run, fixed)
        if (a, b) != (0, len(run)):
            fixed = fixed[a:len(fixed) - (len(run) - b)]
            run = run[a:b]
            s, e = s + a, s + b
        gone = {c for c in run if c >= "\x80" and c not in fixed}
        if run[0] < "\x80" and run[0] not in fixed:
            gone.add(run[0])
        changed = [c for c in run if c in gone][:4] or list(run[:4])
        in_escape = value[s].isascii() and (value[s - 1:s] == "%" or value[max(0, s - 2):s - 1] == "%")
        out.append((s, e, visible_text("not in NFC: %s; NFC gives %s" % (
            ", ".join(describe(c) for c in changed), quoted(fixed, SHOWN_NFC_CHARACTERS))),
            [] if in_escape else [fixed]))
    return out


_NFC_PIECES = _PIECES + ["\u0301" * 5000, "e" + "\u0323" * 4500 + "\u0301", "\u00e9" + "\u0301" * 4200,
                         "".join(map(chr, range(0x3041, 0x3041 + 30))),  # more characters than finds are used for
                         "\u1100" + "\u1161" * 4100, "x" + "\u0345\u0301" * 2100]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_NFC_PIECES), min_size=1, max_size=8).map("".join))
@example("e" + "\u0301" * 500_000)
@example("\u3042\u3044e" + "\u0301" * 5000 + "/e\u0301")
def test_not_nfc_findings_are_those_of_the_first_definition(path):
    from irilint.engine import check_reference

    value = "http://example.org/" + path
    found = [(f.start, f.end, f.message, [e.new_text for fx in f.fixes for e in fx.edits])
             for f in check_reference(value, select=["not-nfc"]) if f.message.startswith("not in NFC:")]
    assert found == _reference_not_nfc(value)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "\x7f", "\x80", "\u0301", "\u0301" * 3000, "x" * 4100, "\u00e9", "\ud800",
                                 "\U0001d165", "\U0010ffff", "]", "\\", "^", "-"]), max_size=10).map("".join),
       st.integers(0, 30))
def test_distinct_non_ascii_of_long_text_is_its_set_of_non_ascii_characters(text, distinct):
    from irilint.chars import distinct_non_ascii

    # past 4096 characters; up to 30 more distinct characters (past 24, a set of all of them)
    text = "\u0301" * 4096 + text + "".join(chr(0x3041 + k) for k in range(distinct))
    assert distinct_non_ascii(text) == frozenset(c for c in text if ord(c) > 0x7F)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["http://example.org", "https://b\u00fccher.de:80", "foo:", "", "//h"]),
       st.lists(st.sampled_from(["/", ".", "..", "/.", "/..", "/./", "e\u0301" * 2100, "\u0301" * 4100, "a",
                                 "?", "#", "?q=.", "\u3042", "x.y"]), max_size=8).map("".join))
def test_grammar_test_of_a_long_reference_is_the_fast_path_on_the_skeleton(head, path):
    from irilint.rules import gates
    from irilint.rules.fastpath import fast_match

    value = head + path
    chars = frozenset(c for c in value if not c.isascii())
    if not chars:
        return
    mask = gates.char_mask(chars)
    expected = not mask & gates.NOT_UCSCHAR and fast_match(gates.skeleton(value)) is not None
    assert gates.plain_syntax_match(value, mask) == expected


_TEMPLATE_PIECES = ["{{", "}}", "{%", "${", "<%", "<?", "%(a)s", "%s", "%41s", "{name}", "{0}", "{}", "<host>", "$HOST$",
                    "$HOST", "[user@]", "[:options]", "[::1]", ":[<", ":port", "//", "@", "/", ":", ".", "?", "#",
                    "[^a]", "[0-9]", "(?:", "\\d", ".*", "a{2}", "\u0301{2}", "https?:", "^", "{", "x", "é"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_TEMPLATE_PIECES), st.sampled_from(["\u0301" * 1500, "e\u0301" * 800])),
                max_size=12).map("".join))
@example("http://\u0301" * 3 + ":port")
@example("\u0301{2}")
def test_template_matches_start_only_where_possible_starts_says(value):
    import irilint.templates as templates
    from irilint.templates import REGEX_RE, TEMPLATE_RE

    saved = templates._MAX_STARTS
    templates._MAX_STARTS = 1 << 62  # every start, however many
    try:
        starts = templates._possible_starts(value)
    finally:
        templates._MAX_STARTS = saved
    assert starts == sorted(set(starts))
    for i in range(len(value) + 1):
        if TEMPLATE_RE.match(value, i) is not None or REGEX_RE.match(value, i) is not None:
            assert i in starts, i


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_TEMPLATE_PIECES), max_size=4).map("".join),
       st.lists(st.sampled_from(_TEMPLATE_PIECES), max_size=4).map("".join),
       st.sampled_from(["\u0301", "e\u0301", "a", "\u3042"]), st.integers(2100, 5000))
@example("http://", ":port", "\u0301", 4096)
@example("", "{2}", "\u0301", 4096)
def test_is_template_of_a_long_reference_equals_the_two_searches(head, tail, filler, n):
    from irilint.templates import REGEX_RE, TEMPLATE_RE

    value = head + filler * n + tail
    triggered = value[:1] in "jJ" or value.count(":") > 1 or not _TRIGGER_CHARS.isdisjoint(value)
    assert is_template(value) == (triggered and (TEMPLATE_RE.search(value) is not None
                                                 or REGEX_RE.search(value) is not None))
