NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Exponentiates the scores in place with no max subtraction (np.exp(s, out=s)), so a far query with a narrow kernel gives 0/0 = nan.'
NAMED_IF = r"nan|stab|overflow|underflow|max(imum)?.?subtract|0 ?/ ?0|finite|all (scores )?(hugely )?negative|shift"
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    s = (x_query[:, None] - x_keys[None, :]) ** 2
    s /= -2 * bandwidth ** 2
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s
'''
