"""Configuration: finding, validating, overriding and matching globs."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from irilint import config
from irilint.config import (
    DEFAULT_EXCLUDE,
    ConfigError,
    Settings,
    find_config,
    is_included,
    load_config_file,
    per_file_ignores_for,
    settings_for,
    settings_to_dict,
)


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The lookup cache is process-wide; tests create and delete configs.
    config.clear_cache()
    yield
    config.clear_cache()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


KNOWN_SELECTORS = {"bidi", "IRI001", "IRI", "confusables"}


def known_selector(s: str) -> bool:
    return s in KNOWN_SELECTORS


def known_scanner(s: str) -> bool:
    return s in {"markdown", "html", "text"}


# ---------------------------------------------------------------------------
# Error messages, one row per mistake.  The message is what the user sees,
# so it is compared in full.

ERROR_CASES = [
    # (file name, content, expected message after "<path>: ")
    ("pyproject.toml", "[tool.irilint]\nselect = 3\n",
     "[tool.irilint] key 'select': expected a list of strings, got int"),
    ("irilint.toml", "select = 3\n",
     "key 'select': expected a list of strings, got int"),
    ("irilint.toml", 'select = "bidi"\n',
     "key 'select': expected a list of strings, got str"),
    ("irilint.toml", 'ignore = ["bidi", 2]\n',
     "key 'ignore': expected a list of strings, but item 1 is int"),
    ("irilint.toml", 'extend-select = [""]\n',
     "key 'extend-select': expected a list of strings, but item 0 is empty"),
    ("irilint.toml", "extend-ignore = {a = 1}\n",
     "key 'extend-ignore': expected a list of strings, got table"),
    ("irilint.toml", 'severity = ["bidi"]\n',
     "key 'severity': expected a table of rule = level, got list"),
    ("irilint.toml", 'severity = {bidi = "fatal"}\n',
     "key 'severity': rule 'bidi': expected one of 'error', 'warning', 'info', 'hint', got 'fatal'"),
    ("irilint.toml", "severity = {bidi = 1}\n",
     "key 'severity': rule 'bidi': expected one of 'error', 'warning', 'info', 'hint', got int"),
    ("irilint.toml", 'per-file-ignores = {"*.md" = "bidi"}\n',
     "key 'per-file-ignores': pattern '*.md': expected a list of strings, got str"),
    ("irilint.toml", "per-file-ignores = 1\n",
     "key 'per-file-ignores': expected a table of glob = [rule selectors], got int"),
    ("irilint.toml", "include = true\n",
     "key 'include': expected a list of glob strings, got bool"),
    ("irilint.toml", "exclude = [1]\n",
     "key 'exclude': expected a list of glob strings, but item 0 is int"),
    ("irilint.toml", 'extend-exclude = "build"\n',
     "key 'extend-exclude': expected a list of glob strings, got str"),
    ("irilint.toml", 'extensions = [".md"]\n',
     "key 'extensions': expected a table of extension = scanner, got list"),
    ("irilint.toml", 'extensions = {".md" = 1}\n',
     "key 'extensions': extension '.md': expected a scanner name, got int"),
    ("irilint.toml", 'protected-domains = "example.com"\n',
     "key 'protected-domains': expected a list of strings, got str"),
    ("irilint.toml", 'protected-domains = ["https://example.com/"]\n',
     "key 'protected-domains': 'https://example.com/' is not a domain name"),
    ("irilint.toml", "allowed-scripts = [1]\n",
     "key 'allowed-scripts': expected a list of strings, but item 0 is int"),
    ("irilint.toml", "max-file-size = -1\n",
     "key 'max-file-size': expected a positive integer (bytes), got -1"),
    ("irilint.toml", "max-file-size = 0\n",
     "key 'max-file-size': expected a positive integer (bytes), got 0"),
    ("irilint.toml", 'max-file-size = "10MB"\n',
     "key 'max-file-size': expected a positive integer (bytes), got str"),
    ("irilint.toml", "max-file-size = true\n",
     "key 'max-file-size': expected a positive integer (bytes), got bool"),
    ("irilint.toml", 'fail-level = "fatal"\n',
     "key 'fail-level': expected one of 'error', 'warning', 'info', 'hint', got 'fatal'"),
    ("irilint.toml", "fail-level = 2\n",
     "key 'fail-level': expected one of 'error', 'warning', 'info', 'hint', got int"),
    ("irilint.toml", "debounce = -5\n",
     "key 'debounce': expected a non-negative integer (milliseconds), got -5"),
    ("irilint.toml", "debounce = 1.5\n",
     "key 'debounce': expected a non-negative integer (milliseconds), got float"),
    ("irilint.toml", 'selct = ["bidi"]\n',
     "unknown key 'selct' (did you mean 'select'?)"),
    ("pyproject.toml", '[tool.irilint]\nselct = ["bidi"]\n',
     "[tool.irilint] unknown key 'selct' (did you mean 'select'?)"),
    ("irilint.toml", 'extend_select = ["bidi"]\n',
     "unknown key 'extend_select' (did you mean 'extend-select'?)"),
    ("irilint.toml", 'per_file_ignores = {}\n',
     "unknown key 'per_file_ignores' (did you mean 'per-file-ignores'?)"),
    ("irilint.toml", "colour = 1\n",
     "unknown key 'colour'"),
    ("pyproject.toml", "[tool]\nirilint = 3\n",
     "key 'tool.irilint': expected a table, got int"),
    ("irilint.toml", "select = [\n",
     None),  # invalid TOML: parser wording checked separately below
]


@pytest.mark.parametrize("name, content, expected", ERROR_CASES)
def test_config_error_messages(tmp_path, name, content, expected):
    path = write(tmp_path / name, content)
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    if expected is None:
        assert str(info.value).startswith(f"{path}: invalid TOML: ")
    else:
        assert str(info.value) == f"{path}: {expected}"
    assert info.value.path == str(path)


def test_error_attributes_name_the_key(tmp_path):
    path = write(tmp_path / "irilint.toml", "select = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert info.value.key == "select"
    assert info.value.message == "expected a list of strings, got int"


def test_invalid_toml_carries_parser_position(tmp_path):
    path = write(tmp_path / ".irilint.toml", "select = [\"a\"\nignore = 1\n")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert info.value.key is None
    assert "invalid TOML:" in str(info.value)
    assert "line 2" in str(info.value)


def test_unreadable_config_includes_os_reason(tmp_path):
    # A directory where the file should be: reading fails with EISDIR (this
    # works as root, unlike a chmod 000 file).
    path = tmp_path / "irilint.toml"
    path.mkdir()
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(info.value) == f"{path}: cannot read: Is a directory"


def test_non_utf8_config(tmp_path):
    path = tmp_path / "irilint.toml"
    path.write_bytes(b'select = ["\xff"]\n')
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(info.value) == f"{path}: invalid TOML: not UTF-8 at byte 11"


@pytest.mark.parametrize(
    "content, expected",
    [
        ('select = ["bidi", "nope"]\n', "key 'select': unknown rule selector 'nope'"),
        ('extend-ignore = ["NOPE1"]\n', "key 'extend-ignore': unknown rule selector 'NOPE1'"),
        ('severity = {nope = "error"}\n', "key 'severity': unknown rule selector 'nope'"),
        ('per-file-ignores = {"*.md" = ["nope"]}\n',
         "key 'per-file-ignores': pattern '*.md': unknown rule selector 'nope'"),
        ('extensions = {".x" = "latex"}\n', "key 'extensions': extension '.x': unknown scanner 'latex'"),
    ],
)
def test_unknown_selector_or_scanner_with_validator(tmp_path, content, expected):
    path = write(tmp_path / "irilint.toml", content)
    with pytest.raises(ConfigError) as info:
        load_config_file(path, validate_selector=known_selector, validate_scanner=known_scanner)
    assert str(info.value) == f"{path}: {expected}"


def test_without_validator_any_selector_is_accepted(tmp_path):
    path = write(tmp_path / "irilint.toml", 'select = ["whatever"]\nextensions = {".x" = "latex"}\n')
    settings = load_config_file(path)
    assert settings.select == ("whatever",)
    assert settings.extension_map == {".x": "latex"}


# ---------------------------------------------------------------------------
# Values


def test_full_config_is_parsed_into_settings(tmp_path):
    path = write(
        tmp_path / "irilint.toml",
        """
select = ["IRI"]
ignore = ["bidi"]
extend-select = ["confusables"]
extend-ignore = ["IRI001"]
severity = {IRI001 = "Error", bidi = "hint"}
per-file-ignores = {"docs/*.md" = ["bidi"], "*.txt" = ["IRI"]}
include = ["**/*.md"]
exclude = ["vendor"]
extend-exclude = ["generated/"]
extensions = {md = "markdown", ".HTM" = "html"}
protected-domains = ["example.com", "bücher.de"]
allowed-scripts = ["Latin", "Grek"]
max-file-size = 2000
fail-level = "error"
debounce = 50
""",
    )
    s = load_config_file(path, validate_selector=known_selector, validate_scanner=known_scanner)
    assert s.select == ("IRI",)
    assert s.ignore == ("bidi",)
    assert s.extend_select == ("confusables",)
    assert s.extend_ignore == ("IRI001",)
    assert s.severity == (("IRI001", "error"), ("bidi", "hint"))  # sorted, lower-cased
    assert s.per_file_ignores == (("*.txt", ("IRI",)), ("docs/*.md", ("bidi",)))
    assert s.include == ("**/*.md",)
    assert s.exclude == ("vendor",)  # replaces the defaults
    assert s.extend_exclude == ("generated/",)
    assert s.extensions == ((".htm", "html"), (".md", "markdown"))
    assert s.protected_domains == ("example.com", "bücher.de")
    assert s.allowed_scripts == ("Latin", "Grek")
    assert s.max_file_size == 2000
    assert s.fail_level == "error"
    assert s.debounce == 50
    assert s.source == str(path)
    assert s.root == tmp_path
    hash(s)  # usable as a cache key


def test_defaults():
    s = Settings()
    assert s.select is None
    assert s.exclude == DEFAULT_EXCLUDE
    assert s.max_file_size == 10_000_000
    assert s.fail_level == "warning"
    assert s.debounce == 300
    assert s.source is None


def test_extend_exclude_keeps_default_exclude(tmp_path):
    path = write(tmp_path / "irilint.toml", 'extend-exclude = ["vendor"]\n')
    s = load_config_file(path)
    assert s.exclude == DEFAULT_EXCLUDE
    assert not is_included(s, tmp_path / "node_modules" / "a.md", is_dir=False)
    assert not is_included(s, tmp_path / "vendor" / "a.md", is_dir=False)


def test_scanner_for_longest_suffix():
    s = Settings(extensions=((".gz", "text"), (".md.gz", "markdown")))
    assert s.scanner_for("notes.MD.gz") == "markdown"
    assert s.scanner_for("x.gz") == "text"
    assert s.scanner_for("x.md") is None


# ---------------------------------------------------------------------------
# Finding


def test_nearest_config_wins(tmp_path):
    outer = write(tmp_path / "irilint.toml", 'select = ["outer"]\n')
    inner = write(tmp_path / "a" / "b" / ".irilint.toml", 'select = ["inner"]\n')
    doc_deep = write(tmp_path / "a" / "b" / "c" / "d.md", "")
    doc_mid = write(tmp_path / "a" / "x.md", "")
    assert find_config(doc_deep) == inner
    assert find_config(doc_mid) == outer
    assert settings_for(doc_deep).select == ("inner",)
    assert settings_for(doc_mid).select == ("outer",)


@pytest.mark.parametrize(
    "present, winner",
    [
        ((".irilint.toml", "irilint.toml", "pyproject.toml"), ".irilint.toml"),
        (("irilint.toml", "pyproject.toml"), "irilint.toml"),
        ((".irilint.toml", "pyproject.toml"), ".irilint.toml"),
        (("pyproject.toml",), "pyproject.toml"),
    ],
)
def test_precedence_within_one_directory(tmp_path, present, winner):
    for name in present:
        if name == "pyproject.toml":
            write(tmp_path / name, f'[tool.irilint]\nselect = ["{name}"]\n')
        else:
            write(tmp_path / name, f'select = ["{name}"]\n')
    doc = write(tmp_path / "doc.md", "")
    assert find_config(doc) == tmp_path / winner
    assert settings_for(doc).select == (winner,)


def test_pyproject_without_table_is_skipped(tmp_path):
    outer = write(tmp_path / "irilint.toml", 'select = ["outer"]\n')
    # Mentions irilint elsewhere, so it is parsed and found lacking the table.
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "irilint-plugin"\n')
    doc = write(tmp_path / "pkg" / "doc.md", "")
    assert find_config(doc) == outer
    assert settings_for(doc).select == ("outer",)


def test_broken_unrelated_pyproject_does_not_stop_the_walk(tmp_path):
    outer = write(tmp_path / "irilint.toml", "")
    write(tmp_path / "pkg" / "pyproject.toml", "[project\n")
    assert find_config(tmp_path / "pkg" / "doc.md") == outer


def test_broken_pyproject_mentioning_us_is_an_error(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.irilint\nselect = 1\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        settings_for(tmp_path / "doc.md")


def test_no_config_gives_defaults(tmp_path, monkeypatch):
    # Keep the walk from finding a config above tmp_path on this machine.
    monkeypatch.setattr(config, "_config_in_dir", lambda d: None)
    s = settings_for(tmp_path / "doc.md")
    assert s == Settings()
    assert find_config(tmp_path) is None


def test_lookup_is_cached_per_directory(tmp_path, monkeypatch):
    write(tmp_path / "irilint.toml", "")
    (tmp_path / "a").mkdir()
    calls = []
    real = config._config_in_dir
    monkeypatch.setattr(config, "_config_in_dir", lambda d: calls.append(d) or real(d))
    for name in ("x.md", "y.md", "z.md"):
        settings_for(tmp_path / "a" / name)
    assert calls == [tmp_path / "a", tmp_path]
    config.clear_cache()
    settings_for(tmp_path / "a" / "x.md")
    assert len(calls) == 4


def test_broken_config_is_reported_for_each_file_but_parsed_once(tmp_path, monkeypatch):
    write(tmp_path / "irilint.toml", "select = 1\n")
    loads = []
    real = config.load_config_file
    monkeypatch.setattr(config, "load_config_file", lambda *a, **k: loads.append(a) or real(*a, **k))
    for name in ("a.md", "b.md"):
        with pytest.raises(ConfigError):
            settings_for(tmp_path / name)
    assert len(loads) == 1


# ---------------------------------------------------------------------------
# Overrides


def test_overrides_accept_both_spellings_and_replace_or_extend():
    base = Settings(
        select=("IRI",),
        extend_select=("bidi",),
        ignore=("a",),
        extend_ignore=("b",),
        severity=(("bidi", "warning"), ("IRI001", "info")),
        fail_level="warning",
    )
    s = base.merged(
        {
            "extend_ignore": ["c"],
            "severity": {"bidi": "error"},
            "fail-level": "hint",
            "max_file_size": 5,
            "debounce": None,  # unset editor option: ignored
        }
    )
    assert s.select == ("IRI",)
    assert s.extend_select == ("bidi",)
    assert s.extend_ignore == ("b", "c")
    assert s.severity == (("IRI001", "info"), ("bidi", "error"))
    assert s.fail_level == "hint"
    assert s.max_file_size == 5
    assert s.debounce == base.debounce


def test_overriding_select_drops_config_extend_select():
    base = Settings(select=("IRI",), extend_select=("bidi",))
    assert base.merged({"select": ["confusables"]}).extend_select == ()
    both = base.merged({"select": ["confusables"], "extend-select": ["IRI001"]})
    assert both.select == ("confusables",)
    assert both.extend_select == ("IRI001",)


def test_override_errors_name_their_source():
    with pytest.raises(ConfigError) as info:
        Settings().merged({"fail_level": "loud"}, source="editor settings")
    assert str(info.value) == (
        "editor settings: key 'fail-level': expected one of 'error', 'warning', 'info', 'hint', got 'loud'"
    )
    with pytest.raises(ConfigError) as info:
        Settings().merged({"selekt": []})
    assert str(info.value) == "command line: unknown key 'selekt' (did you mean 'select'?)"
    with pytest.raises(ConfigError) as info:
        Settings().merged({"select": ["nope"]}, validate_selector=known_selector)
    assert str(info.value) == "command line: key 'select': unknown rule selector 'nope'"


def test_settings_for_applies_overrides(tmp_path):
    write(tmp_path / "irilint.toml", 'select = ["IRI"]\nfail-level = "error"\n')
    s = settings_for(tmp_path / "d.md", {"fail-level": "info"})
    assert s.select == ("IRI",)
    assert s.fail_level == "info"
    assert s.source == str(tmp_path / "irilint.toml")
    assert settings_for(tmp_path / "d.md").fail_level == "error"  # base not mutated by the cache


def test_settings_to_dict_round_trips_through_merged(tmp_path):
    path = write(
        tmp_path / "irilint.toml",
        'select = ["a"]\nextend-select = ["b"]\nseverity = {a = "info"}\n'
        'per-file-ignores = {"*.md" = ["a"]}\nextensions = {".md" = "markdown"}\n'
        'extend-exclude = ["x"]\nmax-file-size = 7\n',
    )
    s = load_config_file(path)
    data = settings_to_dict(s)
    assert data["severity"] == {"a": "info"}
    assert data["per-file-ignores"] == {"*.md": ["a"]}
    assert data["source"] == str(path)
    data.pop("source")
    rebuilt = Settings().merged(data)
    assert rebuilt == Settings(**{**s.__dict__, "source": None})


# ---------------------------------------------------------------------------
# Fingerprint


def test_fingerprint_is_stable_for_equal_settings(tmp_path):
    a = write(tmp_path / "irilint.toml", 'severity = {b = "info", a = "error"}\nselect = ["x"]\n')
    first = load_config_file(a).fingerprint()
    config.clear_cache()
    # Same settings, keys in another order: same fingerprint.
    a.write_text('select = ["x"]\nseverity = {a = "error", b = "info"}\n', encoding="utf-8")
    assert load_config_file(a).fingerprint() == first
    assert Settings().fingerprint() == Settings().fingerprint()
    assert len(first) == 64


@pytest.mark.parametrize(
    "change",
    [
        {"select": ["x"]},
        {"ignore": ["x"]},
        {"extend-select": ["x"]},
        {"extend-ignore": ["x"]},
        {"severity": {"x": "hint"}},
        {"per-file-ignores": {"*.md": ["x"]}},
        {"include": ["*.md"]},
        {"exclude": []},
        {"extend-exclude": ["x"]},
        {"extensions": {".x": "text"}},
        {"protected-domains": ["example.com"]},
        {"allowed-scripts": ["Latn"]},
        {"max-file-size": 1},
        {"fail-level": "error"},
        {"debounce": 1},
    ],
)
def test_fingerprint_changes_with_every_setting(change):
    base = Settings()
    assert base.merged(change).fingerprint() != base.fingerprint()


def test_fingerprint_depends_on_source_directory():
    # per-file-ignores are relative to the config's directory.
    a = Settings(source="/p/irilint.toml")
    b = Settings(source="/q/irilint.toml")
    assert a.fingerprint() != b.fingerprint()


# ---------------------------------------------------------------------------
# Globs


@pytest.fixture
def rooted(tmp_path):
    return lambda **kw: Settings(source=str(tmp_path / "irilint.toml"), **kw)


def test_per_file_ignores_matching(tmp_path, rooted):
    s = rooted(
        per_file_ignores=(
            ("*.md", ("md",)),
            ("docs/*.txt", ("docs-txt",)),
            ("docs/**/*.html", ("deep-html",)),
            ("/CHANGELOG.md", ("changelog",)),
            ("vendor/", ("vendor",)),
        )
    )
    assert per_file_ignores_for(s, tmp_path / "a" / "b" / "readme.md") == ("md",)  # bare file name
    assert per_file_ignores_for(s, tmp_path / "docs" / "x.txt") == ("docs-txt",)
    assert per_file_ignores_for(s, tmp_path / "src" / "docs" / "x.txt") == ()  # anchored at the root
    assert per_file_ignores_for(s, tmp_path / "docs" / "x" / "y" / "z.html") == ("deep-html",)
    assert per_file_ignores_for(s, tmp_path / "docs" / "z.html") == ("deep-html",)  # ** = zero dirs too
    assert per_file_ignores_for(s, tmp_path / "CHANGELOG.md") == ("md", "changelog")
    assert per_file_ignores_for(s, tmp_path / "sub" / "CHANGELOG.md") == ("md",)
    assert per_file_ignores_for(s, tmp_path / "vendor" / "lib" / "x.js") == ("vendor",)
    assert per_file_ignores_for(s, tmp_path / "vendor") == ()  # trailing slash: directories only
    assert per_file_ignores_for(s, tmp_path / "a.txt") == ()


def test_star_does_not_cross_directories(tmp_path, rooted):
    s = rooted(per_file_ignores=(("docs/*", ("x",)),))
    assert per_file_ignores_for(s, tmp_path / "docs" / "a.md") == ("x",)
    # docs/* matches the directory docs/sub, so everything below it is covered
    # too - as in .gitignore.
    assert per_file_ignores_for(s, tmp_path / "docs" / "sub" / "a.md") == ("x",)
    s2 = rooted(per_file_ignores=(("docs/*.md", ("x",)),))
    assert per_file_ignores_for(s2, tmp_path / "docs" / "sub" / "a.md") == ()


def test_is_included_default_excludes(tmp_path, rooted):
    s = rooted()
    assert is_included(s, tmp_path / "README.md", is_dir=False)
    for name in DEFAULT_EXCLUDE:
        assert not is_included(s, tmp_path / "pkg" / name / "a.md", is_dir=False), name
        assert not is_included(s, tmp_path / name, is_dir=True), name


def test_include_applies_to_files_not_directories(tmp_path, rooted):
    s = rooted(include=("docs/**/*.md",), exclude=("docs/private",))
    assert is_included(s, tmp_path / "docs", is_dir=True)
    assert is_included(s, tmp_path / "docs" / "a" / "b.md", is_dir=False)
    assert not is_included(s, tmp_path / "docs" / "a" / "b.txt", is_dir=False)
    assert not is_included(s, tmp_path / "src" / "b.md", is_dir=False)
    assert not is_included(s, tmp_path / "docs" / "private", is_dir=True)
    assert not is_included(s, tmp_path / "docs" / "private" / "b.md", is_dir=False)


def test_character_class_and_question_mark(tmp_path, rooted):
    s = rooted(exclude=("draft-?.md", "[!a]*.txt"))
    assert not is_included(s, tmp_path / "draft-1.md", is_dir=False)
    assert is_included(s, tmp_path / "draft-12.md", is_dir=False)
    assert not is_included(s, tmp_path / "b.txt", is_dir=False)
    assert is_included(s, tmp_path / "a.txt", is_dir=False)


def test_globs_without_config_use_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = Settings().merged({"per-file-ignores": {"docs/*.md": ["x"]}})
    assert per_file_ignores_for(s, Path("docs/a.md")) == ("x",)
    assert per_file_ignores_for(s, tmp_path / "docs" / "a.md") == ("x",)
    assert not is_included(s, Path(os.sep) / "elsewhere" / "node_modules" / "a.md", is_dir=False)
