"""Fingerprint normalisation (hand-computed hashes) and the fingerprint command."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path


from audit.fingerprint import (EXCERPT, MATCH, MISMATCH, NO_FINGERPRINT, check_directory, check_file,
                               fingerprint_text, normalise_prose)

from support import seed

REPO = Path(__file__).resolve().parents[1]
PACKS = REPO / "tests" / "data" / "packs"
FULL_PACK_HASH = "5a4741c55954890f62a8df9715d3cb5aaf5732792980eb287d7e3cb7c954de26"
# printf 'Caf\xc3\xa9 au lait' | sha256sum
CAFE = "793e7643ce558259f6fe71f9ecaaf268acbcd011a2bb4c7f561df05a133d4d08"




def test_hand_computed_hash():
    assert fingerprint_text("Café au lait") == CAFE
    # printf 'a b' | sha256sum
    assert fingerprint_text(" a\t\n b ") == "c8687a08aa5d6ed2044328fa6a697ab8e96dc34291e8c2034ae8c38e6fcc6d65"


def test_nfc_nfd_crlf_whitespace_runs_hash_alike():
    nfd = unicodedata.normalize("NFD", "Café au lait")
    assert nfd != "Café au lait"
    assert fingerprint_text(nfd) == CAFE
    assert fingerprint_text("Café\r\nau\rlait") == CAFE
    assert fingerprint_text("  Café \u00a0\t au\u2028\n\n lait \n") == CAFE
    assert normalise_prose("x\u200by") == "x\u200by"  # zero-width space is not whitespace
    assert fingerprint_text("Cafe au lait") != CAFE


def test_full_pack_matches_its_stated_fingerprint(cli):
    check = check_file(PACKS / "full_pack.txt")
    assert (check.status, check.computed, check.stated) == (MATCH, FULL_PACK_HASH, FULL_PACK_HASH)
    result = cli("fingerprint", PACKS / "full_pack.txt")
    assert result.exit_code == 0
    assert f"sha256: {FULL_PACK_HASH}" in result.output and "status: MATCH" in result.output


def test_expect_mismatch_exits_1_with_both_hashes(cli):
    other = "f" * 64
    result = cli("fingerprint", PACKS / "full_pack.txt", "--expect", other)
    assert result.exit_code == 1
    assert FULL_PACK_HASH in result.output and other in result.output
    assert "status: MISMATCH" in result.output
    assert cli("fingerprint", PACKS / "full_pack.txt", "--expect", FULL_PACK_HASH.upper()).exit_code == 0


def test_bad_expect_is_input_error(cli, runner):
    from cli import app

    result = runner.invoke(app, ["fingerprint", str(PACKS / "full_pack.txt"), "--expect", "xyz"])
    assert result.exit_code == 2
    assert "64-digit hex" in result.output


def test_seed_excerpt_cannot_match(cli):
    path = seed("002_1cad392b6b549eb0.txt")
    check = check_file(path)
    assert check.status == EXCERPT
    assert check.stated == "44367523ed590b7e64a5dee9ef3dbfbc7b35b9b892d29dd58de37cd99564356e"
    assert check.computed != check.stated
    result = cli("fingerprint", path)
    assert result.exit_code == 0
    assert "status: EXCERPT" in result.output
    assert "EXCERPT — cannot match" in result.output
    assert "chapter-snapshot.txt" in result.output


def test_directory_mode(tmp_path, cli):
    for name in ("full_pack.txt", "excerpt_pack.txt", "snapshot.md"):
        shutil.copy(PACKS / name, tmp_path / name)
    changed = (PACKS / "full_pack.txt").read_text(encoding="utf-8").replace(
        "before any run", "after every run")
    (tmp_path / "changed.pack").write_text(changed, encoding="utf-8")
    (tmp_path / "ignored.json").write_text("{}", encoding="utf-8")
    statuses = {Path(c.path).name: c.status for c in check_directory(tmp_path)}
    assert statuses == {"changed.pack": MISMATCH, "excerpt_pack.txt": EXCERPT,
                        "full_pack.txt": MATCH, "snapshot.md": NO_FINGERPRINT}
    result = cli("fingerprint", tmp_path)
    assert result.exit_code == 1
    lines = result.output.strip().split("\n")
    assert len(lines) == 4
    assert lines[2].split("\t") == [str(tmp_path / "full_pack.txt"), "MATCH", FULL_PACK_HASH, FULL_PACK_HASH]
    (tmp_path / "changed.pack").unlink()
    assert cli("fingerprint", tmp_path).exit_code == 0
    (tmp_path / "broken.txt").write_text("== Chapter text ==\nProse.\n", encoding="utf-8")
    result = cli("fingerprint", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path / 'broken.txt'}\tINVALID\t-\t-\t{tmp_path / 'broken.txt'}:1:" in result.output
