"""The Vampire Queen table's widgets: the hand, the seat list, the trick, the game log."""
