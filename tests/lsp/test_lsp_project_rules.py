"""Project rules in the editor: confusable hosts across documents, driven
through a real client (open, edit with didChange, bounded waits)."""
from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_helpers import diagnostics_for, open_doc, start, wait_for

SPOOF = "http://ex\u0430mple.com/"  # Cyrillic а
GENUINE = "http://example.com/"


def latest(client, uri):
    for p in reversed(client.published):
        if p.uri == uri:
            return p
    return None


def collisions(client, uri):
    p = latest(client, uri)
    return None if p is None else [d for d in p.diagnostics if d.code == "IRI205"]


def change(client, uri, version, text):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_a_collision_between_two_open_documents_shows_on_both_and_goes_from_both(
        client: LanguageClient, tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a_text, b_text = "Log in at %s now.\n" % SPOOF, "Home:\n\n%s\n" % GENUINE
    a.write_text(a_text, encoding="utf-8")
    b.write_text(b_text, encoding="utf-8")
    await start(client, root=tmp_path)
    open_doc(client, a.as_uri(), a_text, "markdown")
    open_doc(client, b.as_uri(), b_text, "markdown")

    on_a = await wait_for(lambda: collisions(client, a.as_uri()), what="the collision on a.md")
    on_b = await wait_for(lambda: collisions(client, b.as_uri()), what="the collision on b.md")
    (da,), (db,) = on_a, on_b
    # each on its own host, naming the other document and line
    assert da.range == types.Range(start=types.Position(line=0, character=17),
                                   end=types.Position(line=0, character=28))
    assert "b.md, line 3" in da.message and "'example.com'" in da.message
    assert db.range == types.Range(start=types.Position(line=2, character=7),
                                   end=types.Position(line=2, character=18))
    assert "a.md, line 1" in db.message

    # editing the spoof away clears the collision on both documents
    change(client, a.as_uri(), 2, "Log in at %s now.\n" % GENUINE)
    await wait_for(lambda: collisions(client, a.as_uri()) == [] and latest(client, a.as_uri()).version == 2,
                   what="a.md without the collision")
    await wait_for(lambda: collisions(client, b.as_uri()) == [], what="b.md without the collision")

    # and bringing it back in b.md shows it on both again
    change(client, b.as_uri(), 2, "Home:\n\n%s\n" % SPOOF)
    await wait_for(lambda: collisions(client, a.as_uri()), what="the collision on a.md again")
    await wait_for(lambda: collisions(client, b.as_uri()), what="the collision on b.md again")


async def test_a_file_of_the_workspace_that_is_not_open_counts(client: LanguageClient, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "z.md").write_text("\n[PayPal](%s)\n" % GENUINE, encoding="utf-8")
    # left out by the default excludes: not indexed
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "y.md").write_text("http://ex\u0430mple.org/\n", encoding="utf-8")
    await start(client, root=tmp_path)
    a = tmp_path / "a.md"
    a_text = "%s\nhttp://example.org/\n" % SPOOF
    a.write_text(a_text, encoding="utf-8")
    open_doc(client, a.as_uri(), a_text, "markdown")
    found = await wait_for(lambda: collisions(client, a.as_uri()), what="the collision with docs/z.md")
    (d,) = found
    assert "docs/z.md, line 2" in d.message and "example.org" not in d.message
    # the file that is not open gets no diagnostics of its own
    assert latest(client, (docs / "z.md").as_uri()) is None
    # nor does the excluded one collide
    assert all("node_modules" not in d.message for d in await diagnostics_for(client, a.as_uri()))


async def test_a_pulling_client_gets_the_collision_on_both_documents(client: LanguageClient, tmp_path):
    from lsp_helpers import capabilities, request

    await start(client, caps=capabilities(pull=True), root=tmp_path)
    a, b = (tmp_path / "a.md").as_uri(), (tmp_path / "b.md").as_uri()
    open_doc(client, a, "%s\n" % SPOOF, "markdown")
    open_doc(client, b, "%s\n" % GENUINE, "markdown")

    async def pulled(uri):
        report = await request(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri))))
        return [d for d in report.items if d.code == "IRI205"]

    # the first pull of a.md may come before b.md was linted: pull again
    # until both documents' facts are in
    for _attempt in range(50):
        on_a, on_b = await pulled(a), await pulled(b)
        if on_a and on_b:
            break
    assert len(on_a) == 1 and "b.md, line 1" in on_a[0].message
    assert len(on_b) == 1 and "a.md, line 1" in on_b[0].message
