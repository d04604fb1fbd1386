NOTEBOOK = "01_weighted_averages"
CELL = "predict_huge_scores"
MISTAKE = "Predicts 1.0, as if huge scores made the softmax an argmax; only the differences (0, 1, 2) matter, the largest weight is about 0.665."
NAMED_IF = r"differen|shift|only .*gap|argmax|one-hot|1000 .*(cancel|irrelevant)|subtract|relative"
CODE = '''# Your prediction: a number between 0 and 1
prediction_huge_scores = 1.0
'''
FAILS = ("test_predict_huge_scores",)
