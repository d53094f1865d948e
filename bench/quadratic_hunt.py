#!/usr/bin/env python3
"""Hunt for super-linear steps on hostile references (issues 18 and 20).

For each trigger (a character or sequence some rule looks at: bidi
controls, invisible characters, delimiter look-alikes, full-width forms,
combining marks, escapes, ``xn--`` labels, ...) and each place in a
reference (scheme, userinfo, host label, port, path, query, fragment; the
path also as HTML character references, JSON ``\\u`` escapes and a
Markdown link), a run of the trigger is built in three shapes (alone,
alternating with an ASCII letter, with a combining mark after each) at n and
4n characters, and the whole pipeline (scanner, then the engine) is timed
on both: CPU time, garbage collection off.  A linear step takes 4x the
time; a ratio over 8 is flagged.

A quick pass times each case once (the small one repeated to at least
``--min-run`` seconds); the cases over ``--suspect`` are timed again as
tests/test_hardening_linearity.py's ``ratio_of`` does (median of 3, the
small one repeated to 50 ms), with the default rules and with every rule.

    python bench/quadratic_hunt.py                      # everything (3,540 cases; ~80 min of CPU)
    python bench/quadratic_hunt.py --only bidi,pct      # triggers whose name has one of these
    python bench/quadratic_hunt.py --places path,host --shapes alone --n 1000
    python bench/quadratic_hunt.py --part 1/2 & python bench/quadratic_hunt.py --part 2/2  # two cores
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

from irilint.config import Settings
from irilint.engine import Engine
from irilint.scanners import get_scanner

FACTOR = 4
FLAG = 2 * FACTOR
DEFAULT = Settings()
ALL = Settings(select=("ALL",), protected_domains=("example.com", "paypal.com"))

# name -> one unit of the run; the names group them (``--only`` matches a part)
TRIGGERS: Dict[str, str] = {
    # bidi controls and strong right-to-left letters
    "bidi-rlo": "\u202e", "bidi-lrm": "\u200e", "bidi-alm": "\u061c", "bidi-rli-pdi": "\u2067\u2069",
    "bidi-pdf": "\u202c", "rtl-hebrew": "\u05d0", "rtl-arabic": "\u0627", "rtl-arabic-digit": "\u0660",
    "rtl-hebrew-digit": "\u05d01",
    # invisible and default-ignorable
    "invisible-zwsp": "\u200b", "invisible-zwj": "\u200d", "invisible-zwnj": "\u200c",
    "invisible-shy": "\u00ad", "invisible-wj": "\u2060", "invisible-bom": "\ufeff",
    "invisible-tag": "\U000e0041", "invisible-vs16": "\ufe0f", "invisible-hangul-filler": "\u3164",
    "invisible-cgj": "\u034f", "invisible-flag-tags": "\U0001f3f4\U000e0067\U000e007f",
    "invisible-keycap": "1\ufe0f\u20e3",
    # delimiter look-alikes
    "delim-division-slash": "\u2215", "delim-fraction-slash": "\u2044", "delim-fw-solidus": "\uff0f",
    "delim-big-solidus": "\u29f8", "delim-armenian-colon": "\u0589", "delim-ratio": "\u2236",
    "delim-fw-colon": "\uff1a", "delim-modifier-colon": "\ua789", "delim-one-dot-leader": "\u2024",
    "delim-fw-stop": "\uff0e", "delim-ideographic-stop": "\u3002", "delim-hw-stop": "\uff61",
    "delim-commercial-minus": "\u2052", "delim-fw-percent": "\uff05", "delim-arabic-percent": "\u066a",
    "delim-fw-question": "\uff1f", "delim-fw-hash": "\uff03", "delim-fw-at": "\uff20",
    "delim-small-at": "\ufe6b", "delim-low-quote": "\u201e", "delim-reversed-comma": "\u2e41",
    "delim-fw-comma": "\uff0c", "delim-fw-tilde": "\uff5e",
    # full-width and half-width forms
    "fw-letter": "\uff41", "fw-digit": "\uff10", "hw-katakana": "\uff76", "hw-form": "\uffe8",
    # combining marks of several classes
    "mark-acute": "\u0301", "mark-cedilla": "\u0327", "mark-overlay": "\u0338", "mark-overlay-ring": "\u20d2",
    "mark-below": "\u0323", "mark-nukta": "\u093c", "mark-thai-tone": "\u0e48", "mark-lao": "\u0eb4",
    "mark-base-acute": "e\u0301", "mark-mixed-order": "\u0301\u0323",
    # kana voicing marks, katakana and han look-alikes
    "kana-voicing": "\u3099", "kana-voicing-spacing": "\u309b", "kana-semi-voicing": "\u309c",
    "kana-hw-voicing": "\uff9e", "kana-ka-voicing": "\u30ab\u3099", "kana-no": "\u30ce",
    "kana-long-vowel": "\u30fc", "han-one": "\u4e00", "kana-e-han-work": "\u30a8\u5de5",
    "kana-ka-han-power": "\u30ab\u529b",
    # mixed scripts and digit look-alikes
    "script-cyrillic-a": "\u0430", "script-greek-o": "\u03bf", "script-armenian-o": "\u0585",
    "script-cyrillic-latin": "\u0430a", "digit-arabic-indic": "\u0661", "digit-devanagari": "\u0967",
    "digit-math": "\U0001d7ce", "digit-mixed-arabic": "\u0662\u06f2", "digit-superscript": "\u00b9",
    "digit-ascii-letters": "l1O0",
    # Thai and Lao
    "thai": "\u0e01", "lao": "\u0e9a", "thai-lao": "\u0e01\u0e9a",
    # escapes
    "pct-unreserved": "%41", "pct-invalid": "%zz", "pct-lone": "%", "pct-lower": "%e9", "pct-text": "%C3%A9",
    "pct-bidi": "%E2%80%AE", "pct-bidi-lower": "%e2%80%ae", "pct-mark": "%CC%81", "pct-non-utf8": "%FF",
    "pct-double": "%2541", "pct-slash": "%2F", "pct-dot": "%2E", "pct-zwsp": "%E2%80%8B",
    "pct-fw-solidus": "%EF%BC%8F",
    # labels and delimiters
    "xn-label": "xn--a.", "xn-valid": "xn--80ak6aa92e.", "xn-bare": "xn--", "dot-label": "a.",
    "at": "@", "colon": ":", "bracket": "[", "bracket-close": "]", "dot-segment": "/./",
    "dotdot-segment": "/../", "dots": "..", "template": "{{a}}", "brace": "{", "backslash": "\\",
    "dash": "-", "dash-label": "a--",
    # other characters the syntax and normalization rules look at
    "noncharacter": "\ufdd0", "private-use": "\ue000", "compat-ligature": "\ufb01", "ohm": "\u2126",
    "hangul-jamo": "\u1100\u1161", "emoji": "\U0001f600", "latin-accented": "\u00e9",
}

PLACES: Dict[str, str] = {
    "scheme": "see ht{}tp://example.org/a x\n",
    "userinfo": "see https://u{}@example.org/a x\n",
    "host": "see https://a{}b.example.org/ x\n",
    "port": "see https://example.org:8{}0/ x\n",
    "path": "see https://example.org/a{}b x\n",
    "query": "see https://example.org/a?q={}b x\n",
    "fragment": "see https://example.org/a#f{}b x\n",
}

# encodings of the run: (scanner, template around the reference, encoder of the run)
ENCODED_PLACES = ("path",)


def _html_refs(run: str) -> str:
    return "".join(c if c.isascii() else "&#x%X;" % ord(c) for c in run)


def _json_escapes(run: str) -> str:
    out = []
    for c in run:
        if c.isascii():
            out.append("\\\\" if c == "\\" else c)
        else:
            # astral characters as a surrogate pair, as JSON writes them
            units = c.encode("utf-16-be")
            out.extend("\\u%02x%02x" % (units[i], units[i + 1]) for i in range(0, len(units), 2))
    return "".join(out)


ENCODINGS: Dict[str, Tuple[str, Callable[[str], str], Callable[[str], str]]] = {
    "raw": ("text", lambda ref: ref, lambda run: run),
    "html": ("html", lambda ref: '<p><a href="%s">x</a></p>\n' % ref, _html_refs),
    "json": ("json", lambda ref: '{"u": "%s"}\n' % ref, _json_escapes),
    "markdown": ("markdown", lambda ref: "see [x](%s) x\n" % ref, lambda run: run),
}

SHAPES: Dict[str, Callable[[str], str]] = {
    "alone": lambda unit: unit,
    "alternating": lambda unit: unit + "a",
    "marks": lambda unit: unit + "\u0301",
}


def build(place: str, encoding: str, shape: str, trigger: str, n: int) -> Tuple[str, str]:
    """(scanner name, document) with a run of about ``n`` characters."""
    unit = SHAPES[shape](TRIGGERS[trigger])
    run = unit * max(1, n // len(unit))
    fmt, wrap, encode = ENCODINGS[encoding]
    if encoding == "raw":
        return fmt, PLACES[place].replace("{}", run, 1)
    reference = PLACES[place].strip()[len("see "):-len(" x")]
    return fmt, wrap(reference.replace("{}", encode(run), 1))


def cpu_seconds(fn: Callable[[], object], repeat: int) -> float:
    """CPU time of ``repeat`` calls of ``fn``, garbage collection off
    (tests/test_hardening_linearity.py times with it too)."""
    gc.collect()
    gc.disable()
    try:
        t = time.process_time()
        for _ in range(repeat):
            fn()
        return time.process_time() - t
    finally:
        gc.enable()


def _runner(fmt: str, settings: Settings) -> Callable[[str], object]:
    scanner = get_scanner(fmt)
    return lambda text: Engine().check_text(text, path="doc", settings=settings, scanner=scanner, run_state={})


def _repeat_for(run: Callable[[], object], min_run: float) -> Tuple[int, float]:
    repeat = 1
    while True:
        t = cpu_seconds(run, repeat)
        if t >= min_run or repeat >= 1 << 12:
            return repeat, t
        repeat = max(repeat * 2, int(repeat * min_run / max(t, 1e-6)) + 1)


def measure(run: Callable[[str], object], small: str, large: str, min_run: float, rounds: int) -> Tuple[float, float]:
    """(ratio large/small, microseconds per character of the large one)."""
    repeat, _ = _repeat_for(lambda: run(small), min_run)  # also the warm-up
    # the large one once too: a host label's judgement is kept between
    # runs, so a cold large run against warm small ones reads as 20x
    run(large)
    ts = statistics.median(cpu_seconds(lambda: run(small), repeat) for _ in range(rounds))
    tl = statistics.median(cpu_seconds(lambda: run(large), repeat) for _ in range(rounds))
    return tl / max(ts, 1e-9), tl / repeat / len(large) * 1e6


def cases(args) -> List[Tuple[str, str, str, str]]:
    out = []
    for trigger in TRIGGERS:
        if args.only and not any(part in trigger for part in args.only):
            continue
        for place in PLACES:
            for encoding in ENCODINGS:
                if encoding != "raw" and place not in ENCODED_PLACES:
                    continue
                if args.places and place not in args.places or args.encodings and encoding not in args.encodings:
                    continue
                for shape in SHAPES:
                    if args.shapes and shape not in args.shapes:
                        continue
                    out.append((trigger, place, encoding, shape))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=2000, help="characters of the small run (default 2000)")
    p.add_argument("--only", type=lambda s: s.split(","), default=None, help="trigger names containing one of these")
    p.add_argument("--places", type=lambda s: s.split(","), default=None)
    p.add_argument("--encodings", type=lambda s: s.split(","), default=None)
    p.add_argument("--shapes", type=lambda s: s.split(","), default=None)
    p.add_argument("--min-run", type=float, default=0.003, help="quick pass: CPU seconds of the small one")
    p.add_argument("--suspect", type=float, default=6.0, help="quick-pass ratio timed again (default 6)")
    p.add_argument("--slow", type=float, default=float("inf"), help="also time again cases over this many us/char")
    p.add_argument("--part", default="1/1", help="I/K: only the I-th of K equal shares of the cases "
                   "(to run K processes side by side)")
    p.add_argument("--json", help="write every measurement to this file")
    args = p.parse_args(argv)

    part, parts = map(int, args.part.split("/"))
    todo = cases(args)[part - 1::parts]
    print("%d cases, n=%d and %d characters" % (len(todo), args.n, FACTOR * args.n), file=sys.stderr)
    quick = []
    started = time.monotonic()
    for i, (trigger, place, encoding, shape) in enumerate(todo):
        fmt, small = build(place, encoding, shape, trigger, args.n)
        _, large = build(place, encoding, shape, trigger, FACTOR * args.n)
        ratio, us = measure(_runner(fmt, ALL), small, large, args.min_run, 1)
        quick.append({"trigger": trigger, "place": place, "encoding": encoding, "shape": shape,
                      "quick_ratio": round(ratio, 2), "quick_us_per_char": round(us, 2)})
        if ratio > args.suspect:  # said at once: a long hunt can be stopped and the case looked at
            print("  suspect: %s %s %s %s: %.1fx, %.1f us/char" % (trigger, place, encoding, shape, ratio, us),
                  file=sys.stderr)
        if i % 50 == 49:
            print("  %d/%d (%.0f s)" % (i + 1, len(todo), time.monotonic() - started), file=sys.stderr)

    confirmed = []
    for case in quick:
        if case["quick_ratio"] <= args.suspect and case["quick_us_per_char"] <= args.slow:
            continue
        fmt, small = build(case["place"], case["encoding"], case["shape"], case["trigger"], args.n)
        _, large = build(case["place"], case["encoding"], case["shape"], case["trigger"], FACTOR * args.n)
        for label, settings in (("default", DEFAULT), ("ALL", ALL)):
            ratio, us = measure(_runner(fmt, settings), small, large, 0.05, 3)
            confirmed.append(dict(case, rules=label, ratio=round(ratio, 2), us_per_char=round(us, 2),
                                  flagged=ratio > FLAG))

    print("| trigger | place | encoding | shape | rules | ratio | us/char | |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | --- |")
    for c in sorted(confirmed, key=lambda c: -c["ratio"]):
        print("| %s | %s | %s | %s | %s | %.1f | %.1f | %s |" % (
            c["trigger"], c["place"], c["encoding"], c["shape"], c["rules"], c["ratio"], c["us_per_char"],
            "SUPER-LINEAR" if c["flagged"] else ""))
    flagged = [c for c in confirmed if c["flagged"]]
    print("\n%d cases; %d timed again; %d flagged (ratio > %d); quick pass max ratio %.1f, max %.1f us/char" % (
        len(quick), len(confirmed) // 2, len(flagged), FLAG, max(c["quick_ratio"] for c in quick),
        max(c["quick_us_per_char"] for c in quick)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"n": args.n, "quick": quick, "confirmed": confirmed}, f, indent=1)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
