"""Hover on an IRI: what it is made of and what a reader sees.

Markdown with: the components (scheme, userinfo, host, port, path, query,
fragment); the URI form (RFC 3987 s3.1) and the IRI form (s3.2); a table of
every non-ASCII or invisible character (code point, name, script, bidi
class); for a bidi IRI (any R, AL or AN character) the display order in a
left-to-right context (UAX #9 via python-bidi, base direction L), in a code
block; and the Unicode form of each ``xn--`` label.  Nothing is shown when
the cursor is not on an IRI.

Invisible characters are written as ``<U+XXXX>`` in the components and
forms (:mod:`irilint.anatomy`, as in rule messages and the report), so
what is hidden in the text is visible in the hover.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

from lsprotocol import types

from irilint.anatomy import char_info, glyph, is_bidi, visible_text, visual_order, worth_showing

from .convert_positions import offset, to_range
from .diagnostics import oversize
from .scanning import candidate_at, candidates, scanner_for_document

if TYPE_CHECKING:  # pragma: no cover
    from .server import IrilintLanguageServer

COMPONENTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")
MAX_CHAR_ROWS = 64


def code(s: str, cell: bool = False) -> str:
    """A Markdown code span holding ``s`` (in a table ``cell``, with "|"
    escaped as GFM tables need even inside code spans)."""
    if cell:
        s = s.replace("|", "\\|")
    fence = "`" * (_longest_run(s, "`") + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip(" ") else ""
    return "%s%s%s%s%s" % (fence, pad, s, pad, fence)


def _longest_run(s: str, ch: str) -> int:
    longest = run = 0
    for c in s:
        run = run + 1 if c == ch else 0
        longest = max(longest, run)
    return longest


def _cell(s: str) -> str:
    return s.replace("|", "\\|")


def characters_table(value: str) -> List[str]:
    seen = set()
    rows: List[str] = []
    more = 0
    for ch in value:
        if ch in seen or not worth_showing(ch):
            continue
        seen.add(ch)
        if len(rows) >= MAX_CHAR_ROWS:
            more += 1
            continue
        info = char_info(ch)
        shown = code(glyph(ch), cell=True) if glyph(ch) else "(invisible)"
        rows.append("| U+%04X | %s | %s | %s | %s |" % (
            ord(ch), shown, _cell(info.name), _cell(info.scripts), info.bidi_class))
    if not rows:
        return []
    out = ["**Characters**", "", "| Code point | Character | Name | Script | Bidi class |",
           "| --- | --- | --- | --- | --- |"] + rows
    if more:
        out.append("")
        out.append("… and %d more" % more)
    return out


def hover_markdown(value: str, context: Optional[str] = None) -> str:
    from irilint.convert import idna_to_unicode, to_iri, to_uri
    from irilint.iri import parse

    ref = parse(value)
    lines: List[str] = []
    title = "**IRI reference**" if ref.is_absolute else "**Relative IRI reference**"
    if context and context != "bare":
        title += " (%s)" % context
    lines += [title, "", "| Component | Value |", "| --- | --- |"]
    for name in COMPONENTS:
        part = ref.get(name)
        if part is None:
            continue
        lines.append("| %s | %s |" % (name, code(visible_text(part), cell=True) if part else "*(empty)*"))
    lines.append("")
    lines.append("**URI form** (RFC 3987 §3.1): %s" % code(visible_text(to_uri(value))))
    lines.append("")
    lines.append("**IRI form** (RFC 3987 §3.2): %s" % code(visible_text(to_iri(value))))
    if is_bidi(value):
        shown = visible_text(visual_order(value))
        fence = "`" * max(3, _longest_run(shown, "`") + 1)
        lines += ["", "**Display order**: what a reader sees in a left-to-right context "
                      "(Unicode bidi algorithm, base direction L), left to right:", "",
                  fence + "text", shown, fence]
    labels = []
    for span in ref.host_labels:
        label = span.text(value)
        if label[:4].lower() == "xn--":
            u = idna_to_unicode(label)
            labels.append("- %s → %s" % (code(label), code(visible_text(u)) if u else "*not a valid A-label*"))
    if labels:
        lines += ["", "**IDN labels**", ""] + labels
    table = characters_table(value)
    if table:
        lines += [""] + table
    return "\n".join(lines)


def hover(server: "IrilintLanguageServer", params: types.HoverParams) -> Optional[types.Hover]:
    doc = server.documents.get(params.text_document.uri)
    if doc is None:  # not open (or closed meanwhile): nothing to say
        return None
    index = doc.index
    encoding = server.documents.encoding
    pos = params.position
    if pos.line < 0 or pos.line >= index.line_count:
        return None
    off = offset(index, pos, encoding)
    settings = server.settings.settings_for(doc.path)
    limit = int(getattr(settings, "max_file_size", 0) or 0)
    if limit:
        cached = doc.cache.get("oversize")
        if cached is None or cached[0] != limit:
            cached = doc.cache["oversize"] = (limit, oversize(doc.text, limit) is not None)
        if cached[1]:
            return None  # not scanned: too large
    scanner = scanner_for_document(doc, settings)
    cand = candidate_at(candidates(doc, scanner, server.settings.generation), off)
    if cand is None:
        return None
    markdown = server.client_supports_markdown_hover()
    text = hover_markdown(cand.value, getattr(cand, "context", None))
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=text),
                       range=to_range(index, cand.start, cand.end, encoding))

