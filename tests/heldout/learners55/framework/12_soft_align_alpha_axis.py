NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = "Normalises E over its rows for both directions and transposes afterwards, so alpha's weights sum to one over the words of B instead of over the words of A."
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|columns?|transpos|normali[sz]'
CODE = '''def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    P = attnlab.softmax(E, axis=-1)
    beta = P @ B
    alpha = np.swapaxes(P, -1, -2) @ A
    return beta, alpha
'''
