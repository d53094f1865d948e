"""The speed-ups made for the fuzz targets (issue 20) change no result.

Each shortcut is checked against the code it replaced, kept here as the
reference implementation, over generated inputs: the per-octet escaping,
the one-piece path for runs of escapes that are all UTF-8 text, the kept
last cut of a URI, and the way messages write invisible characters.
"""
from __future__ import annotations

import random
from typing import List

from hypothesis import HealthCheck, given, settings, strategies as st

from irilint import convert
from irilint.chars import class_re, distinct_non_ascii, kept_encoded_in_iri
from irilint.convert import IRIPiece
from irilint.iri import would_make_dot_segment
from irilint.unicode_security import _ASCII_INVISIBLE_RE, is_invisible, visible_text

from iri_strategies import iri_reference

PROPERTY = settings(max_examples=600, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# -- the reference implementations (the code before the speed-ups) ----------

def reference_pct(octets: bytes) -> str:
    return "".join("%" + "0123456789ABCDEF"[b >> 4] + "0123456789ABCDEF"[b & 15] for b in octets)


def reference_run_parts(uri, start, run, query_range):
    in_query = query_range[0] <= start < query_range[1]
    octets = bytes.fromhex(run.replace("%", ""))
    items = []
    j = 0
    n = len(octets)
    while j < n:
        b = octets[j]
        if b < 0x80:
            esc = start + 3 * j
            if b in convert._UNRESERVED_OCTETS and not (
                b == 0x2E and would_make_dot_segment(uri, esc, esc + 3, ".")
            ) and not convert._would_make_escape(uri, esc, b):
                items.append((j, j + 1, chr(b), True))
            else:
                items.append((j, j + 1, run[3 * j:3 * j + 3], False))
            j += 1
            continue
        k = j
        while k < n and octets[k] >= 0x80:
            k += 1
        items.extend((j + a, j + z, text, decoded)
                     for a, z, text, decoded in convert._octet_parts(octets[j:k], kept_encoded_in_iri, in_query))
        j = k
    parts = []
    i = 0
    while i < len(items):
        a, z, text, decoded = items[i]
        if not decoded:
            parts.append((start + 3 * a, start + 3 * z, text, None))
            i += 1
            continue
        texts = [text]
        i += 1
        while i < len(items) and items[i][3]:
            texts.append(items[i][2])
            z = items[i][1]
            i += 1
        s, e = start + 3 * a, start + 3 * z
        decoded_text = "".join(texts)
        parts.append((s, e, decoded_text, IRIPiece("percent", s, e, uri[s:e], decoded_text)))
    return parts


def reference_visible_text(s: str) -> str:
    if s.isascii() and s.isprintable():
        return s
    hidden = frozenset(ch for ch in distinct_non_ascii(s) if is_invisible(ch))
    if not s.isprintable() and _ASCII_INVISIBLE_RE.search(s) is not None:
        hidden = hidden.union(_ASCII_INVISIBLE_RE.findall(s))
    if not hidden:
        return s
    return class_re(hidden).sub(lambda m: "<U+%04X>" % ord(m.group()), s)


# -- generated inputs -----------------------------------------------------------

#: characters whose escapes to_iri keeps (bidi controls, spaces, invisible,
#: private-use, noncharacters) or decodes, and ASCII
_CHARS = st.one_of(
    st.characters(blacklist_categories=("Cs",)),
    st.sampled_from("\u202e\u2066\u200f\u00a0\u3000\u200b\ue000\U000f0000\ufdd0\ufffe\u00ad"
                    "\u0430\u05e9\u0645\u65e5\uff0f\uff0e.A~-_%2e"),
)


def _escaped(chars: str) -> str:
    return "".join("%%%02X" % b for b in chars.encode("utf-8"))


#: one run of escapes: encoded characters and stray octets (continuation
#: bytes, overlong leads, F5+), in either hex case
_RUN = st.lists(st.one_of(
    st.text(_CHARS, min_size=1, max_size=3).map(_escaped),
    st.integers(0, 255).map(lambda b: "%%%02X" % b),
    st.integers(0x80, 0xFF).map(lambda b: "%%%02x" % b),
), min_size=1, max_size=6).map("".join)


@PROPERTY
@given(st.binary(max_size=40))
def test_escaping_octets_equals_the_per_octet_reference(octets):
    assert convert._pct(octets) == reference_pct(octets)


#: octets that start, continue or break UTF-8 sequences (overlong leads,
#: surrogates, past U+10FFFF, truncated), and any octet
_OCTETS = st.lists(st.one_of(st.sampled_from([0x41, 0x25, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                                               0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]),
                             st.integers(0, 255)), max_size=12).map(bytes)


@PROPERTY
@given(st.one_of(_OCTETS, st.text(_CHARS, max_size=6).map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_decoding_octets_equals_the_per_octet_cut(octets):
    # percent_decode_utf8's decoder (Python's, with a handler that
    # re-escapes what it cannot decode) against the per-octet walk
    assert convert._decode_octets(octets, None) == "".join(p[2] for p in convert._octet_parts(octets, None))


@PROPERTY
@given(st.sampled_from(["http://h/", "http://h/a", "x:", "//h/%", "/a?", "/a#", "?", "http://h/%2"]),
       _RUN, st.sampled_from(["", "/b", "?q", "#f", ".", "/.."]))
def test_a_run_of_escapes_is_cut_as_the_reference_cuts_it(prefix, run, suffix):
    uri = prefix + run + suffix
    ref = convert.parse(uri)
    q = ref.query
    query_range = (q.start, q.end) if q is not None else (-1, -1)
    start = len(prefix)
    assert convert._run_parts(uri, start, run, query_range) == reference_run_parts(uri, start, run, query_range)


def test_a_run_that_is_all_text_is_one_piece_and_kept_characters_are_not():
    # the one-piece path, and a bidi control in the run that sends it the
    # long way (that escape stays encoded)
    run = _escaped("\u05e9\u05dc\u05d5\u05dd")
    assert convert._run_parts("/" + run, 1, run, (-1, -1)) == [
        (1, 1 + len(run), "\u05e9\u05dc\u05d5\u05dd", IRIPiece("percent", 1, 1 + len(run), run, "\u05e9\u05dc\u05d5\u05dd"))]
    run = _escaped("\u05e9\u202e\u05dd")
    parts = convert._run_parts("/" + run, 1, run, (-1, -1))
    assert [p[2] for p in parts] == ["\u05e9", "%E2%80%AE", "\u05dd"]
    assert parts == reference_run_parts("/" + run, 1, run, (-1, -1))


@PROPERTY
@given(st.lists(st.one_of(iri_reference(), st.builds(lambda p, r: "http://" + p + "/" + r,
                                                         st.sampled_from(["h", "xn--mgbh0fb", "%D0%B0pple"]),
                                                         _RUN)),
                min_size=1, max_size=6),
       st.randoms(use_true_random=False))
def test_the_kept_cut_of_a_uri_is_the_cut_made_afresh(uris, rnd: random.Random):
    # to_iri, iri_pieces and to_iri_detailed share the last cut: in any
    # order of calls, on the same URI again or another, each answer is the
    # answer computed afresh, and a caller changing its list changes no
    # later answer
    calls = [(rnd.choice(uris), rnd.randrange(4)) for _ in range(12)]
    for uri, which in calls:
        fresh = convert._iri_parts_uncached(uri)
        if which == 0:
            got: List = convert._iri_parts(uri)
            assert got == fresh
            got.clear()
        elif which == 1:
            assert convert.to_iri(uri) == "".join(t for _s, _e, t, _p in fresh)
        elif which == 2:
            assert convert.iri_pieces(uri) == ([p for _s, _e, _t, p in fresh if p is not None]
                                               if "%" in uri or "xn--" in uri.lower() else [])
        else:
            assert convert.to_iri_detailed(uri).text == "".join(t for _s, _e, t, _p in fresh)


#: invisible characters, more than the few visible_text replaces one by one
_INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u202a\u202e\u2066\u2069\u00ad\ufeff\u3000\u00a0\ue000\U000e0041\x00\x1f\x7f\u2028"


@PROPERTY
@given(st.text(st.one_of(st.characters(), st.sampled_from(_INVISIBLE), st.sampled_from("ab <U+>")), max_size=60))
def test_messages_show_invisible_characters_as_the_reference_does(text):
    assert visible_text(text) == reference_visible_text(text)


def test_visible_text_with_many_distinct_invisible_characters():
    text = "a" + "b".join(_INVISIBLE) + "c"
    assert visible_text(text) == reference_visible_text(text)
    assert "<U+200B>" in visible_text(text) and "\u200b" not in visible_text(text)
    # nothing to hide: the same object comes back (report() relies on it)
    plain = "caf\u00e9 \u05e9"
    assert visible_text(plain) is plain


@PROPERTY
@given(st.text(st.sampled_from("ab\u05e9\u0430\u200b\uff0f.%"), max_size=300),
       st.frozensets(st.sampled_from("b\u05e9\u0430\u200b\uff0f%z"), max_size=4), st.booleans())
def test_finding_characters_walks_short_text_as_the_pattern_finds(text, chars, compiled):
    # short text is walked in Python unless a pattern for the characters
    # is compiled already; either way, the offsets the pattern finds
    from irilint import chars as char_scans

    if compiled and chars:
        char_scans.class_re(chars)
    want = [m.start() for m in char_scans._class_re_uncached(chars).finditer(text)] if chars else []
    assert list(char_scans.positions_of(text, chars)) == want
    assert char_scans.first_of(text, chars) == (want[0] if want else -1)


@PROPERTY
@given(st.text(st.one_of(st.characters(), st.sampled_from("\u05e9\u0645\u202e\u2066\u200f1a ")), max_size=40),
       st.booleans())
def test_the_direction_of_each_character_is_its_bidi_class(text, skip_controls):
    # the per-component bidi rules read classes from a table kept per
    # character: the same as asking bidi_class each time
    from irilint.rules import bidi

    want = [(k, bidi.bidi_class(ch)) for k, ch in enumerate(text)
            if not (skip_controls and ord(ch) in bidi.BIDI_CONTROLS)]
    assert bidi._strong(text, skip_controls) == want
    assert bidi._strong(text, skip_controls) == want  # from the table the first call filled


# -- the engine's judgement of an edit stops at its answer -------------------

from irilint import engine as engine_module  # noqa: E402
from irilint.config import Settings  # noqa: E402
from irilint.engine import Engine, _WholeTextScanner  # noqa: E402

from iri_strategies import spoof_reference  # noqa: E402

_ALL = Settings(select=("ALL",), protected_domains=("example.com", "paypal.com"), allowed_scripts=("Cyrillic",))

_SELECT_ALL = Settings(select=("ALL",))

#: characters whose fixes ask the engine to judge an edit (compatibility and
#: full-width forms, bidi controls, escapes of text and of delimiters), and
#: those that make the edited reference report once more (other scripts)
_JUDGED = st.sampled_from(["\uff0f", "\uff05", "\ufb01", "\u2460", "\u202e", "\u200f", "%2e", "%2F", "%41",
                           "%D7%A9", "\u0430", "\u05e9", "\u0645", "\uff41", ".", "/", "a", "%"])


@st.composite
def judged_reference(draw):
    base = draw(st.one_of(spoof_reference(), iri_reference()))
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, len(base)))
        base = base[:k] + draw(_JUDGED) + base[k:]
    return base


def _with_early_judgement(on: bool, run):
    old = engine_module.EARLY_JUDGEMENT
    engine_module.EARLY_JUDGEMENT = on
    try:
        return run(Engine())  # a fresh engine: nothing judged before
    finally:
        engine_module.EARLY_JUDGEMENT = old


def _summary(findings):
    return [(f.rule.code, f.start, f.end, f.message, f.severity,
             [(fx.title, fx.safe, fx.edits) for fx in f.fixes]) for f in findings]


@PROPERTY
@given(judged_reference(), st.data())
def test_judging_an_edit_stops_at_the_same_answer_it_reaches_running_every_rule(value, data):
    k = data.draw(st.integers(0, len(value)))
    j = data.draw(st.integers(k, min(len(value), k + 3)))
    edits = [(k, j, data.draw(_JUDGED))]

    def judge(engine):
        f = engine.judge_edit(value, edits, _ALL)
        return None if f is None else _summary([f])

    assert _with_early_judgement(True, judge) == _with_early_judgement(False, judge)


@PROPERTY
@given(judged_reference())
def test_a_check_finds_and_fixes_the_same_with_judgements_stopped_early(value):
    def check(engine):
        result = engine.check_text(value, path="ref.txt", settings=_ALL, scanner=_WholeTextScanner(), run_state={})
        return _summary(result.findings), result.errors

    assert _with_early_judgement(True, check) == _with_early_judgement(False, check)


def test_a_refused_edit_leaves_the_edited_reference_unjudged_and_an_accepted_one_kept():
    # "pаypal" with a Cyrillic a: mixed-script reports once more, and the
    # rules after it do not run on that text, so nothing of it is kept
    # (nor every rule on the reference itself: see the next test)
    value = "http://example.org/paypal"
    engine = Engine()
    assert engine.judge_edit(value, [(20, 21, "\u0430")], _SELECT_ALL).rule.name == "mixed-script"
    assert list(engine._judged) == []
    # an edit that adds nothing runs every rule on the edited text: kept
    assert engine.judge_edit(value, [(20, 21, "b")], _SELECT_ALL) is None
    assert "http://example.org/pbypal" in [key[2] for key in engine._judged]
    # the same, every rule run: the refused text is kept too
    engine_module.EARLY_JUDGEMENT = False
    try:
        full = Engine()
        assert full.judge_edit(value, [(20, 21, "\u0430")], _SELECT_ALL).rule.name == "mixed-script"
        assert "http://example.org/p\u0430ypal" in [key[2] for key in full._judged]
    finally:
        engine_module.EARLY_JUDGEMENT = True


class _RuleCalls:
    """Records (rule name, reference) of every rule run, while in force."""

    def __init__(self, settings):
        self.calls = []
        self.rules = Engine().selection_for(settings).rules

    def __enter__(self):
        self.saved = [(r, r.check) for r in self.rules]
        for r in self.rules:
            def check(ctx, _r=r, _check=r.check):
                self.calls.append((_r.name, ctx.doc.text))
                return _check(ctx)
            r.check = check
        return self

    def __exit__(self, *exc):
        for r, check in self.saved:
            r.check = check


def test_judging_an_edit_runs_on_the_reference_only_the_rules_its_counts_need():
    # "pаypal": mixed-script answers, so on the reference itself the rules
    # run only as far as mixed-script (its count before); the rest never
    value = "http://example.org/paypal/caf\u00e9"
    with _RuleCalls(_SELECT_ALL) as rec:
        assert Engine().judge_edit(value, [(20, 21, "\u0430")], _SELECT_ALL).rule.name == "mixed-script"
    on_value = [name for name, text in rec.calls if text == value]
    with _RuleCalls(_SELECT_ALL) as rec:
        _with_early_judgement(False, lambda engine: engine.judge_edit(value, [(20, 21, "\u0430")], _SELECT_ALL))
    every_rule = [name for name, text in rec.calls if text == value]
    # the rules in the order a full run takes, stopped at mixed-script
    assert on_value == every_rule[:every_rule.index("mixed-script") + 1]
    assert len(on_value) < len(every_rule)


@PROPERTY
@given(judged_reference(), st.lists(st.tuples(st.integers(0, 200), st.integers(0, 3), _JUDGED), min_size=1,
                                    max_size=4))
def test_judgements_that_share_a_reference_s_partial_counts_answer_as_full_ones(value, raw_edits):
    # one engine judges several edits of one reference, each resuming the
    # rules where the one before stopped; each answer is the answer of a
    # fresh engine that runs every rule
    edits = [(min(k, len(value)), min(k + n, len(value)), t) for k, n, t in raw_edits]

    def judge_all(engine):
        out = []
        for e in edits:
            f = engine.judge_edit(value, [e], _ALL)
            out.append(None if f is None else _summary([f]))
        return out

    def judge_each_fresh(_engine):
        out = []
        for e in edits:
            f = Engine().judge_edit(value, [e], _ALL)
            out.append(None if f is None else _summary([f]))
        return out

    assert _with_early_judgement(True, judge_all) == _with_early_judgement(False, judge_each_fresh)


# -- third round: per-character walks in the rules done in C -----------------

def reference_decode_run(value, start, end, text, spans, origins):
    from irilint.rules.context import LITERAL, PERCENT

    octets = bytes.fromhex(value[start:end].replace("%", ""))
    j = 0
    n = len(octets)
    while j < n:
        b = octets[j]
        size = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        ch = None
        if size:
            try:
                ch = octets[j:j + size].decode("utf-8")
            except UnicodeDecodeError:
                ch = None
        if ch is not None:
            s = start + 3 * j
            text.append(ch)
            spans.append((s, s + 3 * size))
            origins.append(PERCENT)
            j += size
        else:
            s = start + 3 * j
            for k in range(3):
                text.append(value[s + k])
                spans.append((s + k, s + k + 1))
                origins.append(LITERAL)
            j += 1


#: octets: UTF-8 of text (every length of sequence), ASCII, and octets that
#: break it (stray continuations, truncated, overlong, surrogates, > U+10FFFF)
_OCTET_PIECES = st.one_of(
    st.text(max_size=4).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from([b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1", b"\xc3", b"\xe0\x80\x80", b"\xe0\xa0",
                     b"\xed\xa0\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5", b"\xff", b"A", b".",
                     b"\xe2\x80", b"\xf0\x9f\x98"]),
    st.binary(max_size=4))


def _escaped_octets(octets: bytes, draw_case) -> str:
    return "".join("%" + ("%02X" if draw_case(i) else "%02x") % b for i, b in enumerate(octets))


@PROPERTY
@given(st.lists(_OCTET_PIECES, max_size=8).map(b"".join), st.text("ab/", max_size=3), st.randoms())
def test_a_run_of_escapes_is_decoded_into_the_view_as_the_octet_walk_decodes_it(octets, before, rnd):
    from irilint.rules import context

    value = before + _escaped_octets(octets, lambda _i: rnd.random() < 0.5) + "/x"
    start, end = len(before), len(before) + 3 * len(octets)
    got, want = ([], [], []), ([], [], [])
    context._decode_run(value, start, end, *got)
    reference_decode_run(value, start, end, *want)
    assert ("".join(got[0]), got[1], got[2]) == ("".join(want[0]), want[1], want[2])


def reference_bad_utf8(octets):
    i, n = 0, len(octets)
    while i < n:
        b = octets[i]
        if b < 0x80:
            i += 1
            continue
        size = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if size == 0:
            if 0x80 <= b <= 0xBF:
                reason = "a continuation byte with no lead byte"
            elif b in (0xC0, 0xC1):
                reason = "an overlong encoding (lead byte %02X)" % b
            else:
                reason = "byte %02X, which never occurs in UTF-8" % b
            yield i, i + 1, reason
            i += 1
            continue
        chunk = octets[i:i + size]
        if len(chunk) < size or any(not 0x80 <= c <= 0xBF for c in chunk[1:]):
            k = 1
            while k < len(chunk) and 0x80 <= chunk[k] <= 0xBF:
                k += 1
            yield i, i + k, "a truncated UTF-8 sequence"
            i += k
            continue
        if b == 0xE0 and chunk[1] < 0xA0 or b == 0xF0 and chunk[1] < 0x90:
            yield i, i + size, "an overlong encoding"
        elif b == 0xED and chunk[1] >= 0xA0:
            yield i, i + size, "an encoded surrogate (U+%04X)" % (
                ((b & 0x0F) << 12) | ((chunk[1] & 0x3F) << 6) | (chunk[2] & 0x3F))
        elif b == 0xF4 and chunk[1] >= 0x90:
            yield i, i + size, "a code point above U+10FFFF"
        i += size


def reference_text_units(octets, in_query):
    units = []
    i, n = 0, len(octets)
    start = None
    text = []
    while i <= n:
        ch = None
        size = 1
        if i < n and octets[i] >= 0x80:
            b = octets[i]
            size = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 1
            if size > 1:
                try:
                    ch = octets[i:i + size].decode("utf-8")
                except UnicodeDecodeError:
                    ch, size = None, 1
            if ch is not None and kept_encoded_in_iri(ord(ch), in_query):
                ch = None
        if ch is None:
            if start is not None:
                units.append((start, i, "".join(text)))
                start, text = None, []
            i += 1 if i < n else 1
            continue
        if start is None:
            start = i
        text.append(ch)
        i += size
    return units


#: characters s3.2 keeps encoded (bidi controls, private use in and out of
#: a query, noncharacters, U+FFFD area) beside ordinary text
_KEPT_OR_NOT = st.one_of(st.characters(), st.sampled_from(
    "\u200e\u202e\u2066\ue000\U000f0000\ufdd0\ufffe\ufff0\u00e9\u05e9\u0430 a%"))


@PROPERTY
@given(st.lists(st.one_of(_OCTET_PIECES, st.text(_KEPT_OR_NOT, max_size=4).map(
    lambda t: t.encode("utf-8", "surrogatepass"))), max_size=8).map(b"".join), st.booleans())
def test_octets_that_are_not_utf8_and_the_text_units_are_found_as_the_octet_walk_finds_them(octets, in_query):
    from irilint.rules import percent

    assert list(percent._bad_utf8(octets)) == list(reference_bad_utf8(octets))
    assert percent._text_units(octets, in_query) == reference_text_units(octets, in_query)


def reference_mixing_short(text):
    from irilint.rules.bidi import STRONG_RTL, _strong

    rtl = ltr = None
    for k, cls in _strong(text):
        if cls in STRONG_RTL and rtl is None:
            rtl = k
        elif cls == "L" and ltr is None:
            ltr = k
    if rtl is None or ltr is None:
        return None
    return rtl, ltr


def reference_shows_rtl(ctx, c):
    from irilint.rules.bidi import STRONG_RTL, bidi_class
    from irilint.rules.context import PERCENT

    view = ctx.view
    if not view.decoded_any:
        return True
    origins = view.origins
    base = c.view_start
    for k, ch in enumerate(c.text):
        if origins[base + k] != PERCENT and not ch.isascii() and bidi_class(ch) in STRONG_RTL:
            return True
    return False


def reference_words(comp):
    from irilint.rules.lookalike.scripts import _is_word_char

    text = comp.text
    start = None
    for k, c in enumerate(text):
        if c.isascii() and not c.isalnum() or not c.isascii() and not _is_word_char(c):
            if start is not None:
                yield comp.view_start + start, comp.view_start + k
                start = None
        elif start is None:
            start = k
    if start is not None:
        yield comp.view_start + start, comp.view_end


#: right-to-left, left-to-right and neutral text, written and escaped, with
#: bidi and other format characters, word breaks and delimiters
_BIDI_PIECES = st.sampled_from(["\u05e9", "\u0645", "%D7%A9", "%D9%85", "\u0661", "a", "Z", "1", "\u00e9", "%C3%A9",
                                "\u202e", "\u200f", "%E2%80%AE", "\u200d", "\u00ad", "\u0301", "-", "_", ".", "/",
                                "?", "=", "&", "#", "@", "\u3002", "\uff0f", " ", "\u2028", "%", "%41",
                                "\u0430", "\u4e00", "\U0001d400"])


@st.composite
def _bidi_reference(draw):
    head = draw(st.sampled_from(["http://", "http://u\u05e9@", "", "//", "mailto:"]))
    body = "".join(draw(st.lists(st.one_of(_BIDI_PIECES, st.characters()), max_size=24)))
    return head + body


@PROPERTY
@given(_bidi_reference())
def test_direction_and_word_walks_find_what_the_per_character_loops_found(value):
    from irilint import parse
    from irilint.rules import bidi
    from irilint.rules.context import DocumentInfo, RefContext
    from irilint.rules.lookalike import scripts
    from irilint.scanners.base import Candidate

    doc = DocumentInfo(text=value, path=None, scanner="reference", settings=None, run_state={})
    ctx = RefContext(Candidate(0, len(value), value), parse(value), doc)
    for c in ctx.components():
        assert list(scripts._words(c)) == list(reference_words(c))
        if c.kind != "host-label":
            assert bidi._shows_rtl(ctx, c) == reference_shows_rtl(ctx, c)
    for text in [c.text for c in ctx.components()] + [value]:
        assert bidi._mixing_short.__wrapped__(text) == reference_mixing_short(text)
        assert bidi._classes_of(text) == [bidi.bidi_class(ch) for ch in text]
        assert bidi._has_strong_rtl_short.__wrapped__(text) == any(
            bidi.bidi_class(ch) in bidi.STRONG_RTL for ch in text if ord(ch) not in bidi.BIDI_CONTROLS)
        assert bidi._has_rtl_any_short.__wrapped__(text) == any(bidi.bidi_class(ch) in bidi.RTL_ANY for ch in text)


@PROPERTY
@given(st.text(st.one_of(st.sampled_from("%%%0123456789abcdefABCDEFxX.~\u212a\u017f"), st.characters()), max_size=40))
def test_the_unreserved_escapes_are_the_escapes_that_decode_to_an_unreserved_character(value):
    from irilint.chars import UNRESERVED_ASCII
    from irilint.rules import percent

    want = [(m.span(), m.group(1)) for m in percent._ESCAPE_RE.finditer(value)
            if chr(int(m.group(1), 16)) in UNRESERVED_ASCII]
    assert [(m.span(), m.group(1)) for m in percent._UNRESERVED_ESCAPE_RE.finditer(value)] == want


@PROPERTY
@given(st.text(st.one_of(st.characters(), st.sampled_from(_INVISIBLE)), max_size=60))
def test_a_message_written_again_is_written_as_the_first_time_and_the_same_object_when_nothing_is_hidden(text):
    from irilint import unicode_security

    first = visible_text(text)
    again = visible_text("".join(list(text)))  # an equal text, another object
    assert first == again == reference_visible_text(text)
    if not text.isascii() or not text.isprintable():
        assert text in unicode_security._VISIBLE_MEMO  # kept: the second one was not judged again
    if first == text:
        copy = "".join(list(text))
        assert visible_text(copy) is copy


def reference_word_runs(text, view_non_ascii):
    # mixed-script's pattern per set of non-word characters of the view
    import re

    from irilint.rules.lookalike.scripts import _is_word_char

    not_word = frozenset(c for c in view_non_ascii if not _is_word_char(c))
    return re.compile("(?:[A-Za-z0-9]|[^\\x00-\\x7f%s])+" % "".join(re.escape(c) for c in sorted(not_word))).findall(text)


@PROPERTY
@given(_bidi_reference())
def test_the_words_mixed_script_screens_are_the_words_its_pattern_found(value):
    from irilint import parse
    from irilint.rules.context import DocumentInfo, RefContext
    from irilint.rules.lookalike import scripts
    from irilint.scanners.base import Candidate

    doc = DocumentInfo(text=value, path=None, scanner="reference", settings=None, run_state={})
    ctx = RefContext(Candidate(0, len(value), value), parse(value), doc)
    assert scripts._word_runs(value) == reference_word_runs(value, ctx.view.non_ascii_chars)
