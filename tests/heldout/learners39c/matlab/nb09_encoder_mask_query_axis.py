NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'reshapes the padding mask to (B, 1, L, 1): it masks the query rows instead of the keys'
NAMED_IF = 'query|keys?|axis|mask.{0,30}(shape|broadcast|index|reshap)|rows?|columns?|padding'
CODE = '''class TransformerEncoderLayer(nn.Module):
    """A pre-norm Transformer encoder layer."""

    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        h = self.norm1(X)
        m = None if mask is None else mask[:, None, :, None]
        Z, A = self.self_attn(h, h, m)
        X1 = X + Z
        return X1 + self.linear2(torch.relu(self.linear1(self.norm2(X1)))), A
'''
