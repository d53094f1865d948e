"""Code actions for a reference that is data (a string literal in code, a
value in a data file): still offered, but unsafe, never preferred, and left
out of fix-all; the same reference in a comment keeps its preferred fix."""
from __future__ import annotations

import pytest
from lsp_helpers import apply_action, code_actions, diagnostics_for, open_doc, rng, start
from pytest_lsp import LanguageClient

SCHEME_FIX = "Lowercase the scheme to 'http'"


@pytest.mark.parametrize("name, language_id, text, reason", [
    ("a.py", "python", 'u = "HTTP://e.example/"  # HTTP://e.example/\n', "a string literal"),
    ("a.yaml", "yaml", "u: HTTP://e.example/  # HTTP://e.example/\n", "an unquoted value"),
])
async def test_data_fix_is_offered_unsafe_and_not_preferred(client: LanguageClient, tmp_path,
                                                            name, language_id, text, reason):
    await start(client)
    uri = (tmp_path / name).as_uri()
    open_doc(client, uri, text, language_id)
    diags = sorted((d for d in await diagnostics_for(client, uri, version=1) if d.code == "IRI601"),
                   key=lambda d: d.range.start.character)
    in_data, in_comment = diags

    actions = await code_actions(client, uri, in_data.range, [in_data])
    (fix,) = [a for a in actions if a.title.startswith(SCHEME_FIX)]
    assert fix.title == SCHEME_FIX + " (unsafe: changes %s, which is data)" % reason
    assert not fix.is_preferred
    first = text.index("HTTP")
    assert apply_action(text, fix, uri) == text[:first] + "http" + text[first + 4:]

    actions = await code_actions(client, uri, in_comment.range, [in_comment])
    (fix,) = [a for a in actions if a.title.startswith(SCHEME_FIX)]
    assert fix.title == SCHEME_FIX and fix.is_preferred is True

    (fix_all,) = await code_actions(client, uri, rng(0, 0), only=["source.fixAll.irilint"])
    last = text.rindex("HTTP")
    assert apply_action(text, fix_all, uri) == text[:last] + "http" + text[last + 4:]
