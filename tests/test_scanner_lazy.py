"""The text, Markdown, reST, HTML, XML, Turtle, JSON, YAML, TOML and code scanners yield their candidates as they are
asked for (a 10 MB document is not scanned ahead of its check), and what
they yield is what the list-building scan gave."""
from __future__ import annotations

import itertools
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "fuzz"))

from fuzz_strategies import embedded, noisy_text  # noqa: E402

import irilint.scanners.text as text_scanner  # noqa: E402
from irilint.scanners import get_scanner  # noqa: E402
from irilint.scanners._common import finalize  # noqa: E402
from irilint.scanners.markdown import _Blocks, _scan_paragraph, iter_markdown  # noqa: E402
from irilint.scanners.text import find_iris, iter_iris  # noqa: E402
from irilint.scanners.turtle import FAST_SKIP, _scan_turtle  # noqa: E402
from irilint.scanners.data import scan_json, scan_toml, scan_yaml  # noqa: E402
from irilint.scanners.html import scan_markup  # noqa: E402
from irilint.scanners.rst import scan_rst  # noqa: E402
from irilint.scanners.code import LANGUAGES, scan_code  # noqa: E402


def listed_markdown(text):
    """The scan as it was built before it yielded: every code block, then
    every paragraph, into one list, sorted and cleaned by ``finalize``."""
    blocks = _Blocks(text)
    out = []
    for lo, hi in blocks.code:
        out.extend(find_iris(text, lo, hi, "code"))
    for lo, hi in blocks.paragraphs:
        _scan_paragraph(text, lo, hi, out)
    return finalize(out)


def spans(cands):
    return [(c.start, c.end, c.value, c.context, c.offsets) for c in cands]


@hsettings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(embedded("markdown"), noisy_text()), min_size=1, max_size=6).map("\n".join))
def test_markdown_stream_is_the_listed_scan(text):
    assert spans(iter_markdown(text)) == spans(listed_markdown(text))
    assert spans(get_scanner("markdown").scan(text)) == spans(listed_markdown(text))


@hsettings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(embedded("text"), noisy_text()), min_size=1, max_size=6).map("\n".join))
def test_text_stream_is_the_listed_scan(text):
    assert spans(get_scanner("text").scan(text)) == spans(find_iris(text))


@hsettings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(embedded("turtle"), noisy_text()), min_size=1, max_size=6).map("\n".join))
def test_turtle_stream_is_the_listed_scan(text):
    assert spans(get_scanner("turtle").scan(text)) == spans(_scan_turtle(text, FAST_SKIP))


LISTED = {"json": scan_json, "yaml": scan_yaml, "toml": scan_toml,
          "html": scan_markup, "xml": lambda text: scan_markup(text, xml=True), "rst": scan_rst,
          "python": lambda text: scan_code(text, LANGUAGES["python"]),
          "c": lambda text: scan_code(text, LANGUAGES["c"]),
          "shellscript": lambda text: scan_code(text, LANGUAGES["shellscript"])}


@hsettings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(LISTED)).flatmap(
    lambda fmt: st.tuples(st.just(fmt), st.lists(st.one_of(embedded(fmt), noisy_text()), min_size=1,
                                                 max_size=6).map("\n".join))))
def test_markup_and_data_streams_are_the_listed_scans(doc):
    fmt, text = doc
    assert spans(get_scanner(fmt).scan(text)) == spans(LISTED[fmt](text))


class _CountingSearch:
    """Stands for the scanner's colon regex, counting the searches made."""

    def __init__(self, rx):
        self.rx = rx
        self.calls = 0

    def search(self, *args):
        self.calls += 1
        return self.rx.search(*args)


@pytest.fixture
def colon_searches(monkeypatch):
    counting = _CountingSearch(text_scanner._COLON_RX)
    monkeypatch.setattr(text_scanner, "_COLON_RX", counting)
    return counting


LINES = {
    "text": "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here ",
    "markdown": "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here ",
    "markdown-links": "see [x](http://a.example/) and http://example.com/%zz ",
    "markdown-code": "```\nhttp://a.example/\n```\n\nhttp://b.example/ and `http://c.example/`\n\n",
    "json": '{"url": "http://a.example/", "note": "see http://b.example/"} // http://c.example/\n',
    "yaml": "url: http://a.example/ # http://c.example/\nname: 'see http://b.example/'\n",
    "toml": "url = 'http://a.example/' # http://c.example/\nname = \"see http://b.example/\"\n",
    "html": '<p>see http://b.example/ <a href="http://a.example/">x</a><!-- http://c.example/ --></p>\n',
    "xml": '<r a="http://a.example/">see http://b.example/<!-- http://c.example/ --></r>\n',
    "rst": "see `x <http://a.example/>`_ and http://b.example/ here\n\n.. _t: http://c.example/\n\n",
    "python": "u = 'http://a.example/'  # see http://b.example/\n",
    "turtle": "<http://a.example/s> <http://a.example/p> \"see http://b.example/\" . # http://c.example/\n",
}


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(LINES)), st.integers(1, 20))
def test_taking_the_first_candidates_does_not_scan_the_rest(colon_searches, kind, taken):
    """A few searches per candidate taken (one per stretch of text read
    to find it), not one per colon of the document (2,000 lines of them)."""
    text = LINES[kind] * 2000
    scanner = get_scanner(kind.split("-")[0])
    colon_searches.calls = 0
    first = list(itertools.islice(scanner.scan(text), taken))
    assert len(first) == taken
    assert colon_searches.calls <= 3 * taken + 4


def test_iter_iris_is_lazy(colon_searches):
    found = iter_iris("http://a.example/ " * 10_000)
    colon_searches.calls = 0
    assert next(found).value == "http://a.example/"
    assert colon_searches.calls == 1
