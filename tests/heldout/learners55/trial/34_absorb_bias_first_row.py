NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'Puts b as the first row instead of the last.'
NAMED_IF = 'first|last|top|bottom|order|row 0|above|under|below'
CODE = '''def absorb_bias(W, b):
    return np.vstack([b, W])
'''
