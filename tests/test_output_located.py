"""Findings located as they are printed: the printer of ``irilint check``
writes a fresh result's findings from the file's line index, one at a
time, and its bytes are those written from a whole list of ``Reported``
findings with the table of their fixes' positions (what a worker sends,
and what the reference builders ``to_json_obj`` and ``sarif_log`` take).
The objects made per finding and per reference have slots, and pickle."""
from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import io
import json
import pickle
import sys

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint import __version__
from irilint.cli.check import _Printer
from irilint.findings import Edit, Finding, Fix, Related, Severity
from irilint import output
from irilint.output import Reported, dumps_json, locate, sarif_log, to_json_obj
from irilint.project import FileResult, Options, Positions, Project
from irilint.runner import Progress
from irilint.scanners.base import Candidate

#: pieces of documents with findings (bad escapes, mixed directions,
#: look-alikes, fixes), non-BMP characters and every kind of line end
_PIECES = ["text http://example.com/\u05e2\u05d1\u05e8%zz and more", "see http://ex\u0430mple.com/a%zz ",
           "<http://b.example/\U0001f600%zz>", "\U0001f600\U0001d400 prose ", "HTTP://Example.COM/%7euser ",
           "[a](http://example.com/a b) ", "http://x.example/\u202eevil ", "plain words ", "\n", "\r\n", "\r",
           "\u00e9\u0301 ", "http://example.com/%e2%80%ae "]
_documents = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=25).map("".join)


def _args(fmt, **more):
    base = dict(format=fmt, statistics=False, output_file=None, fix=False, diff=False, show_fixes=False,
                quiet=False, exit_zero=False)
    base.update(more)
    return argparse.Namespace(**base)


def _printed(results, fmt, **more):
    """What ``irilint check`` prints for ``results``: (stdout, stderr, exit status)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        printer = _Printer(_args(fmt, **more), False, Progress(enabled=False))
        for r in results:
            printer.add(r)
        status = printer.finish()
    finally:
        sys.stdout, sys.stderr = saved
    return out.getvalue(), err.getvalue(), status


_PROJECT = None


def _outcome(text, path="doc.md"):
    global _PROJECT
    if _PROJECT is None:
        _PROJECT = Project(Options(paths=[path]))
    return _PROJECT.outcome(path, text, _PROJECT.settings(path))


def _with_list(o):
    """``o`` as a result held the whole list of its located findings and
    the table of its fixes' positions (the output before located findings
    were made as they are printed)."""
    listed = copy.copy(o)
    if isinstance(o.reported, output.Located):
        findings, index = o.reported.findings, o.reported.index
        listed.reported = locate(o.path, findings, index)
        listed.index = Positions(index, findings)
    return listed


FORMATS = ["json", "sarif", "text", "github"]


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents, st.sampled_from(FORMATS), st.booleans())
def test_findings_located_as_they_are_printed_print_what_a_whole_list_prints(text, fmt, show_fixes):
    o = _outcome(text)
    assert _printed([o], fmt, show_fixes=show_fixes) == _printed([_with_list(o)], fmt, show_fixes=show_fixes)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_documents, min_size=1, max_size=3))
def test_the_json_and_sarif_output_are_the_reference_builders(texts):
    results = [_outcome(t, "d%d.md" % n) for n, t in enumerate(texts)]
    listed = [_with_list(o) for o in results]
    reported = [r for o in listed for r in o.reported]
    indexes = {o.path: o.index for o in listed}
    out, _, _ = _printed(results, "json")
    assert out == dumps_json([to_json_obj(r, indexes[r.path]) for r in reported]) + "\n"
    out, _, _ = _printed(results, "sarif")
    assert out == json.dumps(sarif_log(reported, indexes, __version__), ensure_ascii=False, indent=2) + "\n"


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents, st.sampled_from(FORMATS))
def test_a_result_sent_by_a_worker_prints_what_the_result_in_process_prints(text, fmt):
    o = _outcome(text)
    sent = pickle.loads(pickle.dumps(o))
    # it travels with its positions, not with the file's text
    assert isinstance(sent.reported, list) and isinstance(sent.index, Positions)
    assert _printed([sent], fmt) == _printed([o], fmt)
    assert _printed([o, sent], "text", statistics=True) == _printed(
        [_with_list(o), sent], "text", statistics=True)


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents)
def test_a_settled_result_is_the_whole_list(text):
    o = _outcome(text)
    want = _with_list(o)
    o.settle()
    assert o.reported == want.reported and o.index.table == want.index.table
    assert _printed([o], "sarif") == _printed([want], "sarif")


def test_located_findings_read_like_the_list():
    o = _outcome("a http://example.com/\u05e2\u05d1\u05e8%zz b\r\nc http://example.com/%zz\rd\n")
    lazy, listed = o.reported, _with_list(o).reported
    assert isinstance(lazy, output.Located) and len(lazy) == len(listed) > 2 and lazy
    assert list(lazy) == listed and lazy == listed and lazy[1] == listed[1] and lazy[1:] == listed[1:]
    assert lazy[-1] == listed[-1]


def test_a_result_printed_at_once_holds_no_list_of_located_findings():
    # A dense document's findings are located one at a time as they are
    # written: no Reported object outlives the check, nor a table of
    # every fix edit's position.
    line = "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here " * 4 + "\n"
    o = _outcome(line * 200, "dense-held.md")
    gc.collect()
    assert len(o.reported) == 1600
    assert not [x for x in gc.get_objects() if type(x) is Reported and x.path == "dense-held.md"]
    assert not isinstance(o.index, Positions)


def test_held_results_and_collected_results_are_settled(tmp_path):
    from irilint.runner import check_files

    (tmp_path / "a.md").write_text("see http://example.com/%zz\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("none here\n", encoding="utf-8")
    results = check_files(Project(Options(paths=[str(tmp_path)], jobs=1)), [str(tmp_path)])
    found = [o for o in results if o.reported]
    assert found and all(isinstance(o.reported, list) and isinstance(o.index, Positions) for o in found)


# -- slots -------------------------------------------------------------------

def _samples():
    from irilint.rules.registry import all_rules

    rule = all_rules()[0]
    edit = Edit(3, 5, "x")
    fix = Fix("t", (edit, Edit(7, 7, "")), True)
    rel = Related("there", 1, 2, 1, 4, "b.md", 3, 5)
    finding = Finding(rule, Severity.WARNING, "m", 3, 5, [fix], 1, 9, "iri", "a.md", [rel])
    return [edit, fix, rel, finding, Reported("a.md", finding, 1, 4, 1, 6, "line"),
            Candidate(1, 9, "http://x", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "angle", True, False, {3: 4})]


@pytest.mark.parametrize("obj", _samples(), ids=lambda o: type(o).__name__)
def test_objects_made_per_finding_and_reference_have_slots(obj):
    # dataclass has slots from Python 3.10 on; before, the same classes
    # keep a __dict__
    assert hasattr(obj, "__dict__") is (sys.version_info < (3, 10))


@pytest.mark.parametrize("obj", _samples(), ids=lambda o: type(o).__name__)
def test_objects_made_per_finding_and_reference_pickle_copy_and_replace(obj):
    again = pickle.loads(pickle.dumps(obj))
    assert again == obj and again is not obj and type(again) is type(obj)
    if not isinstance(obj, Candidate):  # a worker sends these: rebuilt from their fields, not a generic state
        rebuild, fields = obj.__reduce_ex__(pickle.DEFAULT_PROTOCOL)[:2]
        assert rebuild is type(obj) and fields == tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
    assert copy.deepcopy(obj) == obj and copy.copy(obj) == obj
    first = dataclasses.fields(obj)[0].name
    assert dataclasses.replace(obj) == obj
    assert getattr(dataclasses.replace(obj, **{first: getattr(obj, first)}), first) == getattr(obj, first)


def test_settable_fields_are_still_settable():
    finding, cand = _samples()[3], _samples()[5]
    finding.related = []
    cand.template = False
    assert finding.related == [] and cand.template is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        _samples()[0].start = 1  # type: ignore[misc]


# -- the engine's copies of a repeated reference ----------------------------

def test_a_repeated_reference_s_findings_share_their_moved_offsets():
    from irilint.engine import Engine

    piece = "text http://example.com/\u05e2\u05d1\u05e8%zz and more prose here\n"
    findings = Engine().check_text(piece * 50).findings
    last = [f for f in findings if f.ref_start > 1000][-4:]
    offsets = {}
    for f in last:
        for value in [f.start, f.end, f.ref_start, f.ref_end] + [o for fx in f.fixes for e in fx.edits
                                                                 for o in (e.start, e.end)]:
            assert offsets.setdefault(value, value) is value  # one int object per offset


_offsets = st.integers(0, 400)
_edits = st.builds(Edit, _offsets, _offsets, st.text(max_size=3))
_fixes = st.builds(Fix, st.text(max_size=5), st.lists(_edits, max_size=3).map(tuple), st.booleans())


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_offsets, _offsets, st.lists(_fixes, max_size=2), _offsets, _offsets), max_size=4),
       st.integers(-400, 400))
def test_moving_a_reference_s_findings_moves_each_as_replace_would(spans, delta):
    from irilint.reference_memo import shifted_all
    from irilint.rules.registry import all_rules

    rule = all_rules()[0]
    found = [Finding(rule, Severity.ERROR, "m", a, b, fixes, rs, re_, "iri", "p.md") for a, b, fixes, rs, re_ in spans]
    want = [dataclasses.replace(f, start=f.start + delta, end=f.end + delta, ref_start=f.ref_start + delta,
                                ref_end=f.ref_end + delta,
                                fixes=[Fix(fx.title, tuple(Edit(e.start + delta, e.end + delta, e.new_text)
                                                           for e in fx.edits), fx.safe) for fx in f.fixes])
            for f in found]
    assert shifted_all(found, delta) == want


def test_located_is_the_generator_of_locate():
    from irilint.lines import LineIndex

    o = _outcome("x http://example.com/%zz\r\ny \U0001f600 http://example.com/%zz\n")
    findings, index = o.reported.findings, LineIndex(o.reported.index.text)
    assert list(output.located(o.path, findings, index)) == locate(o.path, findings, index)


def test_an_empty_result_holds_a_table_not_the_text():
    o = _outcome("nothing to see\n")
    assert o.reported == [] and isinstance(o.index, Positions) and o.index.table == {}
    assert isinstance(FileResult("x").reported, list)


def test_a_printed_result_is_not_held_while_the_next_file_is_checked(tmp_path, monkeypatch):
    # The printer takes each result as it comes: neither the runner nor the
    # check command keeps the one printed while the next file is checked.
    import weakref

    import irilint.runner as runner

    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text("see http://example.com/%zz and http://example.com/%zz\n", encoding="utf-8")
    refs, alive = [], []
    check_path = runner.check_path

    def spying(*args, **kwargs):
        gc.collect()
        alive.append([r() is not None for r in refs])
        return check_path(*args, **kwargs)

    monkeypatch.setattr(runner, "check_path", spying)
    for o in runner.stream_files(Project(Options(paths=[str(tmp_path)], jobs=1)), [str(tmp_path)]):
        assert o.reported
        refs.append(weakref.ref(o))
        del o
    assert alive == [[], [False], [False, False]]


def test_the_references_contexts_are_not_held_while_the_findings_are_merged_and_sorted(monkeypatch):
    import irilint.engine as engine
    from irilint.rules.context import RefContext

    alive = []
    merge = engine.merge_same_characters

    def spying(findings):
        gc.collect()
        alive.append(sum(1 for o in gc.get_objects() if type(o) is RefContext))
        return merge(findings)

    monkeypatch.setattr(engine, "merge_same_characters", spying)
    piece = "text http://example.com/\u05e2\u05d1\u05e8%zz and http://example.com/%zz\n"
    for lines in (30, 300):
        assert len(engine.Engine().check_text(piece * lines).findings) > 2 * lines
    # none per reference (a rule's count of findings may keep the one it
    # was counting on, and other checks theirs)
    assert alive[0] == alive[1] < 60
