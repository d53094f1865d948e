#!/usr/bin/env python
"""Generate ``server/english_words.py`` (imported as ``irilint.english_words``).

Usage::

    python tools/gen_wordlist.py            # rewrite server/english_words.py
    python tools/gen_wordlist.py -o FILE    # write somewhere else ("-" = stdout)
    python tools/gen_wordlist.py --check    # exit 1 if the committed file is stale
    python tools/gen_wordlist.py --source /usr/share/dict/american-english

The word list is Debian's ``wamerican`` package (SCOWL, Spell Checker
Oriented Word Lists, by Kevin Atkinson; permissive licence, see
``/usr/share/doc/wamerican/copyright``): ``apt-get install wamerican``.  The
rule ``ascii-lookalike`` asks one question of it: is what a reader sees when
the digits of ``paypa1`` or ``br0ken`` are read as letters an English word?
So only that is kept:

* words of 4 to 15 ASCII letters (shorter readings are too often
  abbreviations, longer ones never matter in a host label or path word);
* lower-cased, proper nouns included: SCOWL spells brands and places with a
  capital (``PayPal``, ``Microsoft``), and those are what spoofs imitate;
* no possessives or other words with punctuation or accents.

They are stored front-coded to keep the module small: the words in sorted
order, each written as one upper-case letter giving how many leading
letters it shares with the previous word (``A`` = 0, ``B`` = 1, ...)
followed by the rest of it.  The output depends only on the word list and
is byte-identical when run twice.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from typing import Iterable, List, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated_output import add_output_arguments, write_or_check  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "server", "english_words.py")
DEFAULT_SOURCE = "/usr/share/dict/american-english"
DEBIAN_PACKAGE = "wamerican"
REGEN_COMMAND = "python tools/gen_wordlist.py"
MIN_LEN, MAX_LEN = 4, 15
LINE_WIDTH = 76
_WORD_RE = re.compile(r"[A-Za-z]{%d,%d}" % (MIN_LEN, MAX_LEN))


def package_version(package: str = DEBIAN_PACKAGE) -> Optional[str]:
    """The installed Debian version of ``package``, or None off Debian."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                             capture_output=True, text=True, check=False)
    except OSError:
        return None
    return out.stdout.strip() or None


def read_words(path: str) -> List[str]:
    """The sorted, lower-cased words of 4..15 ASCII letters of ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise SystemExit("%s: word list not found; install it with "
                         "'apt-get install %s' or pass --source" % (path, DEBIAN_PACKAGE))
    except UnicodeDecodeError as exc:
        raise SystemExit("%s: not UTF-8 text: %s" % (path, exc))
    words = sorted({w.lower() for w in (line.strip() for line in lines) if _WORD_RE.fullmatch(w)})
    if not words:
        raise SystemExit("%s: no words of %d to %d letters" % (path, MIN_LEN, MAX_LEN))
    return words


def front_code(words: Iterable[str]) -> str:
    """Each word as a letter for its shared prefix length, then its tail."""
    out = []
    prev = ""
    for w in words:
        k = len(os.path.commonprefix([prev, w]))
        out.append(chr(ord("A") + k) + w[k:])
        prev = w
    return "".join(out)


def generate(source: str, version: Optional[str]) -> str:
    words = read_words(source)
    coded = front_code(words)
    lines = [coded[i:i + LINE_WIDTH] for i in range(0, len(coded), LINE_WIDTH)]
    head = '''"""English words for ``ascii-lookalike`` (GENERATED; do not edit).

Regenerate with ``%s``.

Source: Debian package ``%s`` %s (SCOWL word list by Kevin Atkinson,
http://wordlist.sourceforge.net/; permission to use, copy, modify,
distribute and sell granted provided the copyright notice appears, see
/usr/share/doc/%s/copyright).  Kept: %d words of %d..%d ASCII letters,
lower-cased, front-coded (see tools/gen_wordlist.py).
"""

REGENERATE_COMMAND = %r
SOURCE_PACKAGE = %r
SOURCE_VERSION = %r
MIN_LEN = %d
MAX_LEN = %d
WORD_COUNT = %d

FRONT_CODED = (
''' % (REGEN_COMMAND, DEBIAN_PACKAGE, version or "(version unknown)", DEBIAN_PACKAGE,
       len(words), MIN_LEN, MAX_LEN, REGEN_COMMAND, DEBIAN_PACKAGE, version or "", MIN_LEN, MAX_LEN,
       len(words))
    body = "".join("    %r\n" % line for line in lines)
    return head + body + ")\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_output_arguments(ap, DEFAULT_OUTPUT)
    ap.add_argument("--source", default=DEFAULT_SOURCE, help="word list, one word a line (default: %(default)s)")
    args = ap.parse_args(argv)

    text = generate(args.source, package_version() if args.source == DEFAULT_SOURCE else None)
    return write_or_check(text, args.output, args.check, REGEN_COMMAND)


if __name__ == "__main__":
    sys.exit(main())
