"""The fixed cost of a check (issue 18): what the engine skips on a
document without references or suppressions, and the scanner found once
per file, change nothing a check gives.

* ``Engine.check_text`` sets up no reference loop when the scanner finds
  no reference, and no ignore-file test without suppressions: the
  findings (every field), suppression counts, errors, reference counts and
  project-rule facts equal those of the full path
  (``engine.NO_REFERENCE_SHORTCUT = False``), with and without
  references, suppressions, per-file-ignores and severity overrides.
* The scanner ``irilint check`` finds once per file
  (:func:`irilint.project_files.file_scanner`, kept per extension) is the
  one the engine finds for the path, and a check given it equals one that
  finds its own.
"""
from __future__ import annotations

from typing import Any, Tuple
from unittest import mock

from hypothesis import example, given, settings as hsettings, strategies as st

from irilint import engine as engine_module
from irilint import scanners
from irilint.config import Settings
from irilint.engine import CheckResult, Engine
from irilint.project_files import file_scanner

SETTINGS = (
    Settings(),
    Settings(select=("ALL",), protected_domains=("paypal.com",)),
    Settings(severity=(("dns-label-syntax", "error"), ("confusable-collision", "info"))),
    Settings(per_file_ignores=(("*.md", ("IRI505",)), ("docs/**", ("lookalike",)))),
    Settings(extensions=((".txt", "markdown"), ("notes", "html"))),
)

PATHS = ("a.md", "docs/b.md", "c.txt", "d.html", "e.py", "notes", "f.json", "README", None)

_PIECES = st.sampled_from([
    "plain words ", "\n", "\n\n", "  ", "http://-shop.example/ ", "https://раураl.com/login ",
    "https://paypal.com/ ", "<https://example.org/a b> ", "[x](http://é.org/%zz) ",
    "<a href=\"http://www..example.com/\">x</a> ", "# irilint: ignore\n", "irilint: ignore[IRI505] ",
    "<!-- irilint: ignore-file -->\n", "irilint: ignore-file[lookalike]\n", "irilint: ignore[nope]\n",
    "https://exa\u200bmple.org/ ", "`code` ", "{{ base }}/x ",
])


def _fields(result: CheckResult) -> Tuple[Any, ...]:
    return (result.findings, result.suppressed, result.errors, result.references, result.facts)


def _check(shortcut: bool, text: str, path: Any, cfg: Settings, scanner: Any = None) -> CheckResult:
    with mock.patch.object(engine_module, "NO_REFERENCE_SHORTCUT", shortcut):
        return Engine().check_text(text, path=path, settings=cfg, run_state={}, scanner=scanner)


@hsettings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join), st.sampled_from(PATHS), st.sampled_from(SETTINGS))
@example("", "a.md", SETTINGS[0])
@example("no reference at all\n", "c.txt", SETTINGS[2])
@example("# irilint: ignore\n", "e.py", SETTINGS[1])
@example("irilint: ignore-file[lookalike]\nplain\n", "a.md", SETTINGS[1])
@example("<!-- irilint: ignore-file -->\nhttp://-shop.example/\n", "d.html", SETTINGS[0])
def test_shortcut_check_equals_the_full_path(text, path, cfg):
    fast = _check(True, text, path, cfg)
    full = _check(False, text, path, cfg)
    assert _fields(fast) == _fields(full)


@hsettings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join), st.sampled_from(PATHS[:-1]), st.sampled_from(SETTINGS))
def test_check_given_the_file_scanner_equals_one_that_finds_its_own(text, path, cfg):
    found = file_scanner(cfg, path)
    assert found is Engine()._document(text, path=path, language_id=None, settings=cfg, run_state={},
                                       scanner=None, index=None).scanner
    given_it = Engine().check_text(text, path=path, settings=cfg, run_state={}, scanner=found)
    own = Engine().check_text(text, path=path, settings=cfg, run_state={})
    assert _fields(given_it) == _fields(own)


def _scanner_by_path(path: str) -> Any:
    name = scanners._by_path(path)
    return scanners.get_scanner(name if name is not None else "text")


_NAME_PIECES = st.sampled_from([
    "a", "index", ".md", ".MD", ".html", ".py", ".txt", ".json", ".tar", ".gz", ".", "README", "readme",
    "Dockerfile", "dockerfile", ".dockerfile", "Makefile", "Pipfile", "LICENSE", "x.", ".hidden",
    "/", "\\", "dir/", "Cargo.lock", ".ttl", ".rq", ".zzz", "Jenkinsfile", "CMakeLists.txt",
])


@hsettings(max_examples=500, deadline=None)
@given(st.lists(_NAME_PIECES, min_size=1, max_size=6).map("".join))
@example("docs/index.html")
@example("Dockerfile.dev")
@example("src\\README")
@example("a/b.")
@example("noext")
def test_scanner_kept_per_extension_is_the_one_the_file_name_names(path):
    # Asked twice: the second answer comes from what the first kept.
    assert scanners.scanner_for(path=path) is _scanner_by_path(path)
    assert scanners.scanner_for(path=path) is _scanner_by_path(path)


def test_document_rules_report_at_the_severity_the_settings_give_them():
    # The document rules' severities come from the rule plan: they must be
    # the settings' overrides, not the rules' defaults.
    cfg = Settings(severity=(("dns-label-syntax", "error"),), protected_domains=("paypal.com",))
    text = "http://-shop.example/ and https://раураl.com/login\n"
    engine = Engine()
    found = {f.rule.name: f for f in engine.check_text(text, path="a.md", settings=cfg, run_state={}).findings}
    selection = engine.selection_for(cfg)
    dns = found["dns-label-syntax"]
    assert dns.severity == selection.severity_of(dns.rule) != dns.rule.severity
    collision = found["confusable-collision"]
    assert collision.severity == selection.severity_of(collision.rule)


_FILE_TEXTS = (
    "[a](http://-shop.example/) https://раураl.com/x\n",
    "<a href=\"http://www..example.com/\">x</a>\n",
    "# irilint: ignore\nhttps://exa\u200bmple.org/\n",
    "no reference here\n",
    # found by the Markdown and HTML scanners, not by the text scanner
    "<a title=\"x\" href=\"http://é.org/a b\">\n",
)


def test_check_path_checks_with_the_scanner_it_read_the_file_for(tmp_path, monkeypatch):
    # check_path finds the scanner once, from the path it reads; the
    # engine, left to itself, finds it from the path it reports (the
    # display path): the findings and facts must be the same.
    from irilint.output import findings_of
    from irilint.project import Options, Project, check_path

    (tmp_path / "irilint.toml").write_text(
        'select = ["ALL"]\nprotected-domains = ["paypal.com"]\n'
        'extensions = { ".txt" = "markdown", "notes" = "html", ".weird" = "html" }\n', encoding="utf-8")
    names = ("a.md", "b.txt", "notes", "c.weird", "d.html", "e.py", "README", "Notes", "f.TXT")
    docs = tmp_path / "docs"
    docs.mkdir()
    for k, name in enumerate(names):
        (docs / name).write_text("".join(_FILE_TEXTS[k % len(_FILE_TEXTS):]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    checker = Project(Options(paths=["docs"]))
    for name in names:
        path = str(docs / name)
        out = check_path(checker, path)
        settings = checker.settings(path)
        text = (docs / name).read_text(encoding="utf-8")
        own = Engine().check_text(text, path=out.path, settings=settings, run_state={})
        assert list(findings_of(out.reported)) == own.findings, name
        assert out.facts == own.facts, name
