"""Wrong implementations of notebook 07's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
The classes keep the stub's ``__init__`` (as the notebook asks) and get a wrong method.
"""
from coursekit import Wrong

_ADDITIVE_HEAD = '''
class AdditiveAttention(nn.Module):
    def __init__(self, query_dim, key_dim, hidden_dim):
        super().__init__()
        self.W_q = nn.Linear(query_dim, hidden_dim, bias=False)
        self.W_k = nn.Linear(key_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, query, keys, mask=None):
'''

_MULT_HEAD = '''
class MultiplicativeAttention(nn.Module):
    def __init__(self, query_dim, key_dim, kind="general"):
        super().__init__()
        self.kind = kind
        if kind == "general":
            self.W = nn.Linear(key_dim, query_dim, bias=False)

    def forward(self, query, keys, mask=None):
'''

_DECODER_HEAD = '''
class AttentionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, key_dim, attention):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRUCell(emb_dim, hidden_dim)
        self.attention = attention
        self.out = nn.Linear(hidden_dim + key_dim + emb_dim, vocab_size)

    def step(self, prev_token, hidden, encoder_outputs, src_mask):
'''

_GREEDY_HEAD = '''
def greedy_decode(model, src, src_mask, max_len):
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        finished = torch.zeros(B, dtype=torch.bool)
        tokens, weights = [], []
'''

_A = "test_additive_attention"
_AM = "test_additive_attention_mask"
_M = "test_multiplicative_attention"
_MM = "test_multiplicative_attention_mask"
_S = "test_decoder_step"
_SL = "test_decoder_step_luong"
_G = "test_greedy_decode"
_GE = "test_greedy_decode_eos"
_AA = "test_alignment_accuracy"
_AAB = "test_alignment_accuracy_batched"

WRONG = [
    # AdditiveAttention ---------------------------------------------------------------------
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = self.v(self.W_q(query).unsqueeze(1) + self.W_k(keys)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_A, _AM), message="tanh missing"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        weights = torch.softmax(scores, dim=-1)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_AM,), message="the mask is ignored"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=0)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_A,), message="softmax over the batch"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_AM,), message="fully masked row becomes NaN"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys)).sum(dim=-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_A, _AM), message="v missing"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        projected = self.W_k(keys)
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + projected)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ projected).squeeze(1), weights
''', fails=(_A, _AM), message="projected keys"),
    Wrong("AdditiveAttention", _ADDITIVE_HEAD + '''
        scores = self.v(torch.tanh(self.W_q(query).unsqueeze(1) + self.W_k(keys))).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return weights, (weights.unsqueeze(1) @ keys).squeeze(1)
''', fails=(_A, _AM), message="returning (weights, context)"),

    # MultiplicativeAttention -----------------------------------------------------------------
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1) / keys.shape[-1] ** 0.5
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_M, _MM), message="scaled by √Dk"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        q = self.W(query) if self.kind == "general" else query
        scores = (keys @ q.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_M,), message="W applied to the query"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        scores = (keys @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_M,), message="plain dot product (W unused)"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = torch.softmax(scores, dim=-1)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_MM,), message="the mask is ignored"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = torch.softmax(scores, dim=0)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_M,), message="softmax over the batch"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, None if mask is None else ~mask)
        return (weights.unsqueeze(1) @ keys).squeeze(1), weights
''', fails=(_MM,), message="the mask is inverted"),
    Wrong("MultiplicativeAttention", _MULT_HEAD + '''
        k = self.W(keys) if self.kind == "general" else keys
        scores = (k @ query.unsqueeze(-1)).squeeze(-1)
        weights = at.masked_softmax(scores, mask)
        return (weights.unsqueeze(1) @ k).squeeze(1), weights
''', fails=(_M,), message="averages W k instead of the keys"),

    # AttentionDecoder.step ---------------------------------------------------------------
    Wrong("AttentionDecoder", _DECODER_HEAD + '''
        emb = self.embedding(prev_token)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        hidden = self.gru(emb, hidden)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''', fails=(_S, _SL), message="querying with the wrong state"),
    Wrong("AttentionDecoder", _DECODER_HEAD + '''
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
        context, weights = self.attention(hidden, encoder_outputs)
        logits = self.out(torch.cat([hidden, context, emb], dim=-1))
        return logits, hidden, weights
''', fails=(_S, _SL), message="source mask not passed"),
    Wrong("AttentionDecoder", _DECODER_HEAD + '''
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        logits = self.out(torch.cat([context, hidden, emb], dim=-1))
        return logits, hidden, weights
''', fails=(_S, _SL), message="concatenated in the wrong order"),
    Wrong("AttentionDecoder", _DECODER_HEAD + '''
        emb = self.embedding(prev_token)
        new_hidden = self.gru(emb, hidden)
        context, weights = self.attention(new_hidden, encoder_outputs, src_mask)
        logits = self.out(torch.cat([new_hidden, context, emb], dim=-1))
        return logits, hidden, weights
''', fails=(_S, _SL), message="returning the previous state"),
    Wrong("AttentionDecoder", _DECODER_HEAD + '''
        emb = self.embedding(prev_token)
        hidden = self.gru(emb, hidden)
        context, weights = self.attention(hidden, encoder_outputs, src_mask)
        return torch.softmax(self.out(torch.cat([hidden, context, emb], dim=-1)), dim=-1), hidden, weights
''', fails=(_S, _SL), message="returning probabilities"),

    # greedy_decode -------------------------------------------------------------------------
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            if finished.all():
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_G, _GE), message="not fed back"),
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_GE,), message="not stopping once every sentence"),
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.any():
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_G, _GE), message="stopping as soon as one sentence ends"),
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = logits.argmax(dim=-1)
            tokens.append(next_token)
            weights.append(w)
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_G, _GE), message="not replaced by <pad>"),
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        start = hidden
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, start, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_G, _GE), message="hidden state is not carried"),
    Wrong("greedy_decode", _GREEDY_HEAD + '''
        tokens.append(prev)
        weights.append(torch.zeros(src_mask.shape, dtype=encoder_outputs.dtype))
        for _ in range(max_len):
            logits, hidden, w = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            next_token = torch.where(finished, torch.full_like(prev, PAD), logits.argmax(dim=-1))
            tokens.append(next_token)
            weights.append(w.masked_fill(finished.unsqueeze(-1), 0.0))
            finished = finished | (next_token == EOS)
            prev = next_token
            if finished.all():
                break
    return torch.stack(tokens, dim=1), torch.stack(weights, dim=1)
''', fails=(_G, _GE), message="<bos> token included"),

    # alignment_accuracy --------------------------------------------------------------------
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    return float(np.mean(np.argmax(weights, axis=-1) == gold))
''', fails=(_AA, _AAB), message="counted in the denominator"),
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    rows = np.arange(len(gold))
    hits = weights[rows, gold] == weights.max(axis=-1)
    return float(hits.mean())
''', fails=(_AA,), message="used as an index"),
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    aligned = gold >= 0
    on_gold = np.take_along_axis(weights, np.maximum(gold, 0)[..., None], axis=-1)[..., 0]
    return float(on_gold[aligned].mean())
''', fails=(_AA, _AAB), message="weight on the gold word averaged"),
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    aligned = gold >= 0
    hits = (np.argmax(weights, axis=-1) == gold) & aligned
    return 100.0 * hits.sum() / aligned.sum()
''', fails=(_AA, _AAB), message="percentage"),
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    if weights.ndim == 2:
        weights, gold = weights[None], gold[None]
    scores = []
    for w, g in zip(weights, gold):
        aligned = g >= 0
        scores.append(np.sum((np.argmax(w, axis=-1) == g) & aligned) / np.sum(aligned))
    return float(np.mean(scores))
''', fails=(_AAB,), message="per-sentence accuracies averaged"),
    Wrong("alignment_accuracy", '''
def alignment_accuracy(weights, gold):
    aligned = gold >= 0
    return float(np.sum((np.argmax(weights, axis=-1) == gold) & aligned))
''', fails=(_AA, _AAB), message="number of hits instead of the fraction"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_clitic_peak", 'prediction_clitic_peak = "you"\n',
          fails=("test_predict_clitic_peak",), message="attention follows the gold alignment"),
    Wrong("predict_clitic_peak", 'prediction_clitic_peak = "I"\n',
          fails=("test_predict_clitic_peak",), message="attention lags one step behind"),
    Wrong("predict_clitic_peak", 'prediction_clitic_peak = "aime"\n',
          fails=("test_predict_clitic_peak",), message="expected one of"),
    Wrong("predict_decode_shape", "prediction_decode_shape = (3, 60)\n",
          fails=("test_predict_decode_shape",), message="decoding always takes max_len steps"),
    Wrong("predict_decode_shape", "prediction_decode_shape = (3, 25)\n",
          fails=("test_predict_decode_shape",), message="the <eos> step is not counted"),
    Wrong("predict_decode_shape", "prediction_decode_shape = [3, 6]\n",
          fails=("test_predict_decode_shape",), message="decoding stops when the first sentence ends"),
]
