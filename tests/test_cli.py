"""The command line: convert, check, rules, explain, config; exit codes."""
import json
import os
import subprocess
import sys

import pytest

from cli_run import run

SPOOF = "http://example.com/abc\u202egpj.exe"


# -- convert -----------------------------------------------------------------------


def test_convert_arguments_in_order():
    code, out, _ = run(["convert", "--to", "uri", "http://résumé.example.org/ü", "http://a/b c"])
    assert code == 0
    assert out.splitlines() == ["http://xn--rsum-bpad.example.org/%C3%BC", "http://a/b%20c"]


def test_convert_stdin_lines_both_ways():
    code, out, _ = run(["convert", "--to", "iri"], stdin="http://www.example.org/D%C3%BCrst\nhttp://xn--99zt52a.example.org/%e2%80%ae\n")
    assert code == 0
    assert out.splitlines() == ["http://www.example.org/Dürst", "http://納豆.example.org/%E2%80%AE"]
    code, out, _ = run(["convert", "--to", "uri", "-"], stdin="http://例え.jp/\r\n")
    assert out == "http://xn--r8jz45g.jp/\n"


@pytest.mark.parametrize("argv", [["convert"], ["convert", "--to", "url", "x"], ["convert", "--to", "uri", "-", "x"], ["nonsense"]])
def test_convert_usage_errors_exit_2(argv):
    code, _, err = run(argv)
    assert code == 2
    assert "error" in err


def test_console_script_and_module_do_not_import_the_server():
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "irilint", "convert", "--to", "uri", "x"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == "x\n"
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert "irilint.convert" in imported
    assert not [m for m in imported if m.split(".")[0] in ("pygls", "lsprotocol")]


def test_check_does_not_import_the_server(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("see %s\n" % SPOOF, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "irilint", "check", str(f)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert "irilint.engine" in imported
    assert not [m for m in imported if m.split(".")[0] in ("pygls", "lsprotocol")]


def test_a_run_that_reads_every_file_from_the_cache_does_not_import_the_engine(tmp_path):
    (tmp_path / "a.txt").write_text("see http://example.org/ok\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("[x](http://example.com/%E2%80%AE)\n", encoding="utf-8")
    # not cached (it cannot be decoded): read again by every run
    (tmp_path / "c.txt").write_bytes(b"caf\xe9 http://example.org/\n")
    env = dict(os.environ, IRILINT_CACHE_ROOT=str(tmp_path / "cache"))
    env.pop("IRILINT_NO_CACHE", None)

    def run_check():
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "irilint", "check", "--jobs", "1",
                               "a.txt", "b.md", "c.txt"], capture_output=True, text=True, env=env, cwd=str(tmp_path),
                              timeout=60)
        imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "import time" in line]
        assert "c.txt: cannot decode as UTF-8" in proc.stderr
        return proc.returncode, proc.stdout, imported

    cold = run_check()
    warm = run_check()
    assert cold[0] == warm[0] == 2
    assert warm[1] == cold[1] and "IRI" in warm[1]
    assert "irilint.engine" in cold[2]
    assert "irilint.engine" not in warm[2]


# -- check -------------------------------------------------------------------------


def test_check_stdin_text_format_and_exit_1():
    code, out, _ = run(["check", "-"], stdin="x\nsee %s here\n" % SPOOF)
    assert code == 1
    lines = out.splitlines()
    assert any(l.startswith("-:2:27: IRI101 bidi-control ") and "U+202E RIGHT-TO-LEFT OVERRIDE" in l for l in lines), lines


def test_check_columns_are_code_points():
    # an astral emoji before the IRI counts as one column
    code, out, _ = run(["check", "-", "--select", "bad-percent-encoding"], stdin="😀 http://e.org/100%\n")
    assert out.splitlines() == [
        "-:1:19: IRI401 bad-percent-encoding [error] '%' is not followed by two hexadecimal digits in the path"]


def test_check_clean_exit_0():
    code, out, _ = run(["check", "-"], stdin="nothing to see at http://example.org/ok\n")
    assert code == 0
    assert out == ""


def test_check_json_format_fields():
    code, out, _ = run(["check", "-", "--format", "json", "--stdin-filename", "doc.md"],
                       stdin="[x](http://e.org/100%)\n")
    assert code == 1
    data = json.loads(out)
    assert data and data[0]["path"] == "doc.md"
    for key in ("path", "line", "column", "end_line", "end_column", "code", "name", "severity", "message", "fixes"):
        assert key in data[0]
    item = next(d for d in data if d["name"] == "bad-percent-encoding")
    assert (item["line"], item["column"], item["end_line"], item["end_column"]) == (1, 21, 1, 22)
    assert item["severity"] == "error"
    assert item["fixes"][0]["safe"] is True
    edit = item["fixes"][0]["edits"][0]
    assert (edit["start"], edit["end"], edit["new_text"]) == ({"line": 1, "column": 21}, {"line": 1, "column": 22}, "%25")


def test_check_fail_level():
    stdin = "http://e.org/%e2%82%ac\n"  # lowercase hex: info only
    assert run(["check", "-"], stdin=stdin)[0] == 0
    assert run(["check", "-", "--fail-level", "info"], stdin=stdin)[0] == 1


def test_select_and_ignore_by_name_code_and_family():
    stdin = "http://e.org/100%%/%s\n" % "\u202e"
    _, out, _ = run(["check", "-", "--select", "IRI401"], stdin=stdin)
    assert {l.split()[1] for l in out.splitlines()} == {"IRI401"}
    _, out, _ = run(["check", "-", "--select", "bidi"], stdin=stdin)
    assert {l.split()[2] for l in out.splitlines()} == {"bidi-control"}
    _, out, _ = run(["check", "-", "--ignore", "bidi,percent-encoding"], stdin=stdin)
    assert not [l for l in out.splitlines() if " bidi-" in l or " IRI4" in l]


def test_unknown_selector_is_a_usage_error():
    code, _, err = run(["check", "-", "--select", "no-such-rule"], stdin="x")
    assert code == 2
    assert "no-such-rule" in err


def test_check_files_and_directories(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("[x](%s)\n" % SPOOF, encoding="utf-8")
    (tmp_path / "docs" / "b.txt").write_text("fine http://example.org/\n", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.md").write_text("[x](%s)\n" % SPOOF, encoding="utf-8")
    (tmp_path / "bin.dat").write_bytes(b"\x00\x01http://e.org/100%\x00")
    code, out, err = run(["check", str(tmp_path)])
    assert code == 1
    paths = {l.split(":")[0] for l in out.splitlines()}
    assert paths == {str(tmp_path / "docs" / "a.md")}
    assert "bin.dat" not in err  # binary files are skipped quietly


def test_undecodable_file_is_reported_and_the_run_goes_on(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"http://e.org/\xff\xfe caf\xe9\n")
    good = tmp_path / "good.txt"
    good.write_text("see %s\n" % SPOOF, encoding="utf-8")
    code, out, err = run(["check", str(bad), str(good)])
    assert code == 2
    assert str(bad) in err and "decode" in err
    assert "IRI101" in out  # the other file was still checked


def test_missing_path_exit_2(tmp_path):
    code, _, err = run(["check", str(tmp_path / "nope.md")])
    assert code == 2
    assert "nope.md" in err


def test_stdin_filename_chooses_scanner():
    html = '<a href="http://e.org/abc&#x202E;gpj.exe">x</a>\n'
    _, out, _ = run(["check", "-", "--stdin-filename", "page.html", "--select", "bidi-control"], stdin=html)
    # the finding points at the character reference in the source
    assert out.splitlines() == [
        "page.html:1:26: IRI101 bidi-control " + out.splitlines()[0].split(" bidi-control ", 1)[1]]


# -- rules / explain ---------------------------------------------------------------


def test_rules_json_lists_every_rule():
    from irilint.rules.registry import all_rules

    code, out, _ = run(["rules", "--format", "json"])
    assert code == 0
    data = json.loads(out)
    assert [d["name"] for d in data] == [r.name for r in all_rules()]
    for d in data:
        assert set(d) >= {"name", "code", "family", "severity", "enabled", "fix", "summary"}


def test_explain_by_name_and_code():
    code, out, _ = run(["explain", "IRI401"])
    assert code == 0 and "# bad-percent-encoding (IRI401)" in out and "## Fix safety" in out
    code2, out2, _ = run(["explain", "bad-percent-encoding"])
    assert out2 == out
    code3, _, err = run(["explain", "nope"])
    assert code3 == 2 and "nope" in err


# -- config ------------------------------------------------------------------------


def test_config_command_shows_source_and_settings(tmp_path):
    (tmp_path / "irilint.toml").write_text('ignore = ["IRI402"]\nfail-level = "error"\n', encoding="utf-8")
    code, out, _ = run(["config", str(tmp_path)])
    assert code == 0
    assert str(tmp_path / "irilint.toml") in out
    assert 'ignore = ["IRI402"]' in out
    assert 'fail-level = "error"' in out


@pytest.mark.parametrize(
    "content, needle",
    [
        ('[tool.irilint]\nselct = ["IRI1"]\n', "unknown key 'selct'"),
        ('[tool.irilint]\nselect = "IRI1"\n', "key 'select'"),
        ('[tool.irilint]\nfail-level = "fatal"\n', "key 'fail-level'"),
        ('[tool.irilint]\nselect = ["not-a-rule"]\n', "not-a-rule"),
        ('[tool.irilint\n', "invalid TOML"),
    ],
)
def test_broken_config_exit_2_naming_file_and_key(tmp_path, content, needle):
    (tmp_path / "pyproject.toml").write_text(content, encoding="utf-8")
    f = tmp_path / "a.txt"
    f.write_text("http://e.org/100%\n", encoding="utf-8")
    before = f.read_bytes()
    code, out, err = run(["check", "--fix", str(f)])
    assert code == 2
    assert str(tmp_path / "pyproject.toml") in err
    assert needle in err
    assert f.read_bytes() == before  # nothing written


def test_config_file_settings_apply_and_flags_override(tmp_path):
    (tmp_path / "irilint.toml").write_text('ignore = ["bad-percent-encoding"]\n', encoding="utf-8")
    f = tmp_path / "a.txt"
    f.write_text("http://e.org/100%\n", encoding="utf-8")
    assert run(["check", str(f)])[0] == 0
    code, out, _ = run(["check", str(f), "--select", "IRI401"])
    assert code == 1 and "IRI401" in out


def test_convert_to_iri_keeps_a_spoofed_a_label_and_says_why(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configuration: the default rules judge
    code, out, err = run(["convert", "--to", "iri", "https://xn--80ak6aa92e.com/login",
                          "http://xn--rsum-bpad.example.org/", "http://xn--mgbh0fb.xn--kgbechtv/",
                          "http://example.org/%E2%80%AE", "http://example.org/pay%D1%80al"])
    assert code == 0
    assert out.splitlines() == ["https://xn--80ak6aa92e.com/login", "http://r\u00e9sum\u00e9.example.org/",
                                "http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/",
                                "http://example.org/%E2%80%AE", "http://example.org/pay%D1%80al"]
    assert err.splitlines() == [
        "irilint: https://xn--80ak6aa92e.com/login: kept xn--80ak6aa92e: its Unicode form "
        "'\u0430\u0440\u0440\u04cf\u0435' is flagged by whole-script-confusable (IRI204)",
        "irilint: http://example.org/pay%D1%80al: kept %D1%80: its Unicode form '\u0440' is flagged "
        "by mixed-script (IRI203)"]


def test_convert_to_iri_follows_the_configuration(tmp_path, monkeypatch):
    (tmp_path / "irilint.toml").write_text('ignore = ["whole-script-confusable", "punycode-label"]\n',
                                           encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["convert", "--to", "iri", "https://xn--80ak6aa92e.com/login"])
    assert (code, out, err) == (0, "https://\u0430\u0440\u0440\u04cf\u0435.com/login\n", "")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "irilint.toml").write_text('select = [\n', encoding="utf-8")
    monkeypatch.chdir(broken)
    code, out, err = run(["convert", "--to", "iri", "https://xn--80ak6aa92e.com/login"])
    assert code == 2 and out == "" and str(broken / "irilint.toml") in err


def test_convert_to_uri_keeps_a_stray_percent_and_an_encoded_host():
    code, out, _ = run(["convert", "--to", "uri", "http://e.org/100%", "http://d%C3%BCrst.example.org/%zz\u00e9"])
    assert (code, out) == (0, "http://e.org/100%\nhttp://d%C3%BCrst.example.org/%zz%C3%A9\n")
