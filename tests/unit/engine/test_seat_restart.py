"""A seat restarted from its secrets file and the log (PROTOCOL.md 8, "Secrets file"; a host's
``--resume``, a guest that comes back): it knows again every card it knew, its own private deck's
cards included, and can go on playing."""

from __future__ import annotations

from pathlib import Path

from engine.games import all_rules
from engine.local import new_local_game
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat


def test_a_vtes_seat_restarted_from_its_secrets_file_knows_its_hand_and_crypt_again(tmp_path: Path) -> None:
    local = new_local_game("vtes", ["heuristic"] * 3, secrets_dir=tmp_path, seed=7)
    for _ in range(20):  # the deal, then a few acts: hands and crypts are opened to their owners
        while local.table.gstate is None or local.table.gstate.step != "play":
            local.step()
        local.step()
    before = local.seats[0]
    assert before.known, "the seat was dealt cards it can read"
    # The same key and secrets file, a fresh process: nothing but the file and the log.
    again = Seat(before.key, before.name, dict(all_rules()), SecretsFile(tmp_path / "seat0.secrets"))
    for entry in local.host.table.entries:
        again.fold(entry)
    assert again.known == before.known
    assert again.legal_acts() == before.legal_acts()
