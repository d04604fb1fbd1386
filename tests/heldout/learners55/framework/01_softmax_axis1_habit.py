NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Normalises along axis 1 by habit (dim=1) for any array with more than one axis, ignoring the axis argument.'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum'
CODE = '''def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    ax = 1 if x.ndim > 1 else 0
    e = np.exp(x - x.max(axis=ax, keepdims=True))
    return e / e.sum(axis=ax, keepdims=True)
'''
