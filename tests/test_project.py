"""The project layer: one answer to "is this file checked, with which
scanner, under which cap", for the command line and the server alike; and
one fix loop (``fix_loop.fix_until_stable``) for ``--fix``, the server's
fix-all and the tests."""
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irilint import config
from irilint.config import Settings
from irilint.engine import Engine
from irilint.fix_loop import fix_until_stable, fixes_to_apply
from irilint.fileio import apply_edits
from irilint.project import Options, Project
from irilint.project_files import is_excluded, over_size_cap, plan_document, scanner_for
from iri_strategies import iri_reference, spoof_reference

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

NAMES = ["docs", "gen", "build", "node_modules", "src", "a.md", "b.txt", "page.html", "x.py"]
PATTERNS = ["docs", "gen", "*.md", "docs/*.md", "**/x.py", "src/**", "b.txt", "build", "*.html"]


@PROPERTY
@given(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4),
       st.sampled_from([None, ["*.md"], ["docs/**", "*.py"]]),
       st.lists(st.sampled_from(PATTERNS), max_size=3),
       st.booleans())
def test_the_cli_and_the_server_admit_the_same_files(parts, include, extend_exclude, replace):
    # Project.included (the CLI's walk, with its shortcut for the default
    # excludes) and is_excluded (an open document in the server) agree
    # on every file, for every include/exclude.
    # in an empty folder: the paths name files (a folder is tested against
    # the excludes only, in both)
    import tempfile

    cwd = os.getcwd()
    root = tempfile.mkdtemp()
    os.chdir(root)
    try:
        _admit_the_same(root, parts, include, extend_exclude, replace)
    finally:
        os.chdir(cwd)
        os.rmdir(root)


def _admit_the_same(root, parts, include, extend_exclude, replace):
    overrides = {"exclude": extend_exclude} if replace else {"extend-exclude": extend_exclude}
    if include:
        overrides["include"] = include
    project = Project(Options(exclude=overrides.get("exclude"), extend_exclude=overrides.get("extend-exclude")))
    project.explicit_config = Settings().merged({k: v for k, v in overrides.items() if k == "include"})
    path = os.path.join(*parts)
    settings_ = project.settings(path)
    assert project.included(path) == (not is_excluded(settings_, os.path.join(root, path)))
    assert project.included(path) == (not plan_document(settings_, path, "x").excluded)


def test_an_open_document_is_planned_as_the_cli_checks_a_file(tmp_path):
    s = Settings().merged({"max-file-size": 10, "extensions": {"weird": "markdown"}})
    plan = plan_document(s, str(tmp_path / "a.weird"), "short")
    assert not plan.excluded and plan.too_large is None and plan.scanner.name == "markdown"
    assert plan_document(s, str(tmp_path / "a.txt"), "x" * 11).too_large == 11
    # UTF-8 bytes, not characters, as a file's size on disk
    assert plan_document(s, str(tmp_path / "a.txt"), "é" * 5).too_large is None
    assert plan_document(s, str(tmp_path / "a.txt"), "é" * 6).too_large == 12
    assert over_size_cap("é" * 6, 11) == 12
    # an untitled document is never excluded
    excluding = Settings().merged({"exclude": ["*"]})
    assert plan_document(excluding, None, "x").excluded is False
    assert plan_document(excluding, str(tmp_path / "a.md"), "x").excluded is True
    # an unknown scanner named in the settings: read as text, as the CLI does
    assert scanner_for(Settings(), "a.md", "markdown").name == "markdown"


def test_options_from_a_namespace_default_to_no_cache():
    import argparse

    o = Options.of(argparse.Namespace(paths=["x"], select=["bidi"]))
    assert (o.paths, o.select, o.cache, o.fix) == (["x"], ["bidi"], False, False)
    assert Options.of(argparse.Namespace(no_cache=False)).cache is True
    assert Options.of(o) is o


ENGINE = Engine()
ALL = Settings(select=("ALL",))


@PROPERTY
@given(st.one_of(iri_reference(), spoof_reference()), st.booleans())
def test_fix_until_stable_leaves_nothing_to_fix(iri, unsafe):
    doc = "see %s here\n" % iri
    fixed, applied = fix_until_stable(ENGINE, doc, path="doc.txt", settings=ALL, unsafe=unsafe)
    assert applied > 0 or fixed == doc
    left = fixes_to_apply(ENGINE.check_text(fixed, path="doc.txt", settings=ALL, run_state={}).findings,
                          unsafe=unsafe)
    assert apply_edits(fixed, left) == fixed


@PROPERTY
@given(st.one_of(iri_reference(), spoof_reference()))
def test_the_servers_first_pass_is_the_clis(iri):
    # fix-all starts from the findings it has; --fix checks first: the same text
    doc = "see %s here\n" % iri
    known = ENGINE.check_text(doc, path="doc.md", settings=ALL, run_state={}).findings
    fixed_list = []
    assert fix_until_stable(ENGINE, doc, path="doc.md", settings=ALL, findings=known, fixed=fixed_list) == \
        fix_until_stable(ENGINE, doc, path="doc.md", settings=ALL)
    assert all(f.fixes for f in fixed_list)


def test_fix_until_stable_counts_and_names_the_fixes():
    doc = "see http://EXAMPLE.org/%7euser and http://EXAMPLE.org/\n"
    fixed_list = []
    text, applied = fix_until_stable(ENGINE, doc, path="doc.md", settings=Settings(), fixed=fixed_list)
    assert text == "see http://example.org/~user and http://example.org/\n"
    # "%7e" is uppercased first, then decoded: one fix makes the next possible
    assert applied == len(fixed_list) == 4
    assert sorted(f.rule.name for f in fixed_list) == ["lowercase-percent-encoding", "percent-encoded-unreserved",
                                                      "uppercase-host", "uppercase-host"]


def test_config_is_read_once_per_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config.clear_cache()
    (tmp_path / "d").mkdir()
    project = Project(Options())
    assert project.settings("d/a.md") is project.settings("d/b.md")
