"""Fault injection for the real command line, loaded by Python at start-up
when this folder is on PYTHONPATH (tests/test_faults.py puts it there).

IRILINT_FAULT_ENOSPC=GLOB
    Writes (``os.write``) to a file whose name matches GLOB get a short
    write first and then ENOSPC, as on a disk that fills up mid-file.
IRILINT_FAULT_READONLY=FOLDER
    Creating or opening for writing any file inside FOLDER fails with
    EACCES, as in a read-only folder (even for root, which chmod cannot
    stop).
IRILINT_FAULT_GROWING=GLOB
    Each ``os.fstat`` of an open file whose name matches GLOB first appends
    a byte to that file, as a log that another program keeps writing: the
    file changes between any two looks at it.

Nothing else changes: irilint itself runs unmodified.
"""
import errno
import fnmatch
import os

_enospc = os.environ.get("IRILINT_FAULT_ENOSPC")
_readonly = os.environ.get("IRILINT_FAULT_READONLY")
_growing = os.environ.get("IRILINT_FAULT_GROWING")


def _name(fd):
    try:
        return os.path.basename(os.readlink("/proc/self/fd/%d" % fd))
    except OSError:
        return ""


if _enospc:
    _real_write = os.write
    _started = set()

    def write(fd, data):
        if fnmatch.fnmatch(_name(fd), _enospc):
            if fd not in _started and len(data) > 1:
                _started.add(fd)
                return _real_write(fd, bytes(data[:len(data) // 2]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _real_write(fd, data)

    os.write = write

if _readonly:
    _real_open = os.open
    _folder = os.path.realpath(_readonly) + os.sep
    _WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def open_(path, flags, mode=0o777, *, dir_fd=None):
        full = os.path.realpath(os.fspath(path))
        if flags & _WRITE and (full + os.sep).startswith(_folder):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        if dir_fd is None:
            return _real_open(path, flags, mode)
        return _real_open(path, flags, mode, dir_fd=dir_fd)

    os.open = open_

if _growing:
    _real_fstat = os.fstat

    def fstat(fd):
        if isinstance(fd, int) and fnmatch.fnmatch(_name(fd), _growing):
            with open("/proc/self/fd/%d" % fd, "ab") as other_writer:
                other_writer.write(b"x")
        return _real_fstat(fd)

    os.fstat = fstat
