NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Writes the original post-norm layer, LN(X + Sublayer(X)), instead of the pre-norm X + Sublayer(LN(X)).'
NAMED_IF = r"post.?norm|pre.?norm|norm(ali[sz]ed?|ali[sz]ation)? after|LN.{0,20}after|after the (addition|residual)"
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
        Z, A = self.self_attn(X, X, m)
        X = self.norm1(X + Z)
        X = self.norm2(X + self.linear2(torch.relu(self.linear1(X))))
        return X, A
'''
