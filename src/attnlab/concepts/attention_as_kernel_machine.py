"""Concept check of notebook 06 (attention as a kernel machine): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "06_attention_as_kernel_machine"

CONCEPTS = {
    "nadaraya-watson": ("Nadaraya-Watson", "1. Regression is attention pooling"),
    "bandwidth": ("learning the bandwidth", "2. Choosing the width: leave one out"),
    "kernel-ridge": ("kernel ridge", "4. Kernel machines: ridge regression and the SVM"),
    "conv-rnn": ("convolution and RNNs", "6. Attention against convolution and against recurrence"),
    "linear": ("linearised attention", "7. Linearised attention: a feature map instead of the softmax"),
}

QUESTIONS = [
    dict(id="q1", concept="nadaraya-watson",
         stem="Nadaraya-Watson regression predicts y at a query point from pairs (x_i, y_i) and a Gaussian kernel. As attention, what are its weights?",
         options=[
             ("The kernel values, used as they are", "nadaraya_watson: a kernel-weighted sum instead of an average (weights not normalised)"),
             ("The kernel values over the data points, divided by their sum", None),
             ("The kernel values divided by their sum over the query points", "nadaraya_watson: weights normalised over the queries (axis 0) instead of over the keys"),
         ]),
    dict(id="q2", concept="nadaraya-watson",
         stem="Which exponent gives the Gaussian kernel of bandwidth σ between a query x and a key x_i?",
         options=[
             ("−(x − x_i)² / σ²", "gaussian_attention_weights: the factor 2 missing from the exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))"),
             ("−(x − x_i)² / (2σ)", "gaussian_attention_weights: σ not squared (dividing by 2σ instead of 2σ²)"),
             ("−(x − x_i)² / (2σ²)", None),
             ("−|x − x_i| / (2σ²)", "gaussian_attention_weights: distances not squared (|x_q - x_k| instead of (x_q - x_k)²)"),
         ]),
    dict(id="q3", concept="bandwidth",
         stem="The bandwidth is chosen by leave-one-out error. When point i is predicted, what happens to point i itself?",
         options=[
             ("It stays among the keys, as every point does", "fit_bandwidth: no leave-one-out: each point also attends to itself"),
             ("Its weight is zeroed; the other weights stay as they were", "fit_bandwidth: own weight removed but the other weights not renormalised"),
             ("It is dropped before the weights are normalised", None),
         ]),
    dict(id="q4", concept="kernel-ridge",
         stem="Kernel ridge regression with kernel matrix K, targets y and regularisation λ: which coefficients does it fit?",
         options=[
             ("α = K⁻¹ y", "kernel_ridge_fit: no regularisation (reg is ignored)"),
             ("α = (K + λ I)⁻¹ y", None),
             ("α = (K + λ)⁻¹ y, λ added to every entry", "kernel_ridge_fit: reg added to every entry of K (K + reg) instead of to its diagonal"),
             ("α = (A + λ I)⁻¹ y, A the kernel's softmax-normalised rows", "kernel_ridge_fit: a softmax-normalised kernel (attention weights) instead of the raw Gaussian kernel"),
         ]),
    dict(id="q5", concept="conv-rnn",
         stem="One attention layer spreads its weight evenly over L tokens. How does the gradient reaching the first token's value shrink as L grows?",
         options=[
             ("Exponentially in L", "prediction_gradient_decay: attention decays like a recurrence"),
             ("Like 1/L", None),
             ("It does not: each token is one step from the output", "prediction_gradient_decay: a path of length 1 loses nothing"),
         ]),
    dict(id="q6", concept="linear",
         stem="Linear attention replaces exp(q·k) by φ(q)·φ(k). What makes its cost grow only linearly with the sequence length?",
         options=[
             ("φ is cheaper than exp; the L x L weights are still formed", "linear_attention: the (Lq, Lk) kernel matrix φ(Q)φ(K)ᵀ built: quadratic memory, not linear attention"),
             ("It drops the division by the weights' sum", "linear_attention: no normaliser (φ(Q)(φ(K)ᵀV) not divided by φ(Q)Σφ(K))"),
             ("Σ φ(k) vᵀ and Σ φ(k) are formed once for all queries", None),
         ]),
    dict(id="q7", concept="linear",
         stem="Causal linear attention as a recurrence keeps a state S. What happens at step t?",
         options=[
             ("S = φ(k_t) v_tᵀ replaces the state, then φ(q_t) reads it", "linear_attention_recurrent: state overwritten instead of accumulated (S_t = φ(k_t) v_tᵀ)"),
             ("φ(q_t) reads S, then S += φ(k_t) v_tᵀ", "linear_attention_recurrent: state updated after the readout (token t does not see itself; 0/0 at t = 0)"),
             ("S += φ(k_t) v_tᵀ, then φ(q_t) reads S", None),
         ]),
]
