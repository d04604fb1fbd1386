NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = 'attends over the cache as it was before appending the current token (the token does not see itself; the first step has nothing)'
NAMED_IF = 'before|append|current (token|step)|cache|itself|own|nan|empty'
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    """Greedy decoding with a key-value cache, for exactly max_len steps."""
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        mm = src_mask[:, None, None, :]
        cur = torch.full((B, 1), BOS, dtype=torch.long)
        caches = [[None, None] for _ in model.decoder_layers]
        toks, logs = [], []
        for t in range(max_len):
            x = model.embed_target(cur, offset=t)
            for layer, cache in zip(model.decoder_layers, caches):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                k_new, v_new = attn.W_k(h), attn.W_v(h)
                KS = k_new if cache[0] is None else torch.cat([cache[0], k_new], dim=1)
                VS = v_new if cache[1] is None else torch.cat([cache[1], v_new], dim=1)
                KA, VA = KS, VS
                KA, VA = (KS, VS) if cache[0] is None else (cache[0], cache[1])
                cache[0], cache[1] = KS, VS
                Z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H),
                                                       at.split_heads(KA, H), at.split_heads(VA, H))
                x = x + attn.W_o(at.merge_heads(Z))
                c, _ = layer.cross_attn(layer.norm2(x), memory, mm)
                x = x + c
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            logits = model.out(model.decoder_norm(x))[:, 0]
            cur = logits.argmax(dim=-1, keepdim=True)
            toks.append(cur[:, 0]); logs.append(logits)
        return torch.stack(toks, dim=1), torch.stack(logs, dim=1)
'''
