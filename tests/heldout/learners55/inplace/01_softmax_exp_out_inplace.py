NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = "Shifts and exponentiates the caller's array in place (x -= max; np.exp(x, out=x); x /= sum) and returns it: the caller's scores are destroyed, and integer scores cannot be exponentiated in place."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|integer|int input|dtype"
CODE = '''def softmax(x, axis=-1):
    x -= x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''
