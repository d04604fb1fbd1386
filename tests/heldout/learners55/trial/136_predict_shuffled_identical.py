NOTEBOOK = '10_attention_on_images'
CELL = 'predict_shuffled_output'
MISTAKE = 'Predicts the output is identical; self-attention is permutation-equivariant, so the output is shuffled the same way.'
NAMED_IF = 'equivarian|moves?|shuffled the same|permut|follows|reorder'
CODE = '''# Your prediction: "identical", "shuffled the same way" or "changed completely"
prediction_shuffled_output = "identical"
'''
FAILS = ('test_predict_shuffled_output',)
