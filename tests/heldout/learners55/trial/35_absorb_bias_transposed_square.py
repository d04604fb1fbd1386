NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'Appends b as a column and transposes the result; for square W the shape comes out (D+1, M) but the W block is transposed.'
NAMED_IF = 'transpos|W ?\\.T|W is|upper|first D rows|rows of W|top'
CODE = '''def absorb_bias(W, b):
    return np.hstack([W, b[:, None]]).T
'''
