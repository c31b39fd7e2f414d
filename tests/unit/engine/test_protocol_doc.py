"""docs/protocol.md and the log say the same thing: the entry's version and the genesis test vector
of section 1.6 are what this program writes (version 2); a VTES table's genesis records the card
database it reads (krcg's version), a Vampire Queen table's none, and a log written before that
(``carddb`` nil) is still read; the `deck` move that carries a private deck's part sizes is
described (section 4.7)."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.games import all_rules
from engine.opening import open_sequencer, order_table, reopen_sequencer
from engine.protocol.identity import short_fingerprint
from engine.protocol.log import VERSION, ZERO32, LogWriter, encode_frame, read_log, sign_entry, sign_head
from engine.sequencer import Sequencer

DOC = (Path(__file__).resolve().parents[3] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"### {title}")
    end = DOC.find("\n### ", start + 4)
    return DOC[start : end if end != -1 else None]


def _vector(block: str, name: str) -> str:
    """The hex of the row ``name`` of the 1.6 vector block and its continuation lines, with ``00×32``
    written out."""
    lines = block.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(name + " "))
    parts = [lines[i][len(name) :]]
    for line in lines[i + 1 :]:
        if not line.startswith(" "):
            break
        parts.append(line)
    return "".join(p.replace("00×32", "00" * 32).replace(" ", "") for p in parts)


def test_the_entry_version_and_the_genesis_vector_in_the_document_are_what_the_code_writes() -> None:
    assert VERSION == 2
    assert "| `v` | int, exactly 2" in _section("1.2 Entries")
    block = re.search(r"```\n(payload.*?)```", _section("1.6 Test vectors"), re.S)
    assert block is not None
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    genesis = sign_entry(key, table=ZERO32, seq=0, prev=ZERO32, kind="table", body={"game": "queen"}, time_ms=0)
    head = sign_head(key, genesis.id, 0, genesis.id)
    text = block.group(1)
    assert _vector(text, "payload") == genesis.payload.hex()
    assert _vector(text, "signature") == genesis.signature.hex()
    assert _vector(text, "id") == genesis.id.hex()
    assert _vector(text, "head sig") == head.hex()
    assert encode_frame(genesis, head)[:8].hex() == _vector(text, "frame")[:16]
    assert _vector(text, "fingerprint") == short_fingerprint(genesis.author)


def _genesis_body(game: str, tmp_path: Path) -> dict:
    order = order_table(game, people=1, bots=[], seats=2 if game == "vtes" else 3)
    save = tmp_path / f"{game}.vtlog"
    sequencer = open_sequencer(order, Ed25519PrivateKey.generate(), save, lambda: 0)
    sequencer.log.close()
    return dict(read_log(save).entries[0].body)


def test_a_vtes_genesis_records_krcgs_version_and_a_queen_genesis_none(tmp_path: Path) -> None:
    assert _genesis_body("vtes", tmp_path)["carddb"] == f"krcg {version('krcg')}"
    assert _genesis_body("queen", tmp_path)["carddb"] is None
    assert "`carddb` str or nil" in _section("4.1 Entry bodies")


def test_a_vtes_log_written_without_a_card_database_version_is_still_read(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    save = tmp_path / "old.vtlog"
    games = all_rules()
    options = dict(order_table("vtes", seats=2).options)
    old = Sequencer(key, games, LogWriter(save), lambda: 0)
    old.open_table("vtes", options, 2, "an old table")  # carddb nil, as before it was set
    old.log.close()
    again = reopen_sequencer(save, key)
    again.log.close()
    assert again.table.entries[0].body["carddb"] is None and again.table.game_name == "vtes"


def test_the_document_describes_the_deck_move_that_carries_the_part_sizes() -> None:
    section = _section("4.7 Deck sizes")
    assert '{"do": "deck", "crypt": int, "library": int}' in section
    assert "4.7" in _section("4.1 Entry bodies")


def test_the_joint_draw_vector_of_section_4_8_is_what_the_table_computes():
    """docs/protocol.md 4.8: the r values enter the result's hash as separate bin 32 fields, in
    seat order; the commit, the result, the SHAKE-256 stream and the draws are the documented bytes."""
    import hashlib

    from engine.protocol import codec
    from engine.table.draws import draws_from

    block = _section("4.8 Joint draws")
    table, purpose = bytes(range(32)), "seating/1"
    rs = [bytes([0x11 * (s + 1)]) * 32 for s in range(4)]

    def row(name: str) -> str:
        # The name, then at least two spaces ("result" is not "result input").
        found = (re.fullmatch(rf"{re.escape(name)} {{2,}}(\S.*)", x) for x in block.splitlines())
        return next(m for m in found if m).group(1).strip()

    commit = codec.sha256("rand", table, purpose, 0, rs[0])
    assert codec.hash_input("rand", table, purpose, 0, rs[0]) == b"".join(
        [b"\x95\xb5vampire-table/rand/v1", b"\xc4\x20" + table, b"\xa9seating/1", b"\x00", b"\xc4\x20" + rs[0]]
    )
    assert row("commit (seat 0)") == commit.hex()
    spread = codec.hash_input("rand-result", table, purpose, *rs)
    assert len(spread) == 210 and spread[0] == 0x97 and "(210 bytes)" in block
    assert spread == b"".join(
        [
            b"\x97\xbc" + b"vampire-table/rand-result/v1",
            b"\xc4\x20" + table,
            b"\xa9" + purpose.encode(),
            *(b"\xc4\x20" + r for r in rs),
        ]
    )
    result = codec.sha256("rand-result", table, purpose, *rs)
    assert row("result") == result.hex()
    assert row("stream, first 32 bytes") == hashlib.shake_256(result).digest(32).hex()
    assert row("draws for (4, 3, 2)") == str(draws_from(result, (4, 3, 2)))
