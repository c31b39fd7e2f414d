"""A game under a ping flood of strangers (docs/protocol.md 7.1, "The budget of strangers").

Four heuristic bots (in this process, with the host) play a one-round Vampire Queen game over
loopback, quiet or while a separate process holds ``--guests`` verified guest connections, each
pinging at its own byte budget (8 KiB a second) with a real head (from the welcome) and a fresh
random seen signature, the issue's costliest ping: before, each cost the host two signature checks
and a pong listing every connected player. Quiet and flooded games are interleaved, ``--runs`` of
each, so the machine's load falls on both alike. For each game: wall seconds from the first
bot's hello to `end` (None: not over within ``--within`` seconds), and this process's CPU
seconds meanwhile (host and bots).

Run: ``python -m bench.strangers [--runs 3] [--guests 100] [--within 120]``; prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import time
from typing import Any

GUEST_RATE = 8 * 1024
"""The guest byte budget a second the flood offers, per connection."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _game(guests: int, within: float) -> dict[str, Any]:
    from engine.games import all_rules
    from engine.games.base import parse_options
    from engine.protocol.identity import new_key
    from engine.seat import now_ms
    from engine.sequencer import Sequencer
    from net.events import Backoff, Timeouts
    from net.host import Host
    from net.local import bot_client

    games = all_rules()
    sequencer = Sequencer(new_key(), games, None, now_ms)
    options = dict(parse_options(games["queen"].option_schema, {"rounds": 1}))
    sequencer.open_table("queen", options, 4, "bench")
    timeouts = Timeouts(hello=5.0, idle=30.0, body=5.0, write=30.0, ping=1.0, connect=5.0)
    host = Host(sequencer, timeouts=timeouts)
    await host.start("127.0.0.1", 0)
    attack = None
    if guests:
        attack = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.strangers",
            "--attack",
            str(host.port),
            "--guests",
            str(guests),
            stdout=asyncio.subprocess.PIPE,
        )
        assert attack.stdout is not None
        await asyncio.wait_for(attack.stdout.readline(), 120)  # "ready": every guest welcomed
        await asyncio.sleep(2.0)  # the flood under way
    started, cpu = time.monotonic(), _cpu()
    bots = []
    for i in range(4):
        bot = bot_client(
            ("127.0.0.1", host.port),
            "heuristic",
            name=f"Bot{i}",
            rng=random.Random(i),
            timeouts=timeouts,
            backoff=Backoff(first=0.05, most=0.5),
        )
        bots.append(bot)
        await bot.start()
    t = host.table
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not t.ended and loop.time() < deadline:
        await asyncio.sleep(0.05)
    played = time.monotonic() - started if t.ended else None
    result = {"guests": guests, "seconds": played, "cpu_s": round(_cpu() - cpu, 2), "entries": t.seq}
    if attack is not None:
        if attack.returncode is None:
            attack.terminate()
        await attack.wait()
    await asyncio.gather(*(b.stop() for b in bots), return_exceptions=True)
    await host.close()
    return result


async def _attack(port: int, guests: int) -> None:
    """The flood: ``guests`` verified guests, each pinging at its byte budget, reading all."""
    from engine.protocol.identity import new_key
    from net.framing import HEADER, frame_bytes, parse_frame_body
    from net.messages import Challenge, Ping, parse_message, sign_hello

    async def recv(reader: asyncio.StreamReader) -> dict[str, Any]:
        n = int.from_bytes(await reader.readexactly(HEADER), "big")
        return parse_frame_body(await reader.readexactly(n))

    async def one() -> tuple[asyncio.StreamReader, asyncio.StreamWriter, list[Any], bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        challenge = parse_message(await recv(reader))
        assert isinstance(challenge, Challenge)
        writer.write(frame_bytes(sign_hello(new_key(), challenge, table=None, last=None, role="player").to_map()))
        welcome = await recv(reader)
        return reader, writer, welcome["head"], challenge.table

    opened = [await one() for _ in range(guests)]
    print("ready", flush=True)

    async def flood(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, wire: list[Any], table: bytes) -> None:
        async def drain() -> None:
            while await reader.read(1 << 16):
                pass

        reading = asyncio.get_running_loop().create_task(drain())
        while True:
            frames = b"".join(frame_bytes(Ping(wire, [], os.urandom(64)).to_map()) for _ in range(8))
            writer.write(frames)
            await writer.drain()
            await asyncio.sleep(len(frames) / GUEST_RATE)
        await reading

    await asyncio.gather(*(flood(*o) for o in opened), return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--guests", type=int, default=100)
    parser.add_argument("--within", type=float, default=120.0)
    parser.add_argument("--attack", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("VAMPIRE_NO_DISCOVERY", "1")
    if args.attack is not None:
        asyncio.run(_attack(args.attack, args.guests))
        return
    games = []
    for _ in range(args.runs):
        games.append(asyncio.run(_game(0, args.within)))
        games.append(asyncio.run(_game(args.guests, args.within)))
    quiet = [g["seconds"] for g in games if not g["guests"] and g["seconds"] is not None]
    flooded = [g["seconds"] for g in games if g["guests"] and g["seconds"] is not None]
    ratio = statistics.median(flooded) / statistics.median(quiet) if quiet and len(flooded) == args.runs else None
    print(json.dumps({"games": games, "ratio_median": ratio}))


if __name__ == "__main__":
    main()
