NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AdditiveAttention'
MISTAKE = 'Fills the scores with -inf where the mask is True (the key_padding_mask convention), so real words are blocked and padding is attended.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|padding (gets|receives|is attended)'
CODE = '''class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
        context = torch.bmm(weights.unsqueeze(1), keys).squeeze(1)
        return context, weights
'''
