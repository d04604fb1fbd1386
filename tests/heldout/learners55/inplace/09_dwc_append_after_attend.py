NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = "Appends the new key and value to the cache after attending, so the new token's query does not see its own key and value (and the first step attends over nothing)."
NAMED_IF = r"before attend|own (key|token|position)|itself|current (token|position)|append\w* after|\border|newest|empty cache|nan"
CODE = '''def decode_with_cache(model, src, src_mask, max_len):
    with torch.no_grad():
        memory = model.encode(src, src_mask)
        B = src.shape[0]
        tok = torch.full((B, 1), BOS, dtype=torch.long)
        mm = None if src_mask is None else src_mask[:, None, None, :]
        cache_k = [[] for _ in model.decoder_layers]
        cache_v = [[] for _ in model.decoder_layers]
        toks, all_logits = [], []
        for t in range(max_len):
            x = model.embed_target(tok, t)
            for i, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                if cache_k[i]:
                    K = at.split_heads(torch.cat(cache_k[i], dim=1), H)
                    V = at.split_heads(torch.cat(cache_v[i], dim=1), H)
                    Z, _ = at.scaled_dot_product_attention(at.split_heads(attn.W_q(h), H), K, V)
                    x = x + attn.W_o(at.merge_heads(Z))
                cache_k[i].append(attn.W_k(h)); cache_v[i].append(attn.W_v(h))
                Z, _ = layer.cross_attn(layer.norm2(x), memory, mm)
                x = x + Z
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            logits = model.out(model.decoder_norm(x))[:, 0]
            tok = logits.argmax(-1, keepdim=True)
            toks.append(tok[:, 0]); all_logits.append(logits)
        return torch.stack(toks, 1), torch.stack(all_logits, 1)
'''
