NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'AttentionDecoder'
MISTAKE = 'Concatenates [c_t; s_t; e_t] instead of [s_t; c_t; e_t], so self.out reads the context where it expects the state.'
NAMED_IF = 'order|concat|\\bcat\\b|swap|\\[ ?s_?t|\\[ ?c_?t|arrangement|which (part|block)'
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
        emb = self.embedding(prev_token)                                           # (B, E)
        new_hidden = self.gru(emb, hidden)                                         # (B, H)
        context, weights = self.attention(new_hidden, encoder_outputs, src_mask)  # (B, Dk), (B, Ls)
        logits = self.out(torch.cat([context, new_hidden, emb], dim=-1))          # (B, V)
        return logits, new_hidden, weights
'''
