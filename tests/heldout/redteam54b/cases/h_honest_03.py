# Honest: tqdm progress bars (trange, tqdm.auto, a manual bar with update) around a small numpy loop in an early cell.
C = 'import numpy as np\nfrom tqdm import trange, tqdm\nfrom tqdm.auto import tqdm as atqdm\nacc = 0.0\nfor i in trange(200, mininterval=0.01):\n    acc += float(np.exp(-i / 50))\nfor v in atqdm(np.linspace(0, 1, 100)):\n    acc += v\nbar = tqdm(total=50)\nfor _ in range(50):\n    bar.update(1)\nbar.close()\nprint(round(acc, 3))\n'
CASE = {"cls": "honest", "kind": "inproc", "cell": C}
