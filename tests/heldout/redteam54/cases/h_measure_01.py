# Honest: notebook 08 with a cell that measures its own tiled attention with tracemalloc and lists its folder.
C = "import tracemalloc, os\ntracemalloc.start()\n_Q = np.random.default_rng(0).normal(size=(256, 16))\n_o, _l = tiled_attention(_Q, _Q, _Q, 32)\nprint(tracemalloc.get_traced_memory())\ntracemalloc.stop()\nprint(sorted(os.listdir('.'))[:5])\n"
CASE = {"cls": "measure", "kind": "inproc", "honest": True, "assignment": "08_efficient_attention", "cell_end": C}
