NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'masked_fill(~mask, -inf) followed by a plain torch.softmax: a sentence with no real word gets NaN weights and a NaN context instead of zeros.'
NAMED_IF = r"nan|no real word|empty|fully masked|all.?masked|no word"
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        q = self.W_q(query).unsqueeze(1)            # (B, 1, Dh)
        k = self.W_k(keys)                          # (B, Lk, Dh)
        scores = self.v(torch.tanh(q + k)).squeeze(-1)   # (B, Lk)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        context = (weights.unsqueeze(-1) * keys).sum(dim=1)
        return context, weights
'''
