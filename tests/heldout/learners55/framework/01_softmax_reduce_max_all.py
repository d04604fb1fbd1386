NOTEBOOK = '01_weighted_averages'
CELL = 'softmax'
MISTAKE = "Subtracts the maximum of the whole array (tf.reduce_max without an axis reduces over everything) instead of each slice's maximum, so a slice far below the global maximum underflows."
NAMED_IF = "(one|single|global|whole|entire|overall)[^.]{0,40}(max|maximum|constant|shift)|(max|maximum)[^.]{0,30}(whole|entire|all (the )?entries|array)|per[- ](slice|row)|each (slice|row)'?s? (own )?max"
CODE = '''def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=axis, keepdims=True)
'''
