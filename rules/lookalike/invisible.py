"""IRI206 invisible-character: default-ignorable and other invisible
characters, except where a script or an emoji sequence needs them (a joiner
after a virama, emoji ZWJ and tag sequences, Mongolian variation selectors).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import FrozenSet, Optional

from irilint.chars import is_bidi_control, positions_of
from irilint.convert import DNS_SCHEMES
from irilint.unicode_security import (
    general_category,
    describe,
    is_default_ignorable,
    is_extended_pictographic,
    joining_type,
    script_extensions,
)

from ..context import PUNYCODE, is_uts46_ignored, strip_uts46_ignored, uts46_ignored_positions
from ..registry import rule
from .common import _VIEW_TRAITS, _in_host, _removal_fix, _show, _where


# ---------------------------------------------------------------------------
# IRI206 invisible-character
# ---------------------------------------------------------------------------

_ZWNJ, _ZWJ = "\u200c", "\u200d"
_KEYCAP_BASES = frozenset("0123456789#*")
_BLACK_FLAG = "\U0001F3F4"
_CANCEL_TAG = "\U000E007F"


def _is_han(c: str) -> bool:
    if "Hani" not in script_extensions(c):
        return False
    return general_category(c) in ("Lo", "Nl", "Cn")


def _is_emoji_modifier(c: str) -> bool:
    return 0x1F3FB <= ord(c) <= 0x1F3FF


def _virama_before(text: str, i: int) -> bool:
    return i > 0 and unicodedata.combining(text[i - 1]) == 9


def _zwnj_joins(text: str, i: int) -> bool:
    """RFC 5892 A.1: (L|D) T* ZWNJ T* (R|D)."""
    k = i - 1
    while k >= 0 and joining_type(text[k]) == "T":
        k -= 1
    if k < 0 or joining_type(text[k]) not in ("L", "D"):
        return False
    k = i + 1
    while k < len(text) and joining_type(text[k]) == "T":
        k += 1
    return k < len(text) and joining_type(text[k]) in ("R", "D")


def _in_emoji_zwj_sequence(text: str, i: int) -> bool:
    k = i - 1
    while k >= 0 and (text[k] in "\ufe0f\ufe0e" or _is_emoji_modifier(text[k])):
        k -= 1
    return k >= 0 and is_extended_pictographic(text[k]) and i + 1 < len(text) \
        and is_extended_pictographic(text[i + 1])


def _emoji_tag_positions(text: str) -> FrozenSet[int]:
    """Offsets of tag characters in valid emoji tag sequences: U+1F3F4 WAVING
    BLACK FLAG, one or more tags U+E0020-U+E007E, U+E007F CANCEL TAG."""
    ok = set()
    start = text.find(_BLACK_FLAG)
    while start >= 0:
        k = start + 1
        while k < len(text) and 0xE0020 <= ord(text[k]) <= 0xE007E:
            k += 1
        if k > start + 1 and k < len(text) and text[k] == _CANCEL_TAG:
            ok.update(range(start + 1, k + 1))
        start = text.find(_BLACK_FLAG, start + 1)
    return frozenset(ok)


def _is_mongolian(c: str) -> bool:
    return "Mong" in script_extensions(c) and general_category(c)[0] == "L"


@lru_cache(maxsize=4096)
def _may_be_invisible(c: str) -> bool:
    """Can invisible_problem report ``c`` in some context?  (Its first tests.)"""
    cp = ord(c)
    if cp < 0xAD or is_bidi_control(cp):
        return False
    return cp == 0x2800 or is_default_ignorable(c)


def invisible_problem(text: str, i: int, tag_ok: FrozenSet[int] = frozenset()) -> Optional[str]:
    """Why ``text[i]`` is an invisible character out of place, or None.

    Bidi controls are not reported here (the bidi family does that)."""
    c = text[i]
    cp = ord(c)
    if cp < 0xAD or is_bidi_control(cp):
        return None
    if cp == 0x2800:
        return "renders as blank space"
    if not is_default_ignorable(c):
        return None
    prev = text[i - 1] if i > 0 else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if c == _ZWNJ:
        if _virama_before(text, i) or _zwnj_joins(text, i):
            return None
        return ("is invisible and has no effect here: RFC 5892 Appendix A.1 allows it only after "
                "a virama or between a joining letter and a right-joining one")
    if c == _ZWJ:
        if _virama_before(text, i) or _in_emoji_zwj_sequence(text, i):
            return None
        return ("is invisible and has no effect here: RFC 5892 Appendix A.2 allows it only after "
                "a virama (and emoji use it only between two emoji)")
    if 0xFE00 <= cp <= 0xFE0F:
        if prev and (_is_han(prev) or (cp in (0xFE0E, 0xFE0F) and is_extended_pictographic(prev))
                     or (cp == 0xFE0F and prev in _KEYCAP_BASES and nxt == "\u20e3")):
            return None
        return "is invisible: it follows %s, which it does not select a variant of" % (
            describe(prev) if prev else "nothing")
    if 0xE0100 <= cp <= 0xE01EF:
        if prev and _is_han(prev):
            return None
        return "is invisible: ideographic variation selectors belong after a Han ideograph, not after %s" % (
            describe(prev) if prev else "nothing")
    if 0xE0000 <= cp <= 0xE007F:
        if i in tag_ok:
            return None
        return "is an invisible tag character outside an emoji tag sequence"
    if 0x180B <= cp <= 0x180F:
        if cp == 0x180E:
            if prev and nxt and _is_mongolian(prev) and _is_mongolian(nxt):
                return None
        elif prev and (_is_mongolian(prev) or 0x180B <= ord(prev) <= 0x180F):
            return None
        return "is invisible outside Mongolian text"
    return "is invisible (Default_Ignorable_Code_Point)"


_IGNORED_IN_HOST = ("is invisible, and UTS #46 maps it to nothing: IDNA removes it, so the host is "
                    "the name without it, while the text shows another")


def _dns_reg_name(ctx) -> bool:
    """Does the reference's reg-name host go through IDNA (a DNS scheme or
    a ``//host`` reference)?"""
    ref = ctx.ref
    if ref.host is None or ref.host_kind != "reg-name":
        return False
    scheme = ref.scheme_lower
    return scheme is None or scheme in DNS_SCHEMES


def _ignored_in_alabels(ctx):
    """Characters UTS #46 maps to nothing, written inside an A-label
    (``xn--80ak6aa<U+00AD>92e``): the view shows the U-label without them,
    so they are reported here, on the value."""
    value = ctx.value
    view = ctx.view
    for lab in ctx.ref.host_labels:
        label = value[lab.start:lab.end]
        if label.isascii():
            continue
        positions = uts46_ignored_positions(label)
        if not positions or strip_uts46_ignored(label)[:4].lower() != "xn--":
            continue
        if view.origins[view.index_of(lab.start)] != PUNYCODE:
            continue  # not decoded: the view holds the characters, reported there
        stripped = strip_uts46_ignored(label)
        for k in positions:
            c = label[k]
            message = "%s in the A-label %s %s; the label is %s" % (
                describe(c), _show(label), _IGNORED_IN_HOST, stripped)
            fix = ctx.replace("Remove %s (unsafe)" % describe(c), lab.start + k, lab.start + k + 1, "", False)
            yield ctx.report(lab.start + k, lab.start + k + 1, message, [fix])


@rule(name="invisible-character", code="IRI206", family="lookalike", severity="error",
      fix="unsafe", needs=_VIEW_TRAITS, gate=_may_be_invisible, specificity=40)
def invisible_character(ctx):
    """An invisible character where it does nothing visible.

    ## What it does
    Flags default-ignorable and blank characters, literal, percent-encoded
    or inside an ``xn--`` label: U+200B ZERO WIDTH SPACE, U+2060-U+2064
    (word joiner, invisible operators), U+00AD SOFT HYPHEN, U+FEFF, U+034F
    COMBINING GRAPHEME JOINER, U+180E MONGOLIAN VOWEL SEPARATOR, the Hangul
    fillers (U+115F, U+1160, U+3164, U+FFA0), U+17B4/U+17B5, U+2800
    BRAILLE PATTERN BLANK, plane-14 tags, and the following ones out of
    their valid contexts:

    * U+200C ZERO WIDTH NON-JOINER: allowed after a virama, or between a
      left- or dual-joining and a right- or dual-joining character with
      only transparent ones in between (RFC 5892 Appendix A.1, the IDNA
      CONTEXTJ rule), so Persian ``می‌خواهم`` is fine.
    * U+200D ZERO WIDTH JOINER: allowed after a virama (RFC 5892 Appendix
      A.2; Sinhala ``ශ්‍රී``), and between two emoji (Extended_Pictographic,
      with VS16 or skin-tone modifiers in between) as in ``👨‍👩‍👧``.
    * Variation selectors U+FE00-U+FE0F: allowed after a Han ideograph,
      VS15/VS16 after an emoji (Extended_Pictographic, as in ``❤️``), and
      VS16 in a keycap sequence (``1️⃣``).  U+E0100-U+E01EF only after a Han
      ideograph.  Other standardized variation sequences (mathematical
      symbols, Myanmar) are rare in IRIs and are reported.
    * Tags U+E0020-U+E007F: allowed in an emoji tag sequence (U+1F3F4,
      tags, U+E007F CANCEL TAG: subdivision flags).
    * Mongolian free variation selectors U+180B-U+180D, U+180F after a
      Mongolian letter, U+180E between two.

    In the host of a DNS scheme (or a ``//host`` reference), every
    character the UTS #46 mapping table marks "ignored" is reported
    whatever its context, since IDNA deletes it from the name: the set is
    read from the table the ``idna`` package ships (U+00AD, U+034F,
    U+180B-U+180F, U+200B, U+2060-U+2064, variation selectors U+FE00-U+FE0F
    and U+E0100-U+E01EF, U+FEFF...).  That includes one written inside an
    ``xn--`` label (``xn--80ak6aa<U+00AD>92e``): the host rules then judge
    the label as the A-label it becomes, and the look-alike rules its
    decoded form.  A label made only of such characters is reported by
    ``dns-label-syntax`` as well.

    Bidi controls are reported by the bidi family, not here.

    ## Why
    Two IRIs that differ by an invisible character look identical but are
    different URIs; ``pay\\u200bpal.com`` is not paypal.com.  RFC 3987 s3.2
    keeps such characters percent-encoded for that reason.

    ## Example
    ``http://example.com/log\\u200bin`` should be
    ``http://example.com/login``.

    ## Fix safety
    Unsafe: removing the character (or its escape, or re-encoding the
    A-label without it) changes the URI, and a link may depend on it.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s3.2, s6.1; RFC 5892 Appendix A.1/A.2; UTS #39 s3.1; UTS #51
    (emoji sequences); Unicode StandardizedVariants.txt and the IVD.
    """
    view = ctx.view
    text = view.text
    dns = _dns_reg_name(ctx)
    if dns and not ctx.value.isascii():
        yield from _ignored_in_alabels(ctx)
    if text.isascii():
        return
    tag_ok = _emoji_tag_positions(text) if _BLACK_FLAG in text else frozenset()
    # invisible_problem finds nothing in the other characters, wherever
    # they stand: each distinct character is judged once.
    candidates = frozenset(c for c in view.non_ascii_chars if _may_be_invisible(c))
    for i in positions_of(text, candidates):
        c = text[i]
        if dns and is_uts46_ignored(c) and _in_host(ctx, i):
            # IDNA deletes it whatever its neighbours: in a host name even a
            # variation selector after a Han ideograph selects nothing.
            why = _IGNORED_IN_HOST
        else:
            why = invisible_problem(text, i, tag_ok)
        if why is None:
            continue
        message = "%s in %s %s%s" % (describe(c), _where(ctx, i), why, ctx.origin_note(i))
        fix = _removal_fix(ctx, i, "Remove %s" % describe(c))
        yield ctx.report_view(i, i + 1, message, [fix] if fix is not None else [])
