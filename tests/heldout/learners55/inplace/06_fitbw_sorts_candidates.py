NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'fit_bandwidth'
MISTAKE = "Sorts the caller's candidates in place (candidates.sort()) before the search: the caller's array is reordered, and on a tie the smallest width wins instead of the first candidate in the given order."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|sort|reorder|tie|first (such )?candidate|order"
CODE = '''def fit_bandwidth(x, y, candidates):
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    candidates.sort()
    keep = ~np.eye(len(x), dtype=bool)
    best, best_err = None, np.inf
    for s in candidates:
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * s ** 2)
        A = attnlab.masked_softmax(scores, keep)
        err = np.mean((y - A @ y) ** 2)
        if err < best_err:
            best, best_err = float(s), err
    return best
'''
