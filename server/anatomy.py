"""What an IRI is made of, for showing it to a person: its characters, their
names, scripts and bidi classes, the order a reader sees them in, which of
them are invisible and how those are shown.

One toolkit for every place that shows an IRI to a person: rule messages,
the hover of the language server and the review report.  Invisible
characters are shown one way everywhere: ``<U+XXXX>`` (ASCII, so it
survives any terminal and font; the report and the hover escape the ``<``
like any other text).  A raw invisible character or bidi control is never
shown.  Inside the document itself (inlay hints, link tooltips) the same
characters are written ``⟨U+XXXX⟩`` (:func:`visible_inline`): there the
text sits next to an IRI, where ``<`` and ``>`` would read as part of it.

This module sits beside :mod:`irilint.unicode_security` (whose character
data it uses) and imports nothing above it; python-bidi is loaded only when
the visual order is asked for.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import List, Optional

# The one definition of "invisible" and of how an invisible character is
# written: rules built their messages with these before this module
# existed, and still may.
from irilint.unicode_security import describe, is_invisible, quoted, visible_text

__all__ = [
    "BIDI_CONTROLS", "BIDI_RTL", "CharInfo", "bidi_class", "describe", "char_info", "char_label", "chip_label",
    "glyph", "is_bidi", "is_invisible", "looks_like", "quoted", "read_back", "scripts_of",
    "visible_inline", "visible_text", "visual_order", "worth_showing",
]

#: bidi classes that make a run right-to-left
BIDI_RTL = frozenset(("R", "AL", "AN"))
#: explicit embeddings, overrides and isolates (they reorder what follows)
BIDI_CONTROLS = frozenset(("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"))
#: most scripts named for one character (Script_Extensions can list many)
MAX_SCRIPTS_NAMED = 4

_SHOWN_RE = re.compile(r"<U\+([0-9A-F]{4,6})>")


def char_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    return describe(ch)


def scripts_of(ch: str) -> str:
    """The script names of a character (Script_Extensions), e.g.
    ``Cyrillic``; ``Common``/``Inherited`` for shared characters."""
    from irilint.unicode_security import script_extensions, script_name

    names = sorted(script_name(c) for c in script_extensions(ch))
    if len(names) > MAX_SCRIPTS_NAMED:
        return ", ".join(names[:MAX_SCRIPTS_NAMED]) + ", …"
    return ", ".join(names)


def bidi_class(ch: str) -> str:
    """The bidi class of a character (``L``, ``R``, ``AL``, ``RLO``...);
    ``?`` when Python's Unicode data has none."""
    return unicodedata.bidirectional(ch) or "?"


def chip_label(ch: str, with_script: bool = True) -> str:
    """``U+0430 CYRILLIC SMALL LETTER A · Cyrillic`` (the script is left out
    for invisible characters, whose script says nothing)."""
    label = char_label(ch)
    if with_script and not is_invisible(ch):
        label += " · " + scripts_of(ch)
    return label


def looks_like(ch: str) -> Optional[str]:
    """What a non-ASCII character can be mistaken for (its UTS #39
    confusable prototype), or None."""
    if ch.isascii():
        return None
    from irilint.unicode_security import confusable_prototype

    proto = confusable_prototype(ch)
    if not proto or proto == ch or proto == unicodedata.normalize("NFD", ch):
        return None
    return proto


def glyph(ch: str) -> str:
    """A character as it can be shown alone: "" for an invisible one, a
    combining mark on a dotted circle."""
    if is_invisible(ch):
        return ""
    if unicodedata.combining(ch):
        return "\u25cc" + ch
    return ch


def is_bidi(s: str) -> bool:
    """Whether the display order of ``s`` can differ from its logical
    order: a right-to-left character (bidi class R, AL or AN) or an explicit
    bidi control."""
    for ch in s:
        if not ch.isascii():
            b = unicodedata.bidirectional(ch)
            if b in BIDI_RTL or b in BIDI_CONTROLS:
                return True
    return False


def visual_order(s: str) -> str:
    """``s`` in the order a reader sees it, left to right, when it stands in
    a left-to-right context (UAX #9 via python-bidi, base direction L).
    The result still holds any bidi control of ``s``: show it through
    :func:`visible_text`."""
    from bidi import get_display

    return get_display(s, base_dir="L")


def read_back(shown: str) -> str:
    """The text :func:`visible_text` was given, from what it showed: each
    ``<U+XXXX>`` back to its character.  Exact for any text that does not
    itself hold ``<U+``."""
    return _SHOWN_RE.sub(lambda m: chr(int(m.group(1), 16)), shown)


def visible_inline(s: str) -> str:
    """``s`` with each invisible character (the same ones as
    :func:`visible_text`) written as ``⟨U+XXXX⟩``, for text shown inside the
    document: inlay hints and link tooltips."""
    return "".join("\u27e8U+%04X\u27e9" % ord(ch) if is_invisible(ch) else ch for ch in s)


@dataclass
class CharInfo:
    """One distinct character of an IRI that a reader should look at: not
    ASCII, or invisible."""

    char: str
    label: str  # "U+0430 CYRILLIC SMALL LETTER A"
    scripts: str
    bidi_class: str
    invisible: bool
    looks_like: Optional[str]
    #: how the document writes it: "literal", or the escape ("%D0%B0") or
    #: the ``xn--`` label it is hidden in (filled by who decoded it)
    written_as: List[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The character's name alone: ``CYRILLIC SMALL LETTER A``."""
        return self.label.split(" ", 1)[1]


def char_info(ch: str) -> CharInfo:
    return CharInfo(ch, char_label(ch), scripts_of(ch), bidi_class(ch), is_invisible(ch), looks_like(ch))


def worth_showing(ch: str) -> bool:
    """Whether a character gets a row in a table of characters: not ASCII,
    or invisible."""
    return not ch.isascii() or is_invisible(ch)
