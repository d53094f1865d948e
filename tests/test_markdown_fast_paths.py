"""Fast paths of the Markdown scanner give exactly what the plain loops give.

* A link destination's parentheses are read a stretch at a time (one regex
  match for up to 33 openings) instead of one loop turn per character: the
  reference below is the one-character-at-a-time parse CommonMark
  describes, with the same depth limit.
* After a failed link parse, the next inline token is searched from where
  the parse stopped reading (``skip_ahead``) instead of token by token: the
  reference is ``_scan_paragraph(..., skip_ahead=False)``.

The inputs are made of what decides both: runs of ``(`` around the depth
limit, ``)``, backslash escapes, whitespace, control characters, ``](``,
``<`` (autolinks, tags, comments) and code spans between failed links.
"""
from __future__ import annotations

from typing import Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.scanners.markdown import (
    _ASCII_PUNCT,
    _DEST_RUN_RX,
    MAX_PAREN_DEPTH,
    _plain_destination,
    _scan_paragraph,
)


def plain_destination_stepwise(text: str, i: int, hi: int) -> Tuple[int, bool]:
    """The reference: one character (or run of ordinary ones) at a time."""
    j = i
    depth = 0
    while True:
        j = _DEST_RUN_RX.match(text, j, hi).end()
        if j >= hi:
            break
        c = text[j]
        if c == "\\":
            j += 2 if j + 1 < hi and text[j + 1] in _ASCII_PUNCT else 1
        elif c == "(":
            depth += 1
            if depth > MAX_PAREN_DEPTH:
                return j, False
            j += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
            j += 1
        else:
            break
    return min(j, hi), depth == 0


_DEST_PIECES = st.sampled_from([
    "(", "((", ")", "))", "(" * 31, "(" * 32, "(" * 33, "(" * 40, ")" * 5, "a", "x/y", "\\",
    "\\(", "\\)", "\\a", " ", "\n", "\t", "\x01", "\x7f", "]", "[a](", "é", "\U0001F600",
])

_SETTINGS = settings(max_examples=1000, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(text=st.lists(_DEST_PIECES, max_size=40).map("".join), data=st.data())
def test_plain_destination_equals_the_stepwise_parse(text, data):
    i = data.draw(st.integers(0, len(text)))
    hi = data.draw(st.integers(i, len(text)))
    assert _plain_destination(text, i, hi) == plain_destination_stepwise(text, i, hi)


def test_the_depth_limit():
    ok = "(" * MAX_PAREN_DEPTH + ")" * MAX_PAREN_DEPTH
    assert _plain_destination(ok + ")", 0, len(ok) + 1) == (len(ok), True)
    deep = "x" + "(" * (MAX_PAREN_DEPTH + 1) + ")" * (MAX_PAREN_DEPTH + 1)
    # fails at the opening parenthesis one too deep
    assert _plain_destination(deep, 0, len(deep)) == (MAX_PAREN_DEPTH + 1, False)


_PARA_PIECES = st.sampled_from([
    "[a](", "[a](" * 20, "[a](" * 40, "[link](https://example.org/" + "(" * 35,
    "[ok](http://a.example/x)", "[t](<http://b.example/>)", "[t](http://c.example/ \"title\")",
    "](", "(", ")", "(" * 33, "<", "<http://auto.example/>", "<a href=\"http://tag.example/\">",
    "<!-- http://comment.example/ -->", "<!--", "`code http://span.example/`", "`", "\\", "\\](",
    " ", "\n", "http://bare.example/(x)", "see https://example.org/x)", "&#58;", "x", "é",
    "[r]: http://ref.example/\n",
])


@_SETTINGS
@given(pieces=st.lists(_PARA_PIECES, max_size=25))
def test_skip_ahead_equals_token_by_token(pieces):
    text = "".join(pieces)
    fast: list = []
    reference: list = []
    _scan_paragraph(text, 0, len(text), fast)
    _scan_paragraph(text, 0, len(text), reference, skip_ahead=False)
    assert fast == reference
