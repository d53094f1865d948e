"""Running the check of many files: the walk's files in discovery order,
checked in this process and N - 1 worker processes (``--jobs``), with the
result cache answering unchanged files; and the progress line."""
from __future__ import annotations

import collections
import itertools
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .paths import display_path, folder_of
from .project import BINARY_HIT, FileResult, Options, Project, cached_result, check_path


def discover(checker: Project, paths: Sequence[str]):
    """The files to check, in order: ``(path, stat)`` pairs, or
    FileResults for errors."""
    from irilint.discovery import DiscoveryError, LinkOutsideRoots, iter_files

    explicit = {os.path.abspath(p) for p in paths}
    sep = os.sep
    #: the folders (absolute, with a separator) that hold a path named on
    #: the command line: only their entries need the test for one
    explicit_folders = {os.path.join(os.path.dirname(p), "") for p in explicit}
    #: folder as spelled -> (its absolute spelling + sep, verdict for names
    #: in it (see _folder_verdict), whether it holds a named path)
    folders: Dict[str, Tuple[str, Any, bool]] = {}

    def included_slow(p: str, abspath: str, is_dir: bool) -> bool:
        if abspath in explicit:
            return True
        try:
            return checker.included(p, abspath, is_dir=is_dir)
        except checker.config.ConfigError:
            return True

    def folder_hit(folder: str, p: str) -> Tuple[str, Any, bool]:
        hit = folders.get(folder)
        if hit is None:
            parent, found, last = folder.rpartition(sep)
            above = folders.get(parent) if found and last and last != "." and last != ".." else None
            if above is not None:
                # A folder the walk found in one it walked: its parent's
                # absolute spelling and its name (no normpath per folder).
                absolute = above[0] + last + sep
            else:
                absolute = checker.absolute(folder or sep)
                absolute = absolute if absolute.endswith(sep) else absolute + sep
            hit = folders[folder] = (absolute, _folder_verdict(checker, p, absolute),
                                     absolute in explicit_folders)
        return hit

    def included(p: str, is_dir: bool) -> bool:
        # An entry's verdict depends on its folder (its settings, the
        # folder's parts under the settings' root) and its own name: the
        # folder's part is worked out once, not once per entry.
        folder, found, name = p.rpartition(sep)
        if not found or os.altsep:
            return included_slow(p, os.path.abspath(p), is_dir)
        hit = folder_hit(folder, p)
        verdict = hit[1]
        if verdict is None or (hit[2] and hit[0] + name in explicit):
            return included_slow(p, hit[0] + name, is_dir)
        if verdict is True:
            return name not in checker._default_excluded
        return verdict is not False and verdict(name, is_dir)

    config_marks = config_name_marks(checker.config.CONFIG_FILE_NAMES)
    exact_folders: Set[str] = set()

    def on_directory(folder: str, names: List[str]) -> None:
        # Only folders whose spelling names them exactly ("a/b", not
        # "a/../b"): their parent is then the folder the spelling's parent
        # names, the one find_config would look in next.
        if names_exactly(folder, exact_folders) and not holds_config_name(names, config_marks):
            checker._no_config_folders.add(folder)

    for item in iter_files(paths, entry_included=included, path_type=str, on_directory=on_directory,
                           with_stat=True, listings=checker.listing_index,
                           follow_symlinks=checker.options.follow_symlinks):
        if type(item) is tuple:  # (path, stat): most items, asked first
            yield item
        elif isinstance(item, LinkOutsideRoots):
            # A skip, like a binary file: it does not change the exit status.
            shown = checker.display_path(str(item.path))
            yield FileResult(shown, skipped="%s: %s (--follow-symlinks follows it)" % (shown, item.reason))
        elif isinstance(item, DiscoveryError):
            # Named as findings name files (the display path).
            shown = checker.display_path(str(item.path))
            yield FileResult(shown, error="%s: %s" % (shown, item.reason))
        else:
            yield item


def names_exactly(folder: str, exact: Set[str]) -> bool:
    """``os.path.normpath(folder) == folder and os.path.dirname(folder) !=
    folder``: the spelling names one folder, no root, as it is.  ``exact``:
    the spellings found so (it grows): a folder the walk found in one of
    them (``parent/name``, the name plain) is one too, without normpath."""
    parent, found, last = folder.rpartition(os.sep)
    if (found and parent in exact and parent != "." and last and last != "." and last != ".."
            and not os.altsep):
        exact.add(folder)
        return True
    if os.path.normpath(folder) == folder and os.path.dirname(folder) != folder:
        exact.add(folder)
        return True
    return False


def config_name_marks(config_names: Sequence[str]) -> List[str]:
    """What :func:`holds_config_name` looks for: "/name/", lower-cased."""
    return sorted({"/%s/" % name.lower() for name in config_names})


def holds_config_name(names: List[str], marks: List[str]) -> bool:
    """Whether one of ``names`` (a folder's entries), lower-cased, is a
    configuration file's name (``marks``: :func:`config_name_marks`).  One
    lower() of the names joined, not one per name: no name holds a "/",
    and "/" is neither a cased nor a case-ignorable character, so each
    name is lowered as it would be alone (a final sigma too)."""
    joined = "/%s/" % "/".join(names).lower()
    return any(mark in joined for mark in marks)


def _folder_verdict(checker: Project, entry: str, folder: str) -> Any:
    """What the folder of ``entry`` (a path the walk made) decides of its
    entries.  With the default excludes (folder names only): whether it
    lets them in (an entry is in when no part of the folder under the
    settings' root is an excluded name, and its own name is not one).
    With other patterns: a :class:`~irilint.config.FolderVerdict`, that
    judges an entry by its name.  None when neither applies (a folder
    outside the root, a config error): then every entry is tested.
    ``folder``: the entry's folder, absolute, ending with a separator."""
    try:
        settings = checker.settings(entry)
    except checker.config.ConfigError:
        return None
    prefix = checker._root_prefix(settings)
    if not folder.startswith(prefix):
        return None
    parts = folder[len(prefix):].split(os.sep)
    if checker.default_excludes_only(settings):
        return not (set(parts) & checker._default_excluded)
    return checker.config.FolderVerdict(settings, [part for part in parts if part])


_WORKER: Optional[Project] = None


def _worker_init(options: Options) -> None:
    global _WORKER
    _WORKER = Project(options)


def _worker_check(path: str) -> Optional[FileResult]:
    assert _WORKER is not None
    return _check_here(_WORKER, path)


def _check_here(checker: Project, path: str) -> Optional[FileResult]:
    """A file of a parallel run, in a worker or in the parent."""
    try:
        # The parent looked the file up in the cache before handing it out.
        return check_path(checker, path, look_up=False)
    except Exception as exc:  # report, never lose the other files
        shown = display_path(path)
        return FileResult(shown, error="%s: internal error: %s: %s" % (
            shown, exc.__class__.__name__, exc))


def _worker_main(conn: Any, options: Options, inherited: Sequence[Any] = ()) -> None:
    """A worker process: ``([(seq, path, settings token), ...], {token:
    settings not sent before})`` in, lists of ``(seq, outcome)`` out, until
    None.  The settings are the parent's (it looked them up for the walk):
    a worker then never looks for configuration files itself, and checks
    each file with exactly the settings one process would use.
    ``inherited``: the parent's ends of the pipes to the workers forked
    before this one, closed here so that each pipe ends with its parent."""
    for other in inherited:
        other.close()
    _worker_init(options)
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
                    folders[folder_of(path)] = by_token[token]
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


def run_files(checker: Project, paths: Sequence[str], walked: Any = None):
    """Outcomes in discovery order, from N - 1 worker processes and this
    one when --jobs N > 1.  ``walked``: the walk's items (as
    :func:`discover` yields them), when the caller began it.

    The parent walks the tree, answers the files the cache has, and sends
    the others to the workers in batches as the walk finds them (the walk
    overlaps the checking); when every worker has its fill of batches
    (``_IN_FLIGHT``) it checks the next batch itself.  No thread of the parent competes with it for
    the interpreter.
    """
    discovered = discover(checker, paths) if walked is None else walked
    jobs = checker.options.jobs if checker.options.jobs > 0 else (os.cpu_count() or 1)
    # Look ahead a little: a handful of files is checked in this process.
    head: List[Any] = []
    head_files = 0
    for item in discovered:
        head.append(item)
        if not isinstance(item, FileResult):
            head_files += 1
            if head_files >= 4:
                break
    if jobs <= 1 or head_files < 4:
        for item in itertools.chain(head, discovered):
            if isinstance(item, FileResult):
                yield item
            else:
                out = check_path(checker, item[0], st=item[1])
                if out is not None:
                    yield out
                    out = None  # printed: not held while the next file is checked
        return
    yield from _run_parallel(checker, itertools.chain(head, discovered), jobs)


def _run_parallel(checker: Project, items: Any, jobs: int):
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    workers: List[_WorkerHandle] = []
    # Every item in discovery order: a FileResult (cached, or a problem of
    # the walk) or the seq of a file sent to a worker.
    order: "collections.deque[Any]" = collections.deque()
    done: Dict[int, Optional[FileResult]] = {}

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
                        shown = display_path(path)
                        done[seq] = FileResult(shown, error="%s: internal error: worker "
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

        frozen_before = gc.get_freeze_count() > 0  # then the check command unfreezes
        gc.freeze()
        try:
            for _ in range(jobs - 1):  # this process is the N-th
                parent_conn, child_conn = ctx.Pipe()
                inherited = [w.conn for w in workers] if ctx.get_start_method() == "fork" else []
                process = ctx.Process(target=_worker_main, args=(child_conn, checker.options, inherited), daemon=True)
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
            if isinstance(first, FileResult):
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
            if isinstance(item, FileResult):
                order.append(item)
            else:
                path, st = item
                hit = cached_result(checker, path, st)
                if hit is BINARY_HIT:
                    pass  # skipped unread, as a worker would skip it read
                elif hit is not None:
                    order.append(hit)
                elif checker.streams(st.st_size):
                    # Checked here, as the printer reads its findings: a
                    # worker would send every one of them back at once.
                    here = _check_here(checker, path)
                    if here is not None:
                        order.append(here)
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


def check_files(checker: Project, paths: Sequence[str], on_result: Any = None) -> List[FileResult]:
    """The results of the files of ``paths`` (``run_files``), in discovery
    order, with the look-alike hosts that collide across files reported;
    ``on_result(result)`` is called as each arrives (the progress line)."""
    from .collisions import reduce_project_rules

    results: List[FileResult] = []
    for item in run_files(checker, paths):
        item.settle()  # kept to the end: its positions, not its text
        results.append(item)
        if on_result is not None:
            on_result(item)
    reduce_project_rules(results)
    return results


def stream_files(checker: Project, paths: Sequence[str], on_result: Any = None, walked: Any = None):
    """The results of :func:`check_files`, in the same order and with the
    same findings, each yielded as soon as it is final: when every file
    before it is, and no project finding can still reach it
    (:class:`~irilint.collisions.ProjectReduction`).  What the run learnt
    goes to the result cache as results arrive; the cache is saved after
    the last one.  ``walked``: as for :func:`run_files`."""
    from .collisions import ProjectReduction

    cache = checker.cache
    reduction = ProjectReduction(checker.reduction_memo if cache is not None else None)
    for item in run_files(checker, paths, walked):
        if on_result is not None:
            on_result(item)
        if cache is not None and (item.stamp is not None or item.cache_line is not None):
            _remember(checker, item)
        yield from reduction.add(item)
        del item  # printed (or held): not kept here while the next file is checked
    yield from reduction.finish()
    if checker.cache is not None:
        _save(checker)


def save_cache(checker: Project, results: Sequence[FileResult]) -> None:
    """Write what the run learnt to the result cache and its indexes."""
    if checker.cache is None:
        return
    for o in results:
        _remember(checker, o)
    _save(checker)


def _remember(checker: Project, o: FileResult) -> None:
    if o.stamp is not None and o.abspath:
        checker.stat_index.record(o.abspath, o.stamp[0], o.stamp[1])
    if o.cache_line is not None:
        checker.cache.add(o.cache_line)
        o.cache_line = None


def _save(checker: Project) -> None:
    checker.cache.save()
    checker.stat_index.save()
    checker.listing_index.save()
    checker.reduction_memo.save()
