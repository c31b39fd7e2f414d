"""The ``vampire`` console script and the composition root of every command (DESIGN.md, "The
command line")."""

from engine.cli import main

__all__ = ["main"]
