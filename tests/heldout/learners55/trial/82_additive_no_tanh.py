NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Leaves out the tanh: scores are (q W_q + k W_k) v, a linear score.'
NAMED_IF = 'tanh|non-?linear|activation|linear score'
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        h = self.W_q(query).unsqueeze(1) + self.W_k(keys)
        scores = self.v(h).squeeze(-1)
        w = at.masked_softmax(scores, mask)
        return (w.unsqueeze(1) @ keys).squeeze(1), w
'''
