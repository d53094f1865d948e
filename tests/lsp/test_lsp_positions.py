"""Position encodings and line ends: UTF-16/UTF-8/UTF-32, emoji and other
astral characters, U+2028, U+0085, form feed and CRLF, with incremental
edits across them."""
from __future__ import annotations

from typing import List, Tuple

import pytest
from lsp_helpers import (
    apply_text_edits,
    capabilities,
    diagnostics_for,
    expected_findings,
    offset_of,
    open_doc,
    pos_of,
    start,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

# A line with an emoji and a U+2028 (not a line end in LSP) before an IRI
# holding a bidi control (U+202E) and a lowercase percent-encoding.
TEXT = "first line\n\U0001F600 \u2028 see http://a.b/%7e\u202Ex/y.html\nlast\n"


def diag_key(d: types.Diagnostic) -> Tuple[str, int, int, int, int]:
    r = d.range
    return (str(d.code), r.start.line, r.start.character, r.end.line, r.end.character)


def expected_keys(text: str, encoding: str, **kw) -> List[Tuple[str, int, int, int, int]]:
    out = []
    for f in expected_findings(text, **kw):
        a, b = pos_of(text, f.start, encoding), pos_of(text, f.end, encoding)
        out.append((f.rule.code, a.line, a.character, b.line, b.character))
    return sorted(out)


@pytest.mark.parametrize("offered, negotiated", [
    (None, "utf-16"),
    (["utf-16"], "utf-16"),
    (["utf-8", "utf-16"], "utf-8"),
    (["utf-8", "utf-32", "utf-16"], "utf-32"),
    (["utf-32"], "utf-32"),
])
async def test_negotiation(client: LanguageClient, offered, negotiated):
    result = await start(client, capabilities(encodings=offered))
    assert result.capabilities.position_encoding == negotiated


@pytest.mark.parametrize("encoding, char", [("utf-16", 20), ("utf-8", 24), ("utf-32", 19)])
async def test_exact_positions_in_each_encoding(client: LanguageClient, tmp_path, encoding, char):
    result = await start(client, capabilities(encodings=[encoding]))
    assert result.capabilities.position_encoding == encoding
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    diags = await diagnostics_for(client, uri, version=1)
    # by hand: 😀 is 2 UTF-16 units, 4 UTF-8 bytes, 1 code point; U+2028 is
    # 1, 3, 1; the spaces and " see http://a.b/" are 17 in all
    d = next(d for d in diags if d.code == "IRI402")
    assert d.range == types.Range(start=types.Position(line=1, character=char),
                                  end=types.Position(line=1, character=char + 3))
    # the U+202E right after "%7e": 3 UTF-8 bytes, 1 UTF-16 unit, 1 code point
    bidi = next(d for d in diags if d.message.startswith("bidi-control:"))
    width = 3 if encoding == "utf-8" else 1
    assert bidi.code == "IRI101"
    assert bidi.range == types.Range(start=types.Position(line=1, character=char + 3),
                                     end=types.Position(line=1, character=char + 3 + width))
    assert sorted(diag_key(d) for d in diags) == expected_keys(TEXT, encoding, path="/x/a.txt")


ODD_TEXT = ("\U0001F600\U0001F600 http://a.b/%7e\r\n"       # astral, CRLF
            "x\u2028y http://c.d/%7e\u0085z http://e.f/%7e\n"  # U+2028, U+0085 inside a line
            "\f http://g.h/%7e\r"                             # form feed, lone CR
            "\U00010400 http://i.j/%7e\n")                     # astral Deseret


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
async def test_odd_line_ends_and_incremental_edits(client: LanguageClient, tmp_path, encoding):
    await start(client, capabilities(encodings=[encoding]))
    uri = (tmp_path / "a.txt").as_uri()
    text = ODD_TEXT
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, version=1)
    assert sorted(diag_key(d) for d in diags) == expected_keys(text, encoding, path="/x/a.txt")
    lines = sorted({d.range.start.line for d in diags})
    assert lines == [0, 1, 2, 3]  # four LSP lines, whatever U+2028/U+0085/FF

    # Incremental edits placed after the odd characters, in the encoding;
    # each is located in the text as the previous edits left it.
    edits = [
        ("%7e", 0, 3, "%7E"),             # the first IRI, after two emoji
        ("\u2028", 1, 1, "\U0001F680"),   # insert after U+2028
        ("\u0085", 0, 2, ""),              # delete U+0085 and "z"
        ("g.h", 0, 3, "g\u00e9.h"),        # on the form feed line
        ("\r\U00010400", 0, 1, " "),       # join the lone-CR line
        (None, 0, 0, "http://k.l/%7e"),     # at the very end
    ]
    version = 1
    for needle, da, db, new in edits:
        base = len(text) if needle is None else text.index(needle)
        change_range = types.Range(start=pos_of(text, base + da, encoding),
                                   end=pos_of(text, base + db, encoding))
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=change_range, text=new)]))
        text = apply_text_edits(text, [types.TextEdit(range=change_range, new_text=new)], encoding)
        diags = await diagnostics_for(client, uri, version=version)
        assert sorted(diag_key(d) for d in diags) == expected_keys(text, encoding, path="/x/a.txt"), new

    assert text.startswith("\U0001F600\U0001F600 http://a.b/%7E\r\n")
    assert "\U0001F680" in text and "\u0085" not in text and "\r\U00010400" not in text


async def test_several_changes_in_one_notification(client: LanguageClient, tmp_path):
    """Changes apply in order, each to the text the previous one left."""
    await start(client, capabilities(encodings=["utf-16"]))
    uri = (tmp_path / "a.txt").as_uri()
    text = "\U0001F600\u2028x\r\nhttp://a.b/\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    changes = [
        types.TextDocumentContentChangePartial(  # "%7e" at the end of line 1
            range=types.Range(start=types.Position(line=1, character=11),
                              end=types.Position(line=1, character=11)), text="%7e"),
        types.TextDocumentContentChangePartial(  # after the emoji (2 units) and U+2028
            range=types.Range(start=types.Position(line=0, character=3),
                              end=types.Position(line=0, character=4)), text="http://c.d/%7e"),
        types.TextDocumentContentChangePartial(  # a new line before everything
            range=types.Range(start=types.Position(line=0, character=0),
                              end=types.Position(line=0, character=0)), text="\r\n"),
    ]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=changes))
    for c in changes:
        text = apply_text_edits(text, [types.TextEdit(range=c.range, new_text=c.text)])
    assert text == "\r\n\U0001F600\u2028http://c.d/%7e\r\nhttp://a.b/%7e\n"
    diags = await diagnostics_for(client, uri, version=2)
    assert sorted(diag_key(d) for d in diags) == expected_keys(text, "utf-16", path="/x/a.txt")
    starts = sorted((d.range.start.line, d.range.start.character) for d in diags if d.code == "IRI402")
    assert starts == [(1, 14), (2, 11)]


def test_independent_model_agrees_with_itself():
    # the test helpers' own round trip, so a bug there cannot hide one here
    for enc in ("utf-16", "utf-8", "utf-32"):
        for off in range(len(ODD_TEXT) + 1):
            if ODD_TEXT[off - 1:off + 1] == "\r\n":
                continue  # between CR and LF is not a position
            assert offset_of(ODD_TEXT, pos_of(ODD_TEXT, off, enc), enc) == off


@pytest.mark.parametrize("offered, requested, negotiated", [
    (None, "utf-8", "utf-8"),               # Vim's ALE: counts bytes, says nothing
    (None, "utf-32", "utf-32"),
    (["utf-16", "utf-8"], "utf-8", "utf-8"),  # offered: honoured
    (["utf-16"], "utf-8", "utf-16"),        # not offered: the spec wins
    (None, "latin-1", "utf-16"),            # unknown: ignored
])
async def test_position_encoding_from_initialization_options(
        client: LanguageClient, tmp_path, offered, requested, negotiated):
    result = await start(client, capabilities(encodings=offered), init={"positionEncoding": requested})
    assert result.capabilities.position_encoding == negotiated
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    diags = await diagnostics_for(client, uri, version=1)
    assert sorted(diag_key(d) for d in diags) == expected_keys(TEXT, negotiated, path="/x/a.txt")
