"""The fence of every server speed-up: after each edit of a sequence, what
the server publishes for a document (its store applying range edits, its
line index derived from the previous version's, its engine's warm
per-reference memo, its incremental Markdown scanner) equals what a full
check of the new text publishes -- the same list, in the same order, with
the same ranges, messages, codes and data.  Run in process through the
lint worker's own computation (``Linter._compute``), so hypothesis can try
many edit sequences."""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, List

from hypothesis import HealthCheck, given, settings as hsettings
from hypothesis import strategies as st
from lsp_helpers import pos_of
from lsprotocol import types

from irilint.config import Settings
from irilint.lsp.diagnostics import Linter, diagnostics_json, diagnostics_text
from irilint.lines import LineIndex, _line_starts
from irilint.lsp.documents import DocumentStore, whole_text_index

#: what edits insert: references (bidi controls, %-escapes, non-BMP and
#: right-to-left characters, look-alike hosts that collide with another
#: reference of the document), every line end LSP knows and U+2028 (which
#: it does not), suppression comments, Markdown structure
PIECES = [
    "x", " ", "é", "\U0001F600", "\u05e2\u05d1\u05e8", "\u202e", "\u200b",
    "\n", "\r\n", "\r", "\u2028", "\n\n",
    "http://example.com/\u05e2\u05d1\u05e8%zz", "https://a.example/%7e", "http://EXAMPLE.org/%e2%82%ac",
    "https://paypal.com/", "https://\u0440\u0430\u0443\u0440\u0430l.com/", "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/%D0%BF",
    "https://example.org/\u202eabc/", "[l](http://l.example/%7e)", "<http://auto.example/%zz>",
    "<!-- irilint: ignore -->", "# irilint: ignore[IRI401]\n", "irilint: ignore[IRI103,IRI999]",
    "irilint: ignore-file[IRI602]", "```\n", "`", "%", "%z", "://",
]

_TEXT = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _server(encoding: str, pull: bool = False) -> Any:
    store = DocumentStore()
    store.encoding = encoding
    # pushing: the worker makes each diagnostic's JSON text; pulling: dicts
    return SimpleNamespace(documents=store, pull_diagnostics=pull)


def _published(linter: Linter, doc: Any, settings: Settings, encoding: str) -> List[Any]:
    index = doc._index if doc._index is not None and doc._index.text is doc.text else None
    result = linter._compute(doc, doc.text, doc.version, 0, settings, encoding, index)
    assert not result.skipped
    return result.published


def _full_check(text: str, path: str, language_id: str, settings: Settings, encoding: str,
                version: int) -> List[Any]:
    """What a server that never saw the document publishes for ``text``
    (a pulling one's: the diagnostics made as dicts, not as text)."""
    server = _server(encoding, pull=True)
    fresh = Linter(server)
    doc = server.documents.open("file://" + path, text, version, language_id)
    return _published(fresh, doc, settings, encoding)


def _lsp_offset(text: str, i: int) -> int:
    # between "\r" and "\n" is no LSP position
    if 0 < i < len(text) and text[i - 1] == "\r" and text[i] == "\n":
        return i + 1
    return i


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, data=st.data(),
       language=st.sampled_from([("/w/doc.md", "markdown"), ("/w/doc.txt", "plaintext")]),
       encoding=st.sampled_from(["utf-16", "utf-8", "utf-32"]),
       rules=st.sampled_from([Settings(), Settings(select=("ALL",))]))
def test_each_edit_publishes_what_a_full_check_of_the_new_text_does(text, data, language, encoding, rules):
    path, language_id = language
    server = _server(encoding)
    linter = Linter(server)
    uri = "file://" + path
    doc = server.documents.open(uri, text, 1, language_id)
    assert _published(linter, doc, rules, encoding) == _full_check(text, path, language_id, rules, encoding, 1)
    for version in range(2, 2 + data.draw(st.integers(1, 6), label="edits")):
        a = _lsp_offset(text, data.draw(st.integers(0, len(text)), label="start"))
        b = _lsp_offset(text, data.draw(st.integers(a, len(text)), label="end"))
        inserted = data.draw(_TEXT, label="inserted")
        edited = text[:a] + inserted + text[b:]
        if data.draw(st.booleans(), label="whole text"):  # a client without incremental sync
            change: Any = types.TextDocumentContentChangeWholeDocument(text=edited)
        else:
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=pos_of(text, a, encoding), end=pos_of(text, b, encoding)), text=inserted)
        doc = server.documents.change(uri, version, [change])
        text = edited
        assert doc.text == text
        got = _published(linter, doc, rules, encoding)
        assert got == _full_check(text, path, language_id, rules, encoding, version), (version, text)


def test_a_dense_document_edited_in_the_middle_publishes_what_a_full_check_does():
    """The bench's document dense with findings: every reference has the
    same memo key, so each one is a hit moved from the previous one."""
    line = " ".join(["text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here"] * 4) + "\n"
    text = line * 300
    server = _server("utf-16")
    linter = Linter(server)
    uri = "file:///w/dense.txt"
    doc = server.documents.open(uri, text, 1, "plaintext")
    first = _published(linter, doc, Settings(), "utf-16")
    assert len(first) == 300 * 8
    for version, (rng, new) in enumerate([(((150, 0), (150, 0)), "x"), (((150, 0), (150, 1)), ""),
                                          (((10, 5), (290, 7)), "\r\n")], start=2):
        change = types.TextDocumentContentChangePartial(range=types.Range(
            start=types.Position(*rng[0]), end=types.Position(*rng[1])), text=new)
        doc = server.documents.change(uri, version, [change])
        assert _published(linter, doc, Settings(), "utf-16") == _full_check(
            doc.text, "/w/dense.txt", "plaintext", Settings(), "utf-16", version)


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, version=st.sampled_from([None, 0, 7]))
def test_the_published_list_is_each_findings_diagnostic_in_order(text, version):
    """The batch conversion the server publishes equals the one-finding
    conversion (what lsprotocol's converter makes, test_lsp_publish_json)."""
    from irilint.engine import Engine
    from irilint.lsp.diagnostics import diagnostic_json

    findings = Engine().check_text(text, path="/w/d.md", settings=Settings(select=("ALL",))).findings
    index = LineIndex(text)
    for encoding in ("utf-8", "utf-16", "utf-32"):
        for uri in ("file:///w/d.md", None):
            one_by_one = [diagnostic_json(f, index, encoding, version, uri) for f in findings]
            assert diagnostics_json(findings, index, encoding, version, uri) == one_by_one
            assert [json.loads(t) for t in diagnostics_text(findings, index, encoding, version, uri)] == one_by_one


def test_the_batch_conversion_of_findings_across_lines_and_with_related_places():
    from irilint.engine import Engine
    from irilint.findings import Finding
    from irilint.lsp.diagnostics import diagnostic_json
    from dataclasses import replace

    text = "a http://example.com/\u05e2\u05d1\u05e8%zz\r\nb https://\u0440\u0430\u0443\u0440\u0430l.com/ \U0001F600 https://paypal.com/\r\u2028x\n"
    findings = Engine().check_text(text, path="/w/d.txt", settings=Settings()).findings
    assert any(f.related for f in findings) and len(findings) >= 3
    f0: Finding = findings[0]
    # spans over line ends, to the end of the text, and a second finding with the same message
    extra = [replace(f0, start=f0.start, end=len(text) - 3), replace(f0, start=len(text) - 1, end=len(text)),
             replace(f0, start=3, end=3)]
    index = LineIndex(text)
    for encoding in ("utf-8", "utf-16", "utf-32"):
        every = findings + extra
        one_by_one = [diagnostic_json(f, index, encoding, 3, "file:///w/d.txt") for f in every]
        assert diagnostics_json(every, index, encoding, 3, "file:///w/d.txt") == one_by_one
        assert [json.loads(t) for t in diagnostics_text(every, index, encoding, 3, "file:///w/d.txt")] == one_by_one


@hsettings(max_examples=500, deadline=None)
@given(old=_TEXT, new=_TEXT, common=st.tuples(_TEXT, _TEXT))
def test_a_whole_text_change_derives_the_line_index_of_the_new_text(old, new, common):
    head, tail = common
    old, new = head + old + tail, head + new + tail
    index = LineIndex(old)
    index.starts  # computed: what a new version can derive from
    derived = whole_text_index(old, index, new)
    assert derived is not None and derived.text is new
    assert derived.starts == _line_starts(new)


def test_a_whole_text_change_keeps_the_store_line_index_derived():
    store = DocumentStore()
    text = "a\r\nb http://x.example/%zz\n" * 50
    doc = store.open("file:///w/d.txt", text, 1, "plaintext")
    doc.index.starts  # the first version's line starts in use (as diagnostics build them)
    new = text[:40] + "\r" + text[41:]
    doc = store.change("file:///w/d.txt", 2, [types.TextDocumentContentChangeWholeDocument(text=new)])
    assert doc.text == new and doc._index is not None and doc._index._starts == _line_starts(new)
