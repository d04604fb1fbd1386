NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = "Folds 1/sqrt(Dh) into W_q's parameters in place inside forward (self.W_q.weight.mul_), on top of the attention's own scale: the weights shrink at every call and the scores are scaled twice."
NAMED_IF = r"param|weights? (change|changed|modified|shrink)|in.place|modif|twice|double|W_q|mutat|scale"
CODE = '''class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        dh = X_q.shape[-1] // H
        with torch.no_grad():
            self.W_q.weight.mul_(dh ** -0.5)
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        Z, A = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), A
'''
