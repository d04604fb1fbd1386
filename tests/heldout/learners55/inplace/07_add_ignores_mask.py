NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Takes a plain softmax over all keys and never uses the mask, so padding gets weight.'
NAMED_IF = r"mask|padding|\bpad\b"
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        h = self.W_k(keys)
        h.add_(self.W_q(query).unsqueeze(1))
        h.tanh_()
        scores = self.v(h).squeeze(-1)
        weights = scores.softmax(dim=-1)
        context = (weights.unsqueeze(1) @ keys).squeeze(1)
        return context, weights
'''
