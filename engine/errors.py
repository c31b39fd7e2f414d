"""The project's own error types: every error a user can cause (bad input, a bad file, a peer that
cheats) is one of these, with a message that is a sentence the CLI and TUI show as it is."""


class VampireError(Exception):
    """Base of every error the user can cause; ``str(err)`` is a readable sentence."""


class IdentityError(VampireError):
    """A profile name that cannot name a file, or a key file that cannot be used (PROTOCOL.md 8).

    Both the user's files (:mod:`engine.paths`, which checks a profile's name) and the key files
    (:mod:`engine.protocol.identity`) raise it, and neither imports the other."""
