"""Notebook 09: wrong implementations the catalogue does not list (the issue's list for 09)."""
from attnlab.cards.TransformerDecoderLayer import INIT as _DEC_INIT
from attnlab.cards.TransformerEncoderLayer import INIT as _ENC_INIT
from uncatalogued import U

# The layers' constructors as the cards write them (only the forward passes differ below).

_DEC_FORWARD = '''
    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, SELF_MASK)
        X = X + a
        cross_mask = CROSS_MASK
        c, cross_weights = CROSS(self.norm2(X), memory, cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
'''


def _dec(self_mask="at.causal_mask(Lt, Lt)", cross_mask="None if memory_mask is None else memory_mask[:, None, None, :]",
         cross="self.cross_attn") -> str:
    return _DEC_INIT + _DEC_FORWARD.replace("SELF_MASK", self_mask).replace("CROSS_MASK", cross_mask).replace(
        "CROSS", cross)


# decode_with_cache, the solution's loop with a few lines to replace
_DECODE = '''
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
            X = model.embed_target(token, offset=t)
            for i, layer in enumerate(model.decoder_layers):
                attn, H = layer.self_attn, layer.self_attn.num_heads
                h = layer.norm1(X)
                k, v = attn.W_k(KV_FROM), attn.W_v(KV_FROM)
                if cache_k[CACHE] is not None:
                    k = torch.cat([cache_k[CACHE], k], dim=1)
                    v = torch.cat([cache_v[CACHE], v], dim=1)
                cache_k[CACHE], cache_v[CACHE] = k, v
                z, _ = ATTEND
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
_ATTEND = "at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H), at.split_heads(k, H), at.split_heads(v, H))"


def _decode(kv_from="h", cache="i", attend=_ATTEND) -> str:
    return _DECODE.replace("KV_FROM", kv_from).replace("CACHE", cache).replace("ATTEND", attend)


WRONG = [
    U("sinusoidal_positional_encoding", '''
import torch
def sinusoidal_positional_encoding(L, D):
    positions = torch.arange(L, dtype=torch.float64)[:, None]
    rates = 10000.0 ** (-torch.arange(0, D, 2, dtype=torch.float64) / D)
    angles = positions * rates[None, :]
    PE = torch.zeros(L, D, dtype=torch.float64)
    PE[:, 0::2] = torch.sin(angles)
    PE[:, 1::2] = torch.cos(angles[:, : D // 2])
    return PE
''', "test_positional_encoding", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("sinusoidal_positional_encoding", '''
def sinusoidal_positional_encoding(L, D):
    positions = np.arange(L)[:, None]
    rates = 10000.0 ** (-np.arange(0, D, 2) / D)
    angles = positions * rates[None, :]
    PE = np.zeros((L, D), dtype=int)
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', "test_positional_encoding", "an int array (np.zeros(..., dtype=int))", needs_layer=False, words=("int", "float", "dtype"),
      kind="types"),
    U("sinusoidal_positional_encoding", '''
def sinusoidal_positional_encoding(L, D):
    rows = []
    for p in range(L):
        angles = p / 10000.0 ** (np.arange(0, D, 2) / D)
        row = np.empty(D)
        row[0::2] = np.sin(angles)
        row[1::2] = np.cos(angles[: D // 2])
        rows.append(row)
    return np.stack(rows)
''', "test_positional_encoding", "np.stack of rows: L = 0 crashes", words=("L = 0", "L=0", "empty", "ValueError"),
      kind="edge case"),
    U("sinusoidal_positional_encoding", '''
def sinusoidal_positional_encoding(L, D):
    positions = np.arange(L)[:, None]
    rates = 10000.0 ** (-np.arange(0, D, 2) / (D - 1))
    angles = positions * rates[None, :]
    PE = np.zeros((L, D))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, : D // 2])
    return PE
''', "test_positional_encoding", "10000^(2i/(D-1))", needs_layer=True, words=("exponent", "frequenc", "rate"), kind="off-by-one"),

    U("TransformerEncoderLayer", _ENC_INIT + '''
    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, None, :]
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        f = self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X + a + f, weights
''', "test_encoder_layer", "the feed-forward reads the stream before the attention residual",
      words=("feed-forward", "residual", "FFN", "linear1", "norm2"), kind="order"),
    U("TransformerEncoderLayer", _ENC_INIT + '''
    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, :, None]
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''', "test_encoder_layer_mask", "the padding mask on the query axis (mask[:, None, :, None])", needs_layer=True,
      words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
    U("TransformerEncoderLayer", _ENC_INIT + '''
    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, None, :]
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + a
        X = X + self.linear2(nn.functional.gelu(self.linear1(self.norm2(X))))
        return X, weights
''', "test_encoder_layer", "GELU instead of ReLU", needs_layer=True, words=("relu", "gelu", "activation"), kind="activation"),
    U("TransformerEncoderLayer", _ENC_INIT + '''
    def forward(self, X, mask=None):
        attn_mask = None if mask is None else mask[:, None, None, :]
        h = self.norm1(X)
        a, weights = self.self_attn(h, h, attn_mask)
        X = X + nn.functional.dropout(a, 0.1)
        X = X + self.linear2(torch.relu(self.linear1(self.norm2(X))))
        return X, weights
''', "test_encoder_layer", "functional dropout, always on", words=("dropout", "random"), kind="randomness"),
    U("TransformerDecoderLayer", _dec(cross="self.self_attn"), "test_decoder_layer",
      "the self-attention module reused for cross-attention", needs_layer=True, words=("cross_attn", "self_attn", "cross-attention"),
      kind="module reused"),
    U("TransformerDecoderLayer", _dec(self_mask="at.causal_mask(Lt, Lt).T"), "test_decoder_layer",
      "the causal mask transposed (attends to the future)", words=("causal", "future", "transpose"),
      kind="transpose"),
    U("TransformerDecoderLayer", _dec(cross_mask="None if memory_mask is None else memory_mask[:, None, :, None]"),
      "test_decoder_layer_mask", "the source mask on the query axis", needs_layer=True, words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
    U("TransformerDecoderLayer", _DEC_INIT + '''
    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]
        c, cross_weights = self.cross_attn(self.norm2(X), memory, cross_mask)
        return X + c, self_weights, cross_weights
''', "test_decoder_layer", "the feed-forward before the cross-attention", words=("order", "feed-forward", "cross"),
      kind="order"),
    U("TransformerDecoderLayer", _DEC_INIT + '''
    def forward(self, X, memory, memory_mask=None):
        Lt = X.shape[1]
        h = self.norm1(X)
        a, self_weights = self.self_attn(h, h, at.causal_mask(Lt, Lt))
        X = X + a
        cross_mask = None if memory_mask is None else memory_mask[:, None, None, :]
        c, cross_weights = self.cross_attn(self.norm2(X), self.norm2(memory), cross_mask)
        X = X + c
        X = X + self.linear2(torch.relu(self.linear1(self.norm3(X))))
        return X, self_weights, cross_weights
''', "test_decoder_layer", "the memory normalised by norm2 too", words=("memory", "norm"), kind="extra step"),

    U("decode_with_cache", _decode(cache="0"), "test_decode_with_cache_positions",
      "one KV cache shared by every layer", needs_layer=False, words=("cache", "layer"), kind="cache"),
    U("decode_with_cache", _decode(kv_from="X"), "test_decode_with_cache",
      "K/V cached from the un-normalised stream", needs_layer=True, words=("norm",), kind="cache"),
    U("decode_with_cache", _decode(attend="(torch.softmax(at.split_heads(attn.W_q(h), H) @ at.split_heads(k, H)"
                                          ".transpose(-1, -2), dim=-1) @ at.split_heads(v, H), None)"),
      "test_decode_with_cache", "no 1/sqrt(Dh)", needs_layer=True, words=("sqrt", "scal"), kind="constant"),
    U("decode_with_cache", _decode(attend="(at.masked_softmax(at.split_heads(attn.W_q(h), H) @ at.split_heads(k, H)"
                                          ".transpose(-1, -2) / h.shape[-1] ** 0.5, None) @ at.split_heads(v, H), None)"),
      "test_decode_with_cache", "sqrt(D) instead of sqrt(Dh)", needs_layer=True, words=("sqrt(D", "√D", "scal"), kind="constant"),
    U("decode_with_cache", _decode(attend="at.scaled_dot_product_attention(attn.W_q(h), k, v)"),
      "test_decode_with_cache", "heads never split", needs_layer=True, words=("split", "one head"), kind="heads"),
    U("decode_with_cache", '''
def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        prefix = torch.full((src.shape[0], 1), BOS, dtype=torch.long)
        logits = []
        for t in range(max_len):
            X = model.embed_target(prefix, offset=0)
            for layer in model.decoder_layers:
                X, _, _ = layer(X, memory, src_mask)
            step = model.out(model.decoder_norm(X))[:, -1]
            logits.append(step)
            prefix = torch.cat([prefix, step.argmax(dim=-1, keepdim=True)], dim=1)
        return prefix[:, 1:], torch.stack(logits, dim=1)
''', ("test_decode_with_cache", "test_decode_with_cache_positions"), "no cache: the whole prefix recomputed",
      words=("cache", "recomput"), kind="mechanism"),
    U("decode_with_cache", _decode().replace("for t in range(max_len):", "for t in range(max_len - 1):"),
      "test_decode_with_cache", "one step short", needs_layer=True, words=("max_len", "has shape", "steps"), kind="off-by-one"),
]
