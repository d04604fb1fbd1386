"""Concept check of notebook 01 (weighted averages): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``
naming a mistake or a prediction's wrong answer of the cards."""
NOTEBOOK = "01_weighted_averages"

CONCEPTS = {
    "average": ("attention as a weighted average", "1. Averages with weights"),
    "data-dependent": ("fixed (feedforward) vs data-dependent weights",
                       "2. Fixed weights against weights that depend on the input"),
    "softmax": ("the softmax and its max trick", "3. The softmax: from scores to weights"),
    "temperature": ("temperature", "4. Temperature: from a uniform average to an argmax"),
}

QUESTIONS = [
    dict(id="q1", concept="average",
         stem="Five value vectors are averaged with weights that are non-negative and sum to one. Where can the result lie?",
         options=[
             ("At one point: the plain mean of the five", "weighted_average: ignoring the weights (a plain mean)"),
             ("Anywhere in the smallest convex region holding the five", None),
             ("Anywhere in the smallest convex region holding the five, shrunk by 1/5", "weighted_average: dividing by N (a mean of the weighted rows)"),
             ("At five points: each vector scaled by its weight", "weighted_average: weighting the rows but not summing them"),
         ]),
    dict(id="q2", concept="data-dependent",
         stem="A feedforward layer and a parameter-free attention layer both output weighted sums of their inputs. What sets attention apart?",
         options=[
             ("It averages every token with equal weights", "weighted_average: ignoring the weights (a plain mean)"),
             ("It mixes the features of a token rather than the tokens", "mix_tokens: mixing features instead of tokens (Xᵀ X)"),
             ("Its raw dot products are used as the weights", "mix_tokens: no softmax: X Xᵀ X"),
             ("Its weights are recomputed from each input", None),
         ]),
    dict(id="q3", concept="softmax",
         stem="Scores of 1000, 999 and 998 reach a softmax in float64. What should the code do before exponentiating?",
         options=[
             ("Nothing: float64 is wide enough for these scores", "softmax: no max subtraction: exp overflows for large logits (inf / inf = NaN)"),
             ("Subtract the largest score of each row", None),
             ("Subtract the largest score of the whole batch", "softmax: subtracting the maximum of the whole array instead of each row's maximum"),
             ("Divide each row by its sum instead of exponentiating", "softmax: no exponential (dividing the scores by their sum)"),
         ]),
    dict(id="q4", concept="softmax",
         stem="A softmax turns the scores (2, 1, 0) into some weights. What does it give for (12, 11, 10)?",
         options=[
             ("Closer to one-hot: the largest score takes over", "prediction_huge_scores: the largest score takes all the weight"),
             ("Closer to uniform: the gaps are small next to the scores", "prediction_huge_scores: nearly equal scores give nearly equal weights"),
             ("The same weights: only the gaps between the scores count", None),
         ]),
    dict(id="q5", concept="temperature",
         stem="Scores are divided by a temperature τ before the softmax. What do the weights tend to as τ goes to 0?",
         options=[
             ("Equal weights on every key", "prediction_scaled_logits: larger scores spread the weight"),
             ("The same weights as at τ = 1, whatever τ is", "prediction_scaled_logits: softmax ignores a common factor"),
             ("All the weight on the highest score", None),
         ]),
    dict(id="q6", concept="temperature",
         stem="The values are weighted by a softmax of their scores divided by a very large temperature τ. What is the output close to?",
         options=[
             ("The value with the highest score", "prediction_huge_scores: the largest score takes all the weight"),
             ("The plain mean of the values", None),
             ("The plain sum of the values", "softmax: no normalisation (the exponentials do not sum to one)"),
         ]),
    dict(id="q7", concept="average", reread="5. Self-attention with no parameters",
         stem="In softmax(X Xᵀ) X with X of shape (L, D), over which entries of the (L, L) score matrix is each softmax taken?",
         options=[
             ("Down each column: one key's scores", "mix_tokens: a softmax over the columns (axis 0) of X Xᵀ"),
             ("Over all L·L entries: one softmax in all", "mix_tokens: one softmax over the whole matrix instead of one per row"),
             ("Along each row: one token's scores", None),
         ]),
]
