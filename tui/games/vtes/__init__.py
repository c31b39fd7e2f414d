"""The front end of Vampire: The Eternal Struggle (``front.FRONT_END``, found by :mod:`tui.games`).

No table screen yet: the front end says so in a sentence, and gives the help and the end-of-game
summary (the table's result as a tournament organiser enters it)."""
