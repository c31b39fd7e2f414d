"""The VTES table screen's keys, on an in-process table (bots and duties run between awaits):
transfer, pool ±, lock, blood on the selected card, the move menu, rulings, ash heaps, the next phase, discard,
play, combat and its strike menu, a crypt card out; keys pressed quickly are kept in order; a refused key shows
the engine's sentence and sends nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from engine.games.vtes.vocab import Phase, Zone
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_table import advance, dealt_vtes, influence_app, keys_after_a_look, said
from tui.app import Start, VampireApp
from tui.games.vtes.menus import CombatMenu
from tui.games.vtes.table import VtesTableScreen

_app = influence_app
_say = said


async def test_the_common_acts_from_keys(tmp_path: Path) -> None:
    app, session = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        screen = app.screen

        def view() -> Any:
            return session.view()

        def settled() -> bool:
            return not screen.submitting

        # t: 1 pool to the vampire of the uncontrolled region closest to its capacity.
        before = view()
        short = [c for c in before.uncontrolled(0) if c.capacity > c.counters]
        first = min(short, key=lambda c: (c.capacity - c.counters, c.pos))
        await pilot.press("t")
        await eventually(
            lambda: view().transfers == before.transfers - 1 and settled(), 10, "the transfer", pilot=pilot
        )
        after = next(c for c in view().uncontrolled(0) if c.pos == first.pos)
        assert after.counters == first.counters + 1 and view().players[0].pool == before.players[0].pool - 1
        assert session.submitted[-1] == {"do": "transfer", "kind": "pool", "card": first.as_list(), "n": 1}
        # + and -: your pool.
        pool = view().players[0].pool
        await pilot.press("plus")
        await eventually(lambda: view().players[0].pool == pool + 1 and settled(), 10, "pool +1", pilot=pilot)
        await pilot.press("minus")
        await eventually(lambda: view().players[0].pool == pool and settled(), 10, "pool -1", pilot=pilot)
        # Select your vampire on the table: k locks or unlocks it, > adds a blood.
        vampire = view().controlled(0, Zone.READY)[0]
        board = screen.query_one("#vt-board", OptionList)
        board.focus()
        board.highlighted = board.get_option_index(f"b-{vampire.pos[0]}-{vampire.pos[1]}")
        await pilot.pause()
        assert vampire.name == screen.query_one("#vt-card").border_title  # the card panel names it

        def now() -> Any:
            return next(c for c in view().cards if c.pos == vampire.pos)

        await pilot.press("k")
        await eventually(lambda: now().locked != vampire.locked and settled(), 10, "the lock", pilot=pilot)
        await pilot.press("greater_than_sign")
        await eventually(lambda: now().counters == vampire.counters + 1 and settled(), 10, "the blood", pilot=pilot)
        # v: a menu of where to move it; Enter on its first choice sends it to torpor.
        await pilot.press("v")
        await eventually(lambda: app.screen is not screen, 10, "the move menu", pilot=pilot)
        await pilot.press("enter")
        await eventually(lambda: now().zone == Zone.TORPOR and settled(), 10, "the move to torpor", pilot=pilot)
        assert session.submitted[-1] == {"do": "move", "cards": [vampire.as_list()], "to": "torpor"}
        # r: its rulings; H: the ash heaps on the table, and the key that hides them again.
        await pilot.press("r")
        assert screen.query_one("#vt-card").border_title == f"Rulings: {vampire.name}"
        await pilot.press("r", "H")
        prompts = [str(board.get_option_at_index(i).prompt) for i in range(board.option_count)]
        assert any(p.strip().startswith("ash: ") for p in prompts)
        assert "(H hides them)" in _say(app)
        # g: the Edge outside the unlock phase is refused with the engine's sentence, never sent.
        sent = len(session.submitted)
        await pilot.press("g")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert len(session.submitted) == sent
        # n: the discard phase; D discards the highlighted hand card (and the hand refills).
        await pilot.press("n")
        await eventually(lambda: view().phase == Phase.DISCARD and settled(), 10, "the discard phase", pilot=pilot)
        screen.query_one("#vt-hand").focus()
        card = view().hand[0]
        await pilot.press("D")
        await eventually(lambda: card.pos not in {c.pos for c in view().hand} and settled(), 10, "discard", pilot=pilot)
        assert session.submitted[-1] == {"do": "discard", "card": card.as_list()}
        # p names the highlighted card, a second p plays it: sent, or the engine's reason why not.
        sent = len(session.submitted)
        await pilot.press("p", "p")
        await eventually(lambda: len(session.submitted) > sent or "✗" in _say(app), 10, "the play", pilot=pilot)
        assert session.submitted[-1]["do"] == "play" or "✗" in _say(app)


async def test_calling_time_at_a_tournament_table() -> None:
    local = dealt_vtes(11, options={"ruleset": "tournament"})
    advance(local, lambda v: v.acting != 0 and v.phase == Phase.MINION)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        await pilot.press("T")
        await eventually(lambda: session.view().time_calls == (0,), 10, "the time call", pilot=pilot)
        assert session.submitted[-1] == {"do": "time"}
        await eventually(lambda: "time called by Mina" in _say(app), 10, "the call shown", pilot=pilot)
        # A second call by the same Methuselah is the engine's to refuse.
        await pilot.press("T")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert len(session.submitted) == 1


async def test_keys_pressed_quickly_are_kept_in_order_not_lost() -> None:
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        screen = app.screen
        before = session.view()
        pool = before.players[0].pool
        # Two transfers and two pool changes in one burst: each is sent once the one before it
        # has reached the table, checked against the table as it stands then.
        await pilot.press("t", "t", "plus", "plus")
        await eventually(
            lambda: len(session.submitted) == 4 and not screen.submitting, 20, "the four acts", pilot=pilot
        )
        view = session.view()
        assert [a["do"] for a in session.submitted] == ["transfer", "transfer", "pool", "pool"]
        assert view.transfers == before.transfers - 2 and view.players[0].pool == pool - 2 + 2
        # One transfer too many in the burst: the last is refused with the engine's sentence.
        left = view.transfers
        await pilot.press(*["t"] * (left + 1))
        await eventually(lambda: "✗" in _say(app), 20, "the refusal", pilot=pilot)
        await eventually(lambda: not screen.submitting, 10, "settled", pilot=pilot)
        assert session.view().transfers == 0
        assert [a["do"] for a in session.submitted[4:]] == ["transfer"] * left


async def test_combat_from_keys_and_menus() -> None:
    local = dealt_vtes(11)

    def fight(v: Any) -> bool:
        foes = [c for c in v.cards if c.controller != 0 and c.crypt and c.zone == Zone.READY and c.counters >= 2]
        return v.acting == 0 and v.phase == Phase.MINION and bool(v.controlled(0, Zone.READY)) and bool(foes)

    advance(local, fight)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        screen = app.screen
        view = session.view()
        mine = view.controlled(0, Zone.READY)[0]
        board = screen.query_one("#vt-board", OptionList)
        board.focus()
        board.highlighted = board.get_option_index(f"b-{mine.pos[0]}-{mine.pos[1]}")
        await pilot.pause()
        # f: whom the selected vampire fights (others' minions first); Enter picks the first.
        await pilot.press("f")
        await eventually(lambda: isinstance(app.screen, CombatMenu), 10, "the combat menu", pilot=pilot)
        foe = app.screen.choices[0]
        assert foe.controller != 0
        await pilot.press("enter")
        # Two ready minions: the table opens the combat and runs it step by step (P5), in the box.
        await eventually(lambda: session.view().combat is not None, 10, "the combat", pilot=pilot)
        # A claim on the foe's controller (a bot: it accepts at once).
        assert {"do": "combat", "minions": [mine.as_list(), foe.as_list()], "cause": "by hand"} in session.submitted
        assert app.screen is screen
        await eventually(lambda: "-open" in screen.query_one("#vt-combat").classes, 10, "the combat box", pilot=pilot)
        # f again: the combat under way is fought with its keys, not a second one.
        await pilot.press("f")
        await eventually(lambda: "combat is under way" in _say(app), 10, "the refusal", pilot=pilot)
        assert app.screen is screen and session.submitted[-1]["do"] == "combat"


async def test_c_moves_the_top_crypt_card_out_with_four_transfers() -> None:
    local = dealt_vtes(11)
    advance(
        local, lambda v: v.acting == 0 and v.phase == Phase.INFLUENCE and v.transfers == 4 and v.players[0].pool > 1
    )
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        region = len(session.view().uncontrolled(0))
        await pilot.press("C")
        await eventually(lambda: len(session.view().uncontrolled(0)) == region + 1, 10, "the crypt card", pilot=pilot)
        assert session.submitted[-1] == {"do": "transfer", "kind": "crypt"}
        assert session.view().transfers == 0


async def test_the_command_line_takes_keys_queued_behind_colon_and_selects_a_refused_command() -> None:
    """Keys typed right after ":" (already queued behind it) go to the command line: a "p" among
    them is text, never the play key. A command the engine refuses stays on the line to be
    mended, selected: typing a new command replaces it instead of being appended to it."""
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)  # keys at machine speed: past the key guard each time
        screen = app.screen
        cmd = screen.query_one("#vt-cmd")
        screen.action_command()
        assert screen.focused is cmd  # keys go there before any other message
        sent = len(session.submitted)
        await pilot.press("p", "o")
        assert cmd.value == "po" and len(session.submitted) == sent
        await pilot.press("escape")
        await eventually(lambda: screen.focused is not cmd, 10, "the command line left", pilot=pilot)
        cmd.value = ""
        await pilot.press("colon", *"pool 0", "enter")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert cmd.value == "pool 0" and cmd.selected_text == "pool 0"
        await pilot.press(*"next")
        assert cmd.value == "next"
        assert len(session.submitted) == sent


async def test_backspace_mends_a_refused_command_instead_of_wiping_it() -> None:
    """A refused ":dispute 99" stays on the line, selected; Backspace takes its last letter, not
    the whole line: "dispute 9" then "7" is ":dispute 97" (a tester's "dispute" was eaten so, and
    the "7" typed next sent alone)."""
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        screen = app.screen
        cmd = screen.query_one("#vt-cmd")
        await pilot.press("colon", *"dispute 99", "enter")
        await eventually(lambda: "✗" in _say(app), 10, "the refusal", pilot=pilot)
        assert cmd.value == "dispute 99" and cmd.selected_text == "dispute 99"
        await pilot.press("backspace")
        assert cmd.value == "dispute 9" and screen.focused is cmd
        await pilot.press("7")
        assert cmd.value == "dispute 97"
        await pilot.press("backspace", "backspace", *"1")  # later Backspaces as any line's
        assert cmd.value == "dispute 1"


async def test_i_shows_in_the_footer_once_a_vampire_can_be_influenced_out() -> None:
    """A newcomer finds ``i`` in the footer once a vampire of the uncontrolled region has its
    capacity in blood (the engine would take the influence), not before; ``i`` brings it in."""
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        screen = app.screen

        def footer() -> set[str]:
            return {k for k, b in screen.active_bindings.items() if b.enabled and b.binding.show}

        await eventually(lambda: "t" in footer(), 10, "the influence phase's keys", pilot=pilot)
        view = session.view()
        assert not any(c.capacity and c.counters >= c.capacity for c in view.uncontrolled(0))
        assert "i" not in footer()
        await pilot.press("i")  # pressed anyway: the engine's reason, nothing sent
        await eventually(lambda: _say(app).startswith("✗"), 10, "why not", pilot=pilot)
        assert session.submitted == []
        vampire = min(view.uncontrolled(0), key=lambda c: (c.capacity - c.counters, c.pos))
        missing = vampire.capacity - vampire.counters
        await session.submit_move({"do": "blood", "card": vampire.as_list(), "delta": missing, "cause": "test"})
        await eventually(lambda: "i" in footer(), 10, "i in the footer", pilot=pilot)
        await pilot.press("i")
        await eventually(lambda: session.submitted[-1].get("do") == "influence", 10, "the influence", pilot=pilot)
        assert session.submitted[-1]["card"] == vampire.as_list()


def _another_s_minion_in_play(view: Any) -> bool:
    return view.acting == 0 and not view.windows and any(c.controller == 1 and c.zone == Zone.READY for c in view.cards)


async def test_x_and_v_on_another_s_card_open_the_command_line_for_its_cause() -> None:
    """``x`` and ``v`` (then "ash heap") on another Methuselah's face-up card: the change names its
    cause, which a key cannot know, so the command line opens with the act and ``for `` typed;
    the cause typed and Enter make it (a claim on that Methuselah)."""
    local = dealt_vtes(11)
    advance(local, _another_s_minion_in_play, limit=60000)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
        keys_after_a_look(app)
        screen = app.screen
        theirs = next(c for c in session.view().cards if c.controller == 1 and c.zone == Zone.READY)
        board = screen.query_one("#vt-board", OptionList)
        board.focus()
        board.highlighted = board.get_option_index(f"b-{theirs.pos[0]}-{theirs.pos[1]}")
        await pilot.pause()
        cmd = screen.query_one("#vt-cmd")
        await pilot.press("x")
        await eventually(lambda: cmd.has_focus, 10, "the command line", pilot=pilot)
        assert cmd.value == f"burn {theirs.name} for ", cmd.value
        assert session.submitted == [] and "names its cause" in _say(app), _say(app)
        await pilot.press("escape")
        await eventually(lambda: not cmd.has_focus, 10, "the line left", pilot=pilot)
        board.focus()
        await pilot.press("v")
        await eventually(lambda: app.screen is not screen, 10, "the move menu", pilot=pilot)
        menu = app.screen.query_one(OptionList)
        menu.highlighted = menu.get_option_index("ash")
        await pilot.press("enter")
        await eventually(lambda: cmd.has_focus, 10, "the command line", pilot=pilot)
        assert cmd.value == f"move {theirs.name} to ash for ", cmd.value
        await pilot.press(*"Govern", "enter")
        await eventually(lambda: len(session.submitted) == 1, 10, "the move sent", pilot=pilot)
        assert session.submitted[0] == {
            "do": "move",
            "cards": [theirs.as_list()],
            "to": "ash",
            "cause": "Govern",
        }, session.submitted
