"""bench/lsp_bench.py --dense: a document dense with findings, timed from
didOpen and from a one-character edit to the diagnostics of that version,
against irilint's server and the bare one (speed.py's dense server rows)."""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import lsp_bench  # noqa: E402


def test_the_dense_document_is_whole_lines_of_the_issues_line():
    text = lsp_bench.dense_doc(20_000)
    assert text.endswith("\n") and len(text.encode("utf-8")) <= 20_000
    assert set(text.splitlines()) == {lsp_bench.DENSE_LINE.rstrip("\n")}
    assert lsp_bench.DENSE_LINE.count("http://example.com/\u05e2\u05d1\u05e8%zz") == 4


def test_dense_times_open_and_an_edit_and_counts_the_diagnostics(tmp_path):
    lines = len(lsp_bench.dense_doc(20_000).splitlines())
    d = lsp_bench.bench_dense(str(tmp_path), 20_000, edits=2)
    # two findings per reference (the undecodable escape, the mixed direction)
    assert d["findings"] == 8 * lines
    assert d["open"] > 0 and d["edit"] > 0 and d["open_cpu"] >= 0 and d["edit_cpu"] >= 0
    bare = lsp_bench.bench_dense(str(tmp_path), 20_000, edits=2, argv=lsp_bench.bare_server_argv())
    assert bare["findings"] == 0
