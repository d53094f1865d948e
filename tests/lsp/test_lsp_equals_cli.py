"""The server's diagnostics for a file equal the findings ``irilint check``
reports for it: the same rules at the same places, with the same messages
and severities.  Over files kept in the repository (Markdown, reST-like
text, code, the fuzz seeds and crash cases: so it runs wherever the tests
run), and a sample of bench/real-corpus where that corpus exists.

Each file is checked alone by both (the CLI on that one file, the server
with only that document open): findings across documents are another
test's."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

from lsp_helpers import TIMEOUT, capabilities, diagnostics_for, open_doc, start
from lsprotocol import types
from pytest_lsp import LanguageClient

REPO = Path(__file__).resolve().parents[2]

#: files of the repository, of several scanners, with findings in most
IN_REPOSITORY = [
    "tests/samples/sample.md",
    "README.md",
    "docs/rules.md",
    "bench/README.md",
    "tests/fuzz/README.md",
    "tests/fuzz/seeds/references.txt",
    "tests/fuzz/crashes/markdown-charref-scheme-autolink.md",
    "tests/fuzz/crashes/c-backslash-before-scheme.c",
    "tests/fuzz/crashes/c-comment-backslash-before-scheme.c",
    "bench/real_projects.toml",
    "server/lsp/hover.py",
]

#: how many files of bench/real-corpus (every n-th of its sorted list, up
#: to this size each) when it is there
CORPUS_SAMPLE = 12
CORPUS_MAX_BYTES = 200_000

SEVERITY = {"error": 1, "warning": 2, "info": 3, "information": 3, "hint": 4}


def sample_files() -> List[Path]:
    files = [REPO / p for p in IN_REPOSITORY]
    corpus = REPO / "bench" / "real-corpus"
    if corpus.is_dir():
        files.extend(_corpus_sample(corpus))
    return files


def _corpus_sample(corpus: Path) -> List[Path]:
    """Every n-th of the corpus files its findings.json has findings in
    (bench/real_projects.py writes it), else of the files with a URL, a "%"
    and non-ASCII bytes."""
    listed = corpus / "findings.json"
    found: List[Path] = []
    if listed.is_file():
        names = {(f["project"], f["path"]) for f in json.loads(listed.read_text("utf-8")).get("findings", [])}
        found = [corpus / project / path for project, path in sorted(names)]
    if not found:
        found = [p for p in sorted(corpus.rglob("*")) if p.is_file() and not p.name.startswith(".")
                 and p.name not in ("findings.md", "findings.json") and _promising(p.read_bytes())]
    found = [p for p in found if p.is_file() and p.stat().st_size <= CORPUS_MAX_BYTES]
    step = max(1, len(found) // CORPUS_SAMPLE)
    return found[::step][:CORPUS_SAMPLE]


def _promising(raw: bytes) -> bool:
    return b"://" in raw and b"%" in raw and not raw.isascii()


def cli_findings(path: Path) -> List[Tuple[Any, ...]]:
    p = subprocess.run([sys.executable, "-m", "irilint", "check", "--no-cache", "--format", "json",
                        path.name], cwd=str(path.parent), capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    out = []
    for f in json.loads(p.stdout):
        if f.get("kind") != "finding":
            continue
        out.append((f["code"], f["line"] - 1, f["column"] - 1, f["end_line"] - 1, f["end_column"] - 1,
                    "%s: %s" % (f["name"], f["message"]), SEVERITY[f["severity"]]))
    return out


def server_findings(diagnostics: List[types.Diagnostic]) -> List[Tuple[Any, ...]]:
    return [(str(d.code), d.range.start.line, d.range.start.character, d.range.end.line,
             d.range.end.character, d.message, int(d.severity)) for d in diagnostics]


async def test_the_servers_diagnostics_equal_the_clis_findings(client: LanguageClient, tmp_path):
    files = sample_files()
    assert all(f.is_file() for f in files), [str(f) for f in files if not f.is_file()]
    # columns in code points, as the CLI counts them
    await start(client, capabilities(encodings=["utf-32"]))
    compared: Dict[str, int] = {}
    for i, source in enumerate(files):
        raw = source.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue  # the CLI reads it in another encoding; the editor would too
        if text.startswith("\ufeff"):
            continue  # the CLI drops a BOM an editor keeps out of the text
        folder = tmp_path / ("f%02d" % i)
        folder.mkdir()
        copy = folder / source.name
        shutil.copyfile(source, copy)
        want = cli_findings(copy)
        uri = copy.as_uri()
        open_doc(client, uri, text, "")  # no language id: the file name decides, as for the CLI
        got = server_findings(await diagnostics_for(client, uri, version=1, timeout=max(TIMEOUT, 60)))
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        assert got == want, str(source.relative_to(REPO))
        compared[str(source.relative_to(REPO))] = len(got)
    assert len(compared) >= len(IN_REPOSITORY) - 1, compared
    assert sum(compared.values()) > 50, compared  # files with findings, not only clean ones
