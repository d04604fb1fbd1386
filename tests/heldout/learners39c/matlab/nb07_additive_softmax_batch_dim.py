NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = "normalises the scores over dim 0 (the batch, MATLAB's default first dimension) instead of over the words"
NAMED_IF = 'dim|axis|batch|over (the )?(words|keys)|sum to (1|one)|sum'
CODE = '''class AdditiveAttention(nn.Module):
    """Bahdanau's additive attention: score(q, k) = tanh(q W_q + k W_k) v."""

    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        w = torch.softmax(scores, dim=0)
        w = torch.nan_to_num(w, nan=0.0)
        context = (w.unsqueeze(1) @ keys).squeeze(1)
        return context, w
'''
