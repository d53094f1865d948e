"""``irilint check``: its arguments, and the printing of its results."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional

from ..project import FileResult, Project, check_stdin, comma_list
from ..runner import Progress, save_cache, stream_files

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
        if not (args.fix or args.diff):
            from irilint import large_files

            # this process prints: a large file's findings go out as found
            checker.stream_above = large_files.STREAM_ABOVE
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except OSError as exc:
        print("irilint: error: %s: %s" % (args.config, exc.strerror or exc), file=sys.stderr)
        return 2

    progress = Progress(enabled=not args.no_progress and not use_stdin)
    memo = transcript = walked = None
    memo_walk: List[Any] = []  # the walk's items, for the memo's key
    if not use_stdin:
        from irilint import run_memo

        if run_memo.usable(args, checker):
            memo = run_memo.RunMemo(checker.cache, run_memo.query_digest(args, checker._cwd))
            try:
                record, walked = run_memo.walk_keyed(checker, paths, memo)
            except config.ConfigError:
                # walked again the per-file way, which tells it where it arises
                memo = walked = None
            else:
                if record is not None:
                    return _replay(checker, record, progress)
                walked = run_memo.kept(walked, memo_walk)
                transcript = run_memo.Transcript(sys.stdout, sys.stderr)
    printer = _Printer(args, use_stdin, progress, transcript)
    try:
        if use_stdin:
            printer.add(check_stdin(checker))
        else:
            # Each file's findings are written as soon as it is final (in
            # file order); the cache is saved after the last one.
            # No bar (stderr is no terminal): no call per file.
            step = (lambda item: progress.step(item.path)) if progress.enabled else None
            for outcome in stream_files(checker, paths, on_result=step, walked=walked):
                printer.add(outcome)
                del outcome  # printed: not held while the next file is checked, or the cache saved
            if checker.cache is not None and checker.cache.problem:
                printer.note_first("irilint: note: %s" % checker.cache.problem)
    except config.ConfigError as exc:
        progress.done()
        printer.discard()
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except BaseException:
        printer.discard()  # interrupted: no temporary output file is left
        raise
    progress.done()
    status = printer.finish()
    if memo is not None and transcript is not None and not (printer.visible.broken or printer.output_error):
        memo.remember(checker, memo_walk, transcript, status)
    return status


def _replay(checker: Project, record: Any, progress: Progress) -> int:
    """Print what the whole-run memo kept of this run (see irilint.run_memo)."""
    status, segments = record
    save_cache(checker, [])  # what the walk learnt (listings)
    visible = _Visible(sys.stdout, progress)
    # A note on the cache (its listings) comes first on stderr, as in a run that checks
    note = "irilint: note: %s\n" % checker.cache.problem if checker.cache.problem else ""
    for to_stderr, text in segments:
        if to_stderr:
            sys.stderr.write(note + text)
            note = ""
        else:
            visible.write(text)
    if note:
        sys.stderr.write(note)
    if visible.broken:
        raise BrokenPipeError("standard output closed")
    return status


class _Printer:
    """The output of a run, written as each file's result arrives: its
    findings (or their counts) to the sink, in any format; what goes to
    stderr (errors, skips, notes, hints, the summary) is told at the end,
    in the order of the results.  The bytes are those of printing every
    result at the end."""

    def __init__(self, args: argparse.Namespace, use_stdin: bool, progress: Progress,
                 transcript: Any = None) -> None:
        self.args = args
        self.progress = progress
        # (recorded for the whole-run memo: irilint.run_memo.Transcript)
        self.stdout = sys.stdout if transcript is None else transcript.stdout
        self.stderr = sys.stderr if transcript is None else transcript.stderr
        self.errors = 0
        self.fixed_total = 0
        self.found_failing = False
        self.reported = 0
        self.checked = 0
        #: config error -> the paths it kept from being checked
        self.not_checked: Dict[str, List[str]] = {}
        # What JSON and SARIF list besides findings: each path that could
        # not be checked (or fixed), and each one skipped, as stderr tells.
        self.unchecked: List[Any] = []
        #: the lines for stderr, told after the run
        self.messages: List[str] = []
        self.hints: Dict[str, None] = {}  # what to do, once per kind of problem, in order
        #: (path, fixed rules) of each file --fix fixed
        self.fixed: List[Any] = []
        self.output_error: Optional[OSError] = None
        self.output: Any = None
        self.visible = _Visible(self.stdout, progress)
        # With the fixed text on stdout (stdin --fix) or a diff, findings go
        # to stderr after the other messages, so the two never mix; with
        # --output-file, to that file.
        self.deferred = None
        if args.output_file:
            from irilint.fileio import AtomicTextOutput

            try:
                self.output = AtomicTextOutput(args.output_file)
            except OSError as exc:
                self.output_error = exc
            self.sink: Any = self.output if self.output is not None else _Discard()
        elif (use_stdin and args.fix) or args.diff:
            import io

            self.sink = self.deferred = io.StringIO()
        else:
            self.sink = self.visible
        fmt = args.format
        self.statistics = _Statistics() if args.statistics else None
        self.array: Any = None
        if self.statistics is None and fmt == "json":
            from irilint.output import JsonArrayWriter

            self.array = JsonArrayWriter(self.sink)
        elif self.statistics is None and fmt == "sarif":
            import tempfile

            from irilint.output import JsonArrayWriter, sarif_rule_index

            # SARIF lists what was not checked before the results: those
            # wait in a spool file until the run is over (in memory when
            # no temporary file can be made).
            try:
                self.spool: Any = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass")
            except OSError:
                import io

                self.spool = io.StringIO()
            self.array = JsonArrayWriter(self.spool, _SARIF_RESULTS_DEPTH)
            self.rule_index = sarif_rule_index()

    def note_first(self, line: str) -> None:
        """A line for stderr before those of the results."""
        self.messages.insert(0, line)

    def add(self, o: FileResult) -> None:
        # Imports where they are needed: a function-level import costs
        # about a microsecond, and a warm run adds a result per file.
        if not (o.error or o.skipped or o.config_error):
            self.checked += 1
        if o.config_error:
            self.not_checked.setdefault(o.config_error, []).append(o.path)
            self.unchecked.append(("error", o.path, o.error or o.config_error))
            return
        if o.error:
            from irilint.messages import advice

            self.errors += 1
            self.messages.append("irilint: error: %s" % o.error)
            self.hints.setdefault(advice(o.error) or "", None)
            self.unchecked.append(("error", o.path, o.error))
            if not o.reported:
                return
        if o.skipped:
            from irilint.messages import advice

            self.messages.append("irilint: skipped %s" % o.skipped)
            self.hints.setdefault(advice(o.skipped) or "", None)
            self.unchecked.append(("skipped", o.path, "skipped " + o.skipped))
            return
        if o.note:
            from irilint.messages import advice

            self.messages.append("irilint: note: %s" % o.note)
            self.hints.setdefault(advice(o.note) or "", None)
        self.fixed_total += o.fixed
        stdout = self.visible
        if o.diff:
            stdout.write(o.diff)
        if o.new_text is not None:
            stdout.write(o.new_text)
        if o.new_bytes is not None:
            stdout.write_bytes(o.new_bytes)
        if o.fixed and getattr(o, "fixed_rules", None):
            self.fixed.append((o.path, o.fixed_rules))
        reported = o.reported
        if type(reported) is not list:
            from irilint.large_files import LocatedStream

            if isinstance(reported, LocatedStream):
                self._add_stream(o)
                return
        if not reported:
            return
        from irilint.findings import Severity
        from irilint.output import findings_of

        self.reported += len(reported)
        threshold = Severity.parse(o.fail_level)
        if not self.found_failing:
            self.found_failing = any(f.severity >= threshold for f in findings_of(reported))
        self._writing(self._write, o)

    def _add_stream(self, o: FileResult) -> None:
        """A large file's findings (irilint.large_files.LocatedStream), read
        once: written as they are found, counted and judged against the
        fail level as they pass."""
        from irilint.findings import Severity

        stream = o.reported
        self._writing(self._write, o)
        for _ in stream.findings:  # type: ignore[attr-defined]
            pass  # those left when the output was lost: still counted
        self.reported += stream.count  # type: ignore[attr-defined]
        worst = stream.worst  # type: ignore[attr-defined]
        if worst is not None and worst >= Severity.parse(o.fail_level):
            self.found_failing = True

    def _writing(self, write: Any, *args: Any) -> None:
        """``write(*args)``; an output file that fails is given up
        (:meth:`_lose_output`), a failing stdout raises."""
        try:
            write(*args)
        except OSError as exc:
            if self.output is None:
                raise
            self._lose_output(exc)

    def _write(self, o: FileResult) -> None:
        args = self.args
        if self.statistics is not None:
            self.statistics.add(o.reported)
            return
        fmt = args.format
        sink = self.sink
        if fmt == "json":
            from irilint.output import finding_json_text

            add, index, indent = self.array.add_text, o.index, self.array.item_indent
            for r in o.reported:
                add(finding_json_text(r, index, indent))
        elif fmt == "sarif":
            from irilint.output import sarif_result_text

            add, index, rule_index, indent = self.array.add_text, o.index, self.rule_index, self.array.item_indent
            for r in o.reported:
                add(sarif_result_text(r, index, rule_index, indent))
        else:
            from irilint.output import format_github, format_text

            line = format_github if fmt == "github" else format_text
            fixes = fmt == "text" and args.show_fixes and not args.fix
            # A few hundred lines a write: not a write per line, nor a copy
            # of a dense file's whole output.
            lines: List[str] = []
            count = 0
            for r in o.reported:
                lines.append(line(r) + "\n")
                if fixes:
                    for fx in r.finding.fixes:
                        lines.append("    fix (%s): %s\n" % ("safe" if fx.safe else "unsafe", fx.title))
                count += 1
                if count == _LINES_A_WRITE:
                    sink.write("".join(lines))
                    lines, count = [], 0
            if lines:
                sink.write("".join(lines))

    def _lose_output(self, exc: OSError) -> None:
        # The output file cannot be written (a full disk): the run goes on,
        # and says so at the end, as when the file cannot be made.
        if self.output_error is None:
            self.output_error = exc
        if self.output is not None:
            self.output.discard()
            self.output = None
        self.sink = _Discard()
        if self.array is not None and self.args.format == "json":
            self.array.out = self.sink

    def discard(self) -> None:
        """The run stopped: no output file."""
        if self.output is not None:
            self.output.discard()
            self.output = None

    def finish(self) -> int:
        """Tell the rest (stderr, the end of the output); the exit status."""
        args = self.args
        from irilint.messages import CONFIG_ADVICE

        err = self.stderr
        for line in self.messages:
            print(line, file=err)
        # A broken config stops only the files it governs; each error is
        # told once, with the files it kept from being checked (exit 2).
        for message, names in self.not_checked.items():
            self.errors += 1
            shown = ", ".join(names[:5]) + (" and %d more" % (len(names) - 5) if len(names) > 5 else "")
            print("irilint: error: %s" % message, file=err)
            print("irilint: error: not checked because of this configuration error: %s" % shown, file=err)
            self.hints.setdefault(CONFIG_ADVICE, None)
        for hint in self.hints:
            if hint:
                print("irilint: hint: %s" % hint, file=err)
        if self.visible.broken:
            # Told where the output used to be written whole, after the run.
            raise BrokenPipeError("standard output closed")
        self._writing(self._finish_output)
        if self.visible.broken:
            raise BrokenPipeError("standard output closed")
        if self.output is not None:
            try:
                self.output.commit()
            except OSError as exc:
                self.output = None
                self._lose_output(exc)
        if self.output_error is not None:
            exc = self.output_error
            print("irilint: error: cannot write %s: %s" % (args.output_file, exc.strerror or exc), file=err)
            return 2
        if self.errors:
            return 2
        if args.exit_zero:
            return 0
        return 1 if self.found_failing else 0

    def _finish_output(self) -> None:
        args = self.args
        sink = self.sink
        if self.statistics is not None:
            # Only the counts (ruff --statistics): no findings, no summary.
            self.statistics.write(sink)
        elif args.format == "json":
            from irilint.output import NotChecked, not_checked_json

            for k, p, m in self.unchecked:
                self.array.add(not_checked_json(NotChecked(p, k, m)))
            self.array.close()
            sink.write("\n")
        elif args.format == "sarif":
            import json

            from irilint import __version__
            from irilint.output import NotChecked, sarif_descriptors, sarif_skeleton

            self.array.close()
            log = sarif_skeleton(sarif_descriptors(), __version__,
                                 [NotChecked(p, k, m) for k, p, m in self.unchecked])
            text = json.dumps(log, ensure_ascii=False, indent=2)
            at = text.rindex('"results": []') + len('"results": ')
            sink.write(text[:at])
            spool = self.spool
            spool.seek(0)
            while True:
                chunk = spool.read(1 << 16)
                if not chunk:
                    break
                sink.write(chunk)
            spool.close()
            sink.write(text[at + 2:] + "\n")
        elif args.format == "text" and args.show_fixes and args.fix:
            _print_fixed(self.fixed, sink)
        if self.deferred is not None:
            self.stderr.write(self.deferred.getvalue())
            self.deferred = None
        if args.format == "text" and self.statistics is None:
            if not args.quiet:
                n, fixed_total = self.reported, self.fixed_total
                summary = []
                if n:
                    summary.append("Found %d problem%s." % (n, "" if n == 1 else "s"))
                if fixed_total:
                    summary.append("Fixed %d problem%s." % (fixed_total, "" if fixed_total == 1 else "s"))
                if not n:
                    checked = self.checked
                    summary.append("No problems %s in %d file%s." % (
                        "left" if fixed_total else "found", checked, "" if checked == 1 else "s"))
                print(" ".join(summary), file=self.stderr)


#: findings written at once in text and GitHub output
_LINES_A_WRITE = 512

#: how deep the results array of a SARIF log is nested (log, runs, run)
_SARIF_RESULTS_DEPTH = 3


class _Visible:
    """Standard output while the progress line may show on stderr (both
    can be the terminal): the line is cleared before findings are written.
    A reader that went away (``| head``) does not cut the run short: the
    rest of the output is dropped, and the run ends as it did when it
    wrote everything at the end (the cache saved, exit 0)."""

    def __init__(self, out: Any, progress: Progress) -> None:
        self.out = out
        self.progress = progress
        self.broken = False

    def write(self, text: str) -> None:
        if self.broken:
            return
        if self.progress.shown:
            self.progress.done()
        try:
            self.out.write(text)
        except BrokenPipeError:
            self.broken = True

    def write_bytes(self, data: bytes) -> None:
        if self.broken:
            return
        try:
            self.out.flush()
            getattr(self.out, "buffer", self.out).write(data)
        except BrokenPipeError:
            self.broken = True


class _Discard:
    def write(self, text: str) -> None:
        pass


def _print_fixed(fixed: List[Any], out: Any) -> None:
    """What --fix fixed, per file and rule (--show-fixes): ``fixed`` holds
    (path, {(code, name): count}) of each file fixed."""
    total = sum(n for _, rules in fixed for n in rules.values())
    if not total:
        return
    out.write("Fixed %d problem%s:\n" % (total, "" if total == 1 else "s"))
    for path, rules in fixed:
        out.write("- %s:\n" % path)
        for (code, name), n in sorted(rules.items(), key=lambda item: (-item[1], item[0])):
            out.write("    %d × %s (%s)\n" % (n, code, name))


class _Statistics:
    """A count per rule, most frequent first (like ruff --statistics);
    "[*]" when ``--fix`` can fix some of them (a fix the rule calls safe is
    not where the reference is data)."""

    def __init__(self) -> None:
        self.counts: Dict[str, List[Any]] = {}

    def add(self, reported: Any) -> None:
        from irilint.output import findings_of

        counts = self.counts
        for f in findings_of(reported):
            rule = f.rule
            row = counts.get(rule.name)
            if row is None:
                row = counts[rule.name] = [rule, 0, False]
            row[1] += 1
            row[2] = row[2] or any(fx.safe for fx in f.fixes)

    def write(self, out: Any) -> None:
        rows = sorted(self.counts.values(), key=lambda x: (-x[1], x[0].code))
        for rule, n, safe_fix in rows:
            fixable = "[*]" if safe_fix else "   "
            out.write("%5d  %s  %s %-28s %s\n" % (n, rule.code, fixable, rule.name, rule.severity.label))
        if rows:
            out.write("%5d  total\n" % sum(n for _, n, _ in rows))


def _print_statistics(reported: List[Any], out: Any) -> None:
    """The statistics of ``reported`` (see :class:`_Statistics`)."""
    stats = _Statistics()
    stats.add(reported)
    stats.write(out)
