"""Fuzzing the whole pipeline: scanners -> engine (every rule) -> fixes ->
conversions, on arbitrary Unicode text and on valid and nearly valid IRIs
embedded in documents of every format.

The invariants are in :mod:`invariants` (shared with the atheris harness):
no exception and no rule crash, spans and edits inside the document and
inside their reference, safe fixes keep the URI and the reference, fixes
converge (safe and unsafe) within 10 passes, ``to_uri`` gives ASCII and is
idempotent.  The budget comes from the hypothesis profile
(``IRILINT_FUZZ_PROFILE``, see ``conftest.py``).
"""
from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import invariants as inv
from fuzz_profile import fuzz_settings
from fuzz_strategies import FORMATS, any_iri, documents, embedded, mutated_iri, noisy_text
from iri_strategies import iri_reference

EVERY_FORMAT = sorted(inv.FORMAT_FILES)


@fuzz_settings(scale=2)
@given(documents())
def test_documents_of_every_format(doc):
    fmt, _name, text = doc
    inv.check_document(text, fmt)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@fuzz_settings(scale=0.5)
@given(data=st.data())
def test_nearly_valid_iris_embedded(fmt, data):
    """Mutations of valid IRIs (a character off, components swapped, an
    escape broken...), written the way ``fmt`` writes them."""
    text = data.draw(embedded(fmt, mutated_iri()))
    inv.check_document(text, fmt)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@fuzz_settings(scale=0.25)
@given(data=st.data())
def test_valid_iris_embedded(fmt, data):
    text = data.draw(embedded(fmt, iri_reference()))
    inv.check_document(text, fmt)


@fuzz_settings(scale=0.5)
@given(noisy_text())
def test_arbitrary_text_in_every_format(text):
    """The same text as every format: scanners must not assume the text is
    well-formed in their format."""
    for fmt in EVERY_FORMAT:
        inv.check_document(text, fmt, unsafe=False)


@fuzz_settings()
@given(st.one_of(any_iri(), noisy_text(), st.text()))
def test_conversions(value):
    inv.check_conversions(value)


@fuzz_settings()
@given(st.binary(max_size=400))
def test_bytes_through_decoding(data):
    """What the CLI and the harness do with a file's bytes: decode them
    (strictly, as fileio does, and with surrogateescape/replace), then run
    the pipeline without fixes on every format."""
    from irilint.fileio import DocumentError, decode_bytes

    try:
        doc = decode_bytes(data, "fuzz.bin")
    except DocumentError as exc:
        assert exc.kind in ("binary", "decode")
        texts = inv.decode_input(data)
    else:
        assert doc.encode(doc.text) == data  # never lose a byte
        texts = [doc.text]
    for text in texts:
        for fmt in ("text", "markdown", "html", "json"):
            inv.check_document(text, fmt, fixes=False)


# -- the strategies do what they claim (a fuzzer that stopped producing
# -- IRIs would pass everything) ------------------------------------------


@fuzz_settings(scale=0.2)
@given(st.data())
def test_embedded_iris_are_found(data):
    fmt = data.draw(st.sampled_from(["text", "markdown", "html", "json", "turtle"]))
    text = data.draw(embedded(fmt, st.just("http://example.org/a")))
    # character references are not decoded in comments and scripts (HTML)
    assume(fmt != "html" or ("<!--" not in text and "<script" not in text))
    values = [c.value for c in inv.check_candidates(fmt, text)]
    assert "http://example.org/a" in values, (fmt, text, values)


def test_mutations_produce_nearly_valid_iris():
    from irilint import parse

    seen = set()

    @fuzz_settings(scale=0.3)
    @given(mutated_iri(st.just("http://example.org/a/b?q=1#f")))
    def collect(iri):
        seen.add(iri)

    collect()
    assert len(seen) > 20
    assert any(parse(s).problems for s in seen), "some mutations must break the grammar"
    assert any(not parse(s).problems and s != "http://example.org/a/b?q=1#f" for s in seen), \
        "some mutations must stay valid"
