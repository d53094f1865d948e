"""chars.to_nfc is unicodedata's NFC, whatever ends the text: for every combining
mark of the Unicode version Python has, after heads that compose with it,
reorder around it or hold marks of other classes, and over random texts."""
from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import example, given, settings, strategies as st

from irilint.chars import LONG_RUN, to_nfc

MARKS = [chr(cp) for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp))]

# Starters that compose (with one mark, or a chain of marks), precomposed
# letters holding marks of lower, equal and higher classes, Hangul jamo,
# marks of several classes, ASCII, and marks that decompose into others.
_PIECES = ["e", "a", "o", "u", "i", "E", "s", "\u03b9", "\u03c9", "\u1100", "\u1161", "\u11a8", "\uac00",
           "\u00e9", "\u00c5", "\u1e69", "\u1e63", "\u01d8", "\u1fa2", "\u0915", "\u0bc6", "\u0b47",
           "\u0301", "\u0300", "\u0308", "\u0304", "\u0323", "\u0327", "\u0345", "\u0334", "\u0344",
           "\u0340", "\u0343", "\u0f73", "\u0f71", "\u0f72", "\u093c", "\u094d", "\u05b0", "\u0591",
           "\u1dce", "\u302a", "/", "x", " ", "\u200d"]

_HEADS = ["", "e", "a", "/", "\u00e9", "\u1e69", "\u1e63", "e\u0323", "e\u0307", "e\u0301", "e\u0345",
          "\u03b9\u0308", "\u03c9\u0313", "\u1fa2", "o\u031b", "u\u0308", "\u0915\u093c", "\u0bc6",
          "\u1100\u1161", "\uac00", "x\u0334", "\u0301", "e\u0316\u0301"]


def test_every_mark_repeated_after_every_head():
    copies = LONG_RUN + 3
    for mark in MARKS:
        for head in _HEADS:
            text = head + mark * copies
            assert to_nfc(text) == unicodedata.normalize("NFC", text), (head, mark)


@settings(max_examples=600, deadline=None)
@given(head=st.lists(st.sampled_from(_PIECES), max_size=8).map("".join),
       mark=st.one_of(st.sampled_from(_PIECES), st.sampled_from(MARKS)),
       copies=st.integers(0, 3 * LONG_RUN))
@example(head="https://example.org/e", mark="\u0301", copies=500_000)
@example(head="\u1e63", mark="\u0307", copies=LONG_RUN + 1)
@example(head="\u0f71", mark="\u0f72", copies=LONG_RUN + 1)
def test_to_nfc_is_nfc(head, mark, copies):
    text = head + mark * copies
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.text(max_size=3), st.integers(0, 200))
def test_to_nfc_is_nfc_on_any_text(text, tail, copies):
    text = text + tail * copies
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=30), st.sampled_from(["\u0301", "a", "\U0001d167"]), st.integers(1, 3000))
def test_copies_at_end_counts_what_rstrip_strips(head, mark, copies):
    from irilint.chars import _copies_at_end

    text = head + mark * copies
    assert _copies_at_end(text, mark) == len(text) - len(text.rstrip(mark))


def _findings(text):
    from irilint.engine import Engine

    return [(f.rule.name, f.start, f.end, f.message, [(fx.title, fx.safe, fx.edits) for fx in f.fixes])
            for f in Engine().check_text(text, path="t.md").findings]


@settings(max_examples=60, deadline=None)
@given(host=st.sampled_from(["example.org", "b\u00fccher.de", "xn--bcher-kva.de"]),
       head=st.lists(st.sampled_from(_PIECES[:30]), max_size=4).map("".join),
       mark=st.sampled_from(["\u0301", "\u0323", "\u0344", "\u0308", "\u0345", "\u094d"]),
       copies=st.sampled_from([1, LONG_RUN, LONG_RUN + 1, 3 * LONG_RUN]),
       after=st.sampled_from(["", " and more.", "/x?y=1", ")", "\u00e9"]))
def test_the_findings_are_those_of_plain_nfc(monkeypatch_module, host, head, mark, copies, after):
    import irilint.rules.normalization as normalization

    text = "See https://%s/p%s%s%s here.\n" % (host, head, mark * copies, after)
    fast = _findings(text)
    with monkeypatch_module.context() as m:
        m.setattr(normalization, "to_nfc", lambda s: unicodedata.normalize("NFC", s))
        assert _findings(text) == fast


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m
