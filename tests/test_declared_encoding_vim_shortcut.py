"""A Vim modeline is looked for only in a file that holds "fenc=" or
"fileencoding=": the answer equals reading the first and last lines of
every file, as Vim does."""
from __future__ import annotations

from typing import List, Optional, Tuple

from hypothesis import example, given, settings
from hypothesis import strategies as st

from irilint import declared_encoding as de


def _reference_vim(data: bytes) -> Optional[de.Declaration]:
    head = de._head_lines(data, de._VIM_MODELINES)
    lines: List[Tuple[int, bytes]] = list(enumerate(head, 1))
    if len(head) == de._VIM_MODELINES:
        tail = de._tail_lines(data, de._VIM_MODELINES)
        total = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        first_number = total - len(tail) + 1
        lines.extend((first_number + i, line) for i, line in enumerate(tail)
                     if first_number + i > de._VIM_MODELINES)
    found = None
    for number, line in lines:
        value = de._vim_in(line)
        if value is not None:
            found = de.Declaration(value.decode("ascii", "backslashreplace"), number, de._shown(line), "vim")
    return found


_PIECES = st.sampled_from([
    b"text", b" ", b"\t", b"\n", b"\r\n", b"vi:", b"vim:", b"Vim600:", b" ex:", b"se ", b"set ",
    b"fenc=latin1", b"fileencoding=utf-8", b"enc=x", b"encoding=y", b":", b"\\:", b"# ", b"ts=4",
    b"fen", b"c=", b"FENC=koi8-r",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=40).map(b"".join))
@example(b"# vim: set fenc=latin1 :\n")
@example(b"a\nb\nc\nd\ne\nf\ng\n# vi: fileencoding=cp1252\n")
@example(b"# vim: set ts=4 :\n")
def test_vim_modeline_shortcut_equals_reading_every_line(data):
    assert de._vim(data) == _reference_vim(data)
