"""The per-reference shortcuts of the default rules (issue 18) change nothing.

Each shortcut has a module flag that turns it off; with it off the plain
way runs, and a check of the same documents must give the same findings
(every field, related locations included), the same project facts
(places, lines, partners), errors, counts and run state:

* ``engine.FAST_MEMO``: the fast path asked once per distinct value of a
  document (its match shared by the repeats), a bounded memo;
* ``lookalike.collisions.SHORTCUTS``: confusable-collision's hosts read
  by group number with a repeated host counted through its entry, and one
  place per host shared by the check (its run-state line) and the collect
  step (its fact);
* ``host.HOST_SHORTCUT``: dns-label-syntax passes a fast-path reference
  whose host is clean by the host alone.

Documents are generated: many hosts, look-alike and IDN hosts (Unicode,
``xn--``, percent-encoded), repeated hosts in several spellings, bad DNS
labels, suppressions, in every format the collision rule reads, checked
one after another with one run state (as a process checks a project).
"""
from __future__ import annotations

import json
from typing import Any, List, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from irilint import engine as engine_module
from irilint.config import Settings
from irilint.engine import Engine
from irilint.rules import host as host_module
from irilint.rules.lookalike import collisions as collisions_module
from irilint.rules.project_rules import reduce_documents

#: Labels that collide with each other (Latin, Cyrillic, mixed, digits),
#: IDN labels in each spelling, and labels DNS refuses.
LABELS = (
    "paypal", "раураl", "pаypal", "paypa1", "PayPal", "xn--80aa0cbo65f",
    "apple", "аррӏе", "xn--80ak6aa92e", "bücher", "xn--bcher-kva", "b%C3%BCcher",
    "%D1%80%D0%B0%D1%83%D1%80%D0%B0l", "example", "exa\u200bmple", "ｅｘａｍｐｌｅ",
    "-shop", "shop-", "ab--cd", "a" * 64, "a" * 63, "docs", "www", "",
)
TLDS = ("com", "org", "com.", "example", "test", "ру")
SCHEMES = ("http://", "https://", "ftp://", "foo://", "//", "mailto:x@", "HTTP://")
TAILS = ("", "/", "/a/b", "?q=1", "#top", "/p?x#y", ":8080/", "/./a")

#: How a line of each format writes a reference (the collision rule reads
#: the references of every scanner).
LINE_OF_FORMAT = {
    "doc.txt": "see {} here",
    "doc.md": "[x]({}) and <{}>",
    "doc.html": '<a href="{}">x</a>',
    "doc.ttl": "<{}> <http://example.org/p> <{}> .",
    "doc.rst": "`x <{}>`_",
    "doc.xml": '<link href="{}"/>',
}
SUPPRESSIONS = (
    "<!-- irilint: ignore[IRI205] -->",
    "# irilint: ignore[confusable-collision]",
    "irilint: ignore[IRI505]",
    "# irilint: ignore-file[IRI205]",
)


@st.composite
def hosts(draw: Any) -> str:
    labels = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=3))
    if draw(st.booleans()) and len(labels) == 1:
        labels = labels * draw(st.integers(2, 45))  # long names, many past 253 octets
    return ".".join(labels) + "." + draw(st.sampled_from(TLDS))


@st.composite
def references(draw: Any, pool: Sequence[str]) -> str:
    return draw(st.sampled_from(SCHEMES)) + draw(st.sampled_from(pool)) + draw(st.sampled_from(TAILS))


@st.composite
def projects(draw: Any) -> List[Tuple[str, str]]:
    """Documents (path, text) that share a pool of hosts."""
    pool = draw(st.lists(hosts(), min_size=1, max_size=8))
    out = []
    for n in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(sorted(LINE_OF_FORMAT) + ["doc.json"]))
        refs = draw(st.lists(references(pool), min_size=0, max_size=25))
        if name == "doc.json":
            text = json.dumps({"links": refs}, ensure_ascii=draw(st.booleans()), indent=1)
        else:
            lines = []
            for ref in refs:
                if draw(st.integers(0, 6)) == 0:
                    lines.append(draw(st.sampled_from(SUPPRESSIONS)))
                lines.append(LINE_OF_FORMAT[name].replace("{}", ref))
            text = draw(st.sampled_from(("\n", "\r\n"))).join(lines)
        out.append(("d%d/%s" % (n, name), text))
    return out


def _finding(f: Any) -> Tuple[Any, ...]:
    return (f.rule.name, f.severity, f.message, f.start, f.end, f.ref_start, f.ref_end, f.iri, f.path,
            tuple(f.related), tuple((x.title, x.safe, tuple(x.edits)) for x in f.fixes))


def _run(documents: Sequence[Tuple[str, str]], settings: Any) -> Tuple[Any, ...]:
    """Everything a check of the documents, one after another with one run
    state, shows: per document its findings, facts, errors and counts;
    then the findings across documents and the run state."""
    engine = Engine()
    state: dict = {}
    shown = []
    collected = []
    for path, text in documents:
        result = engine.check_text(text, path=path, settings=settings, run_state=state)
        shown.append(([_finding(f) for f in result.findings], result.facts, result.errors,
                      result.references, result.suppressed))
        collected.append((path, result.facts))
    across = {n: [(_finding(pf.finding), pf.place) for pf in found]
              for n, found in reduce_documents(collected).items()}
    editor = {n: [(_finding(pf.finding), pf.place) for pf in found]
              for n, found in reduce_documents(collected, every_document=True).items()}
    return shown, across, editor, state


SETTINGS = (
    None,
    Settings(protected_domains=("paypal.com", "apple.com")),
    Settings(well_known_domains=True),
)

FLAGS = {
    "fast memo": [(engine_module, "FAST_MEMO")],
    "collision shortcuts": [(collisions_module, "SHORTCUTS")],
    "host shortcut": [(host_module, "HOST_SHORTCUT")],
}
FLAGS["all"] = [flag for flags in list(FLAGS.values()) for flag in flags]


def _same_with_and_without(monkeypatch: Any, flags: Any, documents: Any, settings: Any) -> None:
    for module, name in flags:
        monkeypatch.setattr(module, name, True)
    fast = _run(documents, settings)
    for module, name in flags:
        monkeypatch.setattr(module, name, False)
    plain = _run(documents, settings)
    assert fast == plain


@pytest.mark.parametrize("flag", sorted(FLAGS))
@pytest.mark.parametrize("settings_index", range(len(SETTINGS)))
@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=projects())
def test_shortcuts_give_the_plain_results(monkeypatch: Any, flag: str, settings_index: int,
                                          documents: Any) -> None:
    _same_with_and_without(monkeypatch, FLAGS[flag], documents, SETTINGS[settings_index])


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=projects(), kept=st.integers(1, 3))
def test_fast_memo_bounded_gives_the_plain_results(monkeypatch: Any, documents: Any, kept: int) -> None:
    """A memo cleared every few values (a document with more distinct
    values than it keeps) still gives each reference its own match."""
    monkeypatch.setattr(engine_module, "_FAST_KEPT", kept)
    _same_with_and_without(monkeypatch, FLAGS["fast memo"], documents, SETTINGS[1])


def test_collisions_found_in_a_known_document(monkeypatch: Any) -> None:
    """The generated documents do hold what the shortcuts must keep: a
    collision within a document, one across documents (each with its
    place and line), and a bad DNS label."""
    docs = [("a.md", "[x](https://paypal.com/)\n\n[y](https://раураl.com/a)\n"
                     "[z](https://paypal.com/b) <https://-shop.com/>\n"),
            ("b.txt", "see http://docs.раураl.com/ and\nhttps://pаypal.com/ here")]
    for flags_on in (True, False):
        for module, name in FLAGS["all"]:
            monkeypatch.setattr(module, name, flags_on)
        shown, across, _editor, state = _run(docs, None)
        codes = [f[0] for f in shown[0][0]]
        assert codes.count("confusable-collision") == 1 and "dns-label-syntax" in codes
        facts = shown[0][1]["confusable-collision"].facts
        hosts = {h.identity: (h.line, h.place.line, h.place.column) for h in facts}
        assert hosts["paypal.com"] == (1, 1, 13) and hosts["раураl.com"] == (3, 3, 13)
        skeleton = facts[0].skeleton
        assert state["lookalike.confusable-collision"][skeleton]["раураl.com"] == ("раураl.com", "a.md", 3)
        # b.txt: a host of a.md's skeleton under another name, across files
        assert [f[0][0] for f in across[1]] == ["confusable-collision"]
        assert [f[0] for f in shown[1][0]].count("confusable-collision") == 1


def test_a_checked_document_is_freed_without_a_garbage_collection(monkeypatch: Any) -> None:
    """Nothing the collision rule shares between its check and its collect
    step refers back to the document's context: a cycle there kept every
    reference of every document alive until the cycle collector ran (a
    CLI run a quarter slower)."""
    import gc
    import weakref

    from irilint.rules import context as context_module

    made: List[Any] = []
    init = context_module.DocContext.__init__

    def recording_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(weakref.ref(self))

    monkeypatch.setattr(context_module.DocContext, "__init__", recording_init)
    text = "[x](https://paypal.com/) [y](https://раураl.com/a)\n<https://-shop.com/> https://paypal.com/b\n"
    gc.disable()
    try:
        result = Engine().check_text(text, path="a.md", settings=SETTINGS[1], run_state={})
        assert result.findings and result.facts
        assert made and all(ref() is None for ref in made)
    finally:
        gc.enable()
