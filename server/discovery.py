"""Which files to check: walking the paths given on the command line.

* Files named explicitly are always yielded (even hidden or git-ignored
  ones): the user asked for them.
* Directories are walked recursively in sorted order, so output and exit
  status do not depend on the filesystem's listing order.
* VCS folders, hidden files and folders, ``node_modules``, ``__pycache__``
  and ``.irilint_cache`` are skipped.
* What git ignores is skipped when the directory is in a git work tree.
  Git is asked once per repository root (``git ls-files``), never once per
  file; without git, or outside a repository, nothing is filtered.
* A walk never leaves its roots: the realpaths of the paths it was given
  (a directory is a root; a file given explicitly is its own root).  A
  symlink met in a walk whose target is outside every root is yielded as a
  :class:`LinkOutsideRoots` and neither read nor entered; one whose target
  is inside a root is followed (to a file or a directory), and the same
  file or directory reached twice is yielded once.  ``follow_symlinks=True``
  follows every link, wherever it leads.  A link back to one of its own
  ancestors is reported as a loop and the walk goes on.
* Problems are *yielded* as :class:`DiscoveryError` values, in order with
  the files, so one unreadable directory does not stop the run.

Whether a file is text or binary is decided when it is read (``fileio``).
"""
from __future__ import annotations

import errno
import operator
import os
import shutil
import stat as stat_module
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple, Union

__all__ = ["DiscoveryError", "LinkOutsideRoots", "SKIPPED_DIR_NAMES", "fix_roots", "inside_roots", "iter_files",
           "walk_roots"]

VCS_DIR_NAMES: FrozenSet[str] = frozenset({".git", ".hg", ".svn", ".bzr", "_darcs"})

#: Directory names never entered during a walk (hidden names are skipped too).
SKIPPED_DIR_NAMES: FrozenSet[str] = VCS_DIR_NAMES | {"node_modules", "__pycache__", ".irilint_cache"}

# Variables that would point git at some other repository than the one the
# directory is in (they are set, for example, inside git hooks).
_GIT_LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX")


class DiscoveryError(Exception):
    """A path that could not be examined; yielded, not raised, by :func:`iter_files`."""

    def __init__(self, path: Union[str, os.PathLike], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiscoveryError) and (self.path, self.reason) == (other.path, other.reason)

    def __hash__(self) -> int:
        return hash((self.path, self.reason))

    def __reduce__(self):
        return (type(self), (str(self.path), self.reason))


class LinkOutsideRoots(DiscoveryError):
    """A symlink met in a walk that leads outside every root: not followed,
    not read.  Not a failure (a caller tells it as a skip, like a binary
    file), but a :class:`DiscoveryError` so that a caller that knows only
    errors never takes it for a file to read."""

    REASON = "symbolic link to a path outside the checked tree, not followed"

    def __init__(self, path: Union[str, os.PathLike], reason: str = REASON) -> None:
        super().__init__(path, reason)


# ---------------------------------------------------------------------------
# roots


def _root_prefix(real: str) -> str:
    real = os.path.normcase(real)
    return real if real.endswith(os.sep) else real + os.sep


def walk_roots(paths: Sequence[Union[str, "os.PathLike[str]"]]) -> FrozenSet[str]:
    """Where walks of ``paths`` may go: the realpath of each (a directory is
    a root, a file given explicitly is its own root; a symlink given
    explicitly was named by the user, so its target is a root), each
    normalised for :func:`inside_roots`."""
    return frozenset(_root_prefix(os.path.realpath(os.fspath(p))) for p in paths)


def _names_a_link(path: str) -> bool:
    # "docs/link/" names the directory the link leads to as much as the
    # link: only the last part, as spelled, counts.
    stripped = path.rstrip(os.sep + (os.altsep or ""))
    return bool(stripped) and os.path.islink(stripped)


def fix_roots(paths: Sequence[Union[str, "os.PathLike[str]"]]) -> FrozenSet[str]:
    """Where fixes of ``paths`` may write: like :func:`walk_roots`, except
    that a path that is itself a symlink stands for the link, not for what
    it leads to: its root is the folder the link is in.  So a link named on
    the command line is fixed when its target is under its own folder or
    another root, and never when it leads elsewhere."""
    roots = []
    for p in paths:
        spelled = os.fspath(p)
        if _names_a_link(spelled):
            folder = os.path.dirname(os.path.abspath(spelled.rstrip(os.sep + (os.altsep or ""))))
            roots.append(_root_prefix(os.path.realpath(folder)))
        else:
            roots.append(_root_prefix(os.path.realpath(spelled)))
    return frozenset(roots)


def inside_roots(path: str, roots: FrozenSet[str]) -> bool:
    """Whether ``path`` resolves (symlinks and all) to a root or a place
    under one (``roots`` from :func:`walk_roots` or :func:`fix_roots`)."""
    # One set test per folder above the target, however many roots there
    # are (a pre-commit run names every changed file).
    real = os.path.normcase(os.path.realpath(path))
    while True:
        if _root_prefix(real) in roots:
            return True
        parent = os.path.dirname(real)
        if parent == real:
            return False
        real = parent


# ---------------------------------------------------------------------------
# git


@dataclass
class _GitRepo:
    """Files git does not ignore in one work tree, relative to its top."""

    top: str
    files: Set[str]
    #: Every directory that holds a listed file, plus untracked directories
    #: git reported whole (nested repositories).
    dirs: Set[str] = field(default_factory=set)

    def keeps_file(self, rel: str) -> bool:
        return rel in self.files

    def keeps_dir(self, rel: str) -> bool:
        # A submodule is listed as a single (gitlink) entry.
        return rel == "" or rel in self.dirs or rel in self.files


@dataclass(frozen=True)
class _GitView:
    """Where a directory sits in a repository: (repo, path relative to top)."""

    repo: _GitRepo
    rel: str

    def child(self, name: str) -> str:
        return f"{self.rel}/{name}" if self.rel else name


class _Git:
    """Runs git, at most once per repository root for the file list."""

    def __init__(self) -> None:
        self.executable = shutil.which("git")
        self._repos: Dict[str, Optional[_GitRepo]] = {}
        env = dict(os.environ)
        for var in _GIT_LOCATION_VARS:
            env.pop(var, None)
        env["GIT_OPTIONAL_LOCKS"] = "0"  # never take the index lock just to read
        self._env = env

    def _run(self, directory: str, *args: str) -> Optional[bytes]:
        if self.executable is None:
            return None
        try:
            proc = subprocess.run(
                [self.executable, "-C", directory, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=self._env,
                check=False,
            )
        except OSError:
            return None
        return proc.stdout if proc.returncode == 0 else None

    def view(self, directory: str) -> Optional[_GitView]:
        """The repository ``directory`` is in, or ``None`` (not in a work tree)."""
        out = self._run(directory, "rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix")
        if out is None:
            return None
        lines = os.fsdecode(out).split("\n")
        if len(lines) < 3 or lines[0] != "true":
            return None  # e.g. inside .git itself
        top, prefix = lines[1], lines[2].rstrip("/")
        repo = self._repo(top)
        return None if repo is None else _GitView(repo, prefix)

    def _repo(self, top: str) -> Optional[_GitRepo]:
        if top not in self._repos:
            out = self._run(top, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
            repo = None
            if out is not None:
                repo = _GitRepo(top, set())
                for raw in out.split(b"\0"):
                    if not raw:
                        continue
                    entry = os.fsdecode(raw)
                    if entry.endswith("/"):  # an untracked nested repository
                        entry = entry.rstrip("/")
                        repo.dirs.add(entry)
                    else:
                        repo.files.add(entry)
                    parent = entry.rpartition("/")[0]
                    while parent and parent not in repo.dirs:
                        repo.dirs.add(parent)
                        parent = parent.rpartition("/")[0]
            self._repos[top] = repo
        return self._repos[top]

    def is_ignored(self, path: str) -> bool:
        """Whether git ignores ``path`` itself (one call, for explicit dirs)."""
        if self.executable is None:
            return False
        parent, name = os.path.split(os.path.abspath(path))
        try:
            proc = subprocess.run(
                [self.executable, "-C", parent, "check-ignore", "-q", "--", name],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=self._env,
                check=False,
            )
        except OSError:
            return False
        return proc.returncode == 0


# ---------------------------------------------------------------------------
# the walk


def _identity(st: os.stat_result, path: str) -> Tuple[object, ...]:
    # Some filesystems (and Windows before Python 3.12) report inode 0;
    # fall back to the resolved path then.
    if st.st_ino:
        return (st.st_dev, st.st_ino)
    return ("path", os.path.normcase(os.path.realpath(path)))


def _stat_error(path: str, exc: OSError) -> DiscoveryError:
    if isinstance(exc, FileNotFoundError):
        if os.path.lexists(path):
            return DiscoveryError(path, "broken symbolic link")
        return DiscoveryError(path, "no such file or directory")
    if isinstance(exc, PermissionError):
        return DiscoveryError(path, "permission denied")
    if exc.errno == errno.ELOOP:
        return DiscoveryError(path, "symlink loop")
    return DiscoveryError(path, (exc.strerror or str(exc)).lower())


#: the sort key of a directory's entries (C code, not a Python call each)
_entry_name = operator.attrgetter("name")


def _is_symlink(entry: os.DirEntry) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False  # vanished: its stat fails next, and says so


def _skip_dir_name(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIR_NAMES


class _Walker:
    def __init__(
        self,
        is_included: Optional[Callable[[Path], bool]],
        respect_gitignore: bool,
        force_exclude: bool,
        path_type: Callable[[str], Any] = Path,
        on_directory: Optional[Callable[[str, List[str]], None]] = None,
        with_stat: bool = False,
        listings: Any = None,
        given: Optional[Sequence[str]] = None,
        entry_included: Optional[Callable[[Any, bool], bool]] = None,
    ) -> None:
        #: the paths whose realpaths are the roots links may lead into (see
        #: walk_roots); None: links may lead anywhere
        self.given = given
        self._roots: Optional[FrozenSet[str]] = None
        self.with_stat = with_stat
        self.listings = listings
        #: ``is_included(path, is_dir)``, or None: every entry is in
        self.is_included: Optional[Callable[[Any, bool], bool]] = entry_included
        if entry_included is None and is_included is not None:
            self.is_included = lambda path, is_dir: is_included(path)
        self.path_type = path_type
        self.on_directory = on_directory
        self.git = _Git() if respect_gitignore else None
        self.force_exclude = force_exclude
        self.seen_files: Set[Tuple[object, ...]] = set()
        self.walked_dirs: Set[Tuple[object, ...]] = set()

    def _leads_out(self, path: str) -> bool:
        """Whether the link ``path`` leads outside every root."""
        if self.given is None:
            return False
        if self._roots is None:
            # Worked out at the first link: most walks meet none, and a
            # run given many files by name walks no folder at all.
            self._roots = walk_roots(self.given)
        return not inside_roots(path, self._roots)

    def _new_file(self, st: os.stat_result, path: str) -> bool:
        ident = (st.st_dev, st.st_ino) if st.st_ino else _identity(st, path)
        if ident in self.seen_files:
            return False
        self.seen_files.add(ident)
        return True

    def explicit(self, given: str) -> Iterator[Union[Path, DiscoveryError]]:
        try:
            st = os.stat(given)
        except OSError as exc:
            yield _stat_error(given, exc)
            return
        path = self.path_type(given)
        if stat_module.S_ISDIR(st.st_mode):
            if self.force_exclude and self.is_included is not None and not self.is_included(path, True):
                return
            yield from self.walk(given, st)
        elif stat_module.S_ISREG(st.st_mode):
            if self.force_exclude and self.is_included is not None and not self.is_included(path, False):
                return
            if self._new_file(st, given):
                yield (path, st) if self.with_stat else path
        else:
            yield DiscoveryError(given, "not a regular file or directory")

    def _root_view(self, directory: str) -> Optional[_GitView]:
        if self.git is None:
            return None
        view = self.git.view(directory)
        if view is None:
            return None
        # A directory the user named that git ignores as a whole is checked
        # anyway (its contents would otherwise all be dropped), the same as
        # an explicitly named file.
        if view.rel and not view.repo.keeps_dir(view.rel) and self.git.is_ignored(directory):
            return None
        return view

    def walk(self, root: str, root_st: os.stat_result) -> Iterator[Union[Path, DiscoveryError]]:
        root_id = _identity(root_st, root)
        if root_id in self.walked_dirs:
            return
        self.walked_dirs.add(root_id)
        # A stack of frames, one per open directory, each with an iterator over
        # its sorted entries: entering a subdirectory pushes a frame, so the
        # order is a sorted pre-order (like `find` on sorted listings) without
        # recursion limits on deep trees.
        stack: List[_Frame] = []
        frame = self._open(root, root_st, frozenset({root_id}), self._root_view(root))
        if isinstance(frame, DiscoveryError):
            yield frame
            return
        stack.append(frame)
        stat, is_regular = os.stat, stat_module.S_ISREG
        str_paths = self.path_type is str
        is_included, with_stat, seen = self.is_included, self.with_stat, self.seen_files
        while stack:
            frame = stack[-1]
            prefix, links, plain = frame.prefix, frame.links, frame.view is None and str_paths
            # The frame's iterator resumes where it stopped when a folder
            # was entered (the loop breaks to walk it first).
            for name in frame.entries:
                path = prefix + name  # os.path.join, without its checks per entry
                try:
                    st = stat(path)  # follows symlinks
                except OSError as exc:
                    if not isinstance(exc, FileNotFoundError):
                        yield _stat_error(path, exc)
                    continue  # dangling symlink (or vanished): nothing to check
                if plain and is_regular(st.st_mode) and name not in links:
                    # Most entries: a file that is no link, in a folder git
                    # does not filter; _entry's test for files, inlined.
                    if name.startswith(".") or (is_included is not None and not is_included(path, False)):
                        continue
                    ident = (st.st_dev, st.st_ino) if st.st_ino else _identity(st, path)
                    if ident in seen:
                        continue
                    seen.add(ident)
                    yield (path, st) if with_stat else path
                    continue
                result = self._entry(frame, name, path, st)
                if result is None:
                    continue
                if isinstance(result, _Frame):
                    stack.append(result)
                    break
                yield result
            else:
                stack.pop()

    def _open(
        self, directory: str, st: os.stat_result, ancestors: FrozenSet[Tuple[object, ...]],
        view: Optional[_GitView], nested_check: bool = False,
    ) -> Union["_Frame", DiscoveryError]:
        listings = self.listings
        hit = listings.get(st) if listings is not None else None
        if hit is not None:
            names, links = hit
        else:
            try:
                with os.scandir(directory) as it:
                    entries = sorted(it, key=_entry_name)
            except OSError as exc:
                return _stat_error(directory, exc)
            names = [e.name for e in entries]
            links = frozenset(e.name for e in entries if _is_symlink(e))
            if listings is not None:
                listings.put(st, names, links)
        if nested_check and self.git is not None and ".git" in names:
            view = self.git.view(directory)  # a nested repository
        if self.on_directory is not None:
            self.on_directory(directory, names)
        return _Frame(directory, iter(names), links, ancestors, view, os.path.join(directory, ""))

    def _entry(self, frame: "_Frame", name: str, path: str,
               st: os.stat_result) -> Union[Path, DiscoveryError, "_Frame", None]:
        """What the walk does with the entry ``name`` of ``frame``, at
        ``path``, whose stat (following links) is ``st``: a file to yield,
        a frame to walk, a problem, or None."""
        if stat_module.S_ISDIR(st.st_mode):
            if _skip_dir_name(name):
                return None
            view = frame.view
            child_view: Optional[_GitView] = None
            if view is not None:
                rel = view.child(name)
                if not view.repo.keeps_dir(rel):
                    return None
                child_view = _GitView(view.repo, rel)
            if self.is_included is not None and not self.is_included(self.path_type(path), True):
                return None
            if name in frame.links and self._leads_out(path):
                return LinkOutsideRoots(path)
            ident = _identity(st, path)
            if ident in frame.ancestors:
                return DiscoveryError(path, "symlink loop")
            if ident in self.walked_dirs:
                return None  # reached before through another link: no duplicates
            self.walked_dirs.add(ident)
            if self.git is not None and name in frame.links:
                # A link that may lead anywhere: ask git where this
                # directory really is.  The containing repo already decided
                # the directory itself is not ignored.
                child_view = self.git.view(path)
                return self._open(path, st, frame.ancestors | {ident}, child_view)
            # A nested repository (an entry named .git) is found in the
            # listing: no lexists() per directory.
            return self._open(path, st, frame.ancestors | {ident}, child_view, nested_check=self.git is not None)

        if stat_module.S_ISREG(st.st_mode):
            if name.startswith("."):
                return None
            view = frame.view
            if view is not None and not view.repo.keeps_file(view.child(name)):
                return None
            path_obj = path if self.path_type is str else self.path_type(path)
            if self.is_included is not None and not self.is_included(path_obj, False):
                return None
            # Only entries that are links can lead out: every other entry is
            # in its folder, which is inside a root.
            if name in frame.links and self._leads_out(path):
                return LinkOutsideRoots(path)
            if not self._new_file(st, path):
                return None
            return (path_obj, st) if self.with_stat else path_obj

        return None  # FIFOs, sockets, devices: reading them could block


@dataclass
class _Frame:
    directory: str
    #: the names of the directory's entries, in sorted order
    entries: Iterator[str]
    #: the names of those that are symbolic links
    links: FrozenSet[str]
    ancestors: FrozenSet[Tuple[object, ...]]
    view: Optional[_GitView]
    #: ``directory`` with a separator at its end: entry paths are prefix + name
    prefix: str


def iter_files(
    paths: Sequence[Union[str, "os.PathLike[str]"]],
    *,
    is_included: Optional[Callable[[Path], bool]] = None,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    path_type: Callable[[str], Any] = Path,
    on_directory: Optional[Callable[[str, List[str]], None]] = None,
    with_stat: bool = False,
    listings: Any = None,
    follow_symlinks: bool = False,
    entry_included: Optional[Callable[[Any, bool], bool]] = None,
) -> Iterator[Union[Path, DiscoveryError]]:
    """Yield the files to check under ``paths``, and problems met on the way.

    ``is_included`` (e.g. ``functools.partial(config.is_included, settings)``)
    prunes directories and filters files found by walking; explicitly named
    files and directories bypass it unless ``force_exclude`` is true (useful
    when a tool such as pre-commit passes every changed file by name).
    The same file is never yielded twice, whichever way it is reached.
    ``path_type=str`` gives (and passes to ``is_included``) plain strings
    instead of :class:`~pathlib.Path` objects: building a ``Path`` per file
    was a sizeable part of walking a large tree.  ``on_directory(path,
    names)`` is called with the entry names of every directory walked,
    before its entries are visited (the CLI learns which folders hold no
    configuration file without looking again).  ``with_stat=True`` yields
    ``(path, os.stat result)`` pairs for files: the stat the walk made
    anyway, so a caller that needs it (the result cache) need not stat
    every file again.  ``listings`` (the result cache's
    :class:`~irilint.cache.ListingIndex`) gives the entries of a directory
    whose stat stamp is unchanged since it was last listed, and is told the
    entries of each directory listed.

    Walks stay inside the roots, the realpaths of ``paths``
    (:func:`walk_roots`): a symlink leading elsewhere is yielded as a
    :class:`LinkOutsideRoots` (a subclass of :class:`DiscoveryError`: a
    skip, not a failure) and is neither read nor entered.  This is the
    default so that every walker (the CLI, the report, any indexing of a
    workspace) inherits it; ``follow_symlinks=True`` follows links
    wherever they lead, still with loop protection.
    ``entry_included(path, is_dir)`` replaces ``is_included`` when given:
    it is also told whether the entry is a directory (as the walk's stat
    says), so it need not stat the path again to apply directory-only
    patterns.
    """
    paths = [os.fspath(p) for p in paths]
    walker = _Walker(is_included, respect_gitignore, force_exclude, path_type, on_directory, with_stat,
                     listings, None if follow_symlinks else paths, entry_included)
    for given in paths:
        yield from walker.explicit(given)
