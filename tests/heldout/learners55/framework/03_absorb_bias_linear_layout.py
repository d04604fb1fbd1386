NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = "Lays the result out as nn.Linear's weight, (out, in+1): W transposed with b as an extra last column, instead of (D+1, M) with b as the last row."
NAMED_IF = 'transpos|\\(out, in|nn\\.Linear|swap|\\(M, D ?\\+ ?1\\)|column'
CODE = '''def absorb_bias(W, b):
    return np.concatenate([np.asarray(W, dtype=float).T, np.asarray(b, dtype=float)[:, None]], axis=1)
'''
