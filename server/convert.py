"""The RFC 3987 mappings between IRIs and URIs, and the helpers fixes use.

* :func:`to_uri` maps an IRI to a URI (RFC 3987 s3.1).  It is the identity
  on a URI: a string of unreserved and reserved ASCII characters and ``%``
  comes back as it is (a ``%`` that starts no escape included: s3.1 says the
  percent sign MUST NOT be converted, and a percent-encoded host is not
  turned into Punycode).
* :func:`to_iri` converts a URI to an IRI (RFC 3987 s3.2, steps 1-6).
  :func:`iri_pieces` lists what it would decode (each A-label and each run
  of decoded escapes, with its span), and its ``keep_encoded`` predicate
  keeps chosen pieces as they are written (s3.2.1 allows keeping Punycode):
  the engine uses it to keep the pieces whose Unicode form a rule flags.

Neither raises, whatever the input.  This module is the bottom layer: it
imports neither the rules nor the engine.
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

import idna

from .chars import UNRESERVED_ASCII, kept_encoded_in_iri
from .iri import IDNA_DOTS, IRIReference, Span, parse, would_make_dot_segment

__all__ = [
    "DNS_SCHEMES",
    "URIConversion",
    "to_uri",
    "to_uri_detailed",
    "to_iri",
    "IRIPiece",
    "IRIConversion",
    "iri_pieces",
    "to_iri_detailed",
    "nfc",
    "uppercase_percent_encodings",
    "decode_unreserved",
    "percent_encode",
    "percent_encode_component",
    "percent_decode_utf8",
    "remove_dot_segments",
    "idna_to_unicode",
]

#: Schemes whose host is a DNS name, so it goes through IDNA (s3.1 step 2b).
DNS_SCHEMES = frozenset(
    "http https ws wss ftp ftps sftp ssh git telnet gopher irc ircs nntp "
    "rtsp rtsps".split()
)

# Characters that may stand literally in a URI, besides "%" (checked apart).
_NOT_URI_CHAR_RE = re.compile(r"[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
_PCT_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_PCT_LOWER_RE = re.compile(r"%([0-9A-Fa-f]{2})")
_HOST_SPLIT_RE = re.compile("([.%s])" % IDNA_DOTS)

_UNRESERVED_OCTETS = frozenset(UNRESERVED_ASCII.encode("ascii"))


@dataclass
class URIConversion:
    """The result of :func:`to_uri_detailed`.

    ``host_errors`` lists the host labels IDNA rejected (their span in the
    input and the reason); those labels were percent-encoded instead.
    """

    text: str
    host_errors: List[Tuple[Span, str]] = field(default_factory=list)


def _pct(octets: bytes) -> str:
    # bytes.hex with a separator: one C call, not a Python step per octet
    return "%" + octets.hex("%").upper() if octets else ""


def _utf8(s: str) -> bytes:
    # surrogatepass: a lone surrogate in a Python str still maps to octets
    # (an encoded surrogate), so to_uri never raises.
    return s.encode("utf-8", "surrogatepass")


def percent_encode(s: str) -> str:
    """Percent-encode, as UTF-8 with uppercase hex, every character that may
    not stand literally in a URI.  Every ``%`` is kept as it is, whether it
    starts an escape or not (RFC 3987 s3.1: the percent sign MUST NOT be
    converted; ``bad-percent-encoding`` offers ``%25`` as its own fix).
    Encoding never makes a new escape of a stray ``%``: what it writes
    starts with ``%`` itself, which is no hex digit."""
    if s.isascii() and not _NOT_URI_CHAR_RE.search(s):
        return s
    return _NOT_URI_CHAR_RE.sub(lambda m: _pct(_utf8(m.group())), s)


def percent_encode_component(s: str) -> str:
    """Percent-encode every non-ASCII character of one component.

    Used by the bidi fixes: the component then reads the same in any
    direction.  ASCII delimiters are left alone so the structure stays.
    """
    return percent_encode(s)


def uppercase_percent_encodings(s: str) -> str:
    """``%e2%80%ae`` -> ``%E2%80%AE`` (RFC 3986 s6.2.2.1)."""
    return _PCT_LOWER_RE.sub(lambda m: "%" + m.group(1).upper(), s)


_HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")


def _would_make_escape(s: str, start: int, octet: int) -> bool:
    """Would decoding the escape ``s[start:start + 3]`` of ``octet`` join a
    stray "%" before it into a new escape?  ("%%32E" decoded would read
    "%2E", and a second conversion would decode that: the "%" a stray sign
    stands for, "%25", would be lost.)"""
    if octet not in _HEX_DIGITS:
        return False
    return (start >= 1 and s[start - 1] == "%") or (
        start >= 2 and s[start - 2] == "%" and s[start - 1] in "0123456789ABCDEFabcdef")


def decode_unreserved(s: str) -> str:
    """Decode percent-encoded unreserved ASCII (RFC 3986 s6.2.2.2), except
    where that would create a dot-segment."""
    if "%" not in s:
        return s
    out: List[str] = []
    last = 0
    for m in _PCT_LOWER_RE.finditer(s):
        octet = int(m.group(1), 16)
        if octet in _UNRESERVED_OCTETS:
            ch = chr(octet)
            if ch == "." and would_make_dot_segment(s, m.start(), m.end(), "."):
                continue
            out.append(s[last:m.start()])
            out.append(ch)
            last = m.end()
    out.append(s[last:])
    return "".join(out)


def nfc(s: str) -> str:
    """Normalization Form C of an IRI (RFC 3987 s5.3.2.2)."""
    return unicodedata.normalize("NFC", s)


def remove_dot_segments(path: str) -> str:
    """RFC 3986 s5.2.4."""
    inp = path
    out: List[str] = []
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):
            inp = inp[2:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../"):
            inp = inp[3:]
            if out:
                out.pop()
        elif inp == "/..":
            inp = "/"
            if out:
                out.pop()
        elif inp in (".", ".."):
            inp = ""
        else:
            start = 1 if inp.startswith("/") else 0
            slash = inp.find("/", start)
            if slash < 0:
                slash = len(inp)
            out.append(inp[:slash])
            inp = inp[slash:]
    return "".join(out)


def percent_decode_utf8(s: str) -> str:
    """Decode every run of escapes that is valid UTF-8, whatever it decodes
    to.  Rules use this to look behind the encoding; it is not a conversion
    (the result may hold bidi controls on purpose)."""
    if "%" not in s:
        return s

    def repl(m: "re.Match[str]") -> str:
        return _decode_octets(bytes.fromhex(m.group().replace("%", "")), keep=None)

    return _PCT_RUN_RE.sub(repl, s)


def _host_is_dns(ref: IRIReference) -> bool:
    if ref.host is None or ref.host_kind != "reg-name":
        return False
    scheme = ref.scheme_lower
    return scheme is None or scheme in DNS_SCHEMES


def idna_to_unicode(label: str) -> Optional[str]:
    """The U-label of a valid A-label, or None.

    Valid means it decodes and encodes back to exactly the same text, so
    converting it is reversible."""
    if not label[:4].lower() == "xn--" or not label.isascii():
        return None
    try:
        u = idna.decode(label)
        if idna.encode(u).decode("ascii") != label:
            return None
    except (idna.IDNAError, UnicodeError, ValueError):
        return None
    if "." in u:
        return None
    return u


def _host_to_ascii(host: str, base: int, errors: List[Tuple[Span, str]]) -> str:
    """IDNA ToASCII (UTS #46, non-transitional) label by label; a label IDNA
    rejects is percent-encoded and reported."""
    parts = _HOST_SPLIT_RE.split(host)
    out: List[str] = []
    pos = base
    for i, part in enumerate(parts):
        if i % 2 == 1:  # a separator: UTS #46 maps every one of them to "."
            out.append(".")
            pos += len(part)
            continue
        label = part
        decoded = percent_decode_utf8(label) if "%" in label else label
        if decoded.isascii():
            out.append(percent_encode(label))
        else:
            try:
                out.append(idna.encode(decoded, uts46=True, transitional=False).decode("ascii"))
            except (idna.IDNAError, UnicodeError, ValueError) as exc:
                errors.append((Span(pos, pos + len(part)), str(exc) or exc.__class__.__name__))
                out.append(percent_encode(label))
        pos += len(part)
    return "".join(out)


def to_uri_detailed(iri: str) -> URIConversion:
    """:func:`to_uri`, also telling which host labels IDNA rejected."""
    try:
        if iri.isascii() and "%" not in iri and not _NOT_URI_CHAR_RE.search(iri):
            return URIConversion(iri)  # the fast path: already a URI
        ref = parse(iri)
        errors: List[Tuple[Span, str]] = []
        if ref.host is not None and _host_is_dns(ref):
            h = ref.host
            host = iri[h.start:h.end]
            if host.isascii():
                # Percent-encoded or not, an ASCII host is already in URI
                # form: mapping it to Punycode would make to_uri change a URI.
                new_host = percent_encode(host)
            else:
                new_host = _host_to_ascii(host, h.start, errors)
            text = percent_encode(iri[:h.start]) + new_host + percent_encode(iri[h.end:])
        else:
            text = percent_encode(iri)
        return URIConversion(text, errors)
    except Exception:  # pragma: no cover - defensive: never raise
        return URIConversion(percent_encode(iri))


def to_uri(iri: str) -> str:
    """Map an IRI (reference) to a URI (reference), RFC 3987 s3.1.

    Every character that may not stand in a URI is percent-encoded as UTF-8
    with uppercase hex; ASCII delimiters and every ``%`` are kept (an
    existing ``%XX``, and a ``%`` that starts no escape: s3.1 says the
    percent sign MUST NOT be converted); a non-ASCII host of a DNS scheme
    goes through IDNA ToASCII (UTS #46), while an ASCII one, even
    percent-encoded, stays as written.  Nothing is normalized (s3.1,
    variant C).  Idempotent, and the identity on every string of
    unreserved and reserved ASCII characters and ``%``.
    """
    return to_uri_detailed(iri).text


def _octet_parts(octets: bytes, keep, in_query: bool = False) -> List[Tuple[int, int, str, bool]]:
    """Steps 4-6 on octets from step 3: ``(start, end, text, decoded)`` for
    each character or re-escaped octet, in order.  Strictly legal UTF-8
    becomes characters (step 6, ``decoded`` true); everything else is
    re-escaped in uppercase (steps 4 and 5).

    ``keep(cp, in_query)`` says whether a decoded character stays encoded;
    ``None`` keeps nothing encoded.
    """
    out: List[Tuple[int, int, str, bool]] = []
    i = 0
    n = len(octets)
    while i < n:
        b = octets[i]
        if b < 0x80:
            out.append((i, i + 1, chr(b), True))
            i += 1
            continue
        if 0xC2 <= b <= 0xDF:
            size = 2
        elif 0xE0 <= b <= 0xEF:
            size = 3
        elif 0xF0 <= b <= 0xF4:
            size = 4
        else:  # a stray continuation byte, C0/C1 (always overlong) or F5+
            out.append((i, i + 1, _pct(octets[i:i + 1]), False))
            i += 1
            continue
        chunk = octets[i:i + size]
        try:
            # Python's strict decoder rejects overlongs, encoded surrogates
            # and code points above U+10FFFF, which is exactly "strictly
            # legal UTF-8" (RFC 3629).
            ch = chunk.decode("utf-8")
        except UnicodeDecodeError:
            out.append((i, i + 1, _pct(octets[i:i + 1]), False))
            i += 1
            continue
        if keep is not None and keep(ord(ch), in_query):
            out.append((i, i + size, _pct(chunk), False))
        else:
            out.append((i, i + size, ch, True))
        i += size
    return out


def _decode_octets(octets: bytes, keep, in_query: bool = False) -> str:
    """The text of :func:`_octet_parts`."""
    if keep is None:
        # Python's strict decoder takes what _octet_parts decodes (strictly
        # legal UTF-8, one character at a time) and hands each maximal
        # invalid part to the handler, which re-escapes it octet by octet
        # as _octet_parts does: the same text, without a step per octet.
        return octets.decode("utf-8", _REESCAPE)
    return "".join(part[2] for part in _octet_parts(octets, keep, in_query))


def _reescape(error: UnicodeDecodeError) -> Tuple[str, int]:
    return _pct(error.object[error.start:error.end]), error.end


_REESCAPE = "irilint-reescape"
codecs.register_error(_REESCAPE, _reescape)


@dataclass(frozen=True)
class IRIPiece:
    """Something :func:`to_iri` decodes: an A-label of a DNS host
    (``kind`` "a-label") or a run of escapes that becomes characters
    (``kind`` "percent").  ``start`` and ``end`` are offsets in the URI;
    ``encoded`` is the URI's text there, ``decoded`` what the IRI shows."""

    kind: str
    start: int
    end: int
    encoded: str
    decoded: str


#: One part of the conversion: URI span, the IRI's text for it, and the
#: piece it decodes (None where nothing is decoded: literal text, escapes
#: kept or re-escaped).
_Part = Tuple[int, int, str, Optional[IRIPiece]]


def to_iri(uri: str, keep_encoded: Optional[Callable[[IRIPiece], bool]] = None) -> str:
    """Convert a URI (reference) to an IRI (reference), RFC 3987 s3.2.

    1. The URI is taken as it is (non-ASCII text in the input is kept).
    2. A valid ``xn--`` A-label of a DNS host becomes its U-label.
    3. ``%XX`` escapes are decoded, except those of ``%``, reserved
       characters and ASCII characters not allowed in URIs.
    4. Octets that are not strictly legal UTF-8 are re-escaped.
    5. Characters not appropriate in an IRI are re-escaped: bidi formatting
       characters, characters outside ucschar (iprivate is allowed in the
       query), noncharacters, controls, invisible characters and spaces.
    6. The rest is UTF-8, taken as characters.  No other encoding is guessed.

    One deviation, to keep resolution unchanged: ``%2E`` is not decoded
    where that would create a "." or ".." segment.  Re-escapes use
    uppercase hex; escapes that are not decoded keep their case.

    ``keep_encoded``, if given, is asked about each :class:`IRIPiece` (see
    :func:`iri_pieces`); a piece it answers true for stays as the URI
    writes it (s3.2.1: an A-label may be kept where its U-label could
    mislead).
    """
    try:
        if "%" not in uri and "xn--" not in uri.lower():
            return uri
        return "".join(uri[s:e] if piece is not None and keep_encoded is not None and keep_encoded(piece)
                       else text for s, e, text, piece in _iri_parts(uri))
    except Exception:  # pragma: no cover - defensive: never raise
        return uri


@dataclass
class IRIConversion:
    """The result of :func:`to_iri_detailed`: the IRI, and for each piece
    decoded, where its decoded text stands in the IRI."""

    text: str
    decoded: List[Tuple[IRIPiece, Span]] = field(default_factory=list)


def to_iri_detailed(uri: str, keep_encoded: Optional[Callable[[IRIPiece], bool]] = None) -> IRIConversion:
    """:func:`to_iri`, also telling where each decoded piece landed."""
    try:
        if "%" not in uri and "xn--" not in uri.lower():
            return IRIConversion(uri)
        out: List[str] = []
        decoded: List[Tuple[IRIPiece, Span]] = []
        pos = 0
        for s, e, text, piece in _iri_parts(uri):
            if piece is not None and keep_encoded is not None and keep_encoded(piece):
                text = uri[s:e]
            elif piece is not None:
                decoded.append((piece, Span(pos, pos + len(text))))
            out.append(text)
            pos += len(text)
        return IRIConversion("".join(out), decoded)
    except Exception:  # pragma: no cover - defensive: never raise
        return IRIConversion(uri)


def iri_pieces(uri: str) -> List[IRIPiece]:
    """What :func:`to_iri` decodes in ``uri``, in order: each valid A-label
    of a DNS host, and each run of escapes that becomes characters (a run
    ends where an escape stays encoded)."""
    try:
        if "%" not in uri and "xn--" not in uri.lower():
            return []
        return [piece for _s, _e, _t, piece in _iri_parts(uri) if piece is not None]
    except Exception:  # pragma: no cover - defensive: never raise
        return []


#: the last URI :func:`_iri_parts` cut, and its parts: to_iri, iri_pieces
#: and to_iri_detailed are often asked about one URI in turn (the engine's
#: safe_to_iri asks for its pieces, then converts it)
_last_parts: Tuple[Optional[str], Tuple[_Part, ...]] = (None, ())


def _iri_parts(uri: str) -> List[_Part]:
    """The URI cut into parts that cover it, in order (see ``_Part``)."""
    global _last_parts
    last = _last_parts  # one read: another thread may replace it
    if last[0] == uri:
        return list(last[1])
    parts = _iri_parts_uncached(uri)
    _last_parts = (uri, tuple(parts))
    return parts


def _iri_parts_uncached(uri: str) -> List[_Part]:
    ref = parse(uri)
    marks: List[_Part] = []
    # Step 2: A-labels of a DNS host.
    if ref.host is not None and _host_is_dns(ref) and "xn--" in uri[ref.host.start:ref.host.end].lower():
        pos = ref.host.start
        for i, label in enumerate(_HOST_SPLIT_RE.split(uri[ref.host.start:ref.host.end])):
            u = idna_to_unicode(label) if i % 2 == 0 else None
            if u is not None:
                marks.append((pos, pos + len(label), u, IRIPiece("a-label", pos, pos + len(label), label, u)))
            pos += len(label)
    if "%" in uri:
        q = ref.query
        query_range = (q.start, q.end) if q is not None else (-1, -1)
        scheme_end = ref.scheme.end if ref.scheme is not None else -1
        kept_labels = _labels_that_would_become_a_labels(uri, ref)
        for m in _PCT_RUN_RE.finditer(uri):
            if m.start() < scheme_end:
                # an escape cannot stand in a scheme; decoded, "h%2Ep:"
                # would become the scheme "h.p" and change the reference
                continue
            if any(a <= m.start() < b for a, b in kept_labels):
                # decoded, "xn--%33p1ai" would read as the A-label
                # "xn--3p1ai", which a second conversion would decode:
                # such a label keeps its escapes, so to_iri stays idempotent
                continue
            marks.extend(_run_parts(uri, m.start(), m.group(), query_range))
    parts: List[_Part] = []
    last = 0
    marks.sort(key=lambda mark: mark[0])  # A-labels hold no "%": marks are disjoint
    for s, e, text, piece in marks:
        if s > last:
            parts.append((last, s, uri[last:s], None))
        parts.append((s, e, text, piece))
        last = e
    if last < len(uri):
        parts.append((last, len(uri), uri[last:], None))
    return parts


def _labels_that_would_become_a_labels(uri: str, ref: IRIReference) -> List[Tuple[int, int]]:
    """Spans of the host labels that hold an escape and, with their escapes
    decoded, would hold "xn--" (and so could read as an A-label)."""
    h = ref.host
    if h is None or "%" not in uri[h.start:h.end] or uri.startswith("[", h.start):
        return []
    spans = []
    pos = h.start
    for i, label in enumerate(_HOST_SPLIT_RE.split(uri[h.start:h.end])):
        if i % 2 == 0 and "%" in label and "xn--" in percent_decode_utf8(label).lower():
            spans.append((pos, pos + len(label)))
        pos += len(label)
    return spans


def _run_parts(uri: str, start: int, run: str, query_range: Tuple[int, int]) -> List[_Part]:
    """Steps 3-6 on one run of escapes at ``start``: consecutive decoded
    characters make one piece."""
    in_query = query_range[0] <= start < query_range[1]
    octets = bytes.fromhex(run.replace("%", ""))
    if octets[0] >= 0x80 and min(octets) >= 0x80:
        # The common run: encoded non-ASCII text.  When it is all strictly
        # legal UTF-8 and no character of it stays encoded, the steps below
        # make one piece of the whole run; found here with C-level calls.
        try:
            text = octets.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and not any(kept_encoded_in_iri(ord(c), in_query) for c in set(text)):
            end = start + len(run)
            return [(start, end, text, IRIPiece("percent", start, end, run, text))]
    # (octet start, octet end, text, decoded)
    items: List[Tuple[int, int, str, bool]] = []
    j = 0
    n = len(octets)
    while j < n:
        b = octets[j]
        if b < 0x80:
            # Step 3: ASCII octets that are not unreserved stay as they
            # were written; the rest are decoded in groups of non-ASCII
            # octets.
            esc = start + 3 * j
            if b in _UNRESERVED_OCTETS and not (
                b == 0x2E and would_make_dot_segment(uri, esc, esc + 3, ".")
            ) and not _would_make_escape(uri, esc, b):
                items.append((j, j + 1, chr(b), True))
            else:
                items.append((j, j + 1, run[3 * j:3 * j + 3], False))
            j += 1
            continue
        k = j
        while k < n and octets[k] >= 0x80:
            k += 1
        items.extend((j + a, j + z, text, decoded)
                     for a, z, text, decoded in _octet_parts(octets[j:k], kept_encoded_in_iri, in_query))
        j = k
    parts: List[_Part] = []
    i = 0
    while i < len(items):
        a, z, text, decoded = items[i]
        if not decoded:
            parts.append((start + 3 * a, start + 3 * z, text, None))
            i += 1
            continue
        texts = [text]
        i += 1
        while i < len(items) and items[i][3]:
            texts.append(items[i][2])
            z = items[i][1]
            i += 1
        s, e = start + 3 * a, start + 3 * z
        decoded_text = "".join(texts)
        parts.append((s, e, decoded_text, IRIPiece("percent", s, e, uri[s:e], decoded_text)))
    return parts
