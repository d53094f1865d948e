"""A file above irilint.large_files.STREAM_ABOVE is checked as a stream of
findings, printed as they are found: the output (every format, the
statistics, the exit code, stderr) is byte-identical to a file checked
whole, and the memory it holds does not grow with its findings."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import irilint.large_files
from irilint.cli.check import FORMATS
from cli_run import run

DENSE = "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here"
CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"


@pytest.fixture
def tree(tmp_path):
    tmp_path = tmp_path / "tree"
    tmp_path.mkdir()
    big = tmp_path / "big.md"
    lines = []
    for i in range(60):
        lines.append(DENSE + " http://%s/x" % CYRILLIC_PAYPAL if i % 7 == 0 else DENSE)
        if i % 11 == 3:
            lines.append("<!-- irilint: ignore[IRI401] -->")
        if i % 13 == 5:
            lines.append("<!-- irilint: ignore[nope] --> http://-shop..example/ [a](http://b.example/%zz)")
        if i % 17 == 2:
            lines.append("")
            lines.append("```\nhttp://code.example/\u202e%zz\n```")
    big.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "small.md").write_text("see http://paypal.com/ and http://a.example/%zz\n", encoding="utf-8")
    (tmp_path / "clean.txt").write_text("http://example.com/\n", encoding="utf-8")
    return tmp_path


OPTIONS = [(), ("--statistics",), ("--show-fixes",), ("--fail-level", "error"), ("--fail-level", "info"),
           ("--select", "IRI5"), ("--quiet",)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("options", OPTIONS)
def test_a_streamed_file_prints_what_a_whole_one_prints(tree, monkeypatch, fmt, options):
    argv = ["check", "--no-cache", "--jobs", "1", "--format", fmt, *options, str(tree)]
    whole = run(argv)
    assert whole[1].strip()  # something to compare
    monkeypatch.setattr(irilint.large_files, "STREAM_ABOVE", 100)
    assert run(argv) == whole


def test_streamed_output_file_is_what_a_whole_one_writes(tree, monkeypatch):
    out = tree.parent / "out.sarif"
    argv = ["check", "--no-cache", "--jobs", "1", "--format", "sarif", "--output-file", str(out), str(tree)]
    whole = run(argv), out.read_bytes()
    monkeypatch.setattr(irilint.large_files, "STREAM_ABOVE", 100)
    assert (run(argv), out.read_bytes()) == whole


def test_only_the_large_file_is_streamed(tmp_path):
    from irilint.large_files import LocatedStream
    from irilint.project import Project
    from irilint.runner import check_files
    import argparse
    from irilint.cli.check import add_parser

    tree = tmp_path
    (tree / "big.md").write_text((DENSE + "\n") * 40, encoding="utf-8")
    (tree / "small.md").write_text(DENSE + "\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(["check", "--no-cache", "--jobs", "1", str(tree)])
    project = Project(args)
    project.stream_above = 1000
    kinds = {os.path.basename(o.path): type(o.reported).__name__ for o in check_files(project, [str(tree)])}
    assert kinds["big.md"] == LocatedStream.__name__
    assert kinds["small.md"] != LocatedStream.__name__
    # --fix and --diff never stream: they need every finding
    args = parser.parse_args(["check", "--no-cache", "--jobs", "1", "--diff", str(tree)])
    project = Project(args)
    project.stream_above = 1000
    assert not any(isinstance(o.reported, LocatedStream) for o in check_files(project, [str(tree)]))


PEAK = r'''
import sys, tracemalloc
import irilint.large_files
irilint.large_files.STREAM_ABOVE = int(sys.argv[2])
from irilint.cli import main
argv = ["check", "--no-cache", "--jobs", "1", "--format", sys.argv[3], "--output-file", sys.argv[4]]
main(argv + [sys.argv[5]])  # every module imported and warm before the count
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
main(argv + [sys.argv[1]])
print((tracemalloc.get_traced_memory()[1] - base) // 1024)
'''


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_streamed_dense_file_holds_a_fraction_of_the_memory(tmp_path, fmt):
    """300 KB dense with findings (11,000): checked whole, the findings
    are held (8 MB traced, 27 times the file); streamed, the peak is the
    text (UCS-2 for the Hebrew), its line index and a window (5 times)."""
    dense = tmp_path / "dense.md"
    dense.write_text(((DENSE + " ") * 4 + "\n") * 1500, encoding="utf-8")
    tiny = tmp_path / "tiny.md"
    tiny.write_text(DENSE + "\n", encoding="utf-8")

    def peak_kb(limit):
        done = subprocess.run([sys.executable, "-c", PEAK, str(dense), str(limit), fmt, str(tmp_path / "out"), str(tiny)],
                              capture_output=True, text=True, check=True)
        return int(done.stdout.split()[-1])

    size_kb = os.path.getsize(dense) // 1024
    whole, streamed = peak_kb(10 ** 12), peak_kb(1000)
    # the text alone is 2 bytes a character here (Hebrew): 2 * size_kb
    assert whole > 15 * size_kb
    assert streamed < 8 * size_kb
    assert whole > 3 * streamed


def test_a_parallel_run_streams_the_large_file_in_the_process_that_prints(tree, monkeypatch):
    for i in range(6):  # enough files for workers to start
        (tree / ("more%d.md" % i)).write_text("http://m%d.example/%%zz\n" % i, encoding="utf-8")
    argv = ["check", "--no-cache", "--jobs", "2", "--format", "json", str(tree)]
    whole = run(argv)
    from irilint.large_files import LocatedStream
    from irilint import project

    streamed_paths = []
    outcome = project.Project.outcome

    def spy(self, path, *args, **kw):
        out = outcome(self, path, *args, **kw)
        if isinstance(out.reported, LocatedStream):
            streamed_paths.append((os.getpid(), os.path.basename(path)))
        return out

    monkeypatch.setattr(project.Project, "outcome", spy)
    monkeypatch.setattr(irilint.large_files, "STREAM_ABOVE", 100)
    assert run(argv) == whole
    assert streamed_paths == [(os.getpid(), "big.md")]


def _cached_runs(tree, monkeypatch, fmt, cache_root):
    """Three runs with the result cache: cold, warm, and warm again; what
    each printed, and how many files the engine checked in each."""
    import irilint.project

    checked = []
    real = irilint.project.Project.check_result

    def counting(self, path, *a, **k):
        checked[-1] += 1
        return real(self, path, *a, **k)

    monkeypatch.setattr(irilint.project.Project, "check_result", counting)
    import irilint.stream

    real_stream = irilint.stream.check_stream

    def counting_stream(*a, **k):
        checked[-1] += 1
        return real_stream(*a, **k)

    monkeypatch.setattr(irilint.stream, "check_stream", counting_stream)
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(cache_root))
    monkeypatch.delenv("IRILINT_NO_CACHE", raising=False)
    outs = []
    for _ in range(3):
        checked.append(0)
        outs.append(run(["check", "--jobs", "1", "--format", fmt, str(tree)]))
    return outs, checked


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_streamed_file_with_few_findings_is_served_by_the_cache_next_time(tree, monkeypatch, tmp_path, fmt):
    whole = run(["check", "--no-cache", "--jobs", "1", "--format", fmt, str(tree)])
    monkeypatch.setattr(irilint.large_files, "STREAM_ABOVE", 100)
    outs, checked = _cached_runs(tree, monkeypatch, fmt, tmp_path / "cache")
    assert outs == [whole] * 3
    assert checked == [3, 0, 0]  # the big file streamed, then read from the cache


def test_a_streamed_file_with_more_findings_than_kept_is_checked_again(tree, monkeypatch, tmp_path):
    whole = run(["check", "--no-cache", "--jobs", "1", "--format", "json", str(tree)])
    monkeypatch.setattr(irilint.large_files, "STREAM_ABOVE", 100)
    monkeypatch.setattr(irilint.large_files, "CACHED_FINDINGS", 5)
    outs, checked = _cached_runs(tree, monkeypatch, "json", tmp_path / "cache")
    assert outs == [whole] * 3
    assert checked == [3, 1, 1]  # only the big file, whose findings were not kept
