"""Inlay hints: decoded escapes, U-labels, display order; invisibles
escaped; only in the requested range; an off-switch."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_helpers import capabilities, open_doc, pos_of, request, rng, start, wait_for
from lsprotocol import types
from pytest_lsp import LanguageClient

from irilint.convert import percent_encode_component
from irilint.lsp.inlay_hints import reference_hints, shown
from irilint.unicode_security import general_category

HEBREW = "\u05e9\u05dc\u05d5\u05dd"  # שלום
EXAMPLE_2 = "http://ab.\u05d2\u05d3\u05d4.\u05d5\u05d6\u05d7/ij/kl/mn/op.html"
TEXT = (
    "%s 👋 https://example.com/%%D7%%A9%%D7%%9C%%D7%%95%%D7%%9D/x\n" % HEBREW
    + "مرحبا 文字 https://xn--bcher-kva.example/\n"
    + "😀 %s\n" % EXAMPLE_2
    + "文 https://example.com/%E2%80%AEtxt.exe\n"
)


async def hints_in(client: LanguageClient, uri: str, r: types.Range):
    return list(await request(client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=r))) or [])


def at(text: str, needle: str, encoding: str, end: bool = True) -> types.Position:
    i = text.index(needle) + (len(needle) if end else 0)
    return pos_of(text, i, encoding)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-8"])
async def test_hints_for_escapes_labels_and_display_order(client: LanguageClient, tmp_path, encoding):
    result = await start(client, capabilities(encodings=[encoding]))
    assert result.capabilities.inlay_hint_provider is not None
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    hints = await hints_in(client, uri, rng(0, 0, 4, 0))
    got = [(h.position, h.label) for h in hints]
    assert got == [
        (at(TEXT, "%D7%9D", encoding), "= " + HEBREW),
        (at(TEXT, "xn--bcher-kva", encoding), "= bücher"),
        (at(TEXT, EXAMPLE_2, encoding),
         "shown as: http://ab.\u05d7\u05d6\u05d5.\u05d4\u05d3\u05d2/ij/kl/mn/op.html"),
        (at(TEXT, "%E2%80%AE", encoding), "= ⟨U+202E⟩"),
    ]
    for h in hints:
        assert not any(general_category(ch) == "Cf" for ch in h.label)


async def test_only_hints_in_the_requested_range(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    line1 = await hints_in(client, uri, rng(1, 0, 1, 60))
    assert [h.label for h in line1] == ["= bücher"]
    # a range that ends before the end of the run's hint position: nothing
    end = at(TEXT, "%D7%9D", "utf-16")
    assert await hints_in(client, uri, rng(0, 0, 0, end.character - 1)) == []
    assert [h.label for h in await hints_in(client, uri, rng(0, 0, 0, end.character))] == ["= " + HEBREW]


async def test_off_switch_from_initialization_options(client: LanguageClient, tmp_path):
    await start(client, capabilities(configuration=False), init={"inlayHints": False})
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    assert await hints_in(client, uri, rng(0, 0, 4, 0)) == []


async def test_off_switch_per_folder_from_workspace_configuration(client: LanguageClient, tmp_path):
    on, off = tmp_path / "on", tmp_path / "off"
    on.mkdir()
    off.mkdir()
    client.set_configuration({"inlayHints": True}, section="irilint")
    client.set_configuration({"inlayHints": False}, section="irilint", scope_uri=off.as_uri())
    await request(client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), initialization_options={"debounce": 0},
        workspace_folders=[types.WorkspaceFolder(uri=on.as_uri(), name="on"),
                           types.WorkspaceFolder(uri=off.as_uri(), name="off")])))
    for folder, expected in ((on, 4), (off, 0)):
        uri = (folder / "a.txt").as_uri()
        open_doc(client, uri, TEXT)
        assert len(await hints_in(client, uri, rng(0, 0, 4, 0))) == expected


# -- in-process: whatever the escapes decode to, a hint shows no raw
# control or invisible, and says exactly what was decoded

_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"}


def unescape(label: str) -> str:
    import re

    return re.sub(r"⟨U\+([0-9A-F]{4,6})⟩", lambda m: chr(int(m.group(1), 16)), label)


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=1, max_size=20).filter(lambda t: not t.isascii() and "⟨" not in t))
def test_decoded_text_never_raw(decoded):
    value = "https://example.com/" + percent_encode_component(decoded)
    hints = reference_hints(value)
    escaped = [label for _, label, _ in hints if label.startswith("= ")]
    assert escaped, value
    for label in escaped:
        assert not any(general_category(ch) in _INVISIBLE_CATEGORIES for ch in label)
        assert not any(unicodedata.bidirectional(ch) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI",
                                                         "FSI", "PDI") for ch in label)
    # the escapes of the text are one run or several (ASCII between them
    # stays as it was): their decoded pieces, in order, hold every
    # non-ASCII character of the text
    pieces = "".join(unescape(label[2:]) for label in escaped)
    assert [ch for ch in pieces if not ch.isascii()] == [ch for ch in decoded if not ch.isascii()]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_shown_is_reversible_and_visible(text):
    out = shown(text)
    assert not any(general_category(ch) in _INVISIBLE_CATEGORIES for ch in out)
    if "⟨" not in text:
        assert unescape(out) == text


async def test_turning_hints_off_asks_the_client_to_refresh(client: LanguageClient, tmp_path):
    refreshed = []

    @client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def refresh(params: None) -> None:
        refreshed.append(True)

    caps = capabilities()
    caps.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    client.set_configuration({"debounce": 0}, section="irilint")
    await start(client, caps)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, TEXT)
    assert len(await hints_in(client, uri, rng(0, 0, 4, 0))) == 4
    client.set_configuration({"debounce": 0, "inlayHints": False}, section="irilint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: refreshed, what="workspace/inlayHint/refresh")
    assert await hints_in(client, uri, rng(0, 0, 4, 0)) == []
