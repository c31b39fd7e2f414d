"""The title line every table, lobby and replay screen carries: parts joined by " · ", fitted to
the screen's width so that nothing in it is cut (a key or head fingerprint least of all)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Static

SEPARATOR = " · "


def show_in_place(widget: Static, content: str | Text) -> None:
    """Show ``content`` (plain text or a rich Text) in ``widget``, laying the screen out again only
    when the widget's size may change: Textual's ``Static.update`` lays out the whole screen, which
    a line given new words of the same height (every entry's head in the title, the status line, a
    seat list) does not need. A widget whose width follows its content (``width: auto``) is laid
    out whenever its content changes; one whose height does (``height: auto``) when the height its
    content needs differs from its height (or its min/max bounds it); one of a set size, never.
    Content equal to what is shown, at the height it needs, changes nothing."""
    width = widget.content_size.width
    styles = widget.styles
    if not widget.is_mounted or width <= 0 or (styles.width is not None and styles.width.is_auto):
        if widget.content != content or not widget.is_mounted or width <= 0:
            widget.update(content)  # not laid out yet (the first layout sizes it), or its width follows
        return
    if widget.content != content:
        widget.update(content, layout=False)
    if styles.height is not None and not styles.height.is_auto:
        return  # a set height (cells, fr, %): the words never change the layout
    if widget.get_content_height(widget.content_size, widget.app.size, width) != widget.content_size.height:
        widget.refresh(layout=True)


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
        # After the layout this resize belongs to: a height asked for during it is not taken (the
        # first title, drawn before the width was known and wrapped to two rows, kept them once
        # refitted to one line: a blank row under the title at 80×24).
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        show_in_place(self, Text("\n".join(self.lines)))
