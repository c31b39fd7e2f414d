"""The ``vampire`` console script: the composition root of every command (DESIGN.md, "The command
line").

One module a job: :mod:`.parser` (the argument parser and :func:`main`), :mod:`.simulate`,
:mod:`.logs` (``audit``, ``result``, ``rules``, ``deck``, ``replay``), :mod:`.play` (the home
screen and ``play``), :mod:`.host` and :mod:`.join`, :mod:`.narrate` (a client's events as lines of
text) and :mod:`.seats` (what ``play``, ``host`` and ``join`` share).

Each command imports only what it needs, when it runs: ``audit``, ``simulate``, ``result``,
``rules`` and ``replay --text`` load neither Textual nor the network layer, and auditing a log of
one game loads no other game. Errors the user can cause print as one sentence on stderr and exit 1
(a usage error exits 2, as argparse does); never a traceback.
"""

from __future__ import annotations

from tui.cli.host import run_host
from tui.cli.join import BOT_ABANDON_AFTER, CRASH_ENV, _choose_table, crash_before, run_join
from tui.cli.logs import RESULT_UNVERIFIED, rules_text
from tui.cli.narrate import LinkLines, seat_refusal_sentence
from tui.cli.parser import build_parser, main
from tui.cli.play import _farewell
from tui.cli.seats import _front_end, _may_sit, _may_sit_bringing
from tui.cli.simulate import simulate, simulate_protocol, simulated_levels

__all__ = [
    "BOT_ABANDON_AFTER",
    "CRASH_ENV",
    "RESULT_UNVERIFIED",
    "LinkLines",
    "_choose_table",
    "_farewell",
    "_front_end",
    "_may_sit",
    "_may_sit_bringing",
    "build_parser",
    "crash_before",
    "main",
    "rules_text",
    "run_host",
    "run_join",
    "seat_refusal_sentence",
    "simulate",
    "simulate_protocol",
    "simulated_levels",
]
