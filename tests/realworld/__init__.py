"""A corpus of real-world-style implementations of the course's exercises (issue 12).

Written the way code found in the wild is written (float32, epsilons, einsum, torch, lazy
layers, nn.Linear subclasses, dropout) and with the bugs found there, each adapted to the
course's signatures with the thinnest wrapper. ``tests/test_realworld.py`` runs every check on
them, visible and hidden: no correct one may be rejected, no buggy one accepted, and the
messages must name the right mistake (or, rarely, none).
"""
