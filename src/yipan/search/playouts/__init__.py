"""Fast playouts (numba) for MCTS on the flagship games, over their integer states."""
