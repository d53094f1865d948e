"""Properties of the conversions, checked over generated URIs and IRIs."""
import re
import unicodedata

import idna
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from irilint import (
    decode_unreserved,
    nfc,
    parse,
    percent_encode_component,
    remove_dot_segments,
    to_iri,
    to_uri,
    uppercase_percent_encodings,
)
from irilint.chars import kept_encoded_in_iri
from irilint.convert import iri_pieces

# The done-criterion of the foundation issue: at least 2,000 examples each.
PROPERTY = settings(max_examples=2000, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
SUB_DELIMS = "!$&'()*+,;="

# Any octet, percent-encoded in either hex case.
pct = st.builds(lambda b, upper: ("%%%02X" if upper else "%%%02x") % b,
                st.integers(0, 255), st.booleans())
# UTF-8 of any character, percent-encoded: exercises the decode path hard.
pct_char = st.characters(min_codepoint=0x80, blacklist_categories=("Cs",)).map(
    lambda c: "".join("%%%02X" % b for b in c.encode("utf-8")))


def uri_piece(extra):
    return st.lists(st.one_of(st.sampled_from(list(UNRESERVED + SUB_DELIMS + extra)), pct, pct_char),
                    max_size=8).map("".join)


# A-labels built from U-labels that IDNA accepts.
u_label = st.text(alphabet=st.sampled_from(list("abcxyzäöüéßçñ日本語例えпримерשלוםمثال한국ελ")), min_size=1, max_size=6)


@st.composite
def dns_label(draw):
    if draw(st.booleans()):
        return draw(st.text(alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyz0123456789")), min_size=1, max_size=8))
    u = draw(u_label)
    try:
        return idna.encode(u).decode("ascii")
    except idna.IDNAError:
        return "fallback"


@st.composite
def valid_uri(draw):
    scheme = draw(st.sampled_from(["http", "https", "ftp", "urn", "mailto", "foo+bar", "x-y.z"]))
    parts = [scheme, ":"]
    if draw(st.booleans()):
        parts.append("//")
        if draw(st.booleans()):
            parts.append(draw(uri_piece(":")) + "@")
        kind = draw(st.sampled_from(["dns", "ipv4", "ipv6"]))
        if kind == "dns":
            parts.append(".".join(draw(st.lists(dns_label(), min_size=1, max_size=4))))
        elif kind == "ipv4":
            parts.append(".".join(str(draw(st.integers(0, 255))) for _ in range(4)))
        else:
            parts.append(draw(st.sampled_from(["[::1]", "[2001:db8::7]", "[v1.x:y]"])))
        if draw(st.booleans()):
            parts.append(":" + str(draw(st.integers(0, 65535))))
        for seg in draw(st.lists(uri_piece(":@"), max_size=4)):
            parts.append("/" + seg)
    else:
        parts.append(draw(uri_piece(":@")))
    if draw(st.booleans()):
        parts.append("?" + draw(uri_piece(":@/?")))
    if draw(st.booleans()):
        parts.append("#" + draw(uri_piece(":@/?")))
    uri = "".join(parts)
    assume(not parse(uri).problems)
    return uri


def canonical(uri):
    """Equal up to hex case and RFC 3986 s6.2.2.2 unreserved decoding."""
    return uppercase_percent_encodings(decode_unreserved(uri))


# Characters an IRI may hold that s3.2 does not keep encoded.
iri_char = st.characters(min_codepoint=0xA0, blacklist_categories=("Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Cf", "Mn", "Me", "Mc")).filter(
    lambda c: not kept_encoded_in_iri(ord(c), False))


def iri_piece(extra):
    return st.lists(st.one_of(st.sampled_from(list(UNRESERVED + SUB_DELIMS + extra)), iri_char),
                    max_size=8).map("".join)


@st.composite
def simple_iri(draw):
    """IRIs in NFC, with nothing s3.2 keeps encoded, no %XX, and a host
    that IDNA maps to itself."""
    scheme = draw(st.sampled_from(["http", "https", "urn", "foo"]))
    parts = [scheme, ":"]
    if draw(st.booleans()):
        labels = draw(st.lists(u_label, min_size=1, max_size=3))
        host = ".".join(labels)
        try:
            ace = idna.encode(host, uts46=True, transitional=False).decode("ascii")
            assume(idna.decode(ace) == host)
        except idna.IDNAError:
            assume(False)
        parts.append("//" + host)
        for seg in draw(st.lists(iri_piece(":@"), max_size=3)):
            parts.append("/" + seg)
    else:
        parts.append(draw(iri_piece(":@")))
    if draw(st.booleans()):
        parts.append("?" + draw(iri_piece(":@/?")))
    if draw(st.booleans()):
        parts.append("#" + draw(iri_piece(":@/?")))
    iri = "".join(parts)
    assume(unicodedata.normalize("NFC", iri) == iri)
    assume(not parse(iri).problems)
    return iri


any_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()))
tricky_text = st.text(alphabet=st.sampled_from(list("%:/?#[]@.xn-Aa0 \u202e\u05e9\u00e9\ud800\ue000\ufffe")), max_size=30)


@PROPERTY
@given(st.one_of(any_text, tricky_text, valid_uri(), simple_iri()))
def test_to_uri_is_idempotent(text):
    once = to_uri(text)
    assert to_uri(once) == once
    assert once.isascii()


@PROPERTY
@given(valid_uri())
def test_uri_round_trips_through_iri(uri):
    assert canonical(to_uri(to_iri(uri))) == canonical(uri)


@PROPERTY
@given(valid_uri().filter(lambda u: canonical(u) == u))
def test_uri_round_trips_exactly_when_already_canonical(uri):
    assert to_uri(to_iri(uri)) == uri


@PROPERTY
@given(simple_iri())
def test_iri_round_trips_through_uri(iri):
    assert to_iri(to_uri(iri)) == iri


@PROPERTY
@given(st.one_of(any_text, tricky_text))
def test_no_function_raises(text):
    ref = parse(text)
    for p in ref.problems:
        assert 0 <= p.start <= p.end <= len(text)
    for name in ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"):
        span = getattr(ref, name)
        if span is not None:
            assert 0 <= span.start <= span.end <= len(text)
    for seg in ref.segments + ref.host_labels:
        assert 0 <= seg.start <= seg.end <= len(text)
    to_uri(text)
    to_iri(text)
    nfc(text)
    uppercase_percent_encodings(text)
    decode_unreserved(text)
    percent_encode_component(text)
    remove_dot_segments(text)


@PROPERTY
@given(st.one_of(any_text, valid_uri()))
def test_to_iri_never_decodes_a_bidi_control(text):
    from irilint.chars import BIDI_CONTROL_CHARS

    before = sum(text.count(c) for c in BIDI_CONTROL_CHARS)
    after = to_iri(text)
    assert sum(after.count(c) for c in BIDI_CONTROL_CHARS) == before


@PROPERTY
@given(valid_uri())
def test_parse_reassembles(uri):
    ref = parse(uri)
    rebuilt = ""
    if ref.scheme is not None:
        rebuilt += ref.get("scheme") + ":"
    if ref.authority is not None:
        rebuilt += "//" + ref.get("authority")
    rebuilt += ref.get("path")
    if ref.query is not None:
        rebuilt += "?" + ref.get("query")
    if ref.fragment is not None:
        rebuilt += "#" + ref.get("fragment")
    assert rebuilt == uri


@PROPERTY
@given(st.text(alphabet=st.sampled_from(list("/.ab")), max_size=20))
def test_remove_dot_segments_leaves_no_dot_segments(path):
    out = remove_dot_segments(path)
    segs = out.split("/")
    assert "." not in segs[:-1] or out == path == "."
    assert ".." not in segs


# --- RFC 3987 s3.1: the mapping is the identity on URIs ------------------------

URI_CHARS = UNRESERVED + SUB_DELIMS + ":/?#[]@" + "%"
uri_text = st.text(alphabet=st.sampled_from(list(URI_CHARS)), max_size=40)
# URI-shaped strings with hosts made of escapes (d%C3%BCrst) and stray "%".
uri_with_escaped_host = st.builds(
    lambda scheme, host, rest: "%s://%s/%s" % (scheme, host, rest),
    st.sampled_from(["http", "https", "ftp", "foo"]),
    st.lists(st.one_of(st.sampled_from(list("abcxyz-.%")), pct, pct_char), min_size=1, max_size=8).map("".join),
    uri_text)


@PROPERTY
@given(st.one_of(uri_text, uri_with_escaped_host, valid_uri()))
def test_to_uri_is_the_identity_on_uri_characters(text):
    assert to_uri(text) == text


@PROPERTY
@given(st.one_of(any_text, tricky_text))
def test_to_uri_keeps_every_percent_sign(text):
    # s3.1: "%" MUST NOT be converted; every other "%" in the result comes
    # from an encoded character, so it is followed by two hex digits.
    out = to_uri(text)
    assert out.count("%") >= text.count("%")
    stray = [m.start() for m in re.finditer(r"%(?![0-9A-Fa-f]{2})", out)]
    assert len(stray) == len(re.findall(r"%(?![0-9A-Fa-f]{2})", text))


# --- to_iri piece by piece -----------------------------------------------------


@PROPERTY
@given(valid_uri(), st.randoms(use_true_random=False))
def test_to_iri_keeps_exactly_the_pieces_asked(uri, rnd):
    pieces = iri_pieces(uri)
    for p in pieces:
        assert uri[p.start:p.end] == p.encoded and p.kind in ("a-label", "percent")
        assert p.encoded != p.decoded
    assert [(p.start, p.end) for p in pieces] == sorted((p.start, p.end) for p in pieces)
    assert to_iri(uri, keep_encoded=lambda p: False) == to_iri(uri)
    kept = {(p.start, p.end) for p in pieces if rnd.random() < 0.5}
    iri = to_iri(uri, keep_encoded=lambda p: (p.start, p.end) in kept)
    # every kept piece is still there as the URI writes it, and the result
    # maps back to the same URI
    for p in pieces:
        if (p.start, p.end) in kept:
            assert p.encoded in iri
    assert canonical(to_uri(iri)) == canonical(uri)
    # keeping every piece decodes nothing: only re-escapes in uppercase
    everything = to_iri(uri, keep_encoded=lambda p: True)
    assert canonical(everything) == canonical(uri)
