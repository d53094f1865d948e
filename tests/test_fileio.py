"""Reading, editing and writing documents byte for byte."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irilint import fileio
from irilint.fileio import (
    DocumentError,
    TextEdit,
    apply_edits,
    decode_bytes,
    read_document,
    unified_diff,
    write_atomic,
)


def temp_files(directory: Path):
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".irilint-"))


# ---------------------------------------------------------------------------
# Round trips: read, change one word, write - every other byte is kept.

ROUND_TRIP_CASES = {
    "crlf": b"first http://a.example/\r\nsecond\r\nthird\r\n",
    "mixed endings": b"one http://a.example/\nunix\r\nwindows\rold mac\n\nno final newline",
    "utf-8 bom": b"\xef\xbb\xbfhttp://a.example/ caf\xc3\xa9\r\n",
    "utf-16-le bom": b"\xff\xfe" + "http://a.example/ é\r\n漢字\n".encode("utf-16-le"),
    "utf-16-be bom": b"\xfe\xff" + "http://a.example/ é\r\n𝔘\n".encode("utf-16-be"),
    "utf-32-le bom": b"\xff\xfe\x00\x00" + "http://a.example/ 𝔘\r\n".encode("utf-32-le"),
    "utf-32-be bom": b"\x00\x00\xfe\xff" + "http://a.example/ 𝔘\r\n".encode("utf-32-be"),
    "no trailing newline, utf-8": "http://a.example/ ü".encode("utf-8"),
}

EXPECTED_ENCODING = {
    "crlf": "utf-8",
    "mixed endings": "utf-8",
    "utf-8 bom": "utf-8",
    "utf-16-le bom": "utf-16-le",
    "utf-16-be bom": "utf-16-be",
    "utf-32-le bom": "utf-32-le",
    "utf-32-be bom": "utf-32-be",
    "no trailing newline, utf-8": "utf-8",
}


@pytest.mark.parametrize("case", sorted(ROUND_TRIP_CASES))
def test_round_trip_is_byte_exact(tmp_path, case):
    original = ROUND_TRIP_CASES[case]
    path = tmp_path / "doc.txt"
    path.write_bytes(original)
    doc = read_document(path)
    assert doc.encoding == EXPECTED_ENCODING[case]
    assert "\ufeff" not in doc.text  # the BOM is kept aside, not in the text
    # Unchanged text writes back the identical bytes.
    write_atomic(doc, doc.text)
    assert path.read_bytes() == original
    # An edit changes exactly the edited characters' bytes.
    doc = read_document(path)
    start = doc.text.index("a.example")
    new_text = apply_edits(doc.text, [TextEdit(start, start + 1, "b")])
    write_atomic(doc, new_text)
    codec = doc.encoding
    expected = original.replace("a.example".encode(codec), "b.example".encode(codec), 1)
    assert expected != original
    assert path.read_bytes() == expected


def test_crlf_is_not_translated_in_text(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(b"a\r\nb\rc\n")
    doc = read_document(path)
    assert doc.text == "a\r\nb\rc\n"
    assert doc.newline == "\n"  # one each: ties go to "\n"
    path.write_bytes(b"a\r\nb\r\nc\n")
    assert read_document(path).newline == "\r\n"
    path.write_bytes(b"a\rb\r")
    assert read_document(path).newline == "\r"


def test_utf8_bom_is_remembered(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(b"\xef\xbb\xbfx")
    doc = read_document(path)
    assert (doc.text, doc.bom, doc.encoding) == ("x", b"\xef\xbb\xbf", "utf-8")


def test_ff_fe_00_00_with_odd_length_is_utf16_not_utf32():
    # A UTF-16-LE BOM followed by U+0000 and one more character; its length
    # rules out UTF-32.
    data = b"\xff\xfe" + "\x00A".encode("utf-16-le")
    assert len(data) == 6
    doc = decode_bytes(data)
    assert doc.encoding == "utf-16-le"
    assert doc.text == "\x00A"


def test_empty_file(tmp_path):
    path = tmp_path / "empty.md"
    path.write_bytes(b"")
    doc = read_document(path)
    assert doc.text == ""
    assert doc.encoding == "utf-8"
    assert doc.stat is not None and doc.stat.size == 0


def test_undecodable_bytes_message(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9 au lait")
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.kind == "decode"
    assert str(info.value) == f"{path}: cannot decode as UTF-8 at byte 3 (invalid continuation byte)"
    assert info.value.path == str(path)


def test_undecodable_offset_counts_the_bom():
    with pytest.raises(DocumentError) as info:
        decode_bytes(b"\xef\xbb\xbfab\xff")
    assert info.value.reason == "cannot decode as UTF-8 at byte 5 (invalid start byte)"


def test_truncated_utf16_is_a_decode_error():
    with pytest.raises(DocumentError) as info:
        decode_bytes(b"\xff\xfea\x00b")
    assert info.value.kind == "decode"
    assert info.value.reason.startswith("cannot decode as UTF-16-LE at byte 4")


def test_binary_file(tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 8 + b"\x01\x00")
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.kind == "binary"
    assert str(info.value) == f"{path}: binary file (NUL byte at offset 8)"


def test_nul_after_utf8_bom_is_binary():
    with pytest.raises(DocumentError) as info:
        decode_bytes(b"\xef\xbb\xbfa\x00")
    assert info.value.kind == "binary"


def test_too_large(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 12_345_678)
    with pytest.raises(DocumentError) as info:
        read_document(path, max_size=10_000_000)
    assert info.value.kind == "too-large"
    assert str(info.value) == f"{path}: file too large (12.3 MB > 10 MB limit)"
    assert read_document(path, max_size=None).text.startswith("xxx")


def test_too_large_just_over_the_limit_shows_bytes(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(DocumentError) as info:
        read_document(path, max_size=1000)
    assert info.value.reason == "file too large (1001 bytes > 1000 bytes limit)"
    assert read_document(path, max_size=1001).text == "x" * 1001


@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "is a directory"),
    ],
)
def test_os_errors(tmp_path, make, reason):
    path = tmp_path / "target"
    make(path)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.kind == "os"
    assert str(info.value) == f"{path}: {reason}"


def test_permission_denied_on_read(tmp_path, monkeypatch):
    # Root can read anything, so simulate the failing open().
    path = tmp_path / "secret.md"
    path.write_text("x")

    def deny(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fileio.os, "open", deny)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert str(info.value) == f"{path}: permission denied"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.reason == "not a regular file"


def test_decode_bytes_for_stdin():
    doc = decode_bytes(b"http://a.example/\r\n")
    assert doc.path == "<stdin>"
    assert doc.text == "http://a.example/\r\n"
    assert doc.stat is None
    with pytest.raises(ValueError):
        write_atomic(doc, "x")


# ---------------------------------------------------------------------------
# Writing safely


@pytest.fixture
def doc_file(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"see http://a.example/\r\n")
    return path


def test_rename_failure_leaves_original_and_no_temp_file(doc_file, monkeypatch):
    doc = read_document(doc_file)

    def fail_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", fail_replace)
    # the swap that replaces the file where the system has one fails alike
    monkeypatch.setattr(fileio, "_exchange", lambda a, b: fail_replace(a, b))
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "changed")
    assert info.value.kind == "os"
    assert info.value.reason == "no space left on device (free some space and run again)"
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"
    assert temp_files(doc_file.parent) == []


def test_failure_half_way_through_the_write(doc_file, monkeypatch):
    doc = read_document(doc_file)
    real_write = os.write

    def write_half_then_fail(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(fileio, "_write_all", write_half_then_fail)
    with pytest.raises(DocumentError):
        write_atomic(doc, "a much longer replacement text\r\n" * 10)
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"
    assert temp_files(doc_file.parent) == []


def test_interrupt_half_way_through_the_write(doc_file, monkeypatch):
    # KeyboardInterrupt is not an OSError: it must still clean up and pass
    # through unchanged.
    doc = read_document(doc_file)
    real_write = os.write

    def write_half_then_interrupt(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise KeyboardInterrupt

    monkeypatch.setattr(fileio, "_write_all", write_half_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(doc, "replacement\n" * 10)
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"
    assert temp_files(doc_file.parent) == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_process_killed_mid_write_leaves_original_intact(doc_file):
    # A real kill: nothing can clean up, but the target is untouched because
    # only the hidden temporary file was being written.
    script = textwrap.dedent(
        """
        import os, signal, sys
        from irilint import fileio
        doc = fileio.read_document(sys.argv[1])
        def write_half_then_die(fd, data):
            os.write(fd, bytes(data[: len(data) // 2]))
            os.kill(os.getpid(), signal.SIGKILL)
        fileio._write_all = write_half_then_die
        fileio.write_atomic(doc, "replacement\\n" * 100)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script, str(doc_file)])
    assert proc.returncode == -9
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"
    leftovers = temp_files(doc_file.parent)
    assert len(leftovers) == 1  # hidden, so discovery never lints it
    assert (doc_file.parent / leftovers[0]).read_bytes() == b"replacement\n" * 50


def test_changed_between_read_and_write_is_refused(doc_file):
    doc = read_document(doc_file)
    doc_file.write_bytes(b"someone else's edit\n")
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "mine")
    assert info.value.kind == "changed"
    assert doc_file.read_bytes() == b"someone else's edit\n"


def test_same_size_same_mtime_change_is_caught_by_the_hash(doc_file):
    doc = read_document(doc_file)
    before = os.stat(doc_file)
    with open(doc_file, "r+b") as f:  # same inode, same size
        f.write(b"SEE")
    os.utime(doc_file, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "mine")
    assert info.value.kind == "changed"
    assert doc_file.read_bytes().startswith(b"SEE")


def test_deleted_between_read_and_write_is_refused(doc_file):
    doc = read_document(doc_file)
    doc_file.unlink()
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "mine")
    assert info.value.kind == "changed"
    assert info.value.reason == "file was deleted since it was read"
    assert not doc_file.exists()


def test_change_during_write_is_caught_before_rename(doc_file, monkeypatch):
    doc = read_document(doc_file)
    real_write_all = fileio._write_all

    def write_then_someone_saves(fd, data):
        real_write_all(fd, data)
        doc_file.write_bytes(b"concurrent save, longer than before\n")

    monkeypatch.setattr(fileio, "_write_all", write_then_someone_saves)
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "mine")
    assert info.value.kind == "changed"
    assert doc_file.read_bytes() == b"concurrent save, longer than before\n"
    assert temp_files(doc_file.parent) == []


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_symlink_is_written_through_and_stays_a_link(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "doc.md"
    target.write_bytes(b"old\n")
    link = tmp_path / "link.md"
    link.symlink_to(os.path.join("real", "doc.md"))
    doc = read_document(link)
    write_atomic(doc, "new\n")
    assert link.is_symlink()
    assert os.readlink(link) == os.path.join("real", "doc.md")
    assert target.read_bytes() == b"new\n"
    # The temporary file was made next to the target, not next to the link.
    assert temp_files(tmp_path) == [] and temp_files(real_dir) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize("mode", [0o640, 0o755, 0o600, 0o664])
def test_mode_is_preserved(doc_file, mode):
    os.chmod(doc_file, mode)
    doc = read_document(doc_file)
    write_atomic(doc, "new\n")
    assert stat.S_IMODE(os.stat(doc_file).st_mode) == mode
    assert doc_file.read_bytes() == b"new\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_read_only_file_is_refused_even_for_root(doc_file):
    os.chmod(doc_file, 0o444)
    doc = read_document(doc_file)
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "new\n")
    assert info.value.kind == "os"
    assert str(info.value) == f"{doc_file}: permission denied"
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"
    assert temp_files(doc_file.parent) == []


def test_no_write_access_is_refused(doc_file, monkeypatch):
    doc = read_document(doc_file)
    monkeypatch.setattr(fileio.os, "access", lambda path, mode: False)
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "new\n")
    assert info.value.reason == "permission denied"
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"


def test_unencodable_text_is_refused_before_touching_the_file(doc_file):
    doc = read_document(doc_file)
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "lone surrogate \ud800")
    assert info.value.kind == "encode"
    assert info.value.reason.startswith("cannot encode as UTF-8 at character 15")
    assert doc_file.read_bytes() == b"see http://a.example/\r\n"


def test_document_is_stale_after_write(doc_file):
    doc = read_document(doc_file)
    write_atomic(doc, "one\n")
    with pytest.raises(DocumentError) as info:
        write_atomic(doc, "two\n")
    assert info.value.kind == "changed"
    write_atomic(read_document(doc_file), "two\n")
    assert doc_file.read_bytes() == b"two\n"


# ---------------------------------------------------------------------------
# apply_edits


def test_apply_edits_in_any_order():
    text = "abcdef"
    edits = [TextEdit(4, 6, "XY"), TextEdit(0, 1, ""), TextEdit(2, 2, "+")]
    assert apply_edits(text, edits) == "b+cdXY"


def test_insertions_at_the_same_offset_keep_their_order():
    assert apply_edits("ab", [TextEdit(1, 1, "1"), TextEdit(1, 1, "2")]) == "a12b"


def test_adjacent_edits_are_allowed():
    assert apply_edits("abcd", [TextEdit(0, 2, "X"), TextEdit(2, 4, "Y")]) == "XY"


@pytest.mark.parametrize(
    "edits",
    [
        [TextEdit(0, 3, "x"), TextEdit(2, 4, "y")],
        [TextEdit(1, 3, "x"), TextEdit(2, 2, "y")],  # insertion inside a replacement
        [TextEdit(0, 4, ""), TextEdit(1, 2, "")],
    ],
)
def test_overlapping_edits_raise(edits):
    with pytest.raises(ValueError, match="overlapping"):
        apply_edits("abcdef", edits)


@pytest.mark.parametrize("edit", [TextEdit(-1, 0, ""), TextEdit(2, 1, ""), TextEdit(0, 7, "")])
def test_out_of_range_edits_raise(edit):
    with pytest.raises(ValueError, match="out of range"):
        apply_edits("abcdef", [edit])


def naive_apply(text, edits):
    # Reference: back to front, each edit by slicing.
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: e.start] + e.new_text + text[e.end :]
    return text


@st.composite
def text_and_edits(draw):
    text = draw(st.text(max_size=60))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12)))
    # Pairing consecutive sorted cut points gives non-overlapping spans,
    # adjacent ones included.  Two insertions at the same offset are left
    # out: their relative order is a matter of convention (covered by a
    # dedicated test), not something a reference can decide.
    edits = []
    insertion_offsets = set()
    for start, end in zip(cuts[::2], cuts[1::2]):
        if start == end:
            if start in insertion_offsets:
                continue
            insertion_offsets.add(start)
        edits.append(TextEdit(start, end, draw(st.text(max_size=5))))
    shuffled = draw(st.permutations(edits))
    return text, shuffled


@settings(max_examples=300, deadline=None)
@given(text_and_edits())
def test_apply_edits_matches_naive_reference(case):
    text, edits = case
    assert apply_edits(text, edits) == naive_apply(text, edits)


BOMS = {
    "utf-8": b"\xef\xbb\xbf",
    "utf-16-le": b"\xff\xfe",
    "utf-16-be": b"\xfe\xff",
    "utf-32-le": b"\xff\xfe\x00\x00",
    "utf-32-be": b"\x00\x00\xfe\xff",
}


@settings(max_examples=200, deadline=None)
@given(st.text(), st.sampled_from(sorted(BOMS)), st.booleans())
def test_decode_then_encode_gives_the_same_bytes(text, encoding, with_bom):
    bom = BOMS[encoding] if with_bom or encoding != "utf-8" else b""
    if encoding == "utf-16-le" and text.startswith("\x00"):
        # FF FE 00 00 is genuinely ambiguous with the UTF-32-LE mark.
        return
    if encoding == "utf-8" and "\x00" in text:
        return  # NUL without a UTF-16/32 mark means binary, by design
    data = bom + text.encode(encoding)
    doc = decode_bytes(data)
    assert (doc.text, doc.encoding, doc.bom) == (text, encoding, bom)
    assert doc.encode(doc.text) == data


# ---------------------------------------------------------------------------
# unified_diff


def test_unified_diff_headers_and_line_endings():
    old = "one\r\ntwo\r\nthree\r\n"
    new = "one\r\nTWO\r\nthree\r\n"
    diff = unified_diff("docs/a.md", old, new)
    assert diff == (
        "--- a/docs/a.md\n"
        "+++ b/docs/a.md\n"
        "@@ -1,3 +1,3 @@\n"
        " one\r\n"
        "-two\r\n"
        "+TWO\r\n"
        " three\r\n"
    )


def test_unified_diff_marks_missing_final_newline():
    diff = unified_diff("a.txt", "x\ny", "x\nz")
    assert diff.endswith("-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n")


def test_unified_diff_does_not_split_on_unicode_line_separators():
    # U+2028 and form feed are not line breaks for a diff of the file.
    diff = unified_diff("a.txt", "a\u2028b\fc\n", "a\u2028B\fc\n")
    assert "-a\u2028b\fc\n" in diff
    assert "+a\u2028B\fc\n" in diff


def test_unified_diff_of_equal_texts_is_empty():
    assert unified_diff("a", "same\n", "same\n") == ""


def _editor_saves_by_rename_after_the_last_check(monkeypatch, path, text):
    """Make an editor save ``path`` the way most do (a new file renamed over
    it) just after write_atomic's last check: the narrowest window."""
    real = fileio._check_unchanged

    def check_then_editor_saves(doc, target, hash_check):
        st = real(doc, target, hash_check=hash_check)
        if not hash_check:
            new = path.with_name(path.name + ".editor-save")
            new.write_text(text, encoding="utf-8")
            os.replace(new, path)
        return st

    monkeypatch.setattr(fileio, "_check_unchanged", check_then_editor_saves)


def test_a_save_renamed_over_the_file_just_before_the_write_is_kept(tmp_path, monkeypatch):
    path = tmp_path / "doc.txt"
    path.write_text("see http://e.org/100% done\n", encoding="utf-8")
    doc = read_document(path)
    _editor_saves_by_rename_after_the_last_check(monkeypatch, path, "the editor's newest text\n")
    with pytest.raises(DocumentError, match="changed on disk"):
        write_atomic(doc, "see http://e.org/100%25 done\n")
    assert path.read_text(encoding="utf-8") == "the editor's newest text\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.txt"]  # no temporary left


def test_without_an_exchange_a_write_still_replaces_the_file(tmp_path, monkeypatch):
    # where renameat2 cannot swap (another system or file system): a rename
    monkeypatch.setattr(fileio, "_exchange", lambda a, b: False)
    path = tmp_path / "doc.txt"
    path.write_text("see http://e.org/100% done\n", encoding="utf-8")
    write_atomic(read_document(path), "see http://e.org/100%25 done\n")
    assert path.read_text(encoding="utf-8") == "see http://e.org/100%25 done\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.txt"]


def test_the_exchange_is_used_on_linux(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.fail("this project's CI runs on Linux, where renameat2 exists")
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    assert fileio._exchange(str(a), str(b)) is True
    assert (a.read_text(), b.read_text()) == ("B", "A")
