"""The shared game-engine layer: the engine contract, tables, seats, clocks, queues, records."""
