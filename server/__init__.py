"""irilint: a linter and language server for IRIs (RFC 3987) and URIs.

The public API:

* :func:`parse` -> :class:`IRIReference`: any string as an IRI reference,
  with component spans and syntax problems; never raises.
* :func:`to_uri` (RFC 3987 s3.1) and :func:`to_iri` (s3.2).
* helpers: :func:`nfc`, :func:`uppercase_percent_encodings`,
  :func:`decode_unreserved`, :func:`percent_encode_component`,
  :func:`remove_dot_segments`.

The names are imported on first use (module ``__getattr__``): ``import
irilint.lsp`` or ``irilint check`` should not pay for the converters and
the IRI parser's regexes before they need them.
"""
from typing import Any, List

__version__ = "0.1.0"

#: public name -> the submodule that defines it
_EXPORTS = {
    "decode_unreserved": "convert", "nfc": "convert", "percent_encode": "convert",
    "percent_encode_component": "convert", "remove_dot_segments": "convert",
    "to_iri": "convert", "to_uri": "convert", "to_uri_detailed": "convert",
    "uppercase_percent_encodings": "convert",
    "IRIReference": "iri", "Span": "iri", "SyntaxProblem": "iri", "parse": "iri",
}

__all__ = [
    "IRIReference", "Span", "SyntaxProblem", "parse",
    "to_uri", "to_uri_detailed", "to_iri", "nfc", "uppercase_percent_encodings",
    "decode_unreserved", "percent_encode", "percent_encode_component",
    "remove_dot_segments", "__version__",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'irilint' has no attribute %r" % name)
    from importlib import import_module

    value = getattr(import_module("." + module, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_EXPORTS))
