NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = "Overwrites the last feature of X with ones in place (X[..., -1] = 1) instead of appending a new column: the shape stays (..., L, D) and the caller's X is changed."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|replac|shape|D ?\+ ?1|append|extra (column|feature)|new (column|feature)"
CODE = '''def append_ones(X):
    X[..., -1] = 1.0
    return X
'''
