NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Guards the maximum of an empty row but divides by the row sum without a guard, so a fully masked row is 0/0 = nan.'
NAMED_IF = r"nan|fully masked|0 ?/ ?0|zero (sum|divisor)|divi\w* by (zero|0)|empty row|nothing to attend|all.zero|no (allowed|true)"
CODE = '''def masked_softmax(scores, mask):
    s = np.where(mask, scores, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    s -= np.where(np.isfinite(top), top, 0.0)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s
'''
