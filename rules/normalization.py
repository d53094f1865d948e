"""Normalization rules: NFC (RFC 3987 s5.3.2.2) and compatibility characters."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import FrozenSet, Optional

from irilint.chars import FIND_EACH_MAX, distinct_non_ascii, first_positions, positions_of, to_nfc
from irilint.convert import percent_encode
from irilint.anatomy import describe, quoted

from .context import LITERAL, PERCENT
from .gates import nfc_sensitive
from .registry import rule

# A run of non-ASCII characters with the ASCII character before it: an ASCII
# character never composes with what precedes it, so NFC never reaches
# across one, and checking these runs alone finds every non-NFC spot.
# "[\x80-\U0010ffff]", not "[^\x00-\x7f]": re tests a plain range faster
# than a negated one (a megabyte of combining marks: 0.5 ms instead of 1).
_RUN_RE = re.compile(r"[\x00-\x7f]?[\x80-\U0010ffff]+")
#: A message quotes at most this many characters of the normalized text: a
#: run of a thousand combining marks is not read mark by mark.
SHOWN_NFC_CHARACTERS = 100


def _is_nfc(s: str) -> bool:
    return unicodedata.is_normalized("NFC", s)


@rule(name="not-nfc", code="IRI301", family="normalization", severity="warning",
      fix="safe", needs=("non_ascii", "percent"), gate=nfc_sensitive, specificity=30)
def not_nfc(ctx):
    """Text that is not in Normalization Form C.

    ## What it does
    Flags characters of an IRI that NFC would change, such as ``e`` followed
    by U+0301 COMBINING ACUTE ACCENT where ``é`` is expected.  Percent-encoded
    text that decodes to a non-NFC sequence is flagged too.  The finding
    covers the characters NFC changes, from the starter before them.

    ## Why
    RFC 3987 asks that IRIs be created in NFC.  Two IRIs that look the same
    but differ in normalization map to different URIs: a server comparing
    octets sees two resources, and a reader cannot tell them apart.

    ## Example
    ``http://example.org/re\\u0301sume\\u0301`` becomes
    ``http://example.org/résumé``.

    ## Fix safety
    Safe for literal characters: NFC is an equivalence of IRIs
    (RFC 3987 s5.3.2.2) and changes nothing a reader sees.  No fix is
    offered for percent-encoded text, whose octets are the URI itself.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s3.1 step 1, s5.3.2.2; UAX #15.
    """
    value = ctx.value
    if not value.isascii():
        value_chars = None
        for m in _RUN_RE.finditer(value):
            run = m.group()
            # One pass: NFC returns the text itself when its quick check
            # says it is normalized, and is_normalized would normalize as
            # much as this when it cannot tell.
            fixed = to_nfc(run)
            if fixed == run:
                continue
            s, e = m.start(), m.end()
            # The non-ASCII characters the run may hold: in a long run, the
            # value's when they are few (the engine has found them already)
            # rather than another pass over the run; any others are absent
            # from the run and change nothing below.
            chars = None
            if len(run) >= _LONG_RUN:
                if value_chars is None:
                    value_chars = distinct_non_ascii(value)
                if len(value_chars) <= FIND_EACH_MAX:
                    chars = value_chars
            if chars is None:
                chars = distinct_non_ascii(run)
            # The run reaches back to the ASCII character before it and on
            # over every non-ASCII character after it: the finding covers
            # only the part NFC changes.
            a, b = _changed_part(run, fixed, chars)
            if (a, b) != (0, len(run)):
                fixed = fixed[a:len(fixed) - (len(run) - b)]
                run = run[a:b]
                s, e = s + a, s + b
            # The first characters NFC changes, for the message: the run's
            # characters that are not in the normalized text (only the first
            # character of a run may be ASCII), a find each when they are few.
            if len(chars) <= FIND_EACH_MAX:
                gone = {c for c in chars if c not in fixed}
            else:
                kept = distinct_non_ascii(fixed)
                gone = {c for c in chars if c not in kept}
            if run[0] < "\x80" and run[0] not in fixed:
                gone.add(run[0])
            changed = [run[k] for k in first_positions(run, gone, 4)] or list(run[:4])
            fixes = []
            # A combining mark after the hex digit of an escape ("%ae" +
            # U+0301) would compose with the digit and break the escape,
            # changing the URI: no fix there.
            in_escape = value[s].isascii() and (
                value[s - 1:s] == "%" or value[max(0, s - 2):s - 1] == "%")
            if not in_escape:
                fixes.append(ctx.replace("Normalize to NFC", s, e, fixed, True))
            yield ctx.report(
                s, e,
                "not in NFC: %s; NFC gives %s" % (", ".join(describe(c) for c in changed[:4]),
                                                  quoted(fixed, SHOWN_NFC_CHARACTERS)),
                fixes)
    view = ctx.view
    if "%" in value and view.decoded_any:
        for m in _RUN_RE.finditer(view.text):
            i, j = m.start(), m.end()
            if not any(view.origins[k] == PERCENT for k in range(i, j)):
                continue
            if _is_nfc(m.group()):
                continue
            yield ctx.report_view(
                i, j, "percent-encoded text decodes to %s, which is not in NFC (NFC: %s)"
                % (quoted(m.group(), SHOWN_NFC_CHARACTERS),
                   quoted(to_nfc(m.group()), SHOWN_NFC_CHARACTERS)))


def _changed_part(run: str, fixed: str, chars: Optional[FrozenSet[str]] = None):
    """The narrowest ``[a, b)`` of ``run`` such that normalizing it alone
    gives ``fixed`` (``run[:a] + NFC(run[a:b]) + run[b:] == fixed``): the
    characters that differ, widened to the starters around them, since
    NFC composes and reorders only from a starter on.  ``chars``: non-ASCII
    characters among which are all of the run's (by default its own)."""
    n = len(run)
    a = _common_prefix_len(run, fixed)
    b = n - _common_suffix_len(run, fixed, min(n, len(fixed)) - a)
    # Widen to the starters with one regex search each way: a run of a
    # megabyte of combining marks is then C-level work, not a Python loop.
    if chars is None:
        chars = distinct_non_ascii(run)
    non_starters = frozenset(c for c in chars if not _is_starter(c))
    if non_starters:
        starter = re.compile("[^%s]" % "".join(re.escape(c) for c in sorted(non_starters)))
        if 0 < a < n and not _is_starter(run[a]):
            found = starter.search(run[a::-1])
            a = a - found.start() if found is not None else 0
        if b < n:
            found = starter.search(run, _past_copies(run, b, non_starters))
            b = n if found is None else found.start()
    if (a, b) == (0, n):  # the whole run: fixed is its NFC already
        return a, b
    if run[:a] + to_nfc(run[a:b]) + run[b:] != fixed:
        return 0, n
    return a, b


#: A run this long is not searched again for its characters (see not_nfc).
_LONG_RUN = 4096
_BLOCK = 4096


def _past_copies(text: str, i: int, marks: frozenset) -> int:
    """An offset at or after ``i`` with only copies of the one character of
    ``marks`` between: a megabyte of one repeated mark is skipped by
    comparing blocks (memcmp), not walked by a regex."""
    if len(marks) == 1:
        block = next(iter(marks)) * _BLOCK
        while text.startswith(block, i):
            i += _BLOCK
    return i


def _common_prefix_len(x: str, y: str) -> int:
    """The length of the longest common prefix of ``x`` and ``y``: a binary
    search over slice comparisons, each done in C, O(len) in all."""
    lo, hi = 0, min(len(x), len(y))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[lo:mid] == y[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix_len(x: str, y: str, limit: int) -> int:
    """The length of the longest common suffix of ``x`` and ``y``, at most
    ``limit``: the same binary search, on slices of the ends (no reversed
    copies)."""
    n, m = len(x), len(y)
    lo, hi = 0, min(limit, n, m)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[n - mid:n - lo] == y[m - mid:m - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _is_starter(c: str) -> bool:
    return unicodedata.combining(c) == 0


def _compat(ch: str) -> str:
    nfc = unicodedata.normalize("NFC", ch)
    return unicodedata.normalize("NFKC", nfc)


def _is_fullwidth_form(cp: int) -> bool:
    # Left to the fullwidth-form rule, which explains them better.
    return 0xFF01 <= cp <= 0xFF5E or 0xFF61 <= cp <= 0xFFDC or 0xFFE8 <= cp <= 0xFFEE


@lru_cache(maxsize=4096)
def _is_compatibility_character(ch: str) -> bool:
    """Does compatibility-character report ``ch``?"""
    if ch.isascii() or _is_fullwidth_form(ord(ch)):
        return False
    from .lookalike import delimiter_imitated

    if delimiter_imitated(ch) is not None:
        return False  # delimiter-lookalike reports it, as an error
    return _compat(ch) != unicodedata.normalize("NFC", ch)


@rule(name="compatibility-character", code="IRI302", family="normalization", severity="warning",
      fix="unsafe", needs=("non_ascii", "percent", "punycode"), gate=_is_compatibility_character,
      specificity=30)
def compatibility_character(ctx):
    """A compatibility character that NFKC would replace.

    ## What it does
    Flags characters such as ligatures (``ﬁ``), superscripts (``²``),
    circled forms (``①``), Roman numerals (``Ⅻ``), Arabic presentation
    forms and no-break spaces: characters whose NFKC form differs from
    their NFC form.  Full-width and half-width forms are left to
    ``fullwidth-form``.

    ## Why
    RFC 3987 s6.1 advises against them: they look like other text, IDNA
    maps them away in host names but nothing does in paths, so the IRI a
    reader types from what they see leads elsewhere.

    ## Example
    ``http://example.org/ﬁle`` holds U+FB01 LATIN SMALL LIGATURE FI;
    ``http://example.org/file`` is meant.

    ## Fix safety
    Replacing with NFKC is unsafe: it changes the URI, and the author may
    have meant the character.  Not offered where the result would have a
    finding the reference does not have.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s6.1; UAX #15 (NFKC).
    """
    view = ctx.view
    text = view.text
    if text.isascii():
        return
    # Each distinct character is judged once; only the flagged ones are
    # visited (a long run of one combining mark is one judgement).
    flagged = frozenset(ch for ch in view.non_ascii_chars if _is_compatibility_character(ch))
    for i in positions_of(text, flagged):
        ch = text[i]
        compat = _compat(ch)
        origin = view.origins[i]
        s, e = view.spans[i]
        fixes = []
        new = compat if origin == LITERAL else percent_encode(compat) if origin == PERCENT else None
        # Not offered where the result has a finding more (a run of
        # escapes split in two, a delimiter NFKC puts in).
        if new is not None and ctx.edit_adds_finding([(s, e, new)]) is None:
            fixes.append(ctx.replace("Replace with NFKC %s (unsafe)" % (quoted(new) if origin == LITERAL else new),
                                     s, e, new, False))
        yield ctx.report_view(
            i, i + 1, "%s is a compatibility character%s; NFKC gives %s"
            % (describe(ch), ctx.origin_note(i), quoted(compat)), fixes)
