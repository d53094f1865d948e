"""Fixtures of the real-editor tests; the helpers are in editor_harness.py."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A project folder (with a .git marker, as a user's would have)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / ".git").mkdir()
    return root
