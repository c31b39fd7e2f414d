"""High Card: a third game that exists only in the test suite (DESIGN.md, "Games behind one
interface").

It proves the seam between the table and the games: nothing outside this package names it, and a
fixture registers it (in-process with :func:`engine.games.register_game`, in child processes with
``VAMPIRE_GAMES=tests.seamgame.spec:SPEC``). Rules in :mod:`tests.seamgame.rules`, its bot in
:mod:`tests.seamgame.bot`, its spec in :mod:`tests.seamgame.spec`.
"""
