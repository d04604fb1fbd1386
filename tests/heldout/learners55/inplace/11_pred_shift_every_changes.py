NOTEBOOK = '11_modern_attention'
CELL = 'predict_shifted_scores'
MISTAKE = "Predicts 'every score changes'; RoPE scores depend only on offsets, so they are unchanged."
NAMED_IF = r"offset|relative|p ?- ?p'|difference|only the angle between"
FAILS = ('test_predict_shifted_scores',)
CODE = '''# Your prediction: "unchanged", "every score changes" or "only the diagonal is unchanged"
prediction_shifted_scores = "every score changes"
'''
