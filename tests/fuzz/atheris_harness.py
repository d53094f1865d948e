"""An atheris (libFuzzer) harness for long fuzzing runs by hand.

    pip install atheris
    python tests/fuzz/atheris_harness.py -atheris_runs=200000 corpus_dir/
    python tests/fuzz/atheris_harness.py -max_total_time=600 -timeout=20

Each input is bytes: the first byte picks the format (or, with
``IRILINT_FUZZ_FORMAT=name``, one format for the whole run), the rest is
decoded as UTF-8 with surrogateescape (lone surrogates reach the scanners)
and with replacement, then goes through the format's scanner, the engine
with every rule (select ALL), every fix (the safe ones until a fixed point,
the unsafe ones too) and the conversions.  The invariants of
:mod:`invariants` raise on any violation, which libFuzzer reports as a
crash with the input saved to ``crash-*``.

:func:`one_input` is also run on a few seeds by
``test_fuzz_atheris_seeds.py`` so the harness cannot rot.
"""
from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _p in (_HERE, os.path.dirname(_HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import invariants  # noqa: E402

FORMATS = invariants.formats()
_FIXED_FORMAT = os.environ.get("IRILINT_FUZZ_FORMAT")

#: Inputs longer than this are cut: the invariants (10 fix passes with
#: every rule) are the bottleneck, and linearity has its own tests.
MAX_INPUT = 4096


def pick(data: bytes):
    """(format, payload) for one fuzzer input."""
    if _FIXED_FORMAT:
        return _FIXED_FORMAT, data
    if not data:
        return "text", b""
    return FORMATS[data[0] % len(FORMATS)], data[1:]


def one_input(data: bytes) -> None:
    """Check every invariant on one input (raises on a violation)."""
    fmt, payload = pick(data[:MAX_INPUT])
    for text in invariants.decode_input(payload):
        invariants.check_document(text, fmt)
        invariants.check_conversions(text)


#: Seeds: one document per format with the things rules look for.
SEEDS = [
    b"\x00see http://e.org/100% and HTTP://E.ORG:80/%7e/./a\xe2\x80\xae/b?q=%e2%80%ae#f",
    b"\x01[x](http://\xd0\xb0\xd1\x80\xd1\x80\xd3\x8f\xd0\xb5.com/%D7%A9a) <http://e.org/a b>\n",
    b'\x02<a href="http://&#x202E;e.org/&#x41;%7e">x</a><!-- irilint: ignore -->',
    b"\x04`link <http://xn--r8jz45g.jp/\xef\xbc\x8f>`_\n.. irilint: ignore\n",
    b'\x05{"href": "http:\\/\\/e.org\\/\\u202e\\ud800", "$ref": "#/a%2"}',
    b"\x06url: 'http://e.org/''%41'\n# http://[v1.x]example.com:80\n",
    b'\x07homepage = "http://e.org/\\u00e9\\U0001F600" # irilint: ignore[IRI402]\n',
    b"\x08<http://e.org/s> <http://e.org/p> \"http://e.org/%%41B\" .\n",
    b"\x09u = 'http://e.org/%E2%80%9Dx'  # http://example.com#\xef\xbc\x8f\n",
    b"\x03<root xmlns='http://e.org/ns&#39;'>http://e.org/\xed\xa0\x80</root>",
    b"\x0a" + b"(" * 200 + b"http://e.org/" + b")" * 200,
]


def main(argv=None) -> None:
    import atheris  # not a CI dependency

    atheris.instrument_all()
    atheris.Setup(list(sys.argv if argv is None else argv), one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
