"""The project's own error types: every error a user can cause (bad input, a bad file, a peer that
cheats) is one of these, with a message that is a sentence the CLI and TUI show as it is."""


class VampireError(Exception):
    """Base of every error the user can cause; ``str(err)`` is a readable sentence."""
