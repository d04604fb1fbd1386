"""The principle-level fix of every catalogued mistake, by the mistake's name.

What a failing check says after naming the mistake: which quantity, which axis, which shape,
without code to paste (the code-level ``Mistake.fix`` comes only on request). A mistake may also
pass ``principle=`` itself; ``tests/test_checks_core.py`` requires one for every mistake.
"""

PRINCIPLES: dict[str, str] = {
    'the query length used for the keys too (code that assumes Lq == Lk)':
        'Queries and keys may have different lengths: read each length from its own sequence.',
    'a mask with an axis added in the wrong place (`mask.unsqueeze(1)` / `mask[:, None]`)':
        'A mask lines up with the scores from the right (keys last, queries before them): add no axis that shifts them.',
    'dividing by N (a mean of the weighted rows)':
        'Weights on the simplex already sum to one: the weighted sum is the average, with no further division.',
    'weighting the rows but not summing them':
        'The answer is one vector of width D: after weighting each row, add the rows up.',
    'contracting over the feature axis instead of the rows (`values @ weights`)':
        'Weight i belongs to row i: contract the weights with the row axis of `values`, not the feature axis.',
    'ignoring the weights (a plain mean)':
        'Each row must count in proportion to its weight.',
    'accepting weights that are not on the simplex':
        'Validate the input: weights must be non-negative and sum to one, else raise ValueError.',
    'silently repairing weights that are not on the simplex':
        "Bad weights are the caller's bug: reject them with ValueError instead of rescaling.",
    'a softmax over axis 0 instead of the `axis` argument':
        'Both the max and the sum must run along the axis the caller asks for, keeping that axis for broadcasting.',
    'ignoring the `axis` argument (always the last axis)':
        'Normalise along the `axis` argument, not always the last axis.',
    'no max subtraction: exp overflows for large logits (inf / inf = NaN)':
        'Shift each slice by its own maximum before exponentiating; the shift cancels in the ratio.',
    "subtracting the maximum of the whole array instead of each row's maximum":
        "The shift must be per slice along `axis` (each row's own maximum), not one number for the whole array.",
    'normalising by the sum of the whole array':
        'Each slice along `axis` must sum to one on its own: sum along that axis only.',
    'a sum without `keepdims=True` (it broadcasts against the wrong axis)':
        'The sum must keep the reduced axis (size 1) so that it lines up with the slice it divides.',
    'no exponential (dividing the scores by their sum)':
        'Scores become positive weights through the exponential before normalising.',
    'no normalisation (the exponentials do not sum to one)':
        'After exponentiating, divide by the sum along `axis` so that each slice sums to one.',
    'a softmax over the columns (axis 0) of X Xᵀ':
        'Each query (row) distributes its weight over the tokens: normalise every row of X Xᵀ, i.e. over the last axis.',
    'no softmax: X Xᵀ X':
        'Similarities must become weights on the simplex before they mix the tokens.',
    'scaling the scores by √D':
        'This exercise is the unscaled form: no division of the scores.',
    'mixing features instead of tokens (Xᵀ X)':
        'The weights compare tokens with tokens, an (L, L) matrix, which then mixes the rows of X.',
    'returning the attention weights instead of the mixed tokens':
        'The output is the weighted mix of the tokens, shape (L, D), not the (L, L) weights.',
    '`X.T` on a batch: it reverses every axis':
        'Transpose only the last two axes, so that leading batch axes stay where they are.',
    'one softmax over the whole matrix instead of one per row':
        'Normalise each row of the score matrix separately.',
    'a matrix product over the wrong axis (e.g. `q @ K` or `V @ weights`)':
        "Contract over the shared axis: the query with each key's Dk features, the weights with the Lk rows of V.",
    'no scaling: softmax(K q) instead of softmax(K q / √Dk)':
        'Scores are divided by √Dk, the square root of the query/key width.',
    'scaling by Dk instead of √Dk':
        'The scale is the square root of Dk, not Dk itself.',
    'scaling by √Dv (the value width) instead of √Dk':
        'The scale comes from the width of the dot product, the query/key width Dk, not the value width.',
    'scaling by √Lk (the number of keys) instead of √Dk':
        'The scale comes from the width of the dot product (Dk), not from the number of keys.',
    'returning (weights, output) instead of (output, weights)':
        'The contract returns the output first, then the weights.',
    'averaging the keys instead of the values':
        'Keys decide the weights; the weights then average the values.',
    'no softmax: the raw scores used as weights':
        'Scores must go through a softmax over the keys to become weights.',
    'exponentials that are not normalised (no division by their sum)':
        'Exponentials must be divided by their sum over the keys.',
    'a softmax without max subtraction: exp overflows for large scores (inf / inf = NaN)':
        'Subtract the maximum score before exponentiating; it cancels in the ratio.',
    'a hard lookup (one-hot weights at the best key)':
        'Soft lookup: every key gets a softmax weight, not only the best one.',
    'a variance near 1 instead of d_k: the variance of single coordinates (of q, or of the products q_i k_i), or of the scaled score q·k/√d_k':
        'Estimate the variance of the whole unscaled dot product q·k, a sum of d_k products.',
    'the standard deviation instead of the variance':
        'The quantity asked for is the variance (the square of the spread).',
    'the mean of the dot products instead of their variance':
        'Return the spread of the samples around their mean, not the mean.',
    'the variance of q·q instead of q·k':
        'Query and key are independent draws: use two separate samples.',
    'uniform samples (`rng.random`) instead of standard-normal ones':
        'The entries of q and k are standard normal.',
    'returning the n_samples dot products instead of their variance':
        'Reduce the samples to one number, their variance.',
    'samples and dimensions swapped (a sum over n_samples instead of over d_k)':
        'Each dot product sums over the d_k coordinates; the samples are the other axis.',
    "a fixed number (the theory's d_k) instead of an estimate from samples":
        'The function must measure: draw samples and estimate, do not return the theory.',
    "drawing from numpy's global random state (`np.random.randn`, `np.random.normal`) instead of the `rng` argument":
        'All randomness must come from the generator you are given.',
    'a generator of your own (e.g. `np.random.default_rng(0)`) instead of the `rng` argument':
        'All randomness must come from the generator you are given.',
    '`K.T` on a batch: it reverses every axis, not just the last two':
        'Transpose only the last two axes, so that leading batch axes stay where they are.',
    'no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)':
        'Scores are divided by √Dk before the softmax.',
    'a softmax over the queries (axis -2) instead of over the keys':
        "Each query's weights over the keys sum to one: normalise over the last axis.",
    'a softmax over axis 0 (the batch axis when there is a batch)':
        'Normalise over the keys, the last axis, whatever the leading dimensions.',
    'the mask is ignored':
        'Masked-out keys must get weight exactly zero.',
    'the mask is inverted (True treated as blocked)':
        'True means "may attend": keep the scores where the mask is True.',
    'the mask applied after the softmax (weights * mask) without renormalising':
        'Block the scores before the softmax so the remaining weights still sum to one.',
    'masked scores set to 0 instead of -inf (masked keys still get weight)':
        'A masked score must contribute nothing after the exponential, not e⁰ = 1.',
    'a fully masked row becomes NaN: with every score -inf, the softmax computes -inf - (-inf) and 0 / 0':
        'A row with no allowed key needs its own rule: all-zero weights (and output), never 0/0.',
    'masked scores filled with a large negative number (e.g. -1e9): a fully masked row gets uniform weights instead of zeros':
        'A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.',
    '`K.T` (or `X.T`) on a batch: it reverses every axis, not just the last two':
        'Transpose only the last two axes, so that leading batch axes stay where they are.',
    'transposed weights (`X @ W_q.T`)':
        'Weights are (in, out) and multiply on the right of X, as they are.',
    'scaling by √D (the input width) instead of √Dk':
        'The scale comes from the query/key width Dk, not the input width D.',
    'a softmax over the wrong axis (over the queries, axis -2)':
        "Each query's weights over the keys sum to one: normalise over the last axis.",
    'a softmax over the wrong axis (axis=0, which is the batch axis for a batch)':
        'Normalise over the keys, the last axis, whatever the leading dimensions.',
    'no softmax: the scaled scores used as weights':
        'Scaled scores go through a softmax over the keys to become weights.',
    'X used as the values (no W_v)':
        'Values are their own projection of X.',
    'W_q used for the keys as well (Q Qᵀ)':
        "Keys have their own projection, distinct from the queries'.",
    'W_q and W_k swapped (queries from W_k, keys from W_q)':
        'Queries come from W_q, keys from W_k.',
    'returning (A, Z) instead of (Z, A)':
        'The contract returns the output Z first, then the weights A.',
    'ones prepended (the first column) instead of appended (the last)':
        'The column of ones goes after the features, as the last column.',
    '`np.hstack` / `axis=1`: right for one sequence (L, D), wrong for a batch (..., L, D)':
        'The new column belongs on the feature axis, the last axis, whatever the batch dimensions.',
    'a row of ones (a new token) instead of a column (a new feature)':
        'Ones are a new feature of every token (a column), not a new token (a row).',
    'a column of zeros instead of ones':
        'The bias trick needs a constant feature equal to one.',
    'adding 1 to every entry instead of appending a column of ones':
        'Append a new feature; the existing features stay unchanged.',
    'returning only the column of ones':
        'Return the features with the column of ones appended.',
    'b as the first row instead of the last':
        'The bias row pairs with the ones column, which is last: b is the last row.',
    'the result transposed: shape (M, D+1) instead of (D+1, M)':
        "Keep W's orientation (in, out): one extra input row, shape (D+1, M).",
    'b added to W instead of stacked under it':
        'The bias becomes one extra row of the weights, not an addition to every row.',
    'a flat array (`np.append` without an axis)':
        'Keep the result two-dimensional: stack b as a row.',
    'b appended as a column instead of a row':
        'The extra input (the ones feature) adds a row to an (in, out) matrix.',
    'a row of zeros (or ones) instead of b':
        'The extra row must hold the bias itself.',
    'a class that is not an nn.Module':
        'The class must be a torch module, initialised as one.',
    'the projections are not the nn.Linear attributes W_q, W_k, W_v':
        'The projections are linear layers stored under the names the stub gives.',
    'a projection of the wrong size':
        'Queries and keys map d_in to d_k; values map d_in to d_v.',
    'the `bias` argument not passed on to nn.Linear':
        "The constructor's bias setting must reach every projection.",
    'dropout left active in eval mode':
        'Randomness belongs to training only: after `.eval()` the forward pass must be deterministic.',
    'no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √d_k)':
        'Scores are divided by √d_k before the softmax.',
    'scaling by √d_in (the input width) instead of √d_k':
        'The scale comes from the query/key width d_k, not the input width.',
    'scaling by d_k instead of √d_k':
        'The scale is the square root of d_k, not d_k itself.',
    'scaling by √d_v instead of √d_k':
        'The scale comes from the query/key width d_k, not the value width.',
    'a softmax over the wrong axis (over the queries, dim=-2)':
        "Each query's weights over the keys sum to one: normalise over the last dimension.",
    'W_q used for the keys as well':
        "Keys have their own projection, distinct from the queries'.",
    'the mask applied after the softmax (A * mask) without renormalising':
        'Block the scores before the softmax so the remaining weights still sum to one.',
    'a fully masked row becomes NaN (masked_fill with -inf, then softmax)':
        'A row with no allowed key needs its own rule: all-zero weights, never 0/0.',
    'masked scores filled with a large negative number: a fully masked row gets uniform weights instead of zeros':
        'A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.',
    'a strict mask j < i: each query may not see its own position (the diagonal is masked)':
        'A query may attend to its own position: the diagonal is allowed.',
    'the transposed mask (the upper triangle: each query sees the future, not the past)':
        'Query i may see keys j <= i: the lower triangle, not the upper.',
    "the opposite convention, True = blocked (as nn.MultiheadAttention's attn_mask)":
        'The course\'s convention: True means "may attend".',
    'a bottom-right aligned mask (the last query sees every key) when Lq != Lk':
        'The mask is top-left aligned: query i sees keys 0..i, whatever Lk is.',
    'the shape (Lk, Lq) instead of (Lq, Lk)':
        'Rows are queries, columns are keys: shape (Lq, Lk).',
    'a square (Lq, Lq) mask that ignores Lk':
        'The mask has one column per key: its width is Lk, not Lq.',
    'j <= lengths[b]: one padding position too many is allowed':
        'A sequence of length n owns positions 0..n-1 only.',
    'the inverted mask (True on the padding)':
        'True marks the real tokens, which may be attended to; padding is False.',
    'the shape (Lk, B) instead of (B, Lk)':
        'One row per sequence: shape (B, Lk).',
    'the same mask for every sequence (using the longest length)':
        'Each sequence gets its own row, cut at its own length.',
    'one flat vector instead of one row per sequence':
        'Keep one row per sequence: a 2-D (B, Lk) mask.',
    'the mask applied after the softmax, without renormalising (rows no longer sum to 1)':
        'Block the scores before the softmax so the remaining weights still sum to one.',
    'the mask inverted (True treated as blocked)':
        'True means "may attend": keep the scores where the mask is True.',
    'filling masked scores with -inf: a fully masked row becomes 0/0 = NaN':
        'A row with no allowed key needs its own rule: all-zero weights, never 0/0.',
    'filling masked scores with a big negative number (-1e9): a fully masked row gets uniform weights instead of zeros':
        'A row with no allowed key must get zero weights, not a uniform spread; masked entries must be exactly zero.',
    'ignoring the mask':
        'Masked-out keys must get weight exactly zero.',
    'setting masked scores to 0 instead of -inf (a score of 0 still gets weight e^0)':
        'A masked score must contribute nothing after the exponential, not e⁰ = 1.',
    'boolean indexing `scores[~mask] = ...`, which fails when the mask only broadcasts':
        'The mask may be smaller than the scores and only broadcast: combine them with an operation that broadcasts.',
    '`X.T` on a batch: it reverses every axis, not just the last two':
        'Transpose only the last two axes, so that leading batch axes stay where they are.',
    'queries projected from X_kv instead of X_q':
        'Queries come from the query sequence X_q.',
    'keys and values taken from X_q (self-attention, X_kv unused)':
        'Keys and values come from the other sequence, X_kv.',
    'W_k used for the values':
        'Values have their own projection, W_v.',
    'scaling by √Dv instead of √Dk':
        'The scale comes from the query/key width Dk, not the value width.',
    'no scaling of the scores':
        'Scores are divided by the square root of the width of the dot product.',
    'scaling by √Dq (the width of X_q) instead of √Dk':
        'The scale comes from the projected width Dk, not the input width of X_q.',
    'a softmax over the queries (axis -2) instead of the keys':
        "Each query's weights over the keys sum to one: normalise over the last axis.",
    'returning only the output, not (output, weights)':
        'The contract returns a pair: the output and the weights.',
    'returning (weights, output) in the wrong order':
        'The contract returns the output first, then the weights.',
    'a reshape straight to (B, H, L, Dh), without the transpose':
        'A reshape keeps memory order, so cut the features into heads first, then move the head axis in front of the sequence.',
    'interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ...':
        'Head h owns a contiguous block of Dh columns.',
    'the heads cut but not moved in front of the sequence (shape (B, L, H, Dh))':
        'The head axis goes before the sequence axis: (B, H, L, Dh).',
    'the number of heads and the head width swapped (Dh heads of width H)':
        'There are num_heads heads, each of width D / num_heads.',
    'the sequence split into H pieces instead of the features':
        'Heads split the feature axis; every head sees the whole sequence.',
    'a transpose that moves the wrong axes (shape (B, H, Dh, L))':
        'Swap only the sequence and head axes: (B, H, L, Dh).',
    'a reshape straight to (B, L, H*Dh), without transposing back':
        "Move the head axis back behind the sequence before joining the heads' features.",
    "interleaved heads (head h's features land in columns h, h+H, ...)":
        "Head h's features go back to its contiguous block of columns.",
    'summing the heads instead of concatenating them':
        'Heads sit side by side in the features: concatenate, the width becomes H·Dh.',
    'averaging the heads instead of concatenating them':
        'Heads sit side by side in the features: concatenate, the width becomes H·Dh.',
    'the heads concatenated along the sequence axis (shape (B, H*L, Dh))':
        'Join the heads along the feature axis, not the sequence axis.',
    'transposed back but not reshaped (shape (B, L, H, Dh))':
        'After moving the heads back, fuse the head and feature axes into one.',
    'scaling by √D (the model width) instead of √(D/H) (the head width)':
        "Each head's dot product has Dh = D/H terms: the scale is √Dh.",
    'scaling by D/H instead of √(D/H)':
        'The scale is the square root of the head width.',
    'no output projection (W_o unused)':
        'After merging the heads, project with W_o.',
    'W_o transposed (`@ W_o.T`)':
        'Weights are (in, out) and multiply on the right, as they are.',
    'heads split without the transpose (a reshape straight to (B, H, L, Dh))':
        'Cut the features into heads, then move the head axis in front of the sequence.',
    'heads merged without transposing back (a reshape straight to (B, L, D))':
        'Move the head axis back behind the sequence before joining the heads.',
    'heads split and merged without the transposes (plain reshapes to (B, H, L, Dh) and back)':
        'A reshape alone cuts the sequence, not the features: move the head axis explicitly both ways.',
    'interleaved heads (columns h, h+H, ... instead of h*Dh:(h+1)*Dh)':
        'Head h owns a contiguous block of Dh columns.',
    'a softmax over the heads (axis 1) instead of the keys':
        "In every head, each query's weights over the keys sum to one: normalise over the last axis.",
    'one head of width D instead of H heads':
        'Split into num_heads heads and attend in each; the weights have a head axis.',
    'weights averaged over the heads, shape (B, Lq, Lk)':
        "Return every head's weights, with the head axis.",
    'the projections not stored as self.W_q, self.W_k, self.W_v, self.W_o (nn.Linear)':
        'The four projections are linear layers stored under the names the stub gives.',
    'projections that are not (d_model, d_model)':
        'Every projection maps d_model to d_model; heads are cut from its output.',
    "nn.Linear's default bias=True used although bias=False":
        "The constructor's bias setting must reach every projection.",
    'the `bias` argument ignored (no bias although bias=True)':
        "The constructor's bias setting must reach every projection.",
    'not an nn.Module':
        'The class must be a torch module, initialised as one.',
    '`X @ self.W_q.weight`: nn.Linear stores its weight as (out, in)':
        "A linear layer's weight is stored (out, in): let the layer apply itself, or transpose.",
    "the projections' biases left out (`X @ self.W_q.weight.T` without `+ self.W_q.bias`)":
        'A linear layer is weight and bias: apply both.',
    "W_v's rows instead of its columns for head h (`W_v[h*Dh:(h+1)*Dh].T`)":
        "Head h's values are a block of columns of X W_v, so take that block of W_v's columns.",
    "W_o's columns instead of its rows for head h":
        "Head h's slice of the concatenation meets a block of W_o's rows.",
    'the sum over heads, W_v @ W_o, instead of one matrix per head':
        'One (D, D) matrix per head, stacked; their sum is W_v W_o.',
    "each head's product transposed (W_o[h]ᵀ W_v[:, h]ᵀ)":
        'Multiply in the order the data flows: value projection first, then output projection.',
    'interleaved heads (columns h, h+H, ...)':
        'Head h owns a contiguous block of Dh columns (and rows).',
    'the heads stacked on the last axis, shape (D, D, H)':
        'The head axis comes first: (H, D, D).',
    'the same matrix for every head (W_v @ W_o / H)':
        "Each head has its own block of W_v's columns and W_o's rows.",
    'missing 1/2 in the exponent (exp(-d²/σ²))':
        'The Gaussian exponent is the squared distance over twice the squared bandwidth.',
    'σ not squared (dividing by 2σ instead of 2σ²)':
        "The bandwidth enters squared in the exponent's denominator.",
    'the bandwidth multiplies instead of divides (σ² d² / 2)':
        'A wider bandwidth must flatten the kernel: divide the squared distance by it.',
    'the bandwidth used as a precision γ (exp(-σ d²))':
        'The bandwidth is a length: it divides the squared distance (as 2σ²).',
    'distances not squared (|x_q - x_k| instead of (x_q - x_k)²)':
        'The Gaussian kernel uses the squared distance.',
    'normalising over the queries (axis 0) instead of over the keys':
        "Each query's weights over the keys sum to one: normalise along the keys' axis.",
    'no normalisation (the raw kernel exp(-d²/2σ²), not a softmax)':
        'Attention weights are the kernel values normalised over the keys.',
    'a plus sign in the exponent (far keys get the largest weights)':
        'Weights decay with distance: the exponent is negative.',
    'the weight matrix transposed (keys down the rows, shape (Lk, Lq))':
        'Rows are queries, columns are keys: shape (Lq, Lk).',
    'queries and keys swapped (shape (Lk, Lq))':
        'Rows are queries, columns are keys: shape (Lq, Lk).',
    'no max subtraction: exp underflows to 0/0 for a query far from every key':
        "Shift each query's exponents by their maximum before exponentiating; the shift cancels.",
    'a kernel-weighted sum instead of an average (weights not normalised)':
        'Nadaraya-Watson averages: the weights over the keys must sum to one.',
    'weights normalised over the queries (axis 0) instead of over the keys':
        "Each query's weights over the keys sum to one: normalise along the keys' axis.",
    'weighting the values without summing them (shape (Lq, Lk))':
        "Each query's prediction is one number: sum the weighted targets over the keys.",
    'returning the weights instead of the prediction':
        'Return one prediction per query, the weighted average of the targets.',
    'the plain mean of the targets (the weights are ignored)':
        'Each target must count in proportion to its weight.',
    'weights and values multiplied the wrong way round':
        "Contract the weights' key axis with the targets.",
    'missing 1/2 in the exponent':
        'The Gaussian exponent is the squared distance over twice the squared bandwidth.',
    'σ not squared':
        "The bandwidth enters squared in the exponent's denominator.",
    'returning the index of the best candidate instead of the candidate':
        'Return the bandwidth value itself, not its position.',
    'returning the lowest error instead of the candidate that achieves it':
        'Return the candidate that achieves the lowest error, not the error.',
    'no leave-one-out: each point also attends to itself':
        'Leave-one-out: a point must not see its own target when it is predicted.',
    'own weight removed but the other weights not renormalised':
        "After removing a point's own weight, renormalise the others to sum to one.",
    'picking the candidate with the highest error (argmax instead of argmin)':
        'The best bandwidth has the lowest error.',
    'missing 1/2 in the exponent of the kernel':
        'The Gaussian exponent is the squared distance over twice the squared bandwidth.',
    'σ not squared in the kernel':
        "The bandwidth enters squared in the exponent's denominator.",
    'returning the first candidate (no search)':
        'Score every candidate and keep the best.',
    'no regularisation (reg is ignored)':
        'The ridge adds reg to the diagonal of K before solving.',
    'reg added outside the inverse (K⁻¹ y + reg y)':
        'The ridge shifts the matrix being inverted, not the result.',
    'reg added to every entry of K (K + reg) instead of to its diagonal':
        'The ridge is reg times the identity: the diagonal only.',
    'the kernel matrix scaled by (1 + reg) instead of shifted by reg I':
        'The ridge adds reg to the diagonal; it does not scale K.',
    'a softmax-normalised kernel (attention weights) instead of the raw Gaussian kernel':
        'Kernel ridge uses the raw Gaussian kernel, not weights normalised over the keys.',
    'distances not squared (a Laplacian kernel)':
        'The Gaussian kernel uses the squared distance.',
    'returning the fitted values K alpha instead of the coefficients alpha':
        'Fitting returns the coefficients alpha; predicting multiplies by the kernel later.',
    'K(x_train, x_query) used without transposing it (shape (N, Lq))':
        'One row per query: the kernel between queries and training points is (Lq, N).',
    'attention weights (a softmax-normalised kernel) instead of the raw kernel':
        'Kernel ridge uses the raw Gaussian kernel, not weights normalised over the keys.',
    'alpha ignored (a sum of kernel values)':
        "Each training point's kernel value is weighted by its coefficient alpha.",
    'returning the kernel matrix instead of the predictions':
        'Return one prediction per query: the kernel times alpha.',
    'no normaliser (φ(Q)(φ(K)ᵀV) not divided by φ(Q)Σφ(K))':
        "Linear attention divides by each query's total feature-space similarity to the keys.",
    'feature map not applied to the queries':
        'Queries and keys both go through the feature map.',
    'feature map not applied to the keys':
        'Queries and keys both go through the feature map.',
    'normaliser without the feature map (Q ΣK instead of φ(Q) Σφ(K))':
        'The normaliser uses the same mapped queries and keys as the numerator.',
    'feature map applied to the values too':
        'Only queries and keys are mapped; values stay as they are.',
    'normalising over the queries instead of over the keys':
        "Each query's weights over the keys sum to one: the normaliser sums over the keys.",
    'softmax attention exp(q·k) instead of the feature map':
        'The point of linear attention: similarities come from the feature map, no exponential.',
    '`.T` on a batch: it reverses every axis':
        'Transpose only the last two axes, so that leading batch axes stay where they are.',
    'causal ignored: every query sees every key':
        'With causal=True, query i sums over keys 0..i only (prefix sums).',
    'prefix sum off by one: the current token is left out':
        'The prefix for query i includes key i itself.',
    'causal mask applied after normalising over all keys':
        'Both numerator and normaliser must be prefix sums over the past keys.',
    'the future instead of the past (keys j >= i)':
        'Causal means keys j <= i.',
    'state updated after the readout (token t does not see itself; 0/0 at t = 0)':
        'Add token t to the state before reading it out at step t.',
    'no normaliser (φ(q_t)ᵀS_t not divided by φ(q_t)ᵀz_t)':
        "The readout divides by the query's similarity to the running key sum.",
    'state overwritten instead of accumulated (S_t = φ(k_t) v_tᵀ)':
        'The state accumulates every past token: add, do not replace.',
    'normaliser without the feature map (z_t += k_t)':
        'The running key sum uses the mapped keys, like the state.',
    'feature map not applied to the query':
        'The query goes through the feature map before the readout.',
    'reading the final state (every token sees the whole sequence)':
        'Read out at step t from the state built from tokens 0..t only.',
    'returning only the last output':
        'Return one output per token, shape (L, Dv).',
    'the layers are not the attributes the stub creates':
        "Keep the stub's layers under their names: the check fills them with known weights.",
    'a layer of the wrong size':
        "Keep the layer sizes the stub's __init__ gives.",
    'a layer with a bias the stub does not have':
        'The score layers have no bias term, as in the stub.',
    'tanh missing: vᵀ(W_q q + W_k k) instead of vᵀ tanh(W_q q + W_k k)':
        'Additive attention passes the summed projections through tanh before v.',
    'v missing: the hidden units summed instead of weighted by v':
        "The score is v's weighted sum of the hidden units.",
    'the context averages the projected keys W_k k instead of the keys':
        'The weights average the keys themselves (the encoder outputs), not their projections.',
    'a softmax over the batch (dim=0) instead of over the keys':
        "Each query's weights over its keys sum to one: normalise over the key dimension.",
    'no softmax: the scores used as weights':
        'Scores go through a softmax over the keys to become weights.',
    'returning (weights, context) instead of (context, weights)':
        'The contract returns the context first, then the weights.',
    'the mask is inverted (True treated as padding)':
        'True marks real source tokens, which may be attended to.',
    'padding filled with a large negative number: a fully masked row gets uniform weights instead of zeros':
        'A row with no allowed key must get zero weights, not a uniform spread; handle it explicitly.',
    "scores scaled by √Dk (Luong's scores are not scaled)":
        "Luong's scores are plain dot products, unscaled.",
    'W applied to the query (qᵀ Wᵀ k) instead of the keys (qᵀ W k)':
        'In the general score the matrix transforms the keys, then meets the query.',
    "kind='general' computed as a plain dot product (W unused)":
        "The general score uses the learned matrix; only kind='dot' does without.",
    'the context averages W k instead of the keys':
        'The weights average the keys themselves, not their transforms.',
    'the decoder querying with the wrong state: the previous state s_{t-1} instead of the new state s_t':
        'Luong-style: update the state first, then attend with the new state.',
    'the source mask not passed to the attention: padding gets attention':
        'The source mask must reach the attention so padding gets no weight.',
    'returning the previous state instead of the new one':
        "Return the state after this step's update.",
    'returning probabilities (a softmax) instead of logits':
        'The step returns unnormalised scores (logits) over the vocabulary.',
    'the context is the plain average of the encoder outputs (no attention)':
        'The context is the attention-weighted average of the encoder outputs.',
    "the output layer's inputs concatenated in the wrong order":
        "Concatenate the output layer's inputs in the order the stub gives.",
    'the previous prediction is not fed back (every step reads <bos>)':
        "Greedy decoding feeds each step's prediction in as the next input.",
    'the hidden state is not carried from step to step':
        'Each step starts from the state the previous step returned.',
    'not stopping once every sentence has produced <eos> (always max_len steps)':
        'Stop once every sentence has finished.',
    'stopping as soon as one sentence ends, instead of when all have ended':
        'Keep going until every sentence has finished, not just one.',
    'tokens after <eos> are not replaced by <pad>':
        'After a sentence ends, its later positions are padding.',
    'tokens after <eos> are not replaced by <pad> (and their weights not zeroed)':
        'After a sentence ends, its later positions are padding with zero weights.',
    'the weights of finished sentences are not zeroed':
        'Finished sentences attend to nothing: their later weights are zero.',
    'the <eos> token is dropped (replaced by <pad>)':
        'Keep the <eos> a sentence produces; only what follows becomes padding.',
    'the <bos> token included in the output':
        'The output holds the predicted tokens only, not the start token.',
    'tokens aligned to source word 0 left out (`gold > 0`): word 0 is a real word':
        'Source positions start at 0: every gold >= 0 is an aligned token; only -1 means unaligned.',
    'the mask transposed: applied along the query axis instead of the key axis (the wrong axis)':
        'A mask hides keys: it varies along the last (key) axis of the scores, one row per query.',
    'L = 0 not handled: `np.stack` of an empty list of rows raises':
        'An empty sequence has an empty (0, D) table: build the table with array operations, not a list of rows.',
    'unaligned tokens (gold = -1) counted in the denominator':
        'Only aligned target tokens (gold >= 0) count, in the numerator and the denominator.',
    'gold = -1 used as an index: it picks the last source word, so unaligned tokens count as hits':
        '-1 means "no alignment", not "the last word": leave those tokens out.',
    'the weight on the gold word averaged instead of counting argmax hits':
        'A hit is the attention peak landing on the gold word; count hits.',
    'counting a hit when the gold weight is above 0.5 instead of being the largest':
        'A hit means the gold word has the largest weight, whatever its size.',
    'the number of hits instead of the fraction':
        'Divide the hits by the number of aligned tokens.',
    'a percentage (x 100) instead of a fraction in [0, 1]':
        'Return a fraction between 0 and 1.',
    'per-sentence accuracies averaged (every sentence weighs the same) instead of counting over the whole batch':
        'Pool the hits and aligned tokens over the whole batch before dividing.',
    'argmax over the target tokens (axis -2) instead of over the source words':
        "Each target token's peak is over the source words, the last axis.",
    '`np.max(m_a, m_b)` instead of `np.maximum(m_a, m_b)`':
        'The common max is the elementwise maximum of two arrays, not a reduction.',
    'NaN when both parts have seen no key (exp(-inf - (-inf)))':
        'When both maxima are -inf, the rescaling factors must be 0, not NaN.',
    'adding the two parts without rescaling them to a common max':
        'Both parts are relative to their own max: rescale each to the common max before adding.',
    'rescaling only part a (part b is left relative to its own max)':
        'Both parts must be rescaled to the common max.',
    'keeping m_a as the max instead of max(m_a, m_b)':
        'The merged max is the larger of the two.',
    'rescaling with exp(m - m_a) instead of exp(m_a - m)':
        'The rescaling factor is ≤ 1: the old max minus the new max, exponentiated.',
    'rescaling l but not acc':
        'The sum and the accumulator are rescaled by the same factor.',
    "averaging the two parts' outputs with equal weights":
        'Each part counts in proportion to its (rescaled) sum of exponentials.',
    'one global max over all queries instead of one per query':
        'Every query has its own running max.',
    'NaN for a query whose scores so far are all -inf (exp(-inf - (-inf)))':
        'While a query has seen no allowed key, its rescaling must give 0, not NaN.',
    "NaN for a tile whose scores are all -inf (the tile's own max is -inf)":
        'A fully masked tile contributes nothing; guard the -inf max.',
    'not rescaling the accumulator when the max changes':
        'When the running max rises, scale the accumulator down by the same factor as l.',
    'not rescaling l when the max changes':
        'When the running max rises, scale l down by the same factor as the accumulator.',
    'not rescaling l or acc when the max changes':
        'When the running max rises, scale both l and the accumulator down.',
    "using the tile's max instead of the new running max for the tile's exponentials":
        "The tile's exponentials are taken relative to the new running max.",
    "taking the tile's max as the new max (forgetting the running max)":
        "The new max is the larger of the running max and the tile's max.",
    "rescaling with exp(m' - m) instead of exp(m - m')":
        'The rescaling factor is ≤ 1: the old max minus the new max, exponentiated.',
    'normalising the accumulator inside the update (dividing by l)':
        'The update keeps the unnormalised accumulator; divide by l only at the end.',
    'no running max at all (exp of the raw scores)':
        'Exponentials are taken relative to a running max, or they overflow.',
    'returning only the output, not (output, logsumexp)':
        'The contract returns a pair: the output and the log-sum-exp per query.',
    'returning the (Lq, Lk) weights instead of the log-sum-exp':
        'Return one log-sum-exp per query, never the full weight matrix.',
    'forgetting the 1/√Dk scale of the scores':
        'Scores are divided by √Dk.',
    'initialising the running max at 0 instead of -inf':
        'Before any key, the running max is -inf.',
    'not rescaling l and acc when a later tile raises the max':
        'When a tile raises the running max, scale both l and the accumulator down.',
    'dropping the last, partial tile of keys':
        'Every key must be visited, including a last tile shorter than the tile size.',
    'not resetting m, l and acc for each tile of queries':
        'Each tile of queries starts from fresh statistics.',
    "normalising each tile of keys on its own and adding the tiles' outputs":
        'Tiles share one normaliser: keep unnormalised sums and divide once at the end.',
    "averaging the tiles' outputs (each tile normalised on its own)":
        'Tiles share one normaliser: keep unnormalised sums and divide once at the end.',
    'not dividing acc by l at the end':
        'The output is the accumulator divided by the sum of exponentials.',
    'returning log(l) without adding the running max':
        'The log-sum-exp is the running max plus log(l).',
    'ignoring `causal` (every query sees every key)':
        'With causal=True, query i may see keys j <= i only.',
    'skipping the diagonal tile (an off-by-one in the key loop)':
        'The tile on the diagonal holds keys the query may see: visit it (masked).',
    'visiting one key tile past the diagonal (an off-by-one in the key loop)':
        'Stop at the diagonal tile; tiles beyond it hold only future keys.',
    'reading the tiles above the diagonal (masking them instead of skipping them)':
        'Tiles entirely in the future need not be read at all: skip them.',
    'leaving the diagonal tile unmasked (masking only tiles that stick out past the query tile)':
        'The diagonal tile contains future keys too: mask it.',
    'a strict mask j < i (a query cannot see its own key)':
        'A query may attend to its own position.',
    "masking with the tile's local indices instead of the global ones":
        'Compare global positions of queries and keys, not positions inside the tile.',
    'a bottom-right aligned causal mask (j <= i + Lk - Lq)':
        'The causal mask is top-left aligned: query i sees keys 0..i.',
    'materialising the full (Lq, Lk) score matrix (no tiling)':
        'Work tile by tile so that no (Lq, Lk) array ever exists.',
    'a softmax over the given keys (it ignores logsumexp)':
        'The weights are relative to the log-sum-exp over all keys, which you are given.',
    'subtracting logsumexp along the keys (logsumexp[None, :]) instead of per query':
        'There is one log-sum-exp per query: it lines up with the rows.',
    'exp(s) / exp(logsumexp): it overflows for large scores':
        'Subtract in the exponent, then exponentiate once.',
    'adding logsumexp instead of subtracting it':
        'The weight is exp(score minus log-sum-exp).',
    'dividing by logsumexp instead of subtracting it in the exponent':
        'The weight is exp(score minus log-sum-exp).',
    'sin and cos swapped (cosine in the even columns, sine in the odd ones)':
        'Even columns hold the sines, odd columns the cosines.',
    'sin and cos not interleaved: all the sines first, then all the cosines':
        'Sines and cosines alternate column by column: each pair shares one frequency.',
    'cos and sin swapped and not interleaved':
        'Sines in the even columns, cosines in the odd ones, alternating pair by pair.',
    'the frequency exponent off by a factor of 2: 10000^(i/D) instead of 10000^(2i/D)':
        "Pair i's frequency uses the exponent 2i/D, with i the pair index.",
    'the frequency exponent off by a factor of 2: 10000^(4i/D) (the 2 applied twice)':
        "Pair i's frequency uses the exponent 2i/D, with i the pair index, counted once.",
    "every column its own frequency 10000^(j/D) (j the column), so a cosine does not share its sine's angle":
        'A sine and its cosine share one angle: the frequency depends on the pair, not the column.',
    'positions multiplied by 10000^(2i/D) instead of divided by it':
        'Higher pairs turn more slowly: the position is divided by the growing power.',
    'positions counted from 1 instead of 0':
        'The first position is 0.',
    'the result transposed: (D, L) instead of (L, D)':
        'One row per position: shape (L, D).',
    'an odd D not handled (the cosine column of the last pair does not exist)':
        'With an odd width the last pair has a sine but no cosine column.',
    'the residual added after the norm (X = LN(X) + Sublayer(LN(X))), not around it':
        'Pre-norm: the residual carries the un-normalised input past the normalised sublayer.',
    'post-norm (LN(X + Sublayer(X))) instead of pre-norm':
        "Normalise the sublayer's input, not the sum after the residual.",
    'a residual connection missing (X = Sublayer(LN(X)))':
        'Each sublayer adds its output to its input.',
    'the residual connection around the feed-forward network missing':
        'The feed-forward sublayer also adds its output to its input.',
    'the layer norms not applied':
        "Each sublayer's input is layer-normalised first.",
    'the ReLU missing between linear1 and linear2':
        'The feed-forward network has a nonlinearity between its two layers.',
    'one layer norm used for two sublayers':
        'Each sublayer has its own layer norm with its own parameters.',
    "an extra layer norm on the block's output":
        'A pre-norm block returns the residual stream without a final norm.',
    'the padding mask ignored':
        'Padding positions must get no attention.',
    'the padding mask inverted (True treated as padding)':
        'True marks real tokens, which may be attended to.',
    'the causal mask missing: every target token sees the tokens after it':
        'Decoder self-attention sees only the past and the present.',
    'the causal mask off by one: the diagonal left out (j < i), so a token cannot see itself':
        'A token may attend to its own position.',
    'the causal mask off by one: one future token let in (j <= i + 1)':
        'No future position may be seen: keys j <= i only.',
    'the causal mask inverted: every token sees only itself and the future':
        'Causal means the past and the present, not the future.',
    "the cross-attention reading the decoder's own states instead of the encoder's output":
        "Cross-attention takes its keys and values from the encoder's output.",
    "the encoder's output normalised again by norm2 before the cross-attention":
        "Only the decoder's stream is normalised; the encoder's output is used as it is.",
    'the source mask ignored in the cross-attention':
        'Source padding must get no weight in the cross-attention.',
    'the source mask inverted (True treated as padding)':
        'True marks real source tokens, which may be attended to.',
    'returning the self-attention weights where the cross-attention weights go (or the reverse)':
        "Return each attention's weights in its own slot.",
    'returning two items instead of (output, self_weights, cross_weights)':
        'The contract returns three items: output, self-attention weights, cross-attention weights.',
    'the cache appended after the attention: the new token does not attend to itself':
        "Add the new token's key and value to the cache before attending.",
    'positions restarted at 0: every new token gets the positional vector of position 0':
        "Step t's token carries the positional vector of position t.",
    'positions off by one: the token of step t gets the positional vector of t + 1':
        "Step t's token carries the positional vector of position t.",
    'the cache not kept: each new token attends to its own key and value only':
        'The cache keeps every earlier key and value: carry it from step to step.',
    'the source mask not passed to the cross-attention':
        'Source padding must get no weight in the cross-attention.',
    'the final norm (model.decoder_norm) skipped before the output layer':
        "Normalise the decoder's final states before the output layer.",
}
