"""A footer whose keys change in the same redraw as what changed them.

Textual's :class:`~textual.widgets.Footer` answers a change of the screen's keys by composing
itself anew after the next refresh (its key widgets removed, new ones mounted): the screen is
drawn at least once with the new status line and the old keys, and under load for most of a
second (a tester saw the last phase's keys listed under a line that had moved on).
:class:`KeysFooter` lays out the same key widgets, with spare ones hidden, and on a change of
keys sets their words in place, within the call that changed them: the status line and the
footer are drawn from the same moment. It composes anew only when its spares run out or the keys
are grouped (Textual's ``Binding.group``, which no table uses).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen

SPARE_KEYS = 16
"""Hidden key widgets a footer keeps for keys that come later (a game table lists up to about ten)."""


class KeysFooter(Footer):
    """A :class:`~textual.widgets.Footer` that redraws its keys in place (see the module)."""

    def compose(self) -> ComposeResult:
        yield from super().compose()
        if self._bindings_ready:
            for _ in range(SPARE_KEYS):
                spare = FooterKey("", "", "", "").data_bind(compact=Footer.compact)  # named by _keys_in_place
                spare.display = False
                yield spare

    def on_mount(self) -> None:
        # Textual's Footer hears of a change of keys at its next turn (``call_next``), after a
        # frame may have been drawn with the new status line: this footer hears at once, in the
        # call that changed them. (Textual calls Footer's own on_mount after this one.)
        self.screen.bindings_updated_signal.subscribe(self, self._keys_now, immediate=True)

    def _keys_now(self, screen: Screen[object]) -> None:
        if self._bindings_ready and self.is_attached and screen is self.screen:
            self._keys_in_place()  # else (too few key widgets) Footer's own turn composes anew

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self._bindings_ready and self.is_attached and screen is self.screen and self._keys_in_place():
            return
        super().bindings_changed(screen)

    def _shown(self) -> list[tuple[Binding, bool, str]] | None:
        """The keys the footer lists now, one per action as :meth:`Footer.compose` lists them;
        None when some are grouped (composed anew)."""
        per_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                per_action[binding.action].append((binding, enabled, tooltip))
        if any(b.group is not None for keys in per_action.values() for b, _, _ in keys):
            return None
        return [keys[0] for keys in per_action.values()]

    def _keys_in_place(self) -> bool:
        """Set the key widgets' words to the screen's keys now; False when there are too few of
        them (or the keys are grouped): the footer composes anew."""
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            return False  # the palette's key docks on the right: Textual's own compose places it
        shown = self._shown()
        widgets = list(self.query_children(FooterKey))
        if shown is None or len(widgets) < len(shown) or len(widgets) != len(self.children):
            return False
        for widget, (binding, enabled, tooltip) in zip(widgets, shown, strict=False):
            widget.key = binding.key
            widget.key_display = self.app.get_key_display(binding)
            widget.description = binding.description
            widget.action = binding.action
            widget._disabled = not enabled
            widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
            widget.display = True
            widget.refresh(layout=True)
        for widget in widgets[len(shown) :]:  # hidden, and naming no key (a query of the keys finds none)
            widget.key = widget.key_display = widget.description = widget.action = ""
            widget.display = False
        self.styles.grid_size_columns = len(shown)
        return True


__all__ = ["SPARE_KEYS", "KeysFooter"]
