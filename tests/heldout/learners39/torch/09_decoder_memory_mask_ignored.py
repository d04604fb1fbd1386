NOTEBOOK = '09_transformer'
CELL = 'TransformerDecoderLayer'
MISTAKE = 'Never passes memory_mask to the cross-attention, so padded source tokens receive cross-attention weight.'
NAMED_IF = r"padd|memory_mask|source mask|src.?mask|mask.{0,20}(cross|source)|ignor"
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
        Lt = X.size(1)
        h = self.norm1(X)
        Z, self_w = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + Z
        C, cross_w = self.cross_attn(self.norm2(X), memory)
        X = X + C
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_w, cross_w
'''
