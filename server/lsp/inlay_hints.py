"""Inlay hints (``textDocument/inlayHint``): what an IRI's encoded parts
say, next to them.

For each reference in the requested range:

* after a run of percent-escapes that is UTF-8 for non-ASCII text, the
  text (``%D7%A9%D7%9C%D7%95%D7%9D`` → ``שלום``);
* after an ``xn--`` label, its U-label (only a valid A-label: one that
  decodes and encodes back to itself);
* after a reference holding right-to-left text (or a bidi control), the
  order a reader sees it in, in a left-to-right context (UAX #9, base
  direction L).

A hint never holds a bidi control or an invisible character raw: each is
written ``⟨U+202E⟩`` (a hint is the place to see them, and a raw one would
reorder the hint itself).  The editor setting ``inlayHints`` (true by
default, per folder) turns them off.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

from lsprotocol import types

from irilint.anatomy import is_bidi, visible_inline, visual_order
from irilint.convert import idna_to_unicode, percent_decode_utf8
from irilint.iri import parse

from .convert_positions import from_range, position
from .scanning import document_candidates

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

_PCT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


#: ``text`` with every bidi control and invisible character written as ``⟨U+XXXX⟩``
shown = visible_inline


def reference_hints(value: str) -> List[Tuple[int, str, str]]:
    """The hints of one reference: ``(position in value, label, tooltip)``,
    in order of position."""
    out: List[Tuple[int, str, str]] = []
    for m in _PCT_RUN.finditer(value):
        decoded = percent_decode_utf8(m.group())
        if decoded.isascii():  # nothing a reader cannot read already
            continue
        out.append((m.end(), "= " + shown(decoded), "the percent-encoded UTF-8 of this text"))
    ref = parse(value)
    for span in ref.host_labels:
        label = value[span.start:span.end]
        if label[:4].lower() == "xn--":
            u_label = idna_to_unicode(label)
            if u_label:
                out.append((span.end, "= " + shown(u_label), "the Unicode form (U-label) of this "
                            "Punycode label"))
    if is_bidi(value):
        out.append((len(value), "shown as: " + shown(visual_order(value)),
                    "the order a reader sees this reference in, left to right "
                    "(Unicode bidi algorithm, base direction L)"))
    out.sort(key=lambda h: h[0])
    return out


def inlay_hints(cands: List[Any], index: Any, encoding: str, start: int, end: int) -> List[types.InlayHint]:
    """The hints of the references in ``cands`` whose place is within the
    document offsets ``[start, end]``."""
    out: List[types.InlayHint] = []
    for cand in cands:
        if cand.end < start or cand.start > end:
            continue
        for at, label, tip in reference_hints(cand.value):
            where = cand.source_offset(at)
            if start <= where <= end:
                out.append(types.InlayHint(position=position(index, where, encoding), label=label,
                                           tooltip=tip, padding_left=True))
    return out


async def hints(server: "IrilintLanguageServer", params: types.InlayHintParams) -> Optional[List[types.InlayHint]]:
    doc = server.documents.get(params.text_document.uri)
    if doc is None:
        return None
    await server.settings.wait_ready()
    if not server.settings.editor_option("inlayHints", doc.path):
        return []
    cands = document_candidates(server, doc)
    if not cands:
        return []
    encoding = server.documents.encoding
    start, end = from_range(doc.index, params.range, encoding)
    return inlay_hints(cands, doc.index, encoding, start, end)
