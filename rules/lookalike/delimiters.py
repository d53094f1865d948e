"""IRI201 delimiter-lookalike and IRI202 fullwidth-form: characters that
look like an IRI's delimiters (``/``, ``.``, ``?``, ``#``, ``@``, ...) and
the fullwidth forms of ASCII, which a reader takes for the ASCII they imitate.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Dict, Optional, Tuple

from irilint.chars import positions_of
from irilint.convert import percent_encode
from irilint.iri import IDNA_DOTS
from irilint.unicode_security import LATIN, describe, general_category, skeleton

from ..context import LITERAL
from ..registry import rule
from .common import (
    _HEX,
    _VIEW_TRAITS,
    _component_at,
    _in_host,
    _list_chars,
    _replacement,
    _scripts_of,
    _show,
    _where,
)


# ---------------------------------------------------------------------------
# IRI201 delimiter-lookalike
# ---------------------------------------------------------------------------

#: The ASCII delimiters a look-alike may imitate, with names for messages.
#: ``,`` and ``;`` are sub-delimiters: ``;`` separates query parameters and
#: path parameters, ``,`` lists values.
DELIMITERS: Dict[str, str] = {
    "/": "slash", "?": "question mark", "#": "number sign", ":": "colon",
    "@": "commercial at", ".": "full stop", "=": "equals sign",
    "&": "ampersand", "%": "percent sign", ";": "semicolon", ",": "comma",
}

#: Look-alikes that the confusable and NFKC data do not give: U+2052
#: COMMERCIAL MINUS SIGN, U+066A ARABIC PERCENT SIGN, and the quotation
#: marks drawn as commas on the baseline (U+201E looks like ``,,``; U+2E41
#: REVERSED COMMA).
_EXTRA_LOOKALIKES = {0x2052: ("%", "%"), 0x066A: ("%", "%"), 0x201E: (",,", ","), 0x2E41: (",", ",")}

#: Ellipses: ordinary punctuation in titles, and "..." means nothing in a URI.
_NOT_LOOKALIKES = frozenset((0x2026, 0xFE19))

#: Canonical_Combining_Class 1: marks drawn through the character before them.
_OVERLAY_CLASS = 1


def _overlay_slash(ch: str) -> bool:
    """A combining overlay that draws a slash through the character before
    it: U+0337, U+0338, U+20EB (solidus overlays) and U+20E5 (a reverse
    solidus, which browsers read as '/' in http and https URLs)."""
    return unicodedata.combining(ch) == _OVERLAY_CLASS and "SOLIDUS" in unicodedata.name(ch, "")


@lru_cache(maxsize=4096)
def delimiter_imitated(ch: str) -> Optional[Tuple[str, str]]:
    """``(looks_like, delimiter)`` when the non-ASCII ``ch`` looks like (or
    NFKC/IDNA turn it into) text holding one of :data:`DELIMITERS`.

    The set is derived from the data: a character qualifies when its UTS #39
    skeleton, its NFKC form or the skeleton of its NFKC form is ASCII and
    holds a delimiter -- U+2215 DIVISION SLASH ('/'), U+FF1A FULLWIDTH
    COLON (':'), U+2488 DIGIT ONE FULL STOP ('1.'), U+2105 CARE OF ('c/o'),
    U+037E GREEK QUESTION MARK (';'), U+201A SINGLE LOW-9 QUOTATION MARK
    (',') -- or when its NFKC form is an IDNA full stop (U+FE12), or it is a
    combining overlay that draws a slash (U+0338), plus
    :data:`_EXTRA_LOOKALIKES`; the ellipses are left out.
    Context (own-script neighbours, hosts) is judged by the rule.
    """
    if ch.isascii():
        return None
    cp = ord(ch)
    extra = _EXTRA_LOOKALIKES.get(cp)
    if extra is not None:
        return extra
    if cp in _NOT_LOOKALIKES:
        return None
    if _overlay_slash(ch):
        return "/", "/"
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc in IDNA_DOTS:
        return ".", "."
    for form in (nfkc, skeleton(ch), skeleton(nfkc) if nfkc != ch else ""):
        if form and form.isascii() and form.isprintable():
            for c in form:
                if c in DELIMITERS:
                    return form, c
    return None


def _native_neighbour(text: str, i: int) -> bool:
    """True when ``text[i]`` belongs to specific non-Latin scripts and the
    nearest letter before or after it (skipping marks) shares one: ノ in
    ノート, ः in दुःख, ٠ in ٢٠١٠ are letters of their own text there."""
    own = _scripts_of(text[i])
    if not own or LATIN in own:
        return False
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(text):
            c = text[k]
            if general_category(c).startswith("M"):
                k += step
                continue
            if not _scripts_of(c).isdisjoint(own):
                return True
            break
    return False


_CJK = frozenset(("Hani", "Hira", "Kana", "Hang", "Bopo"))


def _is_fullwidth_punctuation(c: str) -> bool:
    cp = ord(c)
    return 0xFF01 <= cp <= 0xFF5E and not chr(cp - 0xFEE0).isalnum()


@lru_cache(maxsize=256)
def _is_ideographic_stop(c: str) -> bool:
    """U+3002 IDEOGRAPHIC FULL STOP and the characters NFKC makes one of
    (U+FE12 for vertical text, U+FF61 half-width): the full stop of
    Chinese and Japanese text, and an IDNA label separator."""
    return not c.isascii() and unicodedata.normalize("NFKC", c) == "\u3002"


def _is_cjk_punctuation_char(c: str) -> bool:
    return _is_fullwidth_punctuation(c) or _is_ideographic_stop(c)


def _passed_over(c: str) -> bool:
    """What :func:`_cjk_neighbours` looks past: CJK punctuation and marks."""
    return _is_cjk_punctuation_char(c) or general_category(c).startswith("M")


#: (text, start, end) of the run of _passed_over characters found last: a
#: run of them (a line of full-width punctuation) is walked once, not once
#: per character of it (which took minutes for 10,000 of them)
_last_run: Tuple[str, int, int] = ("", 0, 0)


def _cjk_neighbours(text: str, i: int) -> Tuple[Optional[str], Optional[str]]:
    """The nearest characters before and after ``text[i]`` (a CJK
    punctuation character), looking past marks and other CJK
    punctuation; None at either end."""
    global _last_run
    run_text, a, b = _last_run
    if not (run_text is text and a <= i < b):
        a = i
        while a > 0 and _passed_over(text[a - 1]):
            a -= 1
        b = i + 1
        n = len(text)
        while b < n and _passed_over(text[b]):
            b += 1
        _last_run = (text, a, b)  # one assignment: safe across threads
    return (text[a - 1] if a > 0 else None), (text[b] if b < len(text) else None)


def _cjk_punctuation(text: str, i: int) -> bool:
    """Full-width ASCII punctuation or an ideographic full stop used as CJK
    punctuation: next to Han, kana, Hangul or Bopomofo on one side, and on
    the other side the same or anything but an ASCII letter or digit
    (你好，世界, なぜ？, （中文）, 日本語の文。).  ``パス？q=1`` and
    ``ファイル。pdf`` are not: the punctuation leads into ASCII text.  An
    ideographic full stop may follow a Latin word (これはPython。次は)."""
    if not _is_cjk_punctuation_char(text[i]):
        return False
    left, right = _cjk_neighbours(text, i)
    lc = left is not None and not _scripts_of(left).isdisjoint(_CJK)
    rc = right is not None and not _scripts_of(right).isdisjoint(_CJK)
    if _is_ideographic_stop(text[i]):
        # A full stop ends what comes before it, whatever its script
        # (これはPython。次は); it stands for a dot when ASCII follows.
        return (lc or rc) and not (right is not None and right.isascii() and right.isalnum())
    if lc and rc:
        return True
    if lc:
        return right is None or not (right.isascii() and right.isalnum())
    if rc:
        return left is None or not (left.isascii() and left.isalnum())
    return False


def _delimiter_at(ctx, text: str, i: int) -> Optional[Tuple[str, str]]:
    """What view character ``i`` imitates, in its context (``text`` is the
    view's text).  Full-width and half-width forms are judged here too, but
    reported by fullwidth-form (see :func:`_delimiter_finding_at`)."""
    ch = text[i]
    if ch < "\x80":
        return None
    imit = delimiter_imitated(ch)
    if imit is None:
        return None
    if ch in IDNA_DOTS and _in_host(ctx, i):
        return None  # a label separator there: IDNA maps it to "."
    if ord(ch) == 0x066A:  # ARABIC PERCENT SIGN: only as a fake escape
        return imit if text[i + 1:i + 2] in _HEX and text[i + 2:i + 3] in _HEX else None
    if _cjk_punctuation(text, i):
        return None
    if not _is_ideographic_stop(ch) and _native_neighbour(text, i):
        # (an ideographic full stop is judged by its CJK context alone: in
        # ファイル。pdf it stands for the dot of a file name)
        return None
    return imit


def _delimiter_finding_at(ctx, text: str, i: int) -> Optional[Tuple[str, str]]:
    """What view character ``i`` imitates, if delimiter-lookalike reports
    it: one finding per character, and a full-width or half-width form is
    reported as such by fullwidth-form, which names the delimiter it
    imitates (a full-width solidus is a full-width form first)."""
    if is_fullwidth_form(ord(text[i])):
        return None
    return _delimiter_at(ctx, text, i)


def _imitates_delimiter(c: str) -> bool:
    return delimiter_imitated(c) is not None


@rule(name="delimiter-lookalike", code="IRI201", family="lookalike", severity="error",
      fix="unsafe", needs=_VIEW_TRAITS, gate=_imitates_delimiter, specificity=40)
def delimiter_lookalike(ctx):
    """A character that looks like a delimiter (``/ ? # : @ . = & % ; ,``) but is not one.

    ## What it does
    Flags characters such as U+2215 DIVISION SLASH, U+2044 FRACTION SLASH,
    U+2024 ONE DOT LEADER, U+0589 ARMENIAN FULL STOP, U+FE6B SMALL
    COMMERCIAL AT, U+037E GREEK QUESTION MARK (``;``) or U+201A SINGLE
    LOW-9 QUOTATION MARK (``,``), literal, percent-encoded or inside an
    ``xn--`` label.

    The set is derived from the data, not listed by hand: every non-ASCII
    character whose UTS #39 skeleton, NFKC form, or skeleton of its NFKC
    form is ASCII text holding one of the eleven delimiters.  That includes
    characters NFKC expands, such as U+2488 DIGIT ONE FULL STOP (``1.``)
    and U+2105 CARE OF (``c/o``).  Also derived: the ideographic full stops
    (U+3002 and what NFKC makes one of: U+FE12, U+FF61), which imitate
    ``.``, and the combining overlays that draw a slash through the
    character before them (canonical combining class 1 with SOLIDUS in the
    name: U+0337, U+0338, U+20EB, and U+20E5 REVERSE SOLIDUS OVERLAY, a
    backslash, which browsers read as ``/``).  Added by hand: U+2052
    COMMERCIAL MINUS SIGN, U+201E DOUBLE LOW-9 QUOTATION MARK (``,,``),
    U+2E41 REVERSED COMMA, and U+066A ARABIC PERCENT SIGN when two hex
    digits follow it (a fake escape).  The ellipses U+2026 and U+FE19 are
    left out.

    Not flagged:

    * U+3002, U+FF0E and U+FF61 inside a host: IDNA maps them to ``.``, so
      there they are real label separators.  (U+2024 ONE DOT LEADER is not
      one, and is flagged in a host.)
    * A letter, digit, mark or punctuation of a specific non-Latin script
      next to a letter of the same script: KATAKANA LETTER NO in ノート,
      DEVANAGARI SIGN VISARGA in दुःख, ARABIC-INDIC DIGIT ZERO in ٢٠١٠,
      ARABIC DECIMAL SEPARATOR in ٣٫١٤.  Next to Latin letters or
      delimiters they are flagged.  Latin and Common characters (U+0294
      LATIN LETTER GLOTTAL STOP, U+A789 MODIFIER LETTER COLON) are always
      flagged.
    * The ideographic full stop used as CJK punctuation: next to Han, kana,
      Hangul or Bopomofo, and not leading into ASCII letters or digits
      (``日本語の文。``).  ``ファイル。pdf`` is flagged: there it stands for
      the dot of a file name.

    Consecutive look-alikes are reported together.  One finding per
    character: full-width and half-width forms of delimiters (``／``,
    ``：``, ``｡``) are reported by ``fullwidth-form``, which names the
    delimiter they imitate, not here.

    ## Why
    Delimiters decide what a reader believes the IRI is.
    ``http://example.com∕login.evil.net`` looks like a path on example.com
    but is a host under evil.net; ``http://bank.com:login@evil`` with a
    fake colon puts everything before ``@`` into the userinfo.

    ## Example
    ``http://example.com∕account`` holds U+2215 DIVISION SLASH: the host is
    ``example.com∕account``.  Write ``http://example.com/account``.

    ## Fix safety
    Unsafe only.  Percent-encoding the character keeps the same URI and
    makes the trick visible; replacing it with the ASCII delimiter changes
    the IRI's structure.  Neither is offered inside a host or for characters
    that are already encoded, nor where the result would have a finding the
    reference does not have (a ``/`` put in can make a ``.`` segment).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s7.5 (visually similar characters) and s3.1 (IDNA label
    separators); UTS #39 s4 (confusables); RFC 3986 s2.2.
    """
    view = ctx.view
    text = view.text
    if text.isascii():
        return
    n = len(text)
    i = 0
    # Only characters that imitate a delimiter can start a run: each
    # distinct character is judged once, then found with one regex.
    lookalikes = frozenset(c for c in view.non_ascii_chars if delimiter_imitated(c) is not None)
    for start in positions_of(text, lookalikes):
        if start < i:
            continue  # already part of a reported run
        i = start
        imit = _delimiter_finding_at(ctx, text, i)
        if imit is None:
            continue
        run = [(i, imit)]
        j = i + 1
        while j < n:
            nxt = _delimiter_finding_at(ctx, text, j)
            if nxt is None:
                break
            run.append((j, nxt))
            j += 1
        parts = []
        for k, (look, delim) in run:
            if _overlay_slash(text[k]):
                parts.append("%s, drawn through %s, looks like the delimiter '%s' (%s)%s"
                             % (describe(text[k]), _show(text[k - 1]) if k else "nothing", delim,
                                DELIMITERS[delim], ctx.origin_note(k)))
            elif look == delim:
                parts.append("%s looks like the delimiter '%s' (%s)%s"
                             % (describe(text[k]), delim, DELIMITERS[delim], ctx.origin_note(k)))
            else:
                parts.append("%s looks like '%s', which holds the delimiter '%s' (%s)%s"
                             % (describe(text[k]), look, delim, DELIMITERS[delim], ctx.origin_note(k)))
        message = "%s in %s, but %s" % (
            "; ".join(parts), _where(ctx, i), "it is not one" if len(run) == 1 else "none of them is a delimiter")
        fixes = []
        if not _in_host(ctx, i) and all(view.origins[k] == LITERAL for k in range(i, j)):
            s, e = view.value_span(i, j)
            enc = percent_encode(text[i:j])
            ascii_text = "".join(look for _, (look, _d) in run)
            for title, new_text in (("Percent-encode as %s to show it (unsafe)" % enc, enc),
                                    ("Replace with '%s' (unsafe: changes the IRI's structure)" % ascii_text,
                                     ascii_text)):
                # Not offered where the result has a finding more (a
                # delimiter put in can make a "." segment, or split off a
                # segment that percent-encoded-text then reports).
                if ctx.edit_adds_finding([(s, e, new_text)]) is None:
                    fixes.append(ctx.replace(title, s, e, new_text, False))
        yield ctx.report_view(i, j, message, fixes)
        i = j


# ---------------------------------------------------------------------------
# IRI202 fullwidth-form
# ---------------------------------------------------------------------------

def is_fullwidth_form(cp: int) -> bool:
    """Full-width ASCII (U+FF01-U+FF5E) and half-width forms (U+FF61-U+FFDC,
    U+FFE8-U+FFEE), the ranges RFC 3987 s6.1 names."""
    return 0xFF01 <= cp <= 0xFF5E or 0xFF61 <= cp <= 0xFFDC or 0xFFE8 <= cp <= 0xFFEE


_FULLWIDTH_RE = re.compile("[\uff01-\uff5e\uff61-\uffdc\uffe8-\uffee]")


def _fullwidth_reported(ctx, text: str, i: int) -> bool:
    c = text[i]
    if not is_fullwidth_form(ord(c)):
        return False
    # Only full-width punctuation is the ordinary form in CJK text; a
    # half-width form (U+FF61 among them) is reported wherever it stands.
    return not (_is_fullwidth_punctuation(c) and _cjk_punctuation(text, i))


def _is_fullwidth_char(c: str) -> bool:
    return is_fullwidth_form(ord(c))


@rule(name="fullwidth-form", code="IRI202", family="lookalike", severity="warning",
      fix="unsafe", needs=_VIEW_TRAITS, gate=_is_fullwidth_char, specificity=40)
def fullwidth_form(ctx):
    """A full-width or half-width form of a character.

    ## What it does
    Flags full-width ASCII (U+FF01-U+FF5E, such as ``ｅｘａｍｐｌｅ``) and
    half-width forms (U+FF61-U+FFDC, U+FFE8-U+FFEE, such as half-width
    katakana ``ﾃｽﾄ``), literal or percent-encoded.  A run of them is one
    finding.  Full-width and half-width delimiters (``／``, ``：``,
    ``＃``, ``｡``...) are reported here, not by ``delimiter-lookalike``:
    one finding per character, and the message names the delimiter each
    imitates (with a percent-encoding fix, as ``delimiter-lookalike``
    offers).  In a host this includes
    U+FF0E FULLWIDTH FULL STOP and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP,
    which IDNA turns into label separators.

    Not flagged: full-width punctuation used as CJK punctuation, next to
    Han, kana, Hangul or Bopomofo and not leading into ASCII letters or
    digits (the comma in ``你好，世界``, the ``？`` in ``なぜ？``): in CJK
    text these are the ordinary forms, and the ASCII ones would be the
    surprise.  Full-width letters and digits are always flagged, and so are
    half-width forms.

    ## Why
    RFC 3987 s6.1 says not to use them.  In a host, IDNA maps them to their
    ordinary forms, so ``ｅｘａｍｐｌｅ.com`` is example.com although the
    text differs (and tools that compare text disagree).  Anywhere else
    nothing maps them: ``/ｌｏｇｉｎ`` is a different URI from ``/login``
    that looks almost the same.

    ## Example
    ``http://example.com/ｌｏｇｉｎ`` becomes ``http://example.com/login``.

    ## Fix safety
    Unsafe: replacing with the NFKC form changes the URI outside the host,
    and the author may have meant the wide form.  No fix inside an A-label,
    nor where the result would have a finding the reference does not have.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s6.1; UTS #46 (IDNA mapping); UAX #15 (NFKC).
    """
    view = ctx.view
    text = view.text
    if text.isascii():
        return
    n = len(text)
    i = 0
    for m in _FULLWIDTH_RE.finditer(text):
        if m.start() < i:
            continue  # already part of a reported run
        i = m.start()
        if not _fullwidth_reported(ctx, text, i):
            continue
        host = _in_host(ctx, i)
        j = i + 1
        while j < n and _fullwidth_reported(ctx, text, j) and _in_host(ctx, j) == host:
            j += 1
        run = text[i:j]
        mapped = unicodedata.normalize("NFKC", run)
        comp = _component_at(ctx, i)
        where = _where(ctx, i) if comp is not None and comp.view_end >= j else "the %s" % (
            "host" if host else ctx.view_ref.component_at(i))
        full = sum(0xFF01 <= ord(c) <= 0xFF5E for c in run)
        kind = "full-width" if full == len(run) else "half-width" if not full else "full-width and half-width"
        what = "%s (%s)" % ("a %s form" % kind if len(run) == 1 else "written in %s forms" % kind,
                            _list_chars(run))
        if host and any(c in DELIMITERS and c != "." for c in mapped):
            # UTS #46 maps a full-width '/' or ':' to the ASCII delimiter,
            # which no host name may hold: the name is not the one it shows.
            tail = "IDNA maps %s to '%s', which a host name cannot hold: a parser that maps first sees " \
                "a different IRI" % ("it" if len(run) == 1 else "them", mapped)
        elif host:
            tail = "IDNA maps %s to '%s', so the host is the same, but the IRI's text is not what it seems" % (
                "it" if len(run) == 1 else "them", mapped)
        else:
            tail = "nothing maps %s: this is a different URI from one with '%s'" % (
                "it" if len(run) == 1 else "them", mapped)
        imitated = [(text[k], _delimiter_at(ctx, text, k)) for k in range(i, j)]
        imitated = [(c, imit[1]) for c, imit in imitated if imit is not None]
        if imitated:
            delims = []
            for _c, d in imitated:
                if d not in delims:
                    delims.append(d)
            tail += "; %s like the delimiter%s %s, but %s" % (
                "it looks" if len(run) == 1 else "%s look" % _list_chars(c for c, _ in imitated),
                "s" if len(delims) > 1 else "", ", ".join("'%s' (%s)" % (d, DELIMITERS[d]) for d in delims),
                "it is not one" if len(imitated) == 1 else "they are not")
        message = "%s in %s is %s%s; %s" % (_show(run), where, what, ctx.origin_note(i), tail)
        fixes = []
        s, e = view.value_span(i, j)
        if view.origins[i:j] == [LITERAL] * (j - i):
            if imitated and not host:
                enc = percent_encode(run)
                if ctx.edit_adds_finding([(s, e, enc)]) is None:
                    fixes.append(ctx.replace("Percent-encode as %s to show it (unsafe)" % enc, s, e, enc, False))
            title, new = "Replace with NFKC '%s' (unsafe%s)" % (
                mapped, ": changes the IRI's structure" if imitated else ""), mapped
        else:
            new = _replacement(ctx, i, j, [unicodedata.normalize("NFKC", c) for c in run])
            title = "Replace with NFKC %s (unsafe)" % new
        # Not offered where the result has a finding more ("%e2%80%ae%EF%BD%81%e2%80%ae"
        # -> "%e2%80%aea%e2%80%ae": two lowercase runs where there was one).
        if new is not None and ctx.edit_adds_finding([(s, e, new)]) is None:
            fixes.append(ctx.replace(title, s, e, new, False))
        yield ctx.report_view(i, j, message, fixes)
        i = j
