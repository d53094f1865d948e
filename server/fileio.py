"""Reading and writing documents without losing a byte.

(One module, over 600 lines: reading, editing and writing are one contract,
the text matching the file byte for byte, and a write checks what the read
recorded: the encoding, the BOM and the file's stamp.)

The linter reports offsets into the text and may rewrite files, so the text
must correspond exactly to the bytes on disk:

* no newline translation: ``"\\r\\n"`` stays in the text and is written back
  as it was read;
* the encoding (UTF-8, UTF-16/UTF-32 announced by a byte order mark, or the
  encoding the file declares: PEP 263, an XML declaration, an HTML
  ``<meta charset>``, an Emacs or Vim modeline - see ``declared_encoding``)
  and the BOM itself are remembered and reused when writing;
* decoding is strict, so that encoding the decoded text gives back the
  original bytes exactly - anything else is refused rather than "repaired"
  (a legacy encoding that spells a character two ways is read, but fixes
  to such a file are not written).

Writes are atomic (temporary file in the same directory, fsync, rename) and
refuse to clobber a file that changed since it was read.
"""
from __future__ import annotations

import difflib
import errno
import contextlib
import hashlib
import os
import re
import shutil
import stat as stat_module
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from .declared_encoding import Declaration, DeclarationError, codec_for, find_declaration

__all__ = [
    "Document",
    "DocumentError",
    "FileStamp",
    "TextEdit",
    "apply_edits",
    "decode_bytes",
    "read_document",
    "unified_diff",
    "unencodable_reason",
    "write_atomic",
]

PathLike = Union[str, "os.PathLike[str]"]

# UTF-32 marks first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: Tuple[Tuple[bytes, str], ...] = (
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xfe\xff", "utf-16-be"),
    (b"\xff\xfe", "utf-16-le"),
)


class DocumentError(Exception):
    """A document that cannot be read or written.

    ``kind`` is one of ``"decode"``, ``"binary"``, ``"too-large"``, ``"os"``,
    ``"changed"`` (modified or deleted since it was read) and ``"encode"``
    (the new text cannot be represented in the file's encoding).
    """

    def __init__(self, path: PathLike, reason: str, kind: str = "os") -> None:
        self.path = os.fspath(path)
        self.reason = reason
        self.kind = kind
        super().__init__(f"{self.path}: {reason}")

    def __reduce__(self):  # keep pickling (multiprocessing) working
        return (DocumentError, (self.path, self.reason, self.kind))


class FileStamp(NamedTuple):
    """What identifies a file's state cheaply: compared before writing."""

    size: int
    mtime_ns: int
    ino: int

    @classmethod
    def of(cls, st: os.stat_result) -> "FileStamp":
        return cls(st.st_size, st.st_mtime_ns, st.st_ino)


@dataclass
class Document:
    """A decoded document and everything needed to write it back."""

    path: str
    text: str
    encoding: str = "utf-8"
    bom: bytes = b""
    #: The dominant line ending ("\n", "\r\n" or "\r"); informational only -
    #: the text keeps every line ending as it is in the file.
    newline: str = "\n"
    #: SHA-256 of the bytes read (the whole file, BOM included).
    digest: str = ""
    #: ``None`` when the bytes did not come from a file (stdin).
    stat: Optional[FileStamp] = None
    #: The file's ctime (ns) when it was read: with ``stat``, the stamp the
    #: result cache's stat index keeps (0 when the bytes were not a file).
    ctime_ns: int = 0
    #: Where the file declares ``encoding`` (None: default or BOM).
    declaration: Optional[Declaration] = None
    #: Why writing the text back in ``encoding`` would not give the bytes
    #: that were read (some legacy encodings spell a character two ways);
    #: None when it would, as for every UTF.
    round_trip_problem: Optional[str] = None

    @property
    def size(self) -> int:
        return self.stat.size if self.stat is not None else len(self.encode(self.text))

    def encode(self, text: str) -> bytes:
        """``text`` as bytes in this document's encoding, BOM included."""
        return self.bom + text.encode(self.encoding)


@dataclass(frozen=True)
class TextEdit:
    """Replace ``text[start:end]`` with ``new_text`` (code point offsets)."""

    start: int
    end: int
    new_text: str


# ---------------------------------------------------------------------------
# Reading


def _format_size(n: int) -> str:
    if n >= 1_000_000:
        value, unit = n / 1_000_000, "MB"
    elif n >= 1_000:
        value, unit = n / 1_000, "kB"
    else:
        return f"{n} bytes"
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return f"{text} {unit}"


def _too_large(path: PathLike, size: int, limit: int) -> DocumentError:
    shown, shown_limit = _format_size(size), _format_size(limit)
    if shown == shown_limit:  # "10 MB > 10 MB" would be nonsense
        shown, shown_limit = f"{size} bytes", f"{limit} bytes"
    return DocumentError(path, f"file too large ({shown} > {shown_limit} limit)", "too-large")


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, NotADirectoryError):
        return "not a directory"
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    if exc.errno in _FULL:
        return _FULL[exc.errno]
    return (exc.strerror or str(exc)).lower()


#: what to do about a full disk, a quota or a read-only file system
_FULL = {errno.ENOSPC: "no space left on device (free some space and run again)",
         errno.EROFS: "read-only file system (run where the files can be written, or without --fix)"}
if hasattr(errno, "EDQUOT"):
    _FULL[errno.EDQUOT] = "disk quota exceeded (free some space and run again)"


def _dominant_newline(text: str) -> str:
    if "\r" not in text:
        return "\n"  # most files: one scan instead of three counts
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    # Ties go to "\n", then "\r\n": the likelier intent for new lines.
    best = max((lf, 2, "\n"), (crlf, 1, "\r\n"), (cr, 0, "\r"))
    return best[2] if best[0] > 0 else "\n"


#: the first bytes of the marks in _BOMS: a file starting otherwise has none
_BOM_FIRST_BYTES = frozenset(mark[:1] for mark, _ in _BOMS)


def _round_trip_problem(text: str, data: bytes, encoding: str) -> Optional[str]:
    """Why ``text``, decoded from ``data``, would not be ``data`` again when
    encoded in ``encoding``; None when it would."""
    import unicodedata

    try:
        again = text.encode(encoding)
    except UnicodeEncodeError as exc:
        i = exc.start
    else:
        if again == data:
            return None
        at = next((k for k, (x, y) in enumerate(zip(again, data)) if x != y), min(len(again), len(data)))
        offset = 0
        for i, char in enumerate(text):
            offset += len(char.encode(encoding, "replace"))
            if offset > at:
                break
    i = min(i, len(text) - 1)
    char = text[i]
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    name = unicodedata.name(char, "")
    return (f"its {encoding.upper()} bytes would not be written back as they were read: at line {line}, "
            f"column {column}, U+{ord(char):04X}{' ' + name if name else ''} is spelled in a way "
            f"{encoding.upper()} does not write")


def _bom_of(data: bytes) -> Tuple[str, bytes]:
    """The encoding and byte order mark ``data`` starts with (UTF-8 and no
    mark when none)."""
    encoding, bom = "utf-8", b""
    if data[:1] in _BOM_FIRST_BYTES:  # most files: no mark to look for
        for mark, codec in _BOMS:
            if data.startswith(mark):
                encoding, bom = codec, mark
                break
    if encoding == "utf-32-le" and (len(data) - 4) % 4 != 0:
        # FF FE 00 00 is also a UTF-16-LE BOM followed by U+0000; only a
        # length that fits UTF-32 lets the UTF-32 reading stand.
        encoding, bom = "utf-16-le", b"\xff\xfe"
    return encoding, bom


def binary_offset(data: bytes, encoding: Optional[str] = None) -> int:
    """The offset of the NUL byte that makes ``data`` (a whole file) a
    binary file, which :func:`decode_bytes` refuses; -1 for text.  A file
    that starts with a UTF-16/32 mark holds NULs as text.  ``encoding``:
    the one its mark gives, when already known."""
    if encoding is None:
        encoding = _bom_of(data)[0]
    if encoding.startswith(("utf-16", "utf-32")):
        return -1
    return data.find(b"\x00")


def decode_bytes(data: bytes, path: PathLike = "<stdin>", *, digest: bool = True,
                 syntax: Optional[str] = None) -> Document:
    """Decode ``data`` (a whole file) into a :class:`Document`.

    A BOM decides the encoding; else the file's own declaration, read by
    the rules of ``syntax`` (the scanner or code language name: "python",
    "html", "xml", ...; see :func:`declared_encoding.find_declaration`);
    else UTF-8.  Decoding is strict.  A NUL byte in a file without a
    UTF-16/32 BOM means "binary": such files are skipped, not linted.
    ``digest=False`` leaves :attr:`Document.digest` empty (hashing is a
    tenth of a run that keeps no cache and writes nothing).
    """
    if data[:1] in _BOM_FIRST_BYTES:
        encoding, bom = _bom_of(data)
        nul = binary_offset(data, encoding)
    else:  # most files: no mark, so UTF-8 unless declared (binary_offset inline)
        encoding, bom = "utf-8", b""
        nul = data.find(b"\x00")
    declaration: Optional[Declaration] = None
    if nul != -1:
        raise DocumentError(path, f"binary file (NUL byte at offset {nul})", "binary")
    if not bom:
        declaration = find_declaration(data, syntax)
        if declaration is not None:
            try:
                encoding = codec_for(declaration)
            except DeclarationError as exc:
                raise DocumentError(path, str(exc), "decode") from None
    try:
        text = data[len(bom):].decode(encoding)
    except UnicodeDecodeError as exc:
        name = encoding.upper()
        declared = "" if declaration is None else f", the encoding declared by {declaration.describe()},"
        raise DocumentError(
            path,
            f"cannot decode as {name}{declared} at byte {exc.start + len(bom)} ({exc.reason})",
            "decode",
        ) from None
    round_trip_problem = None
    if declaration is not None and not encoding.startswith("utf-"):
        round_trip_problem = _round_trip_problem(text, data, encoding)
    return Document(
        path=os.fspath(path),
        text=text,
        encoding=encoding,
        bom=bom,
        newline=_dominant_newline(text),
        digest=hashlib.sha256(data).hexdigest() if digest else "",
        stat=None,
        declaration=declaration,
        round_trip_problem=round_trip_problem,
    )


def _read_all(fd: int, limit: Optional[int], size: int = -1) -> bytes:
    """Everything from ``fd`` (at most ``limit`` + 1 bytes).  ``size``: what
    fstat says the file holds; a file that size is read in one call (one
    byte more is asked for: getting less means the end was reached)."""
    chunks: List[bytes] = []
    total = 0
    first = True
    if 0 <= size < (1 << 30) and (limit is None or size <= limit):
        # Most files: the whole file, as fstat counts it, in one call (the
        # loop's first round, without its bookkeeping).
        chunk = os.read(fd, size + 1)
        if len(chunk) == size or not chunk:
            return chunk
        chunks.append(chunk)
        total = len(chunk)
        first = False
    while True:
        want = size + 1 if first and 0 <= size < (1 << 30) else 1 << 20
        if limit is not None:
            want = min(want, limit + 1 - total)  # one byte more reveals growth
            if want <= 0:
                break
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if first and total == size and len(chunk) < want:
            break  # the whole file, as fstat counts it (the caller checks again)
        first = False
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


#: how a file is opened to be read (O_BINARY: Windows translates no newline)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def read_document(path: PathLike, max_size: Optional[int] = None, *, digest: bool = True,
                  syntax: Optional[str] = None, stat: Optional[os.stat_result] = None) -> Document:
    """Read and decode a file; raise :class:`DocumentError` if impossible.

    The stat fingerprint is taken from the open file before and after
    reading; if the file changes while being read, it is read again, so
    the fingerprint and the digest always describe the same content.
    ``digest=False``: no SHA-256; ``syntax``: whose rules read an
    encoding declaration (see :func:`decode_bytes`).  ``stat``: the
    path's ``os.stat`` that the caller (a walk) has just made: it stands
    for the look before opening and for the first fingerprint before
    reading (two system calls a file); a file that changed since is read
    again, as one changing while read.
    """
    path_str = os.fspath(path)
    st = stat
    if st is None:
        try:
            st = os.stat(path_str)
        except OSError as exc:
            raise DocumentError(path_str, _os_reason(exc)) from None
    if not stat_module.S_ISREG(st.st_mode):
        if stat_module.S_ISDIR(st.st_mode):
            raise DocumentError(path_str, "is a directory")
        # A FIFO or device would block or never end.
        raise DocumentError(path_str, "not a regular file")
    if max_size is not None and st.st_size > max_size:
        raise _too_large(path_str, st.st_size, max_size)
    try:
        fd = os.open(path_str, _READ_FLAGS)
    except OSError as exc:
        raise DocumentError(path_str, _os_reason(exc)) from None
    try:
        for attempt in range(3):
            before = stat if attempt == 0 and stat is not None else os.fstat(fd)
            if max_size is not None and before.st_size > max_size:
                raise _too_large(path_str, before.st_size, max_size)
            if attempt:
                os.lseek(fd, 0, os.SEEK_SET)
            data = _read_all(fd, max_size, before.st_size)
            after = os.fstat(fd)
            if (before.st_size == after.st_size == len(data) and before.st_mtime_ns == after.st_mtime_ns
                    and before.st_ino == after.st_ino):  # FileStamp.of(before) == FileStamp.of(after)
                break
        else:
            raise DocumentError(path_str, "file keeps changing while being read", "changed")
    except OSError as exc:
        raise DocumentError(path_str, _os_reason(exc)) from None
    finally:
        os.close(fd)
    if max_size is not None and len(data) > max_size:
        raise _too_large(path_str, len(data), max_size)
    doc = decode_bytes(data, path_str, digest=digest, syntax=syntax)
    doc.stat = FileStamp.of(after)
    doc.ctime_ns = after.st_ctime_ns
    return doc


# ---------------------------------------------------------------------------
# Editing


def apply_edits(text: str, edits: Iterable) -> str:
    """Apply edits (objects with ``start``, ``end``, ``new_text``) to ``text``.

    Offsets refer to the original ``text``.  Edits are sorted by position;
    overlapping edits raise :class:`ValueError`.  Several insertions at one
    offset are applied in the order given.  The result is assembled in one
    forward pass over the original text, which is equivalent to applying the
    edits back to front but linear in the size of the text.
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end))  # stable
    pieces: List[str] = []
    pos = 0
    n = len(text)
    for edit in ordered:
        start, end = edit.start, edit.end
        if not (0 <= start <= end <= n):
            raise ValueError(f"edit [{start}, {end}) out of range for text of length {n}")
        if start < pos:
            raise ValueError(f"overlapping edits at offset {start} (previous edit ends at {pos})")
        pieces.append(text[pos:start])
        pieces.append(edit.new_text)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


# ---------------------------------------------------------------------------
# Writing


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


@contextlib.contextmanager
def written_temporary(folder: str, prefix: str, parts: Iterable[bytes], *, suffix: str = "",
                      fsync: bool = True) -> Iterator[str]:
    """A new file in ``folder`` holding ``parts`` one after the other,
    closed (and flushed to the disk with ``fsync``): its path, for the
    block to rename into place.  If the writing or the block fails, the
    file is removed, so no temporary file is left behind.  Raises OSError."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=suffix)
    try:
        try:
            for part in parts:
                _write_all(fd, part)
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        yield tmp
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _sha256_of_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check_unchanged(doc: Document, target: str, *, hash_check: bool) -> os.stat_result:
    try:
        st = os.stat(target)
    except FileNotFoundError:
        raise DocumentError(doc.path, "file was deleted since it was read", "changed") from None
    except OSError as exc:
        raise DocumentError(doc.path, _os_reason(exc)) from None
    if FileStamp.of(st) != doc.stat:
        raise DocumentError(doc.path, "file changed on disk since it was read", "changed")
    # mtime granularity can hide a same-size rewrite; the digest cannot.
    if hash_check:
        try:
            digest = _sha256_of_file(target)
        except OSError as exc:
            raise DocumentError(doc.path, _os_reason(exc)) from None
        if digest != doc.digest:
            raise DocumentError(doc.path, "file changed on disk since it was read", "changed")
    return st


def _fsync_directory(directory: str) -> None:
    # Makes the rename itself durable; not possible everywhere (Windows).
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# A process killed (SIGKILL, power loss) between creating its temporary file
# and renaming it leaves that file behind; nothing can prevent that.  The
# name says who made it - ".irilint-<pid>-<random>.tmp" - so a later write
# in the same directory removes the ones whose writer no longer runs.  The
# leading dot keeps them out of directory walks meanwhile.
_TEMP_PREFIX = ".irilint-"
_TEMP_SUFFIX = ".tmp"
_STALE_TEMP = re.compile(r"\.irilint-(\d+)-[^/\\]*\.tmp\Z")
#: Directories already cleaned by this process (a listing per write would
#: make fixing many files in one big directory quadratic).
_cleaned_dirs: set = set()


def _temp_prefix() -> str:
    return f"{_TEMP_PREFIX}{os.getpid()}-"


def _pid_running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # exists (another user's), or cannot tell: keep the file
    return True


def _remove_stale_temporaries(directory: str) -> None:
    if directory in _cleaned_dirs or not hasattr(os, "kill") or os.name == "nt":
        return
    _cleaned_dirs.add(directory)
    try:
        with os.scandir(directory) as entries:
            names = [e.name for e in entries if e.name.startswith(_TEMP_PREFIX)]
    except OSError:
        return
    for name in names:
        m = _STALE_TEMP.match(name)
        if m is None or _pid_running(int(m.group(1))):
            continue
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


_RENAME_EXCHANGE = 2  # linux/fs.h
_renameat2: Any = None


def _exchange(a: str, b: str) -> bool:
    """Swap the files named ``a`` and ``b`` in one step (Linux renameat2
    with RENAME_EXCHANGE); False where the system or the file system cannot,
    and the caller renames instead."""
    global _renameat2
    if _renameat2 is None:
        _renameat2 = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                fn = libc.renameat2
                fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
                fn.restype = ctypes.c_int
                _renameat2 = fn
            except (OSError, AttributeError):  # no renameat2 in this C library
                pass
    if not _renameat2:
        return False
    import ctypes

    at_fdcwd = -100
    if _renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EXDEV, errno.ENOTSUP, errno.EPERM):
        return False  # not supported here: fall back to a rename
    raise OSError(err, os.strerror(err), b)


def _undo_if_replaced(doc: Document, swapped_out: str, target: str, checked: os.stat_result) -> None:
    """After an exchange: ``swapped_out`` is what was at ``target``.  When it
    is another file than the one checked (same device and inode), it is an
    editor's save that landed between the last check and the exchange: swap
    it back, so the editor's text is on disk, and report the change."""
    now = os.lstat(swapped_out)
    if (now.st_dev, now.st_ino) == (checked.st_dev, checked.st_ino):
        return
    if not _exchange(swapped_out, target):  # pragma: no cover - it worked a moment ago
        os.replace(swapped_out, target)
    else:
        os.unlink(swapped_out)
    raise DocumentError(doc.path, "file changed on disk while the fixes were written; "
                        "the new content was kept, run again to fix it", "changed")


def _restore_if_written(doc: Document, target: str, old_fd: int, checked: os.stat_result) -> None:
    """After the rename: if the file we replaced was written to after the
    last check (an editor saving in place within that window), its content
    is the user's newest edit: put it back, and report the file as changed
    (a fix is computed again on the next run; an edit is never lost)."""
    now = os.fstat(old_fd)
    # coarse timestamps can hide a same-size write: the digest cannot
    data = _read_all(old_fd, None, now.st_size)
    if hashlib.sha256(data).hexdigest() == doc.digest:
        return
    with written_temporary(os.path.dirname(target), _temp_prefix(), (data,), suffix=_TEMP_SUFFIX) as tmp:
        os.chmod(tmp, stat_module.S_IMODE(now.st_mode))
        os.replace(tmp, target)
    raise DocumentError(doc.path, "file changed on disk while the fixes were written; "
                        "the new content was kept, run again to fix it", "changed")


def unencodable_reason(doc: Document, text: str, exc: UnicodeEncodeError) -> str:
    """Which character of ``text`` the file's encoding cannot hold, and
    where (line and column in code points, 1-based, as findings are)."""
    import unicodedata

    at = exc.start
    char = text[at]
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    name = unicodedata.name(char, "")
    shown = f"U+{ord(char):04X}" + (f" {name}" if name else "")
    declared = "" if doc.declaration is None else (
        f", the encoding declared by {doc.declaration.describe()}")
    return (f"cannot encode as {doc.encoding.upper()} at character {at} (line {line}, column {column}): "
            f"{shown} is not in {doc.encoding.upper()}{declared}")


def write_atomic(doc: Document, new_text: str) -> None:
    """Replace the file ``doc`` was read from with ``new_text``.

    The text is encoded with the document's encoding and BOM, so bytes
    outside the changed regions are the bytes that were read; a text the
    encoding cannot hold (a fix that brings a character a declared legacy
    encoding lacks) is refused, naming the character, and so is a file
    whose legacy encoding would not give its own bytes back.  The file is
    replaced atomically: either the old or the new content is on disk, never
    a mixture.  Where the system can (Linux renameat2), the new file is
    swapped in, so a save an editor renamed over the file after the last
    check is seen and put back; a save written into the file in place is
    put back too (the old file is held open).  A symlink is written through (its target is replaced and
    the link stays a link).  After a successful write ``doc`` is stale; read
    the file again before writing it another time.
    """
    if doc.stat is None:
        raise ValueError(f"{doc.path}: document was not read from a file")
    target = os.path.realpath(doc.path)
    if doc.round_trip_problem is not None:
        raise DocumentError(doc.path, doc.round_trip_problem, "encode")
    try:
        data = doc.encode(new_text)
    except UnicodeEncodeError as exc:
        raise DocumentError(doc.path, unencodable_reason(doc, new_text, exc), "encode") from None

    st = _check_unchanged(doc, target, hash_check=True)
    # Root may write anything, so os.access alone would let a fix edit a file
    # its owner marked read-only; the owner write bit is respected too.
    if not os.access(target, os.W_OK) or not (st.st_mode & stat_module.S_IWUSR):
        raise DocumentError(doc.path, "permission denied")

    directory = os.path.dirname(target)
    _remove_stale_temporaries(directory)
    try:
        with written_temporary(directory, _temp_prefix(), (data,), suffix=_TEMP_SUFFIX) as tmp:
            _swap_in(doc, tmp, target, st)
    except OSError as exc:
        raise DocumentError(doc.path, _os_reason(exc)) from exc
    _fsync_directory(directory)


def _swap_in(doc: Document, tmp: str, target: str, st: os.stat_result) -> None:
    """Put the written file ``tmp`` at ``target`` (the file ``doc`` was
    read from, whose stat was ``st``), with its mode and owner, unless the
    file changed since it was read (see write_atomic)."""
    os.chmod(tmp, stat_module.S_IMODE(st.st_mode))
    tmp_st = os.stat(tmp)
    if (tmp_st.st_uid, tmp_st.st_gid) != (st.st_uid, st.st_gid) and hasattr(os, "chown"):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            pass  # not permitted for non-root: the file becomes ours
    # Last check as close to the rename as possible, to keep the window
    # in which a concurrent save could be lost small; the file is held
    # open so that a save written into it within that window is seen
    # after the rename, and put back (see _restore_if_written).
    try:
        old_fd = os.open(target, os.O_RDONLY)
    except OSError as exc:
        raise DocumentError(doc.path, _os_reason(exc)) from None
    try:
        _check_unchanged(doc, target, hash_check=False)
        if _exchange(tmp, target):
            # ``tmp`` now names the file that was at ``target``: if it
            # is not the file we read, an editor saved by renaming a new
            # file over it after the last check; swap back (its save
            # stays where it was) and report the file as changed.
            _undo_if_replaced(doc, tmp, target, st)
            try:
                os.unlink(tmp)  # the old file (old_fd still reads it)
            except OSError:
                pass  # a leftover temporary is removed by the next write here
        else:
            os.replace(tmp, target)
        _restore_if_written(doc, target, old_fd, st)
    finally:
        os.close(old_fd)


# ---------------------------------------------------------------------------
# Diffs

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def _lines(text: str) -> List[str]:
    # Only "\n" ends a line (as for git): str.splitlines would also split on
    # U+2028, form feeds, etc. and a lone "\r" - which would make a diff of
    # a file containing them misleading.
    return _LINE.findall(text)


def unified_diff(path: PathLike, old_text: str, new_text: str, *, context: int = 3) -> str:
    """A unified diff with ``--- a/path`` / ``+++ b/path`` headers.

    Lines keep their own endings (a CRLF line shows as such); a last line
    without newline is marked as git does.  Returns ``""`` when equal.
    """
    if old_text == new_text:
        return ""
    name = os.fspath(path).replace(os.sep, "/").lstrip("/")
    out: List[str] = []
    for line in difflib.unified_diff(
        _lines(old_text), _lines(new_text), fromfile=f"a/{name}", tofile=f"b/{name}", n=context
    ):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def writes_through(path: str) -> bool:
    """Whether ``path`` names something that exists and is neither a
    regular file nor a folder (a device such as /dev/null or /dev/stdout, a
    named pipe, a socket): output is written into it as it is.  Renaming a
    temporary file over it would put a regular file in its place (run as
    root, over /dev/null itself)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat_module.S_ISREG(mode) or stat_module.S_ISDIR(mode))


def write_file_atomic(path: str, data: bytes) -> None:
    """Create or replace the file ``path`` with ``data`` atomically (a
    temporary file in the same folder, then a rename): a reader sees the
    old content or the new, never part of it.  A new file gets the usual
    permissions (the umask's), a replaced one keeps its own.  A device or
    a named pipe (:func:`writes_through`) is written into instead.  Raises
    OSError; no temporary file is left behind."""
    if writes_through(path):
        with open(path, "wb") as fh:
            fh.write(data)
        return
    target = os.path.realpath(path)
    with written_temporary(os.path.dirname(target) or ".", ".irilint-output-", (data,)) as tmp:
        _replace_keeping_mode(tmp, target)


def _replace_keeping_mode(tmp: str, target: str) -> None:
    """Rename ``tmp`` over ``target``: a new file gets the umask's
    permissions, a replaced one keeps its own."""
    try:
        mode = stat_module.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    os.chmod(tmp, mode)
    os.replace(tmp, target)


class AtomicTextOutput:
    """Text written piece by piece into a temporary file in the folder of
    ``path``, which :meth:`commit` renames over ``path``: the same file
    :func:`write_file_atomic` makes of the whole text encoded as UTF-8
    with ``surrogateescape`` (a file name read from the disk goes back as
    its bytes), or ``backslashreplace`` when the text has a surrogate that
    cannot go back, without holding the text.  A device or a named pipe
    (:func:`writes_through`) gets the same bytes copied into it at commit
    from a temporary file in the system's temporary folder.  Raises
    OSError; no temporary file is left behind once committed or discarded."""

    def __init__(self, path: str) -> None:
        #: the device or pipe written into at commit (None: a file, replaced)
        self.through: Optional[str] = path if writes_through(path) else None
        self.target = os.path.realpath(path)
        folder = None if self.through is not None else os.path.dirname(self.target) or "."
        fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=".irilint-output-")
        self.file = os.fdopen(fd, "wb")
        #: a piece had a surrogate: written with surrogatepass (which keeps
        #: it exactly), re-encoded at commit
        self.surrogates = False

    def write(self, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            data = text.encode("utf-8", "surrogatepass")
            self.surrogates = True
        self.file.write(data)

    def commit(self) -> None:
        try:
            if self.surrogates:
                self._reencode()
            self.file.flush()
            if self.through is not None:
                self.file.close()
                with open(self.tmp, "rb") as written, open(self.through, "wb") as out:
                    shutil.copyfileobj(written, out)
                self.discard()
                return
            os.fsync(self.file.fileno())
            self.file.close()
            _replace_keeping_mode(self.tmp, self.target)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        try:
            self.file.close()
        finally:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass

    def _reencode(self) -> None:
        # Line by line: the bytes of a surrogate never hold a line feed.
        self.file.flush()
        with open(self.tmp, "rb") as written:
            errors = "surrogateescape"
            for line in written:
                try:
                    line.decode("utf-8", "surrogatepass").encode("utf-8", errors)
                except UnicodeEncodeError:
                    errors = "backslashreplace"
                    break
            written.seek(0)
            folder = None if self.through is not None else os.path.dirname(self.target) or "."
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".irilint-output-")
            with os.fdopen(fd, "wb") as out:
                for line in written:
                    out.write(line.decode("utf-8", "surrogatepass").encode("utf-8", errors))
        self.file.close()
        os.unlink(self.tmp)
        self.tmp = tmp
        self.file = open(tmp, "ab")
