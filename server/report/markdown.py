"""The review report as GitHub-flavoured Markdown, for a pull-request
comment: a summary, then one collapsed ``<details>`` per file, kept under
65,000 characters.  Text from the documents is shown with invisible
characters as ``<U+XXXX>`` and Markdown and HTML syntax escaped, or in code
spans."""
from __future__ import annotations

import html
from typing import List

from irilint.anatomy import chip_label, is_bidi, is_invisible, looks_like, visible_text, visual_order

from .collect import characters
from .html import _cap, excerpt
from .model import SEVERITIES, Card, ReportData, counts_phrase, plural

#: GitHub refuses comments over 65,536 characters; keep a margin.
MARKDOWN_LIMIT = 65000
MAX_MARKDOWN_FILE_ROWS = 100
MAX_MARKDOWN_LOOKALIKES = 30


def _esc(s: str) -> str:
    return html.escape(s, quote=True)



_MD_SPECIAL = set("\\`*_[]|~<>&#!:@")
_MD_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", ":": "&#58;", "@": "&#64;"}


def md_text(s: str) -> str:
    """Untrusted text as GitHub Markdown text: invisible characters as
    ``<U+XXXX>``, HTML and Markdown syntax escaped, no autolinks."""
    s = visible_text(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    out = []
    for ch in s:
        if ch in _MD_ENTITIES:
            out.append(_MD_ENTITIES[ch])
        elif ch in _MD_SPECIAL:
            out.append("\\" + ch)
        else:
            out.append(ch)
    # "www." starts an autolink in GitHub Markdown
    return "".join(out).replace("www.", "www&#46;").replace("WWW.", "WWW&#46;")


def md_code(s: str, cell: bool = False) -> str:
    """A code span holding ``s`` with invisible characters as ``<U+XXXX>``
    (inside a table ``cell``, "|" is escaped as GitHub needs)."""
    s = visible_text(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    if cell:
        s = s.replace("|", "\\|")
    longest = run = 0
    for c in s:
        run = run + 1 if c == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip(" ") else ""
    return "%s%s%s%s%s" % (fence, pad, s, pad, fence)


def _md_iri(s: str) -> str:
    code = md_code(excerpt(s, 200))
    # In logical order, so a bidi IRI reads as the document writes it.
    return '<bdo dir="ltr">%s</bdo>' % code if is_bidi(s) else code


def _md_char_notes(value: str) -> str:
    notes = []
    for info in characters(value):
        if not (info.invisible or info.looks_like is not None or info.written_as != ["literal"]):
            continue
        label = chip_label(info.char)
        how = [w for w in info.written_as if w != "literal"]
        note = md_code(label)
        if how:
            note += " (as %s)" % ", ".join(md_code(w) for w in how[:3])
        notes.append(note)
        if len(notes) >= 12:
            notes.append("…")
            break
    return ", ".join(notes)


def _md_card(card: Card) -> List[str]:
    from irilint.convert import to_iri, to_uri

    lines = []
    head = "**Line %d**" % card.line
    if card.iri:
        head += " · " + _md_iri(card.iri)
    lines.append(head)
    lines.append("")
    for r in card.findings:
        lines.append("- **%s** %s %s %d:%d — %s" % (
            r.finding.severity.label, md_code(r.rule.code), md_code(r.rule.name), r.line, r.column,
            md_text(r.finding.message)))
    if card.iri:
        value = card.iri
        notes = _md_char_notes(value)
        if notes:
            lines.append("- Characters: " + notes)
        uri, iri = to_uri(value), to_iri(value)
        lines.append("- URI form: %s" % _md_iri(uri))
        if iri != uri:
            lines.append("- IRI form: %s" % _md_iri(iri))
        for label, s in (("as written", value), ("IRI form", iri)):
            if is_bidi(s) and (label == "as written" or s != value):
                shown = _cap(visual_order(s), 200)[0]
                lines.append("- Visual order (%s, left to right): <bdo dir=\"ltr\">%s</bdo>" % (label, md_code(shown)))
    lines.append("")
    return lines


def _md_summary(data: ReportData) -> List[str]:
    with_findings = [f for f in data.files if f.total]
    out = ["## irilint review report", ""]
    line = "**%s** in %d of %s checked; %s scanned." % (
        plural(data.total, "finding"), len(with_findings),
        plural(data.files_checked, "file"), plural(data.references, "IRI reference"))
    if data.total:
        line += " (%s)" % counts_phrase(data.counts())
    out += [line, ""]
    if data.rules:
        out += ["| Code | Rule | Severity | Count |", "| --- | --- | --- | ---: |"]
        out += ["| %s | %s | %s | %d |" % (md_code(t.code, True), md_code(t.name, True), t.severity, t.count)
                for t in data.rules]
        out.append("")
    if data.files:
        out += ["| File | Errors | Warnings | Info | Hints | Total |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for f in data.files[:MAX_MARKDOWN_FILE_ROWS]:
            if f.error or f.skipped:
                out.append("| %s | %s |||||" % (md_code(f.path, True), md_text(
                    ("error: " + f.error) if f.error else "skipped: %s" % f.skipped)))
            else:
                out.append("| %s | %s | %d |" % (md_code(f.path, True), " | ".join(
                    str(f.counts.get(s, 0) or "") for s in SEVERITIES), f.total))
        if len(data.files) > MAX_MARKDOWN_FILE_ROWS:
            out.append("")
            out.append("… and %d more files." % (len(data.files) - MAX_MARKDOWN_FILE_ROWS))
        out.append("")
    if data.lookalikes:
        out += ["### Hosts and IRIs that look alike", ""]
        for g in data.lookalikes[:MAX_MARKDOWN_LOOKALIKES]:
            variants = []
            for text, occs in g.variants[:6]:
                where = ", ".join(md_code("%s:%d:%d" % (o.path, o.line, o.column)) for o in occs[:3])
                if len(occs) > 3:
                    where += " and %d more" % (len(occs) - 3)
                chars = [md_code(chip_label(c)) for c in dict.fromkeys(text)
                         if is_invisible(c) or looks_like(c) is not None][:4]
                variants.append("%s (%s)%s" % (_md_iri(text), where, (" — " + ", ".join(chars)) if chars else ""))
            out.append("- **%s:** %s" % ("Hosts" if g.kind == "host" else "IRIs", " ≈ ".join(variants)))
        if len(data.lookalikes) > MAX_MARKDOWN_LOOKALIKES:
            out.append("- … and %d more groups" % (len(data.lookalikes) - MAX_MARKDOWN_LOOKALIKES))
        out.append("")
    return out


def render_markdown(data: ReportData, limit: int = MARKDOWN_LIMIT) -> str:
    """The report as GitHub-flavoured Markdown, at most ``limit``
    characters: files whose details do not fit are left out, with a note."""
    head = "\n".join(_md_summary(data)) + "\n"
    note_room = 400
    budget = limit - note_room
    if len(head) > budget:
        head = head[:budget].rsplit("\n", 1)[0] + "\n"
    body: List[str] = []
    used = len(head)
    shown = 0
    truncated = False
    for f in data.files:
        if not f.total:
            continue
        if truncated:
            break
        opening = "<details>\n<summary><code>%s</code> — %s (%s)</summary>\n\n" % (
            _esc(visible_text(f.path)), plural(f.total, "finding"), counts_phrase(f.counts))
        closing = "</details>\n\n"
        if used + len(opening) + len(closing) > budget:
            truncated = True
            break
        block = [opening]
        size = len(opening) + len(closing)
        for c in f.cards:
            text = "\n".join(_md_card(c)) + "\n"
            if used + size + len(text) > budget:
                truncated = True
                break
            block.append(text)
            size += len(text)
            shown += len(c.findings)
        block.append(closing)
        body.append("".join(block))
        used += size
    out = head + "".join(body)
    if truncated:
        out += ("> **Note:** this report was cut to fit a comment (%s characters): %s are not shown. "
                "The HTML report (`irilint report --format html`) has them all.\n"
                % (format(limit, ","), plural(data.total - shown, "finding")))
    return out
