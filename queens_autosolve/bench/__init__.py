"""`queens-autosolve bench`: the solver timed on puzzle files, against plain backtracking and its
peers (CP-SAT and CaDiCaL from the optional `bench` extra, and a propagation-only solver)."""
