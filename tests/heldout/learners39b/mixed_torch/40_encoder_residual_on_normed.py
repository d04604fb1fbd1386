NOTEBOOK = '09_transformer'
CELL = 'TransformerEncoderLayer'
MISTAKE = 'Adds the attention output to the normalised copy LN1(X) instead of to the stream X: the first residual starts from the wrong tensor.'
NAMED_IF = 'residual|skip connection|normali[sz]ed (copy|input)|ln_?1 ?\\( ?x ?\\) ?\\+|norm1 ?\\( ?x ?\\) ?\\+'
CODE = '''\
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
        attn_mask = None if mask is None else mask[:, None, None, :]     # (B, 1, 1, L)
        h = self.norm1(X)
        Z, A = self.self_attn(h, h, attn_mask)                            # (B, L, D), (B, H, L, L)
        X1 = h + Z
        out = X1 + self.linear2(torch.relu(self.linear1(self.norm2(X1))))
        return out, A
'''
