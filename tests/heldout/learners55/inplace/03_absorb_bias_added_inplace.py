NOTEBOOK = '03_self_attention'
CELL = 'absorb_bias'
MISTAKE = "Adds the bias in place onto W's last row (W[-1] += b) instead of appending it as a new row: wrong shape and W is modified."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|shape|D ?\+ ?1|extra row|new row|added (the bias )?(to|into|onto)"
CODE = '''def absorb_bias(W, b):
    W[-1] += b
    return W
'''
