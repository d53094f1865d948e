"""The CLI run in-process, as the tests drive it: one helper, so that every
test captures the output the same way."""
from __future__ import annotations

import io
import sys
from typing import Optional, Sequence, Tuple, Union


def run(argv: Sequence[str], stdin: Optional[Union[str, bytes]] = None) -> Tuple[int, str, str]:
    """``irilint.cli.main(argv)`` with stdout and stderr captured, and
    ``stdin`` (text, or bytes read as UTF-8) as its standard input:
    (exit code, stdout, stderr)."""
    from irilint.cli import main  # looked up per call: a test may patch it

    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    if stdin is not None:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        code = main(list(argv))
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, out.getvalue(), err.getvalue()
