"""The fast fuzz targets (:mod:`targets`) in CI: each on its seeds, then a
short budget of mutated seeds (a few seconds a target, reproducible: the
mutations come from a seeded random generator), and the reproducers the
long atheris runs found, one test each.

The long run is by hand, with atheris: see ``run_targets.py`` and the README.
"""
from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import targets
from fuzz_profile import fuzz_settings
from irilint import convert

CRASHES = Path(__file__).resolve().parent / "crashes"
#: seconds of mutated inputs per target (IRILINT_FUZZ_TARGET_SECONDS to change)
BUDGET = float(os.environ.get("IRILINT_FUZZ_TARGET_SECONDS", "1.5"))


def _dictionary():
    tokens = []
    with open(targets.os.path.join(os.path.dirname(targets.__file__), "irilint.dict"), encoding="ascii") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                tokens.append(_unescape_token(line))
    return tokens


def _unescape_token(line: str) -> bytes:
    assert line.startswith('"') and line.endswith('"'), line
    body = line[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1] == "x":
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            out.append(ord(body[i + 1]))
            i += 2
            continue
        out.append(ord(body[i]))
        i += 1
    return bytes(out)


def _mutate(rng: random.Random, data: bytes, tokens) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(b))
        if op == 0:
            b[pos:pos] = rng.choice(tokens)
        elif op == 1 and b:
            del b[pos:pos + rng.randint(1, 8)]
        elif op == 2:
            b[pos:pos] = bytes([rng.randrange(256)])
        elif op == 3 and b:
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256)
        else:
            b[pos:pos] = b[rng.randint(0, len(b)):][:rng.randint(0, 16)]
    return bytes(b)


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_target_passes_on_its_seeds(name):
    seeds = targets.seeds(name)
    assert len(seeds) > 300  # the extracted references, the sample, the documents
    for seed in seeds:
        targets.run(name, seed)


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_target_short_budget(name):
    rng = random.Random(name)
    tokens = _dictionary()
    seeds = targets.seeds(name)
    deadline = time.monotonic() + BUDGET
    runs = 0
    while time.monotonic() < deadline or runs < 50:
        data = _mutate(rng, rng.choice(seeds), tokens)
        try:
            targets.run(name, data)
        except AssertionError as exc:
            raise AssertionError("input %r: %s" % (data, exc)) from None
        runs += 1


def test_the_dictionary_holds_the_tokens_that_matter():
    tokens = set(_dictionary())
    for token in (b"%", b"xn--", b"&#x", b"://", "\u202e".encode(), "\u3002".encode(), b"\\ud800"):
        assert token in tokens


def test_seeds_are_references_not_documents():
    lines = (Path(targets.__file__).parent / "seeds" / "references.txt").read_text("utf-8").splitlines()
    assert 200 <= len(lines) <= 1000
    assert all(0 < len(line) <= 300 for line in lines)


def test_a_broken_invariant_raises(monkeypatch):
    """A target must report a violation, not swallow it."""
    from irilint.lines import LineIndex

    monkeypatch.setattr(LineIndex, "offset", lambda self, line, column, encoding="utf-32": 0)
    with pytest.raises(AssertionError, match="lsp_positions"):
        targets.run("lsp_positions", b"ab\ncd")


# -- what the long runs found -------------------------------------------------


def _reproducer(name: str) -> bytes:
    return (CRASHES / name).read_bytes()


def test_to_iri_keeps_a_stray_percent_before_an_escaped_digit():
    """'%%32E': decoding '%32' to '2' made '%2E', which the next conversion
    decoded to '.', so to_iri was not idempotent and the stray '%' (which
    stands for '%25') was lost.  Found by the to_iri target."""
    targets.run("to_iri", _reproducer("to_iri-decoded-digit-after-stray-percent.bin"))
    assert convert.to_iri("%%32E") == "%%32E"
    assert convert.to_iri("%4%41") == "%4%41"
    assert convert.to_iri("a%2%45b") == "a%2%45b"
    assert convert.to_iri("%41%42") == "AB"  # escapes after complete escapes still decode


_HEXY = st.lists(st.sampled_from(["%", "%32", "%45", "%61", "%41", "2", "E", "a", "/", "%2E", "%25", "x"]),
                 max_size=12).map("".join)


@fuzz_settings(1)
@given(_HEXY)
def test_to_iri_is_idempotent_around_stray_percent_signs(uri):
    once = convert.to_iri(uri)
    assert convert.to_iri(once) == once
    # and keeps the URI: every '%' that starts no escape is still one
    assert len(re.findall(r"%(?![0-9A-Fa-f]{2})", once)) == len(re.findall(r"%(?![0-9A-Fa-f]{2})", uri))


def test_to_iri_decodes_no_escape_in_a_scheme():
    """'h%2EttNp://e.org/' has no valid scheme; decoding '%2E' made it the
    scheme 'h.ttNp', so the IRI was another reference (found by the
    to_iri target's CI budget)."""
    targets.run("to_iri", _reproducer("to_iri-escape-in-scheme.bin"))
    # the same, found by the long atheris run: "http%41:" became "httpA:"
    targets.run("to_iri", _reproducer("to_iri-escape-in-scheme-2.bin"))
    assert convert.to_iri("h%2EttNp://e.org/%C3%A9") == "h%2EttNp://e.org/\u00e9"


def test_to_iri_decodes_no_escape_that_would_make_an_a_label():
    """'xn--%33p1ai' decoded to the A-label 'xn--3p1ai', which a second
    to_iri decoded to its U-label: not idempotent (found by the to_iri
    target in a 60-second run).  Such a label keeps its escapes."""
    targets.run("to_iri", _reproducer("to_iri-escape-makes-an-a-label.bin"))
    assert convert.to_iri("http://xn--%33p1ai/") == "http://xn--%33p1ai/"
    assert convert.to_iri("http://%78n--p1ai.xn--p1ai/") == "http://%78n--p1ai.\u0440\u0444/"
    assert convert.to_iri("http://a%2Exn--p1ai/") == "http://a%2Exn--p1ai/"  # a dot would split it off
    assert convert.to_iri("http://%41b.xn--p1ai/%41") == "http://Ab.\u0440\u0444/A"  # other labels decode


_HOSTY = st.lists(st.sampled_from(["xn--", "%78", "n--", "%6E", "%2D", "-", "%33", "3", "p1ai", ".", "%2E",
                                   "a", "%41"]), max_size=10).map("".join)


@fuzz_settings(1)
@given(_HOSTY)
def test_to_iri_is_idempotent_on_hosts_with_escapes_and_a_labels(host):
    once = convert.to_iri("http://" + host + "/")
    assert convert.to_iri(once) == once


def test_uri_key_splits_host_labels_at_an_escaped_dot():
    """'//5555%F0%9F%98%805%2E5555%EF%BB%BF': to_iri decodes '%2E' in the
    host, so IDNA then maps '5555%EF%BB%BF' as a label of its own and drops
    the U+FEFF it ignores; the key split the host only at literal dots, so
    the two forms of one host got different keys.  The key now decodes the
    host's unreserved escapes first (found by the to_iri target's long run)."""
    from fuzz_strategies import uri_key

    targets.run("to_iri", _reproducer("to_iri-escaped-dot-in-host.bin"))
    assert uri_key("http://a%2Eexample/") == uri_key("http://a.example/")


def test_parser_reports_text_after_an_ip_literal():
    """'hthttp://[fd00tp]\\udc8bws/': the text after ']' is neither port nor
    host; the parser keeps it out of every sub-component and reports it as
    a problem spanning exactly that text (the iri target's first finding,
    a harness question, not a parser bug)."""
    targets.run("iri", _reproducer("iri-text-after-ip-literal.bin"))
    from irilint import parse

    ref = parse("http://[::1]xy/p")
    assert ref.get("host") == "[::1]" and ref.port is None
    assert [(p.kind, p.start, p.end) for p in ref.problems if p.component == "host"][:1] == [
        ("invalid-character", 12, 14)]


def test_engine_target_allows_removing_an_unused_suppression():
    """In a reference made of the whole text, an 'irilint: ignore' comment
    is inside the reference, and removing it (unused-suppression's safe fix)
    changes that text; the target leaves that rule's fix out of the URI
    check, as the document invariants do."""
    targets.run("engine", _reproducer("engine-suppression-comment-in-reference.bin"))
