NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Queries attention with the previous state s_{t-1} (before the GRU step) instead of the new state s_t.'
NAMED_IF = 'previous state|old state|new state|s_?\\{?t ?- ?1|before the gru|after the gru|bahdanau|stale|which state|query.{0,30}state'
CODE = '''\
class AttentionDecoder(nn.Module):
    """A GRU decoder that attends to the encoder outputs at every step."""

    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        emb = self.embedding(prev_token)                                        # (B, E)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)   # (B, Dk), (B, Ls)
        new_hidden = self.gru(emb, hidden)                                      # (B, H)
        logits = self.out(torch.cat([new_hidden, context, emb], dim=-1))       # (B, V)
        return logits, new_hidden, weights
'''
