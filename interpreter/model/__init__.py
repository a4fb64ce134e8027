"""The compiled game: frozen data the engine runs (cards, actions, the game's parts).
Imports nothing from the language, the rules or the engine."""
