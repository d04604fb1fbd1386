NOTEBOOK = "07_rnn_translation_with_attention"
CELL = "AdditiveAttention"
MISTAKE = "Applies tanh after the projection v instead of before it, computing tanh((q W_q + k W_k) v)."
NAMED_IF = r"tanh"
CODE = '''
class AdditiveAttention(nn.Module):
    """Bahdanau's additive attention: score(q, k) = tanh(q W_q + k W_k) v."""

    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        hidden = self.W_q(query).unsqueeze(1) + self.W_k(keys)      # (B, Lk, Dh)
        scores = torch.tanh(self.v(hidden).squeeze(-1))              # (B, Lk)
        weights = at.masked_softmax(scores, mask)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)   # (B, Dk)
        return context, weights
'''
