"""Discord extensions: thin adapters between interactions and the engine."""
