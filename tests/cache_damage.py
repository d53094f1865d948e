"""Ways a cache file gets damaged, as the fault tests plant them: cut
short, one byte flipped, or replaced by a folder."""
from __future__ import annotations

from pathlib import Path


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def corrupt(path: Path) -> None:
    """One byte near the end flipped: inside what the checksum covers."""
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x55
    path.write_bytes(bytes(data))


def replace_with_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "x").write_text("x")


#: the damages, for ``pytest.mark.parametrize("damage", DAMAGES, ids=DAMAGE_IDS)``
DAMAGES = [truncate, corrupt, replace_with_folder]
DAMAGE_IDS = ["truncated", "corrupted", "folder"]
