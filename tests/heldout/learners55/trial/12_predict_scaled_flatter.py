NOTEBOOK = "01_weighted_averages"
CELL = "predict_scaled_logits"
MISTAKE = "Predicts flatter; multiplying the scores by 10 multiplies every gap, so the ratios grow and the weights get sharper."
NAMED_IF = r"sharper|ratio|gap|differen|temperature|e\^"
CODE = '''# Your prediction: "sharper", "flatter" or "unchanged"
prediction_scaled_logits = "flatter"
'''
FAILS = ("test_predict_scaled_logits",)
