"""Privacy of the hidden cards (PROTOCOL.md 6.6).

A seat's view is rebuilt from the public `.vtlog` and that seat's own secrets file alone, and at
every entry it equals the view the seat had live. A seat's view holds nothing about another seat's
hidden cards but their count: its hand is its own cards, and the identities it knows are the
positions opened to it and the public ones. Another seat's secrets file opens none of its cards.
"""

from __future__ import annotations

import shutil

import pytest

from engine.games.queen import DECK, hand_size
from engine.protocol.log import read_log
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.table import Table, canonical
from tests.support.protocol import GAMES, saved_game, scratch_dir

CARDS = frozenset(DECK)


def no_randomness(n: int) -> bytes:
    raise AssertionError("a rebuilt seat drew a new secret: its secrets file was not enough")


def rebuilt_seat(played, seat: int, secrets_of: int | None = None) -> tuple[Seat, object]:
    """A fresh Seat with seat ``seat``'s key and a copy of the secrets file of ``secrets_of``
    (default: its own), that has folded nothing yet."""
    src = played.secrets[seat if secrets_of is None else secrets_of]
    copy = scratch_dir(f"rebuild-{seat}-{secrets_of}") / src.name
    shutil.copyfile(src, copy)
    return Seat(played.seat_keys[seat], played.names[seat], GAMES, SecretsFile(copy), no_randomness), copy


def public_identities(table: Table) -> set[str]:
    out: set[str] = set()
    for ev in table.events:
        out |= set(ev.public.values())
        if ev.cards is not None:
            out |= {c for c in ev.cards if c is not None}
    return out


def strings_in(value) -> set[str]:
    found: set[str] = set()

    def walk(v):
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(canonical(value))
    return found


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_rebuilt_from_the_log_and_its_secrets_file_sees_what_it_saw_live(seat):
    played = saved_game()
    entries = read_log(played.log).entries
    rebuilt, secrets = rebuilt_seat(played, seat)
    before = secrets.read_bytes()
    compared = 0
    for entry in entries:
        rebuilt.fold(entry)
        live = played.views.get(entry.seq)
        if live is None:
            continue
        view, known, known_cards = live[seat]
        assert rebuilt.view() == view, f"seat {seat}'s rebuilt view differs after entry {entry.seq}"
        assert rebuilt.known == known and rebuilt.known_cards() == known_cards
        compared += 1
    assert compared > 60
    assert rebuilt.table.digest() == played.game.host.table.digest()
    assert len(rebuilt.known) == hand_size(4) and not rebuilt.complaints
    assert secrets.read_bytes() == before, "the rebuild wrote to the secrets file"


def test_another_seats_secrets_file_opens_none_of_a_seats_cards():
    played = saved_game()
    entries = read_log(played.log).entries
    rebuilt, _ = rebuilt_seat(played, 0, secrets_of=1)
    for entry in entries:
        rebuilt.fold(entry)
    # Seat 1's seed, used as seat 0's, derives keys that open nothing: every card seat 0 was dealt
    # decodes to no card (the seat notices, and would complain, rather than guess).
    assert rebuilt.known == {}
    assert len(rebuilt.complaints) == hand_size(4)


def test_a_seat_knows_only_its_own_cards_and_public_ones_at_every_entry():
    played = saved_game()
    host = Table(GAMES)
    h = hand_size(4)
    checked = 0
    for entry in read_log(played.log).entries:
        host.apply(entry)
        live = played.views.get(entry.seq)
        if live is None or host.gstate is None:
            continue
        public = public_identities(host)
        public_positions = {(ev.number, k) for ev in host.events for k in ev.public}
        for seat, (view, known, known_cards) in enumerate(live):
            # The identities it decoded: positions dealt to it, nothing else.
            assert all(e == 0 and seat * h <= k < seat * h + h for e, k in known), (seat, sorted(known))
            # Everything else it knows is public (played cards, or every card after the seeds).
            extra = {p: c for p, c in known_cards.items() if p not in known}
            assert set(extra.values()) <= public
            if all(ev.cards is None for ev in host.events):
                assert set(extra) <= public_positions
            if view is None:
                continue
            state = view.state
            # Its hand is its own cards, and it may know each of them.
            assert {p for p, _ in view.hand} == {c.pos for c in state.hands[seat]}
            assert all(c is None or c == known_cards.get(p) for p, c in view.hand)
            # Another seat's hand: a count of positions, with only public identities.
            for other in range(4):
                if other != seat and state.hands:
                    assert all(c.ident is None or c.ident in public for c in state.hands[other])
            # Nowhere in the whole view is a card identity that is neither its own nor public.
            mine = {c for p, c in known.items()}
            leaked = (strings_in(view) & CARDS) - mine - public
            assert not leaked, f"seat {seat} sees {sorted(leaked)} after entry {entry.seq}"
        checked += 1
    assert checked > 60


def test_the_views_of_two_seats_differ_only_in_their_own_hands():
    played = saved_game()
    # Right after the deal: every seat has its 13 cards, no card is public yet.
    seq = next(
        s for s, views in sorted(played.views.items()) if views[0][0] is not None and views[0][0].state.phase == "play"
    )
    views = [v for v, _, _ in played.views[seq]]
    assert all(v.state == views[0].state for v in views), "the public state differs between seats"
    hands = [{c for _, c in v.hand} for v in views]
    assert all(len(hand) == hand_size(4) and None not in hand for hand in hands)
    assert all(not (hands[i] & hands[j]) for i in range(4) for j in range(i + 1, 4))
    # A spectator folding the same log sees the same public state and no hand at all.
    spectator = Table(GAMES)
    for entry in read_log(played.log).entries[: seq + 1]:
        spectator.apply(entry)
    view = spectator.game.view(spectator.gstate, None, {})
    assert view.state == views[0].state and view.hand == ()


@pytest.mark.parametrize("seat", range(4))
def test_the_log_and_one_seats_secrets_decode_no_card_not_opened_to_it(seat):
    """Before the round's seed reveal, the public log and one seat's secrets file (its seed, so its
    key share x) decode exactly the cards opened to it or to everyone: every other position, with
    every published share and its x removed, is no card of the deck (PROTOCOL.md 6.6)."""
    from engine.protocol import elgamal, group

    played = saved_game()
    entries = read_log(played.log).entries
    first_seed = next(e.seq for e in entries if e.kind == "seed-reveal")
    t = Table(GAMES)
    for e in entries[:first_seed]:
        t.apply(e)
    ev = t.events[0]
    seed = SecretsFile(played.secrets[seat]).get("seed", 0)
    x = elgamal.key_share(seed, t.table_id, 0, seat)
    assert group.base_mult(x) == ev.keys[seat]
    lookup = ev.public_index.lookup
    mine = {k for k, to in ev.dealt.items() if to == seat}
    decoded = set()
    for k, (c1, c2) in enumerate(ev.cur):
        shares = [d for h, d in ev.shares[k].items() if h != seat]
        with_x = elgamal.decode((c1, c2), shares, x)
        without = elgamal.decode((c1, c2), list(ev.shares[k].values()))
        if lookup.get(with_x) is not None or lookup.get(without) is not None:
            decoded.add(k)
    assert mine, "nothing was dealt to the seat"
    assert decoded == mine | set(ev.public), "the seat's secrets decode a card that was not opened to it"
