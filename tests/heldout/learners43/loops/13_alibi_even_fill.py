NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Fills the extra heads with the 2nd, 4th, 6th, ... slopes of the 2n list ([1::2]) instead of the 1st, 3rd, 5th.'
NAMED_IF = r"2nd, 4th|even|\[1::2\]|1st, 3rd|odd|every other|already used|repeat\w* (the )?slopes|duplicat|slice: its start at 1 where 0 belongs"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    n = 1
    while n * 2 <= H:
        n *= 2
    slopes = []
    for h in range(1, n + 1):
        slopes.append(2.0 ** (-8.0 * h / n))
    if n < H:
        extra = []
        for h in range(1, 2 * n + 1):
            if h % 2 == 0:
                extra.append(2.0 ** (-8.0 * h / (2 * n)))
        slopes += extra[:H - n]
    return np.array(slopes)
'''
