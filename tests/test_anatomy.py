"""The anatomy module: one way to tell and show what an IRI is made of, used
by rule messages, the hover and the report alike."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from irilint import anatomy
from irilint.anatomy import (
    BIDI_CONTROLS,
    char_info,
    chip_label,
    glyph,
    is_bidi,
    is_invisible,
    quoted,
    read_back,
    scripts_of,
    visible_text,
    visual_order,
)

RLO = "\u202e"
ZWNJ = "\u200c"

#: any code point, with the ones that matter here drawn often
_hidden = st.sampled_from([RLO, ZWNJ, "\u200b", "\u200e", "\u061c", "\u2066", "\u2069", "\u00a0", "\u3000",
                           "\ufeff", "\u00ad", "\x00", "\x1b", "\ud800", "\U000e0041", "\ue000", "\u0378"])
_strings = st.lists(st.one_of(st.characters(), _hidden, st.sampled_from(list("<>&\"' U+%"))),
                    max_size=40).map("".join)
PROPERTY = settings(max_examples=500, deadline=None)


def _bidi_controls(s: str) -> list:
    return [c for c in s if unicodedata.bidirectional(c) in BIDI_CONTROLS or c in "\u200e\u200f\u061c"]


@PROPERTY
@given(_strings)
def test_shown_text_holds_no_invisible_or_bidi_control(s):
    shown = visible_text(s)
    assert not [c for c in shown if is_invisible(c)]
    assert not _bidi_controls(shown)
    # and the same through a message's quotes
    assert not [c for c in quoted(s, 10) if is_invisible(c)]


@PROPERTY
@given(_strings.filter(lambda s: "<U+" not in s))
def test_shown_text_maps_back(s):
    assert read_back(visible_text(s)) == s


@PROPERTY
@given(_strings.filter(lambda s: "<U+" not in s))
def test_each_invisible_character_is_shown_by_its_code_point(s):
    shown = visible_text(s)
    expected = ["<U+%04X>" % ord(c) for c in s if is_invisible(c)]
    assert [m.group(0) for m in anatomy._SHOWN_RE.finditer(shown)] == expected


def test_one_style_of_showing():
    assert visible_text("a" + ZWNJ + "b") == "a<U+200C>b"
    assert quoted("x" + RLO) == "'x<U+202E>'"
    assert visible_text("\U000e0041") == "<U+E0041>"
    assert read_back("a<U+200C>b<U+E0041>") == "a" + ZWNJ + "b\U000e0041"


def test_what_is_invisible():
    for ch in (RLO, ZWNJ, "\u200b", "\u200e", "\u2066", "\u00ad", "\ufeff", "\x00", "\x1b", "\u3000", "\u00a0",
               "\u2028", "\U000e0041", "\ue000", "\u115f"):
        assert is_invisible(ch), "U+%04X" % ord(ch)
    # a space is a space: shown as one, in messages, the hover and the report
    for ch in ("a", " ", "/", "\u0430", "\u05e9", "\u00e9"):
        assert not is_invisible(ch), "U+%04X" % ord(ch)


def test_characters():
    info = char_info("\u0430")
    assert (info.label, info.name, info.scripts, info.bidi_class, info.invisible, info.looks_like) == (
        "U+0430 CYRILLIC SMALL LETTER A", "CYRILLIC SMALL LETTER A", "Cyrillic", "L", False, "a")
    assert char_info(RLO).bidi_class == "RLO" and char_info(RLO).invisible
    assert chip_label("\u05e9") == "U+05E9 HEBREW LETTER SHIN · Hebrew"
    assert chip_label(RLO) == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert scripts_of("\u0660") == "Arabic, Thaana, Yezidi"
    assert glyph("\u0301") == "\u25cc\u0301" and glyph(ZWNJ) == "" and glyph("a") == "a"


def test_bidi():
    assert not is_bidi("http://example.com/abc")
    assert is_bidi("http://e.org/\u05e9") and is_bidi("http://e.org/\u0661") and is_bidi("a" + RLO)
    assert visual_order("http://e.org/\u05d0\u05d1/x") == "http://e.org/\u05d1\u05d0/x"


def test_hover_shows_characters_as_the_report_and_messages_do():
    from irilint.lsp.hover import hover_markdown
    from irilint.report import md_code

    md = hover_markdown("http://e.org/a" + ZWNJ + "b\u00a0c d")
    assert "`/a<U+200C>b<U+00A0>c d`" in md  # the path component
    assert "U+0020" not in md and "⟨" not in md
    assert md_code("a" + ZWNJ) == "`a<U+200C>`"


def test_hover_and_report_share_the_anatomy():
    from irilint import report
    from irilint.lsp import hover

    assert report.is_invisible is anatomy.is_invisible
    assert report.is_bidi is anatomy.is_bidi and hover.is_bidi is anatomy.is_bidi
    assert not hasattr(hover, "is_invisible") and not hasattr(hover, "display_order")
