NOTEBOOK = "07_rnn_translation_with_attention"
CELL = "greedy_decode"
MISTAKE = "Updates the finished flags before masking the step's tokens, so each sentence's EOS is itself replaced by PAD (and its weights zeroed) instead of being kept."
NAMED_IF = r"EOS.{0,60}(kept|keep|replac|PAD|missing|lost)|(kept|keep).{0,30}EOS"
CODE = '''
def greedy_decode(model, src, src_mask, max_len):
    """Translate a batch greedily."""
    with torch.no_grad():
        encoder_outputs, hidden = model.encode(src, src_mask)
        B = src.shape[0]
        prev = torch.full((B,), BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        tokens, all_weights = [], []
        for _ in range(max_len):
            logits, hidden, weights = model.decoder.step(prev, hidden, encoder_outputs, src_mask)
            tok = logits.argmax(dim=-1)
            done = done | (tok == EOS)
            tok = torch.where(done, torch.full_like(tok, PAD), tok)
            weights = torch.where(done.unsqueeze(-1), torch.zeros_like(weights), weights)
            tokens.append(tok)
            all_weights.append(weights)
            prev = tok
            if bool(done.all()):
                break
        return torch.stack(tokens, dim=1), torch.stack(all_weights, dim=1)
'''
