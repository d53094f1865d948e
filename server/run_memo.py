"""The whole-run memo: a warm run of an unchanged tree prints what the last
run printed, without reading a cache entry per file.

A cached run looks each file up in the result cache and decodes its entry
(findings, facts, positions), then reduces the project rules and prints:
for a tree where nothing changed, that is work whose result is known.  The
memo keeps a run's output (what went to stdout and stderr, and the exit
status) under the digest of everything that output is a function of:

* the *query*, which names the memo file: the command line's options but
  those that change no output (``--jobs``, ``--no-progress``), the paths
  as given, the working directory, the irilint version, its code's
  fingerprint, the cache format, the decoding rules and the Python version;
* the *tree*: each item of the walk in order: a file's display path, the
  digest of its content (from the stat index, whose "racy" guard leaves
  out a stamp a change could hide behind) and its settings' fingerprint
  (every configuration file that governs it, read this run); a binary or
  too large file by its size; what the walk could not enter or follow, by
  the message it gives.

No environment variable changes what is kept: the output has no colour,
the progress line (a terminal's only) is not part of it, and the text is
kept as text, encoded by the stream it is replayed to.

A file the stat index does not know (new, changed, renamed, racy), a
configuration error, a binary file named on the command line: the tree's
digest cannot be made, and the run goes the per-file way, unchanged.  The
memo of a query is replaced by each run that completes with nothing left
out of its output; a memo file that cannot be read is a note, and a miss.
"""
from __future__ import annotations

import hashlib
import os
import sys
from typing import Any, Iterator, List, Optional, Sequence, Tuple

MEMO_FORMAT = 1
HEADER = b"irilint run memo %d " % MEMO_FORMAT
#: the memo files kept in a cache (one per query, the oldest dropped)
KEEP = 8
#: a run whose output is longer (characters) is not remembered: the
#: output is held in memory until the run ends
MAX_OUTPUT_CHARS = 1 << 23
#: the command line's options that change nothing in the output
_NOT_IN_OUTPUT = frozenset({"jobs", "no_progress", "no_cache"})


def usable(args: Any, checker: Any) -> bool:
    """Whether a run of ``args`` may use (and write) the memo: a cached
    check of paths that only reports (no fixes, no diff, no stdin), with
    its findings on standard output."""
    return (checker.cache is not None and not args.fix and not args.diff and not args.output_file
            and "-" not in (args.paths or []))


def query_digest(args: Any, cwd: str) -> str:
    """The digest of what shapes a run's output besides the files: the
    options (all but ``_NOT_IN_OUTPUT``), the paths as given, the working
    directory and the code that runs."""
    from . import __version__
    from .cache import FORMAT, code_fingerprint
    from .declared_encoding import DECODING_RULES

    options = sorted((name, repr(value)) for name, value in vars(args).items()
                     if name not in _NOT_IN_OUTPUT and not callable(value))
    text = repr((MEMO_FORMAT, FORMAT, __version__, code_fingerprint(), DECODING_RULES, sys.version,
                 cwd, options))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class TreeKey:
    """The tree's part of a run's key, built item by item as the walk
    yields them (``add``: False when an item cannot be keyed)."""

    def __init__(self, checker: Any) -> None:
        self.checker = checker
        self.parts: List[str] = []
        #: id(settings) -> (settings, its number in this key)
        self._settings: dict = {}
        self._fingerprints: List[str] = []

    def add(self, item: Any) -> bool:
        checker = self.checker
        if type(item) is not tuple:  # what the walk could not enter or follow
            self.parts.append("R\0%s\0%r\0%r\0%r" % (item.path, item.error, item.skipped, item.note))
            return True
        path, st = item
        try:
            settings = checker.settings(path)
        except checker.config.ConfigError:
            return False
        hit = self._settings.get(id(settings))
        if hit is None or hit[0] is not settings:
            hit = self._settings[id(settings)] = (settings, len(self._fingerprints))
            self._fingerprints.append(settings.fingerprint())
        shown = checker.display_path(path)
        if st.st_size > settings.max_file_size:
            # skipped with its size and the limit (in the settings) named
            self.parts.append("L\0%s\0%d\0%d" % (shown, hit[1], st.st_size))
            return True
        digest = checker.stat_index.digest(path, st)
        if digest is None:
            return False
        if digest == checker.stat_index.BINARY:
            if checker.absolute(path) in checker.explicit_paths:
                return False  # named: read, and told; not worth a key
            self.parts.append("B\0%s" % shown)
            return True
        self.parts.append("F\0%s\0%d\0%s" % (shown, hit[1], digest))
        return True

    def digest(self) -> str:
        h = hashlib.sha256()
        h.update("\1".join(self._fingerprints).encode("ascii"))
        h.update(b"\2")
        h.update("\1".join(self.parts).encode("utf-8", "surrogatepass"))
        return h.hexdigest()


def walk_keyed(checker: Any, paths: Sequence[str], memo: "RunMemo") -> Tuple[Optional[Any], Iterator[Any]]:
    """(the memo's record of this run, or None; the walk's items for the
    per-file way): the items already walked, then the rest.  With no memo
    for the query, the walk is handed on untouched."""
    import itertools

    from .runner import discover

    items = discover(checker, paths)
    if not memo.exists():
        return None, items
    key = TreeKey(checker)
    seen: List[Any] = []
    for item in items:
        seen.append(item)
        if not key.add(item):
            return None, itertools.chain(seen, items)
    return memo.read(key.digest()), iter(seen)


def kept(items: Iterator[Any], into: List[Any]) -> Iterator[Any]:
    """``items``, each also put in ``into`` as it passes."""
    for item in items:
        into.append(item)
        yield item


def tree_digest(checker: Any, walked: Sequence[Any]) -> Optional[str]:
    """The tree key of the items a run walked (after the cache was saved:
    the stat index keeps what it saved, this run's records with the
    rest), or None when one cannot be keyed."""
    key = TreeKey(checker)
    for item in walked:
        if not key.add(item):
            return None
    return key.digest()


class Transcript:
    """What a run writes to stdout and stderr, passed on and kept in order
    (until ``MAX_OUTPUT_CHARS``: then nothing more is kept, and
    ``overflowed``): both can be one terminal, and a replay interleaves
    them as the run did."""

    def __init__(self, stdout: Any, stderr: Any) -> None:
        self.stdout = _Stream(self, stdout, False)
        self.stderr = _Stream(self, stderr, True)
        #: [to stderr, [texts]] in the order written
        self.chunks: List[Any] = []
        self.chars = 0
        self.overflowed = False

    def keep(self, to_stderr: bool, text: str) -> None:
        if self.overflowed:
            return
        self.chars += len(text)
        if self.chars > MAX_OUTPUT_CHARS:
            self.overflowed = True
            self.chunks = []
        elif self.chunks and self.chunks[-1][0] is to_stderr:
            self.chunks[-1][1].append(text)
        else:
            self.chunks.append([to_stderr, [text]])

    def segments(self) -> List[Tuple[bool, str]]:
        """(to stderr, text) of each run of writes to one stream."""
        return [(to_stderr, "".join(texts)) for to_stderr, texts in self.chunks]

    def drop_first_error_line(self, line: str) -> None:
        """Leave out the first line written to stderr, when it is ``line``."""
        for chunk in self.chunks:
            if chunk[0]:
                text = "".join(chunk[1])
                if text.startswith(line + "\n"):
                    chunk[1] = [text[len(line) + 1:]]
                return


class _Stream:
    def __init__(self, transcript: Transcript, out: Any, to_stderr: bool) -> None:
        self._transcript = transcript
        self._out = out
        self._to_stderr = to_stderr

    def write(self, text: str) -> Any:
        written = self._out.write(text)
        self._transcript.keep(self._to_stderr, text)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)


def _stamp(path: str) -> bytes:
    """The stat stamp of ``path`` (a file beside the memo), or ``-``."""
    try:
        st = os.stat(path)
    except OSError:
        return b"-"
    return b"%d.%d.%d.%d" % (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class RunMemo:
    """The memo file of one query in the cache folder: a head line (format
    and the SHA-256 of the rest), then ``tree-digest pack-stamp status``
    and ``o SIZE`` or ``e SIZE`` for each run of writes to stdout or
    stderr, and a line end; then those writes, UTF-8 (lone surrogates
    kept).  The pack's stamp is checked too: a pack changed
    since (damaged, or another run's) is read by the per-file way, which
    says what is wrong with it."""

    def __init__(self, cache: Any, query: str) -> None:
        self.cache = cache
        self.path = os.path.join(cache.dir, "run-%s" % query[:32])

    def exists(self) -> bool:
        return os.path.lexists(self.path)

    def read(self, tree: str) -> Optional[Tuple[int, List[Tuple[bool, str]]]]:
        """(exit status, [(to stderr, text), ...]) remembered for ``tree``,
        or None."""
        from .cache import _read_checked

        body = _read_checked(self.path, HEADER, b"\n", self.cache.note_problem)
        if body is None:
            return None
        head, found, rest = body.partition(b"\n")
        fields = head.split(b" ")
        if not found or len(fields) < 3 or len(fields) % 2 == 0 or fields[0] != tree.encode("ascii"):
            return None
        if fields[1] != _stamp(self.cache.pack_path):
            return None
        try:
            status = int(fields[2])
            segments = []
            at = 0
            for stream, size in zip(fields[3::2], fields[4::2]):
                end = at + int(size)
                if stream not in (b"o", b"e") or not at <= end <= len(rest):
                    return None
                segments.append((stream == b"e", rest[at:end].decode("utf-8", "surrogatepass")))
                at = end
        except ValueError:
            return None
        if at != len(rest):
            return None
        return status, segments

    def write(self, tree: str, status: int, segments: List[Tuple[bool, str]]) -> None:
        """Remember a run's output (after the pack is saved: its stamp is
        part of the record), and drop the oldest memo files past ``KEEP``."""
        from .cache import _write_checked

        data = [text.encode("utf-8", "surrogatepass") for _, text in segments]
        head = b" ".join([tree.encode("ascii"), _stamp(self.cache.pack_path), b"%d" % status]
                         + [b"%s %d" % (b"e" if to_stderr else b"o", len(part))
                            for (to_stderr, _), part in zip(segments, data)])
        _write_checked(self.path, HEADER, b"\n", [head, b"\n"] + data, self.cache.note_problem)
        self._prune()

    def remember(self, checker: Any, walked: Sequence[Any], transcript: "Transcript", status: int) -> None:
        """Keep a run's output (``transcript``, ``status``; ``walked``: its
        walk's items) when all of it is known to follow from the key: no
        internal error told on the way (those go straight to stderr), the
        output whole, every file keyed."""
        if getattr(checker, "_told_internal", False) or transcript.overflowed:
            return
        if checker.cache.problem:
            # The note is about the cache, not the tree: not told again from the memo.
            transcript.drop_first_error_line("irilint: note: %s" % checker.cache.problem)
        tree = tree_digest(checker, walked)
        if tree is not None:
            self.write(tree, status, transcript.segments())

    def _prune(self) -> None:
        folder = os.path.dirname(self.path)
        try:
            names = [n for n in os.listdir(folder) if n.startswith("run-")]
            if len(names) <= KEEP:
                return
            aged = sorted((os.stat(os.path.join(folder, n)).st_mtime_ns, n) for n in names)
            for _, name in aged[:len(names) - KEEP]:
                os.unlink(os.path.join(folder, name))
        except OSError:
            pass  # another run pruned them first, or the folder is read-only: kept for now
