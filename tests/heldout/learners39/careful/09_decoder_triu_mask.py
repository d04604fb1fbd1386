NOTEBOOK = "09_transformer"
CELL = "TransformerDecoderLayer"
MISTAKE = "Builds the causal mask with torch.triu(..., diagonal=1), PyTorch's True-means-blocked convention, so under the course's True-means-may-attend convention each position sees only the future."
NAMED_IF = r"causal|future|triu|tril|invert|convention|True ?= ?(may|masked|blocked)"
CODE = '''
class TransformerDecoderLayer(nn.Module):
    """A pre-norm Transformer decoder layer."""

    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.cross_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        causal = torch.triu(torch.ones(Lt, Lt, dtype=torch.bool, device=X.device), diagonal=1)
        h = self.norm1(X)
        Z, self_w = self.self_attn(h, h, causal)
        X = X + Z
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]
        Z, cross_w = self.cross_attn(self.norm2(X), memory, cross_mask)
        X = X + Z
        out = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return out, self_w, cross_w
'''
