NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = "Adds the update into the caller's Z in place (Z += update) and returns Z."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Zc = Z[..., :-1, :]
    upd = (Z @ W_kq) @ np.swapaxes(Zc, -1, -2) @ (Zc @ W_pv) / (Z.shape[-2] - 1)
    Z += upd
    return Z
'''
