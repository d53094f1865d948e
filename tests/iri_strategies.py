"""Hypothesis strategies: valid and nearly valid IRIs, shared by the fix
properties and the fuzz suites."""
from __future__ import annotations

import re

import idna
from hypothesis import strategies as st

from irilint import nfc, parse, remove_dot_segments, to_uri
from irilint.convert import decode_unreserved, uppercase_percent_encodings

_ESCAPE_SPLIT_RE = re.compile(r"(%[0-9A-Fa-f]{2})")
ASCII_PCHAR = list("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-._~!$&'()*+,;=:@")
UNICODE_CHARS = list("éüßçñ日本語例えパスпримерשלוםمثالक्षΩ한국😀") + ["e\u0301", "\u202e", "\u200b", "\ufb01", "\uff0f", "\u0430"]
ESCAPES = ["%41", "%7e", "%7E", "%2e", "%2E", "%e2%80%ae", "%C3%A9", "%c3%a9", "%E9", "%C0%AF", "%25", "%2520", "%", "%z", "%E6%97%A5"]
HOST_LABELS = ["example", "EXAMPLE", "例え", "пример", "xn--r8jz45g", "XN--R8JZ45G", "xn--zz", "faß", "аррӏе", "www", "b\u00fccher", "a-b", "xn--80ak6aa92e"]


def piece(extra=""):
    return st.lists(
        st.one_of(st.sampled_from(ASCII_PCHAR + list(extra)), st.sampled_from(UNICODE_CHARS), st.sampled_from(ESCAPES)),
        max_size=6,
    ).map("".join)


@st.composite
def iri_reference(draw):
    """IRIs with the features the rules and fixes deal with: case, dot
    segments, default ports, escapes of every kind, non-NFC text, spaces."""
    scheme = draw(st.sampled_from(["http", "HTTP", "https", "Https", "ftp", "mailto", "urn", "foo"]))
    parts = [scheme, ":"]
    if scheme.lower() in ("http", "https", "ftp") or draw(st.booleans()):
        parts.append("//")
        if draw(st.integers(0, 4)) == 0:
            parts.append(draw(piece()) + "@")
        labels = draw(st.lists(st.sampled_from(HOST_LABELS), min_size=1, max_size=3))
        parts.append(".".join(labels + [draw(st.sampled_from(["com", "org", "jp", "рф", "COM"]))]))
        port = draw(st.sampled_from(["", "", ":80", ":443", ":21", ":8080", ":"]))
        parts.append(port)
        for seg in draw(st.lists(st.one_of(piece(), st.sampled_from([".", "..", "%2E%2E", "a b"])), max_size=4)):
            parts.append("/" + seg)
    else:
        parts.append(draw(piece()))
    if draw(st.booleans()):
        parts.append("?" + draw(piece("/?")))
    if draw(st.booleans()):
        parts.append("#" + draw(piece("/?")))
    return "".join(parts)


# --- references that hide, or show, something misleading ----------------------


def _alabel(u_label: str) -> str:
    return idna.encode(u_label, uts46=True, transitional=False).decode("ascii")


#: A-labels of names that look like Latin ones: whole-script Cyrillic
#: (apple, paypal, scope), mixed Cyrillic/Latin and Greek/Latin, and IDNA
#: deviations; then legitimate IDNs, which must still convert.
CONFUSABLE_ALABELS = [_alabel(u) for u in (
    "аррӏе", "раураӏ", "ѕсоре",
    "pаypal", "gοogle", "еxample", "faß", "straße")]
LEGITIMATE_ALABELS = [_alabel(u) for u in (
    "résumé", "bücher", "пример", "例え",
    "مثال", "שלום")]


def _pct(text: str) -> str:
    return "".join("%%%02X" % b for b in text.encode("utf-8"))


#: Percent-encoded text: bidi controls, right-to-left words, Cyrillic
#: letters that make a Latin word mixed-script, full-width forms, and
#: plain words of one script.
ENCODED_RUNS = [_pct(t) for t in (
    "‮", "⁦", "‏", "שלום", "مثال", "а", "р",
    "о", "раураӏ", "／", "ａ", "％", "．",
    "привет", "été", "日本")] + ["%e2%80%ae", "%d0%b0"]
#: Host labels written literally that mix scripts or use full-width forms.
SPOOF_HOST_LABELS = ["pаypal", "gοogle", "ｅｘａｍｐｌｅ",
                     "аррӏе", "xn--80ak6aa92e", "pay%D0%B0l", "%D0%B0pple"]
SPOOF_TEXT = ["pay", "al", "pple", "a", "login", "／", "ａ", "שלום", "1", "-", "."]


def spoof_piece():
    return st.lists(st.one_of(st.sampled_from(ENCODED_RUNS), st.sampled_from(SPOOF_TEXT)),
                    max_size=4).map("".join)


@st.composite
def spoof_reference(draw):
    """References with A-labels of confusable and legitimate names,
    percent-encoded bidi controls and right-to-left text, mixed-script
    hosts and full-width forms, in the host, path, query and fragment."""
    scheme = draw(st.sampled_from(["http", "https", "ftp", "foo"]))
    labels = draw(st.lists(st.sampled_from(CONFUSABLE_ALABELS + LEGITIMATE_ALABELS + SPOOF_HOST_LABELS
                                           + ["example", "www"]), min_size=1, max_size=3))
    parts = [scheme, "://", ".".join(labels + [draw(st.sampled_from(["com", "org", _alabel("рф")]))])]
    for seg in draw(st.lists(spoof_piece(), max_size=3)):
        parts.append("/" + seg)
    if draw(st.booleans()):
        parts.append("?q=" + draw(spoof_piece()))
    if draw(st.booleans()):
        parts.append("#" + draw(spoof_piece()))
    return "".join(parts)


_STRAY_PERCENT_RE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def decoded_host(iri: str) -> str:
    """``iri`` with a percent-encoded non-ASCII host written as the text it
    encodes: RFC 3987 s3.1 lets a host be either percent-encoded UTF-8 or
    IDNA, and to_uri keeps the first as it is (the identity on URIs) while
    it maps the text through IDNA, so a key compares them as one."""
    from irilint.convert import percent_decode_utf8

    ref = parse(iri)
    h = ref.host
    if h is None or ref.host_kind != "reg-name" or "%" not in iri[h.start:h.end]:
        return iri
    host = iri[h.start:h.end]
    # only the runs of escapes of non-ASCII octets: "%25" and the other
    # ASCII escapes stay as written
    text = _HIGH_ESCAPES_RE.sub(lambda m: percent_decode_utf8(m.group()), host)
    if text.isascii():
        return iri
    return iri[:h.start] + text + iri[h.end:]


_HIGH_ESCAPES_RE = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")


def uri_key(iri: str) -> str:
    """The URI an IRI maps to, up to the equivalences of RFC 3986 s6.2.2
    (case, percent-encoding, path segments) and s6.2.3 (default port),
    after RFC 3987 s5.3.2.2 character normalization (NFC)."""
    # NFC applies to characters, not to the hex digits of an escape: a
    # combining mark after "%ae" must not compose with the "e".
    # A stray "%" is read as the percent sign it is, which "%25" encodes:
    # to_uri keeps it as written (RFC 3987 s3.1), the key spells it "%25",
    # so bad-percent-encoding's fix keeps the key.
    iri = _STRAY_PERCENT_RE.sub("%25", iri)
    iri = decoded_host(iri)
    pieces = _ESCAPE_SPLIT_RE.split(iri)
    u = to_uri("".join(p if i % 2 else nfc(p) for i, p in enumerate(pieces)))
    ref = parse(u)
    out = []
    if ref.scheme is not None:
        out.append(ref.get("scheme").lower() + ":")
    if ref.authority is not None:
        out.append("//")
        if ref.userinfo is not None:
            out.append(ref.get("userinfo") + "@")
        out.append((ref.get("host") or "").lower())
        port = ref.get("port")
        default = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}.get(
            (ref.get("scheme") or "").lower())
        if port and port != default:
            out.append(":" + port)
    path = ref.get("path")
    if ref.scheme is not None or ref.authority is not None or path.startswith("/"):
        path = remove_dot_segments(path)
    out.append(path)
    if ref.query is not None:
        out.append("?" + ref.get("query"))
    if ref.fragment is not None:
        out.append("#" + ref.get("fragment"))
    return uppercase_percent_encodings(decode_unreserved("".join(out)))
