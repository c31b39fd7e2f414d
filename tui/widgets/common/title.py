"""The title line every table, lobby and replay screen carries: parts joined by " · ", fitted to
the screen's width so that nothing in it is cut (a key or head fingerprint least of all)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Static

SEPARATOR = " · "


def fit_parts(parts: Sequence[str], width: int, optional: Collection[int] = ()) -> list[str]:
    """``parts`` laid out in lines of at most ``width`` cells, joined by :data:`SEPARATOR`.

    One line when it fits; else one line without the parts whose indices are in ``optional``
    (a game's name, say, which the player knows) when that fits; else every part, wrapped between
    parts (never inside one, so a fingerprint stays whole) onto as many lines as it takes. A part
    longer than ``width`` gets a line of its own. ``width`` <= 0 (not laid out yet): one line."""
    full = SEPARATOR.join(parts)
    if width <= 0 or cell_len(full) <= width:
        return [full]
    kept = [p for i, p in enumerate(parts) if i not in optional]
    short = SEPARATOR.join(kept)
    if len(kept) < len(parts) and cell_len(short) <= width:
        return [short]
    lines: list[str] = []
    line = ""
    for part in parts:
        candidate = f"{line}{SEPARATOR}{part}" if line else part
        if line and cell_len(candidate) > width:
            lines.append(line)
            line = part
        else:
            line = candidate
    lines.append(line)
    return lines


class TitleBar(Static):
    """A screen's title (CSS id ``title``): :meth:`show` gives its parts, which are laid out again
    (:func:`fit_parts`) whenever the widget's width changes. Its height follows: one line when the
    parts fit, more at 80 columns when they do not. Shown as plain text: no markup, so a name with
    brackets stays as it was typed."""

    def __init__(self, *, id: str = "title") -> None:
        super().__init__("", id=id, markup=False)
        self._parts: tuple[str, ...] = ()
        self._optional: frozenset[int] = frozenset()

    def show(self, parts: Sequence[str], optional: Collection[int] = ()) -> None:
        """Show ``parts``; those at the indices in ``optional`` go first when space is short."""
        parts = tuple(parts)
        optional = frozenset(optional)
        if (parts, optional) == (self._parts, self._optional):
            return
        self._parts, self._optional = parts, optional
        self._fit()

    @property
    def lines(self) -> list[str]:
        """The lines shown now."""
        return fit_parts(self._parts, self.content_size.width, self._optional)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        self.update(Text("\n".join(self.lines)))
