NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = "Adds both sublayers into the caller's X in place (X += Z; X += FFN) and returns it: the input tensor is modified."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged"
CODE = '''class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        m = None if mask is None else mask[:, None, None, :]
        h = self.norm1(X)
        Z, A = self.self_attn(h, h, m)
        X += Z
        X += self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, A
'''
