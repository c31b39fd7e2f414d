"""Vampire Queen's front end: its table screen and widgets, its end-of-round and end-of-game
panels, its help and how a replay draws it (``front.FRONT_END``, found by :mod:`tui.games`)."""
