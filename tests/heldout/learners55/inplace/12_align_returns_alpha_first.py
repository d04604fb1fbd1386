NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = 'Returns (alpha, beta) instead of (beta, alpha).'
NAMED_IF = r"\border|swap|beta first|alpha first|returned (the )?(pair|tuple)"
CODE = '''def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    beta = attnlab.softmax(E, axis=-1) @ B
    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
    return alpha, beta
'''
