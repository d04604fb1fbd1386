NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Reuses the projected keys h (the tanh hidden layer) as the values of the context instead of the original keys.'
NAMED_IF = r"project|W_k\(|hidden|original keys|context[^.]{0,40}(keys|W_k)|weighted sum of (the )?(wrong|projected)|tanh|shape|\(B, ?Dk\)"
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
        weights = at.masked_softmax(scores, mask)
        context = (weights.unsqueeze(-1) * h).sum(dim=1)
        return context, weights
'''
