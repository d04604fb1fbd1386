NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = "Keeps one key-value cache shared by every decoder layer instead of one per layer, so each layer attends to the other layers' keys and values too."
NAMED_IF = r"shar|one cache|single cache|per layer|each layer|every layer|all (the )?layers|own cache|layer'?s cache"
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        cross_mask = src_mask[:, None, None, :]
        token = torch.full((B, 1), BOS, dtype=torch.long)
        K_cache, V_cache = None, None
        all_tokens, all_logits = [], []
        for t in range(max_len):
            x = model.embed_target(token, offset=t)
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                k, v = attn.W_k(h), attn.W_v(h)
                K_cache = k if K_cache is None else torch.cat([K_cache, k], dim=1)
                V_cache = v if V_cache is None else torch.cat([V_cache, v], dim=1)
                K, V = K_cache, V_cache
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
