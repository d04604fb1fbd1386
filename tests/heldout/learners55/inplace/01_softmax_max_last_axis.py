NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = "Subtracts the maximum along the last axis whatever `axis` is: for axis=0 each column's entries get different shifts, so the result is not the softmax along axis 0."
NAMED_IF = r"max(imum)?[^.]{0,60}(wrong|last|other) axis|(wrong|last|other) axis[^.]{0,40}max|shift[^.]{0,40}(wrong|different|last) axis|axis=-1|ignor\w* (the )?axis"
CODE = '''def softmax(x, axis=-1):
    x = np.array(x, dtype=float)
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''
