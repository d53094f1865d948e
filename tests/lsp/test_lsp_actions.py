"""Code actions: quickfixes, fix-all, ignore-on-line, conversions, and how
the edits are shaped for the client."""
from __future__ import annotations

import pytest
from lsp_helpers import (
    apply_action,
    capabilities,
    code_actions,
    diagnostics_for,
    edits_of,
    open_doc,
    request,
    rng,
    start,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

from irilint.convert import nfc, to_iri, to_uri


def by_title(actions, title):
    found = [a for a in actions if a.title == title]
    assert found, "no action %r in %r" % (title, [a.title for a in actions])
    return found[0]


async def reopen_and_lint(client, uri, text, language_id, version):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await diagnostics_for(client, uri, version=version)


async def test_quickfixes_preferred_and_unsafe(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "go to http://a.b/%7e/\ufb01le now\n"
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, version=1)
    lower = next(d for d in diags if d.code == "IRI402")
    actions = await code_actions(client, uri, lower.range, [lower])
    upper = by_title(actions, "Uppercase to %7E")
    assert upper.kind == types.CodeActionKind.QuickFix
    assert upper.is_preferred is True
    assert upper.diagnostics and upper.diagnostics[0].code == "IRI402"
    assert apply_action(text, upper, uri) == "go to http://a.b/%7E/\ufb01le now\n"

    compat = next(d for d in diags if d.code == "IRI302")
    actions = await code_actions(client, uri, compat.range, [compat])
    unsafe = [a for a in actions if a.kind == "quickfix" and "(unsafe)" in a.title]
    assert unsafe and not unsafe[0].is_preferred
    assert apply_action(text, unsafe[0], uri) == "go to http://a.b/%7e/file now\n"


async def test_quickfix_without_diagnostics_in_context(client: LanguageClient, tmp_path):
    """Clients that send no diagnostics (or drop ``data``) still get the
    fixes of the findings under the cursor."""
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "http://a.b/%7e\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    actions = await code_actions(client, uri, rng(0, 12))
    assert "Uppercase to %7E" in [a.title for a in actions]
    assert "Ignore lowercase-percent-encoding (IRI402) on this line" in [a.title for a in actions]


async def test_fix_all(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "http://a.b/%7e and http://c.d/%c3%a4/e\u0301\nhttp://\u24b6.com/\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    actions = await code_actions(client, uri, rng(0, 0), only=["source.fixAll.irilint"])
    assert [a.kind for a in actions] == ["source.fixAll.irilint"]
    fixed = apply_action(text, actions[0], uri)
    # safe fixes only, until nothing more applies (as `irilint check --fix`):
    # hex uppercased, readable text decoded, NFC; "%7E" stays (a trailing
    # "~" would fall outside the link in running text) and the circled A
    # (an unsafe NFKC fix) stays
    assert fixed == "http://a.b/%7E and http://c.d/\u00e4/\u00e9\nhttp://\u24b6.com/\n"
    # "source" selects it too; "quickfix" does not
    assert any(a.kind == "source.fixAll.irilint"
               for a in await code_actions(client, uri, rng(0, 0), only=["source"]))
    assert not any(a.kind == "source.fixAll.irilint"
                   for a in await code_actions(client, uri, rng(0, 12), only=["quickfix"]))


@pytest.mark.parametrize("name, language_id, text, expected", [
    ("a.md", "markdown",
     "See [x](http://a.b/%7e) here.\n",
     "See [x](http://a.b/%7e) here. <!-- irilint: ignore[lowercase-percent-encoding] -->\n"),
    ("a.py", "python",
     'URL = "http://a.b/%7e"\n',
     'URL = "http://a.b/%7e"  # irilint: ignore[lowercase-percent-encoding]\n'),
    ("a.txt", "plaintext",
     "http://a.b/%7e \n",
     "http://a.b/%7e  # irilint: ignore[lowercase-percent-encoding]\n"),
    ("a.js", "javascript",
     'const u = "http://a.b/%7e";\n',
     'const u = "http://a.b/%7e";  // irilint: ignore[lowercase-percent-encoding]\n'),
    ("a.html", "html",
     '<p><a href="http://a.b/%7e">x</a></p>\r\n',
     '<p><a href="http://a.b/%7e">x</a></p> <!-- irilint: ignore[lowercase-percent-encoding] -->\r\n'),
    ("a.py", "python",
     'URL = "http://a.b/%7e"  # irilint: ignore[percent-encoded-unreserved]\n',
     'URL = "http://a.b/%7e"  # irilint: ignore[percent-encoded-unreserved, lowercase-percent-encoding]\n'),
    ("b.html", "html",
     "<!-- a comment with http://a.b/%7e\nthat goes on -->\n",
     "<!-- a comment with http://a.b/%7e irilint: ignore[lowercase-percent-encoding]\n"
     "that goes on -->\n"),
    ("a.rst", "restructuredtext",
     "Title\n=====\n\nSee http://a.b/%7e here.\n",
     "Title\n=====\n\n.. irilint: ignore[lowercase-percent-encoding]\n\nSee http://a.b/%7e here.\n"),
])
async def test_ignore_on_this_line(client: LanguageClient, tmp_path, name, language_id, text, expected):
    await start(client)
    uri = (tmp_path / name).as_uri()
    open_doc(client, uri, text, language_id)
    diags = await diagnostics_for(client, uri, version=1)
    lower = next(d for d in diags if d.code == "IRI402")
    actions = await code_actions(client, uri, lower.range, [lower])
    ignore = by_title(actions, "Ignore lowercase-percent-encoding (IRI402) on this line")
    new_text = apply_action(text, ignore, uri)
    assert new_text == expected
    after = await reopen_and_lint(client, uri, new_text, language_id, 2)
    assert "IRI402" not in [d.code for d in after]
    assert "IRI901" not in [d.code for d in after]  # the suppression is used


async def test_no_ignore_comment_in_plain_json(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.json").as_uri()
    open_doc(client, uri, '{"u": "http://a.b/%7e"}\n', "json")
    diags = await diagnostics_for(client, uri, version=1)
    lower = next(d for d in diags if d.code == "IRI402")
    titles = [a.title for a in await code_actions(client, uri, lower.range, [lower])]
    assert "Uppercase to %7E (unsafe: changes a string literal, which is data)" in titles
    assert not any(t.startswith("Ignore ") for t in titles)


async def test_ignore_twice_on_one_line_extends_the_list(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.md").as_uri()
    text = "[x](http://a.b/%7e)\n"
    open_doc(client, uri, text, "markdown")
    diags = await diagnostics_for(client, uri, version=1)
    for version, code in ((2, "IRI402"), (3, "IRI404")):
        d = next(d for d in diags if d.code == code)
        actions = await code_actions(client, uri, d.range, [d])
        ignore = next(a for a in actions if a.title.startswith("Ignore ") and code in a.title)
        text = apply_action(text, ignore, uri)
        diags = await reopen_and_lint(client, uri, text, "markdown", version)
    assert text == ("[x](http://a.b/%7e) <!-- irilint: ignore[lowercase-percent-encoding, "
                    "percent-encoded-unreserved] -->\n")
    assert list(diags) == []


@pytest.mark.parametrize("text, title, convert", [
    ("see http://\u4f8b\u3048.\u30c6\u30b9\u30c8/\u30d1\u30b9?q=\u00e9 ok\n", "Convert to URI", to_uri),
    ("see http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9 ok\n", "Convert to IRI", to_iri),
    ("see http://example.com/cafe\u0301 ok\n", "Normalize to NFC", nfc),
])
async def test_conversions(client: LanguageClient, tmp_path, text, title, convert):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    actions = await code_actions(client, uri, rng(0, 10))  # cursor inside the IRI
    action = by_title(actions, title)
    assert action.kind == types.CodeActionKind.RefactorRewrite
    iri = text.split(" ")[1]
    assert apply_action(text, action, uri) == "see %s ok\n" % convert(iri)
    only = await code_actions(client, uri, rng(0, 10), only=["refactor"])
    assert title in [a.title for a in only]
    assert all(a.kind == "refactor.rewrite" for a in only)


async def test_conversions_only_when_they_change_something(client: LanguageClient, tmp_path):
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "see http://example.com/a?b=c ok\n")
    await diagnostics_for(client, uri, version=1)
    assert await code_actions(client, uri, rng(0, 10)) == []
    assert await code_actions(client, uri, rng(0, 1)) == []  # not on an IRI


async def test_conversion_keeps_html_escapes(client: LanguageClient, tmp_path):
    """Only the changed characters are rewritten: ``&amp;`` stays."""
    await start(client)
    uri = (tmp_path / "a.html").as_uri()
    text = '<a href="http://a.b/\u00e9?x=1&amp;y=2">x</a>\n'
    open_doc(client, uri, text, "html")
    await diagnostics_for(client, uri, version=1)
    action = by_title(await code_actions(client, uri, rng(0, 15)), "Convert to URI")
    assert apply_action(text, action, uri) == '<a href="http://a.b/%C3%A9?x=1&amp;y=2">x</a>\n'


async def test_edit_shapes(client: LanguageClient, tmp_path):
    """``documentChanges`` (with the version) when the client supports them,
    else ``changes``."""
    await start(client, capabilities(document_changes=False, encodings=["utf-8"]))
    uri = (tmp_path / "a.txt").as_uri()
    text = "\u00e9\u00e9 http://a.b/%7e\n"
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, version=1)
    d = next(d for d in diags if d.code == "IRI402")
    action = by_title(await code_actions(client, uri, d.range, [d]), "Uppercase to %7E")
    assert action.edit.document_changes is None and uri in action.edit.changes
    assert edits_of(action, uri)[0].range == rng(0, 16, 0, 19)  # UTF-8 bytes
    assert apply_action(text, action, uri, "utf-8") == "\u00e9\u00e9 http://a.b/%7E\n"


async def test_document_changes_carry_the_version(client: LanguageClient, tmp_path):
    await start(client, capabilities(document_changes=True))
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n", version=7)
    diags = await diagnostics_for(client, uri, version=7)
    d = next(d for d in diags if d.code == "IRI402")
    action = by_title(await code_actions(client, uri, d.range, [d]), "Uppercase to %7E")
    (change,) = action.edit.document_changes
    assert change.text_document.uri == uri and change.text_document.version == 7


async def test_commands_for_clients_without_literals(client: LanguageClient, tmp_path):
    await start(client, capabilities(literals=False))
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    diags = await diagnostics_for(client, uri, version=1)
    d = next(d for d in diags if d.code == "IRI402")
    actions = await code_actions(client, uri, d.range, [d])
    cmd = by_title(actions, "Uppercase to %7E")
    assert isinstance(cmd, types.Command) and cmd.command == "irilint.applyEdit"
    result = await request(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=cmd.command, arguments=cmd.arguments)))
    assert result is True
    await wait_for(lambda: client.applied_edits, what="workspace/applyEdit")
    (edit,) = client.applied_edits
    changes = edit.document_changes[0].edits if edit.document_changes else edit.changes[uri]
    assert changes[0].new_text == "%7E"


async def test_stale_data_is_not_used(client: LanguageClient, tmp_path):
    """A diagnostic from an older version (its data says so) gets no fix
    from its data; the server's current findings are used instead."""
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    open_doc(client, uri, "http://a.b/%7e\n")
    old = next(d for d in await diagnostics_for(client, uri, version=1) if d.code == "IRI402")
    await reopen_and_lint(client, uri, "http://a.b/%7f\n", "plaintext", 2)
    actions = await code_actions(client, uri, old.range, [old])
    titles = [a.title for a in actions]
    assert "Uppercase to %7F" in titles and "Uppercase to %7E" not in titles


async def test_convert_to_iri_keeps_a_spoofed_a_label(client: LanguageClient, tmp_path):
    """Like ``irilint convert --to iri``: the look-alike's A-label stays, the
    title says why, and the rest of the reference still converts."""
    await start(client)
    uri = (tmp_path / "a.txt").as_uri()
    text = "see https://xn--80ak6aa92e.com/%C3%A9t%C3%A9 ok\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, version=1)
    actions = await code_actions(client, uri, rng(0, 10))
    [action] = [a for a in actions if a.title.startswith("Convert to IRI")]
    assert action.title == "Convert to IRI (keeps xn--80ak6aa92e encoded: flagged by whole-script-confusable)"
    assert apply_action(text, action, uri) == "see https://xn--80ak6aa92e.com/\u00e9t\u00e9 ok\n"
    # with nothing else to decode, there is nothing to offer
    text2 = "see https://xn--80ak6aa92e.com/login ok\n"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text2)]))
    await diagnostics_for(client, uri, version=2)
    actions = await code_actions(client, uri, rng(0, 10))
    assert not [a for a in actions if a.title.startswith("Convert to IRI")]
