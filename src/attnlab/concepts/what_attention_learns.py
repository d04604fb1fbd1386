"""Concept check of notebook 12 (what attention learns): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "12_what_attention_learns"

CONCEPTS = {
    "icl": ("in-context regression as one gradient step", "1. In-context regression"),
    "induction": ("induction heads", "2. Induction heads"),
    "decomposable": ("decomposable attention", "3. Decomposable attention"),
}

QUESTIONS = [
    dict(id="q1", concept="icl",
         stem="How is an in-context regression prompt laid out for the linear self-attention layer?",
         options=[
             ("Rows [y_i, x_i], then the query row [0, x_q]", "icl_prompt: the target put first in each row ([y_i, x_i] instead of [x_i, y_i])"),
             ("The query row [x_q, 0], then rows [x_i, y_i]", "icl_prompt: the query row put first instead of last"),
             ("The query row [0, x_q], then rows [y_i, x_i]", "icl_prompt: the target put first in each row ([y_i, x_i] instead of [x_i, y_i])"),
             ("Rows [x_i, y_i], then the query row [x_q, 0]", None),
         ]),
    dict(id="q2", concept="icl",
         stem="One gradient step of size η from w = 0 on the loss (1/2N) Σ (x_i · w − y_i)²: what is w after it?",
         options=[
             ("−η Σ y_i x_i", "gd_step_prediction: the step taken up the gradient (the sign flipped)"),
             ("η Σ y_i x_i", "gd_step_prediction: no 1/N: the gradient of the summed loss"),
             ("(η/N) Σ y_i x_i", None),
             ("−(η/N) Σ y_i x_i", "gd_step_prediction: the step taken up the gradient (the sign flipped)"),
         ]),
    dict(id="q3", concept="icl",
         stem="On prompts like those it was trained on, with few examples, how does the trained layer's error compare with least squares on the same examples?",
         options=[
             ("Lower: it was trained for these prompts", "prediction_beats_least_squares: it was trained on exactly this kind of prompt"),
             ("Higher: it mimics only one gradient step", None),
             ("The same: both predictions are linear in y", "prediction_beats_least_squares: both are linear in y"),
         ]),
    dict(id="q4", concept="induction",
         stem="A token A occurred earlier in the sequence and occurs again now. Where does an induction head at the current A put its weight?",
         options=[
             ("On the earlier A itself", "induction_score: the earlier occurrence itself, not the key after it (a duplicate-token head's score)"),
             ("On the token right after the earlier A", None),
             ("On the token right after the current A", "induction_score: keys after the query counted (j > t)"),
         ]),
    dict(id="q5", concept="induction",
         stem="A control model copies by position on the one layout it was trained on. Tested with the repeat shifted, what is its loss on the repeat?",
         options=[
             ("Near zero", "prediction_control_shifted_loss: its layer 2 has a high prefix-matching score on its own layout"),
             ("About chance", "prediction_control_shifted_loss: a model that cannot copy there knows nothing, so it guesses"),
             ("Worse than chance", None),
         ]),
    dict(id="q6", concept="decomposable",
         stem="Decomposable attention aligns sentences A and B with E = A Bᵀ. How are the alignment weights of token a_i computed?",
         options=[
             ("A softmax over row i of E / √D", "soft_align: the scores scaled by √D (decomposable attention uses E = A Bᵀ unscaled)"),
             ("Row i of a softmax taken down each column of E", "soft_align: softmax over the wrong axis of E for beta (over A's tokens instead of B's)"),
             ("A softmax over row i of E", None),
         ]),
]
