"""Carcassonne 1.71: a relay of moves between clients carrying the rules, with a referee."""
