"""Bidi rules: bidi formatting characters, the per-component rules of
draft-ietf-iri-bidi-guidelines ("Bidi IRI Structure") and the Bidi Rule of
IDNA (RFC 5893).

(One module, over 600 lines: the five bidi rules share the bidi classes and
the component helpers, and over a third of the length is their
documentation.)

Bidi classes come from :func:`unicodedata.bidirectional`, i.e. from the
Unicode version of the Python that runs irilint
(``unicodedata.unidata_version``: 13.0 on Python 3.9, 14.0 on 3.11, 15.0 on
3.12...).  Code points that version leaves unassigned get the default class
of their block (DerivedBidiClass.txt): R or AL in the right-to-left blocks,
so a letter newer than the running Python is still seen as right-to-left.

Decisions (see the rules' documentation):

* Bidi controls are never counted as strong characters by the component
  rules (U+200F RLM is class R, U+200E LRM class L): they are reported by
  ``bidi-control`` / ``bidi-control-encoded`` alone.
* ``bidi-mixed-direction`` and ``bidi-component-edge`` judge the components
  of ``ctx.components()`` (the extension of a file name is its own
  component) over the decoded view.  A component "uses right-to-left
  characters" when it has an R or AL character; Arabic-Indic digits (AN)
  alone do not make one (Example 10: a component of numbers only is
  allowed).
* ``bidi-component-edge`` does not report an edge that is a left-to-right
  letter when the component mixes directions: ``bidi-mixed-direction``
  already says so.  A component of right-to-left letters and digits gets
  only the edge finding.
* Host labels: mixing directions in a label always breaks the IDNA Bidi
  Rule, and so does a label with right-to-left letters that does not start
  with one, so those are left to ``idn-bidi-rule`` (an error there).  The
  only host-label case ``bidi-component-edge`` reports is a right-to-left
  label that ends with a digit, which the Bidi Rule allows (condition 3).
* ``idn-bidi-rule`` applies all six conditions of RFC 5893 s2 to every label
  of a domain name as soon as one label has an R, AL or AN character, so
  the guidelines' Examples 10 (``ab.CDEFGH.123``) and 11
  (``ab.CDEFGH.123ij``), "allowed but not recommended" for IRIs in general,
  are errors in a domain name: a label that starts with a digit breaks
  condition 1.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from typing import Dict, List, Optional, Tuple

from irilint.chars import BIDI_CONTROL_CHARS, BIDI_CONTROLS, SHORT_TEXT, distinct_non_ascii, first_of, positions_of
from irilint.convert import percent_encode_component
from irilint.anatomy import describe, visible_text

from . import gates
from .context import LITERAL, PERCENT, PUNYCODE
from .registry import rule

_RLO = "\u202e"

#: What each bidi control does to the display of the text around it (the
#: verb in the infinitive: "it would ..." / "it ...s").
_EFFECTS = {
    0x200E: "act as an invisible left-to-right letter, which changes the order "
            "in which the characters around it are displayed",
    0x200F: "act as an invisible right-to-left letter, which changes the order "
            "in which the characters around it are displayed",
    0x061C: "act as an invisible Arabic letter (right-to-left), which changes the "
            "order in which the characters around it are displayed",
    0x202A: "start a left-to-right embedding that reorders what follows",
    0x202B: "start a right-to-left embedding that reorders what follows",
    0x202C: "end an embedding or override started before it, possibly outside the IRI",
    0x202D: "force what follows to be displayed left to right",
    0x202E: "reverse the display of what follows",
    0x2066: "isolate what follows as left-to-right text",
    0x2067: "isolate what follows as right-to-left text, reordering it",
    0x2068: "isolate what follows with a direction guessed from its first letter",
    0x2069: "end an isolate started before it, possibly outside the IRI",
}

# Default Bidi_Class of unassigned code points (DerivedBidiClass.txt,
# Unicode 15.1): (first, last, class), sorted.
_DEFAULT_RTL = (
    (0x0590, 0x05FF, "R"), (0x0600, 0x07BF, "AL"), (0x07C0, 0x085F, "R"),
    (0x0860, 0x08FF, "AL"), (0xFB1D, 0xFB4F, "R"), (0xFB50, 0xFDCF, "AL"),
    (0xFDF0, 0xFDFF, "AL"), (0xFE70, 0xFEFF, "AL"), (0x10800, 0x10CFF, "R"),
    (0x10D00, 0x10D3F, "AL"), (0x10D40, 0x10EBF, "R"), (0x10EC0, 0x10EFF, "AL"),
    (0x10F00, 0x10F2F, "R"), (0x10F30, 0x10F6F, "AL"), (0x10F70, 0x10FFF, "R"),
    (0x1E800, 0x1EC6F, "R"), (0x1EC70, 0x1ECBF, "AL"), (0x1ECC0, 0x1ECFF, "R"),
    (0x1ED00, 0x1ED4F, "AL"), (0x1ED50, 0x1EDFF, "R"), (0x1EE00, 0x1EEFF, "AL"),
    (0x1EF00, 0x1EFFF, "R"),
)
_DEFAULT_STARTS = [r[0] for r in _DEFAULT_RTL]

_CLASS_NAMES = {
    "L": "a left-to-right letter", "R": "a right-to-left letter",
    "AL": "an Arabic letter", "EN": "a European digit", "AN": "an Arabic-Indic digit",
    "ES": "a number separator", "ET": "a number terminator",
    "CS": "a common number separator", "NSM": "a combining mark",
    "BN": "a boundary neutral", "B": "a paragraph separator", "S": "a segment separator",
    "WS": "white space", "ON": "a neutral character",
}

STRONG_RTL = frozenset(("R", "AL"))
RTL_ANY = frozenset(("R", "AL", "AN"))
# RFC 5893 s2, conditions 2 and 5.
_RTL_LABEL_ALLOWED = frozenset(("R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))
_LTR_LABEL_ALLOWED = frozenset(("L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))

_BIDI_CONTROL_RE = re.compile("[%s]" % BIDI_CONTROL_CHARS)
_ASCII_LETTER_RE = re.compile("[A-Za-z]")
_MIRROR = {"(": ")", ")": "(", "<": ">", ">": "<", "[": "]", "]": "[", "{": "}", "}": "{"}
_MAX_SHOWN = 80


def bidi_class(ch: str) -> str:
    """The Bidi_Class of ``ch``, with the block default for unassigned
    code points in right-to-left blocks (L elsewhere)."""
    c = unicodedata.bidirectional(ch)
    if c:
        return c
    cp = ord(ch)
    k = bisect.bisect_right(_DEFAULT_STARTS, cp) - 1
    if k >= 0 and cp <= _DEFAULT_RTL[k][1]:
        return _DEFAULT_RTL[k][2]
    return "L"


def _class_name(cls: str) -> str:
    return _CLASS_NAMES.get(cls, "of bidi class %s" % cls)


def visible(text: str) -> str:
    """``text`` with its bidi controls and other invisible characters
    written as ``<U+XXXX>``, shortened for a message."""
    if len(text) > _MAX_SHOWN:
        text = text[:_MAX_SHOWN - 1] + "\u2026"
    return visible_text(text)


# -- where a character is ----------------------------------------------------

def _view_index(view, value_offset: int) -> int:
    """The view character produced from ``value_offset``."""
    return view.index_of(value_offset)


def _place(ctx, i: int) -> Tuple[str, str]:
    """(what, text) of the part of the reference that holds view character
    ``i``: the userinfo, a host label, a whole path segment (extension
    included), a query name or value, the fragment.

    The labels, segments and query parts are found by bisection in a list
    built once per reference: a rule calls this for every finding, and a
    long IRI may hold thousands of both."""
    vref = ctx.view_ref
    text = ctx.view.text
    places = getattr(ctx, "_bidi_places", None)
    if places is None:
        fine = [(lab.start, lab.end, "host label") for lab in vref.host_labels]
        fine += [(seg.start, seg.end, "path segment") for seg in vref.segments]
        for name, val in vref.query_parts:
            fine.append((name.start, name.end, "query name"))
            if val is not None:
                fine.append((val.start, val.end, "query value"))
        fine = sorted(f for f in fine if f[0] < f[1])  # disjoint once empty ones are out
        places = ctx._bidi_places = (fine, [f[0] for f in fine])
    fine, starts = places

    def inside(span) -> bool:
        return span is not None and span.start <= i < span.end

    if inside(vref.userinfo):
        return "userinfo", text[vref.userinfo.start:vref.userinfo.end]
    k = bisect.bisect_right(starts, i) - 1
    if k >= 0 and i < fine[k][1]:
        s, e, what = fine[k]
        return what, text[s:e]
    if inside(vref.host):
        return "host", text[vref.host.start:vref.host.end]
    if inside(vref.query):
        return "query", text[vref.query.start:vref.query.end]
    if inside(vref.fragment):
        return "fragment", text[vref.fragment.start:vref.fragment.end]
    for name in ("scheme", "port", "authority"):
        span = getattr(vref, name)
        if inside(span):
            return name, text[span.start:span.end]
    return "reference", text


def _reads_as(text: str, i: int) -> Optional[str]:
    """How ``text`` is displayed when ``text[i]`` is U+202E RIGHT-TO-LEFT
    OVERRIDE: what follows it is shown reversed (mirrored brackets).  Only
    computed when that is certain: nothing before it is right-to-left and no
    other bidi control follows."""
    if text[i] != _RLO:
        return None
    before, after = text[:i], text[i + 1:]
    if any(ord(c) in BIDI_CONTROLS for c in after):
        return None
    if any(bidi_class(c) in RTL_ANY or ord(c) in BIDI_CONTROLS for c in before):
        return None
    shown = before + "".join(_MIRROR.get(c, c) for c in reversed(after))
    if len(shown) > _MAX_SHOWN:
        return None
    return shown


def _effect(ctx, i: int, would: bool) -> str:
    """What bidi control ``ctx.view.text[i]`` does: "it reverses ..." or,
    with ``would``, "it would reverse ..."."""
    ch = ctx.view.text[i]
    verb, _, rest = _EFFECTS.get(ord(ch), "change how the text around it is displayed").partition(" ")
    effect = "it %s %s" % ("would " + verb if would else verb + "s", rest)
    shown = _reads_as(ctx.view.text, i)
    if shown is not None:
        effect += ", so the reference %s shown as \"%s\"" % ("would be" if would else "is", visible_text(shown))
    return effect


# -- bidi-control ------------------------------------------------------------

def _is_bidi_control_char(c: str) -> bool:
    return ord(c) in BIDI_CONTROLS


def _is_rtl_any_char(c: str) -> bool:
    """R, AL or AN: without one, no component is right-to-left (gate of
    the per-component rules and of idn-bidi-rule)."""
    return bidi_class(c) in RTL_ANY


@rule(name="bidi-control", code="IRI101", family="bidi", severity="error",
      fix="unsafe", needs=("non_ascii",), gate=_is_bidi_control_char, specificity=40)
def bidi_control(ctx):
    """A bidi formatting character inside an IRI.

    ## What it does
    Flags the bidi formatting characters U+200E LEFT-TO-RIGHT MARK, U+200F
    RIGHT-TO-LEFT MARK, U+061C ARABIC LETTER MARK, U+202A-U+202E (LRE, RLE,
    PDF, LRO, RLO) and U+2066-U+2069 (LRI, RLI, FSI, PDI) written literally
    in a reference, or through a character reference such as ``&#x202E;``
    in HTML and XML.  The percent-encoded forms are ``bidi-control-encoded``.

    ## Why
    RFC 3987 s4.1 forbids them: they are invisible and reorder what is
    displayed, so the IRI a reader sees is not the one a program follows.
    U+202E RIGHT-TO-LEFT OVERRIDE is the classic file-name spoof:
    ``abc<U+202E>gpj.exe`` is shown as ``abcexe.jpg``.

    ## Example
    ``http://example.com/abc\\u202Egpj.exe`` (shown as
    ``http://example.com/abcexe.jpg``) should be
    ``http://example.com/abcgpj.exe``, or whatever was really meant.

    ## Fix safety
    Removing the character is unsafe: it changes the reference, and it
    cannot tell what the author meant the link to look like.  Not offered
    where the reference would have a finding more without it.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s4.1; draft-ietf-iri-bidi-guidelines s4; Unicode Technical
    Report #36 (Unicode Security Considerations) s2.
    """
    value = ctx.value
    if _BIDI_CONTROL_RE.search(value) is None:
        return
    view = ctx.view
    for m in _BIDI_CONTROL_RE.finditer(value):
        k = m.start()
        ch = value[k]
        i = _view_index(view, k)
        what, text = _place(ctx, i)
        message = "%s in the %s \"%s\": %s" % (describe(ch), what, visible(text), _effect(ctx, i, False))
        yield ctx.report(k, k + 1, message,
                         _unless_new_finding(ctx, "Remove %s (unsafe)" % describe(ch), [(k, k + 1, "")]))


# -- bidi-control-encoded ----------------------------------------------------

@rule(name="bidi-control-encoded", code="IRI102", family="bidi", severity="error",
      fix="unsafe", needs=("percent", "punycode"), specificity=40)
def bidi_control_encoded(ctx):
    """A percent-encoded bidi formatting character.

    ## What it does
    Flags escapes that decode to a bidi formatting character, in any hex
    case: ``%E2%80%8E`` and ``%E2%80%8F`` (LRM, RLM), ``%D8%9C`` (ALM),
    ``%E2%80%AA``-``%E2%80%AE`` (LRE, RLE, PDF, LRO, RLO) and
    ``%E2%81%A6``-``%E2%81%A9`` (LRI, RLI, FSI, PDI).  A bidi control hidden
    in a Punycode host label (which IDNA forbids) is flagged too.

    ## Why
    Percent-encoded, the character is harmless octets, and RFC 3987 s3.2
    keeps it encoded when a URI is converted to an IRI.  But a tool that
    decodes it anyway (a browser's address bar, a log viewer, a naive
    "unescape") brings back the spoof: ``%E2%80%AE`` reverses the display of
    what follows.  There is no good reason for a link to hold one.

    ## Example
    ``http://example.com/abc%E2%80%AEgpj.exe`` decodes to a name shown as
    ``abcexe.jpg``.

    ## Fix safety
    No safe fix: the escape is part of the URI, so removing it changes which
    resource the link names.  Removing it is offered as an unsafe fix,
    except where the reference would have a finding more without it (the
    escape split what then becomes one mixed-script word, or one ``.``
    segment).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s3.2 step 5 and s4.1; Unicode Technical Report #36 s2.
    """
    view = ctx.view
    if not view.decoded_any:
        return
    value = ctx.value
    for m in _BIDI_CONTROL_RE.finditer(view.text):
        i = m.start()
        ch = m.group()
        origin = view.origins[i]
        if origin == LITERAL:
            continue  # bidi-control
        s, e = view.spans[i]
        what, text = _place(ctx, i)
        if origin == PERCENT:
            message = ("%s encodes %s in the %s \"%s\"; RFC 3987 s3.2 keeps it percent-encoded "
                       "because, decoded, %s"
                       % (value[s:e], describe(ch), what, visible(text), _effect(ctx, i, True)))
            yield ctx.report(s, e, message, _unless_new_finding(
                ctx, "Remove %s (unsafe: changes the URI)" % value[s:e], [(s, e, "")]))
        elif origin == PUNYCODE:
            message = ("%s is hidden in the Punycode label %s (IDNA forbids it): decoded, %s"
                       % (describe(ch), value[s:e], _effect(ctx, i, True)))
            yield ctx.report(s, e, message)


# -- the per-component rules -------------------------------------------------

def _strong(text: str, skip_controls: bool = True) -> List[Tuple[int, str]]:
    """(index, class) of the characters that count for direction."""
    found = _classes_of(text)
    if skip_controls and _BIDI_CONTROL_RE.search(text) is not None:
        keep = bytearray(b"\x01") * len(text)
        for m in _BIDI_CONTROL_RE.finditer(text):
            keep[m.start()] = 0
        return list(compress(enumerate(found), keep))
    return list(enumerate(found))


def _classes_of(text: str) -> List[str]:
    """bidi_class of each character of ``text``."""
    # each character's class is looked up once in a table (a call per
    # character was most of the cost of the per-component rules), and the
    # text is walked by map, in C
    classes = _CLASSES
    found = list(map(classes.get, text))
    if None in found:
        missing = [ch for ch in dict.fromkeys(text) if ch not in classes]
        if len(classes) + len(missing) > 65536:
            classes.clear()
            missing = list(dict.fromkeys(text))
        for ch in missing:
            classes[ch] = bidi_class(ch)
        found = list(map(classes.__getitem__, text))
    return found


#: character -> bidi_class(character), for _classes_of
_CLASSES: Dict[str, str] = {}


def _unless_new_finding(ctx, title: str, edits) -> list:
    """The unsafe fix of ``edits``, or no fix when the reference would have
    a finding more after it: removing a control can join words it split
    (mixed-script) or make a "." segment, encoding a literal control makes
    an encoded one.  The finding stays; the fix that makes another problem
    is not offered."""
    if ctx.edit_adds_finding(edits) is not None:
        return []
    return [ctx.fix(title, edits, False)]


def _component_fix(ctx, c):
    """The unsafe fix that percent-encodes the whole component, or None
    (host labels, components already in URI form, and where the encoded
    component would have a finding more, e.g. a literal bidi control that
    becomes an encoded one: that control's own fix comes first)."""
    if c.kind == "host-label":
        return None
    old = ctx.value[c.start:c.end]
    new = percent_encode_component(old)
    if new == old:
        return None
    shown = new if len(new) <= 60 else new[:57] + "..."
    fixes = _unless_new_finding(ctx, "Percent-encode the whole %s: %s (unsafe)" % (c.label, shown),
                                [(c.start, c.end, new)])
    return fixes[0] if fixes else None


def _shows_rtl(ctx, c) -> bool:
    """Whether component ``c`` (not a host label) shows a right-to-left
    letter: one written as itself, not percent-encoded.  A component whose
    right-to-left letters are all encoded is displayed as ASCII escapes,
    the guidelines' remedy for components that break rules 1 and 2
    (RFC 3987 s4.2): nothing in it is reordered.  Bidi controls hidden in
    escapes are bidi-control-encoded's, which still reports them."""
    view = ctx.view
    if not view.decoded_any:
        return True
    # Only the right-to-left letters are visited: each distinct character
    # is classed once.
    distinct = "".join(distinct_non_ascii(c.text))
    rtl = frozenset(compress(distinct, map(STRONG_RTL.__contains__, _classes_of(distinct))))
    if not rtl:
        return False
    origins = view.origins
    base = c.view_start
    return any(origins[base + k] != PERCENT for k in positions_of(c.text, rtl))


def _note(ctx, c, k: int) -> str:
    """Origin note for character ``k`` of component ``c``."""
    return ctx.origin_note(c.view_start + k)


def _has_strong_rtl(text: str) -> bool:
    if len(text) < SHORT_TEXT:
        return _has_strong_rtl_short(text)
    # Which characters occur matters, not how often; ASCII is never R or AL.
    return any(bidi_class(ch) in STRONG_RTL for ch in distinct_non_ascii(text) if ord(ch) not in BIDI_CONTROLS)


@lru_cache(maxsize=4096)
def _has_strong_rtl_short(text: str) -> bool:
    # Kept per text: IRIs of a document repeat their labels and segments.
    return not STRONG_RTL.isdisjoint(map(itemgetter(1), _strong(text)))


def _mixing(text: str) -> Optional[Tuple[int, int]]:
    """(index of first R/AL, index of first L), or None when the text does
    not mix directions."""
    if len(text) < SHORT_TEXT:
        return _mixing_short(text)
    # Long text: classify each distinct character once, then find the
    # first of each side with one regex search.
    # (ASCII: only the letters are L, and nothing is R or AL.)
    distinct = [c for c in distinct_non_ascii(text) if ord(c) not in BIDI_CONTROLS]
    rtl_chars = frozenset(c for c in distinct if bidi_class(c) in STRONG_RTL)
    if not rtl_chars:
        return None
    ltr = first_of(text, frozenset(c for c in distinct if bidi_class(c) == "L"))
    letter = _ASCII_LETTER_RE.search(text)
    if letter is not None and (ltr < 0 or letter.start() < ltr):
        ltr = letter.start()
    if ltr < 0:
        return None
    return first_of(text, rtl_chars), ltr


def _has_rtl_any(text: str) -> bool:
    """Does ``text`` hold an R, AL or AN character?"""
    if len(text) < SHORT_TEXT:
        return _has_rtl_any_short(text)
    return any(bidi_class(ch) in RTL_ANY for ch in distinct_non_ascii(text))  # ASCII never is


@lru_cache(maxsize=4096)
def _has_rtl_any_short(text: str) -> bool:
    return not RTL_ANY.isdisjoint(_classes_of(text))


@lru_cache(maxsize=4096)
def _mixing_short(text: str) -> Optional[Tuple[int, int]]:
    # Kept per text: IRIs of a document repeat their labels and segments.
    # The first R or AL and the first L, found by compress (in C).
    strong = _strong(text)
    rtl = next(compress(strong, map(STRONG_RTL.__contains__, map(itemgetter(1), strong))), None)
    if rtl is None:
        return None
    ltr = next(compress(strong, map("L".__eq__, map(itemgetter(1), strong))), None)
    if ltr is None:
        return None
    return rtl[0], ltr[0]


@rule(name="bidi-mixed-direction", code="IRI103", family="bidi", severity="warning",
      fix="unsafe", needs=("non_ascii", "percent", "punycode"), gate=_is_rtl_any_char)
def bidi_mixed_direction(ctx):
    """A component that mixes right-to-left and left-to-right letters.

    ## What it does
    Flags each bidi component (the userinfo, a path segment, a file
    extension, a query name or value, the fragment) that holds both strong
    right-to-left characters (Hebrew, Arabic, Syriac, Thaana, N'Ko...) and
    strong left-to-right characters (Latin, Greek, Cyrillic, Han...).
    Percent-encoded and Punycode text is judged decoded, but a component
    whose right-to-left letters are all percent-encoded is shown as ASCII
    escapes, the guidelines' remedy, and is not flagged.  Digits,
    punctuation and combining marks take no side.  Host labels are left to
    ``idn-bidi-rule``, whose Bidi Rule forbids the same thing there.

    ## Why
    The bidi algorithm splits such a component into runs displayed in
    different directions, and the runs of neighbouring components join
    them: readers cannot tell where one component ends, nor type back the
    IRI they see.  The bidi guidelines (rule 1) say a component SHOULD NOT
    use both directions.

    ## Example
    In Bidi Notation (uppercase letters stand for Hebrew or Arabic ones),
    ``http://example.com/docs-TIUD`` mixes "docs" with Hebrew: use two
    segments (``/docs/TIUD``) or percent-encode the segment.

    ## Fix safety
    Percent-encoding the whole component (the guidelines' remedy) is offered
    as unsafe: the URI stays the same, but readers lose the readable text,
    and the author may prefer to rename.  No fix for host labels, nor where
    the encoded component would have a finding more (a literal bidi
    control becomes an encoded one: its own fix comes first).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    draft-ietf-iri-bidi-guidelines, "Bidi IRI Structure" rule 1;
    RFC 3987 s4.2.
    """
    if gates.ENABLED and not ctx.view.decoded_any:
        # The view is the value, and every component but the host labels
        # lies before or after the host: a component mixes directions only
        # if the text it lies in does.
        value, host = ctx.value, ctx.ref.host
        parts = (value,) if host is None else (value[:host.start], value[host.end:])
        if all(_mixing(p) is None for p in parts):
            return
    for c in ctx.components():
        if c.kind == "host-label":
            continue
        m = _mixing(c.text)
        if m is None:
            continue
        if not _shows_rtl(ctx, c):
            continue
        rtl, ltr = m
        message = ("the %s \"%s\" mixes right-to-left and left-to-right characters (%s%s and %s%s): "
                   "its parts may be displayed in another order than they are read"
                   % (c.label, visible(c.text), describe(c.text[rtl]), _note(ctx, c, rtl),
                      describe(c.text[ltr]), _note(ctx, c, ltr)))
        fix = _component_fix(ctx, c)
        yield ctx.report(c.start, c.end, message, [fix] if fix else [])


def breaks_component_rules(text: str) -> bool:
    """Whether ``bidi-mixed-direction`` or ``bidi-component-edge`` would
    flag a (non-host) component whose decoded text is ``text``: the
    guidelines' remedy is then to keep the component percent-encoded, so
    ``percent-encoded-text`` must not offer to decode it."""
    if not _has_strong_rtl(text):
        return False
    if _mixing(text) is not None:
        return True
    first, last = _effective_edges(text)
    return first is None or last is None or bidi_class(text[first]) not in STRONG_RTL \
        or bidi_class(text[last]) not in STRONG_RTL


def _effective_edges(text: str) -> Tuple[Optional[int], Optional[int]]:
    """Indexes of the first and last characters that decide the direction
    at the edges of a component: bidi controls and boundary neutrals (ZWNJ,
    ZWJ...) are skipped, and trailing combining marks take the direction of
    the character they follow.  A leading combining mark counts as itself
    (it follows a delimiter, so it is neutral)."""
    idx = [k for k, cls in _strong(text) if cls != "BN"]
    if not idx:
        return None, None
    first = idx[0]
    j = len(idx) - 1
    while j > 0 and bidi_class(text[idx[j]]) == "NSM":
        j -= 1
    return first, idx[j]


def _escape_around(text: str, k: int, at_end: bool) -> Optional[str]:
    """The ASCII escape ``%XX`` the edge character ``k`` is part of."""
    hexd = "0123456789ABCDEFabcdef"
    if at_end and k >= 2 and text[k - 2] == "%" and text[k - 1] in hexd and text[k] in hexd:
        return text[k - 2:k + 1]
    if not at_end and text[k] == "%" and len(text) >= k + 3 and all(h in hexd for h in text[k + 1:k + 3]):
        return text[k:k + 3]
    return None


def _edge_text(ctx, c, k: int, at_end: bool) -> str:
    ch = c.text[k]
    esc = _escape_around(c.text, k, at_end)
    if esc is not None:
        return "the escape %s (shown as is; %s is %s)" % (esc, describe(ch), _class_name(bidi_class(ch)))
    return "%s%s, %s" % (describe(ch), _note(ctx, c, k), _class_name(bidi_class(ch)))


@rule(name="bidi-component-edge", code="IRI104", family="bidi", severity="warning",
      fix="unsafe", needs=("non_ascii", "percent", "punycode"), gate=_is_rtl_any_char)
def bidi_component_edge(ctx):
    """A right-to-left component that does not start and end with a right-to-left letter.

    ## What it does
    Flags each bidi component that holds right-to-left letters (R or AL) but
    starts or ends with something else: a digit, punctuation, a ``%XX``
    escape, a left-to-right letter.  Combining marks at the end of a word
    (Hebrew points, Arabic harakat) count as the letter they follow, and
    invisible joiners (ZWNJ, ZWJ) are skipped.  Digits inside a component
    are fine (Example 7 of the guidelines).  An edge that is a left-to-right
    letter of a component that mixes directions is left to
    ``bidi-mixed-direction``.  A component whose right-to-left letters are
    all percent-encoded is displayed as ASCII escapes (the guidelines'
    remedy) and is not flagged.  Host labels are judged by ``idn-bidi-rule``,
    except a right-to-left label ending with a digit, which the Bidi Rule of
    IDNA allows but the guidelines do not.

    ## Why
    Weak characters at the edge of a right-to-left component attach to the
    neighbouring component in display.  In ``/GH1/2IJ/`` (Example 8 of the
    guidelines, with Arabic or Hebrew letters) the bidi algorithm reads
    ``1/2`` as a fraction and the segments are shown out of order; encoding
    the digits (``/GH%31/%32IJ/``, Example 9) does not help, since ``%31``
    is displayed as it is.

    ## Example
    In Bidi Notation (uppercase letters stand for Hebrew or Arabic ones),
    ``http://ab.cd.ef/GH1/2IJ/KL.html`` (Example 8): the segments ``GH1``
    and ``2IJ`` are flagged.  Move the digits inside the component, or
    percent-encode the whole component: ``/%D7%96%D7%971/`` for ``GH1``
    written in Hebrew.

    ## Fix safety
    Percent-encoding the whole component (the guidelines' remedy: the whole
    component must be encoded, see their Example 9) is offered as unsafe:
    the URI does not change but the readable text is lost.  No fix for host
    labels or components that are already percent-encoded, nor where the
    encoded component would have a finding more.

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    draft-ietf-iri-bidi-guidelines, "Bidi IRI Structure" rule 2 and
    Examples 7-9; RFC 3987 s4.2.
    """
    for c in ctx.components():
        text = c.text
        if not _has_strong_rtl(text):
            continue
        first, last = _effective_edges(text)
        if first is None or last is None:
            continue
        mixed = _mixing(text) is not None
        host = c.kind == "host-label"
        problems = []
        fc = bidi_class(text[first])
        if fc not in STRONG_RTL and not host and not (mixed and fc == "L"):
            problems.append("starts with %s" % _edge_text(ctx, c, first, False))
        lc = bidi_class(text[last])
        if lc not in STRONG_RTL and not (mixed and lc == "L"):
            # The Bidi Rule (condition 3) allows a digit at the end of an RTL
            # label: that is the only host-label case judged here.
            if not host or (lc in ("EN", "AN") and bidi_class(text[first]) in STRONG_RTL and not mixed):
                problems.append("ends with %s" % _edge_text(ctx, c, last, True))
        if not problems or not (host or _shows_rtl(ctx, c)):
            continue
        message = ("the %s \"%s\" uses right-to-left characters but %s; "
                   "what is not right-to-left at its edge may be displayed with the neighbouring "
                   "component (the guidelines' Example 8: \"1/2\" reads as a fraction)"
                   % (c.label, visible(text), " and ".join(problems)))
        fix = _component_fix(ctx, c)
        yield ctx.report(c.start, c.end, message, [fix] if fix else [])


# -- idn-bidi-rule -----------------------------------------------------------

def bidi_rule_violations(label: str) -> List[Tuple[int, str]]:
    """The conditions of the Bidi Rule (RFC 5893 s2) that ``label`` breaks,
    as (condition number, explanation).  The rule applies to every label of
    a domain name that has a right-to-left label (one with an R, AL or AN
    character)."""
    if not label:
        return []
    out: List[Tuple[int, str]] = []
    classes = _classes_of(label)
    first = classes[0]
    if first in STRONG_RTL:
        rtl = True
    elif first == "L":
        rtl = False
    else:
        out.append((1, "it starts with %s (%s, class %s); a label must start with a left-to-right "
                       "or right-to-left letter (L, R or AL)" % (describe(label[0]), _class_name(first), first)))
        rtl = any(c in RTL_ANY for c in classes)
    allowed = _RTL_LABEL_ALLOWED if rtl else _LTR_LABEL_ALLOWED
    bad = []
    for ch, cls in zip(label, classes):
        if cls not in allowed and ch not in bad:
            bad.append(ch)
    kind = "right-to-left" if rtl else "left-to-right"
    if bad:
        shown = ", ".join("%s (%s)" % (describe(ch), bidi_class(ch)) for ch in bad[:3])
        if len(bad) > 3:
            shown += " and %d more" % (len(bad) - 3)
        out.append((2 if rtl else 5, "a %s label may not contain %s" % (kind, shown)))
    j = len(label) - 1
    while j >= 0 and classes[j] == "NSM":
        j -= 1
    end_ok = ("R", "AL", "EN", "AN") if rtl else ("L", "EN")
    if j < 0:
        out.append((3 if rtl else 6, "it has only combining marks"))
    elif classes[j] not in end_ok:
        out.append((3 if rtl else 6, "a %s label must end with %s, not %s (%s)" % (
            kind, "a right-to-left letter or a digit" if rtl else "a left-to-right letter or a European digit",
            describe(label[j]), classes[j])))
    if rtl and "EN" in classes and "AN" in classes:
        en = label[classes.index("EN")]
        an = label[classes.index("AN")]
        out.append((4, "it mixes European digits (%s) and Arabic-Indic digits (%s)"
                       % (describe(en), describe(an))))
    out.sort(key=lambda p: p[0])
    return out


@rule(name="idn-bidi-rule", code="IRI105", family="bidi", severity="error",
      fix="none", needs=("non_ascii", "percent", "punycode"), gate=_is_rtl_any_char)
def idn_bidi_rule(ctx):
    """A domain name that breaks the Bidi Rule of IDNA (RFC 5893).

    ## What it does
    As soon as one label of a host name holds a right-to-left character (R,
    AL or AN: Hebrew, Arabic, Arabic-Indic digits...), checks every label of
    the name, left-to-right ones included, against the six conditions of the
    Bidi Rule.  Labels written as Punycode (``xn--``) or percent-encoded are
    checked decoded.  IP addresses are not domain names and are skipped.

    ## Why
    IDNA2008 requires the Bidi Rule of every label of a "bidi domain name",
    so registries and browsers refuse names that break it (the ``idna``
    package checks only the labels that have right-to-left letters, so it
    misses e.g. a digit-first label next to an Arabic one).  The rule makes
    sure the labels of a domain name are displayed in an order that
    cannot be confused with another name: in ``ab.CDEFGH.123`` (the
    guidelines' Example 10) the ``123`` is displayed next to ``ab``, before
    the right-to-left label it follows.  That is why the guidelines'
    Examples 10 and 11, allowed in other components, are errors here.

    ## Example
    In Bidi Notation (uppercase letters stand for Hebrew or Arabic ones),
    ``http://ABCD.123/`` breaks condition 1: the label ``123`` starts with
    a digit.  ``http://ABc.com/`` breaks condition 2 (Latin ``c`` in a
    right-to-left label) and condition 3 (it does not end with a
    right-to-left letter or a digit).

    ## Fix safety
    No fix: the name is chosen by its owner.

    ## Reference
    RFC 5893 s1.4 and s2; RFC 5891 s5.4; draft-ietf-iri-bidi-guidelines,
    "Bidi IRI Structure".
    """
    labels = [c for c in ctx.components() if c.kind == "host-label"]
    if not labels:
        return
    rtl_label = next((c for c in labels if _has_rtl_any(c.text)), None)
    if rtl_label is None:
        return
    vref = ctx.view_ref
    domain = ctx.view.text[vref.host.start:vref.host.end] if vref.host is not None else ""
    for c in labels:
        problems = bidi_rule_violations(c.text)
        if not problems:
            continue
        why = ""
        if c is not rtl_label and not _has_rtl_any(c.text):
            why = ", a bidi domain name because the label \"%s\" has right-to-left characters" % visible(
                rtl_label.text)
        note = ""
        if any(o == PUNYCODE for o in ctx.view.origins[c.view_start:c.view_end]):
            note = " (Punycode %s)" % ctx.value[c.start:c.end]
        message = "the host label \"%s\"%s breaks the Bidi Rule of RFC 5893 in \"%s\"%s: %s" % (
            visible(c.text), note, visible(domain), why,
            "; ".join("condition %d: %s" % p for p in problems))
        yield ctx.report(c.start, c.end, message)
