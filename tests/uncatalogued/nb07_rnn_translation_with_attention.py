"""Notebook 07: wrong implementations the catalogue does not list."""
from uncatalogued import U

_ADD_INIT = '''
class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)
'''
_MUL_INIT = '''
class MultiplicativeAttention(nn.Module):
    def __init__(self, query_dim, key_dim, kind="general"):
        super().__init__()
        if kind not in ("dot", "general"):
            raise ValueError(f"kind: expected 'dot' or 'general', got {kind!r}")
        self.kind = kind
        if kind == "general":
            self.W = nn.Linear(key_dim, query_dim, bias=False)
'''
_DEC_INIT = '''
class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)
'''
_GREEDY = '''
def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if bool(finished.all()):
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
'''

WRONG = [
    U("AdditiveAttention", _ADD_INIT + '''
    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(~mask, -10000.0)
        weights = torch.softmax(scores, dim=-1)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', "test_additive_attention_mask", "a finite -10000 fill (a sentence with no word gets uniform weights)",
      words=("fully masked", "finite", "-10000", "uniform", "no key", "no word"), kind="range"),
    U("AdditiveAttention", _ADD_INIT + '''
    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query) + self.W_k(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', "test_additive_attention", "the query not unsqueezed (broadcast over the wrong axis)", needs_layer=True,
      words=("unsqueeze", "broadcast"), kind="fixed-rank"),
    U("AdditiveAttention", _ADD_INIT + '''
    def forward(self, query, keys, mask=None):
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask).unsqueeze(1)
        return (weights @ keys).squeeze(1), weights
''', "test_additive_attention", "the weights returned as (B, 1, Lk)", needs_layer=True, words=("has shape", "wrong shape", "different order (or shape)"), kind="shape"),
    U("AdditiveAttention", _ADD_INIT + '''
    def forward(self, query, keys, mask=None):
        scores = self.v(torch.relu(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', "test_additive_attention", "ReLU instead of tanh", needs_layer=True, words=("tanh",), kind="activation"),

    U("MultiplicativeAttention", _MUL_INIT + '''
    def forward(self, query, keys, mask=None):
        keys_q = keys @ self.W.weight if self.kind == "general" else keys
        scores = (keys_q @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', "test_multiplicative_attention", "W's weight used untransposed (Wᵀ k)", needs_layer=True, words=("transpose",),
      kind="transpose"),
    U("MultiplicativeAttention", _MUL_INIT + '''
    def forward(self, query, keys, mask=None):
        keys_q = self.W(keys) if self.kind == "general" else keys
        scores = (keys_q @ query.unsqueeze(-1)).squeeze(-1) / keys.shape[-1] ** 0.5
        weights = torch.softmax(scores, dim=-1)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', ("test_multiplicative_attention", "test_multiplicative_attention_mask"), "scaled and the mask ignored",
      words=("scal", "mask"), kind="two at once"),
    U("MultiplicativeAttention", _MUL_INIT + '''
    def forward(self, query, keys, mask=None):
        keys_q = self.W(keys) if self.kind == "general" else keys
        scores = torch.einsum("bd,bld->bl", query, keys_q)
        weights = at.masked_softmax(scores, None if mask is None else mask.T.T)
        context = torch.einsum("bl,bld->bd", weights, keys_q)
        return context, weights
''', "test_multiplicative_attention", "the context from W k (einsum)", words=("W k", "keys", "context"),
      kind="wrong values"),

    U("AttentionDecoder", _DEC_INIT + '''
    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        emb = self.embedding(prev_token)
        new_hidden = self.gru(emb, hidden)
        context, weights = self.attention(new_hidden, encoder_outputs, src_mask)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, new_hidden, weights
''', "test_decoder_step", "the output layer fed the previous state", needs_layer=True, words=("state",), kind="off-by-one"),
    U("AttentionDecoder", _DEC_INIT + '''
    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
        context, weights = self.attention(hidden, encoder_outputs, ~src_mask)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''', "test_decoder_step", "the source mask inverted", words=("invert",), kind="mask"),
    U("AttentionDecoder", _DEC_INIT + '''
    def step(self, prev_token, hidden, encoder_outputs, src_mask):
        emb = self.embedding(prev_token)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        hidden = self.gru(emb, hidden)
        logits = self.out(torch.cat([hidden, context, emb], dim=1)).log_softmax(-1)
        return logits, hidden, weights
''', "test_decoder_step", "queries with the previous state and returns log-probabilities", needs_layer=True,
      words=("state", "probabilit"), kind="two at once"),

    U("greedy_decode", _GREEDY.replace("for _ in range(max_len):", "for _ in range(max_len - 1):"),
      "test_greedy_decode", "one step short (max_len - 1)", words=("max_len", "has shape", "steps"), kind="off-by-one"),
    U("greedy_decode", _GREEDY.replace("weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))",
                                       "weights.append(w)"),
      "test_greedy_decode_eos", "weights after EOS kept", words=("weights", "EOS", "zero"), kind="contract"),
    U("greedy_decode", _GREEDY.replace("return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)",
                                       "return torch.stack(tokens, dim=0), torch.stack(weights, dim=0)"),
      "test_greedy_decode", "stacked time-major (T, B)", words=("transpos", "swapped", "wrong order", "different order"), kind="axes"),

    U("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    weights = np.asarray(weights, dtype=float)
    gold = np.asarray(gold)
    aligned = gold >= 0
    peak = np.argmax(weights, axis=-2)
    return float(np.sum((peak == gold) & aligned) / np.sum(aligned))
''', "test_alignment_accuracy", "the argmax over the targets", needs_layer=True, words=("axis", "argmax"), kind="axis"),
    U("alignment_accuracy", '''
import torch
def alignment_accuracy(weights, gold):
    weights = torch.as_tensor(weights)
    gold = torch.as_tensor(gold)
    aligned = gold >= 0
    return ((weights.argmax(-1) == gold) & aligned).sum() / aligned.sum()
''', "test_alignment_accuracy", "a 0-d tensor back", words=("float", "tensor"), kind="torch/numpy"),
    U("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    weights = np.asarray(weights, dtype=float)
    gold = np.asarray(gold)
    aligned = gold > 0
    peak = np.argmax(weights, axis=-1)
    return float(np.sum((peak == gold) & aligned) / np.sum(aligned))
''', "test_alignment_accuracy", "gold > 0 (source word 0 never counted)", words=("aligned", "-1", "0"),
      kind="off-by-one"),
]
