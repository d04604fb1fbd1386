NOTEBOOK = "01_weighted_averages"
CELL = "softmax"
MISTAKE = "Avoids overflow by clipping the logits to [-500, 500] instead of subtracting the maximum; large logits that differ are flattened to equal values, so the weights are wrong."
NAMED_IF = r"clip|max(imum)?[- ](subtract|shift)|subtract(ing)? (the|each|its)? ?(row'?s? |slice'?s? )?max|shift|overflow|stab|\binf\b|saturat"
CODE = '''def softmax(x, axis=-1):
    x = np.clip(np.asarray(x, dtype=float), -500, 500)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
'''
