NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Reuses the name X for the normalised input, so the residual adds the attention output to LN(X) instead of X.'
NAMED_IF = r"residual|normali[sz]ed (copy|stream|input|X)|LN\(X\) ?\+|pre.norm|post.norm|norm\w* (the )?(stream|residual)|add\w* to the (normali|LN)|skip connection|X ?\+ ?Z"
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
        X = self.norm1(X)
        Z, A = self.self_attn(X, X, m)
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, A
'''
