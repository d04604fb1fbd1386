NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Implements post-norm, LN(X + Sublayer(X)), instead of pre-norm.'
NAMED_IF = 'post-?norm|pre-?norm|norm(ali[sz]e)? (after|before)|LN ?\\( ?X ?\\+|order of (the )?norm'
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
