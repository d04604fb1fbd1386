NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = 'Subtracts one maximum for the whole array (x.max() with no axis) instead of one per slice, so a row far below the global max underflows to 0/0 = nan.'
NAMED_IF = r"(one|single|global|same) (max|maximum|constant|shift)|whole array|entire array|per.(slice|row)|each (slice|row)('s)? (own )?max|max(imum)? of (the )?(whole|entire)|every slice"
CODE = '''def softmax(x, axis=-1):
    x = np.array(x, dtype=float)
    x -= x.max()
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
'''
