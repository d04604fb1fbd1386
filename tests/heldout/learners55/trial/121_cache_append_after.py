NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = 'Attends over the cache of the earlier tokens only and appends the current key and value afterwards, so a token does not see itself (except at step 0).'
NAMED_IF = 'before|itself|append|current (token|key)|present|own key|cache'
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        n = len(model.decoder_layers)
        D = memory.shape[-1]
        cache_k = [memory.new_zeros(B, 0, D) for _ in range(n)]
        cache_v = [memory.new_zeros(B, 0, D) for _ in range(n)]
        tok = torch.full((B, 1), BOS, dtype=torch.long)
        toks, logits_all = [], []
        for t in range(max_len):
            x = model.embed_target(tok, offset=t)
            for li, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                K = at.split_heads(torch.cat([cache_k[li], attn.W_k(h)], dim=1)[:, :-1], H) if cache_k[li].shape[1] else at.split_heads(attn.W_k(h), H)
                V = at.split_heads(torch.cat([cache_v[li], attn.W_v(h)], dim=1)[:, :-1], H) if cache_v[li].shape[1] else at.split_heads(attn.W_v(h), H)
                cache_k[li] = torch.cat([cache_k[li], attn.W_k(h)], dim=1)
                cache_v[li] = torch.cat([cache_v[li], attn.W_v(h)], dim=1)
                Q = at.split_heads(attn.W_q(h), H)
                Z, _ = at.scaled_dot_product_attention(Q, K, V)
                x = x + attn.W_o(at.merge_heads(Z))
                c, _ = layer.cross_attn(layer.norm2(x), memory, src_mask[:, None, None, :])
                x = x + c
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            lg = model.out(model.decoder_norm(x))[:, 0]
            logits_all.append(lg)
            tok = lg.argmax(dim=-1, keepdim=True)
            toks.append(tok[:, 0])
        return torch.stack(toks, 1), torch.stack(logits_all, 1)
'''
