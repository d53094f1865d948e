"""The IRI reference model (RFC 3987 s2.2 grammar, RFC 3986 Appendix B split)."""
import pytest
from hypothesis import example, given, settings, strategies as st

from irilint import parse

from iri_strategies import iri_reference


def comp(ref, name):
    return ref.get(name)


def test_full_reference_components_and_offsets():
    text = "https://us\u00e9r:pw@例え.jp:8443/パス/file.html?q=1&r=ש#frag"
    ref = parse(text)
    assert comp(ref, "scheme") == "https"
    assert comp(ref, "authority") == "us\u00e9r:pw@例え.jp:8443"
    assert comp(ref, "userinfo") == "us\u00e9r:pw"
    assert comp(ref, "host") == "例え.jp"
    assert ref.host_kind == "reg-name"
    assert comp(ref, "port") == "8443"
    assert comp(ref, "path") == "/パス/file.html"
    assert [s.text(text) for s in ref.segments] == ["パス", "file.html"]
    assert [s.text(text) for s in ref.host_labels] == ["例え", "jp"]
    assert comp(ref, "query") == "q=1&r=ש"
    assert [(n.text(text), v.text(text) if v else None) for n, v in ref.query_parts] == [
        ("q", "1"), ("r", "ש")]
    assert comp(ref, "fragment") == "frag"
    assert ref.problems == []
    # offsets point into the input
    assert text[ref.host.start:ref.host.end] == "例え.jp"
    assert ref.component_at(ref.host.start) == "host"
    assert ref.component_at(ref.query.start) == "query"


@pytest.mark.parametrize(
    "text, scheme, host, kind, port, path, query, fragment",
    [
        ("http://[2001:db8::7]/c=GB?objectClass?one", "http", "[2001:db8::7]", "ip-literal", None, "/c=GB", "objectClass?one", None),
        ("http://[v7.abc:x]/", "http", "[v7.abc:x]", "ipvfuture", None, "/", None, None),
        ("http://192.0.2.16:80/", "http", "192.0.2.16", "ipv4", "80", "/", None, None),
        ("http://256.0.0.1/", "http", "256.0.0.1", "reg-name", None, "/", None, None),
        ("mailto:John.Doe@example.com", "mailto", None, None, None, "John.Doe@example.com", None, None),
        ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "urn", None, None, None, "oasis:names:specification:docbook:dtd:xml:4.1.2", None, None),
        ("tel:+1-816-555-1212", "tel", None, None, None, "+1-816-555-1212", None, None),
        ("//example.org/x", None, "example.org", "reg-name", None, "/x", None, None),
        ("../a/b?c#d", None, None, None, None, "../a/b", "c", "d"),
        ("#only", None, None, None, None, "", None, "only"),
        ("?only", None, None, None, None, "", "only", None),
        ("", None, None, None, None, "", None, None),
        ("http://h:/", "http", "h", "reg-name", "", "/", None, None),
        ("http://h?#", "http", "h", "reg-name", None, "", "", ""),
    ],
)
def test_component_table(text, scheme, host, kind, port, path, query, fragment):
    ref = parse(text)
    assert ref.get("scheme") == scheme
    assert ref.get("host") == host
    assert ref.host_kind == kind
    assert ref.get("port") == port
    assert ref.get("path") == path
    assert ref.get("query") == query
    assert ref.get("fragment") == fragment


def kinds(text):
    return [(p.kind, text[p.start:p.end]) for p in parse(text).problems]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("http://e.org/a b", [("invalid-character", " ")]),
        ("http://e.org/<x>", [("invalid-character", "<"), ("invalid-character", ">")]),
        ("http://e.org/a\\b", [("invalid-character", "\\")]),
        ("http://e.org/\x00", [("invalid-character", "\x00")]),
        ("http://e.org/\x85", [("invalid-character", "\x85")]),  # C1 control
        ("http://e.org/\ufffd", [("invalid-character", "\ufffd")]),
        ("http://e.org/\U000E0041", [("invalid-character", "\U000E0041")]),  # plane 14
        ("http://e.org/\ufdd0", [("noncharacter", "\ufdd0")]),
        ("http://e.org/\U0001FFFE", [("noncharacter", "\U0001FFFE")]),
        ("http://e.org/\ue000", [("private-use-outside-query", "\ue000")]),
        ("http://e.org/?\ue000", []),
        ("http://e.org/#\ue000", [("private-use-outside-query", "\ue000")]),
        ("http://e.org/\U000F0000", [("private-use-outside-query", "\U000F0000")]),
        ("1http://e.org/", [("invalid-scheme", "1http")]),
        ("ht_tp://e.org/", [("invalid-scheme", "ht_tp")]),
        ("http://e.org:8x/", [("invalid-port", "8x")]),
        ("http://e.org:65536/", [("invalid-port", "65536")]),
        ("http://e.org:65535/", []),
        ("http://[::1/", [("invalid-ip-literal", "[::1")]),
        ("http://[1:2:3]/", [("invalid-ip-literal", "[1:2:3]")]),
        ("http://[fe80::1%25eth0]/", [("invalid-ip-literal", "[fe80::1%25eth0]")]),
        ("http://[::1]x/", [("invalid-character", "x")]),
        ("http://e.org/%zz", [("bad-percent-encoding", "%")]),
        ("http://e.org/%a", [("bad-percent-encoding", "%a")]),
        ("http://e.org/%", [("bad-percent-encoding", "%")]),
        ("http://e.org/%41%e2", []),
        ("http://e.org/a#b#c", [("invalid-character", "#")]),
        ("http://e.org/[x]", [("invalid-character", "["), ("invalid-character", "]")]),
        ("http://a@b@e.org/", [("invalid-character", "@")]),
        ("http://e x.org/", [("invalid-character", " ")]),
        ("//x", []),
        ("a:////x", []),
        ("a://", []),
    ],
)
def test_problem_table(text, expected):
    assert kinds(text) == expected


def test_never_raises_on_odd_inputs():
    for text in ["\ud800", "[", "]", "http://[", "::::", "%%%%", "@@@", "?#?#", "\x00" * 5,
                 "http://" + "a" * 10000, "http://[" + ":" * 100 + "]"]:
        ref = parse(text)
        assert ref.text == text


# -- a long reference is split with str.find, a short one with _SPLIT_RE --------

_SPLIT_PIECES = [":", "/", "//", "?", "#", "@", "[", "]", "a", "http", "x:", "\u0301" * 1100, "e\u0301",
                 "%", "%zz", "%41", "\n", " ", "\u05d0", "\ue000", "\ufdd0", "\u200b", "例え", "."]


def _regex_split(text):
    from irilint.iri import _SPLIT_RE

    m = _SPLIT_RE.match(text)
    return (m.end(1),) + m.span(2) + m.span(3) + m.span(4) + (m.start(5),)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(), st.lists(st.sampled_from(_SPLIT_PIECES), max_size=20).map("".join), iri_reference()))
@example("")
@example(":")
@example("//")
@example("a:b:c//d")
@example("http://h")
@example("http://h?q#f?g#h")
@example("?#")
@example("#?")
def test_find_split_equals_the_appendix_b_regex(text):
    from irilint.iri import _split_long

    assert _split_long(text) == _regex_split(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SPLIT_PIECES), max_size=12).map("".join), iri_reference(),
       st.sampled_from(["", "\u0301" * 1100, "a" * 1100, "%zz" * 400]), st.booleans())
def test_long_references_parse_as_the_regex_splits_them(head, iri, filler, grammar_checked):
    # The same reference parsed both ways, whatever comes out of it: spans,
    # host kind, problems.
    import irilint.iri as iri_module

    text = iri + filler + head
    fast = parse(text, grammar_checked)
    saved = iri_module.FIND_SPLIT_FROM
    iri_module.FIND_SPLIT_FROM = 1 << 62
    try:
        slow = parse(text, grammar_checked)
    finally:
        iri_module.FIND_SPLIT_FROM = saved
    assert fast == slow
