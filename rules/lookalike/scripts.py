"""IRI203 mixed-script and IRI204 whole-script-confusable: scripts mixed
within a word or a host label (UTS #39 restriction levels), and labels
written wholly in another script that read as Latin.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Sequence, Tuple

from irilint.idn_display import (
    host_label_mixing,
    imitation,
    is_digit_label,
    latin_lookalike_script,
    map_label,
    scx_names,
    tld_allows_script,
)
from irilint.iri import LABEL_SPLIT_RE
from irilint.unicode_security import (
    general_category,
    LATIN,
    describe,
    RestrictionLevel,
    mixed_script,
    resolved_script_set,
    restriction_level,
    script_code,
    script_name,
    scripts_in,
    skeleton,
    whole_script_confusable,
)

from .. import gates
from ..context import Component
from ..registry import rule
from .common import _VIEW_TRAITS, _list_chars, _scripts_of, _show


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
    category = general_category(c)
    return category[0] in "LMN" or category == "Cf"


def _words(comp: Component) -> Iterable[Tuple[int, int]]:
    """View spans of the words of a path, query or fragment component: runs
    of letters, marks, digits and invisible format characters (ZWJ, ZWNJ,
    bidi controls)."""
    # Each character is mapped to "w" (a word character) or " " by
    # str.translate, each distinct one judged once; a pattern finds the runs.
    base = comp.view_start
    for m in _WORD_RUN_RE.finditer(comp.text.translate(_WORD_CLASS)):
        yield base + m.start(), base + m.end()


class _WordClass(dict):
    """code point -> "w" if _words counts it as a word character, else " "
    (filled as str.translate asks)."""

    def __missing__(self, cp: int) -> str:
        c = chr(cp)
        if len(self) >= 65536:
            self.clear()
        out = self[cp] = " " if c.isascii() and not c.isalnum() or not c.isascii() and not _is_word_char(c) else "w"
        return out


_WORD_CLASS = _WordClass()
_WORD_RUN_RE = re.compile("w+")


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


def _word_runs(text: str) -> List[str]:
    """The runs of word characters of ``text``, as _words cuts them."""
    return [text[m.start():m.end()] for m in _WORD_RUN_RE.finditer(text.translate(_WORD_CLASS))]


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
    for part in parts:
        if part.isascii():
            continue
        for word in _word_runs(part):
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
    (looks like ``d4000``) or Devanagari ``०२`` (``o2``); or every letter
    is one the browsers' skeleton draws like a Latin letter when it
    compares hosts (``irilint.lookalike_table``: Cyrillic ``ш м н т в``
    as ``w m h t b``), such as ``шмнтв``, which looks like ``wmhtb``.
    Chromium reports such a label only when its reading is on its list of
    top domains; irilint ships no list by default, so it reports every
    label that reads all Latin outside its script's TLDs (a Russian word
    such as ``мост`` under ``.com`` reads as ``moct``; under ``.ru`` it is
    not reported).  ``xn--`` labels
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
