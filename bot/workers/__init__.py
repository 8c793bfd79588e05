"""Work away from the event loop: worker pools, move boards and their drawing process, heavy
drawings (replays, brackets, rules diagrams), reviews being made, the AI player."""
