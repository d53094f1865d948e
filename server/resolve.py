"""Resolving a relative reference against a base (RFC 3986 s5.2).

Used by the language server's document links: ``[x](../a.md)`` in
``file:///d/docs/r.md`` goes to ``file:///d/a.md``.  Works on IRIs as on
URIs (RFC 3987 s6.5: the same algorithm, characters instead of octets).
"""
from __future__ import annotations

from typing import Optional

from irilint.convert import remove_dot_segments
from irilint.iri import IRIReference, parse

__all__ = ["resolve"]


def _merge(base: IRIReference, ref_path: str) -> str:
    """RFC 3986 s5.2.3: the reference's path appended to the base's
    directory (to "/" when the base has an authority and an empty path)."""
    base_path = base.get("path") or ""
    if base.authority is not None and not base_path:
        return "/" + ref_path
    return base_path[:base_path.rfind("/") + 1] + ref_path


def _compose(scheme: Optional[str], authority: Optional[str], path: str,
             query: Optional[str], fragment: Optional[str]) -> str:
    """RFC 3986 s5.3: the components back into one string."""
    out = []
    if scheme is not None:
        out.append(scheme + ":")
    if authority is not None:
        out.append("//" + authority)
    out.append(path)
    if query is not None:
        out.append("?" + query)
    if fragment is not None:
        out.append("#" + fragment)
    return "".join(out)


def resolve(base: str, reference: str) -> str:
    """The target of ``reference`` read in a document whose URI is ``base``
    (RFC 3986 s5.2.2, strict: a reference with a scheme is absolute even
    when it is the base's scheme).  ``base`` must be absolute: a
    ValueError names it otherwise."""
    b = parse(base)
    if b.scheme is None:
        raise ValueError("cannot resolve against %r: a base URI needs a scheme" % base)
    r = parse(reference)
    query, fragment = r.get("query"), r.get("fragment")
    if r.scheme is not None:
        return _compose(r.get("scheme"), r.get("authority"), remove_dot_segments(r.get("path") or ""),
                        query, fragment)
    if r.authority is not None:
        return _compose(b.get("scheme"), r.get("authority"), remove_dot_segments(r.get("path") or ""),
                        query, fragment)
    ref_path = r.get("path") or ""
    if not ref_path:
        path = b.get("path") or ""
        if query is None:
            query = b.get("query")
    elif ref_path.startswith("/"):
        path = remove_dot_segments(ref_path)
    else:
        path = remove_dot_segments(_merge(b, ref_path))
    return _compose(b.get("scheme"), b.get("authority"), path, query, fragment)
