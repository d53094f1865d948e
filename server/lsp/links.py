"""Document links (``textDocument/documentLink``): where each reference
really goes.

Editors linkify URLs with their own ASCII-minded patterns, so a click on
an IRI with a bidi control, a full-width slash or a spoofed host can go
somewhere other than what the reader saw.  The server links every
reference its scanners found instead, over the reference's exact span (in
the negotiated position encoding), with:

* ``target``: the URI that RFC 3987 s3.1 gives for it
  (:func:`irilint.convert.to_uri`: Punycode host, percent-encoded UTF-8);
  a relative reference is first resolved against the document's URI (RFC
  3986 s5.2, :func:`irilint.resolve.resolve`);
* ``tooltip`` (when the client announces ``tooltipSupport``): where it
  goes, when that is not what the text shows; with a warning and the
  findings' messages when a look-alike, bidi or host rule flagged the
  reference.

No link is made for a reference whose target cannot be built safely
(:func:`link_target` says why, in the log):

* it holds a bidi control or an invisible character as a raw character:
  the reader cannot tell what the link is, nor in which order its parts go;
* IDNA rejects a label of its host (``idn-invalid``): there is no honest
  ASCII form to go to;
* it is a template or a script (``javascript:``, ``vbscript:``, ``data:``):
  not a place;
* it is relative and the document has no hierarchical URI to resolve it
  against (an untitled buffer).
"""
from __future__ import annotations

import logging
import unicodedata
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from lsprotocol import types

from irilint.anatomy import is_invisible, visible_inline
from irilint.convert import to_uri_detailed
from irilint.iri import parse
from irilint.resolve import resolve

from .convert_positions import to_range
from .scanning import document_candidates

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

logger = logging.getLogger(__name__)

#: findings of these families mean the reference is not what it looks like
WARNING_FAMILIES = frozenset({"lookalike", "bidi", "host"})
#: schemes that run code or carry data rather than name a place
NOT_A_PLACE = frozenset({"javascript", "vbscript", "data"})


def link_target(value: str, base: Optional[str], template: bool = False) -> Tuple[Optional[str], str]:
    """The URI a click on the reference ``value`` (read in a document whose
    URI is ``base``) should open, and "" -- or None and why not."""
    if template:
        return None, "a template, not an IRI yet"
    # the anatomy's one definition of invisible: bidi controls are format
    # characters, so it covers what reorders the text around it too
    hidden = next((ch for ch in value if is_invisible(ch)), None)
    if hidden is not None:
        return None, "it holds U+%04X (%s), which the reader cannot see" % (
            ord(hidden), unicodedata.name(hidden, "unnamed"))
    conversion = to_uri_detailed(value)
    if conversion.host_errors:
        span, why = conversion.host_errors[0]
        return None, "IDNA rejects its host label %r: %s" % (value[span.start:span.end], why)
    ref = parse(conversion.text)
    if ref.is_absolute:
        target = conversion.text
    else:
        base_ref = parse(base) if base else None
        if base_ref is None or not base_ref.is_absolute or not (base_ref.get("path") or "").startswith("/"):
            return None, "a relative reference in a document without a hierarchical URI"
        target = resolve(base, conversion.text)  # type: ignore[arg-type]
        ref = parse(target)
    if (ref.scheme_lower or "") in NOT_A_PLACE:
        return None, "a %s: reference runs code or holds data, it names no place" % ref.scheme_lower
    return target, ""


def tooltip(value: str, target: str, findings: Sequence[Any]) -> Optional[str]:
    """What the link's tooltip says: the real target when it differs from
    the text, and a warning naming the findings that make it differ from
    what the reader sees."""
    warnings = [f for f in findings if getattr(f.rule, "family", None) in WARNING_FAMILIES]
    if warnings:
        reasons = "; ".join(dict.fromkeys("%s: %s" % (f.rule.name, f.message) for f in warnings))
        return _shown("Not what it looks like: goes to %s (%s)" % (target, reasons))
    if target != value:
        return "Goes to %s" % target
    return None


_shown = visible_inline


def document_links(cands: Sequence[Any], findings: Sequence[Any], base: Optional[str],
                   index: Any, encoding: str, tooltips: bool = True) -> List[types.DocumentLink]:
    """A link for each reference in ``cands`` that can have one
    (``tooltips``: the client shows them)."""
    by_ref: dict = {}
    for f in findings:
        by_ref.setdefault((f.ref_start, f.ref_end), []).append(f)
    out: List[types.DocumentLink] = []
    for cand in cands:
        target, why = link_target(cand.value, base, bool(getattr(cand, "template", False)))
        if target is None:
            logger.debug("no link for %r: %s", cand.value, why)
            continue
        out.append(types.DocumentLink(
            range=to_range(index, cand.start, cand.end, encoding), target=target,
            tooltip=tooltip(cand.value, target, by_ref.get((cand.start, cand.end), ())) if tooltips else None))
    return out


async def links(server: "IrilintLanguageServer", params: types.DocumentLinkParams) -> List[types.DocumentLink]:
    doc = server.documents.get(params.text_document.uri)
    if doc is None:
        return []
    cands = document_candidates(server, doc)
    if not cands:
        return []
    text = doc.text
    result = await server.linter.result_for(doc)
    if server.documents.get(doc.uri) is not doc or doc.text is not text or result.text is not text:
        return []  # edited meanwhile: the client asks again for the new version
    return document_links(cands, result.findings, doc.uri, doc.index, server.documents.encoding,
                          bool(server._cap("text_document.document_link.tooltip_support", False)))
