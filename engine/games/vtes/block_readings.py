"""Readings of sentences about block attempts: a reacting vampire that attempts to block whoever
may block the action by the usual rules (Eagle's Sight at superior: "This vampire attempts to
block the current action, ignoring the normal prey, predator or target restrictions for blocking
actions"); a locked reacting vampire that pays blood to unlock, while its Methuselah may still
block (Deep Ecology at Protean: "This vampire burns 1 blood to unlock"); an action that ends, the
blocker locked, if it is blocked (Mirror Walk at superior: "if
this action is blocked, lock the blocking minion and end the action before block resolution");
every blocker that is an ally or a younger vampire weakened (Perfect Paragon at superior: "Allies
and younger vampires get -1 intercept").

Kept apart from the patterns of :mod:`engine.games.vtes.card_effects`, which consults
:func:`read` for a sentence none of its own shapes reads; the table applies them as the reaction
is played (:func:`engine.games.vtes.plays.check_play`).
"""

from __future__ import annotations

import re
from typing import Protocol

from engine.games.vtes.card_effects import YOUNGER_OR_ALLY, Effect, EffectKind

ANY_SEAT = "ignoring the normal prey, predator or target restrictions"
"""The words that let a Methuselah not entitled to block an action block it with the reacting
vampire (rulebook, "Who May Attempt to Block": the prey and the predator, or the target, by
default); the ``whom`` of :attr:`EffectKind.ATTEMPT_BLOCK` such a sentence gives."""

_SHAPE = re.compile(
    r"this (?:reacting )?vampire attempts to block the current action, ignoring the normal prey, predator or target "
    r"restrictions for blocking actions"
)


UNLESS_BLOCKED = "as the action resolves, unless it blocked"
"""The ``whom`` of :attr:`EffectKind.LOCK` of the reacting vampire that did not block the action
(Eyes of the Wild: "Lock this Gangrel after action resolution if they did not block this action"),
applied as the action resolves (:func:`engine.games.vtes.action_success.before_resolution`)."""

_LOCK_UNLESS = re.compile(r"lock this (?:vampire|gangrel) after action resolution if they did not block this action")
_WEAKEN = re.compile(r"allies and younger vampires get -(\d+) intercept")
_UNLOCK = re.compile(r"this vampire burns (\d+) blood to unlock")
_MIRROR = re.compile(r"if this action is blocked, lock the blocking minion and end the action before block resolution")


class _Minion(Protocol):
    @property
    def capacity(self) -> int: ...

    @property
    def crypt(self) -> bool: ...


def weakened(acting: _Minion | None, blocker: _Minion) -> bool:
    """``blocker`` is an ally, or a vampire younger (of lower capacity) than the ``acting`` one."""
    return not blocker.crypt or (acting is not None and blocker.capacity < acting.capacity)


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    if _SHAPE.fullmatch(sentence):
        return (Effect(EffectKind.ATTEMPT_BLOCK, whom=ANY_SEAT),)
    if _MIRROR.fullmatch(sentence):
        return (Effect(EffectKind.END_IF_BLOCKED),)
    if m := _WEAKEN.fullmatch(sentence):
        return (Effect(EffectKind.INTERCEPT, -int(m.group(1)), whom=YOUNGER_OR_ALLY),)
    if m := _UNLOCK.fullmatch(sentence):  # read as the unlock to block: offered while a block may come
        return (Effect(EffectKind.UNLOCK, int(m.group(1)), whom="block"),)
    if _LOCK_UNLESS.fullmatch(sentence):
        return (Effect(EffectKind.LOCK, whom=UNLESS_BLOCKED),)
    return None
