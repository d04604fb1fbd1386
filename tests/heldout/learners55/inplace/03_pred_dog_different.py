NOTEBOOK = '03_self_attention'
CELL = 'predict_dog_output'
MISTAKE = "Predicts 'different', not seeing that self-attention without positions is permutation-equivariant."
NAMED_IF = r"equivarian|permut|order|position|\bset\b|bag"
FAILS = ('test_predict_dog_output',)
CODE = '''# Your prediction: "the same", "different" or "depend on the weights"
prediction_dog_output = "different"
'''
