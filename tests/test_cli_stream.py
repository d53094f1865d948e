"""``irilint check`` streams its output: each file's findings are written
as soon as the file is final, in file order, and the bytes (JSON, SARIF,
text, GitHub, statistics, --output-file) are those of assembling every
finding at the end, as the check command used to."""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint.cli import main
from irilint.project import Project
from cli_run import run

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"
DENSE = "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here"


def reference(argv_paths, fmt, jobs="1", extra=()):
    """The output as the check command assembled it before it streamed:
    every result first (check_files), then one structure, dumped whole."""
    import argparse

    from irilint import __version__
    from irilint.cli.check import add_parser
    from irilint.output import (NotChecked, dumps_json, format_github, format_text, not_checked_json,
                                sarif_log, to_json_obj)
    from irilint.runner import check_files

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    add_parser(sub)
    args = parser.parse_args(["check", "--no-cache", "--jobs", jobs, "--format", fmt, *extra, *argv_paths])
    outcomes = check_files(Project(args), argv_paths)
    pairs, unchecked = [], []
    for o in outcomes:
        if o.config_error:
            unchecked.append(("error", o.path, o.error or o.config_error))
            continue
        if o.error:
            unchecked.append(("error", o.path, o.error))
            if not o.reported:
                continue
        if o.skipped:
            unchecked.append(("skipped", o.path, "skipped " + o.skipped))
            continue
        pairs.extend((o, r) for r in o.reported)
    if fmt == "json":
        items = [to_json_obj(r, o.index) for o, r in pairs]
        items.extend(not_checked_json(NotChecked(p, k, m)) for k, p, m in unchecked)
        return dumps_json(items) + "\n"
    if fmt == "sarif":
        indexes = {o.path: o.index for o in outcomes if o.index is not None}
        log = sarif_log([r for _, r in pairs], indexes, __version__, [NotChecked(p, k, m) for k, p, m in unchecked])
        return json.dumps(log, ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        return "".join(format_github(r) + "\n" for _, r in pairs)
    return "".join(format_text(r) + "\n" for _, r in pairs)


def _tree(root):
    docs = os.path.join(root, "docs")
    os.makedirs(os.path.join(docs, "sub"))
    files = {
        "0.md": "[x](http://e.org/100%) and http://e.org/x%E2%80%AEy\n",
        "a.md": "[x](http://%s/login)\n" % CYRILLIC_PAYPAL,
        "b.md": "nothing to see\n",
        "c.md": (DENSE + "\n") * 20,
        "sub/d.html": '<a href="http://\u0435xample.com/\u00e9 x">x</a>\n',
        "z.md": "\n[pay](https://paypal.com/) http://example.com/%zz\n",
    }
    for name, text in files.items():
        with open(os.path.join(docs, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(os.path.join(docs, "bad.md"), "wb") as fh:
        fh.write(b"http://e.org/\xff\xfe\n")
    with open(os.path.join(docs, "image.png"), "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n\x00\x00")
    return docs


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fmt", ["json", "sarif", "text", "github"])
def test_streamed_output_is_byte_for_byte_the_assembled_one(tmp_path, monkeypatch, fmt, jobs):
    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    paths = ["docs", "docs/image.png"]  # the image named: skipped with a note
    code, out, err = run(["check", "--no-cache", "--jobs", jobs, "--format", fmt, *paths])
    assert code == 2  # bad.md cannot be decoded
    assert out == reference(paths, fmt, jobs)
    assert "paypal.com" in out  # the collision across files is there
    assert "docs/bad.md" in out or fmt in ("text", "github")


def test_statistics_and_show_fixes_are_unchanged(tmp_path, monkeypatch):
    from irilint.cli.check import _print_statistics
    from irilint.output import format_text
    from irilint.runner import check_files

    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    code, out, _ = run(["check", "--no-cache", "--statistics", "docs"])
    outcomes = check_files(Project(type("A", (), {"paths": ["docs"]})()), ["docs"])
    expected = io.StringIO()
    _print_statistics([r for o in outcomes for r in o.reported], expected)
    assert code == 2 and out == expected.getvalue() and "total" in out
    code, out, _ = run(["check", "--no-cache", "--show-fixes", "docs"])
    lines = []
    for o in outcomes:
        for r in o.reported:
            lines.append(format_text(r) + "\n")
            lines.extend("    fix (%s): %s\n" % ("safe" if fx.safe else "unsafe", fx.title) for fx in r.finding.fixes)
    assert out == "".join(lines) and "    fix (" in out


_line = st.one_of(
    st.sampled_from(["", "plain prose", "\u05e9\u05dc\u05d5\u05dd", DENSE, "irilint: ignore",
                     "http://e.org/a%zz <!-- irilint: ignore bad-percent-encoding -->"]),
    st.tuples(st.sampled_from(["example.com", "ex\u0430mple.com", "paypal.com", CYRILLIC_PAYPAL, "e.org"]),
              st.sampled_from(["", "x%2", "\u00e9 x", "a\u202eb", "%41"])).map(lambda t: "see http://%s/%s" % t),
)
_documents = st.lists(st.lists(_line, min_size=1, max_size=6).map("\n".join), min_size=1, max_size=4)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents, st.sampled_from(["json", "sarif", "text"]))
def test_streamed_output_equals_the_assembled_one_on_built_documents(texts, fmt):
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as root:
        os.chdir(root)
        try:
            for n, text in enumerate(texts):
                with open("d%d.md" % n, "w", encoding="utf-8") as fh:
                    fh.write(text)
            paths = ["d%d.md" % n for n in range(len(texts))]
            code, out, _ = run(["check", "--no-cache", "--jobs", "1", "--format", fmt, *paths])
            assert out == reference(paths, fmt)
        finally:
            os.chdir(here)


def test_a_files_findings_are_written_before_the_next_file_is_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for n in range(3):
        (tmp_path / ("%d.md" % n)).write_text("see http://e.org/%d%%zz\n" % n, encoding="utf-8")
    out = io.StringIO()
    written_before = []
    checked = Project.outcome

    def outcome(self, path, *args, **kwargs):
        written_before.append((path, out.getvalue()))
        return checked(self, path, *args, **kwargs)

    monkeypatch.setattr(Project, "outcome", outcome)
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["check", "--no-cache", "--jobs", "1", "--format", "json", "0.md", "1.md", "2.md"])
    monkeypatch.setattr(Project, "outcome", checked)
    assert code == 1
    assert [p for p, _ in written_before] == ["0.md", "1.md", "2.md"]
    assert written_before[0][1] == ""
    assert '"path": "0.md"' in written_before[1][1] and '"path": "1.md"' not in written_before[1][1]
    assert '"path": "1.md"' in written_before[2][1]
    json.loads(out.getvalue())


def test_a_file_a_later_collision_may_reach_waits_for_the_whole_run(tmp_path, monkeypatch):
    # a.md's host is not ASCII: z.md, checked later, collides with it, and
    # the finding goes on a.md; b.md, after it, waits too (file order).
    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    out = io.StringIO()
    seen = []
    checked = Project.outcome

    def outcome(self, path, *args, **kwargs):
        seen.append((path, out.getvalue()))
        return checked(self, path, *args, **kwargs)

    monkeypatch.setattr(Project, "outcome", outcome)
    monkeypatch.setattr(sys, "stdout", out)
    main(["check", "--no-cache", "--jobs", "1", "--format", "text", "docs/0.md", "docs/a.md", "docs/b.md",
          "docs/z.md"])
    monkeypatch.setattr(Project, "outcome", checked)
    before = dict(seen)
    assert "docs/0.md:" in before["docs/a.md"]
    assert "docs/a.md:" not in before["docs/z.md"]
    assert "docs/a.md:1:" in out.getvalue() and "paypal.com" in out.getvalue()


def test_the_output_file_is_replaced_only_at_the_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    target = tmp_path / "findings.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    seen = []
    checked = Project.outcome

    def outcome(self, path, *args, **kwargs):
        seen.append(target.read_text(encoding="utf-8"))
        return checked(self, path, *args, **kwargs)

    monkeypatch.setattr(Project, "outcome", outcome)
    code, out, _ = run(["check", "--no-cache", "--jobs", "1", "--format", "json", "-o", str(target), "docs"])
    monkeypatch.setattr(Project, "outcome", checked)
    assert out == "" and set(seen) == {"old"} and len(seen) > 3
    assert target.read_text(encoding="utf-8") == reference(["docs"], "json")
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".irilint-output-")] == []


def test_an_output_file_that_cannot_be_made_is_told_at_the_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    code, out, err = run(["check", "--no-cache", "-o", str(tmp_path / "missing" / "f.txt"), "docs"])
    assert code == 2 and out == ""
    last = err.strip().splitlines()
    assert last[-2].startswith("Found ") and last[-1].startswith("irilint: error: cannot write ")
    assert last[-1].endswith("missing/f.txt: No such file or directory")


class _Counting:
    """A standard output that keeps nothing (the output is not what is measured)."""

    def __init__(self):
        self.size = 0

    def write(self, text):
        self.size += len(text)

    def flush(self):
        pass


def _peak(argv):
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Counting(), io.StringIO()
    tracemalloc.start()
    try:
        main(argv)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        sys.stdout, sys.stderr = old


def test_json_and_sarif_hold_no_more_per_finding_than_text(tmp_path, monkeypatch):
    # Before streaming, JSON held every finding's record and SARIF its log
    # besides the findings: ~2.8x and ~5x the memory of text output.  What
    # is compared is the growth of the peak with the findings (300 more
    # lines of them), not the peak itself: SARIF's table of rules is a
    # fixed cost, whatever the findings.
    monkeypatch.chdir(tmp_path)
    line = " ".join([DENSE] * 4) + "\n"
    (tmp_path / "small.md").write_text(line * 300, encoding="utf-8")
    (tmp_path / "large.md").write_text(line * 600, encoding="utf-8")
    argv = ["check", "--no-cache", "--jobs", "1", "--format"]
    run(argv + ["sarif", "small.md"])  # imports and tables loaded before measuring

    def growth(fmt):
        return _peak(argv + [fmt, "large.md"]) - _peak(argv + [fmt, "small.md"])

    text = growth("text")
    assert text > 0
    for fmt in ("json", "sarif"):
        assert growth(fmt) < 1.3 * text, fmt


def test_a_reader_that_goes_away_ends_the_run_as_before(tmp_path, monkeypatch):
    # `irilint check | head -1`: the rest of the output is dropped, the run
    # still ends (the cache saved) and exits 0, as when it wrote at the end.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IRILINT_NO_CACHE")
    monkeypatch.setenv("IRILINT_CACHE_ROOT", str(tmp_path))
    _tree(str(tmp_path))

    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", "--jobs", "1", "docs"]) == 0
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    checked = []
    monkeypatch.setattr(Project, "outcome", lambda self, path, *a, **k: checked.append(path))
    assert main(["check", "--jobs", "1", "docs"]) == 2  # bad.md cannot be read
    assert checked == []  # every other file answered by the cache the first run saved


def test_sarif_without_a_temporary_folder_is_still_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _tree(str(tmp_path))
    expected = reference(["docs"], "sarif")

    def no_temporary_file(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_temporary_file)
    code, out, _ = run(["check", "--no-cache", "--jobs", "1", "--format", "sarif", "docs"])
    assert code == 2 and out == expected
