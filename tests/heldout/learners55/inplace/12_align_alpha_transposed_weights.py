NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = "Transposes the row-normalised weights for alpha instead of normalising the transposed scores, so alpha's weights are normalised over the wrong words."
NAMED_IF = r"axis|normali[sz]|column|transpos|over (the )?(words|tokens) of|softmax|sum to (one|1)"
CODE = '''def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    E = attnlab.softmax(E, axis=-1)
    beta = E @ B
    alpha = np.swapaxes(E, -1, -2) @ A
    return beta, alpha
'''
