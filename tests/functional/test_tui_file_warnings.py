"""A secrets file others could read is made private with a warning (PROTOCOL.md 8). The command
line prints the warning on stderr; the TUI hides stderr, so the player reads it as a notification
on the screen of the table whose secrets file it is."""

from __future__ import annotations

import os

import pytest

from engine.protocol.identity import new_key
from engine.protocol.secrets import PRIVATE, SecretsFile
from engine.protocol.secrets import log as files_log
from net.client import Store
from net.session import Session
from tests.functional.test_tui_link import RecordingApp
from tests.support.net import FAST, QUICK_BACKOFF, open_host, start_bots, stop_all
from tests.support.poll import eventually
from tui.app import Start
from tui.connect import wrap_session
from tui.screens.lobby import LobbyScreen

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@posix_only
async def test_a_guests_secrets_file_others_could_read_is_told_on_screen(tmp_path):
    # A seat's secrets file from an earlier run of this guest, left readable by everyone.
    state = tmp_path / "guest"
    state.mkdir(mode=0o700)
    secrets = state / "seat.secrets"
    SecretsFile(secrets).put("rand", "earlier", b"r" * 32)
    os.chmod(secrets, 0o644)

    host = open_host(seats=3)
    await host.start("127.0.0.1", 0)
    bots = await start_bots(host, 1)
    session = Session.connect(
        ("127.0.0.1", host.port), new_key(), name="Zed", store=Store.in_dir(state), timeouts=FAST, backoff=QUICK_BACKOFF
    )
    app = RecordingApp(Start("lobby", wrap_session(session)), name="Zed")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await eventually(lambda: isinstance(app.screen, LobbyScreen), 10, "the lobby", pilot=pilot)
            await eventually(lambda: app.told("may have leaked"), 10, "the warning on screen", pilot=pilot)
            [(title, message)] = [(t, m) for t, m in app.said if "may have leaked" in m]
            assert title == "Your files"
            assert str(secrets) in message and "0644" in message
            assert secrets.stat().st_mode & 0o777 == PRIVATE
            assert app.file_warnings in files_log.handlers
        assert app.file_warnings not in files_log.handlers  # the app is gone: the CLI's stderr again
    finally:
        await session.stop()
        await stop_all(host, bots)


async def test_a_warning_from_another_thread_reaches_the_screen_too(tmp_path):
    app = RecordingApp(Start("home"), name="Zed")
    async with app.run_test(size=(80, 24)) as pilot:
        import threading

        thread = threading.Thread(target=lambda: files_log.warning("A file warning from a worker thread."))
        thread.start()
        thread.join()
        await eventually(lambda: app.told("from a worker thread"), 5, "the warning", pilot=pilot)
