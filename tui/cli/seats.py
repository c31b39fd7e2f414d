"""What ``play``, ``host`` and ``join`` share: who may sit at a game's table from a screen, what a
seat brings (``--deck``), the network time-outs and the screen around a session."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import VampireError
from engine.games import find_game, game_names
from engine.kits import check_file

if TYPE_CHECKING:
    from net.client import Client
    from net.events import Backoff, Timeouts
    from net.host import Host
    from net.session import Session


def _timeouts(args: argparse.Namespace) -> tuple[Timeouts, Backoff]:
    """The time-outs and back-off of the hidden test options (``--ping``, ``--backoff-max``)."""
    from net.events import Backoff, Timeouts

    t = Timeouts()
    if getattr(args, "ping", None):
        t = Timeouts(ping=args.ping, idle=max(args.ping * 6, 1.0), hello=t.hello, body=t.body, write=t.write)
    b = Backoff(most=args.backoff_max) if getattr(args, "backoff_max", None) else Backoff()
    return t, b


def _may_sit(game: str) -> str | None:
    """Why a person cannot take a seat at a ``game`` table from this screen, or None."""
    from tui.games import find_front_end

    return find_front_end(game).may_sit


def _may_sit_bringing(deck: str | None) -> Callable[[str], str | None]:
    """:func:`_may_sit`, and a refusal in a sentence when ``--deck`` was given for a game whose
    seats bring nothing (the deck would be silently left at home)."""

    def may_sit(game: str) -> str | None:
        spec = find_game(game)
        if deck and spec.kit is None:
            return f"A {spec.title} table takes no deck: every seat plays the same cards. Join again without --deck."
        return _may_sit(game)

    return may_sit


async def _front_end(
    session: Session,
    host: Host | None = None,
    address: str | None = None,
    bots: Sequence[tuple[Client, str]] = (),
    bots_dir: Path | None = None,
) -> int:
    import tui

    if host is None:
        return int(await tui.run_session(session, address=address) or 0)
    return int(await tui.run_session(session, host=host, address=address, bots=list(bots), bots_dir=bots_dir) or 0)


def _inexact_names(path: str, game: str) -> list[str]:
    """The problems ``--exact`` adds to the file at ``path`` read for ``game``: each line whose
    name is not a card's exact name (whatever a table's rules would say of the rest)."""
    plain = check_file(path, game).problems
    return [p for p in check_file(path, game, exact=True).problems if p not in plain]


class DeckFile:
    """``--deck FILE`` for a seat at a table whose game is not known yet (``vampire join``): read
    before connecting by every game whose seats bring something, so that a file none of them reads
    is a sentence before any connection; then, called with the game the host names (a
    ``net.driver.ReadBrought``), what that game's kit read. Raises VampireError with the kit's
    sentence: when no game reads the file (at construction), or when the table's game takes no
    deck or did not read it (when called). ``exact`` (``--exact``): a name read as a close match
    refuses the file."""

    def __init__(self, path: str, say: Callable[[str], None], exact: bool = False) -> None:
        self.path = path
        self.options: Callable[[], Any] | None = None
        """The table's rules (its ``options``), once the host has named them: the file is then
        checked as that table reads it (a crypt's groups under ``crypt_groups``, sizes)."""
        self.read: dict[str, Any] = {}
        self.errors: dict[str, str] = {}
        for name in game_names():
            spec = find_game(name)
            if spec.kit is None:
                continue
            kit = spec.kit()
            try:
                self.read[name] = kit.load(path)
            except VampireError as err:
                self.errors[name] = str(err)
                continue
            if exact and (inexact := _inexact_names(path, name)):
                del self.read[name]  # --exact: a name read as a close match refuses the deck
                self.errors[name] = f"{Path(path).name}: {'; '.join(inexact)}"
                continue
            what = kit.summary(self.read[name])
            say(f"You bring {what}." if len(self.read) == 1 else f"As a {spec.title} deck, you bring {what}.")
        if not self.read:
            if not self.errors:
                raise VampireError("--deck is for games whose players bring a deck; no game here has one.")
            raise VampireError("; ".join(dict.fromkeys(self.errors.values())))

    def __call__(self, game: str) -> Any:
        """What the seat brings to a table of ``game`` (its name). Raises VampireError."""
        if game in self.read:
            options = self.options() if self.options is not None else None
            kit = find_game(game).kit
            if options is not None and kit is not None:
                check = kit().check(self.path, dict(options))  # what this table's rules refuse
                if check.refused:
                    raise VampireError(f"{Path(self.path).name}: {'; '.join(check.problems)}")
            return self.read[game]
        spec = find_game(game)
        if spec.kit is None:
            raise VampireError(f"A {spec.title} table takes no deck: every seat plays the same cards.")
        raise VampireError(f"{self.errors.get(game, self.path)} (read as a {spec.title} deck)")

    def for_bot(self, game: str) -> Any:
        """What a bot at a table of ``game`` brings: the file's deck, or None for a game whose seats
        bring nothing. Raises VampireError when the game did not read the file."""
        return None if find_game(game).kit is None else self(game)
