"""CI output formats: SARIF 2.1.0, GitHub annotations, statistics, progress."""
import io
import json

import jsonschema
import pytest

from irilint.runner import Progress
from cli_run import run

DOC = "x\n😀 see http://e.org/100% and http://e.org/x%E2%80%AEy\n"

# The required structure of SARIF 2.1.0 (OASIS sarif-schema-2.1.0.json),
# recorded here: the properties each object must have, the enums, and the
# integer minimums of regions.  Validated with jsonschema.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "format": "uri"},
        "runs": {"type": "array", "items": {"$ref": "#/definitions/run"}},
    },
    "definitions": {
        "message": {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
                    "properties": {"text": {"type": "string"}}},
        "multiformatMessageString": {"type": "object", "required": ["text"],
                                     "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}}},
        "run": {
            "type": "object", "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"],
                         "properties": {"driver": {"$ref": "#/definitions/toolComponent"}}},
                "results": {"type": "array", "items": {"$ref": "#/definitions/result"}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "invocations": {"type": "array", "items": {"$ref": "#/definitions/invocation"}},
            },
        },
        "invocation": {
            "type": "object", "required": ["executionSuccessful"],
            "properties": {
                "executionSuccessful": {"type": "boolean"},
                "toolExecutionNotifications": {"type": "array", "items": {"$ref": "#/definitions/notification"}},
            },
        },
        "notification": {
            "type": "object", "required": ["message"],
            "properties": {
                "message": {"$ref": "#/definitions/message"},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "locations": {"type": "array", "items": {"type": "object", "properties": {
                    "physicalLocation": {"$ref": "#/definitions/physicalLocation"}}}},
                "descriptor": {"type": "object", "properties": {"id": {"type": "string"}}},
            },
        },
        "toolComponent": {
            "type": "object", "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "informationUri": {"type": "string", "format": "uri"},
                "rules": {"type": "array", "items": {"$ref": "#/definitions/reportingDescriptor"}},
            },
        },
        "reportingDescriptor": {
            "type": "object", "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "shortDescription": {"$ref": "#/definitions/multiformatMessageString"},
                "fullDescription": {"$ref": "#/definitions/multiformatMessageString"},
                "help": {"$ref": "#/definitions/multiformatMessageString"},
                "helpUri": {"type": "string", "format": "uri"},
                "defaultConfiguration": {"type": "object", "properties": {
                    "level": {"enum": ["none", "note", "warning", "error"]},
                    "enabled": {"type": "boolean"}}},
            },
        },
        "result": {
            "type": "object", "required": ["message"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": -1},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {"$ref": "#/definitions/message"},
                "locations": {"type": "array", "items": {"type": "object", "properties": {
                    "physicalLocation": {"$ref": "#/definitions/physicalLocation"}}}},
                "fixes": {"type": "array", "items": {"$ref": "#/definitions/fix"}},
            },
        },
        "physicalLocation": {
            "type": "object", "anyOf": [{"required": ["address"]}, {"required": ["artifactLocation"]}],
            "properties": {
                "artifactLocation": {"type": "object", "properties": {"uri": {"type": "string", "format": "uri-reference"}}},
                "region": {"$ref": "#/definitions/region"},
            },
        },
        "region": {
            "type": "object",
            "properties": {k: {"type": "integer", "minimum": 1} for k in ("startLine", "startColumn", "endLine", "endColumn")},
        },
        "fix": {
            "type": "object", "required": ["artifactChanges"],
            "properties": {"artifactChanges": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["artifactLocation", "replacements"],
                "properties": {"replacements": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["deletedRegion"],
                    "properties": {"deletedRegion": {"$ref": "#/definitions/region"}}}}}}}},
        },
    },
}


@pytest.fixture
def doc(tmp_path):
    f = tmp_path / "doc.md"
    f.write_text(DOC, encoding="utf-8")
    return f


def test_sarif_validates_and_has_rules_and_fixes(doc):
    code, out, _ = run(["check", "--format", "sarif", str(doc)])
    assert code == 1
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SUBSET)
    run0 = log["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    from irilint.rules.registry import all_rules

    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    for r in rules:
        assert r["name"] and r["shortDescription"]["text"] and r["fullDescription"]["text"]
        assert r["helpUri"].endswith("#%s-%s" % (r["id"].lower(), r["name"]))
        assert r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    results = {r["ruleId"]: r for r in run0["results"]}
    pct = results["IRI401"]
    region = pct["locations"][0]["physicalLocation"]["region"]
    # line 2, the "%" after "😀 see http://e.org/100" (code points)
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (2, 23, 24)
    assert rules[pct["ruleIndex"]]["id"] == "IRI401"
    rep = pct["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert rep["insertedContent"]["text"] == "%25"
    assert rep["deletedRegion"]["startColumn"] == 23
    assert results["IRI102"]["level"] == "error"


def test_github_annotations_line_and_column(doc):
    code, out, _ = run(["check", "--format", "github", str(doc)])
    lines = out.splitlines()
    pct = [l for l in lines if "IRI401" in l][0]
    assert pct.startswith("::error file=%s,line=2,col=23,endLine=2,endColumn=24,title=IRI401 bad-percent-encoding::" % doc)
    bidi = [l for l in lines if "IRI102" in l][0]
    assert ",line=2,col=43,endLine=2,endColumn=52," in bidi
    # "%" in messages is escaped as GitHub requires
    assert "::'%25' is not followed" in pct


def test_github_escapes_newlines_and_commas(tmp_path):
    weird = tmp_path / "a,b:c.txt"
    weird.write_text("http://e.org/100%\n", encoding="utf-8")
    _, out, _ = run(["check", "--format", "github", str(weird)])
    assert "file=%s" % str(weird).replace(",", "%2C").replace(":", "%3A") in out
    assert out.count("\n") == 1


def test_statistics(doc):
    code, out, _ = run(["check", "--statistics", str(doc)])
    stats = [l for l in out.splitlines() if "total" in l or l.strip()[:1].isdigit() and "IRI" in l]
    assert any(l.split()[1] == "IRI401" and l.split()[0] == "1" for l in stats)
    # only the counts (ruff --statistics): the total is that of the findings
    # a plain check prints
    assert stats == out.splitlines()
    _, plain, _ = run(["check", str(doc)])
    assert stats[-1].split() == [str(len([l for l in plain.splitlines() if l.startswith(str(doc))])), "total"]


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("TERM", raising=False)
    plain = io.StringIO()
    p = Progress(stream=plain)
    p.step("a.md")
    p.done()
    assert plain.getvalue() == ""
    tty = _Tty()
    p = Progress(stream=tty)
    p.step("docs/a.md")
    p.done()
    assert "[1 files] docs/a.md" in tty.getvalue()
    assert tty.getvalue().endswith("\r\x1b[2K")


# -- what could not be checked, in JSON and SARIF (so CI tools see it) -------------------


@pytest.fixture
def mixed_tree(tmp_path):
    """A checked file with a finding, an undecodable file (an error: exit 2)
    and a binary file named explicitly (a skip: the exit status stays)."""
    good = tmp_path / "good.md"
    good.write_text("see http://e.org/x%E2%80%AEy\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"http://e.org/\xff\xfe caf\xe9\n")
    binary = tmp_path / "blob.dat"
    binary.write_bytes(b"\x00\x01http://e.org/\x00")
    return good, bad, binary


def test_json_lists_files_that_were_not_checked(mixed_tree):
    good, bad, binary = mixed_tree
    code, out, err = run(["check", "--format", "json", str(good), str(bad), str(binary)])
    assert code == 2
    items = json.loads(out)
    findings = [i for i in items if i["kind"] == "finding"]
    assert findings and {i["path"] for i in findings} == {str(good)}
    others = {i["path"]: i for i in items if i["kind"] != "finding"}
    assert set(others) == {str(bad), str(binary)}
    assert others[str(bad)]["kind"] == "error" and "decode" in others[str(bad)]["message"]
    assert others[str(binary)]["kind"] == "skipped" and "binary" in others[str(binary)]["message"]
    # the same lines still reach stderr for people
    assert str(bad) in err and str(binary) in err


def test_json_without_problems_is_only_findings(doc):
    _, out, _ = run(["check", "--format", "json", str(doc)])
    items = json.loads(out)
    assert items and all(i["kind"] == "finding" and i["code"] for i in items)


def test_sarif_invocation_lists_files_that_were_not_checked(mixed_tree):
    good, bad, binary = mixed_tree
    code, out, _ = run(["check", "--format", "sarif", str(good), str(bad), str(binary)])
    assert code == 2
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SUBSET)
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notes = {n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: n
             for n in invocation["toolExecutionNotifications"]}
    assert set(notes) == {str(bad), str(binary)}
    assert notes[str(bad)]["level"] == "error" and "decode" in notes[str(bad)]["message"]["text"]
    assert notes[str(binary)]["level"] == "note"
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]] == [str(good)]


def test_sarif_invocation_of_a_clean_run(tmp_path):
    clean = tmp_path / "clean.md"
    clean.write_text("see http://example.org/\n", encoding="utf-8")
    code, out, _ = run(["check", "--format", "sarif", str(clean)])
    assert code == 0
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert invocation == {"executionSuccessful": True, "toolExecutionNotifications": []}


def test_sarif_and_json_list_a_broken_config(tmp_path):
    (tmp_path / "irilint.toml").write_text("select = [\n", encoding="utf-8")
    doc = tmp_path / "a.md"
    doc.write_text("http://e.org/\n", encoding="utf-8")
    code, out, _ = run(["check", "--format", "json", str(tmp_path)])
    assert code == 2
    items = json.loads(out)
    # every file the broken config governs (itself included) is listed
    assert sorted((i["kind"], i["path"]) for i in items) == [
        ("error", str(doc)), ("error", str(tmp_path / "irilint.toml"))]
    assert all("irilint.toml" in i["message"] for i in items)
    code, out, _ = run(["check", "--format", "sarif", str(tmp_path)])
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["error", "error"]
    assert all("irilint.toml" in n["message"]["text"] for n in notes)


def test_json_lists_a_link_out_of_the_tree_as_skipped(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "private.md").write_text("http://e.org/x%E2%80%AEy\n", encoding="utf-8")
    tree = tmp_path / "docs"
    tree.mkdir()
    (tree / "a.md").write_text("http://e.org/x%E2%80%AEy\n", encoding="utf-8")
    (tree / "link").symlink_to(outside, target_is_directory=True)
    code, out, _ = run(["check", "--no-cache", "--format", "json", str(tree)])
    assert code == 1  # a skip does not change the exit status
    items = json.loads(out)
    assert {i["path"] for i in items if i["kind"] == "finding"} == {str(tree / "a.md")}
    skipped = [i for i in items if i["kind"] == "skipped"]
    assert [i["path"] for i in skipped] == [str(tree / "link")]
    assert "outside" in skipped[0]["message"]


# -- text output: severity, and paths named alike (issue 15) ---------------------

import os  # noqa: E402
import re  # noqa: E402

#: what an editor's errorformat "%f:%l:%c: %m" takes from a line
ERRORFORMAT = re.compile(r"^(?P<f>[^:]+):(?P<l>\d+):(?P<c>\d+): (?P<m>.*)$")


def test_text_line_has_the_severity_after_the_rule_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ar.md").write_text(
        "راجع http://e.org/100% و https://ar.wikipedia.org/wiki/%D9%85%D8%B5%D8%B1 للمزيد.\n", encoding="utf-8")
    code, out, _ = run(["check", "--no-cache", "--extend-select", "percent-encoded-text", "ar.md"])
    assert code == 1
    parsed = [ERRORFORMAT.match(line) for line in out.splitlines() if line.startswith("ar.md:")]
    assert len(parsed) == 2 and all(parsed)
    assert [(m["f"], m["l"]) for m in parsed] == [("ar.md", "1"), ("ar.md", "1")]
    assert parsed[0]["m"].startswith("IRI401 bad-percent-encoding [error] '%' is not followed")
    assert parsed[1]["m"].startswith("IRI406 percent-encoded-text [hint] %D9%85%D8%B5%D8%B1 is the")


def test_text_severity_follows_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "he.md").write_text("ראו http://e.org/100% לפרטים.\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.irilint]\nseverity = {IRI401 = "warning"}\n')
    _, out, _ = run(["check", "--no-cache", "he.md"])
    assert "he.md:1:21: IRI401 bad-percent-encoding [warning] " in out


def test_errors_and_findings_name_paths_alike(tmp_path, monkeypatch):
    # a folder given by its absolute path: findings were named relative to
    # the working directory, errors by the path as read
    sub = tmp_path / "docs"
    sub.mkdir()
    (sub / "ja.md").write_text("詳しくは http://e.org/100% を参照。\n", encoding="utf-8")
    (sub / "zh.txt").write_bytes(b"\xff\xfe\x00http://e.org/\n")
    monkeypatch.chdir(tmp_path)
    for given in (str(sub), os.path.join("docs", "..", "docs"), os.path.join(".", "docs")):
        code, out, err = run(["check", "--no-cache", given])
        assert code == 2
        finding_paths = {ERRORFORMAT.match(l)["f"] for l in out.splitlines() if ERRORFORMAT.match(l)}
        error_paths = {l.split(": ")[2] for l in err.splitlines() if l.startswith("irilint: error: ")}
        assert finding_paths == {os.path.join("docs", "ja.md")}, given
        assert error_paths == {os.path.join("docs", "zh.txt")}, (given, err)


def test_a_missing_path_is_named_as_findings_would_name_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, _, err = run(["check", "--no-cache", str(tmp_path / "gone.md")])
    assert "irilint: error: gone.md: no such file or directory" in err.splitlines()


# -- confusable hosts across files: once per pair, with related locations --------

CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"  # раураl.com


def _collision_tree(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("لا تستخدم [هذا](http://%s/login).\n" % CYRILLIC_PAYPAL, encoding="utf-8")
    (docs / "b.md").write_text("אל תלחצו על http://%s/x\n" % CYRILLIC_PAYPAL, encoding="utf-8")
    (docs / "m.md").write_text("请访问 https://工厂.中国/ 与 https://エ厂.中国/\n", encoding="utf-8")
    (docs / "n.md").write_text("不要访问 https://エ厂.中国/a\n", encoding="utf-8")
    (docs / "z.md").write_text("\nپرداخت با [PayPal](https://paypal.com/)\n", encoding="utf-8")
    return docs


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_collision_across_files_is_reported_once_per_pair(tmp_path, monkeypatch, jobs):
    _collision_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check", "--no-cache", "--jobs", jobs, "--select", "confusable-collision",
                        "--format", "json", "docs"])
    assert code == 1
    items = [i for i in json.loads(out) if i["kind"] == "finding"]
    # раураl.com / paypal.com: on the first non-ASCII occurrence (a.md),
    # not again in b.md; エ厂 / 工厂 both in m.md: reported there, not in n.md
    assert [(i["path"], i["line"]) for i in items] == [(os.path.join("docs", "a.md"), 1),
                                                      (os.path.join("docs", "m.md"), 1)]
    a, m = items
    assert a["related"] == [{"path": os.path.join("docs", "z.md"), "line": 2,
                             "message": "the host 'paypal.com' it is confusable with"}]
    (rel,) = m["related"]
    assert rel["path"] == os.path.join("docs", "m.md") and (rel["line"], rel["column"]) == (1, 13)


def test_collision_related_locations_in_sarif_and_the_cache(tmp_path, monkeypatch):
    _collision_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["check", "--select", "confusable-collision", "--format", "sarif", "docs"]
    cold = json.loads(run(args)[1])
    warm = json.loads(run(args)[1])
    assert cold == warm  # the related locations survive the cache
    jsonschema.validate(cold, SARIF_SUBSET)
    results = cold["runs"][0]["results"]
    assert len(results) == 2
    locs = [r["relatedLocations"] for r in results]
    assert locs[0][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/z.md"
    assert locs[0][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert locs[1][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 13,
                                                        "endLine": 1, "endColumn": 18}
