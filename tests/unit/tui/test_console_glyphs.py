"""On the Linux console (``TERM=linux``, or ``--ascii``) nothing is drawn that its font lacks or
draws half-way: a scrollbar's thumb is whole cells of colour, with no eighth or half block at its
ends, and the dotted circle becomes a letter every console font has."""

from __future__ import annotations

from textual.containers import VerticalScroll

from tests.support.poll import eventually
from tui.app import Start, VampireApp
from tui.glyphs import CONSOLE_CHARS, console_text
from tui.screens.help import HelpScreen

BLOCKS = set("▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▔▕▀▐")


def _scrollbar_cells(app: VampireApp) -> list[str]:
    """The characters the help's vertical scrollbar draws, top to bottom."""
    box = app.screen.query_one("#help", VerticalScroll)
    region = box.vertical_scrollbar.region
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    return [lines[y][region.x] for y in range(region.y, region.y + region.height)]


async def _thumb_ends(console: bool) -> set[str]:
    """Every character the help's scrollbar draws, scrolled a few lines at a time to its end."""
    app = VampireApp(Start(), name="Mina", console=console)
    seen: set[str] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await eventually(lambda: isinstance(app.screen, HelpScreen), 10, "the help", pilot=pilot)
        box = app.screen.query_one("#help", VerticalScroll)
        await eventually(lambda: box.max_scroll_y > 0, 10, "a help that scrolls", pilot=pilot)
        for _ in range(40):
            seen |= set(_scrollbar_cells(app))
            if box.scroll_y >= box.max_scroll_y:
                break
            box.scroll_to(y=box.scroll_y + 3, animate=False)
            await pilot.pause()
    return seen


async def test_the_consoles_scrollbar_is_whole_cells_and_another_terminals_keeps_its_blocks() -> None:
    on_console = await _thumb_ends(console=True)
    assert not on_console & BLOCKS, sorted(on_console & BLOCKS)
    assert on_console <= CONSOLE_CHARS
    elsewhere = await _thumb_ends(console=False)
    assert elsewhere & BLOCKS  # Textual's eighth blocks, where the font has them


def test_the_dotted_circle_is_a_letter_on_the_console() -> None:
    assert console_text("◌ empty") == "o empty"
    assert all(c.isascii() for c in console_text("◌"))
