"""irilint: a linter and language server for IRIs (RFC 3987) and URIs.

The public API:

* :func:`parse` -> :class:`IRIReference`: any string as an IRI reference,
  with component spans and syntax problems; never raises.
* :func:`to_uri` (RFC 3987 s3.1) and :func:`to_iri` (s3.2).
* helpers: :func:`nfc`, :func:`uppercase_percent_encodings`,
  :func:`decode_unreserved`, :func:`percent_encode_component`,
  :func:`remove_dot_segments`.
"""
from .convert import (
    decode_unreserved,
    nfc,
    percent_encode,
    percent_encode_component,
    remove_dot_segments,
    to_iri,
    to_uri,
    to_uri_detailed,
    uppercase_percent_encodings,
)
from .iri import IRIReference, Span, SyntaxProblem, parse

__version__ = "0.1.0"

__all__ = [
    "IRIReference", "Span", "SyntaxProblem", "parse",
    "to_uri", "to_uri_detailed", "to_iri", "nfc", "uppercase_percent_encodings",
    "decode_unreserved", "percent_encode", "percent_encode_component",
    "remove_dot_segments", "__version__",
]
