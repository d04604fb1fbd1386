# Honest: plotting at the end (a heat map of mix_tokens' weights, a histogram, savefig as PNG and SVG into the work folder, plt.close).
C = "import numpy as np\nimport matplotlib.pyplot as plt\nX = np.random.default_rng(1).normal(size=(6, 4))\nS = X @ X.T\nW = softmax(S, axis=-1)\nfig, axes = plt.subplots(1, 2, figsize=(8, 3))\nim = axes[0].imshow(W, cmap='viridis')\nfig.colorbar(im, ax=axes[0])\naxes[1].hist(W.ravel(), bins=10)\nfig.tight_layout()\nfig.savefig('weights.png', dpi=60)\nfig.savefig('weights.svg')\nplt.close(fig)\n"
CASE = {"cls": "honest", "kind": "inproc", "cell_end": C}
