"""A game is a plugin (DESIGN.md, "Games behind one interface"): a fourth game is its own package
and one section of its own ``pyproject.toml``, and nothing of this program changes.

The test builds such a game in a temporary folder, "Low Card" (High Card's rules under its own
name and spec): a package ``lowcard`` with its spec, rules, bot and front end, and a
``pyproject.toml`` whose only section that matters is ``[project.entry-points]``. It installs
nothing: it writes the entry points as a build backend would (``.dist-info/entry_points.txt``,
:mod:`tests.seamgame.plugin`) beside the package, and child processes find both on their
``PYTHONPATH``. ``vampire rules`` lists the game, ``vampire simulate`` plays it (in simulation
and through the signed log), and the TUI's registry finds its front end.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.seamgame.plugin import install

if TYPE_CHECKING:
    from tests.functional.conftest import Vampire

#: The fourth game's whole package: its spec (the one place its facts live), its rules (High
#: Card's, reading their facts from the spec) and a front end without a table screen.
PACKAGE = {
    "__init__.py": '"""Low Card: a fourth game, as a plugin."""\n',
    "spec.py": """
import dataclasses
import random
from typing import Any

from engine.games.spec import GameSpec, ScoreUnit


def _rules():
    from lowcard.rules import GAME

    return GAME


def _bot(level: str, rng: random.Random, brought: Any):
    from engine.bots.uniform import RandomBot

    return RandomBot(rng)


SPEC = GameSpec(
    name="lowcard",
    title="Low Card",
    min_seats=3,
    max_seats=4,
    default_seats=3,
    rules=_rules,
    bot_levels=("random",),
    default_bot="random",
    filler_bot="random",
    make_bot=_bot,
    score=ScoreUnit("mean tricks", 1, "Low Card: the most tricks wins."),
)
""",
    "rules.py": '''
from tests.seamgame import rules as high
from lowcard.spec import SPEC


class LowCard(high.HighCard):
    """High Card's rules, under Low Card's spec."""

    name = SPEC.name
    title = SPEC.title
    min_seats = SPEC.min_seats
    max_seats = SPEC.max_seats
    seat_facts = SPEC.seat_facts


GAME = LowCard()
''',
    "front.py": """
from tui.games import FrontEnd

FRONT_END = FrontEnd("lowcard", "Low Card", no_screen="Low Card has no table screen: play it with --headless.")
""",
}

#: The fourth game's pyproject.toml: its entry points are all this program reads.
PYPROJECT = """\
[project]
name = "vampire-lowcard"
version = "0.1"

[project.entry-points."vampire_table.games"]
lowcard = "lowcard.spec:SPEC"

[project.entry-points."vampire_table.frontends"]
lowcard = "lowcard.front:FRONT_END"
"""


@pytest.fixture
def fourth_game(vampire: Vampire, tmp_path: Path) -> Path:
    """Low Card built in ``tmp_path/lowcard-src`` and made findable by ``vampire``'s child processes."""
    src = tmp_path / "lowcard-src"
    (src / "lowcard").mkdir(parents=True)
    for name, text in PACKAGE.items():
        (src / "lowcard" / name).write_text(text)
    (src / "pyproject.toml").write_text(PYPROJECT)
    project = tomllib.loads(PYPROJECT)["project"]
    install(src, project["name"], project["entry-points"])
    vampire.env["PYTHONPATH"] = os.pathsep.join((str(src), vampire.env["PYTHONPATH"]))
    return src


def test_without_its_entry_points_the_program_knows_no_fourth_game(vampire):
    done = vampire.run("rules", "--game", "lowcard")
    assert done.returncode != 0 and "lowcard" in done.stderr


def test_vampire_rules_lists_the_fourth_game_beside_those_that_ship(vampire, fourth_game):
    done = vampire.run("rules")
    assert done.returncode == 0, done.stderr
    titles = [line for line in done.stdout.splitlines() if "(--game " in line]
    assert [t.split(" (--game ")[1].split(")")[0] for t in titles] == ["lowcard", "queen", "vtes"], titles
    assert "Low Card (--game lowcard): 3 to 4 seats" in done.stdout
    assert "--rule tricks=VALUE" in done.stdout  # its options, read from its rules


def test_vampire_simulate_plays_the_fourth_game_in_simulation_and_through_the_signed_log(vampire, fourth_game):
    done = vampire.run("simulate", "--game", "lowcard", "--games", "5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Low Card: 3 seats, 5 games"), done.stdout
    done = vampire.run("simulate", "--game", "lowcard", "--protocol", "--games", "1", "--seats", "4")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Low Card: 4 seats, 1 game through the signed log" in done.stdout


def test_the_tuis_registry_finds_the_fourth_games_front_end(vampire, fourth_game):
    probe = (
        "from tui.games import find_front_end, playable; "
        "front = find_front_end('lowcard'); "
        "print(front.title, '|', front.may_sit, '|', [f.name for f in playable()])"
    )
    done = vampire.run_python(probe)
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip() == "Low Card | Low Card has no table screen: play it with --headless. | ['queen', 'vtes']"
    )
