NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = 'Splits the columns into heads with view(D, Dh, H) (head as the last, fastest axis), i.e. interleaved heads instead of contiguous blocks.'
NAMED_IF = r"interleav|strid|h::H|contiguous|reshape|view|every H-?th|columns? h ?\* ?Dh|block of columns|wrong columns|head'?s? (own )?(block|columns)"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    Wq = torch.as_tensor(np.asarray(W_q, dtype=float))
    Wuk = torch.as_tensor(np.asarray(W_uk, dtype=float))
    D, HD = Wq.shape
    Dc = Wuk.shape[0]
    Dh = HD // H
    Wq_h = Wq.view(D, Dh, H).permute(2, 0, 1)      # (H, D, Dh)
    Wuk_h = Wuk.view(Dc, Dh, H).permute(2, 0, 1)   # (H, Dc, Dh)
    return (Wq_h @ Wuk_h.transpose(1, 2)).numpy()
'''
