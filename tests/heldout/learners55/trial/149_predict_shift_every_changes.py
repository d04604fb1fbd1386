NOTEBOOK = '11_modern_attention'
CELL = 'predict_shifted_scores'
MISTAKE = 'Predicts every score changes; RoPE scores depend only on the offset, so the matrix is unchanged.'
NAMED_IF = 'relative|offset|differen|unchanged|only on'
CODE = '''# Your prediction: "unchanged", "every score changes" or "only the diagonal is unchanged"
prediction_shifted_scores = "every score changes"
'''
FAILS = ('test_predict_shifted_scores',)
