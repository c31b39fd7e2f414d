"""The real local table of the TUI (``vampire play``), with every move the screen sends recorded,
and a session factory that saves its log where a test says."""

from __future__ import annotations

from pathlib import Path

from tui.connect import LocalPlay, NetFactory
from tui.session import LocalTableSpec


class RecordingLocalPlay(LocalPlay):
    """The real local table, recording every move the screen sends."""

    def __init__(self, spec: LocalTableSpec, save: Path) -> None:
        super().__init__(spec, save=save)
        self.sent: list[dict] = []

    async def submit_move(self, act: dict) -> None:
        self.sent.append(act)
        await super().submit_move(act)


class TmpFactory(NetFactory):
    def __init__(self, save: Path) -> None:
        self.save = save
        self.made: list[RecordingLocalPlay] = []

    def local(self, spec: LocalTableSpec) -> RecordingLocalPlay:
        session = RecordingLocalPlay(spec, self.save)
        self.made.append(session)
        return session
