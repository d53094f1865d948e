"""Document links: the real target of every reference, exact spans, and
no link where the target cannot be built safely."""
from __future__ import annotations

import pytest
from lsp_helpers import capabilities, open_doc, pos_of, request, start
from lsprotocol import types
from pytest_lsp import LanguageClient

# Hebrew, Arabic, CJK and an emoji before the references, on every line
TEXT = (
    "שלום 👋 see https://bücher.example/שלום?q=1\n"
    "مرحبا 文字 [rel](../other/ملف.md) and https://example.com/a%D7%A9\n"
    "📎 文 https://аррӏе.com/ apple\n"
    "שלום bidi https://example.com/a\u202eb.txt here\n"
    "مرحبا bad https://bü_cher.example/x here\n"
    "😀 fw https://example\uff0ecom/x here\n"
)


def link_capabilities(**kw) -> types.ClientCapabilities:
    caps = capabilities(**kw)
    caps.text_document.document_link = types.DocumentLinkClientCapabilities(tooltip_support=True)
    return caps


def span(text: str, needle: str):
    start = text.index(needle)
    return start, start + len(needle)


async def links_of(client: LanguageClient, uri: str):
    return list(await request(client.text_document_document_link_async(types.DocumentLinkParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))) or [])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
async def test_links_targets_and_exact_spans(client: LanguageClient, tmp_path, encoding):
    result = await start(client, link_capabilities(encodings=[encoding]))
    assert result.capabilities.document_link_provider is not None
    doc = tmp_path / "docs" / "r.md"
    uri = doc.as_uri()
    open_doc(client, uri, TEXT, "markdown")
    links = await links_of(client, uri)
    by_range = {(l.range.start.line, l.range.start.character, l.range.end.line, l.range.end.character): l
                for l in links}

    def link_over(needle: str):
        a, b = span(TEXT, needle)
        s, e = pos_of(TEXT, a, encoding), pos_of(TEXT, b, encoding)
        return by_range.get((s.line, s.character, e.line, e.character))

    idn = link_over("https://bücher.example/שלום?q=1")
    assert idn is not None
    assert idn.target == "https://xn--bcher-kva.example/%D7%A9%D7%9C%D7%95%D7%9D?q=1"
    assert idn.tooltip == "Goes to " + idn.target

    rel = link_over("../other/ملف.md")  # resolved against the document (RFC 3986 s5)
    assert rel is not None
    assert rel.target == (tmp_path / "other").as_uri() + "/%D9%85%D9%84%D9%81.md"

    plain = link_over("https://example.com/a%D7%A9")
    assert plain is not None and plain.target == "https://example.com/a%D7%A9"
    assert plain.tooltip is None  # goes where it says

    spoof = link_over("https://аррӏе.com/")
    assert spoof is not None and spoof.target == "https://xn--80ak6aa92e.com/"
    assert spoof.tooltip.startswith("Not what it looks like: goes to https://xn--80ak6aa92e.com/")
    assert "whole-script-confusable" in spoof.tooltip

    fullwidth = link_over("https://example\uff0ecom/x")  # U+FF0E maps to "." (UTS #46)
    assert fullwidth is not None and fullwidth.target == "https://example.com/x"
    assert "fullwidth-form" in fullwidth.tooltip

    # no link: a raw bidi control, a host IDNA rejects
    assert link_over("https://example.com/a\u202eb.txt") is None
    assert link_over("https://bü_cher.example/x") is None
    assert len(links) == 5
    for link in links:
        assert all(ord(ch) < 128 for ch in link.target)


async def test_link_follows_edits(client: LanguageClient, tmp_path):
    await start(client, link_capabilities())
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "文字 https://例え.jp/\n")
    links = await links_of(client, uri)
    assert [l.target for l in links] == ["https://xn--r8jz45g.jp/"]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="👋👋 https://a.example/b\n")]))
    links = await links_of(client, uri)
    assert [(l.target, l.range.start.character) for l in links] == [("https://a.example/b", 5)]


async def test_untitled_document_gets_no_link_for_a_relative_reference(client: LanguageClient):
    await start(client)
    uri = "untitled:Untitled-1"
    open_doc(client, uri, "[a](docs/x.md) and https://example.org/\n", "markdown")
    links = await links_of(client, uri)
    assert [l.target for l in links] == ["https://example.org/"]


async def test_no_tooltip_for_a_client_that_does_not_show_them(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "📎 https://аррӏе.com/\n")
    links = await links_of(client, uri)
    assert [(l.target, l.tooltip) for l in links] == [("https://xn--80ak6aa92e.com/", None)]
