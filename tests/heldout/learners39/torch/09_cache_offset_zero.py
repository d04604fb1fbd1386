NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = "Embeds every new token at position 0 (embed_target without the step's offset), so the cached decoder never sees the right positional vectors."
NAMED_IF = r"offset|position"
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        cross_mask = src_mask[:, None, None, :]
        token = torch.full((B, 1), BOS, dtype=torch.long)
        cache_k = [None] * len(model.decoder_layers)
        cache_v = [None] * len(model.decoder_layers)
        all_tokens, all_logits = [], []
        for t in range(max_len):
            x = model.embed_target(token, 0)
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                k, v = attn.W_k(h), attn.W_v(h)
                cache_k[i] = k if cache_k[i] is None else torch.cat([cache_k[i], k], dim=1)
                cache_v[i] = v if cache_v[i] is None else torch.cat([cache_v[i], v], dim=1)
                K, V = cache_k[i], cache_v[i]
                q = at.split_heads(attn.W_q(h), H)
                o, _ = at.scaled_dot_product_attention(q, at.split_heads(K, H), at.split_heads(V, H))
                x = x + attn.W_o(at.merge_heads(o))
                c, _ = layer.cross_attn(layer.norm2(x), memory, cross_mask)
                x = x + c
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            logits = model.out(model.decoder_norm(x))[:, 0]
            token = logits.argmax(-1, keepdim=True)
            all_logits.append(logits)
            all_tokens.append(token[:, 0])
        return torch.stack(all_tokens, 1), torch.stack(all_logits, 1)
'''
