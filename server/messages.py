"""What to do about each problem the command line tells on stderr.

Every error, skip and note names its path and the reason; :func:`advice`
gives the line that follows them (``irilint: hint: ...``), once per kind of
problem in a run, however many files had it.  The table of messages in the
README's troubleshooting section lists the same, and
tests/test_messages.py produces each one.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

_EXCLUDE = "leave it out with 'extend-exclude' in the configuration"

#: (pattern searched in the message, what to do), first match wins
ADVICE: List[Tuple["re.Pattern[str]", str]] = [(re.compile(p), a) for p, a in [
    (r"fixes not written: permission denied",
     "make the file writable (chmod u+w FILE), or run without --fix"),
    (r"fixes not written: file (changed on disk|was deleted) since it was read",
     "another program changed the file while irilint ran: run irilint again"),
    (r"file changed on disk while the fixes were written",
     "run irilint again to fix the new content"),
    (r"fixes not written: cannot encode",
     "fix that character by hand, or save the file as UTF-8 (and change what declares its encoding)"),
    (r"fixes not written: .*(would not give|round trip|not give its own bytes)",
     "save the file as UTF-8 (and change what declares its encoding), then run --fix again"),
    (r"no space left on device|disk quota exceeded",
     "free some space on that file system and run again; the file was left as it was"),
    (r"read-only file system",
     "run where the files can be written, or without --fix"),
    (r"fixes not written: a symbolic link leads it outside",
     "pass --follow-symlinks to write through the link, or fix the file it points to"),
    (r": (broken symbolic link|no such file or directory|no such file)$",
     "check the path (a typo, or run from another folder?), or remove the dangling link"),
    (r": permission denied$",
     "make it readable (chmod u+r, or a+rx for a folder), or " + _EXCLUDE),
    (r": symlink loop$",
     "remove the symbolic link that leads back to its own folder, or " + _EXCLUDE),
    (r"symbolic link to a path outside the checked tree",
     "pass --follow-symlinks to check what it points to, or name that path"),
    (r": not a regular file or directory$",
     "name files and folders only (not devices, sockets or pipes)"),
    (r": (is a directory|not a regular file)$",
     "name files and folders only (not devices, sockets or pipes)"),
    (r": binary file \(NUL byte",
     "nothing to do: irilint reads text files only (leave it off the command line)"),
    (r": file too large \(",
     "raise 'max-file-size' in the configuration to check it, or " + _EXCLUDE),
    (r"cannot decode as|unknown encoding|declares? (an )?encoding",
     "save the file as UTF-8, or make the encoding it declares match its bytes"),
    (r"file keeps changing while being read",
     "run irilint again once the program writing the file is done"),
    (r"internal error",
     "this is a bug in irilint: please report it with the file named above"),
    (r"^cache .*: ",
     ""),  # the cache's note says what to do itself
]]


def advice(message: str) -> Optional[str]:
    """What to do about ``message`` (the text after ``irilint: error:``,
    ``skipped`` or ``note:``), or None when the message says it itself."""
    for pattern, what in ADVICE:
        if pattern.search(message):
            return what or None
    return None


#: The hint after a configuration error (the error line names the file).
CONFIG_ADVICE = ("fix the configuration file named above ('irilint config' shows the settings and their "
                 "types), or pass --config with a working file")
