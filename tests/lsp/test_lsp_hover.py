"""Hover on IRIs."""
from __future__ import annotations

from bidi import get_display
from lsp_helpers import capabilities, diagnostics_for, open_doc, pos_of, request, start
from lsprotocol import types
from pytest_lsp import LanguageClient

# The bidi IRI guidelines' Example 2 (RFC 3987 s4.4) with real Hebrew
# letters for the upper-case placeholders: ab.CDE.FGH -> ab.גדה.וזח
EXAMPLE_2 = "http://ab.\u05d2\u05d3\u05d4.\u05d5\u05d6\u05d7/ij/kl/mn/op.html"


async def hover_at(client, uri, line, char):
    return await request(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=char))))


async def test_example_2_display_order(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "The link: %s\n" % EXAMPLE_2
    open_doc(client, uri, text)
    hover = await hover_at(client, uri, 0, 15)
    assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
    md = hover.contents.value

    visual = get_display(EXAMPLE_2, base_dir="L")
    # what a reader sees: the two Hebrew labels swapped and each reversed
    assert visual == "http://ab.\u05d7\u05d6\u05d5.\u05d4\u05d3\u05d2/ij/kl/mn/op.html"
    assert "```text\n%s\n```" % visual in md
    assert "Display order" in md and "left-to-right" in md

    rows = [line for line in md.splitlines() if line.startswith("| U+05D2 ")]
    assert len(rows) == 1
    assert "HEBREW LETTER GIMEL" in rows[0] and "Hebrew" in rows[0] and "| R |" in rows[0]
    for cp in ("U+05D3", "U+05D4", "U+05D5", "U+05D6", "U+05D7"):
        assert "| %s " % cp in md

    assert "| scheme | `http` |" in md
    assert "| host | `ab.\u05d2\u05d3\u05d4.\u05d5\u05d6\u05d7` |" in md
    assert "| path | `/ij/kl/mn/op.html` |" in md
    assert "URI form" in md and "xn--" in md  # the host goes through IDNA
    assert hover.range == types.Range(start=types.Position(line=0, character=10),
                                      end=types.Position(line=0, character=10 + len(EXAMPLE_2)))


async def test_components_forms_and_idn_labels(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.md").as_uri()
    iri = "https://user@xn--bcher-kva.example:8080/p%C3%A4th?q=1#frag"
    open_doc(client, uri, "Link: <%s>\n" % iri, "markdown")
    md = (await hover_at(client, uri, 0, 12)).contents.value
    for name, value in (("scheme", "https"), ("userinfo", "user"),
                        ("host", "xn--bcher-kva.example"), ("port", "8080"),
                        ("path", "/p%C3%A4th"), ("query", "q=1"), ("fragment", "frag")):
        assert "| %s | `%s` |" % (name, value) in md
    assert "**URI form** (RFC 3987 §3.1): `%s`" % iri in md
    assert "**IRI form** (RFC 3987 §3.2): `https://user@b\u00fccher.example:8080/p\u00e4th?q=1#frag`" in md
    assert "- `xn--bcher-kva` → `b\u00fccher`" in md
    assert "Display order" not in md  # not a bidi IRI
    assert "**Characters**" not in md  # all ASCII and visible


async def test_invisible_characters_are_shown(client: LanguageClient, tmp_path):
    await start(client, capabilities(encodings=["utf-32"]))
    uri = (tmp_path / "a.txt").as_uri()
    iri = "http://a.b/x\u202ey\u200bz"
    open_doc(client, uri, "\U0001F600 %s\n" % iri)
    md = (await hover_at(client, uri, 0, 5)).contents.value
    assert "| path | `/x<U+202E>y<U+200B>z` |" in md
    assert "| U+202E | (invisible) | RIGHT-TO-LEFT OVERRIDE |" in md
    assert "| U+200B | (invisible) | ZERO WIDTH SPACE |" in md


async def test_hover_only_on_an_iri(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "before http://a.b/c after\nnext line\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    assert await hover_at(client, uri, 0, 2) is None       # on "before"
    assert await hover_at(client, uri, 0, 19) is None      # on the space after it
    assert await hover_at(client, uri, 1, 3) is None       # another line
    assert await hover_at(client, uri, 0, 7) is not None   # its first character
    assert await hover_at(client, uri, 0, 18) is not None  # its last character
    assert await hover_at(client, uri, 0, 200) is None     # past the line's end
    assert await hover_at(client, uri, 99, 0) is None      # past the document's end


async def test_hover_position_encodings(client: LanguageClient, tmp_path):
    await start(client, capabilities(encodings=["utf-8"]))
    uri = (tmp_path / "a.txt").as_uri()
    text = "\U0001F600\u2028 http://a.b/\u00e9\n"
    open_doc(client, uri, text)
    p = pos_of(text, text.index("http"), "utf-8")
    assert p == types.Position(line=0, character=8)
    hover = await hover_at(client, uri, p.line, p.character)
    assert hover is not None
    assert hover.range.start == p
    assert hover.range.end == types.Position(line=0, character=8 + len("http://a.b/") + 2)


async def test_plain_text_hover_for_clients_without_markdown(client: LanguageClient, tmp_path):
    caps = capabilities()
    caps.text_document.hover = types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])
    await start(client, caps)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/c\n")
    hover = await hover_at(client, uri, 0, 3)
    assert hover.contents.kind == types.MarkupKind.PlainText
