NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = "Normalises the rows of E for alpha too and transposes afterwards (to fix the shape), so alpha's weights run over the words of B instead of A."
NAMED_IF = 'column|axis|normali|over (the )?words of A|transpos|sum to one'
CODE = '''def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    Wb = attnlab.softmax(E, axis=-1)
    beta = Wb @ B
    alpha = np.swapaxes(Wb, -1, -2) @ A
    return beta, alpha
'''
