"""IDN display policy rules: what browsers refuse to show in a host label.

Browsers show an internationalized host label in Unicode only when it
passes their display policy (Chromium's "IDN display policy", Firefox's
IDN display algorithm, UTS #39); otherwise they show Punycode.  These rules
report the steps of that policy that ``mixed-script`` (restriction levels)
and ``whole-script-confusable`` do not: characters that are not Allowed,
digit look-alikes, dangerous patterns and characters tied to a TLD.  The
policy itself is :mod:`irilint.idn_display`; here each host label is
mapped as IDNA does, judged (once per host and allowed scripts), and the
finding placed on its characters.

Each rule reads the decoded view, so a label written as ``xn--`` or
percent-encoded is judged in its Unicode form and the finding points at
the A-label or the escapes.  None has a fix: which name was meant only a
person can tell.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, Iterator, List, Optional, Tuple

from irilint.idn_display import (
    DIGIT_RULE,
    PATTERN_RULE,
    RESTRICTED_RULE,
    TLD_CHAR_RULE,
    Issue,
    imitation,
    label_issues,
    map_label,
)

from irilint.iri import IDNA_DOTS

from .lookalike import _allowed_scripts, _delimiter_at, _show
from .registry import rule

_VIEW_TRAITS = ("non_ascii", "percent", "punycode")


#: One judged label: its text in the view, where it starts in the host, its
#: mapped form, and an issue of the policy.
_Judged = Tuple[str, int, str, Issue]


@lru_cache(maxsize=8192)
def _judge_host(host: str, allowed: Tuple[str, ...]) -> Tuple[_Judged, ...]:
    """Every policy issue of every non-ASCII label of ``host`` (the view's
    host text), with the label's offset in the host.  Kept per host: a
    document repeats its hosts, and the four rules ask for the same host."""
    labels = [(m.start(), m.end()) for m in _LABEL_RE.finditer(host)]
    if not labels:
        return ()
    tld = map_label(host[labels[-1][0]:labels[-1][1]])
    out: List[_Judged] = []
    for s, e in labels:
        text = host[s:e]
        if text.isascii():
            continue
        mapped = map_label(text)
        for issue in label_issues(mapped, tld, allowed):
            out.append((text, s, mapped, issue))
    return tuple(out)


_LABEL_RE = re.compile("[^.%s]+" % IDNA_DOTS)


def _issues(ctx, rule_name: str) -> Iterator[Tuple[str, int, str, Issue]]:
    """(label text, view offset of the label, mapped label, issue) for the
    issues of ``rule_name`` in the reference's host."""
    vref = ctx.view_ref
    h = vref.host
    if h is None or vref.host_kind != "reg-name":
        return
    host = ctx.view.text[h.start:h.end]
    if host.isascii():
        return  # only non-ASCII host labels are judged
    for text, offset, mapped, issue in _judge_host(host, _allowed_scripts(ctx)):
        if issue.rule == rule_name:
            yield text, h.start + offset, mapped, issue


def _span(start: int, text: str, mapped: str, issue: Issue) -> Tuple[int, int]:
    """View span of the characters at fault: exact when IDNA mapping kept
    the label's length (so offsets correspond), else the whole label."""
    if issue.positions and len(mapped) == len(text):
        return start + min(issue.positions), start + max(issue.positions) + 1
    return start, start + len(text)


def _delimiter_reported(ctx, start: int, text: str, mapped: str, issue: Issue) -> bool:
    """Are all the characters at fault reported by ``delimiter-lookalike``
    (one root cause, one finding)?"""
    if not issue.positions or len(mapped) != len(text):
        return False
    view_text = ctx.view.text
    return all(_delimiter_at(ctx, view_text, start + p) is not None for p in issue.positions)


def _report(ctx, start: int, text: str, mapped: str, issue: Issue, what: str,
            imitations: Dict[str, Optional[str]]):
    """The finding of ``issue``; ``imitations``: the labels' imitations so
    far, kept for the rule's other findings in the label (each read the
    whole label again: 4,000 findings in a label of 16,000 characters
    took 15 s)."""
    i, j = _span(start, text, mapped, issue)
    if "looks like" in issue.reason:
        looks = ""
    else:
        if mapped not in imitations:
            imitations[mapped] = imitation(mapped)
        im = imitations[mapped]
        looks = "; the label looks like '%s'" % im if im else ""
    message = "the host label %s fails the browsers' IDN display policy (%s): %s%s%s" % (
        _show(text), what, issue.reason, looks, ctx.origin_note(i))
    return ctx.report_view(i, j, message)


@rule(name=RESTRICTED_RULE, code="IRI208", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def idn_restricted_character(ctx):
    """A host label character that UTS #39 does not allow in identifiers.

    ## What it does
    Checks each character of each non-ASCII host label, after IDNA mapping
    (UTS #46: lowercase, width folding, NFC), against UTS #39 s3.1
    Identifier_Status.  A character that is not Allowed is reported with
    its Identifier_Type: Limited_Use (scripts such as Tifinagh, Canadian
    Syllabics, Cherokee), Exclusion, Obsolete, Technical, Uncommon_Use,
    Not_XID (symbols, punctuation), Deprecated, Not_NFKC.  Also reported:
    the few Allowed characters that browsers exclude all the same
    (Chromium's allowed set, after Mozilla's blocklist): U+0138 LATIN
    SMALL LETTER KRA, the Pinyin letters U+01CD-U+01DC, U+02BB/U+02BC, U+02EC,
    U+0338, U+058A, U+2010, U+2019, U+2027, U+30A0 and the blocks Latin
    Extended Additional (U+1E00-U+1E9B), Latin Extended-D, Greek Extended,
    Cyrillic Extended-B and -C.

    One exception: the Hebrew points of standard Yiddish spelling (hiriq,
    patah, qamats, dagesh, rafe; Uncommon_Use) on the letters of a label
    written wholly in Hebrew, as in the IANA test name ``בײַשפּיל.טעסט``.

    Left to other rules: invisible (default-ignorable) characters
    (``invisible-character``), look-alikes of delimiters
    (``delimiter-lookalike``), and characters IDNA2008 rejects outright
    (``idn-invalid``).

    ## Why
    Browsers show a label holding such a character as Punycode: these are
    the characters nobody needs in a name and spoofers like, such as
    ``ⴰ`` or ``ᐧ`` standing in for letters and dots.

    ## Example
    ``http://ⴰⵎⴰⵣⵉⵖ.com/`` (Tifinagh, Limited_Use) is reported;
    ``http://bücher.de/`` is not.

    ## Fix safety
    No fix: only the owner knows the intended name.

    ## Reference
    UTS #39 s3.1 (Identifier_Status, Identifier_Type); UTS #46; Chromium's
    IDN display policy (allowed character set).
    """
    imitations: Dict[str, Optional[str]] = {}
    for text, start, mapped, issue in _issues(ctx, RESTRICTED_RULE):
        if _delimiter_reported(ctx, start, text, mapped, issue):
            continue
        yield _report(ctx, start, text, mapped, issue, "identifier status", imitations)


@rule(name=DIGIT_RULE, code="IRI209", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def idn_digit_lookalike(ctx):
    """A host label made of digits and characters that look like digits.

    ## What it does
    Reports a non-ASCII host label (after IDNA mapping) that consists only
    of ASCII digits and digit look-alikes, with at least one look-alike:
    ``੨੨੨`` (Gurmukhi digit two), ``1շ`` (Armenian sha reads as 2),
    ``ვ6`` (Georgian v reads as 3).  The look-alikes are Chromium's list
    plus every character whose UTS #39 prototype is an ASCII digit 2-9.
    Also reports a label that mixes decimal digits of different numbering
    systems, such as ASCII digits with Arabic-Indic or Bengali ones
    (``12৪``); digits of one system with letters of its own script are
    fine (``२०२४``, ``١٢٣``).

    ## Why
    A label that reads as a number (``੨੨੨.com`` for ``222.com``) spoofs a
    numeric name, and no mixed-script check sees it, as digits belong to
    every script.  Browsers show such labels as Punycode.

    ## Example
    ``http://੨੨੨.com/``.

    ## Fix safety
    No fix: the digits may be what the owner registered.

    ## Reference
    Chromium's IDN display policy (digit look-alikes); UTS #39 s5.3
    (mixed numbers).
    """
    imitations: Dict[str, Optional[str]] = {}
    for text, start, mapped, issue in _issues(ctx, DIGIT_RULE):
        yield _report(ctx, start, text, mapped, issue, "digit look-alikes", imitations)


@rule(name=PATTERN_RULE, code="IRI210", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def idn_dangerous_pattern(ctx):
    """A host label with one of the browsers' "dangerous patterns".

    ## What it does
    Reports, in each non-ASCII host label after IDNA mapping, the
    patterns Chromium's IDN display policy refuses:

    * Katakana and Han that look like a slash or a Latin letter (ノ ソ ゾ ン
      ヘ ベ ペ 〳 〴 〵 丶 乀 乁 丿) with no Japanese character beside them
      (``aノb``; ``ノート`` is fine);
    * U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK not after kana, the
      iteration marks ヽ ヾ not after katakana, U+30FB KATAKANA MIDDLE DOT
      beside a Latin letter;
    * hiragana へ べ ぺ in a label otherwise in katakana, and katakana ヘ ベ ペ
      in one otherwise in hiragana (they look exactly alike);
    * Han and Bopomofo that look like Latin letters or punctuation (一 丨
      十 〇 工 ㄒ ...) beside a character that is not CJK;
    * combining marks: a Latin/Greek/Cyrillic diacritic over a letter of
      another script or over a digit, a mark repeated (a run of one mark
      is one finding, which says how many times), a mark stacked over
      a letter that already carries one (after NFC, so Vietnamese ế is
      one letter), a mark over dotless ı or ȷ, U+0307 COMBINING DOT ABOVE
      over i, j or l, a mark of one script over a letter of another, the
      combining kana voicing marks U+3099/U+309A;
    * Thai and Lao letters and digits beside a Latin letter.

    ## Why
    Each of these makes a label look like another: ``google.comノevil``
    reads as a path, ``ı̇`` is an i, ``é`` with a second acute is é.

    ## Example
    ``http://aノb.com/``, ``http://xn--...`` holding ``ı̇``.

    ## Fix safety
    No fix: which form was meant only a person can tell.

    ## Reference
    Chromium's IDN display policy and IDN spoof checker (dangerous
    patterns); UTS #39 s5.4 (optional detection: non-spacing marks).
    """
    imitations: Dict[str, Optional[str]] = {}
    for text, start, mapped, issue in _issues(ctx, PATTERN_RULE):
        if _delimiter_reported(ctx, start, text, mapped, issue):
            continue
        yield _report(ctx, start, text, mapped, issue, "dangerous pattern", imitations)


@rule(name=TLD_CHAR_RULE, code="IRI211", family="lookalike", severity="warning",
      needs=_VIEW_TRAITS)
def idn_tld_character(ctx):
    """A host label character that only some top-level domains use.

    ## What it does
    Reports characters that registries allow only under some TLDs, when
    the host's TLD is not one of them:

    ==========================  ==============================================
    character                   normal under
    ==========================  ==============================================
    U+0259 ə                    .az (Azerbaijani)
    U+00FE þ                    .is
    U+00F0 ð                    .is .fo
    U+00DF ß                    .de .at .ch .li .lu
    U+03C2 ς                    .gr .ελ .cy .ευ .eu
    U+00B7 ·                    .cat, and only between two ``l`` (l·l)
    ==========================  ==============================================

    A one-letter label is not reported for ə, þ, ð, ß and ς.  The TLD is
    the host's last label in Unicode form (``xn--qxam`` is ``ελ``).

    ## Why
    ``þ`` can pass for ``p`` or ``b``, ``ə`` for ``e``, ``·`` for a dot;
    where the registry does not use them, they serve only to imitate.
    ß and ς are also IDNA deviations: ``idna-deviation`` reports them
    outside their TLDs too, and the joiners ZWNJ/ZWJ under every TLD (as
    browsers do), so they are not in this table.

    ## Example
    ``http://þayþal.com/`` is reported; ``http://þingvellir.is/`` is not.

    ## Fix safety
    No fix.

    ## Reference
    Chromium's IDN display policy (TLD-specific characters); RFC 5892
    Appendix A.3 (MIDDLE DOT); UTS #46 s6 (deviations).
    """
    imitations: Dict[str, Optional[str]] = {}
    for text, start, mapped, issue in _issues(ctx, TLD_CHAR_RULE):
        yield _report(ctx, start, text, mapped, issue, "character tied to a TLD", imitations)

