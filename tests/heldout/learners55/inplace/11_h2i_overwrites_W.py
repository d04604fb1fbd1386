NOTEBOOK = '11_modern_attention'
CELL = 'halves_to_interleaved_weights'
MISTAKE = "Writes the reordered columns back into the caller's W (W[:] = W[:, order]) and returns W: the checkpoint is modified in place."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''def halves_to_interleaved_weights(W, num_heads):
    D, HD = W.shape
    Dh = HD // num_heads
    per_head = np.stack([np.arange(Dh // 2), np.arange(Dh // 2, Dh)], axis=-1).reshape(-1)
    order = (np.arange(num_heads)[:, None] * Dh + per_head[None, :]).reshape(-1)
    W[:] = W[:, order]
    return W
'''
