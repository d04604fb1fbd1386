NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Reduces the sum without keepdims and re-adds the axis at the end ([..., None]), which lines up with the slices only when axis is the last one.'
NAMED_IF = 'keepdims|broadcast|axis|slices? (it|they) came|line(s)? up'
CODE = '''def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis)[..., None]
'''
