"""The project layer: what to check and how, for a path or an open document.

Every front end (``irilint check``, ``irilint report``, the language
server) asks this layer, and none decides for itself:

* the settings of a file (the nearest configuration file, or ``--config``,
  with the command line's or the editor's overrides);
* whether include/exclude admit it, the size cap (``max-file-size``), the
  encoding it is read in and the scanner that reads it (one document's
  decisions: :mod:`irilint.project_files`, which the server calls too);
* checking (and fixing, through :func:`irilint.fix_loop.fix_until_stable`)
  it, with the result cache, into a :class:`FileResult`: its findings and
  their positions, its fixes, and the facts project rules gather across
  files (:mod:`irilint.rules.project_rules`: collected with the file,
  reduced across files by :func:`irilint.collisions.reduce_project_rules`).

Below it sit the engine, the scanners and rules, and the data modules; above it
the CLI (:mod:`irilint.cli`), the server (:mod:`irilint.lsp`) and the report.
The process scheduler that runs :func:`check_path` in workers is :mod:`irilint.runner`.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple

from .lines import LineIndex, Positions
from .paths import display_path, display_prefix, folder_of
from .project_files import document_error, file_scanner, read_file
from .undecodable import error_hit, remember_error


@dataclass
class Options:
    """How a run checks files: what ``irilint check`` (or ``report``) was
    asked on its command line."""

    paths: List[str] = field(default_factory=list)
    select: Optional[List[str]] = None
    extend_select: Optional[List[str]] = None
    ignore: Optional[List[str]] = None
    #: include/exclude patterns given on the command line (config-key semantics)
    exclude: Optional[List[str]] = None
    extend_exclude: Optional[List[str]] = None
    fail_level: Optional[str] = None
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    #: a configuration file to use instead of searching for one
    config: Optional[str] = None
    stdin_filename: Optional[str] = None
    jobs: int = 0
    #: read and write the result cache (.irilint_cache/)
    cache: bool = False
    follow_symlinks: bool = False
    #: keep each file's text in its result (the report shows it, and so
    #: reads each file once)
    keep_text: bool = False

    @classmethod
    def of(cls, given: Any) -> "Options":
        """Options from an ``argparse`` namespace (or anything with some of
        its attributes; a missing one takes the default, and no
        ``no_cache`` attribute means no cache)."""
        if isinstance(given, cls):
            return given
        get = lambda name, default=None: getattr(given, name, default)  # noqa: E731
        return cls(paths=list(get("paths") or []), select=get("select"), extend_select=get("extend_select"),
                   ignore=get("ignore"), exclude=get("exclude"), extend_exclude=get("extend_exclude"),
                   fail_level=get("fail_level"), fix=bool(get("fix", False)),
                   unsafe_fixes=bool(get("unsafe_fixes", False)), diff=bool(get("diff", False)),
                   config=get("config"), stdin_filename=get("stdin_filename"), jobs=int(get("jobs", 0) or 0),
                   cache=not get("no_cache", True), follow_symlinks=bool(get("follow_symlinks", False)),
                   keep_text=bool(get("keep_text", False)))


def comma_list(value: str) -> List[str]:
    """A comma-separated list given on the command line (``--select a,b``)."""
    return [v.strip() for v in value.split(",") if v.strip()]


def validators() -> Tuple[Any, Any]:
    """The rule selector and scanner name validators of the settings."""
    from .rules.registry import is_selector
    from .scanners import is_scanner_name

    return is_selector, is_scanner_name


@dataclass
class FileResult:
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
    #: what the project rules collected of this file, by rule name
    #: (irilint.rules.project_rules), reduced across files after the run
    facts: Dict[str, Any] = field(default_factory=dict)
    abspath: Optional[str] = None
    #: the result cache's entry for this file, saved by the parent process
    cache_line: Optional[bytes] = None
    #: (stat stamp, content digest) for the cache's stat index
    stamp: Optional[Tuple[Any, str]] = None
    #: the key of its entry in the result cache (None: not cached)
    cache_key: Optional[str] = None
    #: the configuration error that kept this file from being checked
    config_error: Optional[str] = None
    #: something to tell about this file that is not a failure
    note: Optional[str] = None
    #: the text checked, kept when ``Options.keep_text`` is set
    text: Optional[str] = None

    def settle(self) -> None:
        """Hold the findings located (a list of ``Reported``) and the
        positions of their fix edits (a :class:`Positions` table) instead of
        the file's text: for a result kept or sent elsewhere rather than
        printed at once.  A fresh result locates each finding as the
        printer writes it, from the file's :class:`~irilint.lines.LineIndex`
        (``index``)."""
        settled = self._settled()
        if settled is not None:
            self.reported, self.index = settled

    def _settled(self) -> Optional[Tuple[List[Any], "Positions"]]:
        """(the located findings, their Positions) of a fresh result, or
        None for one settled already (a cache hit, a worker's)."""
        reported = self.__dict__.get("reported")
        if type(reported) is list:  # the common case, asked without an import
            return None
        from irilint.output import Located

        if isinstance(reported, Located):
            return list(reported), Positions(reported.index, reported.findings)
        # A LocatedStream stays one: held, it keeps the text, read when printed.
        return None

    def __getstate__(self) -> Dict[str, Any]:
        # A worker's result travels settled: the small table, not the text.
        state = dict(self.__dict__)
        settled = self._settled()
        if settled is not None:
            state["reported"], state["index"] = settled
        return state


def _overrides(args: Options) -> Dict[str, Any]:
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
    # The config keys' own semantics: --exclude replaces the exclude list
    # (defaults included), --extend-exclude adds to it.
    if args.exclude:
        o["exclude"] = list(args.exclude)
    if args.extend_exclude:
        o["extend-exclude"] = list(args.extend_exclude)
    return o


class Project:
    """Checks one file after another with one engine and one run state."""

    def __init__(self, options: Any) -> None:
        from irilint import config

        self.options = args = Options.of(options)
        self.config = config
        self._engine: Any = None
        self.run_state: Dict[str, Any] = {}
        #: files of more characters are checked as a stream (None: never;
        #: irilint.large_files.STREAM_ABOVE in the process that prints)
        self.stream_above: Optional[int] = None
        self.overrides = _overrides(self.options)
        self.validators = validators()
        self._by_folder: Dict[str, Any] = {}
        self._cwd = os.getcwd()
        #: folder as spelled -> display_prefix(folder)
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
        if args.cache and not os.environ.get("IRILINT_NO_CACHE"):
            from irilint.cache import Cache, ListingIndex, ReductionMemo, StatIndex, cache_key, key_hasher

            self.cache = Cache(os.environ.get("IRILINT_CACHE_ROOT") or os.getcwd())
            self.stat_index = StatIndex(self.cache)
            self.listing_index: Optional[ListingIndex] = ListingIndex(self.cache, self.stat_index.started_ns)
            self.reduction_memo = ReductionMemo(self.cache)
            self._cache_key = cache_key
            self._key_hasher = key_hasher
        #: paths named on the command line (a binary one gets a note)
        self.explicit_paths = {os.path.abspath(p) for p in args.paths if p != "-"}
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

    @property
    def engine(self) -> Any:
        """The engine, made at the first check: a run that reads every
        file from the cache never imports it."""
        if self._engine is None:
            from irilint.engine import Engine

            self._engine = Engine()
        return self._engine

    def absolute(self, p: str) -> str:
        """``os.path.abspath(p)`` without asking the system for the working
        directory each time (it does not change during a run)."""
        return os.path.normpath(os.path.join(self._cwd, p))

    def display_path(self, p: str) -> str:
        """``display_path(p)``, the folder's part worked out once per
        folder (relpath of each absolute path was a tenth of a warm run).
        Like the settings memo, this relies on the working directory not
        changing during a run."""
        folder, found, name = p.rpartition(os.sep)
        if found and name and name != "." and name != "..":
            memo = self._display_prefixes
            prefix = memo.get(folder, memo)
            if prefix is memo:
                prefix = memo[folder] = display_prefix(folder, self._cwd)
            if prefix is True:
                return p
            if prefix is not None:
                rel = prefix + name
                return p if rel.startswith("..") else rel
        return display_path(p)

    def settings(self, path: str) -> Any:
        # The settings of the folder ``path`` is in (a config governs what
        # its folder holds, a folder entry too): one lookup per folder, by
        # its spelling first (the working directory stays the same).
        spelled = folder_of(path)
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
                hit = self._by_folder[folder] = self._settings(folder)
            self._by_spelled_folder[spelled] = hit
        return hit

    def included(self, path: str, abspath: Optional[str] = None, is_dir: Optional[bool] = None) -> bool:
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
                return cfg.is_included(settings, path, is_dir=is_dir)
            return not (set(rel.split(os.sep)) & self._default_excluded)
        return cfg.is_included(settings, path, is_dir=is_dir)

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

    def _settings(self, folder: str) -> Any:
        vs, vsc = self.validators
        if self.explicit_config is not None:
            base = self.explicit_config
            return base.merged(self.overrides, validate_selector=vs, validate_scanner=vsc) if self.overrides else base
        return self.config.settings_for(folder, self.overrides, validate_selector=vs, validate_scanner=vsc)

    def check_document(self, path: str, text: str, settings: Any,
                       run_state: Optional[Dict[str, Any]] = None) -> Tuple[List[Any], Any]:
        result, index = self.check_result(path, text, settings, run_state)
        return result.findings, index

    def check_result(self, path: str, text: str, settings: Any,
                     run_state: Optional[Dict[str, Any]] = None, scanner: Any = None) -> Tuple[Any, Any]:
        """The engine's CheckResult of ``text`` and its LineIndex.
        ``scanner``: the one the engine would find for ``path`` (found once
        by check_path for the read and the check)."""
        index = LineIndex(text)
        result = self.engine.check_text(text, path=path, settings=settings,
                                        run_state=self.run_state if run_state is None else run_state,
                                        index=index, scanner=scanner)
        if result.errors:
            self.tell_errors(path, result.errors)
        return result, index

    def tell_errors(self, path: str, errors: List[str]) -> None:  # on stderr
        for err in errors:
            print("irilint: internal error in %s: %s" % (path, err), file=sys.stderr)
        if errors and not getattr(self, "_told_internal", False):
            from irilint.messages import advice

            self._told_internal = True
            print("irilint: hint: %s" % advice("internal error"), file=sys.stderr)

    def fix_text(self, path: str, text: str, settings: Any,
                 fixed: Optional[List[Any]] = None) -> Tuple[str, int]:
        """Apply fixes until nothing more applies; returns the new text and
        how many fixes were applied (``fixed`` gets the findings fixed)."""
        from irilint.fix_loop import fix_until_stable

        return fix_until_stable(self.engine, text, path=path, settings=settings,
                                unsafe=self.options.unsafe_fixes, fixed=fixed)

    def outcome(self, path: str, text: str, settings: Any, doc: Any = None, scanner: Any = None) -> FileResult:
        out = FileResult(path, fail_level=settings.fail_level)
        args = self.options
        if args.fix or args.diff:
            fixed: List[Any] = []
            new_text, applied = self.fix_text(path, text, settings, fixed)
            if new_text != text:
                if args.diff:
                    from irilint.fileio import unified_diff

                    out.diff = unified_diff(path, text, new_text)
                    # --diff writes nothing; findings are those of the
                    # current file.
                else:
                    out.fixed = applied
                    out.fixed_rules = {}
                    for f in fixed:
                        key = (f.rule.code, f.rule.name)
                        out.fixed_rules[key] = out.fixed_rules.get(key, 0) + 1
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
                            # reported (see irilint.cli.check): nothing is lost.
                            out.error = "%s: fixes not written: %s" % (path, exc.reason)
                            out.fixed = 0
                            new_text = text
                    text = new_text
            elif doc is None and args.fix:
                out.new_text = text
        if self.stream_above is not None and len(text) > self.stream_above and not (args.fix or args.diff):
            from .large_files import streamed_outcome
            return streamed_outcome(self, out, path, text, settings, doc)
        # Each file gets a fresh run state: the project rules reduce their
        # facts across files afterwards, in file order
        # (irilint.collisions.reduce_project_rules), so workers and the
        # cache can check files independently.
        result, index = self.check_result(path, text, settings, {}, scanner)
        findings = result.findings
        out.facts = result.facts
        if findings:
            from irilint.output import Located

            # Located as they are printed, their fixes' edits by the index:
            # no list of every finding's position is held (settle() makes
            # one for a result that is kept or sent to another process).
            out.reported = Located(path, findings, index)
            out.index = index
        else:
            out.index = Positions(index, findings)
        if doc is not None and self.cache is not None and not (args.fix or args.diff):
            if doc.stat is not None:
                st = doc.stat
                out.stamp = ((st.size, st.mtime_ns, doc.ctime_ns, st.ino), doc.digest)
            out.cache_key = self.cache_key(doc.digest, settings, path)
            out.cache_line = self.cache_line(out, doc.path, findings, index)
        return out

    def cache_line(self, out: FileResult, read_path: str, findings: List[Any], index: Any) -> bytes:
        """The result cache's entry of a checked file (``out``, its key set;
        ``read_path``: where it was read), its findings located by ``index``."""
        from irilint.output import located

        return self.cache.entry(  # type: ignore[union-attr]
            out.cache_key, read_path, findings, out.facts,
            ([r.line, r.column, r.end_line, r.end_column, r.line_text] for r in located(out.path, findings, index)),
            Positions(index, findings).table)

    def streams(self, size: int) -> bool:  # size: in characters, or bytes before it is read
        return self.stream_above is not None and size > self.stream_above

    def may_write(self, path: str) -> bool:
        """Whether --fix may write the file ``path`` was read from: its
        target is inside the roots (``discovery.fix_roots``), or
        --follow-symlinks was given."""
        if self.options.follow_symlinks:
            return True
        from irilint.discovery import fix_roots, inside_roots

        if self._fix_roots is None:
            self._fix_roots = fix_roots([p for p in (self.options.paths or ["."]) if p != "-"])
        return inside_roots(path, self._fix_roots)

    def cache_key(self, digest: str, settings: Any, path: str) -> str:
        hit = self._key_hashers.get(id(settings))
        if hit is None or hit[0] is not settings:
            hit = self._key_hashers[id(settings)] = (settings, self._key_hasher(settings.fingerprint()))
        return self._cache_key(hit[1], digest, path)

    def cached(self, path: str, abspath: str, settings: Any,
               st: Optional[os.stat_result] = None) -> Optional[FileResult]:
        """The outcome of an unchanged file from the cache, without decoding
        it: the key is the hash of its bytes.  ``st``: the file's stat, if
        the walk has it."""
        cache = self.cache
        if cache is None or self.options.fix or self.options.diff or cache.empty():
            return None
        try:
            if st is None:
                st = os.stat(abspath)
            if st.st_size > settings.max_file_size:
                return None
            digest = self.stat_index.digest(abspath, st)
            if digest == self.stat_index.BINARY:
                # Found in a walk: skipped unread.  Named: read, and told.
                return None if self.absolute(abspath) in self.explicit_paths else BINARY_HIT
            hashed = digest is None
            if hashed:
                import hashlib

                from irilint.fileio import binary_offset

                with open(abspath, "rb") as fh:
                    data = fh.read()
                if binary_offset(data) != -1 and os.path.abspath(abspath) not in self.explicit_paths:
                    self.stat_index.record(abspath, self.stat_index.stamp(st), self.stat_index.BINARY)
                    return BINARY_HIT
                digest = hashlib.sha256(data).hexdigest()
        except OSError:
            return None
        key = self.cache_key(digest, settings, path)
        hit = cache.get(key, path)
        if hit is None:
            return None
        if hit[0] is None:  # bytes that cannot be decoded (irilint.undecodable)
            return error_hit(FileResult, self, path, hit[1], st, digest if hashed else None, abspath)
        findings, facts, (located, edits) = hit
        # FileResult's generated __init__ sets all of its 18 fields; a hit
        # sets its own, and reads the others' defaults from the class.
        out = _new_object(FileResult)
        out.__dict__.update(path=path, reported=[], fail_level=settings.fail_level, facts=facts,
                            abspath=abspath, cache_key=key)
        if hashed:
            out.stamp = (self.stat_index.stamp(st), digest)  # for the stat index
        if findings:
            from irilint.output import Reported

            out.reported = [Reported(path, f, l, c, el, ec, text)
                            for f, (l, c, el, ec, text) in zip(findings, located)]
        positions = Positions.__new__(Positions)
        positions.table = edits
        out.index = positions
        return out


_new_object = object.__new__

#: what :meth:`Project.cached` gives for a binary file found in a walk:
#: nothing to report, and nothing to read
BINARY_HIT = FileResult("")


def check_stdin(checker: Project) -> FileResult:
    from irilint.scanners import declaration_syntax
    from irilint.fileio import DocumentError, decode_bytes

    args = checker.options
    name = args.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    settings = checker.settings(args.stdin_filename or os.path.join(os.getcwd(), "-"))
    try:
        doc = decode_bytes(data, name, syntax=declaration_syntax(args.stdin_filename or "", settings))
    except DocumentError as exc:
        return FileResult(name, error=str(exc))
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


def cached_result(checker: Project, path: str, st: Optional[os.stat_result] = None) -> Optional[FileResult]:
    """The cached outcome of an unchanged file, or None (then check_path)."""
    if checker.cache is None:
        return None
    try:
        settings = checker.settings(path)
    except checker.config.ConfigError:
        return None
    return checker.cached(checker.display_path(path), path, settings, st)


def check_path(checker: Project, path: str, look_up: bool = True,
                st: Optional[os.stat_result] = None) -> Optional[FileResult]:
    """Read, check (and fix) one file; None for a binary file (skipped).
    ``look_up=False``: the caller already missed in the cache.  ``st``: the
    walk's stat of the file, for the cache and the read."""
    if look_up and checker.cache is not None:  # (cached_result's answer without a cache: None)
        hit = cached_result(checker, path, st)
        if hit is not None:
            return None if hit is BINARY_HIT else hit
    shown = checker.display_path(path)
    try:
        settings = checker.settings(path)
    except checker.config.ConfigError as exc:
        # Other files, under other (or no) config files, are still checked.
        # ``error`` is for other users of the outcomes (irilint report);
        # ``check`` tells each config error once (see irilint.cli.check).
        return FileResult(shown, error="%s: not checked: %s" % (shown, exc), config_error=str(exc))
    try:
        # The digest is for the cache, and for --fix to see that a file did
        # not change before writing it.
        scanner = file_scanner(settings, path)
        doc = read_file(settings, path, digest=checker.cache is not None or bool(checker.options.fix), stat=st,
                        scanner=scanner)
    except document_error() as exc:  # evaluated only when read_file raised
        # Named as its findings would be (the display path), not as read.
        told = "%s: %s" % (shown, exc.reason)
        if exc.kind == "binary":
            # Named on the command line: say why nothing was reported.
            # Found in a walk: images and archives are expected; stay quiet.
            if os.path.abspath(path) in checker.explicit_paths:
                return FileResult(shown, skipped=told)
            if checker.cache is not None and st is not None:
                # The walk's stamp (a change since makes it stale): the
                # next run skips the file unread.
                checker.stat_index.record(path, checker.stat_index.stamp(st), checker.stat_index.BINARY)
            return None
        if exc.kind == "too-large":
            return FileResult(shown, skipped=told)
        return remember_error(checker, FileResult(shown, error=told), path, exc, st)
    out = checker.outcome(shown, doc.text, settings, doc=doc, scanner=scanner)
    out.abspath = path
    if checker.options.keep_text:
        out.text = doc.text
    return out


