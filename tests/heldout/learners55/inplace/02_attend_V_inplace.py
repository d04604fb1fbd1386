NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = "Multiplies the caller's V in place by the weights (V *= w[:, None]) and sums it: the values are overwritten (and integer values fail)."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|integer|dtype|cast"
CODE = '''def attend(q, K, V):
    w = attnlab.softmax(K @ q / np.sqrt(q.shape[-1]))
    V *= w[:, None]
    return V.sum(axis=0), w
'''
