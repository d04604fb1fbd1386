NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = 'Returns (output, cross_weights, self_weights): the two weight tensors in the wrong order.'
NAMED_IF = r"order|swap|self_weights|cross_weights|self.attention weights|cross.attention weights"
CODE = '''class TransformerDecoderLayer(nn.Module):
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
        h = self.norm1(X)
        Z, w1 = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + Z
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        Z, w2 = self.cross_attn(self.norm2(X), memory, mm)
        X = X + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, w2, w1
'''
