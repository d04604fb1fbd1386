NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Returns the upper-triangular mask of generate_square_subsequent_mask style (True above the diagonal = blocked) instead of True where j <= i.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|upper|future|above the diagonal'
CODE = '''def causal_mask(Lq, Lk):
    return np.triu(np.ones((Lq, Lk), dtype=bool), k=1)
'''
