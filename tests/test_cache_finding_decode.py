"""A cached finding is read by irilint.cache._finding_from_json, whose
checks are inlined for speed (a warm run reads thousands): it must accept
and refuse exactly what the plain reading below does, give equal findings,
and share equal texts and numbers between the findings of one entry."""
from __future__ import annotations

from typing import Any, Dict, Optional

from hypothesis import given, settings, strategies as st

from irilint.cache import _finding_from_json, _finding_to_json
from irilint.findings import Edit, Finding, Fix, Related, Severity
from irilint.rules.catalogue import CATALOGUE
from irilint.rules.registry import get_rule, registered_rule

#: what Cache.get turns into a miss
MISS = (ValueError, KeyError, TypeError, UnicodeError, AttributeError, IndexError)


def plain_finding_from_json(d: Dict[str, Any], path: Optional[str], rule_of: Any,
                            shared: Optional[Dict[Any, Any]] = None) -> Finding:
    """The reading before it was made fast: one check at a time."""
    rule = rule_of(d["rule"])
    if rule is None:
        raise ValueError("unknown rule")
    share = (lambda s: s) if shared is None else (lambda s: shared.setdefault(s, s))  # noqa: E731
    fixes = []
    for title, safe, edits in d["fixes"]:
        if not isinstance(title, str) or not isinstance(safe, bool):
            raise ValueError("bad fix")
        fixes.append(Fix(share(title), tuple(Edit(share(int(s)), share(int(e)), share(str(t))) for s, e, t in edits),
                         safe))
    for k in ("start", "end", "ref_start", "ref_end"):
        if not isinstance(d[k], int) or d[k] < 0:
            raise ValueError("bad offset")
    if not isinstance(d["message"], str) or not isinstance(d["iri"], str):
        raise ValueError("bad text")
    related = []
    for message, line, column, end_line, end_column, where, start, end in d.get("related", ()):
        if not isinstance(message, str) or not (where is None or isinstance(where, str)) or not all(
                isinstance(n, int) for n in (line, column, end_line, end_column, start, end)):
            raise ValueError("bad related location")
        related.append(Related(message, line, column, end_line, end_column, where, start, end))
    return Finding(rule=rule, severity=Severity.parse(d["severity"]), message=share(d["message"]),
                   start=share(d["start"]), end=share(d["end"]), fixes=fixes, ref_start=share(d["ref_start"]),
                   ref_end=share(d["ref_end"]), iri=share(d["iri"]), path=path, related=related)


def outcome(read: Any, d: Any) -> Any:
    try:
        f = read(d, "p.md", registered_rule, {})
    except MISS:
        return "miss"
    return (f.rule.name, f.severity, f.message, f.start, f.end, f.fixes, f.ref_start, f.ref_end, f.iri, f.path,
            f.related)


@st.composite
def findings(draw: Any) -> Finding:
    n = st.integers(0, 60)
    return Finding(get_rule(draw(st.sampled_from(sorted(CATALOGUE)))), draw(st.sampled_from(list(Severity))),
                   draw(st.text(max_size=8)), draw(n), draw(n),
                   [Fix(draw(st.text(max_size=5)), tuple(Edit(draw(n), draw(n), draw(st.text(max_size=3)))
                                                         for _ in range(draw(st.integers(0, 2)))), draw(st.booleans()))
                    for _ in range(draw(st.integers(0, 2)))],
                   draw(n), draw(n), draw(st.text(max_size=8)), "p.md",
                   [Related(draw(st.text(max_size=4)), 1, 2, 3, 4, draw(st.sampled_from([None, "q.md"])), -1, -1)
                    for _ in range(draw(st.integers(0, 1)))])


#: values a damaged entry may hold where another was written
odd_values = st.one_of(st.sampled_from([-1, -2, 0, 1, True, False, None, 1.5, "", "7", "x", " Error", "WARNING",
                                         "bad", "IRI001", "no-such-rule", "invalid-character"]),
                       st.lists(st.integers(-1, 3), max_size=3).map(list), st.just({}))


@st.composite
def finding_dicts(draw: Any) -> Dict[str, Any]:
    """What the cache wrote for a finding, then a few of its values (or
    those of its fixes, edits and related places) replaced or removed."""
    d = _finding_to_json(draw(findings()))
    if draw(st.booleans()):
        d["related"] = [[draw(st.text(max_size=3)), 1, 2, 3, 4, None, -1, -1]]
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.sampled_from(["top", "fix", "edit", "related", "delete"]))
        if where == "top":
            d[draw(st.sampled_from(sorted(d)))] = draw(odd_values)
        elif where == "delete":
            del d[draw(st.sampled_from(sorted(d)))]
        elif where == "fix" and isinstance(d.get("fixes"), list) and d["fixes"]:
            fix = d["fixes"][0]
            if isinstance(fix, list):
                fix[draw(st.integers(0, len(fix) - 1))] = draw(odd_values)
        elif where == "edit" and isinstance(d.get("fixes"), list) and d["fixes"]:
            fix = d["fixes"][0]
            if isinstance(fix, list) and len(fix) == 3 and isinstance(fix[2], list) and fix[2]:
                edit = fix[2][0]
                if isinstance(edit, list) and edit:
                    edit[draw(st.integers(0, len(edit) - 1))] = draw(odd_values)
        elif where == "related" and isinstance(d.get("related"), list) and d["related"]:
            row = d["related"][0]
            if isinstance(row, list) and row:
                row[draw(st.integers(0, len(row) - 1))] = draw(odd_values)
    return d


@settings(max_examples=1500, deadline=None)
@given(finding_dicts())
def test_reads_and_refuses_what_the_plain_reading_does(d):
    assert outcome(_finding_from_json, d) == outcome(plain_finding_from_json, d)


@settings(max_examples=200, deadline=None)
@given(st.lists(findings(), min_size=1, max_size=5))
def test_a_finding_reads_back_as_it_was_written_sharing_equal_values(found):
    shared: Dict[Any, Any] = {}
    back = [_finding_from_json(_finding_to_json(f), "p.md", registered_rule, shared) for f in found]
    assert back == found
    assert all(b.rule is f.rule for b, f in zip(back, found))
    for attr in ("message", "iri", "start", "end"):
        values = [getattr(b, attr) for b in back]
        for a in values:
            for b in values:
                assert a != b or a is b or type(a) is not type(b), attr


ODD_VALUES = [-1, -2, 0, 1, True, False, None, 1.5, "", "7", "x", " Error", "WARNING", "bad", "IRI001",
              "no-such-rule", "invalid-character", [], [1, 2], {}]


def _written() -> Dict[str, Any]:
    f = Finding(get_rule("invalid-character"), Severity.WARNING, "m", 3, 5,
                [Fix("t", (Edit(3, 4, "%20"),), True)], 1, 9, "http://a b/", "p.md",
                [Related("there", 1, 2, 1, 3, "q.md", -1, -1)])
    return _finding_to_json(f)


def _places(d: Dict[str, Any]) -> Any:
    """Where a value of ``d`` can be replaced: (container, index or key)."""
    for key in sorted(d):
        yield d, key
    for i in range(3):
        yield d["fixes"][0], i
    for i in range(3):
        yield d["fixes"][0][2][0], i
    for i in range(8):
        yield d["related"][0], i


def test_every_value_replaced_by_an_odd_one_reads_as_the_plain_reading_does():
    count = len(list(_places(_written())))
    for n in range(count + 1):  # (the last: a key removed)
        for odd in ODD_VALUES:
            d = _written()
            if n == count:
                for key in sorted(d):
                    d = _written()
                    del d[key]
                    assert outcome(_finding_from_json, d) == outcome(plain_finding_from_json, d), key
                break
            where, key = list(_places(d))[n]
            where[key] = odd
            assert outcome(_finding_from_json, d) == outcome(plain_finding_from_json, d), (n, key, odd)


def plain_row_ok(row: Any) -> bool:
    """A finding's located position as the plain reading took it."""
    return (type(row) is list and len(row) == 5 and all(isinstance(x, int) and x >= 1 for x in row[:4])
            and isinstance(row[4], str))


def test_a_located_position_is_taken_or_refused_as_the_plain_reading_does(tmp_path):
    import json

    from irilint.cache import Cache

    f = Finding(get_rule("invalid-character"), Severity.WARNING, "m", 3, 5, [], 1, 9, "http://a b/", "p.md")
    written = [1, 4, 1, 6, "see http://a b/"]
    for i in range(6):
        for odd in ODD_VALUES + ["text"]:
            row: Any = list(written)
            if i == 5:
                row = odd  # the whole row
            else:
                row[i] = odd
            cache = Cache(str(tmp_path))
            line = Cache.entry("k" * 64, "p.md", [f], {}, [row], {})
            cache._lines = {"k" * 64: line}
            hit = cache.get("k" * 64, "p.md")
            assert (hit is not None) == plain_row_ok(row), (i, odd, json.dumps(row))
            if hit is not None:
                assert hit[2][0] == [row]
