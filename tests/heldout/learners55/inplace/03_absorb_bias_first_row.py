NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = 'Stacks the bias above W (first row) instead of below it.'
NAMED_IF = r"first row|\btop\b|last row|(at|on) the (start|front|top)|wrong (row|position|end)|prepend|above|below"
CODE = '''def absorb_bias(W, b):
    out = np.empty((W.shape[0] + 1, W.shape[1]))
    out[1:] = W
    out[0] = b
    return out
'''
