NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Masks with masked_fill(~mask, -inf) and a plain softmax, so a sentence with no real word gets NaN weights and a NaN context instead of zeros.'
NAMED_IF = 'nan|fully[- ]masked|all[- ]masked|no real word|empty (sentence|row)|zero (weights|context)|every (word|key) masked'
CODE = '''\
class AdditiveAttention(nn.Module):
    """Bahdanau's additive attention: score(q, k) = tanh(q W_q + k W_k) v."""

    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        hidden = torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))   # (B, Lk, hidden)
        scores = self.v(hidden).squeeze(-1)                                   # (B, Lk)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)                               # (B, Lk)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)            # (B, Dk)
        return context, weights
'''
