"""The subcommands ``check``, ``rules``, ``explain``, ``config`` and ``server``."""
from __future__ import annotations

import argparse
import collections
import itertools
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

LEVELS = ("error", "warning", "info", "hint")
FORMATS = ("text", "json", "sarif", "github")
MAX_FIX_PASSES = 10


def _csv(value: str) -> List[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def add_subcommands(sub: Any) -> None:
    check = sub.add_parser("check", help="check files, directories or stdin for IRI problems")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files or directories (default: .); '-' reads stdin")
    check.add_argument("--stdin-filename", metavar="NAME",
                       help="the file name stdin stands for (chooses the scanner and config)")
    check.add_argument("--select", type=_csv, action="extend", metavar="RULES",
                       help="only these rules (names, codes, code prefixes or families; comma-separated)")
    check.add_argument("--extend-select", type=_csv, action="extend", metavar="RULES",
                       help="rules to add to the selection")
    check.add_argument("--ignore", type=_csv, action="extend", metavar="RULES",
                       help="rules to leave out")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    check.add_argument("--fail-level", choices=LEVELS, default=None,
                       help="exit 1 when a finding of this severity or above is found (default: warning)")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    check.add_argument("--config", metavar="FILE",
                       help="use this config file instead of searching for one")
    check.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    check.add_argument("--statistics", action="store_true", help="print a count of findings per rule")
    check.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="worker processes (default: all cores; 1: no workers)")
    check.add_argument("--no-cache", action="store_true",
                       help="do not read or write the result cache (.irilint_cache/)")
    check.add_argument("--follow-symlinks", action="store_true",
                       help="follow symbolic links that lead outside the given paths, and let --fix "
                            "write through them (by default such a link met in a walk is skipped "
                            "with a note, and a link named on the command line is checked but not "
                            "fixed unless its target is under its own folder or another given path)")
    check.add_argument("--no-progress", action="store_true",
                       help="no progress bar (it only shows when stderr is a terminal)")

    rules = sub.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    explain = sub.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("rule", metavar="NAME|CODE")

    config = sub.add_parser("config", help="print the effective settings for a path")
    config.add_argument("path", nargs="?", default=".", metavar="PATH")
    config.add_argument("--format", choices=("toml", "json"), default="toml")

    from irilint import report_args

    report_args.add_subcommand(sub)

    server = sub.add_parser("server", help="start the language server (stdio)")
    server.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    server.add_argument("--stdio", action="store_true", help="use stdio (the default)")


def run(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd == "check":
        return cmd_check(args)
    if cmd == "rules":
        return cmd_rules(args)
    if cmd == "explain":
        return cmd_explain(args)
    if cmd == "config":
        return cmd_config(args)
    if cmd == "report":
        from irilint import report

        return report.run(args)
    if cmd == "server":
        from irilint.lsp.server import main as server_main

        return server_main(tcp=args.tcp)
    raise AssertionError(cmd)


# -- rules / explain -------------------------------------------------------------


def _rule_obj(r: Any) -> Dict[str, Any]:
    return {"name": r.name, "code": r.code, "family": r.family, "severity": r.severity.label,
            "enabled": r.enabled, "fix": r.fix, "fix_in_data": r.fix_in_data, "summary": r.summary}


#: Where a rule's fixes are unsafe whatever it says (Rule.fix_in_data).
DATA_PLACES = ("in code outside comments and docstrings, in JSON/YAML/TOML values, "
               "in Turtle terms and literals")


def _fix_label(r: Any) -> str:
    """The rule's fix safety, "*" when it is less safe in data."""
    return r.fix + ("*" if r.fix_in_data != r.fix else "")


def cmd_rules(args: argparse.Namespace) -> int:
    from irilint.rules.registry import all_rules

    rules = all_rules()
    if args.format == "json":
        import json

        print(json.dumps([_rule_obj(r) for r in rules], indent=2, ensure_ascii=False))
        return 0
    width = max(len(r.name) for r in rules)
    for r in rules:
        print("%s  %-*s  %-16s %-7s %-3s fix:%-10s %s" % (
            r.code, width, r.name, r.family, r.severity.label, "on" if r.enabled else "off",
            _fix_label(r), r.summary))
    if any(r.fix_in_data != r.fix for r in rules):
        print("* unsafe, or only sometimes safe, in data: %s" % DATA_PLACES)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from irilint.rules.registry import get_rule

    r = get_rule(args.rule)
    if r is None:
        print("irilint: error: no rule named %r (see 'irilint rules')" % args.rule, file=sys.stderr)
        return 2
    print("# %s (%s)\n" % (r.name, r.code))
    fix = r.fix
    if r.fix_in_data != r.fix:
        fix += " (%s in data: %s)" % (r.fix_in_data, DATA_PLACES)
    print("Family: %s. Default severity: %s. Enabled by default: %s. Fix: %s.\n" % (
        r.family, r.severity.label, "yes" if r.enabled else "no", fix))
    print(r.doc.rstrip())
    return 0


# -- config ----------------------------------------------------------------------


def _validators() -> Tuple[Any, Any]:
    from irilint.rules.registry import is_selector
    from irilint.scanners import is_scanner_name

    return is_selector, is_scanner_name


def cmd_config(args: argparse.Namespace) -> int:
    from irilint import config

    vs, vsc = _validators()
    try:
        settings = config.settings_for(args.path, validate_selector=vs, validate_scanner=vsc)
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    data = config.settings_to_dict(settings)
    source = data.pop("source", None)
    if args.format == "json":
        import json

        print(json.dumps({"source": source, "settings": data}, indent=2, ensure_ascii=False))
        return 0
    print("# effective settings for %s" % args.path)
    print("# from: %s" % (source or "built-in defaults (no config file found)"))
    print(_toml(data))
    return 0


def _toml_value(v: Any) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)


def _toml(data: Dict[str, Any]) -> str:
    lines = []
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append("%s = %s" % (k, _toml_value(v)))
    for k, v in tables:
        lines.append("")
        lines.append("[%s]" % k)
        for kk, vv in v.items():
            lines.append("%s = %s" % (_toml_value(kk), _toml_value(vv)))
    return "\n".join(lines)


# -- check -----------------------------------------------------------------------


@dataclass
class FileOutcome:
    path: str
    reported: List[Any] = field(default_factory=list)
    error: Optional[str] = None
    skipped: Optional[str] = None
    fixed: int = 0
    new_text: Optional[str] = None  # stdin --fix output
    #: stdin --fix output in the input's encoding, when not UTF-8 (or with a BOM)
    new_bytes: Optional[bytes] = None
    diff: Optional[str] = None
    fail_level: str = "warning"
    index: Any = None  # positions of the text the findings refer to
    #: look-alike hosts of this file, for collisions across files: the
    #: cache's rows (``irilint.cache.host_rows``), relative to ``path``
    host_rows: Optional[List[List[Any]]] = None
    abspath: Optional[str] = None
    #: the result cache's entry for this file, saved by the parent process
    cache_line: Optional[bytes] = None
    #: (stat stamp, content digest) for the cache's stat index
    stamp: Optional[Tuple[Any, str]] = None
    #: the configuration error that kept this file from being checked
    config_error: Optional[str] = None
    #: something to tell about this file that is not a failure
    note: Optional[str] = None


def _overrides(args: argparse.Namespace) -> Dict[str, Any]:
    o: Dict[str, Any] = {}
    if args.select:
        # Like ruff: a selection on the command line is the whole selection;
        # the config file's ignore list belonged to the selection it replaces.
        o["select"] = list(args.select)
        o["ignore"] = list(args.ignore or [])
    elif args.ignore:
        o["extend-ignore"] = list(args.ignore)
    if args.extend_select:
        o["extend-select"] = list(args.extend_select)
    if args.fail_level:
        o["fail-level"] = args.fail_level
    return o


class _Checker:
    """Checks one file after another with one engine and one run state."""

    def __init__(self, args: argparse.Namespace) -> None:
        from irilint import config
        from irilint.engine import Engine

        self.args = args
        self.config = config
        self.engine = Engine()
        self.run_state: Dict[str, Any] = {}
        self.overrides = _overrides(args)
        self.validators = _validators()
        self._by_folder: Dict[str, Any] = {}
        self._cwd = os.getcwd()
        #: folder as spelled -> _display_prefix(folder)
        self._display_prefixes: Dict[str, Any] = {}
        self._by_spelled_folder: Dict[str, Any] = {}
        #: folders (as spelled in the walk) the walk saw no config file in
        self._no_config_folders: Set[str] = set()
        #: id(settings) -> (settings, its root as an absolute folder + os.sep)
        self._root_prefixes: Dict[int, Tuple[Any, str]] = {}
        #: id(settings) -> (settings, the cache.key_hasher of its fingerprint)
        self._key_hashers: Dict[int, Any] = {}
        self._default_excluded = {p for p in config.DEFAULT_EXCLUDE if "/" not in p and "*" not in p}
        self.cache = None
        self.listing_index = None
        if not getattr(args, "no_cache", True) and not os.environ.get("IRILINT_NO_CACHE"):
            from irilint.cache import Cache, ListingIndex, StatIndex, cache_key, key_hasher

            self.cache = Cache(os.environ.get("IRILINT_CACHE_ROOT") or os.getcwd())
            self.stat_index = StatIndex(self.cache)
            self.listing_index: Optional[ListingIndex] = ListingIndex(self.cache, self.stat_index.started_ns)
            self._cache_key = cache_key
            self._key_hasher = key_hasher
        #: paths named on the command line (a binary one gets a note)
        self.explicit_paths = {os.path.abspath(p) for p in (getattr(args, "paths", None) or []) if p != "-"}
        #: where --fix may write (discovery.fix_roots), worked out at the
        #: first fix; unused with --follow-symlinks
        self._fix_roots: Optional[FrozenSet[str]] = None
        vs, vsc = self.validators
        if self.overrides:
            # A bad --select governs every file: fail now, not once per file.
            config.Settings().merged(self.overrides, validate_selector=vs, validate_scanner=vsc)
        self.explicit_config = None
        if args.config:
            self.explicit_config = config.load_config_file(args.config, validate_selector=vs, validate_scanner=vsc)

    def display_path(self, p: str) -> str:
        """``_display_path(p)``, the folder's part worked out once per
        folder (relpath of each absolute path was a tenth of a warm run).
        Like the settings memo, this relies on the working directory not
        changing during a run."""
        folder, found, name = p.rpartition(os.sep)
        if found and name and name != "." and name != "..":
            memo = self._display_prefixes
            prefix = memo.get(folder, memo)
            if prefix is memo:
                prefix = memo[folder] = _display_prefix(folder, self._cwd)
            if prefix is True:
                return p
            if prefix is not None:
                rel = prefix + name
                return p if rel.startswith("..") else rel
        return _display_path(p)

    def settings(self, path: str) -> Any:
        # Settings depend on the folder (the nearest config file), so one
        # lookup serves every file of a folder.  The folder as spelled in
        # the path is looked up first: the working directory does not change
        # during a run, so it always names the same absolute folder.
        spelled = _folder_of(path)
        hit = self._by_spelled_folder.get(spelled)
        if hit is None and spelled in self._no_config_folders:
            # No configuration file here: the nearest one is the parent's.
            hit = self._by_spelled_folder.get(os.path.dirname(spelled))
            if hit is not None:
                self._by_spelled_folder[spelled] = hit
        if hit is None:
            folder = os.path.dirname(os.path.abspath(path))
            hit = self._by_folder.get(folder)
            if hit is None:
                hit = self._by_folder[folder] = self._settings(path)
            self._by_spelled_folder[spelled] = hit
        return hit

    def included(self, path: str, abspath: Optional[str] = None) -> bool:
        settings = self.settings(path)
        cfg = self.config
        if self.default_excludes_only(settings):
            # The defaults only name folders: a set test on the path's parts
            # answers as the glob matching would, without it.
            if abspath is None:
                abspath = os.path.abspath(path)
            prefix = self._root_prefix(settings)
            if abspath.startswith(prefix):
                rel = abspath[len(prefix):]  # what relpath gives, without its cost
            else:
                root = str(settings.root) if settings.root is not None else os.getcwd()
                rel = os.path.relpath(abspath, root)
            if rel.startswith(".."):
                return cfg.is_included(settings, path)
            return not (set(rel.split(os.sep)) & self._default_excluded)
        return cfg.is_included(settings, path)

    def default_excludes_only(self, settings: Any) -> bool:
        """Whether only the default excludes (folder names) decide what is
        checked: then a set test on path parts answers as glob matching."""
        return (not settings.include and not settings.extend_exclude
                and settings.exclude == self.config.DEFAULT_EXCLUDE)

    def _root_prefix(self, settings: Any) -> str:
        hit = self._root_prefixes.get(id(settings))
        if hit is None or hit[0] is not settings:
            root = os.path.abspath(str(settings.root) if settings.root is not None else os.getcwd())
            hit = self._root_prefixes[id(settings)] = (settings, os.path.join(root, ""))
        return hit[1]

    def _settings(self, path: str) -> Any:
        vs, vsc = self.validators
        if self.explicit_config is not None:
            base = self.explicit_config
            return base.merged(self.overrides, validate_selector=vs, validate_scanner=vsc) if self.overrides else base
        return self.config.settings_for(path, self.overrides, validate_selector=vs, validate_scanner=vsc)

    def check_document(self, path: str, text: str, settings: Any,
                       run_state: Optional[Dict[str, Any]] = None) -> Tuple[List[Any], Any]:
        from irilint.lines import LineIndex

        index = LineIndex(text)
        result = self.engine.check_text(text, path=path, settings=settings,
                                        run_state=self.run_state if run_state is None else run_state,
                                        index=index)
        for err in result.errors:
            print("irilint: internal error in %s: %s" % (path, err), file=sys.stderr)
        if result.errors and not getattr(self, "_told_internal", False):
            from irilint.messages import advice

            self._told_internal = True
            print("irilint: hint: %s" % advice("internal error"), file=sys.stderr)
        return result.findings, index

    def fix_text(self, path: str, text: str, settings: Any) -> Tuple[str, int]:
        """Apply fixes until nothing more applies; returns the new text and
        how many fixes were applied."""
        from irilint.engine import fixes_to_apply
        from irilint.fileio import apply_edits

        applied = 0
        unsafe = bool(self.args.unsafe_fixes)
        for _ in range(MAX_FIX_PASSES):
            # A throwaway run state: fixing must not record hosts twice.
            result = self.engine.check_text(text, path=path, settings=settings, run_state={})
            edits = fixes_to_apply(result.findings, unsafe=unsafe)
            if not edits:
                break
            new_text = apply_edits(text, edits)
            if new_text == text:
                break
            applied += len({(e.start, e.end) for e in edits})
            text = new_text
        return text, applied

    def outcome(self, path: str, text: str, settings: Any, doc: Any = None) -> FileOutcome:
        from irilint.output import locate

        out = FileOutcome(path, fail_level=settings.fail_level)
        args = self.args
        if args.fix or args.diff:
            new_text, applied = self.fix_text(path, text, settings)
            if new_text != text:
                if args.diff:
                    from irilint.fileio import unified_diff

                    out.diff = unified_diff(path, text, new_text)
                    # --diff writes nothing; findings are those of the
                    # current file.
                else:
                    out.fixed = applied
                    if doc is None:
                        out.new_text = new_text
                    elif not self.may_write(doc.path):
                        out.note = ("%s: fixes not written: a symbolic link leads it outside the checked "
                                    "paths; --follow-symlinks lets --fix write through it" % path)
                        out.fixed = 0
                        new_text = text
                    else:
                        from irilint.fileio import DocumentError, write_atomic

                        try:
                            write_atomic(doc, new_text)
                        except DocumentError as exc:
                            # The findings of the unchanged file are still
                            # reported (see cmd_check): nothing is lost.
                            out.error = "%s: fixes not written: %s" % (path, exc.reason)
                            out.fixed = 0
                            new_text = text
                    text = new_text
            elif doc is None and args.fix:
                out.new_text = text
        # Each file gets a fresh run state: collisions across files are
        # resolved afterwards, in file order (see _cross_file_collisions),
        # so workers and the cache can check files independently.
        run_state: Dict[str, Any] = {}
        findings, index = self.check_document(path, text, settings, run_state)
        from irilint.cache import host_rows

        out.host_rows = host_rows(run_state.get(_HOSTS_KEY) or {}, path)
        out.reported = locate(path, findings, index)
        out.index = _Positions(index, findings)
        if doc is not None and self.cache is not None and not (args.fix or args.diff):
            if doc.stat is not None:
                st = doc.stat
                out.stamp = ((st.size, st.mtime_ns, doc.ctime_ns, st.ino), doc.digest)
            out.cache_line = self.cache.entry(
                self.cache_key(doc.digest, settings, path), doc.path, findings, out.host_rows,
                [[r.line, r.column, r.end_line, r.end_column, r.line_text] for r in out.reported],
                out.index.table)
        return out

    def may_write(self, path: str) -> bool:
        """Whether --fix may write the file ``path`` was read from: its
        target is inside the roots (``discovery.fix_roots``), or
        --follow-symlinks was given."""
        if getattr(self.args, "follow_symlinks", False):
            return True
        from irilint.discovery import fix_roots, inside_roots

        if self._fix_roots is None:
            self._fix_roots = fix_roots([p for p in (self.args.paths or ["."]) if p != "-"])
        return inside_roots(path, self._fix_roots)

    def cache_key(self, digest: str, settings: Any, path: str) -> str:
        hit = self._key_hashers.get(id(settings))
        if hit is None or hit[0] is not settings:
            hit = self._key_hashers[id(settings)] = (settings, self._key_hasher(settings.fingerprint()))
        return self._cache_key(hit[1], digest, path)

    def cached(self, path: str, abspath: str, settings: Any,
               st: Optional[os.stat_result] = None) -> Optional[FileOutcome]:
        """The outcome of an unchanged file from the cache, without decoding
        it: the key is the hash of its bytes.  ``st``: the file's stat, if
        the walk has it."""
        cache = self.cache
        if cache is None or self.args.fix or self.args.diff or cache.empty():
            return None
        try:
            if st is None:
                st = os.stat(abspath)
            if st.st_size > settings.max_file_size:
                return None
            digest = self.stat_index.digest(abspath, st)
            hashed = digest is None
            if hashed:
                import hashlib

                with open(abspath, "rb") as fh:
                    digest = hashlib.sha256(fh.read()).hexdigest()
        except OSError:
            return None
        hit = cache.get(self.cache_key(digest, settings, path), path)
        if hit is None:
            return None
        findings, rows, (located, edits) = hit
        out = FileOutcome(path, fail_level=settings.fail_level, host_rows=rows, abspath=abspath)
        if hashed:
            out.stamp = (self.stat_index.stamp(st), digest)  # for the stat index
        if findings:
            from irilint.output import Reported

            out.reported = [Reported(path, f, l, c, el, ec, text)
                            for f, (l, c, el, ec, text) in zip(findings, located)]
        positions = _Positions.__new__(_Positions)
        positions.table = edits
        out.index = positions
        return out


_HOSTS_KEY = "lookalike.confusable-collision"
_TARGETS_KEY = "lookalike.confusable-collision.targets"


class _Positions:
    """The (line, column) of every offset the output needs, computed where
    the text is, so only this small table travels back from a worker."""

    def __init__(self, index: Any, findings: List[Any]) -> None:
        table: Dict[int, Tuple[int, int]] = {}
        for f in findings:
            for fx in f.fixes:
                for e in fx.edits:
                    for off in (e.start, e.end):
                        if off not in table:
                            table[off] = index.position(off)
        self.table = table

    def position(self, offset: int, encoding: str = "utf-32") -> Tuple[int, int]:
        return self.table[offset]


def _normal_relative(p: str) -> bool:
    """Whether a relative path is already normalized (no empty, "." or ".."
    part), so that ``os.path.relpath`` would return it unchanged.  Only
    where there is one separator (relpath turns "/" into "\\" on Windows)."""
    if os.altsep:
        return False
    return all(part and part != "." and part != ".." for part in p.split(os.sep))


def _folder_of(path: str) -> str:
    """``os.path.dirname(path)``, without its cost in the common case (a
    head that does not end with a separator is what dirname returns)."""
    head, found, _ = path.rpartition(os.sep)
    if head and found and not os.altsep and not head.endswith(os.sep):
        return head
    return os.path.dirname(path)


#: folder as spelled -> whether it is a normalized relative path
_NORMAL_FOLDERS: Dict[str, bool] = {}


def _display_path(p: str) -> str:
    folder, found, name = p.rpartition(os.sep)
    if found and name and name != "." and name != "..":
        # Most paths come from a walk, many to a folder: the folder's
        # spelling is tested once.
        normal = _NORMAL_FOLDERS.get(folder)
        if normal is None:
            if len(_NORMAL_FOLDERS) > 100000:
                _NORMAL_FOLDERS.clear()
            normal = _NORMAL_FOLDERS[folder] = bool(folder) and not os.path.isabs(folder) \
                and _normal_relative(folder)
    else:
        normal = not os.path.isabs(p) and _normal_relative(p)
    if normal:
        return p  # what relpath would give back, without its cost
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return p
    return p if rel.startswith("..") else rel


def _display_prefix(folder: str, cwd: str) -> Any:
    """How the paths of the entries of ``folder`` are shown: True (as they
    are: a normalized relative folder), the folder's path relative to
    ``cwd`` with a separator (``""`` for ``cwd`` itself) to put before the
    entry's name, or None (no shortcut: each path through relpath)."""
    if not folder or os.altsep:
        return None
    if not os.path.isabs(folder):
        return True if _normal_relative(folder) else None
    try:
        rel = os.path.relpath(folder, cwd)
    except ValueError:
        return None
    if rel.startswith(".."):
        return None  # outside: a name could lead back in ("../b" is "."), so no shortcut
    return "" if rel == "." else rel + os.sep


def cmd_check(args: argparse.Namespace) -> int:
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
        checker = _Checker(args)
    except config.ConfigError as exc:
        print("irilint: error: %s" % exc, file=sys.stderr)
        return 2
    except OSError as exc:
        print("irilint: error: %s: %s" % (args.config, exc.strerror or exc), file=sys.stderr)
        return 2

    outcomes: List[FileOutcome] = []
    errors = 0
    progress = Progress(enabled=not args.no_progress and not use_stdin)
    try:
        if use_stdin:
            o = _check_stdin(checker, args)
            outcomes.append(o)
        else:
            for item in _run_files(checker, args, paths):
                outcomes.append(item)
                progress.step(item.path)
            _cross_file_collisions(checker, outcomes)
            if checker.cache is not None:
                for o in outcomes:
                    if o.stamp is not None and o.abspath:
                        checker.stat_index.record(o.abspath, o.stamp[0], o.stamp[1])
                    if o.cache_line is not None:
                        checker.cache.add(o.cache_line)
                        o.cache_line = None
                checker.cache.save()
                checker.stat_index.save()
                checker.listing_index.save()
                if checker.cache.problem:
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
    # stderr so the two never mix.
    sink = sys.stderr if (use_stdin and args.fix) or args.diff else stdout
    if fmt == "json":
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
        if not args.quiet:
            n = len(all_reported)
            summary = []
            if n:
                summary.append("Found %d problem%s." % (n, "" if n == 1 else "s"))
            if fixed_total:
                summary.append("Fixed %d problem%s." % (fixed_total, "" if fixed_total == 1 else "s"))
            if summary:
                print(" ".join(summary), file=sys.stderr)
    if args.statistics:
        _print_statistics([r for _, r in all_reported], sink if fmt == "text" else sys.stderr)
    if errors:
        return 2
    return 1 if found_failing else 0


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


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal:
    long CLI runs show life, and logs and pipes get nothing."""

    def __init__(self, enabled: bool = True, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled and bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"
        self.count = 0
        self.last = 0.0
        self.shown = False

    def step(self, path: str) -> None:
        self.count += 1
        if not self.enabled:
            return
        import time

        now = time.monotonic()
        if now - self.last < 0.1:
            return
        self.last = now
        name = path if len(path) <= 50 else "..." + path[-47:]
        self.stream.write("\r\x1b[2K[%d files] %s" % (self.count, name))
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False


def _check_stdin(checker: _Checker, args: argparse.Namespace) -> FileOutcome:
    from irilint.engine import declaration_syntax
    from irilint.fileio import DocumentError, decode_bytes

    name = args.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    settings = checker.settings(args.stdin_filename or os.path.join(os.getcwd(), "-"))
    try:
        doc = decode_bytes(data, name, syntax=declaration_syntax(args.stdin_filename or "", settings))
    except DocumentError as exc:
        return FileOutcome(name, error=str(exc))
    out = checker.outcome(name, doc.text, settings, doc=None)
    if out.new_text is not None and (doc.bom or doc.encoding != "utf-8"):
        # Written back as read: the same encoding and BOM.
        try:
            out.new_bytes = doc.encode(out.new_text)
        except UnicodeEncodeError as exc:
            from irilint.fileio import unencodable_reason

            out.error = "%s: fixes not written: %s" % (name, unencodable_reason(doc, out.new_text, exc))
            out.new_bytes = doc.encode(doc.text)
            out.fixed = 0
        out.new_text = None
    return out


def _discover(checker: _Checker, paths: Sequence[str]):
    """The files to check, in order: ``(path, stat)`` pairs, or
    FileOutcomes for errors."""
    from irilint.discovery import DiscoveryError, LinkOutsideRoots, iter_files

    explicit = {os.path.abspath(p) for p in paths}
    sep = os.sep
    #: folder as spelled -> (its absolute spelling + sep, verdict for names
    #: in it: None when each entry needs the full test)
    folders: Dict[str, Tuple[str, Any]] = {}

    def included_slow(p: str, abspath: str) -> bool:
        if abspath in explicit:
            return True
        try:
            return checker.included(p, abspath)
        except checker.config.ConfigError:
            return True

    def included(p: str) -> bool:
        # An entry's verdict depends on its folder (its settings, the
        # folder's parts under the settings' root) and its own name: the
        # folder's part is worked out once, not once per entry.
        folder, found, name = p.rpartition(sep)
        if not found or os.altsep:
            return included_slow(p, os.path.abspath(p))
        hit = folders.get(folder)
        if hit is None:
            absolute = os.path.abspath(folder or sep)
            absolute = absolute if absolute.endswith(sep) else absolute + sep
            hit = folders[folder] = (absolute, _folder_verdict(checker, p, absolute))
        abspath = hit[0] + name
        if hit[1] is None or abspath in explicit:
            return included_slow(p, abspath)
        return hit[1] and name not in checker._default_excluded

    config_names = {name.lower() for name in checker.config.CONFIG_FILE_NAMES}

    def on_directory(folder: str, names: List[str]) -> None:
        # Only folders whose spelling names them exactly ("a/b", not
        # "a/../b"): their parent is then the folder the spelling's parent
        # names, the one find_config would look in next.
        if (os.path.normpath(folder) == folder and os.path.dirname(folder) != folder
                and not any(name.lower() in config_names for name in names)):
            checker._no_config_folders.add(folder)

    for item in iter_files(paths, is_included=included, path_type=str, on_directory=on_directory,
                           with_stat=True, listings=checker.listing_index,
                           follow_symlinks=bool(getattr(checker.args, "follow_symlinks", False))):
        if isinstance(item, LinkOutsideRoots):
            # A skip, like a binary file: it does not change the exit status.
            shown = checker.display_path(str(item.path))
            yield FileOutcome(shown, skipped="%s: %s (--follow-symlinks follows it)" % (shown, item.reason))
        elif isinstance(item, DiscoveryError):
            # Named as findings name files (the display path).
            shown = checker.display_path(str(item.path))
            yield FileOutcome(shown, error="%s: %s" % (shown, item.reason))
        else:
            yield item


def _folder_verdict(checker: _Checker, entry: str, folder: str) -> Optional[bool]:
    """Whether the folder of ``entry`` (a path the walk made) lets its
    entries in, as far as the folder decides: with the default excludes
    (folder names only), an entry is in when no part of the folder under
    the settings' root is an excluded name, and its own name is not one.
    None when that shortcut does not apply (other patterns, a folder
    outside the root, a config error): then every entry is tested.
    ``folder``: the entry's folder, absolute, ending with a separator."""
    try:
        settings = checker.settings(entry)
    except checker.config.ConfigError:
        return None
    if not checker.default_excludes_only(settings):
        return None
    prefix = checker._root_prefix(settings)
    if not folder.startswith(prefix):
        return None
    return not (set(folder[len(prefix):].split(os.sep)) & checker._default_excluded)


def _cached_outcome(checker: _Checker, path: str, st: Optional[os.stat_result] = None) -> Optional[FileOutcome]:
    """The cached outcome of an unchanged file, or None (then _check_path)."""
    if checker.cache is None:
        return None
    try:
        settings = checker.settings(path)
    except checker.config.ConfigError:
        return None
    return checker.cached(checker.display_path(path), path, settings, st)


def _check_path(checker: _Checker, path: str, look_up: bool = True,
                st: Optional[os.stat_result] = None) -> Optional[FileOutcome]:
    """Read, check (and fix) one file; None for a binary file (skipped).
    ``look_up=False``: the caller already missed in the cache.  ``st``: the
    walk's stat of the file, for the cache."""
    from irilint.fileio import DocumentError, read_document

    if look_up:
        hit = _cached_outcome(checker, path, st)
        if hit is not None:
            return hit
    shown = checker.display_path(path)
    try:
        settings = checker.settings(path)
    except checker.config.ConfigError as exc:
        # Other files, under other (or no) config files, are still checked.
        # ``error`` is for other users of the outcomes (irilint report);
        # ``check`` tells each config error once (see cmd_check).
        return FileOutcome(shown, error="%s: not checked: %s" % (shown, exc), config_error=str(exc))
    from irilint.engine import declaration_syntax

    try:
        # The digest is for the cache, and for --fix to see that a file did
        # not change before writing it.
        doc = read_document(path, max_size=settings.max_file_size,
                            digest=checker.cache is not None or bool(checker.args.fix),
                            syntax=declaration_syntax(path, settings))
    except DocumentError as exc:
        # Named as its findings would be (the display path), not as read.
        told = "%s: %s" % (shown, exc.reason)
        if exc.kind == "binary":
            # Named on the command line: say why nothing was reported.
            # Found in a walk: images and archives are expected; stay quiet.
            if os.path.abspath(path) in checker.explicit_paths:
                return FileOutcome(shown, skipped=told)
            return None
        if exc.kind == "too-large":
            return FileOutcome(shown, skipped=told)
        return FileOutcome(shown, error=told)
    out = checker.outcome(shown, doc.text, settings, doc=doc)
    out.abspath = path
    return out


_WORKER: Optional[_Checker] = None


def _worker_init(args: argparse.Namespace) -> None:
    global _WORKER
    _WORKER = _Checker(args)


def _worker_check(path: str) -> Optional[FileOutcome]:
    assert _WORKER is not None
    return _check_here(_WORKER, path)


def _check_here(checker: _Checker, path: str) -> Optional[FileOutcome]:
    """A file of a parallel run, in a worker or in the parent."""
    try:
        # The parent looked the file up in the cache before handing it out.
        return _check_path(checker, path, look_up=False)
    except Exception as exc:  # report, never lose the other files
        shown = _display_path(path)
        return FileOutcome(shown, error="%s: internal error: %s: %s" % (
            shown, exc.__class__.__name__, exc))


def _worker_main(conn: Any, args: argparse.Namespace, inherited: Sequence[Any] = ()) -> None:
    """A worker process: ``([(seq, path, settings token), ...], {token:
    settings not sent before})`` in, lists of ``(seq, outcome)`` out, until
    None.  The settings are the parent's (it looked them up for the walk):
    a worker then never looks for configuration files itself, and checks
    each file with exactly the settings one process would use.
    ``inherited``: the parent's ends of the pipes to the workers forked
    before this one, closed here so that each pipe ends with its parent."""
    for other in inherited:
        other.close()
    _worker_init(args)
    assert _WORKER is not None
    by_token: Dict[int, Any] = {}
    folders = _WORKER._by_spelled_folder
    try:
        while True:
            message = conn.recv()
            if message is None:
                break
            batch, new_settings = message
            by_token.update(new_settings)
            results = []
            for seq, path, token in batch:
                if token is not None:
                    folders[_folder_of(path)] = by_token[token]
                results.append((seq, _worker_check(path)))
            conn.send(results)
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent is gone (or interrupted): nothing to send to
    finally:
        conn.close()


#: A batch sent to a worker ends at this many files or this many bytes of
#: files (one message each way per batch, not per file; small enough that
#: both workers stay busy until the end of the run).
_BATCH_FILES = 64
_BATCH_BYTES = 1 << 20
#: ... or this many characters of paths (a longer path goes alone): the
#: batches a worker has not read yet must fit in its pipe, so that sending
#: never blocks while the worker is blocked sending its results.  Two
#: unread batches of ~2.5 KB pickled (or one path of up to 4 KB each) fit
#: the smallest pipe buffer of the systems irilint runs on (16 KB; Linux
#: has 64 KB).
_BATCH_PATH_CHARS = 2000
#: Batches sent to a worker and not answered yet: three, so it never waits
#: for the next one while the parent checks a batch itself (two: --jobs 2
#: was ~4% slower on the corpus).
_IN_FLIGHT = 3


class _WorkerHandle:
    def __init__(self, process: Any, conn: Any) -> None:
        self.process = process
        self.conn = conn
        #: each batch sent and not answered, oldest first
        self.pending: "collections.deque[List[Tuple[int, str, Optional[int]]]]" = collections.deque()
        #: the settings tokens this worker has been sent
        self.known: Set[int] = set()
        self.dead = False


def _run_files(checker: _Checker, args: argparse.Namespace, paths: Sequence[str]):
    """Outcomes in discovery order, from N - 1 worker processes and this
    one when --jobs N > 1.

    The parent walks the tree, answers the files the cache has, and sends
    the others to the workers in batches as the walk finds them (the walk
    overlaps the checking); when every worker has its fill of batches
    (``_IN_FLIGHT``) it checks the next batch itself.  No thread of the parent competes with it for
    the interpreter.
    """
    discovered = _discover(checker, paths)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    # Look ahead a little: a handful of files is checked in this process.
    head: List[Any] = []
    head_files = 0
    for item in discovered:
        head.append(item)
        if not isinstance(item, FileOutcome):
            head_files += 1
            if head_files >= 4:
                break
    if jobs <= 1 or head_files < 4:
        for item in itertools.chain(head, discovered):
            if isinstance(item, FileOutcome):
                yield item
            else:
                out = _check_path(checker, item[0], st=item[1])
                if out is not None:
                    yield out
        return
    yield from _run_parallel(checker, args, itertools.chain(head, discovered), jobs)


def _run_parallel(checker: _Checker, args: argparse.Namespace, items: Any, jobs: int):
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    workers: List[_WorkerHandle] = []
    # Every item in discovery order: a FileOutcome (cached, or a problem of
    # the walk) or the seq of a file sent to a worker.
    order: "collections.deque[Any]" = collections.deque()
    done: Dict[int, Optional[FileOutcome]] = {}

    def receive(block: bool) -> None:
        live = [w for w in workers if w.pending and not w.dead]
        if not live:
            return
        ready = wait([w.conn for w in live], timeout=None if block else 0)
        for w in live:
            if w.conn not in ready:
                continue
            batch = w.pending.popleft()
            try:
                results = w.conn.recv()
            except (EOFError, OSError) as exc:
                # A worker that died (killed, out of memory) loses only its
                # files, each reported as an error; the run goes on.
                w.dead = True
                for lost in itertools.chain([batch], w.pending):
                    for seq, path, _ in lost:
                        shown = _display_path(path)
                        done[seq] = FileOutcome(shown, error="%s: internal error: worker "
                                                "process ended (%s)" % (shown, exc.__class__.__name__))
                w.pending.clear()
                continue
            done.update(results)

    def start_workers() -> None:
        # Started at the first file the cache does not have: a warm run
        # starts none.  Fork shares what the parent has loaded; frozen, the
        # parent's objects are never walked by a worker's collector, which
        # would copy every page they are on.
        import gc

        frozen_before = gc.get_freeze_count() > 0  # then cmd_check unfreezes
        gc.freeze()
        try:
            for _ in range(jobs - 1):  # this process is the N-th
                parent_conn, child_conn = ctx.Pipe()
                inherited = [w.conn for w in workers] if ctx.get_start_method() == "fork" else []
                process = ctx.Process(target=_worker_main, args=(child_conn, args, inherited), daemon=True)
                process.start()
                child_conn.close()
                workers.append(_WorkerHandle(process, parent_conn))
        finally:
            if not frozen_before:
                gc.unfreeze()

    def check_here(batch: List[Tuple[int, str, Optional[int]]]) -> None:
        # This process is one of the N: it checks a batch itself when every
        # worker has its fill (on 2 cores, a parent that only dispatched
        # competed with both workers for the CPU), and reads the workers'
        # results between files, so that none waits on a full pipe.
        for seq, path, _token in batch:
            done[seq] = _check_here(checker, path)
            receive(block=False)

    def send(batch: List[Tuple[int, str, Optional[int]]]) -> None:
        if not workers:
            start_workers()
        free = [w for w in workers if not w.dead and len(w.pending) < _IN_FLIGHT]
        if not free:  # every worker busy (or none left): here
            check_here(batch)
            return
        w = min(free, key=lambda w: len(w.pending))
        new_settings = {token: settings_of[token] for _, _, token in batch
                        if token is not None and token not in w.known}
        w.conn.send((batch, new_settings))
        w.known.update(new_settings)
        w.pending.append(batch)

    def ready():
        while order:
            first = order[0]
            if isinstance(first, FileOutcome):
                yield order.popleft()
            elif first in done:
                order.popleft()
                out = done.pop(first)
                if out is not None:
                    yield out
            else:
                return

    #: id(settings) -> token, and token -> settings, for the workers
    tokens: Dict[int, int] = {}
    settings_of: Dict[int, Any] = {}

    def token_of(path: str) -> Optional[int]:
        try:
            settings = checker.settings(path)
        except checker.config.ConfigError:
            return None  # the worker meets the error itself, as one process would
        token = tokens.get(id(settings))
        if token is None:
            token = tokens[id(settings)] = len(tokens)
            settings_of[token] = settings  # (keeps the id valid)
        return token

    try:
        seq = 0
        batch: List[Tuple[int, str, Optional[int]]] = []
        batch_bytes = batch_chars = 0
        for item in items:
            if isinstance(item, FileOutcome):
                order.append(item)
            else:
                path, st = item
                hit = _cached_outcome(checker, path, st)
                if hit is not None:
                    order.append(hit)
                else:
                    order.append(seq)
                    if batch and batch_chars + len(path) > _BATCH_PATH_CHARS:
                        send(batch)
                        batch, batch_bytes, batch_chars = [], 0, 0
                    batch.append((seq, path, token_of(path)))
                    seq += 1
                    batch_bytes += st.st_size
                    batch_chars += len(path)
                    # Small batches first (a small run still keeps every
                    # worker busy), growing to _BATCH_FILES.
                    if (len(batch) >= min(_BATCH_FILES, 4 + seq // 8) or batch_bytes >= _BATCH_BYTES
                            or batch_chars >= _BATCH_PATH_CHARS):
                        send(batch)
                        batch, batch_bytes, batch_chars = [], 0, 0
                        receive(block=False)
            yield from ready()
        if batch:
            send(batch)
        while any(w.pending and not w.dead for w in workers):
            receive(block=True)
            yield from ready()
        yield from ready()
    finally:
        # None, then the end of the pipe: a worker still sending results
        # (the run was cut short) gets a broken pipe instead of waiting.
        for w in workers:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
            w.conn.close()
        for w in workers:
            w.process.join(timeout=5)
            if w.process.is_alive():
                w.process.terminate()
                w.process.join()


def _cross_file_collisions(checker: _Checker, outcomes: List[FileOutcome]) -> None:
    """Look-alike hosts across files.  Each pair of confusable hosts of two
    different files is reported once: in the file where the host that is
    not ASCII first occurs (of two non-ASCII hosts, the later file's),
    unless one file holds both (its own check reports them).  Such a file
    is checked again for confusable-collision, told which hosts of other
    files each of its hosts collides with."""
    try:
        from irilint.rules.lookalike import _MAX_IDENTITIES
    except ImportError:  # pragma: no cover
        return
    # skeleton -> identity -> (display, path, line, file number) of its
    # first occurrence in the run, in file order
    first: Dict[str, Dict[str, Tuple[Any, Any, Any, int]]] = {}
    files = []
    for n, o in enumerate(outcomes):
        rows = o.host_rows
        if not rows or o.error or o.skipped:
            continue
        mine: Dict[str, List[str]] = {}
        for row in rows:  # irilint.cache.iter_host_rows, inlined: a row per host of every file
            skel = row[0]
            if len(row) == 2:
                ident, value = skel, (skel, o.path, row[1], n)
            else:
                ident, value = row[1], (row[2], row[3], row[4], n)
            mine.setdefault(skel, []).append(ident)
            seen = first.get(skel)
            if seen is None:
                seen = first[skel] = {}
            if ident not in seen and len(seen) < _MAX_IDENTITIES:
                seen[ident] = value
        files.append((n, o, mine))
    for n, o, mine in files:
        targets: Dict[str, List[Tuple[str, Any, Any, Any]]] = {}
        for skel, idents in mine.items():
            group = first[skel]
            if len(group) < 2:
                continue  # most hosts: nothing else looks like them
            for ident in idents:
                me = group.get(ident)
                if me is None or me[3] != n or ident.isascii():
                    continue  # reported where it first occurs, on the non-ASCII side
                for other, (display, path, line, m) in group.items():
                    if other == ident or other in idents or (not other.isascii() and m > n):
                        continue
                    if any(other in f_mine.get(skel, ()) and ident in f_mine.get(skel, ())
                           for _k, _o, f_mine in files):
                        continue  # one file holds both: its own check reports them
                    targets.setdefault(ident, []).append((other, display, path, line))
        if targets and o.abspath:
            _recheck_collisions(checker, o, targets)


def _recheck_collisions(checker: _Checker, o: FileOutcome, targets: Dict[str, Any]) -> None:
    from irilint.engine import declaration_syntax
    from irilint.fileio import DocumentError, read_document
    from irilint.output import locate

    settings = checker.settings(o.abspath)
    try:
        doc = read_document(o.abspath, max_size=settings.max_file_size,
                            syntax=declaration_syntax(o.abspath, settings))
    except DocumentError:
        return
    only = settings.merged({"select": ["confusable-collision"], "ignore": []})
    run_state = {_HOSTS_KEY: {}, _TARGETS_KEY: targets}
    findings, index = checker.check_document(o.path, doc.text, only, run_state)
    kept = [r for r in o.reported if r.finding.rule.name != "confusable-collision"]
    kept.extend(locate(o.path, [f for f in findings if f.rule.name == "confusable-collision"], index))
    kept.sort(key=lambda r: r.finding.sort_key())
    o.reported = kept
