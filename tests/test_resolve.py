"""Reference resolution (RFC 3986 s5.2), checked with s5.4's examples."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint.resolve import resolve

BASE = "http://a/b/c/d;p?q"

# RFC 3986 s5.4.1 "Normal Examples"
NORMAL = [
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"), ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"), ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"),
    ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 3986 s5.4.2 "Abnormal Examples" (strict parser)
ABNORMAL = [
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
]


@pytest.mark.parametrize("reference, target", NORMAL + ABNORMAL)
def test_rfc3986_examples(reference, target):
    assert resolve(BASE, reference) == target


def test_file_uri_of_a_document():
    base = "file:///home/u/docs/r%C3%A9sum%C3%A9.md"
    assert resolve(base, "../a.md") == "file:///home/u/a.md"
    assert resolve(base, "#top") == base + "#top"
    assert resolve("http://h", "x") == "http://h/x"  # s5.2.3: empty base path with authority


def test_base_must_be_absolute():
    with pytest.raises(ValueError, match="'docs/a.md'"):
        resolve("docs/a.md", "b")


_SEGMENT = st.sampled_from(["a", "b", ".", "..", "g;x", "%C3%A9", "\u05e9", ""])
_PATH = st.lists(_SEGMENT, max_size=6).map("/".join)
_REFERENCE = st.tuples(st.sampled_from(["", "/", "//h/", "?q", "#f"]), _PATH,
                       st.sampled_from(["", "?y", "#s", "?y#s"])).map("".join)


@settings(max_examples=300, deadline=None)
@given(reference=_REFERENCE)
def test_result_is_absolute_and_stable(reference):
    target = resolve(BASE, reference)
    assert target.startswith("http://")
    # resolving a resolved target again changes nothing (it is absolute and
    # has no dot segments left)
    assert resolve(BASE, target) == target
    # and it does not depend on the base once it is absolute
    assert resolve("ftp://other/x/y", target) == target


@settings(max_examples=200, deadline=None)
@given(reference=_REFERENCE)
def test_no_dot_segments_in_the_path(reference):
    target = resolve(BASE, reference)
    path = target[len("http://"):].split("?")[0].split("#")[0]
    segments = path.split("/")[1:]
    assert "." not in segments and ".." not in segments
