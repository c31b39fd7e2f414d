"""What a seat brings from the command line (``--deck FILE``) is read with the kit of the table's
game: ``vampire host --game G --deck FILE`` (the host's own seat, seat 0, brings it), and
``vampire join --deck FILE``, whose game is the one the host names (tui/cli/seats.py DeckFile)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.errors import VampireError
from engine.games import find_game, register_game, unregister_game
from engine.games.spec import KitCheck
from tests.support.poll import eventually
from tui.cli import main
from tui.cli.seats import DeckFile

DECK = Path(__file__).resolve().parents[2] / "engine/games/vtes/data/atraco.txt"


class TallyKit:
    """A seat kit that reads any text file as its number of lines (a second game whose seats
    bring something, reading files a VTES table does not)."""

    noun = "tally"

    def load(self, path: str) -> Any:
        text = Path(path).read_text()
        if not text.startswith("tally"):
            raise VampireError(f"{Path(path).name} is not a tally file")
        return ("tally", len(text.splitlines()))

    def for_bot(self, rng: random.Random, taken: Sequence[Any] = ()) -> Any:
        return ("tally", 1)

    def deck_lists(self, brought: Any) -> dict[str, list[str]]:
        return {}

    def summary(self, brought: Any) -> str:
        return f"a tally of {brought[1]}"

    def check(self, path: str, options: Mapping[str, Any], exact: bool = False) -> KitCheck:
        return KitCheck(self.load(path), "tally")


@pytest.fixture
def tally_game() -> Iterator[str]:
    """High Card's rules under another name, whose seats bring a tally (a second kit game)."""
    from tests.seamgame.spec import SPEC

    spec = dataclasses.replace(SPEC, name="tally", title="Tally", kit=TallyKit)
    register_game(spec)
    yield spec.name
    unregister_game(spec.name)


def test_a_join_deck_is_read_with_the_kit_of_the_table_game(tally_game: str, tmp_path: Path) -> None:
    said: list[str] = []
    vtes = DeckFile(str(DECK), said.append)
    assert vtes("vtes") == find_game("vtes").kit().load(str(DECK))  # type: ignore[misc]
    assert said == ["You bring atraco: crypt 12, library 90."]
    tally_file = tmp_path / "mine.txt"
    tally_file.write_text("tally\none\ntwo\n")
    tally = DeckFile(str(tally_file), said.append)  # not a VTES deck: read by the game that reads it
    assert tally(tally_game) == ("tally", 3)
    # The table's game did not read it: a sentence naming the game, and no seat.
    with pytest.raises(VampireError, match=r"read as a Vampire: The Eternal Struggle deck"):
        tally("vtes")
    with pytest.raises(VampireError, match="takes no deck"):
        tally("queen")


def test_a_join_deck_no_game_reads_is_a_sentence_before_connecting(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"\x00\x01\x02 not a deck")
    with pytest.raises(VampireError):
        DeckFile(str(junk), print)


@pytest.mark.parametrize("deck", [str(DECK), "atraco"], ids=["a file", "a bundled deck's name"])
def test_vampire_host_brings_its_deck_to_seat_0(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, deck: str, at_a_terminal: None
) -> None:
    """`vampire host --game vtes --deck FILE|NAME`: the host's own seat sits at seat 0 with that
    deck (the screen is replaced by a stand-in that connects the host's session)."""
    import tui.cli.host as host_module

    seen: dict[str, Any] = {}

    async def front_end(session: Any, host: Any = None, **_: Any) -> int:
        await session.start()
        await eventually(lambda: len(host.table.seats) == 1, 30, "the host's seat")
        seen["me"] = host.table.seat_of(session.client.public)
        seen["brought"] = session.client.driver.brought
        await session.stop()
        return 0

    monkeypatch.setattr(host_module, "_front_end", front_end)
    save = tmp_path / "table.vtlog"
    monkeypatch.chdir(tmp_path)  # no file named atraco here: the bundled deck is read
    argv = ["host", "--game", "vtes", "--seats", "2", "--deck", deck, "--name", "Mina"]
    assert main([*argv, "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--save", str(save)]) == 0
    assert seen["me"] == 0
    assert seen["brought"] == find_game("vtes").kit().load(str(DECK))  # type: ignore[misc]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--game", "queen", "--deck", str(DECK)], "A Vampire Queen table takes no deck"),
        (["--game", "vtes", "--deck", "missing.txt"], "missing.txt"),
        (["--game", "vtes", "--headless", "--deck", str(DECK)], "a --headless host has no seat"),
    ],
)
def test_a_host_deck_that_cannot_be_brought_is_a_sentence_and_opens_no_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], words: str
) -> None:
    save = tmp_path / "table.vtlog"
    code = main(["host", *extra, "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--save", str(save)])
    err = capsys.readouterr().err
    assert code == 1 and words in err and "Traceback" not in err
    assert not save.exists()


def _vtes_host(seats: int = 2) -> Any:
    from engine.games import all_rules
    from engine.games.base import parse_options
    from engine.protocol.identity import new_key
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.host import Host
    from tests.support.net import FAST

    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    sequencer.open_table("vtes", dict(parse_options(games["vtes"].option_schema, {})), seats, "test table")
    return Host(sequencer, timeouts=FAST, auto_start=False)


def _person(address: tuple[str, int], deck: DeckFile) -> Any:
    from engine.games import all_rules
    from engine.protocol.identity import new_key
    from net.client import Client, Seating, Store
    from tests.support.net import FAST, QUICK_BACKOFF

    return Client(
        address,
        new_key(),
        name="Mina",
        games=all_rules(),
        store=Store.memory(),
        seating=Seating(read_brought=deck),
        timeouts=FAST,
        backoff=QUICK_BACKOFF,
    )


async def test_a_person_joining_sits_with_the_deck_its_table_game_read(tmp_path: Path) -> None:
    """`vampire join HOST --deck FILE` for a person: the seat joins with the deck its table's game
    read from the file, once the host named the game."""
    from tests.support.net import stop_all

    host = _vtes_host()
    await host.start("127.0.0.1", 0)
    person = _person(("127.0.0.1", host.port), DeckFile(str(DECK), lambda line: None))
    try:
        await person.start()
        await eventually(lambda: len(host.table.seats) == 1, 20, "the person's seat")
        assert person.driver.brought == find_game("vtes").kit().load(str(DECK))  # type: ignore[misc]
    finally:
        await stop_all(host, [person])


async def test_a_person_whose_deck_its_table_game_does_not_read_takes_no_seat_and_is_told(
    tally_game: str, tmp_path: Path
) -> None:
    from net.events import SeatRefusal, SeatRefused
    from tests.support.net import stop_all
    from tui.cli import seat_refusal_sentence

    tally_file = tmp_path / "mine.txt"
    tally_file.write_text("tally\none\n")
    host = _vtes_host()
    await host.start("127.0.0.1", 0)
    person = _person(("127.0.0.1", host.port), DeckFile(str(tally_file), lambda line: None))
    refused: list[SeatRefused] = []
    person.listeners.subscribe(lambda e: refused.append(e) if isinstance(e, SeatRefused) else None)
    try:
        await person.start()
        await eventually(lambda: bool(refused), 20, "the refusal")
        assert refused[0].reason is SeatRefusal.NEEDS_KIT and host.table.seats == []
        sentence = seat_refusal_sentence(refused[0])
        assert "read as a Vampire: The Eternal Struggle deck" in sentence and "--deck FILE" in sentence
    finally:
        await stop_all(host, [person])
