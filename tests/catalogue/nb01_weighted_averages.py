"""Wrong implementations of notebook 01's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

WRONG = [
    # weighted_average -----------------------------------------------------------------------
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    return np.sum(values * weights[:, None], axis=0) / len(weights)
''', fails=("test_weighted_average",), message="dividing by N"),
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    if np.any(weights < 0) or not np.isclose(weights.sum(), 1):
        raise ValueError("weights off the simplex")
    return values * weights[:, None]
''', fails=("test_weighted_average",), message="not summing them"),
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    if np.any(weights < 0) or not np.isclose(weights.sum(), 1):
        raise ValueError("weights off the simplex")
    return values @ weights
''', fails=("test_weighted_average",), message="contracting over the feature axis"),
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    return np.mean(values, axis=0)
''', fails=("test_weighted_average", "test_weighted_average_rejects"), message="ignoring the weights"),
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    return weights @ values
''', fails=("test_weighted_average_rejects",), message="accepting weights that are not on the simplex"),
    Wrong("weighted_average", '''
def weighted_average(values, weights):
    weights = weights / weights.sum()
    return weights @ values
''', fails=("test_weighted_average_rejects",), message="not on the simplex", label="renormalises"),

    # softmax ---------------------------------------------------------------------------------
    Wrong("softmax", '''
import torch

def softmax(x, axis=-1):
    t = torch.as_tensor(x)
    e = torch.exp(t - t.amax(dim=axis, keepdim=True))  # its own code, in torch
    return e / e.sum(dim=axis, keepdim=True)
''', fails=("test_softmax",), message="a torch tensor returned from a numpy exercise"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=0, keepdims=True))
    return e / np.sum(e, axis=0, keepdims=True)
''', fails=("test_softmax",), message="axis 0 instead of the `axis` argument"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', fails=("test_softmax",), message="ignoring the `axis` argument"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
''', fails=("test_softmax_stable",), message="no max subtraction"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=axis, keepdims=True)
''', fails=("test_softmax_stable",), message="maximum of the whole array"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis)
''', fails=("test_softmax",), message="without `keepdims=True`"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    return x / np.sum(x, axis=axis, keepdims=True)
''', fails=("test_softmax", "test_softmax_stable"), message="no exponential"),
    Wrong("softmax", '''
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e)
''', fails=("test_softmax",), message="sum of the whole array"),

    # mix_tokens ------------------------------------------------------------------------------
    Wrong("mix_tokens", '''
def mix_tokens(X):
    A = attnlab.softmax(X @ np.swapaxes(X, -1, -2), axis=-2)
    return A @ X
''', fails=("test_mix_tokens", "test_mix_tokens_batched"), message="over the columns"),
    Wrong("mix_tokens", '''
def mix_tokens(X):
    return X @ np.swapaxes(X, -1, -2) @ X
''', fails=("test_mix_tokens", "test_mix_tokens_batched"), message="no softmax"),
    Wrong("mix_tokens", '''
def mix_tokens(X):
    d = X.shape[-1]
    return attnlab.softmax(X @ np.swapaxes(X, -1, -2) / np.sqrt(d)) @ X
''', fails=("test_mix_tokens", "test_mix_tokens_batched"), message="scaling the scores by √D"),
    Wrong("mix_tokens", '''
def mix_tokens(X):
    return X @ attnlab.softmax(np.swapaxes(X, -1, -2) @ X)
''', fails=("test_mix_tokens", "test_mix_tokens_batched"), message="mixing features instead of tokens"),
    Wrong("mix_tokens", '''
def mix_tokens(X):
    return attnlab.softmax(X @ np.swapaxes(X, -1, -2))
''', fails=("test_mix_tokens", "test_mix_tokens_batched"), message="returning the attention weights"),
    Wrong("mix_tokens", '''
def mix_tokens(X):
    return attnlab.softmax(X @ X.T) @ X
''', fails=("test_mix_tokens_batched",), message="`X.T` on a batch"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("softmax", '''
def softmax(x, axis=-1):
    if x.ndim == 1:  # a vector: the quick way
        e = np.exp(x)
        return e / e.sum()
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
''', fails=("test_softmax_stable",), message="no max subtraction", label="1-D branch unstable"),
    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_scaled_logits", 'prediction_scaled_logits = "flatter"\n',
          fails=("test_predict_scaled_logits",), message="larger scores spread the weight"),
    Wrong("predict_scaled_logits", 'prediction_scaled_logits = "Unchanged"\n',
          fails=("test_predict_scaled_logits",), message="softmax ignores a common factor"),
    Wrong("predict_scaled_logits", 'prediction_scaled_logits = "sharp"\n',
          fails=("test_predict_scaled_logits",), message="expected one of 'sharper'"),
    Wrong("predict_huge_scores", "prediction_huge_scores = 1.0\n",
          fails=("test_predict_huge_scores",), message="the largest score takes all the weight"),
    Wrong("predict_huge_scores", "prediction_huge_scores = 0.33\n",
          fails=("test_predict_huge_scores",), message="nearly equal scores give nearly equal weights"),
    Wrong("predict_huge_scores", "prediction_huge_scores = float('nan')\n",
          fails=("test_predict_huge_scores",), message="The answer is 0.665"),
    Wrong("predict_the_attends_to", 'prediction_the_attends_to = "the"\n',
          fails=("test_predict_the_attends_to",), message="every token attends most to itself"),
    Wrong("predict_the_attends_to", 'prediction_the_attends_to = "CAT"\n',
          fails=("test_predict_the_attends_to",), message="cat and dog are alike"),
    Wrong("predict_the_attends_to", 'prediction_the_attends_to = "car"\n',
          fails=("test_predict_the_attends_to",), message="the longest vector wins"),
]
