"""``irilint report``: a review report of the IRIs in a tree of documents.

Two forms:

* **HTML** (the default): one self-contained page, for a browser or as a CI
  artifact.  Inline CSS only: no script, no font, no image, no link that
  loads anything, and a Content-Security-Policy that forbids all of them,
  so the page works offline and a hostile document cannot make it do
  anything.  The IRIs under review may be malicious: they are shown as
  text, never as links.
* **Markdown** (GitHub-flavoured): a summary for a pull-request comment,
  with one collapsed ``<details>`` per file, kept under 65,000 characters.

What the report shows:

* totals by rule (code, name, severity, count) and by file;
* for each IRI with findings: its findings; the line of text, in logical
  order, with invisible characters replaced by labelled chips
  (``U+202E RIGHT-TO-LEFT OVERRIDE``), characters hidden in escapes
  (``%E2%80%AE``) or in ``xn--`` labels shown decoded next to them, and
  confusable characters highlighted with their script
  (``U+0430 CYRILLIC SMALL LETTER A · Cyrillic``); the URI form (RFC 3987
  s3.1) and the IRI form (s3.2); for a bidi IRI, the order a reader sees
  it in a left-to-right context (UAX #9 via python-bidi, base direction L);
  and a table of its non-ASCII and invisible characters with their scripts;
* the hosts and IRIs that look alike across the whole tree: different
  hosts (or IRIs) whose UTS #39 confusable skeletons are equal, with where
  each occurs.

Everything taken from the documents (IRIs, lines, messages, file names) is
escaped (by Jinja2's autoescape in the HTML); invisible characters are
never written raw.

The package: :mod:`.collect` gathers the data (:mod:`.model`) from the
per-file results of a check, each file read once; :mod:`.html` and
:mod:`.markdown` show it (the HTML through the templates in
``templates/``); :mod:`.command` is the command line.

``irilint report`` exits 0 when it wrote the report, 2 on a usage or
configuration error or when a file could not be read (the report is still
written and lists the error).  Findings do not change the exit status: use
``irilint check`` to gate.
"""
from __future__ import annotations

from irilint.anatomy import (
    chip_label,
    is_bidi,
    is_invisible,
    looks_like,
    visible_text,
    visual_order,
)
from irilint.report_args import FORMATS, add_arguments, add_subcommand

from .collect import (
    CheckedFile,
    characters,
    collect,
    file_report,
    file_results,
    host_identity,
    iri_identity,
    lookalike_groups,
    report_data,
    scan_occurrences,
)
from .command import main, run
from .html import MAX_HTML_CARDS, excerpt, render_html
from .markdown import MARKDOWN_LIMIT, md_code, md_text, render_markdown
from .model import (
    SEVERITIES,
    Card,
    FileReport,
    LookalikeGroup,
    Occurrence,
    ReportData,
    RuleTotal,
)

#: the report's API (the command, the data, its two renderings)
__all__ = [
    "FORMATS", "MARKDOWN_LIMIT", "MAX_HTML_CARDS", "SEVERITIES", "Card", "FileReport", "CheckedFile",
    "LookalikeGroup", "Occurrence", "ReportData", "RuleTotal", "add_arguments", "add_subcommand",
    "characters", "chip_label", "collect", "excerpt", "file_report", "file_results", "host_identity",
    "iri_identity", "is_bidi", "is_invisible", "lookalike_groups", "looks_like", "main", "md_code", "md_text",
    "render_html", "render_markdown", "report_data", "run", "scan_occurrences", "visible_text", "visual_order",
]
