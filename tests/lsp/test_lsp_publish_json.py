"""Diagnostics are published as JSON made without lsprotocol's converter
(issue 7: a change re-publishes every diagnostic of a document); that JSON
must be exactly what the converter makes of the lsprotocol diagnostics."""
from __future__ import annotations

import pytest
from pygls.protocol import default_converter

from irilint.config import Settings
from irilint.engine import Engine
from irilint.lines import LineIndex
from irilint.lsp.diagnostics import diagnostic_json, to_diagnostic

TEXT = (
    "# Links\n"
    "Cyrillic host https://раураl.com/login and http://EXAMPLE.org/%7euser/\n"
    "astral 😀 then https://例え.jp/パス/%e2%82%ac?q=1#frag\r\n"
    "bidi https://example.org/\u202eabc/ here\r"
    "unused <!-- irilint: ignore[IRI602] -->\n"
    "wide 𝐀𝐁 https://exa\u200bmple.org/\n"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("version", [7, None])
def test_published_json_is_what_the_converter_makes(encoding, version):
    findings = Engine().check_text(TEXT, path="doc.md", settings=Settings(select=("ALL",))).findings
    # tags (unused-suppression), fixes, non-BMP columns, every line end
    assert {"unused-suppression", "bidi-control", "uppercase-host"} <= {f.rule.name for f in findings}
    index = LineIndex(TEXT)
    converter = default_converter()
    for f in findings:
        want = converter.unstructure(to_diagnostic(f, index, encoding, version))
        assert diagnostic_json(f, index, encoding, version) == want


def test_a_full_pull_report_as_json_is_what_the_converter_makes():
    from lsprotocol import types

    findings = Engine().check_text(TEXT, path="doc.md", settings=Settings(select=("ALL",))).findings
    index = LineIndex(TEXT)
    converter = default_converter()
    want = converter.unstructure(types.DocumentDiagnosticResponse(
        id=3, result=types.RelatedFullDocumentDiagnosticReport(
            items=[to_diagnostic(f, index, "utf-16", 4) for f in findings], result_id="4:0")))
    got = converter.unstructure(types.DocumentDiagnosticResponse(
        id=3, result={"kind": "full", "resultId": "4:0",
                      "items": [diagnostic_json(f, index, "utf-16", 4) for f in findings]}))
    assert got == want and len(got["result"]["items"]) == len(findings) > 5


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_a_collision_carries_related_information(encoding):
    # Arabic prose with an astral character before the hosts: the columns
    # of the related range differ per encoding
    text = "ادفع 𝐀 عبر https://paypal.com/ وليس https://\u0440\u0430\u0443\u0440\u0430l.com/\n"
    findings = [f for f in Engine().check_text(text, path="doc.md", settings=Settings()).findings
                if f.rule.name == "confusable-collision"]
    (f,) = findings
    index = LineIndex(text)
    uri = "file:///doc.md"
    got = diagnostic_json(f, index, encoding, 1, uri)
    assert got == default_converter().unstructure(to_diagnostic(f, index, encoding, 1, uri))
    (rel,) = got["relatedInformation"]
    start = text.index("paypal.com")
    assert rel["location"]["uri"] == uri
    assert rel["location"]["range"]["start"] == {"line": 0, "character": index.position(start, encoding)[1]}
    assert "paypal.com" in rel["message"]
    # without the document's uri there is nothing to point at
    assert "relatedInformation" not in diagnostic_json(f, index, encoding, 1)
