"""Incremental sync of a Markdown document: the server applies range edits
(its own store, its line index derived from the previous version's, its
incremental Markdown scan) and publishes, for each version, what a fresh
open of that version's text gets."""
from __future__ import annotations

import random
from typing import Any, List, Tuple

from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_helpers import capabilities, diagnostics_for, open_doc, pos_of, start
from lsprotocol import types
from pytest_lsp import LanguageClient

from irilint.lines import _line_starts
from irilint.lsp.documents import edited_line_starts

_LINE_TEXT = st.lists(st.sampled_from(["a", "\r", "\n", "\r\n", "\u2028", "\U0001F600"]),
                      max_size=12).map("".join)


@settings(max_examples=1000, deadline=None)
@given(old=_LINE_TEXT, inserted=_LINE_TEXT, data=st.data())
def test_line_starts_after_an_edit(old, inserted, data):
    # every edit, "\r" + "\n" joined or split at either edge included
    a = data.draw(st.integers(0, len(old)))
    b = data.draw(st.integers(a, len(old)))
    new = old[:a] + inserted + old[b:]
    assert edited_line_starts(_line_starts(old), new, a, b, a + len(inserted)) == _line_starts(new)


DOC = (
    "# Title \U0001F600\r\n"
    "\r\n"
    "Text with https://пример.рф/путь and [a link](http://example.com/%7e/x).\r\n"
    "\r\n"
    "[ref]: https://xn--bcher-kva.example/buch\n"
    "\n"
    "```\n"
    "code http://example.com/%E2%82%AC/in-code\n"
    "```\n"
    "\n"
    "- item <http://résumé.example.org/ü> \U0001F600 https://a.example/%7e\n"
    "\n"
    "    indented http://indented.example/%7e\n"
    "\n"
    "Last https://例え.jp/パス line.\n"
)

PIECES = [
    "x", " ", "\n", "\r\n", "\n\n", "```\n", "~~~\n", "\U0001F600", "é",
    "https://a.example/%7e", "http://пример.рф/%D0%BF", "[l](http://l.example/%7e)",
    "[r]: http://ref.example/%7e\n", "<http://auto.example/%7e>", "`http://c.example/%7e`",
    "    ", "- ", "<!-- ", " -->", "xn--bcher-kva.example",
]


def diag_key(d: types.Diagnostic) -> Tuple[Any, ...]:
    r = d.range
    data = dict(d.data or {})
    data.pop("version", None)  # the version a finding belongs to
    return (str(d.code), r.start.line, r.start.character, r.end.line, r.end.character,
            d.message, d.severity, repr(sorted(data.items())))


def random_change(rng: random.Random, text: str) -> Tuple[types.TextDocumentContentChangePartial, str]:
    """A range edit (UTF-16 positions) and the text it leaves."""
    def offset() -> int:
        i = rng.randint(0, len(text))
        if 0 < i < len(text) and text[i - 1] == "\r" and text[i] == "\n":
            i += 1  # between "\r" and "\n" is no position in LSP
        return i

    a, b = sorted((offset(), offset()))
    if rng.random() < 0.5:
        b = min(b, a + rng.choice([0, 1, 3]))  # mostly small: typing
        if 0 < b < len(text) and text[b - 1] == "\r" and text[b] == "\n":
            b += 1
    inserted = "".join(rng.choice(PIECES) for _ in range(rng.choice([0, 1, 1, 2, 4])))
    change = types.TextDocumentContentChangePartial(
        range=types.Range(start=pos_of(text, a, "utf-16"), end=pos_of(text, b, "utf-16")),
        text=inserted)
    return change, text[:a] + inserted + text[b:]


async def test_incremental_changes_give_the_diagnostics_of_a_fresh_open(client: LanguageClient, tmp_path):
    await start(client, capabilities(encodings=["utf-16"]))
    uri = (tmp_path / "doc.md").as_uri()
    text = DOC
    open_doc(client, uri, text, "markdown")
    first = await diagnostics_for(client, uri, version=1)
    assert first, "the document has findings to follow"
    rng = random.Random(7)
    for version in range(2, 32):
        changes: List[types.TextDocumentContentChangePartial] = []
        for _ in range(rng.choice([1, 1, 1, 3])):  # sometimes several in one notification
            change, text = random_change(rng, text)
            changes.append(change)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=changes))
        await assert_like_fresh_open(client, tmp_path, uri, version, text)


async def assert_like_fresh_open(client: LanguageClient, tmp_path, uri: str, version: int,
                                 text: str) -> List[types.Diagnostic]:
    """The diagnostics of ``uri`` at ``version`` equal those of a new
    document opened with ``text``; returns them."""
    got = await diagnostics_for(client, uri, version=version)
    fresh_uri = (tmp_path / ("fresh%d.md" % version)).as_uri()
    open_doc(client, fresh_uri, text, "markdown")
    want = await diagnostics_for(client, fresh_uri, version=1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=fresh_uri)))
    assert sorted(map(diag_key, got)) == sorted(map(diag_key, want)), (version, text)
    return got


async def test_typing_a_fence_and_removing_it(client: LanguageClient, tmp_path):
    """Edits that turn every later block into code, then back: in code an
    entity reference is not decoded, so "http&#58;//" is no IRI there."""
    await start(client, capabilities(encodings=["utf-16"]))
    uri = (tmp_path / "doc.md").as_uri()
    text = "Intro \U0001F600 https://a.example/%7e\n\nMiddle\n\nEnd http&#58;//b.example/%7e\n"
    open_doc(client, uri, text, "markdown")
    before = await assert_like_fresh_open(client, tmp_path, uri, 1, text)
    assert sorted({d.range.start.line for d in before}) == [0, 4]
    # "```" typed one backtick at a time at the start of line 2 ("Middle")
    for version, char in ((2, 0), (3, 1), (4, 2)):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=2, character=char),
                                  end=types.Position(line=2, character=char)), text="`")]))
        text = text.replace("Middle", "`Middle", 1)
        await assert_like_fresh_open(client, tmp_path, uri, version, text)
    fenced = await diagnostics_for(client, uri, version=4)
    assert {d.range.start.line for d in fenced} == {0}
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=5),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=2, character=0),
                              end=types.Position(line=2, character=3)), text="")]))
    text = text.replace("```Middle", "Middle", 1)
    after = await assert_like_fresh_open(client, tmp_path, uri, 5, text)
    assert sorted(map(diag_key, after)) == sorted(map(diag_key, before))
