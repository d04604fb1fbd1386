NOTEBOOK = "09_transformer"
CELL = "decode_with_cache"
MISTAKE = "Embeds the token of step t at position offset t+1 instead of t, so every position vector is shifted by one (BOS should be at position 0)."
NAMED_IF = r"offset|position|off[- ]by[- ]one|shift"
CODE = '''
def decode_with_cache(model, src, src_mask, max_len):
    """Greedy decoding with a key-value cache, for exactly max_len steps."""
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        cross_mask = None if src_mask is None else src_mask[:, None, None, :]
        caches = [None] * len(model.decoder_layers)
        prev = torch.full((B, 1), BOS, dtype=torch.long, device=src.device)
        tokens, all_logits = [], []
        for t in range(max_len):
            x = model.embed_target(prev, t + 1)                         # (B, 1, D)
            for n, layer in enumerate(model.decoder_layers):
                sa = layer.self_attn
                H = sa.num_heads
                h = layer.norm1(x)
                q = at.split_heads(sa.W_q(h), H)
                k = at.split_heads(sa.W_k(h), H)
                v = at.split_heads(sa.W_v(h), H)
                if caches[n] is not None:
                    k = torch.cat([caches[n][0], k], dim=2)
                    v = torch.cat([caches[n][1], v], dim=2)
                caches[n] = (k, v)
                o, _ = at.scaled_dot_product_attention(q, k, v)
                x = x + sa.W_o(at.merge_heads(o))
                z, _ = layer.cross_attn(layer.norm2(x), memory, cross_mask)
                x = x + z
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            logits = model.out(model.decoder_norm(x))[:, -1]           # (B, V)
            nxt = logits.argmax(dim=-1)
            tokens.append(nxt)
            all_logits.append(logits)
            prev = nxt[:, None]
        return torch.stack(tokens, dim=1), torch.stack(all_logits, dim=1)
'''
