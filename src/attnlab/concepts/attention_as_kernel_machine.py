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
         stem="Nadaraya-Watson regression predicts y at several query points from pairs (x_i, y_i) and a Gaussian kernel. As attention, what are its weights?",
         options=[
             ("The kernel values, not normalised at all", "nadaraya_watson: a kernel-weighted sum instead of an average (weights not normalised)"),
             ("The kernel values, normalised over the query points", "nadaraya_watson: weights normalised over the queries (axis 0) instead of over the keys"),
             ("The kernel values, normalised over the data points", None),
         ]),
    dict(id="q2", concept="nadaraya-watson",
         stem="Which exponent gives the Gaussian kernel of bandwidth σ between a query x and a key x_i?",
         options=[
             ("−|x − x_i| / σ²", "gaussian_attention_weights: distances not squared (|x_q - x_k| instead of (x_q - x_k)²)"),
             ("−(x − x_i)² / σ²", "gaussian_attention_weights: the factor 2 missing from the exponent: exp(-d²/σ²) instead of exp(-d²/(2σ²))"),
             ("−|x − x_i| / (2σ²)", "gaussian_attention_weights: distances not squared (|x_q - x_k| instead of (x_q - x_k)²)"),
             ("−(x − x_i)² / (2σ²)", None),
         ]),
    dict(id="q3", concept="bandwidth",
         stem="The bandwidth is chosen by leave-one-out error. When point i is predicted, what happens to point i itself?",
         options=[
             ("It stays in: every point is a key for every query", "fit_bandwidth: no leave-one-out: each point also attends to itself"),
             ("Its weight is set to zero; the rest keep their values", "fit_bandwidth: own weight removed but the other weights not renormalised"),
             ("Its weight is set to zero; the rest sum to one again", None),
         ]),
    dict(id="q4", concept="kernel-ridge",
         stem="Kernel ridge regression with kernel matrix K, targets y and regularisation λ: which coefficients does it fit?",
         options=[
             ("α = (K + λ I)⁻¹ y", None),
             ("α = (K + λ)⁻¹ y", "kernel_ridge_fit: reg added to every entry of K (K + reg) instead of to its diagonal"),
             ("α = K⁻¹ y + λ y", "kernel_ridge_fit: reg added outside the inverse (K⁻¹ y + reg y)"),
             ("α = ((1 + λ) K)⁻¹ y", "kernel_ridge_fit: the kernel matrix scaled by (1 + reg) instead of shifted by reg I"),
         ]),
    dict(id="q5", concept="conv-rnn",
         stem="One attention layer over L tokens spreads its weight evenly. As L grows, what happens to the gradient reaching the first token's value?",
         options=[
             ("It shrinks like 1/L", None),
             ("It shrinks exponentially in L", "prediction_gradient_decay: attention decays like a recurrence"),
             ("It stays the same: one step from the output", "prediction_gradient_decay: a path of length 1 loses nothing"),
         ]),
    dict(id="q6", concept="linear",
         stem="Linear attention replaces exp(q·k) by φ(q)·φ(k). What makes its cost grow only linearly with the sequence length?",
         options=[
             ("The L × L weights φ(q)·φ(k) cost less than exp(q·k)", "linear_attention: the (Lq, Lk) kernel matrix φ(Q)φ(K)ᵀ built: quadratic memory, not linear attention"),
             ("The sums Σ φ(k) vᵀ and Σ φ(k) are shared by all queries", None),
             ("The division by the sum of the weights is dropped", "linear_attention: no normaliser (φ(Q)(φ(K)ᵀV) not divided by φ(Q)Σφ(K))"),
         ]),
    dict(id="q7", concept="linear",
         stem="Causal linear attention as a recurrence keeps a state S. What happens at step t?",
         options=[
             ("S = φ(k_t) v_tᵀ replaces the state, then φ(q_t) reads it", "linear_attention_recurrent: state overwritten instead of accumulated (S_t = φ(k_t) v_tᵀ)"),
             ("φ(q_t) reads S, then S += φ(k_t) v_tᵀ", "linear_attention_recurrent: state updated after the readout (token t does not see itself; 0/0 at t = 0)"),
             ("S += φ(k_t) v_tᵀ, then φ(q_t) reads S", None),
         ]),
]
