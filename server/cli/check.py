"""``irilint check``: its arguments, and the printing of its results."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List

from ..project import FileResult, Project, check_stdin, comma_list
from ..runner import Progress, check_files, save_cache

LEVELS = ("error", "warning", "info", "hint")
FORMATS = ("text", "json", "sarif", "github")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("check", help="check files, directories or stdin for IRI problems")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (default: .); '-' reads stdin")
    p.add_argument("--stdin-filename", metavar="NAME",
                   help="the file name stdin stands for (chooses the scanner and config)")
    p.add_argument("--select", type=comma_list, action="extend", metavar="RULES",
                   help="only these rules (names, codes, code prefixes or families; comma-separated)")
    p.add_argument("--extend-select", type=comma_list, action="extend", metavar="RULES",
                   help="rules to add to the selection")
    p.add_argument("--ignore", type=comma_list, action="extend", metavar="RULES",
                   help="rules to leave out")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--fail-level", choices=LEVELS, default=None,
                   help="exit 1 when a finding of this severity or above is found (default: warning)")
    p.add_argument("--fix", action="store_true", help="apply safe fixes")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too")
    p.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    p.add_argument("--config", metavar="FILE",
                   help="use this config file instead of searching for one")
    p.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    p.add_argument("--statistics", action="store_true",
                   help="print only a count of findings per rule (no findings, no summary)")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when findings are found (2 still means an error)")
    p.add_argument("--output-file", "-o", metavar="PATH",
                   help="write the findings (or statistics) to PATH instead of standard output; "
                        "the file is replaced atomically")
    p.add_argument("--show-fixes", action="store_true",
                   help="text output: under each finding, the fixes it offers; with --fix, "
                        "what was fixed, per file and rule")
    p.add_argument("--exclude", type=comma_list, action="extend", metavar="GLOBS",
                   help="files and folders to leave out, replacing the configured and default "
                        "excludes (the 'exclude' key's globs; comma-separated)")
    p.add_argument("--extend-exclude", type=comma_list, action="extend", metavar="GLOBS",
                   help="files and folders to leave out besides the configured and default "
                        "excludes (the 'extend-exclude' key's globs; comma-separated)")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes (default: all cores; 1: no workers)")
    p.add_argument("--no-cache", action="store_true",
                   help="do not read or write the result cache (.irilint_cache/)")
    p.add_argument("--follow-symlinks", action="store_true",
                   help="follow symbolic links that lead outside the given paths, and let --fix "
                        "write through them (by default such a link met in a walk is skipped "
                        "with a note, and a link named on the command line is checked but not "
                        "fixed unless its target is under its own folder or another given path)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it only shows when stderr is a terminal)")
    return p


def run(args: argparse.Namespace) -> int:
    import gc

    # A run keeps an outcome per file (and a warm run a cache entry per
    # file) alive to the end: with the default threshold, the collector
    # walked them all again and again (~20% of a warm run).  Cycles are
    # rare here; they are still collected, just less often.
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], _GC_THRESHOLD), *threshold[1:])
    # What is loaded so far (modules, tables) lives to the end: frozen, no
    # collection walks it again.
    gc.freeze()
    try:
        return _cmd_check(args)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


#: allocations between two collections of the youngest generation in a run
_GC_THRESHOLD = 50000


def _cmd_check(args: argparse.Namespace) -> int:
    from irilint import config
    from irilint.findings import Severity

    if args.unsafe_fixes and not (args.fix or args.diff):
        print("irilint: error: --unsafe-fixes needs --fix or --diff", file=sys.stderr)
        return 2
    paths = list(args.paths) or ["."]
    use_stdin = paths == ["-"]
    if "-" in paths and not use_stdin:
        print("irilint: error: '-' (stdin) cannot be mixed with paths", file=sys.stderr)
        return 2
    try:
        checker = Project(args)
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except OSError as exc:
        print("irilint: error: %s: %s" % (args.config, exc.strerror or exc), file=sys.stderr)
        return 2

    outcomes: List[FileResult] = []
    errors = 0
    progress = Progress(enabled=not args.no_progress and not use_stdin)
    try:
        if use_stdin:
            outcomes.append(check_stdin(checker))
        else:
            outcomes = check_files(checker, paths, on_result=lambda item: progress.step(item.path))
            save_cache(checker, outcomes)
            if checker.cache is not None and checker.cache.problem:
                print("irilint: note: %s" % checker.cache.problem, file=sys.stderr)
    except config.ConfigError as exc:
        progress.done()
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    progress.done()

    # -- output
    fmt = args.format
    stdout = sys.stdout
    all_reported = []
    fixed_total = 0
    found_failing = False
    not_checked: Dict[str, List[str]] = {}
    # What JSON and SARIF list besides findings: each path that could not
    # be checked (or fixed), and each one skipped, as stderr tells them.
    unchecked: List[Any] = []
    from irilint.messages import CONFIG_ADVICE, advice

    hints: Dict[str, None] = {}  # what to do, once per kind of problem, in order
    for o in outcomes:
        if o.config_error:
            not_checked.setdefault(o.config_error, []).append(o.path)
            unchecked.append(("error", o.path, o.error or o.config_error))
            continue
        if o.error:
            errors += 1
            print("irilint: error: %s" % o.error, file=sys.stderr)
            hints.setdefault(advice(o.error) or "", None)
            unchecked.append(("error", o.path, o.error))
            if not o.reported:
                continue
        if o.skipped:
            print("irilint: skipped %s" % o.skipped, file=sys.stderr)
            hints.setdefault(advice(o.skipped) or "", None)
            unchecked.append(("skipped", o.path, "skipped " + o.skipped))
            continue
        if o.note:
            print("irilint: note: %s" % o.note, file=sys.stderr)
            hints.setdefault(advice(o.note) or "", None)
        fixed_total += o.fixed
        if o.diff:
            stdout.write(o.diff)
        if o.new_text is not None:
            stdout.write(o.new_text)
        if o.new_bytes is not None:
            stdout.flush()
            getattr(stdout, "buffer", stdout).write(o.new_bytes)
        if o.reported:
            threshold = Severity.parse(o.fail_level)
            for r in o.reported:
                if r.finding.severity >= threshold:
                    found_failing = True
        all_reported.extend((o, r) for r in o.reported)
    # A broken config stops only the files it governs; each error is told
    # once, with the files it kept from being checked (exit 2 below).
    for message, names in not_checked.items():
        errors += 1
        shown = ", ".join(names[:5]) + (" and %d more" % (len(names) - 5) if len(names) > 5 else "")
        print("irilint: error: %s" % message, file=sys.stderr)
        print("irilint: error: not checked because of this configuration error: %s" % shown, file=sys.stderr)
        hints.setdefault(CONFIG_ADVICE, None)
    for hint in hints:
        if hint:
            print("irilint: hint: %s" % hint, file=sys.stderr)

    # With the fixed text on stdout (stdin --fix) or a diff, findings go to
    # stderr so the two never mix; with --output-file, to that file.
    sink = sys.stderr if (use_stdin and args.fix) or args.diff else stdout
    if args.output_file:
        import io

        sink = io.StringIO()
    if args.statistics:
        # Only the counts (ruff --statistics): no findings, no summary.
        _print_statistics([r for _, r in all_reported], sink)
    elif fmt == "json":
        from irilint.output import NotChecked, dumps_json, not_checked_json, to_json_obj

        items = [to_json_obj(r, o.index) for o, r in all_reported]
        items.extend(not_checked_json(NotChecked(p, k, m)) for k, p, m in unchecked)
        sink.write(dumps_json(items) + "\n")
    elif fmt == "sarif":
        import json

        from irilint import __version__
        from irilint.output import NotChecked, sarif_log

        indexes = {o.path: o.index for o in outcomes if o.index is not None}
        log = sarif_log([r for _, r in all_reported], indexes, __version__,
                        [NotChecked(p, k, m) for k, p, m in unchecked])
        sink.write(json.dumps(log, ensure_ascii=False, indent=2) + "\n")
    elif fmt == "github":
        from irilint.output import format_github

        for _, r in all_reported:
            sink.write(format_github(r) + "\n")
    else:
        from irilint.output import format_text

        for _, r in all_reported:
            sink.write(format_text(r) + "\n")
            if args.show_fixes and not args.fix:
                for fx in r.finding.fixes:
                    sink.write("    fix (%s): %s\n" % ("safe" if fx.safe else "unsafe", fx.title))
        if args.show_fixes and args.fix:
            _print_fixed(outcomes, sink)
        if not args.quiet:
            n = len(all_reported)
            summary = []
            if n:
                summary.append("Found %d problem%s." % (n, "" if n == 1 else "s"))
            if fixed_total:
                summary.append("Fixed %d problem%s." % (fixed_total, "" if fixed_total == 1 else "s"))
            if not n:
                checked = sum(1 for o in outcomes if not (o.error or o.skipped or o.config_error))
                summary.append("No problems %s in %d file%s." % (
                    "left" if fixed_total else "found", checked, "" if checked == 1 else "s"))
            print(" ".join(summary), file=sys.stderr)
    if args.output_file:
        from irilint.fileio import write_file_atomic

        try:
            text = sink.getvalue()
            try:  # a file name read from the disk goes back as its bytes
                data = text.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                data = text.encode("utf-8", "backslashreplace")
            write_file_atomic(args.output_file, data)
        except OSError as exc:
            print("irilint: error: cannot write %s: %s" % (args.output_file, exc.strerror or exc),
                  file=sys.stderr)
            return 2
    if errors:
        return 2
    if args.exit_zero:
        return 0
    return 1 if found_failing else 0


def _print_fixed(outcomes: List[FileResult], out: Any) -> None:
    """What --fix fixed, per file and rule (--show-fixes)."""
    fixed = [(o.path, o.fixed_rules) for o in outcomes if o.fixed and o.fixed_rules]
    total = sum(n for _, rules in fixed for n in rules.values())
    if not total:
        return
    out.write("Fixed %d problem%s:\n" % (total, "" if total == 1 else "s"))
    for path, rules in fixed:
        out.write("- %s:\n" % path)
        for (code, name), n in sorted(rules.items(), key=lambda item: (-item[1], item[0])):
            out.write("    %d × %s (%s)\n" % (n, code, name))


def _print_statistics(reported: List[Any], out: Any) -> None:
    """A count per rule, most frequent first (like ruff --statistics);
    "[*]" when ``--fix`` can fix some of them (a fix the rule calls safe is
    not where the reference is data)."""
    counts: Dict[str, List[Any]] = {}
    for r in reported:
        row = counts.setdefault(r.rule.name, [r.rule, 0, False])
        row[1] += 1
        row[2] = row[2] or any(fx.safe for fx in r.finding.fixes)
    rows = sorted(counts.values(), key=lambda x: (-x[1], x[0].code))
    for rule, n, safe_fix in rows:
        fixable = "[*]" if safe_fix else "   "
        out.write("%5d  %s  %s %-28s %s\n" % (n, rule.code, fixable, rule.name, rule.severity.label))
    if rows:
        out.write("%5d  total\n" % sum(n for _, n, _ in rows))


