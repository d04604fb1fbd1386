NOTEBOOK = "01_weighted_averages"
CELL = "predict_the_attends_to"
MISTAKE = "Predicts that 'the' attends most to itself; its own vector is short, so the dot product with 'dog' is larger."
NAMED_IF = r"itself|self|short|length|norm|magnitude|dog"
CODE = '''# Your prediction: "cat", "dog", "car" or "the"
prediction_the_attends_to = "the"
'''
FAILS = ("test_predict_the_attends_to",)
