"""The Textual interface (DESIGN.md, "tui/"): screens, widgets and one stylesheet.

:func:`run_session` is what ``tui.cli`` runs for ``vampire host`` and
``vampire join``: it runs the app on the caller's asyncio loop around one network session.
"""

from __future__ import annotations

from typing import Any


async def run_session(
    session: Any, host: Any = None, address: str | None = None, bots: Any = (), bots_dir: Any = None
) -> int:
    """Run the app for ``session`` (a ``net.session.Session``, not started yet): its lobby, then
    its table. ``vampire host`` also hands over its ``host`` (a ``net.host.Host`` on this loop: the
    lobby's Start key and bots), the ``address`` friends join at, the ``bots`` it started, as
    (client, level) pairs, and ``bots_dir``, where bots its lobby adds keep their files. Returns 0 when the table ended (or stopped on a proven cheat) or the
    player chose to quit, 1 otherwise."""
    from tui.app import Start, VampireApp
    from tui.connect import wrap_session

    wrapped = wrap_session(session, host=host, address=address, bots=bots, bots_dir=bots_dir)
    app = VampireApp(Start("lobby", wrapped), name=wrapped.name)
    await app.run_async()
    from tui.farewell import rejoin_line

    if (line := rejoin_line(wrapped)) is not None:  # the command prints the log's path itself
        print(line, flush=True)
    table = wrapped.table
    return 0 if table.ended or table.phase == "stopped" or app.quit_chosen else 1
