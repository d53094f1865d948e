"""Host rules: IDNA2008 and Punycode (RFC 5890-5893, RFC 3492, UTS #46).

(One module, over 600 lines: the host rules share the decoding of a host's
labels (escapes, A-labels) and the IDNA2008 label checks, and a third of
the length is the rules' documentation.)

These rules look only at the reg-name host of a DNS scheme
(:data:`irilint.convert.DNS_SCHEMES`: ``http``, ``https``, ``ftp``...) and of
scheme-less network-path references (``//host/...``), because only there does
the host go through IDNA when the IRI becomes a URI (RFC 3987 s3.1 step 2b).
``mailto:``, ``urn:``, ``file:`` and other schemes are left alone.

Which IDNA
----------
A label written in Unicode (literally or percent-encoded) is judged the way
a browser converts it: UTS #46 *non-transitional* mapping (case folding,
width folding...) without the STD3 ASCII rules, then the IDNA2008 validity
rules (RFC 5891 s5.4, RFC 5892).  So ``Bücher`` and ``ｂücher`` are fine here
(the mapping folds them; the normalization family flags the compatibility
characters), while ``⒈`` is not.  An ``xn--`` label is held to the stricter
RFC 5891 s5.3 standard: its U-label must be IDNA2008-valid as it stands,
with no mapping.

One root cause, one finding
---------------------------
* Bidi Rule (RFC 5893) failures are left to the bidi family
  (``idn-bidi-rule``), which sees literal, percent-encoded and decoded
  A-labels alike.
* A ZERO WIDTH JOINER / NON-JOINER whose context IDNA2008 rejects (CONTEXTJ,
  e.g. a ZWJ between two Latin letters) is left to ``invisible-character``
  in the lookalike family: it is an invisible character with no purpose.
  A joiner in a context IDNA2008 allows (after a virama, between Arabic
  joining letters) is real text, and ``idna-deviation`` reports it because
  IDNA2003 would still delete it.
* ASCII-only labels are not IDN labels: the hyphen and length rules UTS #46
  applies to them (CheckHyphens, VerifyDnsLength) and empty labels are
  ``dns-label-syntax``'s; ``a_b`` (STD3 rules, which browsers do not apply)
  is not reported.
* Characters UTS #46 maps to nothing (U+00AD SOFT HYPHEN...) are removed
  before a label is judged, as IDNA does: ``xn--80ak6aa<U+00AD>92e`` is the
  A-label ``xn--80ak6aa92e``.  ``invisible-character`` reports them.
* Labels whose percent-encoding is not UTF-8 are left to
  ``percent-encoded-non-utf8``; characters the RFC 3987 grammar rejects in
  a host (space, ``<``, private use...) are left to the syntax rules.

Messages use the ``idna`` package's own tests (``uts46_remap``,
``valid_contextj``, ``valid_contexto``, ``check_bidi``, the IDNA2008
code point classes) but word the reason themselves, naming the code point.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

import idna
from idna import idnadata

from irilint.convert import DNS_SCHEMES, idna_to_unicode
from irilint.chars import to_nfc
from irilint.idn_display import display_verdict, imitation, map_label, tld_uses_character
from irilint.iri import LABEL_SPLIT_RE
from irilint.unicode_security import (
    UNKNOWN,
    char_name,
    describe,
    general_category,
    mixed_script,
    script_of,
    visible_text,
    whole_script_confusable,
)

from . import gates
from .context import strip_uts46_ignored
from .fastpath import FAST_HOST_GROUP, FAST_RE
from .registry import rule

_PCT_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_PUNYCODE_BODY_RE = re.compile(r"[a-z0-9-]+\Z")

_PVALID = idnadata.codepoint_classes["PVALID"]
_CONTEXTJ = idnadata.codepoint_classes["CONTEXTJ"]
_CONTEXTO = idnadata.codepoint_classes["CONTEXTO"]

_ZWNJ, _ZWJ = "\u200c", "\u200d"
_JOINERS = (_ZWNJ, _ZWJ)

#: IDNA2008 deviations (UTS #46 s6): what IDNA2003 and UTS #46 transitional
#: processing make of them.  U+1E9E is folded to U+00DF by the current
#: (non-transitional) UTS #46 mapping and to "ss" by the transitional one.
_DEVIATIONS = {"\u00df": "ss", "\u1e9e": "ss", "\u03c2": "\u03c3", _ZWJ: "", _ZWNJ: ""}

_LabelChars = Tuple[str, List[Tuple[int, int]]]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def _dns_host(ref) -> bool:
    """A reg-name host that goes through IDNA: DNS schemes and ``//host``."""
    if ref.host is None or ref.host_kind != "reg-name":
        return False
    scheme = ref.scheme_lower
    return scheme is None or scheme in DNS_SCHEMES


def _is_alabel(text: str) -> bool:
    """An A-label once the characters UTS #46 maps to nothing are gone
    (``xn--80ak6aa<U+00AD>92e`` is the A-label ``xn--80ak6aa92e``)."""
    return strip_uts46_ignored(text)[:4].lower() == "xn--"


def _decode_label(value: str, start: int, end: int) -> Optional[_LabelChars]:
    """The characters of a host label with its escapes decoded as UTF-8
    (ASCII escapes too), each with the value span it came from.  None if
    an escape run is not strict UTF-8 (another rule reports that)."""
    if "%" not in value[start:end]:
        return value[start:end], [(i, i + 1) for i in range(start, end)]
    chars: List[str] = []
    spans: List[Tuple[int, int]] = []
    i = start
    for m in _PCT_RUN_RE.finditer(value, start, end):
        for k in range(i, m.start()):
            chars.append(value[k])
            spans.append((k, k + 1))
        octets = bytes.fromhex(m.group().replace("%", ""))
        j = 0
        while j < len(octets):
            b = octets[j]
            size = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else \
                4 if 0xF0 <= b <= 0xF4 else 0
            if not size:
                return None
            try:
                ch = octets[j:j + size].decode("utf-8")
            except UnicodeDecodeError:
                return None
            s = m.start() + 3 * j
            chars.append(ch)
            spans.append((s, s + 3 * size))
            j += size
        i = m.end()
    for k in range(i, end):
        chars.append(value[k])
        spans.append((k, k + 1))
    return "".join(chars), spans


def _contexto_reason(label: str, pos: int) -> str:
    cp = ord(label[pos])
    if cp == 0x00B7:
        return "is only allowed between two 'l' (the Catalan l\u00b7l)"
    if cp == 0x0375:
        return "is only allowed before a Greek letter"
    if cp in (0x05F3, 0x05F4):
        return "is only allowed after a Hebrew letter"
    if cp == 0x30FB:
        return "is only allowed in a label that holds Hiragana, Katakana or Han characters"
    if 0x0660 <= cp <= 0x0669:
        return "may not be mixed with Extended Arabic-Indic digits (U+06F0-U+06F9) in one label"
    if 0x06F0 <= cp <= 0x06F9:
        return "may not be mixed with Arabic-Indic digits (U+0660-U+0669) in one label"
    return "is not allowed in this context"


def _digit_kind(cp: int) -> int:
    return 1 if 0x0660 <= cp <= 0x0669 else 2 if 0x06F0 <= cp <= 0x06F9 else 0


def _first_digit_kind(label: str) -> int:
    for c in label:
        k = _digit_kind(ord(c))
        if k:
            return k
    return 0


def _contextj_ok(label: str, pos: int) -> bool:
    try:
        return bool(idna.valid_contextj(label, pos))
    except (ValueError, idna.IDNAError):
        return False


def _label_problems(u: str) -> List[Tuple[str, Optional[int], str]]:
    """IDNA2008 problems of a would-be U-label, as ``(kind, position,
    reason)``; ``position`` is None for problems of the whole label.

    Kinds: ``hyphen``, ``combiner``, ``disallowed``, ``unassigned``,
    ``contexto``, ``contextj``, ``bidi``, ``too-long``.  Every code point
    problem is listed, not only the first."""
    out: List[Tuple[str, Optional[int], str]] = []
    if u[2:4] == "--":
        out.append(("hyphen", None, "has hyphens in the 3rd and 4th positions, which IDNA2008 "
                                    "reserves for A-labels such as 'xn--'"))
    if u.startswith("-"):
        out.append(("hyphen", None, "starts with a hyphen, which IDNA2008 does not allow"))
    elif u.endswith("-"):
        out.append(("hyphen", None, "ends with a hyphen, which IDNA2008 does not allow"))
    if general_category(u[0]).startswith("M") and idna.intranges_contain(ord(u[0]), _PVALID):
        out.append(("combiner", 0, "begins the label, which IDNA2008 does not allow for a combining mark"))
    for pos, ch in enumerate(u):
        cp = ord(ch)
        pvalid = idna.intranges_contain(cp, _PVALID)
        if pvalid and script_of(ch) != UNKNOWN:
            continue
        if idna.intranges_contain(cp, _CONTEXTJ):
            if not _contextj_ok(u, pos):
                out.append(("contextj", pos, "is not allowed in this context (IDNA2008 CONTEXTJ)"))
        elif idna.intranges_contain(cp, _CONTEXTO):
            if not idna.valid_contexto(u, pos):
                if 0x0660 <= cp <= 0x06F9 and _digit_kind(cp) == _first_digit_kind(u):
                    continue  # mixed digits: report the ones of the other kind only
                out.append(("contexto", pos, _contexto_reason(u, pos) + " (IDNA2008 CONTEXTO)"))
        elif pvalid or char_name(ch) == "<unassigned>":
            # PVALID here: in the installed idna's Unicode, newer than
            # irilint's (unicode_data.UNICODE_VERSION), which has not
            # assigned it; judged by irilint's version, as the other rules
            # judge it, so that the finding does not depend on the idna release
            out.append(("unassigned", pos, "is not an assigned character, so IDNA2008 does not "
                                           "allow it (IDNA2008 UNASSIGNED)"))
        else:
            out.append(("disallowed", pos, "is not allowed in a domain label (IDNA2008 DISALLOWED)"))
    if not any(k in ("disallowed", "unassigned") for k, _, _ in out):
        try:
            idna.check_bidi(u)
        except idna.IDNAError as exc:
            out.append(("bidi", None, str(exc)))
        try:
            alabel = "xn--" + u.encode("punycode").decode("ascii") if not u.isascii() else u
        except UnicodeError:  # pragma: no cover - punycode encodes any str
            alabel = ""
        if len(alabel) > 63:
            out.append(("too-long", None, "is too long: its A-label %s has %d characters, more than "
                                          "the 63 a DNS label may hold" % (alabel, len(alabel))))
    return out


#: Problems other rules report (see the module docstring).
_LEFT_TO_OTHERS = ("bidi", "contextj")


def _origin_note(value: str, span: Tuple[int, int]) -> str:
    s, e = span
    written = value[s:e]
    return " (percent-encoded as %s)" % written if written.startswith("%") else ""


def _show(s: str) -> str:
    """Text for a message, with invisible characters (joiners, what UTS #46
    ignores, other format characters) made visible."""
    return visible_text(s)


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

@rule(name="idn-invalid", code="IRI501", family="host", severity="error",
      needs=("non_ascii", "percent"), specificity=20)
def idn_invalid(ctx):
    """A Unicode host label that IDNA2008 rejects.

    ## What it does
    Checks every non-ASCII label of the host of a DNS scheme (``http``,
    ``https``, ``ftp``...) or of a ``//host`` reference, written literally
    or percent-encoded, the way browsers convert it: UTS #46
    non-transitional mapping, then the IDNA2008 rules.  It flags
    characters IDNA2008 disallows or leaves unassigned (``⒈``, ``_``,
    symbols, emoji), CONTEXTO characters out of context (a middle dot
    outside ``l·l``, Arabic-Indic digits mixed with Extended ones), a
    leading combining mark, hyphens at the ends or in positions 3-4, and
    labels whose A-label would exceed 63 characters.  Each code point
    problem is its own finding, on that character.  Unassigned means
    unassigned in the Unicode version of irilint's tables (16.0), whatever
    the installed ``idna`` package's version, as for every other rule.

    ## Why
    The host cannot be converted to an A-label, so the link fails in
    IDNA2008 clients, or worse, is resolved differently by clients that
    map leniently (``⒈`` once became ``1.``, adding a label).  Such a
    name can never be registered either.

    Not reported here, to avoid two findings for one cause: Bidi Rule
    failures (``idn-bidi-rule``), ZWJ/ZWNJ out of context
    (``invisible-character``), ``xn--`` labels (``punycode-invalid``),
    undecodable escapes (``percent-encoded-non-utf8``), ASCII-only and
    empty labels (``dns-label-syntax``).  Characters UTS #46 maps to
    nothing are removed before the label is judged (``invisible-character``
    reports them); a label that then starts with ``xn--`` is an A-label.

    ## Example
    ``http://⒈example.com/`` (U+2488 DIGIT ONE FULL STOP);
    ``http://a·b.example/`` (U+00B7 MIDDLE DOT outside ``l·l``).

    ## Fix safety
    No fix: the intended name cannot be known.

    ## Reference
    RFC 5891 s4.2 and s5.4; RFC 5892 (DISALLOWED, CONTEXTO); UTS #46 s4
    (non-transitional processing); RFC 3987 s3.1 step 2b.
    """
    ref = ctx.ref
    if not _dns_host(ref):
        return None
    value = ctx.value
    h = ref.host
    host = value[h.start:h.end]
    if host.isascii() and "%" not in host:
        return None
    if gates.ENABLED and "%" not in host and _literal_host_valid(host):
        return None  # the usual case, judged once per host
    out = []
    for lab in ref.host_labels:
        if lab.start == lab.end or _is_alabel(value[lab.start:lab.end]):
            continue
        decoded = _decode_label(value, lab.start, lab.end)
        if decoded is None:
            continue
        text, spans = decoded
        if text.isascii() or "." in text or _is_alabel(text):
            continue  # not an IDN label / an encoded dot changes the structure / punycode-invalid's
        out.extend(_check_unicode_label(ctx, lab, text, spans))
    return out


@lru_cache(maxsize=4096)
def _label_analysis(text: str):
    """What IDNA makes of a decoded label, a pure function of its text (so
    kept per label: documents repeat their hosts): the indexes UTS #46
    rejects, each character's mapping, the written index of each mapped
    character, the NFC of the mapping, whether NFC kept the mapping as it
    was, and the IDNA2008 problems.  Shared: never change what it returns."""
    # UTS #46 mapping, character by character, remembering which written
    # character each mapped one came from.
    mapped: List[str] = []
    maps: List[Optional[str]] = []
    owner: List[int] = []
    bad = []
    for i, ch in enumerate(text):
        if ch.isascii():
            m = ch.lower()
        else:
            try:
                m = idna.uts46_remap(ch, std3_rules=False)
            except (idna.IDNAError, ValueError):
                bad.append(i)
                maps.append(None)
                continue
        maps.append(m)
        mapped.append(m)
        owner.extend([i] * len(m))
    joined = "".join(mapped)
    u = to_nfc(joined)
    problems = tuple(_label_problems(u)) if u else ()
    return tuple(bad), tuple(maps), tuple(owner), u, u == joined, problems


@lru_cache(maxsize=4096)
def _literal_host_valid(host: str) -> bool:
    """Does idn-invalid find nothing in this host written without escapes?
    The loop of idn_invalid on its labels, with the test of
    _check_unicode_label that returns no finding."""
    for label in LABEL_SPLIT_RE.split(host):
        if not label or _is_alabel(label) or label.isascii():
            continue
        bad, _maps, _owner, _u, _exact, problems = _label_analysis(label)
        if bad or not all(kind in _LEFT_TO_OTHERS for kind, _, _ in problems):
            return False
    return True


def _check_unicode_label(ctx, lab, text: str, spans: List[Tuple[int, int]]):
    value = ctx.value
    bad, maps, owner, u, exact, problems = _label_analysis(text)
    if not bad and all(kind in _LEFT_TO_OTHERS for kind, _, _ in problems):
        return []  # the usual case: a valid label
    # Characters the grammar already rejects here (a space, a private-use
    # character...) are reported by the syntax rules, not again.
    syntax = {p.start for p in ctx.ref.problems if lab.start <= p.start < lab.end}
    out = []
    for i in bad:
        if spans[i][0] in syntax:
            continue
        # Disallowed by UTS #46 itself (so by IDNA2008 too).
        ch = text[i]
        kind = "UNASSIGNED" if char_name(ch) == "<unassigned>" else "DISALLOWED"
        out.append((i, ctx.report(spans[i][0], spans[i][1], "%s%s is not allowed in a domain label (IDNA2008 %s)"
                                  % (describe(ch), _origin_note(value, spans[i]), kind))))
    if not u:
        return [f for _, f in out]
    # exact: NFC kept the mapping; else NFC merged characters: locate by search

    def origin(pos: int) -> Optional[int]:
        if exact:
            return owner[pos]
        ch = u[pos]
        for i, c in enumerate(text):
            if c == ch or ch in (maps[i] or ""):
                return i
        return None

    shown = _show(text)
    for kind, pos, reason in problems:
        if kind in _LEFT_TO_OTHERS:
            continue
        if bad and kind not in ("disallowed", "unassigned"):
            # With characters missing, context and label checks would judge
            # a label nobody wrote; only other bad characters are certain.
            continue
        if pos is None:
            out.append((-1, ctx.report(lab.start, lab.end, "label '%s' %s" % (shown, reason))))
            continue
        i = origin(pos)
        ch = u[pos]
        if i is None:
            out.append((-1, ctx.report(lab.start, lab.end, "label '%s': %s %s" % (shown, describe(ch), reason))))
            continue
        if spans[i][0] in syntax:
            continue
        written = text[i]
        what = describe(written) + _origin_note(value, spans[i])
        if written != ch and written.lower() != ch:
            what += ", which UTS #46 maps to %s," % describe(ch)
        out.append((i, ctx.report(spans[i][0], spans[i][1], "%s %s" % (what, reason))))
    out.sort(key=lambda x: x[0])
    return [f for _, f in out]


def _punycode_problem(label: str) -> Optional[str]:
    """Why an ``xn--`` label is not a valid A-label, or None if it is."""
    if not label.isascii():
        return ("'%s' starts with the A-label prefix 'xn--' but holds non-ASCII characters; "
                "an A-label is pure ASCII" % label)
    body = label[4:].lower()
    if not body:
        return "'%s' has nothing after the A-label prefix 'xn--'" % label
    if not _PUNYCODE_BODY_RE.match(body):
        bad = next(c for c in body if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "-"))
        return "'%s' is not Punycode: %s never occurs in an A-label" % (label, describe(bad))
    try:
        u = body.encode("ascii").decode("punycode")
    except (UnicodeError, ValueError, IndexError):
        return "'%s' is not Punycode: it does not decode" % label
    if not u or u.isascii():
        return ("'%s' decodes to the ASCII text '%s'; an A-label must encode at least one "
                "non-ASCII character" % (label, _show(u)))
    again = u.encode("punycode").decode("ascii")
    if again != body:
        return ("'%s' decodes to '%s', whose Punycode is 'xn--%s': the label is not the canonical "
                "encoding (a fake A-label)" % (label, _show(u), again))
    if len(label) > 63:
        return "'%s' is too long: a DNS label holds at most 63 characters" % label
    if not unicodedata.is_normalized("NFC", u):
        return ("'%s' decodes to '%s', which is not in Normalization Form C; IDNA2008 requires NFC "
                "U-labels" % (label, _show(u)))
    for kind, pos, reason in _label_problems(u):
        if kind in _LEFT_TO_OTHERS:
            continue
        if pos is None:
            return "'%s' decodes to the label '%s', which %s" % (label, _show(u), reason)
        return "'%s' decodes to '%s', but %s %s" % (label, _show(u), describe(u[pos]), reason)
    return None


@rule(name="punycode-invalid", code="IRI502", family="host", severity="error",
      needs=("punycode",))
def punycode_invalid(ctx):
    """An ``xn--`` label that is not a valid A-label.

    ## What it does
    Checks every host label that starts with ``xn--`` (in any case) in the
    host of a DNS scheme or a ``//host`` reference: it must be ASCII,
    decode as Punycode (RFC 3492) to non-ASCII text, encode back to the
    same label (compared case-insensitively, since ``XN--`` is just case),
    and decode to a U-label IDNA2008 accepts as it stands (NFC, no
    disallowed or out-of-context characters).  The message says which
    step fails.

    ## Why
    A broken A-label is either a typo (the link fails) or a spoof: a
    non-canonical Punycode (a "fake A-label") or one that hides a
    disallowed character shows different text in different clients, or
    the same text for two different names.

    Bidi Rule failures and joiners out of context are reported by
    ``idn-bidi-rule`` and ``invisible-character``, which see the decoded
    label, and not again here.

    ## Example
    ``http://xn--99999999999.com/`` (does not decode);
    ``http://xn---bbk.jp/`` (not canonical: ``xn--bbk``);
    ``http://xn--ls8h.la/`` (decodes to U+1F4A9, which IDNA2008
    disallows).

    ## Fix safety
    No fix: the intended name cannot be known.

    ## Reference
    RFC 3492; RFC 5890 s2.3.2.1; RFC 5891 s5.3-5.4; RFC 5892.
    """
    ref = ctx.ref
    if not _dns_host(ref):
        return None
    value = ctx.value
    out = []
    for lab in ref.host_labels:
        label = value[lab.start:lab.end]
        if not _is_alabel(label) or "%" in label:
            continue
        # judged as the A-label it becomes (invisible-character reports
        # what UTS #46 removed)
        why = _punycode_problem(strip_uts46_ignored(label))
        if why is not None:
            out.append(ctx.report(lab.start, lab.end, why))
    return out


def _unsafe_reason(u: str, tld: str = "") -> Optional[str]:
    """Why showing the U-label could mislead a reader (so the fix is not
    safe), or None.  ``tld`` is the host's last label (Unicode or A-label)."""
    mixed, scripts = mixed_script(u)
    if mixed:
        return "it mixes the %s scripts" % " and ".join(scripts)
    looks = whole_script_confusable(u)
    if looks is not None:
        return "it is written in %s but looks like the Latin '%s'" % (
            " and ".join(mixed_script(u).scripts) or "another script", imitation(map_label(u)) or looks)
    dev = [c for c in u if c in _DEVIATIONS]
    if dev:
        return "%s is an IDNA deviation character, which IDNA2003 clients map differently" % describe(dev[0])
    # The browsers' display policy (irilint.idn_display): a label they
    # show as Punycode is never offered as safe to show.
    refused = display_verdict(u, tld)
    if refused is not None:
        return "browsers show it as Punycode (%s)" % refused
    if any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in u):
        return "it holds right-to-left characters, which reorder how the IRI is displayed"
    return None


def _tld_unicode(value: str, labels) -> str:
    """The host's last non-empty label, in Unicode form where it is a
    valid A-label (``xn--p1ai`` -> ``рф``)."""
    for lab in reversed(labels):
        text = value[lab.start:lab.end]
        if text:
            return (idna_to_unicode(text.lower()) if _is_alabel(text) else None) or text.lower()
    return ""


@rule(name="punycode-label", code="IRI503", family="host", severity="hint",
      fix="sometimes", needs=("punycode",))
def punycode_label(ctx):
    """An A-label that could be written as its Unicode U-label.

    ## What it does
    Flags valid ``xn--`` labels in the host of a DNS scheme or a ``//host``
    reference and offers the U-label: ``xn--bcher-kva`` is ``bücher``.

    ## Why
    IRIs exist so that people can read names in their own script; a
    reviewer cannot see what ``xn--80ak6aa92e`` says.  A hint only: some
    places (HTTP headers, sitemaps) want URIs.

    ## Example
    ``http://xn--r8jz45g.xn--zckzah/`` becomes ``http://例え.テスト/``.

    ## Fix safety
    Safe in general: IDNA maps the U-label back to the very same A-label
    (``idna_to_unicode`` checks the round trip), so the URI does not
    change.  Offered as unsafe when showing the U-label could mislead a
    reader: it mixes scripts or is a whole-script confusable of a Latin
    name (UTS #39), browsers would show it as Punycode (any step of their
    IDN display policy fails: see ``idn-restricted-character``,
    ``idn-digit-lookalike``, ``idn-dangerous-pattern``,
    ``idn-tld-character``, the stricter host-label check of
    ``mixed-script``), it holds an IDNA deviation character (ß, ς, ZWJ,
    ZWNJ: IDNA2003 clients would convert the U-label to another A-label),
    or it holds right-to-left characters, which reorder the displayed
    IRI (RFC 3987 s4).  Not offered at all when a look-alike, bidi or
    host rule in force flags the U-label in the reference (the judgement
    ``irilint convert --to iri`` makes): the fix would put the spoof
    those rules warn about in front of the reader, so the A-label stays
    (RFC 3987 s3.2.1).

    Where the reference is data, which a program reads as written (in code
    outside comments and docstrings, in a JSON, YAML or TOML value, in a
    Turtle term or literal), every fix is unsafe: ``--fix`` leaves it alone.

    ## Reference
    RFC 3987 s3.2 step 2 and s5.3.3; RFC 5891 s5; UTS #39 s4-5.
    """
    ref = ctx.ref
    if not _dns_host(ref):
        return None
    value = ctx.value
    out = []
    tld = _tld_unicode(value, ref.host_labels)
    for lab in ref.host_labels:
        written = value[lab.start:lab.end]
        if not _is_alabel(written):
            continue
        label = strip_uts46_ignored(written)
        u = idna_to_unicode(label.lower())
        if u is None:
            continue  # punycode-invalid reports it
        why = _unsafe_reason(u, tld)
        if why is None and label != written:
            why = "it also drops the invisible characters written in the label"
        flagged = ctx.decoding_flagged(lab.start, lab.end, u)
        if flagged is not None:
            # Shown, the U-label is what a look-alike, bidi or host rule
            # warns about: keep the A-label (RFC 3987 s3.2.1), offer nothing.
            fixes = []
            msg = "%s is the A-label of '%s'; keep it: %s flags the U-label%s" % (
                label, _show(u), flagged, " (%s)" % why if why is not None else "")
        elif why is None:
            fixes = [ctx.replace("Replace with the U-label '%s'" % u, lab.start, lab.end, u, True)]
            msg = "%s is the A-label of '%s': an IRI can show the name itself" % (label, u)
        else:
            fixes = [ctx.replace("Replace with the U-label '%s' (unsafe: %s)" % (_show(u), why),
                                 lab.start, lab.end, u, False)]
            msg = "%s is the A-label of '%s' (showing it may mislead: %s)" % (label, _show(u), why)
        out.append(ctx.report(lab.start, lab.end, msg, fixes))
    return out


def _is_deviation_char(c: str) -> bool:
    return c in _DEVIATIONS


@rule(name="idna-deviation", code="IRI504", family="host", severity="warning",
      needs=("non_ascii", "percent", "punycode"), gate=_is_deviation_char)
def idna_deviation(ctx):
    """A host label with a character IDNA2003 and IDNA2008 treat differently.

    ## What it does
    Flags U+00DF ß (and U+1E9E ẞ), U+03C2 ς, and U+200D ZERO WIDTH JOINER /
    U+200C ZERO WIDTH NON-JOINER in the host of a DNS scheme or a
    ``//host`` reference, written literally, percent-encoded, or inside a
    valid ``xn--`` label.  The message shows the name IDNA2003 / UTS #46
    transitional processing gives: ß becomes ``ss``, ς becomes σ, the
    joiners are removed.

    ## Why
    These are the "deviations" of UTS #46 s6: ``faß.de`` is
    ``xn--fa-hia.de`` under IDNA2008 but ``fass.de`` under IDNA2003, and
    the two can be registered by different owners.  Depending on the
    browser, library or proxy, the same link then leads to different
    sites.

    Joiners are reported only where IDNA2008 allows them (CONTEXTJ, e.g.
    after a virama); elsewhere the label is invalid anyway and
    ``invisible-character`` reports the stray joiner.

    ß and ς are not reported under a TLD whose registry uses them (the
    table of ``idn-tld-character``): ß under .de .at .ch .li .lu, ς under
    .gr .ελ .cy .ευ .eu.  There the IDNA2008 name is the registered one,
    and browsers show and resolve it; elsewhere ``idn-tld-character``
    reports the letter too.  The joiners are reported under every TLD, as
    browsers show labels holding them as Punycode.

    ## Example
    ``http://faß.de/``: ``faß.de`` becomes ``fass.de`` under IDNA2003.

    ## Fix safety
    No fix: both names are legitimate; only the owner knows which one is
    meant (registering both is the usual defence).

    ## Reference
    UTS #46 s6 (Deviations); RFC 5892 Appendix A.1-A.2; RFC 5895.
    """
    ref = ctx.ref
    if not _dns_host(ref):
        return None
    value = ctx.value
    h = ref.host
    host = value[h.start:h.end]
    if "%" not in host and "xn--" not in host.lower() and not any(c in host for c in _DEVIATIONS):
        return None  # every label is literal and holds no deviation character
    shown: List[str] = []
    mapped: List[str] = []
    hits: List[Tuple[int, int]] = []
    found: List[str] = []
    pos = h.start
    tld = map_label(_tld_unicode(value, ref.host_labels))
    for lab in ref.host_labels:
        sep = value[pos:lab.start]
        shown.append(sep)
        mapped.append(sep)
        pos = lab.end
        label = value[lab.start:lab.end]
        if _is_alabel(label):
            u = idna_to_unicode(strip_uts46_ignored(label).lower())
            if u is None:
                shown.append(label)
                mapped.append(label)
                continue
            text, spans = u, [(lab.start, lab.end)] * len(u)
        else:
            decoded = _decode_label(value, lab.start, lab.end)
            if decoded is None:
                shown.append(label)
                mapped.append(label)
                continue
            text, spans = decoded
        shown.append(text)
        m = []
        for i, ch in enumerate(text):
            if ch in _DEVIATIONS:
                if ch in _JOINERS and not _contextj_ok(text, i) or tld_uses_character(ch, tld):
                    # Its registry uses it (ß under .de, ς under .gr): the
                    # name there is the IDNA2008 one.
                    m.append(ch)
                    continue
                hits.append(spans[i])
                if ch not in found:
                    found.append(ch)
                m.append(_DEVIATIONS[ch])
            else:
                m.append(ch)
        mapped.append("".join(m))
    if not hits:
        return None
    before, after = "".join(shown), "".join(mapped)
    how = ", ".join("%s \u2192 %s" % (describe(c), "'%s'" % _DEVIATIONS[c] if _DEVIATIONS[c] else "removed")
                    for c in found)
    written = "" if before == host else " (written %s)" % host
    start = min(s for s, _ in hits)
    end = max(e for _, e in hits)
    return [ctx.report(start, end,
                       "%s%s \u2192 %s under IDNA2003 and UTS #46 transitional processing (%s), while "
                       "IDNA2008 keeps %s: the two may lead to different sites"
                       % (_show(before), written, _show(after), how, _show(before)))]


# ---------------------------------------------------------------------------
# IRI505 dns-label-syntax
# ---------------------------------------------------------------------------

#: RFC 1035 s2.3.4 / RFC 5890 s2.3.2.1 (label), UTS #46 VerifyDnsLength (name,
#: without the root's trailing dot).
_MAX_LABEL_OCTETS = 63
_MAX_NAME_OCTETS = 253


def _dns_label_octets(label: str) -> int:
    """Octets of the label as DNS carries it: ASCII as written, an IDN label
    as its A-label (after UTS #46 mapping, when it maps)."""
    label = strip_uts46_ignored(label)
    if label.isascii():
        return len(label)
    try:
        mapped = unicodedata.normalize("NFC", idna.uts46_remap(label, std3_rules=False))
    except (idna.IDNAError, ValueError):
        mapped = label
    if mapped.isascii():
        return len(mapped)
    return 4 + len(mapped.encode("punycode"))


def _ascii_label_problem(label: str) -> Optional[str]:
    """The UTS #46 CheckHyphens and VerifyDnsLength problem of a non-empty
    ASCII label that is not an A-label, or None."""
    if label.startswith("-"):
        return "starts with a hyphen"
    if label.endswith("-"):
        return "ends with a hyphen"
    if label[2:4] == "--":
        return "has hyphens in the 3rd and 4th positions, which are reserved for A-labels such as 'xn--'"
    if len(label) > _MAX_LABEL_OCTETS:
        return "has %d characters, more than the %d a DNS label may hold" % (len(label), _MAX_LABEL_OCTETS)
    return None


#: Where an ASCII host may break a label rule: a hyphen at a label's start
#: or end, "--" in positions 3-4 (A-labels too: judged in full), an empty
#: label, 64 characters without a dot.  No match and at most 253
#: characters: nothing to find, the usual case, judged without a call.
_SUSPECT_ASCII_HOST = re.compile(r"(?:^|\.)-|-(?:\.|$)|(?:^|\.)[^.]{2}--|\.\.|^\.|[^.]{64}").search


@lru_cache(maxsize=4096)
def _host_syntax_problems(host: str) -> Tuple[Tuple[int, int, str], ...]:
    """(start, end, message) of the label and name problems of a reg-name
    host, offsets relative to the host (the host holds no escapes)."""
    spans = []
    start = 0
    for m in LABEL_SPLIT_RE.finditer(host):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(host)))
    out = []
    last = len(spans) - 1
    for k, (s, e) in enumerate(spans):
        written = host[s:e]
        label = strip_uts46_ignored(written)
        if not label:
            if k == last and k > 0 and not written:
                continue  # the trailing dot of a fully qualified name
            if written:
                out.append((s, e, "host label '%s' holds only characters that UTS #46 maps to nothing (%s): "
                                  "IDNA turns it into an empty label, which a DNS name cannot hold"
                            % (_show(written), ", ".join(describe(c) for c in dict.fromkeys(written)))))
            else:  # point at the dots around the empty label
                out.append((s - 1 if k else s, e + 1, "empty host label%s: a DNS name cannot hold one"
                            % (" (the host starts with a dot)" if k == 0 else " between two dots")))
            continue
        if not written.isascii() or _is_alabel(label):
            continue  # idn-invalid and punycode-invalid judge those
        why = _ascii_label_problem(label)
        if why is not None:
            out.append((s, e, "host label '%s' %s (UTS #46 with CheckHyphens and VerifyDnsLength)" % (label, why)))
    name_spans = spans[:-1] if len(spans) > 1 and not host[spans[-1][0]:] else spans
    octets = sum(_dns_label_octets(host[s:e]) for s, e in name_spans) + len(name_spans) - 1
    if octets > _MAX_NAME_OCTETS:
        out.append((0, len(host), "the host name has %d octets in A-label form, more than the %d a DNS name may "
                                  "hold" % (octets, _MAX_NAME_OCTETS)))
    return tuple(out)


def _fast_dns_host(value: str, fast) -> Optional[Tuple[int, int]]:
    """The host span of a fast-path reference when it goes through IDNA."""
    start, end = fast.span(FAST_HOST_GROUP)
    if start < 0 or start >= end:
        return None
    # The scheme's colon comes before any "/" ("//u:p@host" has none: its
    # colon is the userinfo's).
    slash = value.find("/", 0, start)
    colon = value.find(":", 0, start if slash < 0 else slash)
    if colon >= 0 and value[:colon].lower() not in DNS_SCHEMES:
        return None
    return start, end


@rule(name="dns-label-syntax", code="IRI505", family="host", severity="warning", scope="document")
def dns_label_syntax(doc):
    """A host that is not a valid DNS name: empty labels, hyphens, lengths.

    ## What it does
    Checks the reg-name host of a DNS scheme (``http``, ``https``,
    ``ftp``...) or of a ``//host`` reference the way UTS #46 does with
    CheckHyphens and VerifyDnsLength, which IDNA2008 registration and
    STD3 host names require:

    * an empty label: ``a..b``, a host starting with a dot (a trailing dot,
      the DNS root, is fine), and a label that holds only characters
      UTS #46 maps to nothing (``a.<U+00AD>.com``), which IDNA turns into an
      empty one;
    * an ASCII label that starts or ends with a hyphen (``-shop``),
      or has ``--`` in its 3rd and 4th positions without being an
      ``xn--`` A-label (``ab--cd``);
    * an ASCII label longer than 63 characters;
    * a name longer than 253 octets once every label is in A-label form.

    Characters UTS #46 maps to nothing are removed first, as IDNA does
    (``invisible-character`` reports them).  Non-ASCII labels and
    ``xn--`` labels are judged by ``idn-invalid`` and ``punycode-invalid``,
    which apply the same hyphen and length rules to them.

    ## Why
    Such a name cannot be registered or resolved: DNS has no empty labels
    and no label over 63 octets, and hyphens at the ends or in positions
    3-4 are reserved.  Browsers accept some of them leniently (they do not
    check hyphens), so a link may work in one client and fail in another;
    an empty label made of invisible characters looks like a real one.

    ## Example
    ``http://-shop.example/`` and ``http://www..example.com/``.

    ## Fix safety
    No fix: the intended name cannot be known.

    ## Reference
    UTS #46 s4.1 (CheckHyphens, VerifyDnsLength) and s4.2; RFC 5891 s4.2.3.1;
    RFC 1034 s3.1; RFC 1035 s2.3.4; RFC 3987 s3.1.
    """
    problems_of = _DNS_PROBLEMS.get
    clean_of = _CLEAN_HOSTS.get
    shortcut = HOST_SHORTCUT
    #: fast-path matches passed in this document (the engine shares one
    #: match between the repeats of a value)
    passed = set()
    for ctx in doc.refs:
        fast = ctx.fast
        if fast is not None and shortcut:
            if fast in passed:
                continue
            # The fast path's host: none, or plain labels of legal length,
            # has no problem whatever the scheme (_dns_problems says so
            # before it looks at the scheme): judged by the host alone.
            host = fast.group(_FAST_HOST)
            if host:
                clean = clean_of(host)
                if clean is None:
                    clean = _clean_host(host)
                    if len(_CLEAN_HOSTS) >= 8192:
                        _CLEAN_HOSTS.clear()
                    _CLEAN_HOSTS[host] = clean
            else:
                clean = True
            if clean:
                if len(passed) >= 4096:
                    passed.clear()  # a streamed document holds no more of them
                passed.add(fast)
                continue
        # What this rule finds depends only on the reference's value, and a
        # document (and each version the language server checks) repeats
        # its references: each distinct value is judged once.
        problems = problems_of(ctx.value)
        if problems is None:
            problems = _dns_problems(ctx)
            if len(_DNS_PROBLEMS) >= 8192:
                _DNS_PROBLEMS.clear()
            _DNS_PROBLEMS[ctx.value] = problems
        for s, e, message in problems:
            yield doc.report(ctx, s, e, message)


#: reference value -> its dns-label-syntax problems (see _dns_problems)
_DNS_PROBLEMS: Dict[str, Tuple[Tuple[int, int, str], ...]] = {}

#: dns-label-syntax passes a fast-path reference whose host is clean
#: (_clean_host) without looking it up by value (False: every reference is
#: judged by _dns_problems; tests compare the two)
HOST_SHORTCUT = True
#: host -> _clean_host(host)
_CLEAN_HOSTS: Dict[str, bool] = {}
#: the number of the fast path's host group (faster than its name)
_FAST_HOST = FAST_RE.groupindex[FAST_HOST_GROUP]


def _clean_host(host: str) -> bool:
    """Whether a host has no dns-label-syntax problem: _dns_problems' test
    (written out there too: the plain way is what tests compare with)."""
    return len(host) <= _MAX_NAME_OCTETS and host.isascii() and _SUSPECT_ASCII_HOST(host) is None


def _dns_problems(ctx) -> Tuple[Tuple[int, int, str], ...]:
    """(start, end, message) of the problems of the reference's host, as
    offsets in its value."""
    fast = ctx.fast
    if fast is not None:  # the engine's fast path: no parse needed
        span = _fast_dns_host(ctx.value, fast)
        if span is None:
            return ()
        start, end = span
        host = ctx.value[start:end]
    else:
        ref = ctx.ref
        if not _dns_host(ref) or ref.host.start == ref.host.end:
            return ()
        start, end = ref.host.start, ref.host.end
        host = ctx.value[start:end]
        if "%" in host:
            return ()  # escapes in a host: the percent and host rules judge those
    if len(host) <= _MAX_NAME_OCTETS and host.isascii() and _SUSPECT_ASCII_HOST(host) is None:
        return ()
    return tuple((start + s, start + e, message) for s, e, message in _host_syntax_problems(host))
