"""The notice every screen carries, shown instead of the screen while the terminal is too small."""

from __future__ import annotations

from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmallNotice(Static):
    """Hidden unless the app has the ``-too-small`` class (set on resize): then the stylesheet
    hides the screen's other widgets and this says how large the terminal must be. The game goes
    on meanwhile; nothing is lost."""

    def render(self) -> str:
        size = self.app.size
        return (
            f"This terminal is {size.width}×{size.height}. Vampire Table needs at least "
            f"{MIN_WIDTH}×{MIN_HEIGHT}: please make the window larger (the game goes on meanwhile)."
        )
