"""Look-alike rules: confusables, scripts and invisibles (UTS #39, RFC 3987 s7.5).

Every rule here reads the decoded view (``ctx.view``), so a spoof hidden in
``%D0%B0`` or in an ``xn--`` label is found like a literal one, and points at
the escape or the A-label that hides it.  None of their fixes is safe: a
look-alike may be what the author meant, and only a person can tell.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from irilint.chars import is_bidi_control, positions_of
from irilint.convert import DNS_SCHEMES, idna_to_unicode, percent_encode
from irilint.findings import Related
from irilint.idn_display import (
    TLD_SCRIPTS,  # noqa: F401  (re-exported: the table moved to irilint.idn_display)
    host_label_mixing,
    imitation,
    is_digit_label,
    latin_lookalike_script,
    map_label,
    policy_skeletons,
    scx_names,
    tld_allows_script,
)
from irilint.iri import IDNA_DOTS, LABEL_SPLIT_RE
from irilint.unicode_security import (
    COMMON,
    INHERITED,
    LATIN,
    describe,
    is_default_ignorable,
    is_extended_pictographic,
    joining_type,
    RestrictionLevel,
    mixed_script,
    quoted,
    resolved_script_set,
    restriction_level,
    script_code,
    script_extensions,
    script_name,
    scripts_in,
    skeleton,
    whole_script_confusable,
)

from . import gates
from .context import (
    LITERAL,
    PERCENT,
    PUNYCODE,
    Component,
    is_uts46_ignored,
    strip_uts46_ignored,
    uts46_ignored_positions,
)
from .fastpath import FAST_HOST_GROUP
from .collisions import HostsOfRule, collision_steps
from .registry import rule

_VIEW_TRAITS = ("non_ascii", "percent", "punycode")
_NON_ASCII_RE = re.compile("[^\x00-\x7f]")
_MARKERS = frozenset((COMMON, INHERITED))
_HEX = frozenset("0123456789ABCDEFabcdef")
_MAX_LISTED = 8


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------

def _show(text: str, limit: int = 60) -> str:
    """Text for a message: invisible, bidi and control characters shown as
    ``<U+XXXX>`` so the message itself cannot be spoofed."""
    return quoted(text, limit)


def _list_chars(chars: Iterable[str]) -> str:
    """``U+XXXX NAME`` of each distinct character, in order of appearance."""
    seen: List[str] = []
    for c in chars:
        if c not in seen:
            seen.append(c)
    shown = ", ".join(describe(c) for c in seen[:_MAX_LISTED])
    if len(seen) > _MAX_LISTED:
        shown += " and %d more" % (len(seen) - _MAX_LISTED)
    return shown


def _component_at(ctx, i: int) -> Optional[Component]:
    return ctx.component_at(i)


def _where(ctx, i: int) -> str:
    """'the path segment 'abc'' for view offset ``i``."""
    comp = _component_at(ctx, i)
    if comp is not None:
        return "the %s %s" % (comp.label, _show(comp.text))
    return "the %s" % ctx.view_ref.component_at(i)


def _in_host(ctx, i: int) -> bool:
    vref = ctx.view_ref
    h = vref.host
    return h is not None and vref.host_kind == "reg-name" and h.start <= i < h.end


def _scripts_of(c: str) -> FrozenSet[str]:
    return script_extensions(c) - _MARKERS


def _removal_fix(ctx, i: int, title: str):
    """An unsafe fix that deletes view character ``i`` from the value: the
    character itself, its escape, or a re-encoded A-label."""
    view = ctx.view
    s, e = view.spans[i]
    origin = view.origins[i]
    if origin in (LITERAL, PERCENT):
        return ctx.replace(title + " (unsafe)", s, e, "", False)
    comp = _component_at(ctx, i)
    if comp is None or comp.kind != "host-label":
        return None
    k = i - comp.view_start
    label = comp.text[:k] + comp.text[k + 1:]
    if not label:
        return None
    if not label.isascii():
        try:
            label = "xn--" + label.encode("punycode").decode("ascii")
        except UnicodeError:  # pragma: no cover - punycode encodes any str
            return None
    return ctx.replace(title + " (unsafe; re-encodes the A-label)", s, e, label, False)


def _replacement(ctx, i: int, j: int, new_view_text: Sequence[str]) -> Optional[str]:
    """Value text replacing view characters ``[i, j)`` by ``new_view_text``
    (one string per view character), keeping each one's encoding; None if
    a character comes from an A-label."""
    view = ctx.view
    parts = []
    for k in range(i, j):
        o = view.origins[k]
        if o == PUNYCODE:
            return None
        t = new_view_text[k - i]
        parts.append(percent_encode(t) if o == PERCENT else t)
    return "".join(parts)


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
            if unicodedata.category(c).startswith("M"):
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


def _cjk_side(text: str, i: int, step: int) -> Optional[str]:
    """The nearest character from ``i`` in direction ``step``, skipping
    marks and other full-width punctuation; None at either end."""
    k = i + step
    while 0 <= k < len(text):
        c = text[k]
        if not (_is_cjk_punctuation_char(c) or unicodedata.category(c).startswith("M")):
            return c
        k += step
    return None


def _cjk_punctuation(text: str, i: int) -> bool:
    """Full-width ASCII punctuation or an ideographic full stop used as CJK
    punctuation: next to Han, kana, Hangul or Bopomofo on one side, and on
    the other side the same or anything but an ASCII letter or digit
    (你好，世界, なぜ？, （中文）, 日本語の文。).  ``パス？q=1`` and
    ``ファイル。pdf`` are not: the punctuation leads into ASCII text.  An
    ideographic full stop may follow a Latin word (これはPython。次は)."""
    if not _is_cjk_punctuation_char(text[i]):
        return False
    left, right = _cjk_side(text, i, -1), _cjk_side(text, i, 1)
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


# ---------------------------------------------------------------------------
# IRI203 mixed-script
# ---------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _valid_scripts(names: Tuple[str, ...]) -> Tuple[str, ...]:
    out = []
    for name in names:
        try:
            out.append(script_code(name))
        except ValueError:
            continue  # unknown names are the configuration's problem
    return tuple(out)


def _allowed_scripts(ctx) -> Tuple[str, ...]:
    names = getattr(ctx.settings, "allowed_scripts", ()) or ()
    return _valid_scripts(tuple(names)) if names else ()


def _is_word_char(c: str) -> bool:
    # Invisible format characters (bidi controls, zero-width characters)
    # do not end a word: a reader does not see them, so "раураӏ1<RLO>login"
    # is one word, as it is once the control is removed.
    return unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Cf"


def _words(comp: Component) -> Iterable[Tuple[int, int]]:
    """View spans of the words of a path, query or fragment component: runs
    of letters, marks, digits and invisible format characters (ZWJ, ZWNJ,
    bidi controls)."""
    text = comp.text
    start = None
    for k, c in enumerate(text):
        if c.isascii() and not c.isalnum() or not c.isascii() and not _is_word_char(c):
            if start is not None:
                yield comp.view_start + start, comp.view_start + k
                start = None
        elif start is None:
            start = k
    if start is not None:
        yield comp.view_start + start, comp.view_end


def _minority(text: str, codes: Sequence[str]) -> Tuple[str, List[int]]:
    """The script of ``codes`` with the fewest characters in ``text`` (the
    later one on ties) and the offsets of its characters."""
    counts = {c: [] for c in codes}  # type: Dict[str, List[int]]
    for k, ch in enumerate(text):
        for code in _scripts_of(ch):
            if code in counts:
                counts[code].append(k)
    order = {c: n for n, c in enumerate(codes)}
    best = min(codes, key=lambda c: (len(counts[c]) or 1 << 30, -order[c]))
    return best, counts[best]


def _script_key(text: str, non_ascii: FrozenSet[str]) -> str:
    """A short string that mixes scripts exactly when non-ASCII ``text`` does:
    only which characters occur matters, and ASCII characters are all Latin
    letters or Common.  References that differ only in ASCII share the key,
    and so the cached answer."""
    letter = "a" if _ASCII_LETTER_RE.search(text) else ""
    return letter + "".join(sorted(non_ascii))


_ASCII_LETTER_RE = re.compile("[A-Za-z]")
_WORD_RUN_RES: Dict[FrozenSet[str], "re.Pattern[str]"] = {}


def _word_run_re(not_word: FrozenSet[str]) -> "re.Pattern[str]":
    """Runs of the characters _words counts as word characters, for a
    text whose non-ASCII characters that are not are ``not_word``."""
    rx = _WORD_RUN_RES.get(not_word)
    if rx is None:
        if len(_WORD_RUN_RES) >= 256:
            _WORD_RUN_RES.clear()
        rx = _WORD_RUN_RES[not_word] = re.compile(
            "(?:[A-Za-z0-9]|[^\\x00-\\x7f%s])+" % "".join(re.escape(c) for c in sorted(not_word)))
    return rx


@lru_cache(maxsize=1024)
def _not_word_chars(chars: FrozenSet[str]) -> FrozenSet[str]:
    return frozenset(c for c in chars if not _is_word_char(c))


@lru_cache(maxsize=8192)
def _mixes(text: str, allowed: Tuple[str, ...]) -> bool:
    """``mixed_script(text, allowed).mixed``, kept per text (script keys,
    labels and words repeat)."""
    return mixed_script(text, allowed).mixed


@lru_cache(maxsize=8192)
def _latin_lookalike_mix(text: str, allowed: Tuple[str, ...]) -> bool:
    """Latin with one other script that UTS #39 Moderately Restrictive
    allows (Armenian, Georgian, Hebrew...), where every character of that
    other script has a Latin letter for skeleton, so the whole word reads
    as Latin: Armenian ``օ`` in ``օrange``.  Bilingual text mixes scripts
    word by word, not inside one word; a word that reads as Latin with a
    letter of another script is the homograph trick, while a Latin letter
    beside an ordinary word of another script (``aمثال``: ``م`` reads as no
    Latin letter) is not."""
    if restriction_level(text, identifier_profile=False) != RestrictionLevel.MODERATELY_RESTRICTIVE:
        return False
    found = False
    for c in dict.fromkeys(text):
        if c.isascii():
            continue
        scripts = _scripts_of(c)
        if not scripts or LATIN in scripts or not scripts.isdisjoint(allowed):
            continue
        sk = skeleton(c)
        if not (sk.isascii() and sk.isalpha()):
            return False
        found = True
    return found


def _word_mixes(text: str, allowed: Tuple[str, ...]) -> bool:
    """Does a word of a path, query, fragment or userinfo mix scripts:
    beyond Moderately Restrictive, or Latin with Latin look-alikes of a
    Moderately Restrictive partner script (see :func:`_latin_lookalike_mix`)."""
    return _mixes(text, allowed) or _latin_lookalike_mix(text, allowed)


def _may_mix_words(ctx, allowed: Tuple[str, ...]) -> bool:
    """Can mixed-script find something in a reference whose view is its
    value?  It judges each host label whole and each word of the other
    components; those words are runs of word characters that delimiters
    (never word characters) bound, so each is a whole run of the text
    before or after the host.  If no such run and no label mixes scripts,
    the rule finds nothing, and the components need not be built."""
    value = ctx.value
    ref = ctx.ref
    parts = [value]
    host = ref.host
    if host is not None:
        parts = [value[:host.start], value[host.end:]]
        if ref.host_kind == "reg-name":  # the labels of ref.host_labels
            for label in LABEL_SPLIT_RE.split(value[host.start:host.end]):
                if not label.isascii() and _mixes(label, allowed):
                    return True
    find = _word_run_re(_not_word_chars(ctx.view.non_ascii_chars)).findall
    for part in parts:
        if part.isascii():
            continue
        for word in find(part):
            if not word.isascii() and _word_mixes(word, allowed):
                return True
    return False


@rule(name="mixed-script", code="IRI203", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def mixed_script_rule(ctx):
    """A host label or word that mixes scripts that do not belong together.

    ## What it does
    Checks each host label whole, and each word of the userinfo, path
    segments, file extension, query names and values and fragment (words
    are runs of letters, marks and digits, so ``IBM_PC-совместимый`` is
    the three words ``IBM``, ``PC`` and ``совместимый``; an invisible
    format character such as a bidi control does not end a word).  Flags it when
    its scripts are beyond UTS #39 Moderately Restrictive: Latin with
    Cyrillic or Greek, Cyrillic with Greek, Arabic with Hebrew...  Scripts
    come from Script_Extensions; Common and Inherited characters (digits,
    punctuation, combining marks, ZWNJ) are ignored.  Allowed together:
    any one script, Latin with Han and kana (Japanese), Latin with Han and
    Bopomofo, Latin with Han and Hangul, Latin with one other Recommended
    script except Cyrillic and Greek.  Scripts listed in ``allowed-scripts``
    never make a mixture.

    In a word of the userinfo, path, query or fragment (not a host label),
    Latin with one other Recommended script is reported too when a
    character of that script reads as a Latin letter (its UTS #39 skeleton
    is one): ``?fruit=օrange`` with U+0585 ARMENIAN SMALL LETTER OH.  The
    unit is the word, so bilingual text (``?q=Москва+moscow``,
    ``/Tbilisi/თბილისი``) stays quiet.

    Host labels are held to the browsers' stricter level, UTS #39 Highly
    Restrictive as Chromium applies it: Latin may stand only beside Han
    with kana, Bopomofo or Hangul (``Tokyo東京``), so Latin with Arabic,
    Thai or Armenian in one label is reported, and so is a non-ASCII Latin
    letter beside a CJK script (``café東京``).  A host label is judged as
    IDNA maps it too: ``𝝖bc`` (U+1D756 MATHEMATICAL SANS-SERIF BOLD
    CAPITAL ALPHA, a Common character) becomes Greek ``αbc``.  The message says what the
    label looks like when it reads as ASCII (``pаypal``: "it looks like
    'paypal'").

    ## Why
    Mixing is the classic homograph trick: ``pаypal`` with one Cyrillic
    ``а`` is another name that no reader can tell apart.  Browsers show
    such a host label as Punycode, and also ``gօօgle`` with Armenian օ,
    which Moderately Restrictive would allow.  Per-label and per-word checking keeps
    real multilingual IRIs (``https://ru.wikipedia.org/wiki/Москва``,
    ``http://例え.jp/パス/page``) quiet.

    ## Example
    ``http://pаypal.com/`` (U+0430 CYRILLIC SMALL LETTER A in a Latin
    label) should be ``http://paypal.com/``.

    ## Fix safety
    No fix: which script was meant cannot be known.

    ## Reference
    UTS #39 s5.1 (resolved script sets), s5.2 (restriction levels); UAX #24
    (Script_Extensions); RFC 3987 s7.5; Chromium's IDN display policy and
    Firefox's ``network.IDN.restriction_profile``.
    """
    view = ctx.view
    text = view.text
    if text.isascii():
        return
    allowed = _allowed_scripts(ctx)
    # Host labels are held to the browsers' stricter level (Highly
    # Restrictive): a text that does not mix at the Moderately Restrictive
    # level (nor reads as Latin with look-alikes) can still hold such a
    # label, and nothing else.
    hosts_only = not _word_mixes(_script_key(text, view.non_ascii_chars), allowed)
    if hosts_only and not _host_may_fail_policy(ctx, allowed):
        return  # no part of a string mixes scripts if the whole does not
    if not hosts_only and gates.ENABLED and not view.decoded_any and not _may_mix_words(ctx, allowed) \
            and not _host_may_fail_policy(ctx, allowed):
        return
    for comp in ctx.components():
        if comp.text.isascii() or (hosts_only and comp.kind != "host-label"):
            continue
        spans = [(comp.view_start, comp.view_end)] if comp.kind == "host-label" else _words(comp)
        for i, j in spans:
            word = text[i:j]
            if word.isascii():
                continue
            lookalike_only = False
            result = mixed_script(word, allowed)
            if not result.mixed and comp.kind == "host-label" and map_label(word) != word:
                # IDNA mapping decides the name: U+1D756 MATHEMATICAL BOLD
                # CAPITAL ALPHA (Common) becomes Greek alpha beside Latin.
                mapped_mix = mixed_script(map_label(word), allowed)
                if mapped_mix.mixed:
                    yield ctx.report_view(i, j, "the host label %s mixes scripts once IDNA maps it to %s (%s)%s%s" % (
                        _show(comp.text), _show(map_label(word)), ", ".join(mapped_mix.scripts),
                        _looks_like(map_label(word)), ctx.origin_note(i)))
                    continue
            if not result.mixed:
                if comp.kind == "host-label":
                    why = host_label_mixing(map_label(word), allowed)
                    if why is not None:
                        yield ctx.report_view(i, j, "the host label %s is not shown as Unicode by browsers: %s%s%s" % (
                            _show(comp.text), why, _looks_like(map_label(word)), ctx.origin_note(i)))
                    continue
                if not _latin_lookalike_mix(word, allowed):
                    continue
                lookalike_only = True
            codes = [c for c in scripts_in(word) if c not in allowed]
            what = "the %s %s" % (comp.label, _show(comp.text)) if (i, j) == (comp.view_start, comp.view_end) \
                else "the word %s of the %s %s" % (_show(word), comp.label, _show(comp.text))
            looks = _looks_like(map_label(word)) if comp.kind == "host-label" else ""
            if len(codes) < 2:
                # One script, and a character that is no letter of any
                # script (its Script is Common) but is used only by others:
                # U+00B7 MIDDLE DOT in Cyrillic.
                own = frozenset(codes)
                offsets = [k for k, ch in enumerate(word) if not ch.isascii() and _scripts_of(ch)
                           and _scripts_of(ch).isdisjoint(own)]
                if offsets:
                    odd = word[offsets[0]]
                    message = "%s mixes scripts: %s is used only with %s, not with %s%s%s" % (
                        what, describe(odd), scx_names(odd), " and ".join(script_name(c) for c in codes)
                        or "its other characters", ctx.origin_note(i + offsets[0]), looks)
                    yield ctx.report_view(i, j, message)
                    continue
                codes = scripts_in(word)  # pragma: no cover - mixed implies two scripts
            minor, offsets = _minority(word, codes)
            chars = [word[k] for k in offsets]
            note = ctx.origin_note(i + offsets[0]) if offsets else ""
            message = "%s mixes scripts (%s); the %s characters are %s%s%s" % (
                what, ", ".join(script_name(c) for c in codes), script_name(minor), _list_chars(chars), note,
                looks)
            if lookalike_only:
                message += ", and the word reads as the Latin '%s'" % latin_reading(word)
            yield ctx.report_view(i, j, message)


def _looks_like(label: str) -> str:
    """"; it looks like 'paypal'" when the label reads as ASCII, for messages."""
    im = imitation(label)
    return "; it looks like '%s'" % im if im else ""


def _host_may_fail_policy(ctx, allowed: Tuple[str, ...]) -> bool:
    """Does a host label of the view mix scripts the way browsers refuse
    though the Moderately Restrictive check passes (Latin with Arabic, a
    non-ASCII Latin letter beside Han)?"""
    vref = ctx.view_ref
    h = vref.host
    if h is None or vref.host_kind != "reg-name":
        return False
    host = ctx.view.text[h.start:h.end]
    if host.isascii():
        return False
    return any(not label.isascii() and (host_label_mixing(map_label(label), allowed) is not None
                                        or mixed_script(map_label(label), allowed).mixed)
               for label in LABEL_SPLIT_RE.split(host))


# ---------------------------------------------------------------------------
# IRI204 whole-script-confusable
# ---------------------------------------------------------------------------

_DISPLAY_ORDER = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_ASCII_BY_SKELETON: Dict[str, str] = {}
for _c in _DISPLAY_ORDER:
    _ASCII_BY_SKELETON.setdefault(skeleton(_c), _c)


def latin_reading(s: str) -> str:
    """How ``s`` reads to someone who expects Latin: each character replaced
    by the ASCII character with the same skeleton, when there is one."""
    out = []
    for c in s:
        sk = skeleton(c)
        out.append(_ASCII_BY_SKELETON.get(sk) or (unicodedata.normalize("NFC", sk) if sk else ""))
    return "".join(out)


def _tld_exempt(scripts: FrozenSet[str], tld: str) -> bool:
    return tld_allows_script(scripts, tld)


@rule(name="whole-script-confusable", code="IRI204", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def whole_script_confusable_rule(ctx):
    """A host label written in one non-Latin script that looks all Latin.

    ## What it does
    Flags host labels that are entirely in one script other than Latin
    and read as Latin: either their UTS #39 skeleton is ASCII (plus
    combining marks), such as Cyrillic ``аррӏе`` (U+0430 U+0440 U+0440
    U+04CF U+0435), which looks like ``apple``, or Greek ``ορα``; or all
    their letters of that script are in the browsers' list of its Latin
    look-alikes (Chromium's IDN display policy, for Armenian, Cyrillic,
    Ethiopic, Georgian, Greek, Hebrew, Lao, Myanmar, Thai and the Indic
    scripts), digit look-alikes included, such as Georgian ``ძ4000``
    (looks like ``d4000``) or Devanagari ``०२`` (``o2``).  ``xn--`` labels
    and percent-encoded labels are decoded first.  Short labels are not
    skipped: Cyrillic ``х.com`` imitates ``x.com``.

    Not flagged: labels under a top-level domain where that script is
    normal.  The table (from registry practice and browsers' IDN policies):

    ==========  ==========================================================
    script      TLDs
    ==========  ==========================================================
    Cyrillic    .рф .ru .su .рус .by .бел .ua .укр .kz .қаз .kg .tj .uz
                .bg .бг .rs .срб .mk .мкд .ba .mn .мон (Mongolian
                Cyrillic) .eu .ею
    Greek       .ελ .gr .cy .ευ .eu
    Armenian    .am .հայ
    Georgian    .ge .გე
    Hebrew      .il
    Ethiopic    .er .et
    Myanmar     .mm
    Thai        .th .ไทย
    Lao         .la
    ==========  ==========================================================

    Any TLD holding a letter of the label's script counts too (.москва,
    .онлайн, .орг): Chromium's rule.  Chromium's few common words that
    read as no Latin name (``курс``, ``парк``, ``как``) are allowed under
    every TLD.  The TLD label is judged by the same
    table, so ``пример.бг`` and ``сайт.рус`` are fine.
    Scripts listed in ``allowed-scripts`` are never reported.

    Only host labels are checked: in paths and queries ordinary words
    (Russian ``сахар``, Greek ``ορα``) are whole-script confusables, and
    the host is what decides which server answers; ``mixed-script`` still
    checks every word.

    ## Why
    Nothing in ``аррӏе.com`` is mixed, so per-label script checks pass,
    yet it is not apple.com.  Browsers show such labels as Punycode
    outside their usual TLDs.

    ## Example
    ``http://аррӏе.com/`` (also written ``http://xn--80ak6aa92e.com/``):
    the message says it looks like the Latin ``apple``.

    ## Fix safety
    No fix: the label may be a genuine name in that script.

    ## Reference
    UTS #39 s4 (whole-script confusables), s5; RFC 3987 s7.5; Chromium's
    IDN display policy (whole-script confusables: per-script look-alike
    letters and the TLDs where they are allowed).
    """
    view = ctx.view
    if view.text.isascii():
        return None
    allowed = frozenset(_allowed_scripts(ctx))
    clean_key = None
    if gates.ENABLED and not view.decoded_any:
        # The view is the value: what this rule finds depends only on the
        # host and the allowed scripts, and hosts repeat in a document.
        ref = ctx.ref
        if ref.host is None or ref.host_kind != "reg-name":
            return None  # no host labels
        clean_key = (ctx.value[ref.host.start:ref.host.end], allowed)
        if clean_key in _WSC_CLEAN_HOSTS:
            return None
    found = list(_whole_script_confusables(ctx, allowed))
    if not found and clean_key is not None:
        if len(_WSC_CLEAN_HOSTS) >= 8192:
            _WSC_CLEAN_HOSTS.clear()
        _WSC_CLEAN_HOSTS.add(clean_key)
    return found


#: (host, allowed scripts) where whole-script-confusable found nothing
_WSC_CLEAN_HOSTS: set = set()


def _whole_script_confusables(ctx, allowed: FrozenSet[str]):
    labels = [c for c in ctx.components() if c.kind == "host-label"]
    if not labels:
        return
    tld = map_label(labels[-1].text)
    for comp in labels:
        label = comp.text.lower()
        if label.isascii():
            continue
        sk = whole_script_confusable(label)
        # Chromium's per-script lists: letters that read as Latin although
        # their UTS #39 prototype is not ASCII (Georgian ძ as 'd').
        by_list = latin_lookalike_script(map_label(comp.text)) if sk is None else None
        if sk is None and by_list is None or is_digit_label(map_label(comp.text)):
            continue  # a label of digit look-alikes is idn-digit-lookalike's
        scripts = resolved_script_set(label) or frozenset()
        if not scripts.isdisjoint(allowed) or _tld_exempt(scripts, tld):
            continue
        script = " and ".join(script_name(s) for s in scripts_in(label)) or "one script"
        lookalikes = [c for c in comp.text if not c.isascii() and (
            skeleton(c.lower()) != c.lower() or imitation(c.lower()) is not None)]
        reading = imitation(map_label(comp.text)) or latin_reading(label)
        message = ("the host label %s is written entirely in %s but looks like the Latin '%s': %s%s"
                   % (_show(comp.text), script, reading, _list_chars(lookalikes),
                      ctx.origin_note(comp.view_start)))
        yield ctx.report_view(comp.view_start, comp.view_end, message)


# ---------------------------------------------------------------------------
# IRI205 confusable-collision
# ---------------------------------------------------------------------------

#: run state key of the hosts of the documents checked before with the
#: same run state (checks one after another in one process; the CLI and
#: the server reduce across files instead: irilint.rules.collisions)
_STATE_KEY = "lookalike.confusable-collision"
#: identities of one skeleton a document records for other documents
MAX_IDENTITIES = 4
_DOTS_RE = re.compile("[%s]" % IDNA_DOTS)


def _host_identity(u: str) -> str:
    """The host as IDNA would see it: NFKC, lowercase, one kind of dot, no
    trailing dot.  Two hosts with the same identity are the same host."""
    ident = unicodedata.normalize("NFKC", u.lower()).lower()
    ident = _DOTS_RE.sub(".", ident)
    return ident[:-1] if ident.endswith(".") else ident


#: RFC 1035 s2.3.4 (253 characters in text form).
_MAX_DOMAIN_LENGTH = 253


@lru_cache(maxsize=8192)
def _label_skeleton(label: str) -> str:
    return skeleton(label)


@lru_cache(maxsize=8192)
def _host_skeletons(ident: str) -> List[Tuple[str, str]]:
    """(suffix, skeleton of suffix) for every label suffix of the host,
    longest first; label skeletons are cached and joined (a skeleton never
    reaches across a '.').  Cached per host (documents repeat hosts): the
    list is shared, never change it."""
    labels = ident.split(".")
    sks = [_label_skeleton(l) for l in labels]
    # The whole host, then the parent domains that DNS allows (at most 253
    # characters): every suffix of a host of thousands of labels would
    # make the list quadratic in the host's length.
    first = len(labels)
    size = -1
    while first > 1 and size + len(labels[first - 1]) + 1 <= _MAX_DOMAIN_LENGTH:
        first -= 1
        size += len(labels[first]) + 1
    return [(ident, ".".join(sks))] + [(".".join(labels[k:]), ".".join(sks[k:]))
                                       for k in range(first, len(labels))]


def _decode_domain(domain: str) -> str:
    out = []
    for label in _DOTS_RE.sub(".", domain.strip()).split("."):
        if label[:4].lower() == "xn--":
            u = idna_to_unicode(label.lower())
            if u is None:
                try:
                    u = label[4:].lower().encode("ascii").decode("punycode")
                except (UnicodeError, ValueError):
                    u = None
            label = u or label
        out.append(label)
    return ".".join(out)


@lru_cache(maxsize=32)
def _protected_table(domains: Tuple[str, ...]) -> Dict[str, Tuple[str, str]]:
    """skeleton -> (identity, domain as configured)."""
    table: Dict[str, Tuple[str, str]] = {}
    for d in domains:
        ident = _host_identity(_decode_domain(d))
        if ident:
            # The browsers' comparison with top domains: the policy's
            # skeletons (diacritics removed, letters drawn like Latin).
            table.setdefault(_host_skeletons(ident)[0][1], (ident, d))
            for sk in policy_skeletons(ident):
                table.setdefault(sk, (ident, d))
    return table


def _protected_hit(ident: str, protected: Dict[str, Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """The protected domain that ``ident`` or a parent domain of it looks
    like without being it, or None.  A host under a protected domain
    (``mail.paypal.com``) is that domain's; a parent that only looks like
    one (``tést.net`` in ``some.tést.net``; ``test.nét``, whose skeleton is
    the protected ``test.net``) is not."""
    for suffix, sk in _host_skeletons(ident):
        for key in (sk, *policy_skeletons(suffix)):
            hit = protected.get(key)
            if hit is not None:
                if hit[0] != suffix:
                    return hit
                return None  # the protected domain itself, or a host under it
    return None


#: _host_of by reference value: a pure function of the value, asked for
#: every reference of every document (the language server re-checks a
#: whole document on each change); bounded by clearing
_HOSTS_BY_VALUE: Dict[str, Optional[Tuple[int, int, str, str]]] = {}
_MAX_HOSTS_BY_VALUE = 8192


def _host_of(ctx) -> Optional[Tuple[int, int, str, str]]:
    """(value start, value end, display text, identity) of a reg-name host."""
    fast = getattr(ctx, "fast", None)
    if fast is not None:  # the engine's fast path: no parse needed
        start, end = fast.span(FAST_HOST_GROUP)
        if start >= end:
            return None
        raw = ctx.value[start:end]
        ident = _ascii_host_identity(raw)
        return None if ident is None else (start, end, raw, ident)
    value = ctx.value
    try:
        return _HOSTS_BY_VALUE[value]
    except KeyError:
        pass
    host = _find_host(ctx)
    if len(_HOSTS_BY_VALUE) >= _MAX_HOSTS_BY_VALUE:
        _HOSTS_BY_VALUE.clear()
    _HOSTS_BY_VALUE[value] = host
    return host


@lru_cache(maxsize=8192)
def _ascii_host_identity(raw: str) -> Optional[str]:
    """_find_host's identity of an ASCII host without "%" or "xn--"."""
    ident = _host_identity(raw)
    if not ident or ident.startswith(".") or ".." in ident:
        return None
    return ident


def _find_host(ctx) -> Optional[Tuple[int, int, str, str]]:
    ref = ctx.ref
    if ref.host is None or ref.host_kind != "reg-name" or ref.host.start == ref.host.end:
        return None
    raw = ctx.value[ref.host.start:ref.host.end]
    if raw.isascii() and "%" not in raw and "xn--" not in raw.lower():
        u = raw
    else:
        vref = ctx.view_ref
        if vref.host is None:
            return None
        u = ctx.view.text[vref.host.start:vref.host.end]
    ident = _host_identity(u)
    if not ident or ident.startswith(".") or ".." in ident:
        return None
    return ref.host.start, ref.host.end, u, ident


def _difference(mine: str, other: str) -> str:
    """The characters that tell two confusable hosts apart, for messages."""
    if len(mine) == len(other):
        pairs = [(a, b) for a, b in zip(mine, other) if a != b]
        if pairs:
            return "it has %s where the other has %s" % (
                _list_chars(a for a, _ in pairs), _list_chars(b for _, b in pairs))
    odd = [c for c in mine if not c.isascii()]
    if odd:
        return "it has " + _list_chars(odd)
    odd = [c for c in other if not c.isascii()]
    if odd:
        return "the other has " + _list_chars(odd)
    return "they differ only in characters with the same skeleton"


@rule(name="confusable-collision", code="IRI205", family="lookalike", severity="error",
      scope="document", project=collision_steps(HostsOfRule(
          # late-bound: these are defined further down this module
          local_hosts=lambda doc: local_hosts(doc),
          collision_message=lambda *a: collision_message(*a),
          other_file_partner=lambda *a: other_file_partner(*a),
          max_identities=MAX_IDENTITIES)))
def confusable_collision(doc):
    """Two different hosts that look the same.

    ## What it does
    Compares the UTS #39 skeletons of hosts (in Unicode form: ``xn--``
    labels and percent-encoding decoded, then NFKC and lowercase, as IDNA
    does) and reports a host whose skeleton equals that of a *different*
    host:

    * one of the ``protected-domains`` of the configuration, or a parent
      domain of the host equal to one (``login.раураl.com`` imitates
      ``paypal.com``).  ASCII typosquats count here: ``paypa1.com``.
      This comparison is the browsers' comparison with top domains
      (Chromium's IDN display policy), so it also removes the diacritics
      of hosts written in Latin, Greek and Cyrillic (``đigklmo68.com``,
      ``tést.net``) and reads the letters that common fonts draw like Latin
      ones as those letters (Cyrillic ``шмнтв`` as ``wmhtb``, Latin ``ŧ``
      as ``t``, ``œ`` as ``ce`` or ``oe``; the table is generated by
      ``tools/gen_lookalike_table.py``).  A host under a protected domain
      (``mail.paypal.com``) is that domain's; a parent domain that only
      looks like one is not (``éxample.test.nét`` against ``test.net``);
    * an earlier host of the same document;
    * a host of another file checked in the same run (the finding names
      the file and line).

    Hosts that are the same for IDNA (case, full-width forms, ``。`` for
    ``.``) are not collisions.  Between two hosts of the documents, at
    least one must be non-ASCII: ``rn``/``m`` or ``1``/``l`` between two
    plain ASCII hosts is left to ``ascii-lookalike``.  Each pair of hosts
    is reported once, at the first occurrence of the host that is not
    ASCII (of two non-ASCII hosts: the less frequent, else the later),
    with a related location at the other host; one finding names every
    host its host collides with.

    ## Why
    A document that links to both ``paypal.com`` and ``раураl.com``
    almost certainly holds a spoof, and a reviewer cannot see which one.

    ## Example
    With ``protected-domains = ["paypal.com"]``, ``http://раураl.com/``
    (Cyrillic р, а, у) is reported.

    ## Fix safety
    No fix: which host is genuine is for a person to decide.

    ## Reference
    UTS #39 s4 (confusable detection); RFC 3987 s7.5; RFC 3986 s6.2.2.1
    (case-insensitive hosts).
    """
    local = local_hosts(doc)
    if local is None:
        return
    info = doc.doc
    path = info.path
    state = info.run_state.setdefault(_STATE_KEY, {})
    partners = {ident: (skel, list(found)) for ident, (skel, found) in local.partners.items()}
    for skel, group in local.seen.items():
        for ident in group:
            # Documents checked one after another with one run state: the
            # hosts of those before, reported here whichever is the spoof
            # (they cannot be reported again).
            others = [(o, d, p, line) for o, (d, p, line) in (state.get(skel) or {}).items()
                      if not (o.isascii() and ident.isascii()) and o != ident and o not in group
                      and not (path is not None and p == path)]
            for other_ident, other_display, other_path, other_line in others:
                partners.setdefault(ident, (skel, []))[1].append(
                    other_file_partner(other_ident, other_display, other_path, other_line))
    for ident, (skel, found) in partners.items():
        entry = local.seen[skel][ident]
        message, related = collision_message(entry[4], ident, found)
        finding = doc.report(entry[1], entry[2], entry[3], message)
        finding.related = related
        yield finding
    for skel, group in local.seen.items():
        known = state.setdefault(skel, {})
        for ident, entry in group.items():
            if ident not in known and len(known) < MAX_IDENTITIES:
                known[ident] = (entry[4], path, local.line_of(entry))


class LocalHosts:
    """The hosts of one document as confusable-collision sees them, shared
    by its check and its collect step."""

    def __init__(self, seen: Dict[str, Dict[str, list]], index, partners) -> None:
        #: skeleton -> identity -> [occurrences, ctx, start, end, display],
        #: in order of first occurrence
        self.seen = seen
        self.index = index
        #: identity -> (skeleton, [(other identity, text, Related or None)]):
        #: the protected domains and the hosts of the same document each
        #: host collides with, in the order its finding names them
        self.partners = partners

    def place(self, entry) -> Tuple[int, int]:
        return entry[1].candidate.source_span(entry[2], entry[3])

    def line_of(self, entry) -> int:
        """The 1-based line of a host's first occurrence."""
        return self.index.line_of(self.place(entry)[0]) + 1


def local_hosts(doc) -> Optional[LocalHosts]:
    """The :class:`LocalHosts` of ``doc`` (worked out once per check), or
    None when it has no reg-name host."""
    if "confusable-collision" in doc.shared:
        return doc.shared["confusable-collision"]
    doc.shared["confusable-collision"] = local = _local_hosts(doc)
    return local


def _local_hosts(doc) -> Optional[LocalHosts]:
    info = doc.doc
    settings = info.settings
    domains = tuple(getattr(settings, "protected_domains", ()) or ())
    protected = _protected_table(domains) if domains else {}
    # skeleton -> identity -> [occurrences, ctx, start, end, display], in
    # order of first occurrence
    seen: Dict[str, Dict[str, list]] = {}
    #: raw host text of fast-path references -> (skeleton, identity): a
    #: document repeats its hosts, most of them plain ASCII
    by_raw: Dict[str, Optional[Tuple[str, str]]] = {}
    for ctx in doc.refs:
        fast = ctx.fast
        if fast is not None:  # _host_of inlined for the engine's fast path
            start, end = fast.span(FAST_HOST_GROUP)
            if start >= end:
                continue
            raw = ctx.value[start:end]
            known = by_raw.get(raw, False)
            if known is None:
                continue
            if known is not False:
                seen[known[0]][known[1]][0] += 1
                continue
            ident = _ascii_host_identity(raw)
            if ident is None:
                by_raw[raw] = None
                continue
            display = raw
            skel = _host_skeletons(ident)[0][1]
            by_raw[raw] = (skel, ident)
        else:
            host = _host_of(ctx)
            if host is None:
                continue
            start, end, display, ident = host
            skel = _host_skeletons(ident)[0][1]
        group = seen.get(skel)
        if group is None:
            group = seen[skel] = {}
        entry = group.get(ident)
        if entry is None:
            group[ident] = [1, ctx, start, end, display]
        else:
            entry[0] += 1
    if not seen:
        return None
    index = doc.line_index()

    def place(entry) -> Tuple[int, int]:
        return entry[1].candidate.source_span(entry[2], entry[3])

    # identity -> (skeleton, [(other display, where, Related)]): one finding
    # per host that is to carry it, naming every host it collides with, so
    # each pair of hosts is reported once
    partners: Dict[str, Tuple[str, List[Tuple[str, str, Optional[Related]]]]] = {}

    def add(skel: str, ident: str, other_ident: str, text: str, related: Optional[Related]) -> None:
        partners.setdefault(ident, (skel, []))[1].append((other_ident, text, related))

    for skel, group in seen.items():
        if protected:
            for ident, entry in group.items():
                hit = _protected_hit(ident, protected)
                if hit is not None:
                    add(skel, ident, hit[0], "the protected domain '%s'" % hit[1], None)
        if len(group) > 1:
            idents = list(group)
            for k, first in enumerate(idents):
                for later in idents[k + 1:]:
                    if first.isascii() and later.isascii():
                        continue  # rn/m, 1/l: ascii-lookalike's
                    ident, other = _collision_side(first, group[first], later, group[later])
                    s, e = place(group[other])
                    (l1, c1), (l2, c2) = index.position(s), index.position(e)
                    add(skel, ident, other, "%s on line %d" % (_show(group[other][4]), l1 + 1),
                        Related("the host %s it is confusable with" % _show(group[other][4]),
                                l1 + 1, c1 + 1, l2 + 1, c2 + 1, None, s, e))
    return LocalHosts(seen, index, partners)


def other_file_partner(other_ident: str, display: str, path: Optional[str],
                       line: int) -> Tuple[str, str, Related]:
    """A partner of a host in another document, as its finding names it."""
    return (other_ident, "%s in %s, line %d" % (_show(display), path or "another document", line),
            Related("the host %s it is confusable with" % _show(display),
                    line, 0, line, 0, path or "another document"))


def collision_message(display: str, ident: str,
                      found: Sequence[Tuple[str, str, Optional[Related]]]) -> Tuple[str, List[Related]]:
    """The message and related locations of the finding on the host
    ``ident`` (shown as ``display``) that collides with ``found``."""
    first_other, first_text, _r = found[0]
    message = "the host %s is confusable with %s (equal skeletons); %s" % (
        _show(display), first_text, _difference(ident, first_other) if not first_text.startswith(
            "the protected domain") else _difference(_protected_suffix(ident, first_other), first_other))
    if len(found) > 1:
        message += "; also with " + ", ".join(t for _o, t, _r in found[1:])
    return message, [r for _o, _t, r in found if r is not None]


def _protected_suffix(ident: str, protected_ident: str) -> str:
    """The part of ``ident`` (itself or a parent domain) whose skeleton is
    that of the protected domain, for the message's difference."""
    target = _host_skeletons(protected_ident)[0][1]
    for suffix, sk in _host_skeletons(ident):
        if sk == target:
            return suffix
    return ident


def _collision_side(first: str, first_entry: list, later: str, later_entry: list) -> Tuple[str, str]:
    """(the host to report, the other) of two confusable hosts of one
    document, ``first`` occurring first: the one that is not ASCII, else
    the less frequent, else the later."""
    if first.isascii():
        return later, first
    if later.isascii():
        return first, later
    if first_entry[0] < later_entry[0]:
        return first, later
    return later, first


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
    return unicodedata.category(c) in ("Lo", "Nl", "Cn")


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
    return "Mong" in script_extensions(c) and unicodedata.category(c)[0] == "L"


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


# ---------------------------------------------------------------------------
# IRI207 ascii-lookalike
# ---------------------------------------------------------------------------

_DIGIT_RUN_RE = re.compile(r"[0-9]+")
_ALNUM_RUN_RE = re.compile(r"[A-Za-z0-9]+")
_ESCAPE_RE = re.compile(r"%[0-9A-Fa-f]{2}")
_WORD_PART_RE = re.compile(r"[a-z]+")
_FRONT_CODED_WORD_RE = re.compile(r"[A-Z][a-z]*")
#: The letters each digit is drawn like: 0 and o, 1 and l (or I), 3 and a
#: reversed E, 4 and A, 5 and S, 7 and T, 8 and B, 9 and g.  2 and 6 look
#: like no letter (b2b, p2p, x264).
_READ_AS_LETTERS = {"0": "o", "1": "li", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}
#: The first letter each digit reads as (the hypothesis tests' reading).
_READS_AS = {d: letters[0] for d, letters in _READ_AS_LETTERS.items()}
#: Digits that pass for a letter on their own in any word; the others only
#: between letters (see :func:`_path_swap`).
_LETTER_DIGITS = frozenset("01")
#: More digits than this in one word are a number, not spelling (and keep
#: the 1 -> l/i readings few).
_MAX_SPELLING_DIGITS = 4
#: A numeronym: a first letter, the count of the letters left out, a last
#: letter (i18n, l10n, a11y, o11y, k8s).  Its digits are digits even where
#: they would spell a word (a11y is not "ally", l10n not "lion").
_NUMERONYM_RE = re.compile(r"[a-z][1-9][0-9]*[a-z]")


@lru_cache(maxsize=1)
def english_words() -> FrozenSet[str]:
    """The generated English word list (4..15 letters, lower case)."""
    from irilint.english_words import FRONT_CODED

    words = []
    prev = ""
    for m in _FRONT_CODED_WORD_RE.finditer("".join(FRONT_CODED)):
        piece = m.group()
        prev = prev[:ord(piece[0]) - ord("A")] + piece[1:]
        words.append(prev)
    return frozenset(words)


@lru_cache(maxsize=32)
def _brand_words(domains: Tuple[str, ...]) -> FrozenSet[str]:
    """The letter words of the ``protected-domains`` labels other than the
    top-level one (``paypal`` of ``paypal.com``, ``my`` and ``bank`` of
    ``my-bank.co.uk``): the names a digit-for-letter spoof imitates."""
    words = set()
    for domain in domains:
        labels = domain.lower().rstrip(".").split(".")
        for label in labels[:-1]:
            words.update(w for w in _WORD_PART_RE.findall(label) if len(w) >= 4)
    return frozenset(words)


def _is_word(text: str, brands: FrozenSet[str]) -> bool:
    return text in brands or text in english_words()


def _readings(token: str) -> Iterable[str]:
    """``token`` (lower case) with each digit read as a letter it is drawn
    like, every combination (1 is both l and i); nothing if a digit looks
    like no letter."""
    readings = [""]
    for c in token:
        letters = _READ_AS_LETTERS.get(c, c) if c.isdigit() else c
        if not letters:
            return []
        readings = [r + x for r in readings for x in letters]
    return readings


def digit_reading(token: str, brands: FrozenSet[str] = frozenset()) -> Optional[str]:
    """The word an ASCII word ``token`` spells when its digits are read as
    the letters they imitate (``paypa1`` -> ``paypal``, ``br0ken`` ->
    ``broken``), or None when its digits are digits.

    The policy: the reading must be an English word of the generated list
    (SCOWL) or a word of a protected domain, while the token as written is
    not a word with a number: not a word followed by a number (``media1``,
    ``server1``: numbering), not a numeronym (``a11y``, ``l10n``), not
    hexadecimal (``c0ffee``: ids and colours).  Everything else --
    ``sha1sum``, ``mpi4py``, ``uniroma1``, ``0pointer`` -- reads as no word
    and so is left alone without a list of exceptions."""
    if not token.isascii() or not token.isalnum():
        return None
    token = token.lower()
    digits = sum(c.isdigit() for c in token)
    letters = len(token) - digits
    if not digits or letters < 2 or digits > _MAX_SPELLING_DIGITS or len(token) < 4:
        return None
    if all(c in "0123456789abcdef" for c in token):
        return None  # hex-like: ids, hashes, colours
    if _NUMERONYM_RE.fullmatch(token):
        return None
    head = token.rstrip("0123456789")
    if head != token and len(head) >= 4 and _is_word(head, brands):
        return None  # a word and its number: media1, schema1, server01
    for reading in _readings(token):
        if _is_word(reading, brands):
            return reading
    return None


def _digit_swaps(token: str, brands: FrozenSet[str] = frozenset()) -> List[Tuple[int, int]]:
    """Spans of the digit runs of the ASCII word ``token`` that read as
    letters (see :func:`digit_reading`)."""
    if digit_reading(token, brands) is None:
        return []
    return [m.span() for m in _DIGIT_RUN_RE.finditer(token)]


def _path_words(value: str, segments) -> Iterable[Tuple[int, str]]:
    """(value offset, word) of the ASCII letter-and-digit runs of the path
    segments; escapes separate words."""
    for seg in segments:
        text = value[seg.start:seg.end]
        if "%" in text:
            text = _ESCAPE_RE.sub(lambda m: "   ", text)
        for m in _ALNUM_RUN_RE.finditer(text):
            yield seg.start + m.start(), m.group()


def _swap_finding(ctx, start: int, token: str, reading: str, s: int, e: int, where: str):
    run = token[s:e]
    final = e == len(token)
    position = "between letters" if s > 0 and not final else "before letters" if s == 0 else "after letters"
    letters = list(dict.fromkeys(reading[s:e]))
    message = ("%s %s in %s may be read as the letter %s ('%s')"
               % (_list_chars(run), position, where, " and ".join("'%s'" % c for c in letters), reading))
    return ctx.report(start + s, start + e, message)


@rule(name="ascii-lookalike", code="IRI207", family="lookalike", severity="info", enabled=False)
def ascii_lookalike(ctx):
    """A digit that stands in for a letter in a host or path word (``br0ken``, ``paypa1``).

    ## What it does
    Off by default.  Looks at each word (run of ASCII letters and digits)
    of each ASCII host label and of each path segment, reads its digits as
    the letters they are drawn like (``0`` o, ``1`` l or i, ``3`` e, ``4``
    a, ``5`` s, ``7`` t, ``8`` b, ``9`` g) and flags the digits when that
    reading is an English word of at least four letters (the SCOWL word
    list of Debian's ``wamerican``, generated into ``irilint.english_words``
    by ``tools/gen_wordlist.py``; brand names such as PayPal and Microsoft
    are in it) or a word of one of the ``protected-domains``: ``br0ken``,
    ``g00gle``, ``micr0soft``, ``paypa1``, ``0range``, ``p4ssw0rd``.

    Digits that are digits read as no word and are left alone:
    ``sha1sum``, ``mpi4py``, ``uniroma1``, ``0pointer``, ``gs1us``,
    ``mp3player``, ``win10``.  So are words whose digits spell a word only
    by chance: a word followed by its number (``media1``, ``server01``),
    numeronyms -- a letter, the count of the letters left out and a letter
    (``a11y`` is not "ally", ``l10n`` not "lion", ``k8s``) --, words of
    hexadecimal digits only (``c0ffee``), words of fewer than four
    characters or two letters, ``xn--`` labels and IP addresses.

    Path segments name files and tools far more often than hosts do, so in
    a path word only a single ``0`` or ``1`` between letters of a
    lower-case word (``br0ken``) or a final ``1`` (``paypa1.html``) counts;
    a ``data:`` URI's path is not read as words.

    ## Why
    RFC 3987 s7.5 warns about ASCII look-alikes: ``br0ken.example`` is not
    ``broken.example``, and ``1`` versus ``l`` is hard to see in many fonts.

    ## Example
    ``http://paypa1-secure.example/`` and ``http://g00gle.com/`` are
    flagged; ``http://ns1.example/mp3/`` and ``https://www.a11yproject.com/``
    are not.

    ## Fix safety
    No fix: the digit may be part of the real name.

    ## Reference
    RFC 3987 s7.5; UTS #39 s4.
    """
    ref = ctx.ref
    value = ctx.value
    brands = _brand_words(tuple(getattr(ctx.settings, "protected_domains", ()) or ()))
    if ref.host is not None and ref.host_kind == "reg-name":
        host = value[ref.host.start:ref.host.end]
        if host.isascii():
            for lab in ref.host_labels:
                label = value[lab.start:lab.end]
                if label[:4].lower() == "xn--":
                    continue
                where = "the host label '%s'" % label
                for m in _ALNUM_RUN_RE.finditer(label):
                    token = m.group()
                    reading = digit_reading(token, brands)
                    if reading is not None:
                        for s, e in _digit_swaps(token, brands):
                            yield _swap_finding(ctx, lab.start + m.start(), token, reading, s, e, where)
    segments = ref.segments
    if segments and ref.scheme_lower != "data":  # a data: URI's path is content, not words
        for start, word in _path_words(value, segments):
            reading = digit_reading(word, brands)
            if reading is None:
                continue
            for s, e in _digit_swaps(word, brands):
                if _path_swap(word, s, e):
                    yield _swap_finding(ctx, start, word, reading, s, e, "the path word '%s'" % word)


def _path_swap(word: str, s: int, e: int) -> bool:
    """Whether a digit that :func:`_digit_swaps` reads as a letter is
    reported in a path word, which names files and tools far more often
    than a host does (``md5sum``, ``ext4magic``, ``sha1sum``, test files
    ``stc1E.n3``): only a single ``0`` or ``1``, the digits drawn like
    letters in most fonts (UTS #39 confusables: ``0`` o, ``1`` l), with
    letters on both sides in a lower-case word (``br0ken``), or a final
    ``1`` completing an "-al" or "-il" word (``paypa1``), counts.
    Leetspeak digits (``3`` e, ``4`` a, ``5`` s) read as digits there, and
    a mixed-case word is an identifier, not spelling."""
    if not (e - s == 1 and word[s] in _LETTER_DIGITS and 0 < s and word.islower()):
        return False
    return e < len(word) or word[s] == "1"  # between letters, or a final "-a1"/"-i1" (paypa1)
