NOTEBOOK = "04_masks_and_cross_attention"
CELL = "masked_softmax"
MISTAKE = "Subtracts the maximum over all keys, masked ones included, so when a masked key has a much larger score the allowed exponentials underflow and the row comes out all zeros instead of summing to one."
NAMED_IF = r"max.{0,60}(masked|allowed)|(masked|allowed).{0,60}max|underflow"
CODE = '''
def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    scores = np.asarray(scores, dtype=float)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    denom = e.sum(axis=-1, keepdims=True)
    return np.divide(e, denom, out=np.zeros_like(e), where=denom > 0)
'''
