"""delimiters._cjk_neighbours (a run of CJK punctuation walked once) gives
what looking past the run from each character gave: the old walk, kept here
as the reference."""
from __future__ import annotations

import threading
from typing import Optional

from hypothesis import given, settings, strategies as st

from irilint.rules.lookalike import delimiters
from irilint.rules.lookalike.delimiters import _cjk_neighbours, _is_cjk_punctuation_char
from irilint.unicode_security import general_category


def _side(text: str, i: int, step: int) -> Optional[str]:
    """The walk _cjk_neighbours replaced (one per character of a run)."""
    k = i + step
    while 0 <= k < len(text):
        c = text[k]
        if not (_is_cjk_punctuation_char(c) or general_category(c).startswith("M")):
            return c
        k += step
    return None


#: CJK punctuation (full-width, ideographic stops), marks, full-width
#: letters (not punctuation), Han, kana, Latin, digits, delimiters
ALPHABET = "\uff0f\uff0c\uff1f\uff5e\u3002\ufe12\uff61\u0301\u0338\u3099\uff41\uff10\u4e00\u30ce\u3042aZ9/.%"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.text(ALPHABET, max_size=40), st.lists(st.integers(0, 39), max_size=12)),
                min_size=1, max_size=4))
def test_the_neighbours_of_each_cjk_punctuation_character_are_the_walks(texts):
    # several texts in turn, positions in any order: the memo of the last
    # run must never answer for another text or another run
    for text, positions in texts:
        for i in positions + list(range(len(text))):
            if i < len(text) and _is_cjk_punctuation_char(text[i]):
                assert _cjk_neighbours(text, i) == (_side(text, i, -1), _side(text, i, 1)), (text, i)


def test_an_equal_text_that_is_another_object_is_not_answered_from_the_memo():
    a = "\u4e00" + "\uff0c" * 3 + "x"
    assert _cjk_neighbours(a, 1) == ("\u4e00", "x")
    b = "".join(["y", "\uff0c" * 3, "z"])  # same length, other text
    assert _cjk_neighbours(b, 2) == ("y", "z")


def test_threads_checking_other_texts_get_their_own_answers():
    texts = ["%s%s%s" % (left, "\uff0f" * 500, right) for left, right in ("ab", "\u4e00\u3042", "x\u30ce", "1z")]
    errors = []

    def work(text):
        for _ in range(50):
            for i in range(1, 501, 7):
                if _cjk_neighbours(text, i) != (text[0], text[-1]):
                    errors.append((text[0], i))

    threads = [threading.Thread(target=work, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert delimiters._last_run[0] in texts
