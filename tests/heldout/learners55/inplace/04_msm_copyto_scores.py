NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = "Writes -inf into the caller's scores in place (np.copyto(scores, -inf, where=~mask)) before the softmax: the result is right but the caller's scores are overwritten."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|integer|dtype|cast"
CODE = '''def masked_softmax(scores, mask):
    np.copyto(scores, -np.inf, where=~np.broadcast_to(mask, scores.shape))
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    w = np.exp(scores - top)
    total = w.sum(axis=-1, keepdims=True)
    return w / np.where(total > 0, total, 1.0)
'''
