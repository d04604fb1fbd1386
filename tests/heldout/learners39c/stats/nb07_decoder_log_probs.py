NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'returns log-probabilities (log_softmax of the logits) instead of the logits'
NAMED_IF = 'logit|probabilit|softmax|log|normali'
CODE = '''class AttentionDecoder(nn.Module):
    """A GRU decoder that attends to the encoder outputs at every step."""

    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        e_t = self.embedding(prev_token)
        s_t = self.gru(e_t, hidden)
        c_t, a_t = self.attention(s_t, encoder_outputs, src_mask)
        scores = self.out(torch.cat([s_t, c_t, e_t], dim=-1))
        return torch.log_softmax(scores, dim=-1), s_t, a_t
'''
