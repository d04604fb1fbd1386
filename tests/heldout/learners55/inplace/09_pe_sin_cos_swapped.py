NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Writes the cosines into the even columns and the sines into the odd ones (and for an odd D the last column is a cosine).'
NAMED_IF = r"swap|sin[^.]{0,30}(odd|cos)|cos[^.]{0,30}even|order|even[^.]{0,30}(sin|cos)|odd[^.]{0,30}(sin|cos)"
CODE = '''def sinusoidal_positional_encoding(L, D):
    PE = np.zeros((L, D))
    angles = np.arange(L)[:, None] * 10000.0 ** (-np.arange(0, D, 2) / D)[None, :]
    PE[:, 0::2] = np.cos(angles)
    PE[:, 1::2] = np.sin(angles[:, :D // 2])
    return PE
'''
