"""The Doppelkopf rules: pure, typed, standard library only."""
