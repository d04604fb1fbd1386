NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Masks with masked_fill(-1e9) and torch.softmax, so a sentence with no real word gets uniform weights and a non-zero context.'
NAMED_IF = 'no (real )?word|fully masked|empty|uniform|zero (context|weights)|all[- ]zero|nothing|1e-?9'
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
            scores = scores.masked_fill(~mask, -1e9)
        w = torch.softmax(scores, dim=-1)
        return (w.unsqueeze(1) @ keys).squeeze(1), w
'''
