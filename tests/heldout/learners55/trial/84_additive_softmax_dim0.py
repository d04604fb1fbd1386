NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = "Takes the softmax over dim 0 (the batch) instead of over the keys; the learner's first example had B == 1 where it made no difference... after a NaN it switched to torch.softmax with dim=0."
NAMED_IF = '\\bdim\\b|axis|over (the )?(keys|batch|sentences)|across (the )?batch|rows? sum|sum to (one|1)'
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
            scores = scores.masked_fill(~mask, float("-inf"))
        w = torch.nan_to_num(torch.softmax(scores, dim=0))
        if mask is not None:
            w = w * mask
        return (w.unsqueeze(1) @ keys).squeeze(1), w
'''
