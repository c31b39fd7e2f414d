"""The Textual interface (DESIGN.md, "tui/"): screens, widgets and one stylesheet.

:func:`run_session` is the hook ``net.commands.front_end`` uses for ``vampire host`` and
``vampire join``: it runs the app on the caller's asyncio loop around one network session.
"""

from __future__ import annotations

from typing import Any


async def run_session(session: Any) -> int:
    """Run the app for ``session`` (a ``net.session.Session``, not started yet): its lobby, then
    its table. Returns 0 when the table ended (or stopped on a proven cheat), 1 otherwise."""
    from tui.app import Start, VampireApp
    from tui.connect import wrap_session

    wrapped = wrap_session(session)
    app = VampireApp(Start("lobby", wrapped), name=wrapped.name)
    await app.run_async()
    table = wrapped.table
    return 0 if table.ended or table.phase == "stopped" else 1
