NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Divides by the slice sums without keepdims=True, so the sums broadcast against the last axis instead of lining up with their slices.'
NAMED_IF = r"keepdims|broadcast|line up|(sum|sums|normali[sz]\w*|divid\w*) (along|over|by) (the )?wrong|wrong axis|columns? instead of (the )?rows|rows? instead of (the )?columns"
CODE = '''def softmax(x, axis=-1):
    e = np.array(x, dtype=float)
    e -= e.max(axis=axis, keepdims=True)
    np.exp(e, out=e)
    e /= e.sum(axis=axis)
    return e
'''
