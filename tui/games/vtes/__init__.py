"""The front end of Vampire: The Eternal Struggle (``front.FRONT_END``, found by :mod:`tui.games`):
the table screen (``table``), what it shows (``present``), its command line (``commands``), the
help and the end-of-game summary (the table's result as a tournament organiser enters it)."""
