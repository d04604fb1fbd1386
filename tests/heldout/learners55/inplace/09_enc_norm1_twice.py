NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Reuses norm1 before the feed-forward network instead of norm2.'
NAMED_IF = r"norm1|norm2|wrong (layer ?)?norm|second norm|LN_?2|layer norm"
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
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm1(X))))
        return X, A
'''
