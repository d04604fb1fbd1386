NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = "Accumulates the merge into part a's arrays in place (l_a *= ea; l_a += ...; acc_a *= ...) and returns them: the caller's statistics of part a are overwritten."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    safe = np.where(np.isfinite(m), m, 0.0)
    ea = np.exp(m_a - safe)
    eb = np.exp(m_b - safe)
    l_a *= ea
    l_a += eb * l_b
    acc_a *= ea[..., None]
    acc_a += eb[..., None] * acc_b
    return m, l_a, acc_a
'''
