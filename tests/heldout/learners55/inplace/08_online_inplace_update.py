NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Updates the caller's l and acc in place (l *= scale; l += ...; acc *= ...) although the exercise asks for new arrays."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    safe = np.where(np.isfinite(m_new), m_new, 0.0)
    scale = np.exp(m - safe)
    p = np.exp(scores - safe[..., None])
    l *= scale
    l += p.sum(axis=-1)
    acc *= scale[..., None]
    acc += p @ V_tile
    return m_new, l, acc
'''
