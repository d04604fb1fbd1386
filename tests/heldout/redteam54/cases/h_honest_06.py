# Honest: a plotting cell (subplots, imshow, colorbar, savefig to the work folder).
CASE = {"cls": "honest", "kind": "inproc", "cell": "import matplotlib.pyplot as plt\nfig, ax = plt.subplots(1, 2, figsize=(6, 3))\nim = ax[0].imshow(np.random.default_rng(0).random((8, 8)))\nfig.colorbar(im, ax=ax[0])\nax[1].plot(np.linspace(0, 1, 50) ** 2)\nfig.savefig('attention.png')\nplt.show()\n"}
