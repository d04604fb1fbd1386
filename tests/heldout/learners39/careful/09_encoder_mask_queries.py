NOTEBOOK = "09_transformer"
CELL = "TransformerEncoderLayer"
MISTAKE = "Reshapes the padding mask to (B, 1, L, 1), masking query rows instead of the padded keys (columns)."
NAMED_IF = r"mask.{0,60}(key|column|query|row|axis|shape|broadcast)|(key|column)s?.{0,40}mask|padding.{0,40}(attention|attend)"
CODE = '''
class TransformerEncoderLayer(nn.Module):
    """A pre-norm Transformer encoder layer."""

    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, :, None]
        h = self.norm1(X)
        Z, A = self.self_attn(h, h, attn_mask)
        X = X + Z
        out = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return out, A
'''
