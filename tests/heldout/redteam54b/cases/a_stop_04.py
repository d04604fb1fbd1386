# Forty thousand tiny code cells after the solution. Warm.
N = 40000
CASE = {"cls": "stop", "kind": "batch", "many_cells": N}
