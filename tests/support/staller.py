"""TEST ONLY: a VTES seat that stalls, as a process of its own (``python -m tests.support.staller``).

It joins a table over TCP as a heuristic bot and plays until the table waits on it in a window of
the kind asked (``action``, ``combat`` or ``referendum``; ``any``: the first window; ``turn``: its
own turn's master phase, no window open); then it sends
no move again, while its connection still answers the protocol's duties. With ``--by-hand N`` it
also makes a harmless change by hand to its own pool every N seconds while it stalls (1 pool up,
then down), the acts a staller would make to look alive. It prints ``STALLING <kind> <unix ms>``
once it stalls, and exits with the table (0) or when stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

from engine.games.vtes.decks import load_deck
from engine.protocol.identity import new_key
from net.client import Client, Seating, Store
from net.driver import Liveness
from net.errors import VampireError
from net.local import bot_factory

_KINDS = {"action": "Action", "combat": "Combat", "referendum": "Referendum", "turn": "Turn"}


class Staller:
    """A heuristic bot that stops choosing once it is awaited in a window of ``kind``."""

    def __init__(self, inner: Any, kind: str) -> None:
        self.inner = inner
        self.deck = getattr(inner, "deck", None)
        self.kind = kind
        self.stalling = asyncio.Event()
        self.me: int | None = None

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if self.stalling.is_set():
            return None
        if self.kind == "turn":
            if view.acting == view.seat and not view.windows and view.step == "play" and view.phase == "master":
                self.stalling.set()
                print(f"STALLING Turn {int(time.time() * 1000)}", flush=True)
                return None
            return self.inner.choose(view, legal)
        top = view.windows[-1] if getattr(view, "windows", ()) else None
        holds = top is not None and (
            top.loop.holder == view.seat
            or (not top.loop.order and top.loop.holder < 0 and view.seat not in getattr(top, "done", (view.seat,)))
        )
        if holds and (self.kind == "any" or type(top).__name__ == _KINDS[self.kind]):
            self.stalling.set()
            print(f"STALLING {type(top).__name__} {int(time.time() * 1000)}", flush=True)
            return None
        return self.inner.choose(view, legal)


async def run(args: argparse.Namespace) -> int:
    host, port = args.address.rsplit(":", 1)
    holder: dict[str, Staller] = {}

    deck = load_deck(args.deck) if args.deck else None

    def make(game: str) -> Any:
        inner = bot_factory("heuristic", random.Random(args.seed), deck)(game)
        holder["bot"] = Staller(inner, args.window)
        return holder["bot"]

    client = Client(
        (host, int(port)),
        new_key(),
        name=args.name,
        store=Store.in_dir(Path(args.state)),
        seating=Seating(bot=make),
        liveness=Liveness(stall_after=1.0, abandon_after=None),
    )
    await client.start()
    delta = 1
    while not client.finished.is_set():
        await asyncio.sleep(args.by_hand or 0.5)
        bot = holder.get("bot")
        if not args.by_hand or bot is None or not bot.stalling.is_set():
            continue
        seat = client.seat
        if seat is None or seat.index is None or seat.index in seat.table.abandoned:
            continue
        try:
            await client.submit("move", {"do": "pool", "seat": seat.index, "delta": delta, "cause": "a card (by hand)"})
            print(f"BYHAND {int(time.time() * 1000)}", flush=True)
            delta = -delta
        except VampireError as err:
            print(f"BYHAND refused: {err}", flush=True)
    await client.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("address")
    parser.add_argument("--window", choices=("any", *_KINDS), default="action")
    parser.add_argument("--by-hand", type=float, default=0.0)
    parser.add_argument("--name", default="Staller")
    parser.add_argument("--state", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deck", help="the deck file it brings (default: one the game ships)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
