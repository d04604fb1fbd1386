"""Wrong implementations of notebook 09's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
The classes keep the stub's ``__init__`` (as the notebook asks) and get a wrong ``forward``.
"""
from coursekit import Wrong

_PE_HEAD = '''
def sinusoidal_positional_encoding(L, D):
'''

_ENC_HEAD = '''
class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, None, :]
'''

_DEC_HEAD = '''
class TransformerDecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.cross_attn = at.MultiHeadAttention(d_model, num_heads, bias=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]
'''

_DEC_TAIL = '''
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, memory, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
'''

_DECODE_HEAD = '''
def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        cross_mask = src_mask[:, None, None, :]
        B = src.shape[0]
        cache_k = [None] * len(model.decoder_layers)
        cache_v = [None] * len(model.decoder_layers)
        token = torch.full((B, 1), BOS, dtype=torch.long)
        tokens, logits = [], []
        for t in range(max_len):
'''

_DECODE_LAYER = '''
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(X)
                k, v = attn.W_k(h), attn.W_v(h)
'''

_CACHE_FIRST = '''
                if cache_k[i] is not None:
                    k = torch.cat([cache_k[i], k], dim=1)
                    v = torch.cat([cache_v[i], v], dim=1)
                cache_k[i], cache_v[i] = k, v
'''

_DECODE_REST = '''
                z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H), at.split_heads(k, H),
                                                       at.split_heads(v, H))
                X = X + attn.W_o(at.merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.linear2(torch.relu(layer.linear1(layer.norm3(X))))
            step = model.out(model.decoder_norm(X))[:, 0]
            token = step.argmax(dim=-1, keepdim=True)
            tokens.append(token)
            logits.append(step)
        return torch.cat(tokens, dim=1), torch.stack(logits, dim=1)
'''

_PE = "test_positional_encoding"
_PEO = "test_positional_encoding_odd"
_E = "test_encoder_layer"
_EM = "test_encoder_layer_mask"
_D = "test_decoder_layer"
_DM = "test_decoder_layer_mask"
_C = "test_decode_with_cache"
_CP = "test_decode_with_cache_positions"

WRONG = [
    # sinusoidal_positional_encoding ----------------------------------------------------------
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.cos(angles)
    PE[:, 1::2] = np.sin(angles[:, : D // 2])
    return PE
''', fails=(_PE, _PEO), message="sin and cos swapped"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
    return np.concatenate([np.sin(angles), np.cos(angles[:, : D // 2])], axis=1)
''', fails=(_PE, _PEO), message="not interleaved"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    i = np.arange((D + 1) // 2)
    angles = np.arange(L)[:, None] / 10000 ** (i / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', fails=(_PE, _PEO), message="exponent off by a factor of 2"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    two_i = np.arange(0, D, 2)
    angles = np.arange(L)[:, None] / 10000 ** (2 * two_i / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', fails=(_PE, _PEO), message="10000^(4i/D)"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[:, None] / 10000 ** (np.arange(D) / D)
    PE = np.cos(angles)
    PE[:, 0::2] = np.sin(angles[:, 0::2])
    return PE
''', fails=(_PE, _PEO), message="every column its own frequency"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(1, L + 1)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', fails=(_PE, _PEO), message="counted from 1"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[:, None] * 10000 ** (np.arange(0, D, 2) / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', fails=(_PE, _PEO), message="multiplied by 10000^(2i/D)"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles)
    return PE
''', fails=(_PEO,), message="odd D not handled"),
    Wrong("sinusoidal_positional_encoding", _PE_HEAD + '''
    angles = np.arange(L)[None, :] / 10000 ** (np.arange(0, D, 2)[:, None] / D)
    PE = np.zeros((D, L))
    PE[0::2] = np.sin(angles)
    PE[1::2] = np.cos(angles[: D // 2])
    return PE
''', fails=(_PE, _PEO), message="transposed"),

    # TransformerEncoderLayer -----------------------------------------------------------------
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        X = self.norm1(X)
        a, weights = self.self_attn(X, X, attn_mask)
        X = X + a
        X = self.norm2(X)
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, weights
''', fails=(_E, _EM), message="residual added after the norm"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        a, weights = self.self_attn(X, X, attn_mask)
        X = self.norm1(X + a)
        X = self.norm2(X + self.linear2(torch.relu(self.linear1(X))))
        return X, weights
''', fails=(_E, _EM), message="post-norm"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm1(X))))
        return X, weights
''', fails=(_E, _EM), message="one layer norm used for two sublayers"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(self.linear1(self.norm2(X)))
        return X, weights
''', fails=(_E, _EM), message="ReLU missing"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''', fails=(_E, _EM), message="around the feed-forward network missing"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        h = self.norm1(X)
        a, weights = self.self_attn(h, h)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''', fails=(_EM,), message="padding mask ignored"),
    Wrong("TransformerEncoderLayer", _ENC_HEAD + '''
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, None if mask is None else ~attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''', fails=(_EM,), message="padding mask inverted"),

    # TransformerDecoderLayer -----------------------------------------------------------------
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h)
        X = X + a
''' + _DEC_TAIL, fails=(_D, _DM), message="causal mask missing"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        causal = torch.tril(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=-1)
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, causal)
        X = X + a
''' + _DEC_TAIL, fails=(_D, _DM), message="causal mask off by one"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        causal = torch.tril(torch.ones(Lt, Lt, dtype=torch.bool), diagonal=1)
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, causal)
        X = X + a
''' + _DEC_TAIL, fails=(_D, _DM), message="one future token"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        h = self.norm2(X)
        c, cross_weights = self.cross_attn(h, h)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''', fails=(_D, _DM), message="cross-attention reading the decoder's own states"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        X = self.norm1(X)
        a, self_weights = self.self_attn(X, X, at.causal_mask(Lt, Lt))
        X = X + a
        X = self.norm2(X)
        c, cross_weights = self.cross_attn(X, memory, cross_mask)
        X = X + c
        X = self.norm3(X)
        X = X + self.linear2(torch.relu(self.linear1(X)))
        return X, self_weights, cross_weights
''', fails=(_D, _DM), message="residual added after the norm"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        c, cross_weights = self.cross_attn(self.norm2(X), self.norm2(memory), cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''', fails=(_D, _DM), message="normalised again by norm2"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        c, cross_weights = self.cross_attn(self.norm2(X), memory)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''', fails=(_DM,), message="source mask ignored"),
    Wrong("TransformerDecoderLayer", _DEC_HEAD + '''
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        c, cross_weights = self.cross_attn(self.norm2(X), memory, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, cross_weights
''', fails=(_D, _DM), message="returning two items"),

    # decode_with_cache -----------------------------------------------------------------------
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token, offset=t)
''' + _DECODE_LAYER + '''
                if cache_k[i] is None:
                    k_seen, v_seen = k[:, :0], v[:, :0]
                else:
                    k_seen, v_seen = cache_k[i], cache_v[i]
                z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H),
                                                       at.split_heads(k_seen, H), at.split_heads(v_seen, H))
                cache_k[i] = k if cache_k[i] is None else torch.cat([cache_k[i], k], dim=1)
                cache_v[i] = v if cache_v[i] is None else torch.cat([cache_v[i], v], dim=1)
                k, v = cache_k[i], cache_v[i]
                X = X + attn.W_o(at.merge_heads(z))
                c, _ = layer.cross_attn(layer.norm2(X), memory, cross_mask)
                X = X + c
                X = X + layer.linear2(torch.relu(layer.linear1(layer.norm3(X))))
            step = model.out(model.decoder_norm(X))[:, 0]
            token = step.argmax(dim=-1, keepdim=True)
            tokens.append(token)
            logits.append(step)
        return torch.cat(tokens, dim=1), torch.stack(logits, dim=1)
''', fails=(_C, _CP), message="cache appended after the attention"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token)
''' + _DECODE_LAYER + _CACHE_FIRST + _DECODE_REST, fails=(_C, _CP), message="positions restarted at 0"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token, offset=t + 1)
''' + _DECODE_LAYER + _CACHE_FIRST + _DECODE_REST, fails=(_C, _CP), message="positions off by one"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token, offset=t)
''' + _DECODE_LAYER + _DECODE_REST, fails=(_C, _CP), message="cache not kept"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(torch.full((B, 1), BOS, dtype=torch.long), offset=t)
''' + _DECODE_LAYER + _CACHE_FIRST + _DECODE_REST, fails=(_C, _CP), message="not fed back"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token, offset=t)
''' + _DECODE_LAYER + _CACHE_FIRST + _DECODE_REST.replace("model.out(model.decoder_norm(X))", "model.out(X)"),
          fails=(_C, _CP), message="final norm"),
    Wrong("decode_with_cache", _DECODE_HEAD + '''
            X = model.embed_target(token, offset=t)
''' + _DECODE_LAYER + _CACHE_FIRST + _DECODE_REST.replace("memory, cross_mask)", "memory)"),
          fails=(_C, _CP), message="source mask not passed"),
    # a "cache" that recomputes the whole prefix through the decoder at every step: the cache
    # variables are filled, but every step runs <bos> y_1 .. y_t through the layers again
    Wrong("decode_with_cache", '''
def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        cache = torch.full((B, 1), BOS, dtype=torch.long)   # the tokens so far
        logits = []
        for t in range(max_len):
            X = model.embed_target(cache)
            for layer in model.decoder_layers:
                X, _, _ = layer(X, memory, src_mask)
            step = model.out(model.decoder_norm(X))[:, -1]
            logits.append(step)
            cache = torch.cat([cache, step.argmax(dim=-1, keepdim=True)], dim=1)
        return cache[:, 1:], torch.stack(logits, dim=1)
''', fails=(_C, _CP), message="recomputes the prefix each step; it keeps no cache"),
    Wrong("decode_with_cache", '''
def decode_with_cache(model, src, src_mask, max_len):
    return at.decode_by_recomputation(model, src, src_mask, max_len)
''', fails=(_C, _CP), message="recomputes the prefix each step; it keeps no cache"),

    # predict, then run -----------------------------------------------------------------------
    Wrong("predict_reversed_sentence", 'prediction_reversed_sentence = "different"\n',
          fails=("test_predict_reversed_sentence",), message="attention sees the word order"),
    Wrong("predict_reversed_sentence", 'prediction_reversed_sentence = "same"\n',
          fails=("test_predict_reversed_sentence",), message="expected one of"),
    Wrong("predict_offset_dot", 'prediction_offset_dot = "PE_3 · PE_10"\n',
          fails=("test_predict_offset_dot",), message="positions near the start look more alike"),
    Wrong("predict_offset_dot", 'prediction_offset_dot = "PE_40 · PE_47"\n',
          fails=("test_predict_offset_dot",), message="far positions blur together"),
]
