"""Engine protocols that tools written by others speak (Gomocup for Gomoku)."""
