NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = "Reuses the name h for norm2's output and adds the cross-attention to h instead of to the stream X1."
NAMED_IF = r"residual|normali[sz]ed (copy|stream|input|X)|LN\(X\) ?\+|pre.norm|post.norm|norm\w* (the )?(stream|residual)|add\w* to the (normali|LN)|skip connection|X ?\+ ?Z"
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
        Z, sw = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + Z
        h = self.norm2(X)
        mm = None if memory_mask is None else memory_mask[:, None, None, :]
        Z, cw = self.cross_attn(h, memory, mm)
        X = h + Z
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, sw, cw
'''
