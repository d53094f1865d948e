#!/usr/bin/env python
"""Generate ``server/well_known_domains.py`` (imported as ``irilint.well_known_domains``).

Usage::

    python tools/gen_well_known_domains.py            # rewrite server/well_known_domains.py
    python tools/gen_well_known_domains.py -o FILE    # write somewhere else ("-" = stdout)
    python tools/gen_well_known_domains.py --check    # exit 1 if the committed file is stale
    python tools/gen_well_known_domains.py --input LIST   # read another copy of the list
    python tools/gen_well_known_domains.py --import-raw domains.list --revision COMMIT
        # a new revision: write tools/data/chromium_domains.list (header + the raw file), then
        # run the first form

The input is Chromium's list of top domains
(``components/url_formatter/spoof_checks/top_domains/domains.list`` in
chromium/chromium, BSD-style licence), committed as
``tools/data/chromium_domains.list``: a header of ``#`` lines naming its
source, revision and licence, then the source file as it is at that
revision.  Chromium's IDN spoof checker shows a host as Punycode when its
skeleton is that of one of these domains without being it; irilint's
``confusable-collision`` does the same comparison with them when the
configuration says ``well-known-domains = true``.

What is kept: every line of the list that is a valid host name (LDH labels
of 1..63 characters, at most 253 characters, a Unicode label only when
IDNA 2008 accepts it) of at least two labels whose top-level label is not
a number, once.  Blank lines, ``#`` comments and the ``###END_TOP_BUCKET###``
marker are dropped; so is anything else, each counted, with its reason, in
the generated module's header.  Entries that are themselves public suffixes
of the Public Suffix List's private section (``github.io``,
``blogspot.com``, ``herokuapp.com``: 20 at this revision) are kept, as
Chromium keeps them: people know them, a spoof of them is one, and a host
under them (``someone.github.io``) shows the real name.  The Public Suffix
List is not an input (the tool needs nothing that is not committed).

The generated module holds, for the rule, each domain's identity and the
skeletons the rule compares hosts with, computed by the rule's own code
(``irilint.rules.lookalike.collisions.domain_skeletons``) so that loading it
is one import.  Because they are computed, a change of the skeleton code
(UTS #39 data, the policy's letter table) makes the committed module stale:
``--check`` (run by the tests) says so.

The output is byte-identical when run twice.  Needs irilint importable (an
installed or editable checkout); runs offline.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated_output import add_output_arguments, write_or_check  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_INPUT = os.path.join(REPO_ROOT, "tools", "data", "chromium_domains.list")
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "server", "well_known_domains.py")
REGEN_COMMAND = "python tools/gen_well_known_domains.py"
TOP_BUCKET_MARKER = "###END_TOP_BUCKET###"
SOURCE_PATH = "components/url_formatter/spoof_checks/top_domains/domains.list"

_LDH_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z")


#: The notice of Chromium's LICENSE, which its licence asks a copy to keep.
CHROMIUM_LICENSE = """\
Copyright 2015 The Chromium Authors

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are
met:

   * Redistributions of source code must retain the above copyright
notice, this list of conditions and the following disclaimer.
   * Redistributions in binary form must reproduce the above
copyright notice, this list of conditions and the following disclaimer
in the documentation and/or other materials provided with the
distribution.
   * Neither the name of Google LLC nor the names of its
contributors may be used to endorse or promote products derived from
this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
"AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
(INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""


class ListError(Exception):
    """The input cannot be used (the message names the file and line)."""


class Parsed(NamedTuple):
    revision: str
    #: (line number, domain as written) in the list's order
    domains: List[Tuple[int, str]]
    #: how many domains come before the top-bucket marker
    top_bucket: int
    #: reason -> how many lines were dropped for it
    dropped: Dict[str, int]
    #: (line number, text, reason) of the entries dropped as invalid
    invalid: List[Tuple[int, str, str]]


def hostname_problem(domain: str) -> Optional[str]:
    """Why ``domain`` is not a valid, registrable host name, or None."""
    import idna

    if domain != domain.lower():
        return "not in lower case"
    try:
        ascii_form = domain if domain.isascii() else idna.encode(domain).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        return "not a valid internationalized name (%s)" % exc
    if len(ascii_form) > 253:
        return "longer than 253 characters"
    labels = ascii_form.split(".")
    if len(labels) < 2:
        return "a single label, not a registrable domain"
    for label in labels:
        if not _LDH_LABEL.match(label):
            return "label %r is not letters, digits and inner hyphens (1..63)" % label
        if label.startswith("xn--"):
            try:
                idna.decode(label)
            except (idna.IDNAError, UnicodeError) as exc:
                return "label %r is not a valid A-label (%s)" % (label, exc)
    if labels[-1].isdigit():
        return "a numeric top-level label (an IP address?)"
    return None


def parse(path: str) -> Parsed:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except OSError as exc:
        raise ListError("%s: cannot read: %s" % (path, exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise ListError("%s: not UTF-8 at byte %d" % (path, exc.start)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header_end = 0
    while header_end < len(lines) and lines[header_end].startswith("#") \
            and lines[header_end].strip() != TOP_BUCKET_MARKER:
        header_end += 1
    header = lines[:header_end]
    revision = None
    names_source = False
    for line in header:
        m = re.match(r"#\s*Revision:\s*([0-9a-f]{40})\s*\Z", line)
        if m:
            revision = m.group(1)
        if SOURCE_PATH in line and "chromium/chromium" in line:
            names_source = True
    if revision is None or not names_source:
        raise ListError("%s: the header (its leading '#' lines) must name the source "
                        "'chromium/chromium, %s' and its 'Revision: <40 hex digits>'" % (path, SOURCE_PATH))
    dropped: Dict[str, int] = {}
    invalid: List[Tuple[int, str, str]] = []
    domains: List[Tuple[int, str]] = []
    seen = set()
    top_bucket = None
    for n, raw in enumerate(lines[header_end:], header_end + 1):
        line = raw.strip()
        if not line:
            reason = "blank"
        elif line == TOP_BUCKET_MARKER:
            if top_bucket is not None:
                raise ListError("%s:%d: a second %s line" % (path, n, TOP_BUCKET_MARKER))
            top_bucket = len(domains)
            reason = "the top-bucket marker"
        elif line.startswith("#"):
            reason = "comment"
        elif line in seen:
            reason = "repeated"
        else:
            problem = hostname_problem(line)
            if problem is None:
                seen.add(line)
                domains.append((n, line))
                continue
            invalid.append((n, line, problem))
            reason = "not a valid, registrable host name"
        dropped[reason] = dropped.get(reason, 0) + 1
    if top_bucket is None:
        raise ListError("%s: no %s line (is it Chromium's domains.list?)" % (path, TOP_BUCKET_MARKER))
    if not domains:
        raise ListError("%s: no domains" % path)
    return Parsed(revision, domains, top_bucket, dropped, invalid)


def data_file_text(raw: str, revision: str) -> str:
    """The committed input: a header naming the source, ``revision`` and the
    licence (with its notice), then ``raw``, Chromium's file, unchanged."""
    if not re.fullmatch(r"[0-9a-f]{40}", revision):
        raise ListError("--revision: %r is not a 40-digit commit id" % revision)
    if TOP_BUCKET_MARKER not in raw.split("\n"):
        raise ListError("no %s line: not Chromium's domains.list" % TOP_BUCKET_MARKER)
    if raw and not raw.endswith("\n"):
        raw += "\n"
    lines = [
        "Chromium's list of top domains: the domains its IDN spoof checker compares the",
        "skeletons of hosts with (a host whose skeleton is that of a top domain, without",
        "being it, is shown as Punycode).",
        "Source: chromium/chromium, %s" % SOURCE_PATH,
        "Revision: %s" % revision,
        "Licence of the source: BSD-style (Chromium's LICENSE), whose notice follows.",
        "",
    ]
    lines += [("  " + line) if line else "" for line in CHROMIUM_LICENSE.split("\n")[:-1]]
    lines += [
        "",
        "Below this header: the source file exactly as it is at that revision (%d lines,"
        % raw.count("\n"),
        "{:,} bytes; the top bucket ends at the line {}).  It is the".format(
            len(raw.encode("utf-8")), TOP_BUCKET_MARKER),
        "input of tools/gen_well_known_domains.py, which writes server/well_known_domains.py.",
    ]
    return "".join(("# " + line).rstrip() + "\n" for line in lines) + raw


def _skeleton_table(parsed: Parsed, path: str) -> Tuple[List[str], Dict[str, List[str]]]:
    """(identities in the list's order, skeleton -> identities of that
    skeleton in the list's order)."""
    from irilint.rules.lookalike.collisions import _decode_domain, _host_identity, domain_skeletons

    idents: List[str] = []
    table: Dict[str, List[str]] = {}
    for n, domain in parsed.domains:
        ident = _host_identity(_decode_domain(domain))
        if not ident:
            raise ListError("%s:%d: %r has no host identity" % (path, n, domain))
        idents.append(ident)
        for sk in domain_skeletons(ident):
            owners = table.setdefault(sk, [])
            if ident not in owners:
                owners.append(ident)
    return idents, table


def generate(input_path: str = DEFAULT_INPUT) -> str:
    parsed = parse(input_path)
    idents, table = _skeleton_table(parsed, input_path)
    shared = sum(1 for owners in table.values() if len(owners) > 1)
    reasons = ", ".join("%d %s" % (count, reason) for reason, count in sorted(parsed.dropped.items()))
    lines = [
        '"""Well-known domains for ``confusable-collision`` (GENERATED; do not edit).',
        "",
        "Regenerate with ``%s``; how and why is in that script." % REGEN_COMMAND,
        "Imported only when the configuration says ``well-known-domains = true``.",
        "",
        "Source: Chromium's list of top domains, chromium/chromium",
        "%s," % SOURCE_PATH,
        "revision %s (committed as tools/data/chromium_domains.list)." % parsed.revision,
        "Licence of the source: BSD-style, Copyright The Chromium Authors (the notice",
        "is in tools/data/chromium_domains.list).",
        "",
        "Kept: %d domains (%d in the top bucket), %d skeletons (%d of them shared by"
        % (len(idents), parsed.top_bucket, len(table), shared),
        "more than one domain).  Lines dropped: %s." % (reasons or "none"),
    ]
    for n, text, problem in parsed.invalid:
        lines.append("Dropped line %d, %s: %s." % (n, ascii(text), problem))
    lines += [
        '"""',
        "",
        "REGENERATE_COMMAND = %r" % REGEN_COMMAND,
        "SOURCE_REVISION = %r" % parsed.revision,
        "DOMAIN_COUNT = %d" % len(idents),
        "TOP_BUCKET_COUNT = %d" % parsed.top_bucket,
        "",
        "#: the domains as irilint identifies hosts (lower case, Unicode), in the",
        "#: list's order: the top bucket first",
        "DOMAINS = (",
    ]
    lines += ["    %s," % ascii(ident) for ident in idents]
    lines += [
        ")",
        "",
        "#: skeleton -> the domains it is the skeleton of, in the list's order (the",
        "#: skeletons of irilint.rules.lookalike.collisions.domain_skeletons)",
        "SKELETONS = {",
    ]
    lines += ["    %s: (%s,)," % (ascii(sk), ", ".join(ascii(o) for o in owners))
              for sk, owners in table.items()]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", default=DEFAULT_INPUT, help="the list (default: %(default)s)")
    add_output_arguments(ap, DEFAULT_OUTPUT)
    ap.add_argument("--import-raw", metavar="RAW",
                    help="write --input from RAW, a copy of Chromium's domains.list, instead")
    ap.add_argument("--revision", help="with --import-raw: the chromium/chromium commit RAW is from")
    args = ap.parse_args(argv)
    if args.import_raw:
        try:
            if not args.revision:
                raise ListError("--import-raw needs --revision COMMIT")
            try:
                with open(args.import_raw, encoding="utf-8", newline="") as fh:
                    raw = fh.read()
            except OSError as exc:
                raise ListError("%s: cannot read: %s" % (args.import_raw, exc.strerror or exc)) from None
            except UnicodeDecodeError as exc:
                raise ListError("%s: not UTF-8 at byte %d" % (args.import_raw, exc.start)) from None
            try:
                text = data_file_text(raw, args.revision)
            except ListError as exc:
                raise ListError("%s: %s" % (args.import_raw, exc)) from None
        except ListError as exc:
            print("gen_well_known_domains: %s" % exc, file=sys.stderr)
            return 2
        with open(args.input, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return 0
    try:
        text = generate(args.input)
    except ListError as exc:
        print("gen_well_known_domains: %s" % exc, file=sys.stderr)
        return 2
    return write_or_check(text, args.output, args.check, REGEN_COMMAND)


if __name__ == "__main__":
    sys.exit(main())
