NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = 'Passes a causal mask to every cached step out of SDPA is_causal habit; built for one query against the cache it is top-left aligned, so the new token only sees the first position.'
NAMED_IF = 'causal|top[- ]left|bottom[- ]right|align|only (the )?(first|key 0|position 0)'
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        tok = torch.full((B, 1), BOS, dtype=torch.long)
        n = len(model.decoder_layers)
        cache_k, cache_v = [None] * n, [None] * n
        mm = src_mask[:, None, None, :]
        tokens, logits = [], []
        for t in range(max_len):
            x = model.embed_target(tok, t)                     # (B, 1, D)
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                k, v = attn.W_k(h), attn.W_v(h)
                cache_k[i] = k if cache_k[i] is None else torch.cat([cache_k[i], k], dim=1)
                cache_v[i] = v if cache_v[i] is None else torch.cat([cache_v[i], v], dim=1)
                q = at.split_heads(attn.W_q(h), H)
                K = at.split_heads(cache_k[i], H)
                V = at.split_heads(cache_v[i], H)
                causal = at.causal_mask(1, K.shape[-2])
                o, _ = at.scaled_dot_product_attention(q, K, V, causal)
                x = x + attn.W_o(at.merge_heads(o))
                c, _ = layer.cross_attn(layer.norm2(x), memory, mm)
                x = x + c
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            lg = model.out(model.decoder_norm(x))[:, 0]
            logits.append(lg)
            nxt = lg.argmax(dim=-1)
            tokens.append(nxt)
            tok = nxt[:, None]
        return torch.stack(tokens, dim=1), torch.stack(logits, dim=1)
'''
