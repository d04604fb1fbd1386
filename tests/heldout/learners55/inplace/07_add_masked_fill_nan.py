NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Masks the scores in place with masked_fill_(~mask, -inf) and a plain softmax, so a sentence with no real word gets NaN weights.'
NAMED_IF = r"nan|no real word|empty (sentence|row)|fully masked|all.zero|nothing to attend|zero (weights|context)"
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        h = torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))
        scores = self.v(h).squeeze(-1)
        if mask is not None:
            scores.masked_fill_(~mask, float("-inf"))
        weights = scores.softmax(dim=-1)
        context = (weights.unsqueeze(1) @ keys).squeeze(1)
        return context, weights
'''
