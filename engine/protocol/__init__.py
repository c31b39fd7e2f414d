"""The protocol core (shared/PROTOCOL.md): canonical codec, signed log and files, identities, the group and its proofs, deck events, Merkle deck lists, the secrets file."""
