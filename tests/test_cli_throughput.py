"""The CLI's shortcuts for large trees answer exactly as the slow way would.

Discovery hands the CLI plain strings, the CLI reuses a parent folder's
settings when the walk saw no configuration file in a folder, and display
paths skip ``os.path.relpath`` when it would change nothing.  The result
cache's host rows, parsed-once payloads and keys answer as the long way.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings, strategies as st

from irilint import config
from irilint.cli import _build_parser
from irilint.paths import display_path as _display_path
from irilint.project import Project as _Checker
from irilint.runner import discover as _discover


@pytest.fixture
def nested_tree(tmp_path, monkeypatch):
    """Folders with and without configuration files, at several depths."""
    layout = {
        "top/a.md": "x",
        "top/plain/b.md": "x",
        "top/plain/deeper/c.md": "x",
        "top/conf/.irilint.toml": 'ignore = ["IRI406"]\n',
        "top/conf/d.md": "x",
        "top/conf/below/e.md": "x",
        "top/conf/below/pyproj/pyproject.toml": "[project]\nname = 'x'\n",  # not ours
        "top/conf/below/pyproj/f.md": "x",
        "top/conf/below/ours/pyproject.toml": '[tool.irilint]\nignore = ["IRI001"]\n',
        "top/conf/below/ours/g.md": "x",
        "top/conf/below/ours/h/i.md": "x",
    }
    for rel, text in layout.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    config.clear_cache()
    yield tmp_path
    config.clear_cache()


@pytest.mark.parametrize("root", ["top", "top/conf", os.path.join("top", "conf", "below")])
def test_settings_reused_from_the_parent_folder_are_the_nearest_configs(nested_tree, root):
    args = _build_parser().parse_args(["check", "--no-cache", root])
    checker = _Checker(args)
    files = [f[0] for f in _discover(checker, [root]) if isinstance(f, tuple)]
    assert len(files) >= 3
    assert checker._no_config_folders  # the shortcut was taken somewhere
    for f in files:
        expected = config.settings_for(f, checker.overrides or None,
                                       validate_selector=checker.validators[0],
                                       validate_scanner=checker.validators[1])
        assert checker.settings(f) is expected, f
    ignores = {os.path.basename(f): tuple(checker.settings(f).ignore) for f in files}
    if root == "top":
        assert ignores["a.md"] == ignores["b.md"] == ignores["c.md"] == ()
    assert "IRI406" in ignores["e.md"] and "IRI406" in ignores["f.md"]
    assert "IRI001" in ignores["i.md"] and "IRI406" not in ignores["i.md"]


@pytest.mark.parametrize("path", [
    "a/b", "a", "./a", "a/../b", "a//b", "a/", ".hidden/x", "a/./b", "../x",
])
def test_display_path_is_what_relpath_gives(tmp_path, monkeypatch, path):
    monkeypatch.chdir(tmp_path)
    rel = os.path.relpath(path)
    assert _display_path(path) == (path if rel.startswith("..") else rel)
    absolute = os.path.join(str(tmp_path), path)
    rel = os.path.relpath(absolute)
    assert _display_path(absolute) == (absolute if rel.startswith("..") else rel)


def test_parallel_run_streams_files_and_keeps_problems_in_order(tmp_path):
    """--jobs 2 gives what --jobs 1 gives, problems of the walk included at
    their place among the files (they travel outside the worker pool)."""
    import subprocess
    import sys

    docs = tmp_path / "docs"
    for i in range(30):
        sub = docs / ("d%02d" % i)
        sub.mkdir(parents=True)
        (sub / "a.md").write_text("see http://e.org/%d/100%% and http://x.org/\u202e%d\n" % (i, i),
                                  encoding="utf-8")
        if i % 7 == 3:
            os.symlink("..", sub / "loop")  # a link back to an ancestor: reported
    runs = [subprocess.run([sys.executable, "-m", "irilint", "check", "--no-cache", "--jobs", jobs, "docs"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300)
            for jobs in ("1", "2")]
    assert runs[0].returncode == runs[1].returncode == 2
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.count("\n") >= 30
    assert runs[0].stderr == runs[1].stderr and runs[0].stderr.count("symlink loop") == 4


def test_line_text_is_clipped_around_the_finding_on_long_lines():
    from irilint.output import LINE_TEXT_LIMIT, clip_line

    short = "x" * LINE_TEXT_LIMIT
    assert clip_line(short, 10, 20) is short
    long = "".join(chr(0x61 + i % 26) for i in range(50_000))
    clipped = clip_line(long, 30_000, 30_010)
    assert len(clipped) <= LINE_TEXT_LIMIT
    assert long[30_000:30_010] in clipped and long.index(clipped) <= 30_000
    assert clip_line(long, 5, 5) == long[:205]
    assert len(clip_line(long, 100, 40_000)) == LINE_TEXT_LIMIT


def _collected_hosts(text, path="docs/a.html"):
    from irilint.config import Settings
    from irilint.engine import Engine

    return Engine().check_text(text, path=path, settings=Settings(protected_domains=("paypal.com",))).facts


def test_cached_host_facts_round_trip_exactly(tmp_path):
    from dataclasses import replace

    from irilint.cache import Cache

    facts = _collected_hosts("<a href='http://www.w3.org/'>w3</a>\n<a href='http://paypal.com/'>p</a>\n"
                             "<a href='http://\u0440\u0430\u0443\u0440\u0430l.com/'>x</a>\n"
                             "<a href='http://OTHER.org/'>o</a>\n")
    hosts = facts["confusable-collision"].facts
    assert [h.identity for h in hosts] == ["www.w3.org", "paypal.com", "\u0440\u0430\u0443\u0440\u0430l.com",
                                          "other.org"]
    cache = Cache(str(tmp_path))
    cache.add(cache.entry("k" * 64, "docs/a.html", [], facts, [], {}))
    cache.save()
    _, got, _ = Cache(str(tmp_path)).get("k" * 64, "docs/a.html")
    # A run reports a collision on the host that is not ASCII: the cache
    # keeps the place of that one only.
    (kept,) = got.values()
    assert [h.place is None for h in kept.facts] == [True, True, False, True]
    assert kept == replace(facts["confusable-collision"], facts=tuple(
        h._replace(place=None) if h.identity.isascii() else h for h in hosts))


@pytest.mark.parametrize("rows", [
    {"a": 1}, [["a"]], [["a", "b", "c"]], [[1, 2]], [["a", "2"]], [["a", "b", 3, None, 4]],
    [["a", "b", "c", 7, 4]], [[]], ["ab"], [["a", 0]], [["a", "b", "c", 1, None, [["x"]]]],
    [["a", "b", "c", 1, [0, 1, 0, 1, "x", 1, 1, 1, 2, "x"], []]],
])
def test_cache_entries_with_bad_host_facts_are_misses(tmp_path, rows):
    import json

    from irilint.cache import Cache

    cache = Cache(str(tmp_path))
    line = cache.entry("k" * 64, "docs/a.html", [], {}, [], {})
    key, name, body = line.split(b"\t", 2)
    payload = json.loads(body)
    payload["facts"] = {"confusable-collision": [1, "error", rows]}
    cache.add(b"\t".join((key, name, json.dumps(payload).encode())))
    assert cache.get("k" * 64, "docs/a.html") is None
    assert cache.misses == 1


def test_cached_facts_of_another_version_are_misses(tmp_path):
    import json

    from irilint.cache import Cache

    facts = _collected_hosts("http://paypal.com/\n")
    cache = Cache(str(tmp_path))
    line = cache.entry("k" * 64, "docs/a.html", [], facts, [], {})
    cache.add(line)
    assert cache.get("k" * 64, "docs/a.html") is not None
    key, name, body = line.split(b"\t", 2)
    payload = json.loads(body)
    payload["facts"]["confusable-collision"][0] += 1
    cache = Cache(str(tmp_path))
    cache.add(b"\t".join((key, name, json.dumps(payload).encode())))
    assert cache.get("k" * 64, "docs/a.html") is None


def test_entries_without_findings_share_their_parsed_rows_but_not_their_positions(tmp_path):
    from irilint.cache import Cache

    cache = Cache(str(tmp_path))
    facts = _collected_hosts("\n\nhttp://example.org/\n")
    for key, name in (("a" * 64, "x.md"), ("b" * 64, "y.md")):
        cache.add(cache.entry(key, name, [], facts, [], {}))
    first, second = cache.get("a" * 64, "x.md"), cache.get("b" * 64, "y.md")
    assert first[1] is second[1] and [h.identity for h in first[1]["confusable-collision"].facts] == ["example.org"]
    assert first[0] is not second[0] and first[2][1] is not second[2][1]
    # The key must still match the line: a payload seen before is no way in.
    assert cache.get("c" * 64, "z.md") is None


@settings(max_examples=200, deadline=None)
@given(digest=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
       fingerprint=st.text(alphabet="0123456789abcdef", min_size=1, max_size=64),
       path=st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=40))
def test_cache_keys_depend_on_every_part_and_leave_the_hasher_as_it_was(digest, fingerprint, path):
    from irilint.cache import cache_key, key_hasher

    hasher = key_hasher(fingerprint)
    key = cache_key(hasher, digest, path)
    # The settings' hasher is kept for every file: a key never changes it.
    assert key == cache_key(hasher, digest, path) == cache_key(key_hasher(fingerprint), digest, path)
    assert len(key) == 64 and int(key, 16) >= 0
    other_digest = ("0" if digest[0] != "0" else "1") + digest[1:]
    assert key != cache_key(hasher, other_digest, path)
    assert key != cache_key(key_hasher(fingerprint + "0"), digest, path)
    assert key != cache_key(hasher, digest, path + "x")
