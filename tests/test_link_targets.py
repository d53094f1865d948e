"""Properties of document link targets (irilint.lsp.links.link_target)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from iri_strategies import iri_reference, piece

from irilint import parse, to_uri
from irilint.anatomy import is_invisible
from irilint.lsp.links import link_target

BASE = "file:///d/docs/r.md"


@settings(max_examples=400, deadline=None)
@given(iri_reference())
def test_target_is_the_uri_of_the_reference_or_nothing(value):
    target, why = link_target(value, BASE)
    if any(is_invisible(ch) for ch in value):
        assert target is None and "cannot see" in why
        return
    if target is None:
        assert why
        return
    assert why == ""
    assert target.isascii() and target.isprintable()
    assert target == to_uri(value)  # absolute: RFC 3987 s3.1, nothing else
    assert parse(target).is_absolute


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(piece(), st.sampled_from([".", ".."])), min_size=1, max_size=4).map("/".join))
def test_relative_targets_stay_under_the_document_scheme(path):
    value = path if not path.startswith("/") else "." + path
    if ":" in value.split("/")[0]:
        value = "./" + value  # a first segment with ':' would read as a scheme
    target, why = link_target(value, BASE)
    if any(is_invisible(ch) for ch in value):
        assert target is None
        return
    assert target is not None, why
    assert target.startswith("file:///") and target.isascii()
    ref = parse(target)
    segments = (ref.get("path") or "").split("/")
    assert "." not in segments and ".." not in segments
    assert link_target(value, "untitled:Untitled-1")[0] is None
