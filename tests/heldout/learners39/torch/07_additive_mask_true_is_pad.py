NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Uses the torch key_padding_mask convention: masked_fill(mask, -inf) blocks the positions where mask is True, i.e. the real words, and attends to the padding.'
NAMED_IF = r"invert|revers|flip|opposite|the other way|~ ?mask|True.{0,40}(as|means|=|for) (padding|masked|blocked)"
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        # (B, 1, Dh) + (B, Lk, Dh) -> tanh -> v -> (B, Lk)
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))  # mask out padding
        weights = torch.softmax(scores, dim=-1)
        weights = torch.nan_to_num(weights, nan=0.0)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)
        return context, weights
'''
