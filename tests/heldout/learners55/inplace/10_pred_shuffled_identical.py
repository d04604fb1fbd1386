NOTEBOOK = '10_attention_on_images'
CELL = 'predict_shuffled_output'
MISTAKE = "Predicts 'identical'; the outputs move with their pixels (shuffled the same way)."
NAMED_IF = r"equivarian|moves? with|shuffled the same|permut|reorder"
FAILS = ('test_predict_shuffled_output',)
CODE = '''# Your prediction: "identical", "shuffled the same way" or "changed completely"
prediction_shuffled_output = "identical"
'''
