NOTEBOOK = '09_transformer'
CELL = 'decode_with_cache'
MISTAKE = "Embeds every step's token with offset 0, so every step gets the positional vector of position 0 instead of position t."
NAMED_IF = 'position|offset|embed_target|positional'
CODE = '''\
def decode_with_cache(model, src, src_mask, max_len):
    """Greedy decoding with a key-value cache, for exactly max_len steps."""
    with torch.no_grad():
        memory = model.encode(src, src_mask)                       # (B, Ls, D)
        B = src.shape[0]
        cross_mask = src_mask[:, None, None, :]                    # (B, 1, 1, Ls)
        n_layers = len(model.decoder_layers)
        k_cache = [None] * n_layers
        v_cache = [None] * n_layers
        token = torch.full((B, 1), BOS, dtype=torch.long)
        tokens, logits_all = [], []
        for t in range(max_len):
            x = model.embed_target(token, 0)                       # (B, 1, D)
            for li, layer in enumerate(model.decoder_layers):
                attn = layer.self_attn
                H = attn.num_heads
                h = layer.norm1(x)
                k, v = attn.W_k(h), attn.W_v(h)
                k_cache[li] = k if k_cache[li] is None else torch.cat([k_cache[li], k], dim=1)
                v_cache[li] = v if v_cache[li] is None else torch.cat([v_cache[li], v], dim=1)
                q = attn.W_q(h)
                o, _ = at.scaled_dot_product_attention(
                    at.split_heads(q, H), at.split_heads(k_cache[li], H), at.split_heads(v_cache[li], H))
                x = x + attn.W_o(at.merge_heads(o))
                c, _ = layer.cross_attn(layer.norm2(x), memory, cross_mask)
                x = x + c
                x = x + layer.linear2(torch.relu(layer.linear1(layer.norm3(x))))
            logits = model.out(model.decoder_norm(x))[:, 0]        # (B, V)
            token = logits.argmax(dim=-1, keepdim=True)            # (B, 1)
            tokens.append(token[:, 0])
            logits_all.append(logits)
        return torch.stack(tokens, dim=1), torch.stack(logits_all, dim=1)
'''
