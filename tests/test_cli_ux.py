"""What people expect from a linter's command line (ruff is the yardstick):
a line when nothing is found, the severity in the text output,
``--statistics`` with only the counts, ``--exit-zero``, ``--output-file``,
``--exclude``/``--extend-exclude``, ``--show-fixes``, and an unknown rule in
a suppression comment reported as unknown."""
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint.engine import Engine
from cli_run import run

BAD = "http://e.org/100%"  # bad-percent-encoding (IRI401), an error
FIXABLE = "http://EXAMPLE.org/a"  # uppercase-host (IRI602), safe fix


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bad.md").write_text("see %s\n" % BAD, encoding="utf-8")
    (tmp_path / "docs" / "clean.md").write_text("see http://example.org/\n", encoding="utf-8")
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "out.md").write_text("see %s\n" % BAD, encoding="utf-8")
    return tmp_path


# -- nothing found ------------------------------------------------------------------


def test_a_clean_run_says_so_with_the_number_of_files(tree):
    code, out, err = run(["check", "--no-cache", "docs/clean.md"])
    assert (code, out) == (0, "")
    assert err == "No problems found in 1 file.\n"
    (tree / "docs" / "bad.md").unlink()
    (tree / "docs" / "also-clean.txt").write_text("nothing here\n", encoding="utf-8")
    code, out, err = run(["check", "--no-cache", "docs"])
    assert (code, out, err) == (0, "", "No problems found in 2 files.\n")


def test_a_clean_run_is_silent_with_quiet_and_in_machine_formats(tree):
    assert run(["check", "--no-cache", "-q", "docs/clean.md"]) == (0, "", "")
    code, out, err = run(["check", "--no-cache", "--format", "json", "docs/clean.md"])
    assert (code, json.loads(out), err) == (0, [], "")


def test_a_run_with_findings_still_counts_them(tree):
    code, out, err = run(["check", "--no-cache", "docs"])
    assert code == 1
    assert err == "Found 1 problem.\n"


# -- severity -----------------------------------------------------------------------


def test_text_output_shows_the_severity(tree):
    _, out, _ = run(["check", "--no-cache", "docs/bad.md"])
    assert out == "docs/bad.md:1:21: IRI401 bad-percent-encoding [error] %s\n" % (
        Engine().check_text("see %s\n" % BAD, path="bad.md").findings[0].message)
    _, out, _ = run(["check", "--no-cache", "--fail-level", "error", "-", "--stdin-filename", "x.md"],
                    stdin="see %s\n" % FIXABLE)
    assert " IRI602 uppercase-host [info] " in out


# -- --statistics -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_statistics_prints_only_the_counts(tree, fmt):
    code, out, err = run(["check", "--no-cache", "--statistics", "--format", fmt, "docs", "gen"])
    assert code == 1
    assert out == "    2  IRI401  [*] bad-percent-encoding         error\n    2  total\n"
    assert err == ""


# -- --exit-zero --------------------------------------------------------------------


def test_exit_zero_even_with_findings_but_not_on_errors(tree):
    code, out, _ = run(["check", "--no-cache", "--exit-zero", "docs"])
    assert code == 0 and "IRI401" in out
    (tree / "docs" / "latin1.txt").write_bytes(b"caf\xe9 http://e.org/\n")
    code, _, err = run(["check", "--no-cache", "--exit-zero", "docs"])
    assert code == 2 and "cannot decode" in err


# -- --output-file ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_output_file_holds_what_stdout_would(tree, fmt):
    _, expected, expected_err = run(["check", "--no-cache", "--format", fmt, "docs"])
    target = tree / "report.out"
    target.write_text("old content", encoding="utf-8")
    code, out, err = run(["check", "--no-cache", "--format", fmt, "--output-file", str(target), "docs"])
    assert code == 1
    assert out == ""
    assert err == expected_err
    assert target.read_text(encoding="utf-8") == expected
    assert sorted(os.listdir(tree)) == ["docs", "gen", "report.out"]  # no temporary file left


def test_output_file_in_a_missing_folder_is_a_clear_error(tree):
    where = tree / "no-such-folder" / "out.txt"
    code, out, err = run(["check", "--no-cache", "--output-file", str(where), "docs"])
    assert code == 2 and out == ""
    assert "irilint: error: cannot write %s:" % where in err


def test_output_file_is_replaced_whole_or_not_at_all(tree, monkeypatch):
    target = tree / "out.txt"
    target.write_text("previous run\n", encoding="utf-8")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    code, _, err = run(["check", "--no-cache", "--output-file", str(target), "docs"])
    assert code == 2 and "No space left on device" in err
    assert target.read_text(encoding="utf-8") == "previous run\n"
    assert sorted(os.listdir(tree)) == ["docs", "gen", "out.txt"]


# -- --exclude / --extend-exclude ---------------------------------------------------


def test_exclude_and_extend_exclude_on_the_command_line(tree):
    _, out, _ = run(["check", "--no-cache", "."])
    assert "gen/out.md" in out and "docs/bad.md" in out
    _, out, _ = run(["check", "--no-cache", "--extend-exclude", "gen", "."])
    assert "gen/out.md" not in out and "docs/bad.md" in out
    _, out, _ = run(["check", "--no-cache", "--exclude", "docs/*.md,other", "."])
    assert "gen/out.md" in out and "docs/bad.md" not in out
    # --exclude replaces the defaults, as the config key does; --extend-exclude adds to them
    (tree / "build").mkdir()
    (tree / "build" / "x.md").write_text("see %s\n" % BAD, encoding="utf-8")
    _, out, _ = run(["check", "--no-cache", "--extend-exclude", "gen", "."])
    assert "build" not in out
    _, out, _ = run(["check", "--no-cache", "--exclude", "gen", "."])
    assert "build/x.md" in out and "gen/" not in out


def test_command_line_excludes_extend_the_config_file(tree):
    (tree / "irilint.toml").write_text('extend-exclude = ["gen"]\n', encoding="utf-8")
    (tree / "more").mkdir()
    (tree / "more" / "m.md").write_text("see %s\n" % BAD, encoding="utf-8")
    _, out, _ = run(["check", "--no-cache", "."])
    assert "gen/" not in out and "more/m.md" in out
    _, out, _ = run(["check", "--no-cache", "--extend-exclude", "more", "."])
    assert "gen/" not in out and "more/" not in out and "docs/bad.md" in out


def test_a_named_file_is_checked_even_when_excluded(tree):
    _, out, _ = run(["check", "--no-cache", "--extend-exclude", "gen", "gen/out.md"])
    assert "gen/out.md" in out


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["docs", "gen", "docs/*.md", "*.md", "**/out.md", "bad.md", "gen/**", "nothing"]))
def test_command_line_exclude_matches_the_config_key(pattern):
    # the same glob semantics: the command line and the config file leave out the same files
    import tempfile

    def check_in_a_new_tree(argv, config_text=None):
        with tempfile.TemporaryDirectory() as d:
            cwd = os.getcwd()
            os.chdir(d)
            try:
                os.makedirs("docs")
                os.makedirs("gen")
                for p in ("docs/bad.md", "gen/out.md"):
                    with open(p, "w", encoding="utf-8") as fh:
                        fh.write("see %s\n" % BAD)
                if config_text is not None:
                    with open("irilint.toml", "w", encoding="utf-8") as fh:
                        fh.write(config_text)
                return run(argv)
            finally:
                os.chdir(cwd)

    # (both trees hold a config file: it is checked too)
    by_flag = check_in_a_new_tree(["check", "--no-cache", "--extend-exclude", pattern, "."], "# none\n")
    by_config = check_in_a_new_tree(["check", "--no-cache", "."],
                                    "extend-exclude = [%s]\n" % json.dumps(pattern))
    assert by_flag == by_config


# -- --show-fixes -------------------------------------------------------------------


def test_show_fixes_lists_each_findings_fixes(tree):
    (tree / "docs" / "host.md").write_text("see %s\n" % FIXABLE, encoding="utf-8")
    code, out, _ = run(["check", "--no-cache", "--show-fixes", "docs/host.md"])
    lines = out.splitlines()
    assert lines[0].startswith("docs/host.md:1:12: IRI602 uppercase-host [info] ")
    assert lines[1] == "    fix (safe): Lowercase the host to 'example.org'"
    _, plain, _ = run(["check", "--no-cache", "docs/host.md"])
    assert plain.splitlines() == lines[:1]


def test_show_fixes_with_fix_says_what_was_fixed(tree):
    (tree / "docs" / "host.md").write_text("see %s and %s\n" % (FIXABLE, FIXABLE), encoding="utf-8")
    code, out, err = run(["check", "--no-cache", "--fix", "--show-fixes", "docs"])
    assert (tree / "docs" / "host.md").read_text(encoding="utf-8") == (
        "see http://example.org/a and http://example.org/a\n")
    assert out == ("Fixed 3 problems:\n- docs/bad.md:\n    1 × IRI401 (bad-percent-encoding)\n"
                   "- docs/host.md:\n    2 × IRI602 (uppercase-host)\n")
    assert err == "Fixed 3 problems. No problems left in 3 files.\n"


# -- unknown rule in a suppression --------------------------------------------------


def test_unknown_rule_in_a_suppression_is_reported_as_unknown():
    text = "see %s <!-- irilint: ignore[bad-percent-encodin] -->\n" % BAD
    found = Engine().check_text(text, path="doc.md").findings
    names = [f.rule.name for f in found]
    assert "unused-suppression" not in names
    (unknown,) = [f for f in found if f.rule.name == "unknown-suppression"]
    assert unknown.rule.code == "IRI902"
    assert text[unknown.start:unknown.end] == "bad-percent-encodin"
    assert "'bad-percent-encodin' is no rule" in unknown.message
    assert "bad-percent-encoding" in names  # the misspelt suppression hides nothing


def test_known_and_unknown_rules_in_one_suppression():
    text = "see %s <!-- irilint: ignore[IRI401, no-such-rule] -->\n" % BAD
    found = Engine().check_text(text, path="doc.md").findings
    assert [f.rule.name for f in found] == ["unknown-suppression"]
    assert text[found[0].start:found[0].end] == "no-such-rule"
    # a used known rule and an unused known one: only the unused one is reported
    text = "see %s <!-- irilint: ignore[IRI401, nope, bidi] -->\n" % BAD
    found = Engine().check_text(text, path="doc.md").findings
    assert sorted(f.rule.name for f in found) == ["unknown-suppression"]


def test_unknown_suppression_can_be_suppressed_and_deselected():
    text = "see http://e.org/ <!-- irilint: ignore[nope] -->\n"
    found = Engine().check_text(text, path="doc.md").findings
    assert [f.rule.name for f in found] == ["unknown-suppression"]
    code, out, _ = run(["check", "--no-cache", "--ignore", "unknown-suppression", "-",
                        "--stdin-filename", "doc.md"], stdin=text)
    assert (code, out) == (0, "")


def test_unknown_suppression_in_the_cli_output(tree):
    (tree / "docs" / "s.md").write_text("x <!-- irilint: ignore[IRI999] -->\n", encoding="utf-8")
    _, out, _ = run(["check", "--no-cache", "docs/s.md"])
    assert out.startswith("docs/s.md:1:24: IRI902 unknown-suppression [warning] ")


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=20))
def test_a_selector_is_either_known_or_reported_unknown(word):
    from irilint.rules.registry import is_selector

    text = "x <!-- irilint: ignore[%s] -->\n" % word
    found = Engine().check_text(text, path="doc.md", settings=None).findings
    names = [f.rule.name for f in found]
    if is_selector(word):
        assert "unknown-suppression" not in names
    else:
        assert names == ["unknown-suppression"]
        assert text[found[0].start:found[0].end] == word
