"""linear_attention_recurrent (notebook 06): causal linear attention as an RNN with a matrix
state ``S_t = S_{t-1} + φ(k_t) v_tᵀ`` and a normaliser ``z_t = z_{t-1} + φ(k_t)``, read out as
``φ(q_t)ᵀS_t / φ(q_t)ᵀz_t``; one long case checks that the call keeps one running state, not
every prefix state."""
from __future__ import annotations

from .. import linearised_attention as _lin
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import TooMuchMemory  # the name the grader's own measurement reports
from ..checks.attention_as_kernel_machine import (
    MEMORY_FRACTION, elu_plus_one, invoke_recurrent_measuring_memory, qkv, random_feature_map,
)
from ._card import Card, Contract

_REC = ("test_linear_attention_recurrent",)


def _lr_prefix_sums(Q, K, V, feature_map):
    """What the check's memory measurement says of code that holds every prefix state."""
    raise TooMuchMemory("every prefix state")


CARD = Card(
    "linear_attention_recurrent", "06_attention_as_kernel_machine",
    summary="causal linear attention one token at a time: write φ(k_t)v_tᵀ and φ(k_t) into a "
            "running state, then read it with φ(q_t)",
    contract=Contract(
        args=("Q", "K", "V", "feature_map"), reference=_lin.linear_attention_recurrent,
        invoke=invoke_recurrent_measuring_memory,
        shapes="Q (L, Dk), K (L, Dk), V (L, Dv); feature_map φ maps (..., Dk) to positive (..., M)",
        returns=f"a float array of shape (L, Dv), equal to causal linear attention; on a long "
                f"sequence the call holds less than 1/{MEMORY_FRACTION} of the L prefix states at once"),
    mistakes=[
        Mistake(
            "state updated after the readout (token t does not see itself; 0/0 at t = 0)",
            principle="Add token t to the state before reading it out at step t.",
            fix="write first, then read: update S and z with token t, *then* compute "
                "φ(q_t)ᵀS_t / φ(q_t)ᵀz_t.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.zeros((phi_K.shape[1], V.shape[1]))
                    z = np.zeros(phi_K.shape[1])
                    out = []
                    for t in range(len(Q)):
                        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
                        S = S + np.outer(phi_K[t], V[t])
                        z = z + phi_K[t]
                    return np.array(out)
                '''),
        Mistake(
            "no normaliser (φ(q_t)ᵀS_t not divided by φ(q_t)ᵀz_t)",
            principle="The readout divides by the query's similarity to the running key sum.",
            fix="carry z_t = z_{t-1} + φ(k_t) and divide the readout by φ(q_t)·z_t.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.zeros((phi_K.shape[1], V.shape[1]))
                    out = []
                    for t in range(len(Q)):
                        S = S + np.outer(phi_K[t], V[t])
                        out.append(phi_Q[t] @ S)
                    return np.array(out)
                '''),
        Mistake(
            "state overwritten instead of accumulated (S_t = φ(k_t) v_tᵀ)",
            principle="The state accumulates every past token: add, do not replace.",
            fix="add to the state: `S = S + np.outer(phi_k, v)`, and likewise for z.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    out = []
                    for t in range(len(Q)):
                        S = np.outer(phi_K[t], V[t])
                        z = phi_K[t]
                        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
                    return np.array(out)
                '''),
        Mistake(
            "normaliser without the feature map (z_t += k_t)",
            principle="The running key sum uses the mapped keys, like the state.",
            fix="accumulate the features: `z = z + phi_K[t]`.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.zeros((phi_K.shape[1], V.shape[1]))
                    z = np.zeros(K.shape[1])
                    out = []
                    for t in range(len(Q)):
                        S = S + np.outer(phi_K[t], V[t])
                        z = z + K[t]
                        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
                    return np.array(out)
                '''),
        Mistake(
            "feature map not applied to the query",
            principle="The query goes through the feature map before the readout.",
            fix="read the state with φ(q_t): `phi_Q[t] @ S / (phi_Q[t] @ z)`.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_K = feature_map(K)
                    S = np.zeros((phi_K.shape[1], V.shape[1]))
                    z = np.zeros(phi_K.shape[1])
                    out = []
                    for t in range(len(Q)):
                        S = S + np.outer(phi_K[t], V[t])
                        z = z + phi_K[t]
                        out.append(Q[t] @ S / (Q[t] @ z))
                    return np.array(out)
                '''),
        Mistake(
            "reading the final state (every token sees the whole sequence)",
            principle="Read out at step t from the state built from tokens 0..t only.",
            fix="read out inside the loop, right after token t's update, so that token t sees only "
                "tokens 0..t.",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = phi_K.T @ V
                    z = phi_K.sum(axis=0)
                    return np.array([phi_Q[t] @ S / (phi_Q[t] @ z) for t in range(len(Q))])
                '''),
        Mistake(
            "returning only the last output",
            principle="Return one output per token, shape (L, Dv).",
            fix="collect every step's readout and return all L of them, shape (L, Dv).",
            fails=_REC, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.zeros((phi_K.shape[1], V.shape[1]))
                    z = np.zeros(phi_K.shape[1])
                    for t in range(len(Q)):
                        S = S + np.outer(phi_K[t], V[t])
                        z = z + phi_K[t]
                        out = phi_Q[t] @ S / (phi_Q[t] @ z)
                    return out
                '''),
        Mistake(
            "every prefix state kept (prefix sums, `np.cumsum`, or causal linear attention called): no "
            "running state, no recurrence",
            principle="A recurrence carries one state from step to step, replacing the old one: it "
                      "never holds the states of all the prefixes at once.",
            fix="loop over t and carry one state: `S = S + np.outer(phi_K[t], V[t])`, `z = z + phi_K[t]`, "
                "then read out `phi_Q[t] @ S / (phi_Q[t] @ z)`.",
            fails=_REC, impl=_lr_prefix_sums, code='''
                def linear_attention_recurrent(Q, K, V, feature_map):
                    phi_Q, phi_K = feature_map(Q), feature_map(K)
                    S = np.cumsum(phi_K[:, :, None] * V[:, None, :], axis=0)  # every prefix state at once
                    z = np.cumsum(phi_K, axis=0)
                    return np.einsum("lm,lmv->lv", phi_Q, S) / np.sum(phi_Q * z, axis=-1, keepdims=True)
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(651 if hidden else 111, hidden)
    setups = [(6, 2, 3, None), (5, 4, 2, 7)] if hidden else [(5, 3, 2, None), (7, 4, 3, 6)]
    out = []
    for L, Dk, Dv, M in setups:
        fm = elu_plus_one if M is None else random_feature_map(Dk, M, seed=13 + Dk + M)
        out.append(Case(qkv(rng, (), L, L, Dk, Dv) + (fm,), why=f"L={L}, Dk={Dk}, Dv={Dv}"))
    # Its prefix states (L, 64, 96) in float64 take 144-156 MiB; a recurrence holds about 8 MiB
    # (φ(Q), φ(K), the outputs), about 21 MiB measured from outside the process: a wide margin.
    L = 3328 if hidden else 3072
    out.append(Case(qkv(rng, (), L, L, 64, 96) + (elu_plus_one,),
                    why=f"a long sequence; the call may hold at most 1/{MEMORY_FRACTION} of the L "
                    "prefix states at once"))
    return out


def check_linear_attention_recurrent(linear_attention_recurrent, hidden: bool = False) -> None:
    """Check that ``linear_attention_recurrent`` reproduces causal linear attention step by step."""
    CARD.check(linear_attention_recurrent, cases(hidden), hidden=hidden,
               passed="equals causal linear attention at every step")
