# Honest: tqdm progress bars, plain and notebook flavours.
CASE = {"cls": "honest", "kind": "inproc", "cell": "from tqdm import tqdm\nfrom tqdm.auto import tqdm as atqdm\ns = 0\nfor i in tqdm(range(2000)):\n    s += i\nfor i in atqdm(range(100), desc='inner'):\n    s -= i\nprint(s)\n"}
