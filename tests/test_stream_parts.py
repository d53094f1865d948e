"""The parts of the streamed output, each equal to the slow path it
replaces: JSON rendered a value at a time, the SARIF log around its
streamed results, the output file written in pieces, and the project
rules' word on which documents a run's reduction can reach."""
from __future__ import annotations

import json
import os
from dataclasses import replace

from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint.engine import Engine
from irilint.fileio import AtomicTextOutput, write_file_atomic
from irilint.output import JsonArrayWriter, dumps_json, json_text, sarif_descriptors, sarif_skeleton
from irilint.config import Settings
from irilint.rules.collisions import for_cache
from irilint.rules.project_rules import may_receive_findings, reduce_documents

_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(),
                     st.floats(allow_nan=False, allow_infinity=False))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)), max_leaves=25)


@hsettings(max_examples=300, deadline=None)
@given(_values, st.integers(min_value=0, max_value=4))
def test_json_text_is_what_json_dumps_writes_at_that_depth(value, depth):
    nested = value
    for _ in range(depth):
        nested = [nested]
    whole = json.dumps(nested, ensure_ascii=False, indent=2)
    indent = "  " * depth
    # the value sits on its own line at that depth, after the brackets
    assert whole == "".join("[\n" + "  " * (k + 1) for k in range(depth)) + json_text(value, indent) + "".join(
        "\n" + "  " * k + "]" for k in reversed(range(depth)))


class _Sink:
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)


@hsettings(max_examples=200, deadline=None)
@given(st.lists(_values, max_size=6))
def test_an_array_written_item_by_item_is_the_dumped_list(items):
    sink = _Sink()
    writer = JsonArrayWriter(sink)
    for item in items:
        writer.add(item)
    writer.close()
    assert "".join(sink.parts) == dumps_json(items)


def test_the_sarif_results_sit_where_the_streamed_writer_puts_them():
    from irilint.cli.check import _SARIF_RESULTS_DEPTH

    results = [{"ruleId": "IRI401", "message": {"text": "a\nb"}}, {"ruleId": "IRI103", "fixes": []}]
    log = sarif_skeleton(sarif_descriptors(), "1.0")
    log["runs"][0]["results"] = results
    sink = _Sink()
    writer = JsonArrayWriter(sink, _SARIF_RESULTS_DEPTH)
    for r in results:
        writer.add(r)
    writer.close()
    skeleton = json.dumps(sarif_skeleton(sarif_descriptors(), "1.0"), ensure_ascii=False, indent=2)
    at = skeleton.rindex('"results": []') + len('"results": ')
    assert skeleton[:at] + "".join(sink.parts) + skeleton[at + 2:] == json.dumps(
        log, ensure_ascii=False, indent=2)


_pieces = st.lists(st.sampled_from(["a", "\u00e9\n", "\n", "\U0001f600", "\udc80", "\udcff\n", "\ud800",
                                    "\udfff x\n", "plain text "]), max_size=12)


@hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_pieces)
def test_an_output_file_written_in_pieces_is_the_whole_text_written_at_once(tmp_path_factory, pieces):
    folder = tmp_path_factory.mktemp("out")
    text = "".join(pieces)
    try:  # what the check command wrote of the whole text
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = text.encode("utf-8", "backslashreplace")
    write_file_atomic(str(folder / "whole"), data)
    out = AtomicTextOutput(str(folder / "pieces"))
    for piece in pieces:
        out.write(piece)
    out.commit()
    assert (folder / "pieces").read_bytes() == (folder / "whole").read_bytes()
    assert sorted(os.listdir(folder)) == ["pieces", "whole"]


def test_a_discarded_output_file_leaves_nothing(tmp_path):
    (tmp_path / "out").write_text("old", encoding="utf-8")
    out = AtomicTextOutput(str(tmp_path / "out"))
    out.write("new")
    out.discard()
    assert os.listdir(tmp_path) == ["out"] and (tmp_path / "out").read_text(encoding="utf-8") == "old"


CYRILLIC_PAYPAL = "\u0440\u0430\u0443\u0440\u0430l.com"
HOSTS = ["example.com", "ex\u0430mple.com", "\u0435x\u0430mple.com", "paypal.com", CYRILLIC_PAYPAL,
         "EXAMPLE.com", "other.org", "xn--80ak6aa92e.com"]
_line = st.one_of(
    st.sampled_from(["", "plain prose", "<!-- irilint: ignore confusable-collision -->"]),
    st.tuples(st.sampled_from(HOSTS), st.sampled_from(["", "x"])).map(lambda t: "see http://%s/%s" % t),
)
_documents = st.lists(st.lists(_line, min_size=1, max_size=5).map("\n".join), min_size=1, max_size=5)
_engine = Engine()


@hsettings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(_documents, st.booleans())
def test_a_run_reduction_reaches_only_documents_the_rules_say_it_may(texts, cached):
    # A document may_receive_findings says no to is written before the
    # reduction: no project finding may land on it, fresh facts or cached.
    documents = []
    for n, text in enumerate(texts):
        facts = _engine.check_text(text, path="d%d.md" % n, settings=Settings()).facts
        if cached:
            facts = {name: replace(c, facts=tuple(map(for_cache, c.facts))) for name, c in facts.items()}
        documents.append(("d%d.md" % n, facts))
    for n, pfs in reduce_documents(documents).items():
        assert pfs and may_receive_findings(documents[n][1])


def _reported(draw_text, rule, severity, message, iri, spans, fixes, related, path):
    from irilint.findings import Edit, Finding, Fix, Related
    from irilint.output import Reported

    text = draw_text
    start, end = spans
    f = Finding(rule=rule, severity=severity, message=message, start=start, end=end, iri=iri,
                fixes=[Fix(title, tuple(Edit(a, b, new) for a, b, new in edits), safe) for title, edits, safe in fixes],
                related=[Related(m, ln, col, ln, col + 1 if col else 0, p) for m, ln, col, p in related])
    return text, Reported(path, f, 1, start + 1, 1, end + 1, text[:start])  # "" at times: no snippet


@st.composite
def _reported_findings(draw):
    from irilint.findings import Severity
    from irilint.rules.registry import all_rules

    text = draw(st.text(alphabet=st.sampled_from("ab \n\r\u05d0\U0001f600\"\\"), min_size=1, max_size=30))
    n = len(text)
    offset = st.integers(min_value=0, max_value=n)
    edit = st.tuples(offset, offset, st.text(max_size=6)).map(lambda e: (min(e[0], e[1]), max(e[0], e[1]), e[2]))
    fixes = st.lists(st.tuples(st.text(max_size=10), st.lists(edit, max_size=3), st.booleans()), max_size=3)
    related = st.lists(st.tuples(st.text(max_size=8), st.integers(1, 9), st.integers(0, 9),
                                 st.one_of(st.none(), st.text(max_size=5))), max_size=2)
    a, b = draw(offset), draw(offset)
    return _reported(text, draw(st.sampled_from(all_rules())), draw(st.sampled_from(list(Severity))),
                     draw(st.text(max_size=20)), draw(st.text(max_size=20)), (min(a, b), max(a, b)),
                     draw(fixes), draw(related), draw(st.text(min_size=1, max_size=8)))


@hsettings(max_examples=300, deadline=None)
@given(_reported_findings(), st.sampled_from(["", "  ", "      "]), st.booleans())
def test_a_findings_json_record_written_straight_is_the_dumped_one(found, indent, with_index):
    from irilint.lines import LineIndex
    from irilint.output import finding_json_text, to_json_obj

    text, r = found
    index = LineIndex(text) if with_index else None
    assert finding_json_text(r, index, indent) == json_text(to_json_obj(r, index), indent)


@hsettings(max_examples=300, deadline=None)
@given(_reported_findings(), st.sampled_from(["", "        "]), st.booleans())
def test_a_sarif_result_written_straight_is_the_dumped_one(found, indent, with_index):
    from irilint.lines import LineIndex
    from irilint.output import sarif_result, sarif_result_text, sarif_rule_index

    text, r = found
    index = LineIndex(text) if with_index else None
    rule_index = sarif_rule_index()
    assert sarif_result_text(r, index, rule_index, indent) == json_text(sarif_result(r, index, rule_index), indent)
