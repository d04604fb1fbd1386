NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "Returns (output, cross_weights, self_weights): the two weight tensors in the wrong order (the learner's test had Lt == Ls)."
NAMED_IF = 'order|swap|self_weights|cross_weights|self-attention weights|cross-attention weights|return'
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
        cm = at.causal_mask(Lt, Lt)
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        h = self.norm1(X)
        Z, Aself = self.self_attn(h, h, cm)
        X = X + Z
        C, Across = self.cross_attn(self.norm2(X), memory, mm)
        X = X + C
        return X + self.linear2(torch.relu(self.linear1(self.norm3(X)))), Across, Aself
'''
