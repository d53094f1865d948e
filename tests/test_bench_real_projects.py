"""The pure parts of bench/real_projects.py: the manifest, the skip and
unpack helpers, and the findings writer (on a tiny project made here; no
network)."""
from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "bench" / "real_projects.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_real_projects", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rp = _load()

GOOD = """
[[project]]
name = "django"
source = "pypi"
package = "Django"
version = "5.2.8"
license = "BSD-3-Clause"
kind = "code+docs"
languages = ["en", "ar"]

[[project]]
name = "manpages-ja"
source = "debian"
package = "manpages-ja"
version = "0.5.0.0.20221215+dfsg-1"
license = "various"
kind = "docs"
languages = ["ja"]
skip = ["usr/share/doc/*"]
"""


# ---------------------------------------------------------------------------
# Manifest

def test_parse_manifest_reads_every_field():
    projects = rp.parse_manifest(GOOD, "m.toml")
    assert [p.name for p in projects] == ["django", "manpages-ja"]
    django, ja = projects
    assert (django.source, django.package, django.version, django.license, django.kind) == (
        "pypi", "Django", "5.2.8", "BSD-3-Clause", "code+docs")
    assert django.languages == ("en", "ar") and django.skip == ()
    assert ja.version == "0.5.0.0.20221215+dfsg-1" and ja.skip == ("usr/share/doc/*",)


def _with(field_line: str, replace: str) -> str:
    return GOOD.replace(replace, field_line, 1)


@pytest.mark.parametrize("text, words", [
    ("this is = not toml [", ["not valid TOML"]),
    ("", ["no [[project]] entries"]),
    ('other = 1\n' + GOOD, ["unknown top-level key", "other"]),
    (_with('version = "5.2.*"', 'version = "5.2.8"'), ["'django'", "one exact version"]),
    (_with('version = ">=5"', 'version = "5.2.8"'), ["'django'", "one exact version"]),
    (_with('source = "cargo"', 'source = "pypi"'), ["'django'", "source must be one of", "cargo"]),
    (_with('kind = "data"', 'kind = "code+docs"'), ["'django'", "kind must be one of"]),
    (_with('license = ""', 'license = "BSD-3-Clause"'), ["project #1", "'license'"]),
    (_with('languages = []', 'languages = ["en", "ar"]'), ["'django'", "at least one language"]),
    (_with('languages = "en"', 'languages = ["en", "ar"]'), ["'django'", "'languages' must be a list"]),
    (_with('skip = ["../x"]\nlanguages = ["en"]', 'languages = ["en", "ar"]'), ["'django'", "inside the project folder"]),
    (_with('name = "a/b"', 'name = "django"'), ["'a/b'", "name may only"]),
    (_with('homepage = "x"\nname = "django"', 'name = "django"'), ["project #1", "unknown key", "homepage"]),
    (GOOD.replace('name = "manpages-ja"', 'name = "django"'), ["'django'", "listed twice"]),
])
def test_parse_manifest_errors_name_the_file_and_entry(text, words):
    with pytest.raises(rp.ManifestError) as info:
        rp.parse_manifest(text, "bench/some.toml")
    message = str(info.value)
    assert message.startswith("bench/some.toml: ")
    for word in words:
        assert word in message


def test_load_manifest_missing_file_names_the_path(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(rp.ManifestError, match=r"nope\.toml: cannot read"):
        rp.load_manifest(missing)


def test_committed_manifest_meets_the_benchmark_brief():
    projects = rp.load_manifest(rp.MANIFEST)
    assert len(projects) >= 8
    languages = {code for p in projects for code in p.languages if len(code) == 2}
    assert len(languages) >= 5, languages
    kinds = {k for p in projects for k in p.kind.split("+")}
    assert kinds == {"code", "docs"}
    assert {p.source for p in projects} == set(rp.SOURCES)


# ---------------------------------------------------------------------------
# Unpacking helpers

def test_apply_skips_removes_only_matching_files(tmp_path):
    for rel in ("package/dist/a.js", "package/dist/sub/b.js", "package/lib/c.js", "README.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    removed = rp.apply_skips(tmp_path, ["package/dist/*"])
    # fnmatch's * crosses '/', so the whole dist/ tree goes
    assert removed == ["package/dist/a.js", "package/dist/sub/b.js"]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        "README.md", "package/lib/c.js"]


def test_gunzip_man_pages_only_under_man(tmp_path):
    page = tmp_path / "usr/share/man/ja/man1/ls.1.gz"
    other = tmp_path / "usr/share/doc/pkg/changelog.gz"
    for path in (page, other):
        path.parent.mkdir(parents=True)
        with gzip.open(path, "wb") as fh:
            fh.write("見る http://example.org/\n".encode("utf-8"))
    assert rp._gunzip_man_pages(tmp_path) == 1
    assert (tmp_path / "usr/share/man/ja/man1/ls.1").read_text(encoding="utf-8") == "見る http://example.org/\n"
    assert not page.exists() and other.exists()


def test_fetch_skips_a_project_already_there(tmp_path, monkeypatch):
    project = rp.parse_manifest(GOOD)[0]
    folder = tmp_path / project.name
    folder.mkdir()
    (folder / rp.FETCHED_MARK).write_text(json.dumps({"version": project.version}), encoding="utf-8")
    (folder / "kept.txt").write_text("x", encoding="utf-8")

    def no_download(*args, **kwargs):
        raise AssertionError("nothing should be downloaded")

    monkeypatch.setattr(rp, "_run", no_download)
    assert rp.fetch(project, tmp_path) == folder
    assert (folder / "kept.txt").exists()


def test_fetch_replaces_another_version(tmp_path, monkeypatch):
    project = rp.parse_manifest(GOOD)[0]
    folder = tmp_path / project.name
    folder.mkdir()
    (folder / rp.FETCHED_MARK).write_text(json.dumps({"version": "1.0"}), encoding="utf-8")
    calls = []

    def failing_download(cmd, cwd=None):
        calls.append(cmd)
        raise rp.FetchError("offline")

    monkeypatch.setattr(rp, "_run", failing_download)
    with pytest.raises(rp.FetchError, match="offline"):
        rp.fetch(project, tmp_path)
    assert calls and calls[0][-1] == "Django==5.2.8"
    assert not folder.exists()  # the stale version is gone, nothing half-unpacked left
    assert [p.name for p in tmp_path.iterdir()] == []


def test_unpack_refuses_members_outside_the_folder(tmp_path):
    import io
    import tarfile
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        data = b"x"
        info = tarfile.TarInfo("../escape.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(rp.FetchError, match="outside its folder"):
        rp._unpack_archive(archive, dest)
    assert not (tmp_path / "escape.txt").exists()


# ---------------------------------------------------------------------------
# Source lines and clipping

def test_split_lines_uses_irilints_line_ends_only():
    assert rp.split_lines("a\r\nb\rc\nd\u2028e\x0cf") == ["a", "b", "c", "d\u2028e\x0cf"]


def test_clip_line_marks_the_finding_and_cuts_long_lines():
    line = "x" * 200 + "http://EXAMPLE.com/" + "y" * 200
    column = 200 + len("http://") + 1  # 1-based column of the E
    clipped = rp.clip_line(line, column, column + len("EXAMPLE.com"), width=10)
    assert clipped == "…" + "x" * 3 + "http://⟦EXAMPLE.com⟧/" + "y" * 9 + "…"


def test_clip_line_shows_controls_and_bidi_characters():
    line = "a\tb https://example.org/\u202eabc\x00"
    start = line.index("\u202e") + 1
    clipped = rp.clip_line(line, start, start + 1)
    assert clipped == "a b https://example.org/⟦<U+202E>⟧abc\\u0000"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300),
       st.integers(min_value=1, max_value=320), st.integers(min_value=0, max_value=40),
       st.integers(min_value=1, max_value=30))
def test_clip_line_keeps_the_finding_and_stays_bounded(line, column, length, width):
    clipped = rp.clip_line(line, column, column + length, width=width)
    assert clipped.count("⟦") >= 1 and clipped.count("⟧") >= 1
    start = min(column - 1, len(line))
    finding = line[start:min(column - 1 + length, len(line))]
    visible = "".join(rp._visible(ch) for ch in finding)
    if len(finding) <= 2 * width:
        assert "⟦" + visible + "⟧" in clipped
    # each side at most `width` characters, the finding at most 2*width+1, each
    # shown as at most 10 characters (<U+XXXX>), plus ellipses and brackets
    assert len(clipped) <= 10 * (4 * width + 1) + 4


# ---------------------------------------------------------------------------
# The findings writer

def _entries():
    return [
        {"kind": "finding", "path": "./docs/a.txt", "line": 2, "column": 13, "end_line": 2, "end_column": 24,
         "code": "IRI602", "name": "uppercase-host", "severity": "info",
         "message": "host 'EXAMPLE.com' has uppercase letters", "iri": "http://EXAMPLE.com/x"},
        {"kind": "finding", "path": "./docs/a.txt", "line": 3, "column": 8, "end_line": 3, "end_column": 9,
         "code": "IRI001", "name": "invalid-character", "severity": "error",
         "message": "U+007C VERTICAL LINE is not allowed in the path", "iri": "http:/a|b"},
        {"kind": "error", "path": "./bin.dat", "message": "./bin.dat: cannot decode as UTF-8 at byte 3 (invalid start byte)"},
    ]


def _tiny_project(root: Path) -> Path:
    folder = root / "tiny"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "a.txt").write_text("intro\nsee: http://EXAMPLE.com/x\r\nhttp:/a|b `tick`\n", encoding="utf-8")
    return folder


def test_findings_from_json_adds_source_lines_and_separates_unreadable_files(tmp_path):
    folder = _tiny_project(tmp_path)
    findings, not_checked = rp.findings_from_json("tiny", "default", _entries(), folder)
    assert [(f.path, f.line, f.code) for f in findings] == [("docs/a.txt", 2, "IRI602"), ("docs/a.txt", 3, "IRI001")]
    assert findings[0].context == "see: http://⟦EXAMPLE.com⟧/x"
    assert findings[1].context == "http:/a⟦|⟧b `tick`"
    assert not_checked == [{"kind": "error", "path": "bin.dat",
                            "message": "./bin.dat: cannot decode as UTF-8 at byte 3 (invalid start byte)"}]


def test_render_findings_md_groups_by_rule_and_labels_each_finding(tmp_path):
    folder = _tiny_project(tmp_path)
    project = rp.parse_manifest(GOOD.replace('name = "django"', 'name = "tiny"'))[0]
    findings, not_checked = rp.findings_from_json("tiny", "default", _entries(), folder)
    bl, _ = rp.findings_from_json("tiny", "bidi,lookalike", _entries()[:1], folder)
    runs = [rp.ProjectRun("tiny", "default", 1_500_000, 0.25, findings, not_checked),
            rp.ProjectRun("tiny", "bidi,lookalike", 1_500_000, 0.2, bl, [])]
    md = rp.render_findings_md([project], runs)
    assert "| tiny | pypi | Django | 5.2.8 | BSD-3-Clause | code+docs | en, ar | - |" in md
    assert "## default rules: 2 findings" in md
    assert "| tiny | 1.5 | 0.2 | 2 | 1 | 1 | 1 |" in md  # MB, s, findings, not checked, IRI001, IRI602
    # rules in code order; within a rule, numbered from 1
    assert md.index("### IRI001 invalid-character (default rules): 1") < md.index("### IRI602 uppercase-host (default rules): 1")
    assert ("- **IRI001-1** tiny `docs/a.txt:3:8` error: U+007C VERTICAL LINE is not allowed in the path  \n"
            "  IRI: `http:/a\\|b`  \n  `http:/a⟦\\|⟧b ˋtickˋ`") in md
    assert "- **IRI602-bl1** tiny `docs/a.txt:2:13` info" in md
    assert "- tiny: 1 × cannot decode as UTF-8" in md

    data = json.loads(rp.render_findings_json([project], runs))
    assert [f["id"] for f in data["findings"]] == ["IRI001-1", "IRI602-1", "IRI602-bl1"]
    assert data["projects"][0]["version"] == "5.2.8"
    assert data["runs"][0] == {"project": "tiny", "selection": "default", "bytes": 1_500_000, "seconds": 0.25,
                               "findings": 2, "not_checked": not_checked}


def test_check_project_sees_files_of_a_git_ignored_corpus(tmp_path):
    # The corpus lives in this repository's work tree and is git-ignored:
    # its findings must not be dropped as git-ignored files.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("corpus/\n", encoding="utf-8")
    corpus = tmp_path / "corpus"
    _tiny_project(corpus)
    project = rp.parse_manifest(GOOD.replace('name = "django"', 'name = "tiny"'))[0]
    runs = rp.check_project(project, corpus, jobs=1)
    assert [r.selection for r in runs] == ["default", "bidi,lookalike"]
    default = runs[0]
    assert [(f.path, f.line, f.column, f.code) for f in default.findings] == [
        ("docs/a.txt", 2, 13, "IRI602")]
    assert default.findings[0].context == "see: http://⟦EXAMPLE.com⟧/x"
    assert runs[1].findings == []


def _manifest_for_tiny(tmp_path: Path) -> Path:
    manifest = tmp_path / "projects.toml"
    manifest.write_text(GOOD.split("[[project]]")[0] + "[[project]]" + GOOD.split("[[project]]")[1].replace(
        'name = "django"', 'name = "tiny"'), encoding="utf-8")
    return manifest


def test_main_no_fetch_refuses_a_project_not_unpacked(tmp_path, capsys):
    manifest = _manifest_for_tiny(tmp_path)
    code = rp.main(["--manifest", str(manifest), "--corpus", str(tmp_path / "corpus"), "--no-fetch"])
    assert code == 1
    assert "not unpacked at the pinned version" in capsys.readouterr().err


def test_main_only_names_unknown_projects(tmp_path, capsys):
    manifest = _manifest_for_tiny(tmp_path)
    assert rp.main(["--manifest", str(manifest), "--only", "tiny,nope", "--no-fetch"]) == 2
    assert "--only: not in" in capsys.readouterr().err


def test_main_bad_manifest_exits_2_naming_it(tmp_path, capsys):
    manifest = tmp_path / "broken.toml"
    manifest.write_text("[[project]]\nname = 1\n", encoding="utf-8")
    assert rp.main(["--manifest", str(manifest), "--no-fetch"]) == 2
    assert "broken.toml: project #1: 'name' must be a non-empty string" in capsys.readouterr().err


def test_main_checks_an_unpacked_project_and_writes_both_files(tmp_path, capsys):
    manifest = _manifest_for_tiny(tmp_path)
    corpus = tmp_path / "corpus"
    folder = _tiny_project(corpus)
    (folder / rp.FETCHED_MARK).write_text(json.dumps({"version": "5.2.8"}), encoding="utf-8")
    assert rp.main(["--manifest", str(manifest), "--corpus", str(corpus), "--no-fetch", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "default rules: findings per project\n  tiny" in out
    assert "  IRI602 uppercase-host" in out
    md = (corpus / "findings.md").read_text(encoding="utf-8")
    assert "- **IRI602-1** tiny `docs/a.txt:2:13` info:" in md
    data = json.loads((corpus / "findings.json").read_text(encoding="utf-8"))
    assert [(f["id"], f["path"], f["selection"]) for f in data["findings"]] == [("IRI602-1", "docs/a.txt", "default")]
    # the marker file is hidden, so irilint does not check it
    assert all(r["not_checked"] == [] for r in data["runs"])
