"""High Card: a third game that exists only in the test suite (DESIGN.md, "Games behind one
interface").

It proves the seam between the table and the games: nothing outside this package names it, and a
fixture registers it (in-process with :func:`engine.games.register_game` and
:func:`tui.games.register_front_end`; for child processes as an installed plugin, its entry points
written by :mod:`tests.seamgame.plugin`). Its spec (the one place its facts live) in
:mod:`tests.seamgame.spec`, rules in :mod:`tests.seamgame.rules`, its bot in
:mod:`tests.seamgame.bot`, its front end (a minimal table screen) in :mod:`tests.seamgame.front`.
"""
