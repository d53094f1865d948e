"""Argument types shared by the command line's parsers (``check`` and
``report``), in a module of their own so that neither imports the other."""
from __future__ import annotations

from typing import List


def csv_list(value: str) -> List[str]:
    """``"a, b,,c"`` -> ``["a", "b", "c"]``: a comma-separated option."""
    return [v.strip() for v in value.split(",") if v.strip()]
