"""A cache entry with findings is written and read a finding at a time:
the bytes are those of ``json.dumps`` of the whole payload, a hit is what
parsing the whole payload gives, the findings of a hit share their texts,
and a cut or garbled entry is a miss, never an error."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from irilint.cache import Cache, _finding_from_json, _finding_to_json
from irilint.findings import Edit, Finding, Fix, Related, Severity
from irilint.rules.project_rules import decode_facts, encode_facts
from irilint.rules.registry import all_rules, get_rule

KEY = "cd" * 32
RULES = all_rules()[:6]

_texts = st.text(alphabet=st.sampled_from('ab"\\\t\n\u05d0\U0001f600], [{}, '), max_size=12)
_offsets = st.integers(0, 300)
_edits = st.builds(Edit, _offsets, _offsets, _texts)
_fixes = st.builds(Fix, _texts, st.lists(_edits, max_size=2).map(tuple), st.booleans())
_related = st.builds(Related, _texts, st.integers(1, 9), st.integers(0, 9), st.integers(1, 9), st.integers(1, 9),
                     st.none() | st.just("b.md"), st.integers(-1, 9), st.integers(-1, 9))
_findings = st.builds(
    lambda rule, sev, msg, a, b, fixes, rs, re_, iri, rel: Finding(
        rule, sev, msg, min(a, b), max(a, b), fixes, rs, re_, iri, "a.md", rel),
    st.sampled_from(RULES), st.sampled_from(list(Severity)), _texts, _offsets, _offsets,
    st.lists(_fixes, max_size=2), _offsets, _offsets, _texts, st.lists(_related, max_size=1))
_rows = st.tuples(st.integers(1, 50), st.integers(1, 50), st.integers(1, 50), st.integers(1, 50), _texts).map(list)


@st.composite
def _entries(draw):
    findings = draw(st.lists(_findings, min_size=1, max_size=6))
    located = [draw(_rows) for _ in findings]
    offsets = {o for f in findings for fx in f.fixes for e in fx.edits for o in (e.start, e.end)}
    edits = {o: (draw(st.integers(1, 50)), draw(st.integers(1, 50))) for o in sorted(offsets)}
    return findings, located, edits


def _whole_payload_entry(key, file, findings, facts, located, edits):
    """The entry as written from the whole payload at once."""
    payload = {"findings": [_finding_to_json(f) for f in findings], "facts": encode_facts(facts),
               "located": located, "edits": {str(k): list(v) for k, v in edits.items()}}
    return b"\t".join((key.encode("ascii"), json.dumps(file).encode("ascii"),
                       json.dumps(payload, ensure_ascii=False).encode("utf-8")))


def _whole_payload_read(line, path):
    payload = json.loads(line.split(b"\t", 2)[2].decode("utf-8"))
    findings = [_finding_from_json(d, path, get_rule) for d in payload["findings"]]
    edits = {int(k): (v[0], v[1]) for k, v in payload["edits"].items()}
    return findings, decode_facts(payload["facts"]), (payload["located"], edits)


def _get(line, path="a.md"):
    """The hit of ``line``, read item by item; read with one parse of its
    payload too (as a small entry is), it must be the same."""
    import irilint.cache as cache_module

    got = []
    saved = cache_module._WHOLE_PAYLOAD_BYTES
    for whole_up_to in (0, 1 << 30):
        cache_module._WHOLE_PAYLOAD_BYTES = whole_up_to
        try:
            cache = Cache("/nonexistent-cache-root")
            cache._lines = {KEY: line}
            got.append(cache.get(KEY, path))
        finally:
            cache_module._WHOLE_PAYLOAD_BYTES = saved
    item_by_item, whole = got
    assert whole == item_by_item or item_by_item is None  # the item walk also checks the layout
    return item_by_item


@settings(max_examples=200, deadline=None)
@given(_entries(), st.sampled_from(["a.md", "d\u00e9j\u00e0/x\ty.md"]))
def test_an_entry_written_a_finding_at_a_time_is_the_whole_payload_dumped(entry, file):
    findings, located, edits = entry
    made = Cache.entry(KEY, file, findings, {}, iter(located), edits)
    assert made == _whole_payload_entry(KEY, file, findings, {}, located, edits)


@settings(max_examples=200, deadline=None)
@given(_entries())
def test_an_entry_read_a_finding_at_a_time_is_the_whole_payload_parsed(entry):
    findings, located, edits = entry
    line = Cache.entry(KEY, "a.md", findings, {}, located, edits)
    got = _get(line)
    assert got == _whole_payload_read(line, "a.md")
    assert got[0] == findings and got[2] == (located, edits)


def test_the_findings_of_a_hit_share_their_texts():
    rule = RULES[0]
    message, title = "the path mixes \u05e2\u05d1\u05e8 and zz" + "!" * 50, "Percent-encode it" + "." * 40
    findings = [Finding(rule, Severity.WARNING, message, 10 * k, 10 * k + 3,
                        [Fix(title, (Edit(10 * k, 10 * k + 3, "%D7%A2"),), False)], 10 * k, 10 * k + 5,
                        "http://e.org/\u05e2\u05d1\u05e8", "a.md") for k in range(3)]
    located = [[1, 10 * k + 1, 1, 10 * k + 4, "one line of text " * 5] for k in range(3)]
    got, _, (rows, _) = _get(Cache.entry(KEY, "a.md", findings, {}, located, {}))
    assert got == findings
    first = got[0]
    for f in got[1:]:
        assert f.message is first.message and f.iri is first.iri
        assert f.fixes[0].title is first.fixes[0].title
        assert f.fixes[0].edits[0].new_text is first.fixes[0].edits[0].new_text
    assert all(row[4] is rows[0][4] for row in rows)


@settings(max_examples=300, deadline=None)
@given(_entries(), st.data())
def test_a_cut_or_garbled_entry_with_findings_is_a_miss(entry, data):
    findings, located, edits = entry
    whole = Cache.entry(KEY, "a.md", findings, {}, located, edits)
    cut = data.draw(st.integers(64 + 8, len(whole) - 1))
    junk = data.draw(st.binary(max_size=3))
    line = whole[:cut] + junk
    if line != whole:
        got = _get(line)  # never raises
        assert got is None or got == _whole_payload_read(line, "a.md")


def test_a_new_entry_is_kept_under_its_key_and_file():
    cache = Cache("/nonexistent-cache-root")
    rule = RULES[0]
    line = Cache.entry(KEY, "x\ty.md", [Finding(rule, Severity.ERROR, "m", 1, 2, [], 0, 3, "iri", "a.md")],
                       {}, [[1, 2, 1, 3, "t"]], {})
    cache.add(line)
    assert cache._new == {KEY: ('"x\\ty.md"', line)}
    cache.add(b"no tabs at all")
    cache.add(b"one\ttab")
    assert list(cache._new) == [KEY]


@settings(max_examples=200, deadline=None)
@given(_entries(), st.integers(1, 3))
def test_an_entry_read_and_written_in_small_chunks_is_the_whole_payload(entry, chunk):
    # A few items a chunk: every cut between items is met, after texts
    # holding what stands between items ('"], [', '}, {"rule": "') and
    # backslashes before a quote.
    import irilint.cache as cache_module

    findings, located, edits = entry
    saved = cache_module._ITEMS_A_WRITE
    cache_module._ITEMS_A_WRITE = chunk
    try:
        line = Cache.entry(KEY, "a.md", findings, {}, located, edits)
        got = _get(line)
    finally:
        cache_module._ITEMS_A_WRITE = saved
    assert line == _whole_payload_entry(KEY, "a.md", findings, {}, located, edits)
    assert got == _whole_payload_read(line, "a.md")


def test_texts_that_look_like_the_cuts_between_items_are_read_whole():
    import irilint.cache as cache_module

    rule = RULES[0]
    tricky = ['"], [', '\\"], [', '\\\\"], [', '}, {"rule": "', 'x\\', '"]], "edits": {', '], "facts": ']
    findings = [Finding(rule, Severity.WARNING, t, k, k + 1, [Fix(t, (Edit(k, k + 1, t),), True)], 0, 9, t, "a.md")
                for k, t in enumerate(tricky)]
    located = [[1, k + 1, 1, k + 2, t] for k, t in enumerate(tricky)]
    edits = {o: (1, o + 1) for o in range(len(tricky) + 1)}
    saved = cache_module._ITEMS_A_WRITE
    cache_module._ITEMS_A_WRITE = 1
    try:
        got = _get(Cache.entry(KEY, "a.md", findings, {}, located, edits))
    finally:
        cache_module._ITEMS_A_WRITE = saved
    assert got == (findings, {}, (located, edits))
