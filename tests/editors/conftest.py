"""Fixtures of the real-editor tests; the helpers are in editor_harness.py."""
from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(config, items):
    # Every test here drives a real editor installed by .ci/run.
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.external)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A project folder (with a .git marker, as a user's would have)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / ".git").mkdir()
    return root
