"""trlx PPO rollouts for a causal LM whose base model is loaded in bfloat16 (re-typed at the PR's parent commit: make_head building the MLP value head with default float32 Linears, CausalLMWithValueHead wrapping the base model's transformer and lm_head, the orchestrator's make_experience generating responses, scoring them and computing logprobs, values and KL-penalised rewards, then GAE advantages): the base model's last_hidden_state is bfloat16 and the float32 value head refuses it in the first rollout batch
source: https://github.com/CarperAI/trlx/pull/213
reported-error: "This PR forces value heads to be the same dtype as the rest of the base model" (the heads were built by make_head in float32 whatever dtype the base model was loaded in)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 159
root-cause: line 149
expect: DG004
"""
import dataclasses
import math
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


# ---- transformers stand-ins: a GPT-2 style causal LM with .transformer and .lm_head ----
@dataclasses.dataclass
class GPT2Config:
    vocab_size: int = 50
    n_embd: int = 32
    n_head: int = 4
    n_layer: int = 2
    n_positions: int = 48


@dataclasses.dataclass
class BaseModelOutput:
    last_hidden_state: torch.Tensor
    past_key_values: Optional[tuple] = None


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.n_embd)
        self.attn = nn.MultiheadAttention(c.n_embd, c.n_head, batch_first=True)
        self.ln_2 = nn.LayerNorm(c.n_embd)
        self.mlp = nn.Sequential(nn.Linear(c.n_embd, 4 * c.n_embd), nn.GELU(), nn.Linear(4 * c.n_embd, c.n_embd))

    def forward(self, x, key_padding_mask=None):
        s = x.shape[1]
        causal = torch.ones(s, s, dtype=torch.bool, device=x.device).triu(1)
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


class GPT2Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.wte = nn.Embedding(c.vocab_size, c.n_embd)
        self.wpe = nn.Embedding(c.n_positions, c.n_embd)
        self.h = nn.ModuleList(Block(c) for _ in range(c.n_layer))
        self.ln_f = nn.LayerNorm(c.n_embd)

    def forward(self, input_ids=None, attention_mask=None, position_ids=None, past_key_values=None,
                head_mask=None, inputs_embeds=None):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return BaseModelOutput(last_hidden_state=self.ln_f(x))


class GPT2LMHeadModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = GPT2Model(config)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def get_output_embeddings(self):
        return self.lm_head

    @classmethod
    def from_pretrained(cls, name, torch_dtype=None):
        torch.manual_seed(1)  # the "pretrained" weights
        model = cls(GPT2Config())
        return model.to(torch_dtype) if torch_dtype is not None else model

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=8, do_sample=True, top_k=0, **kwargs):
        for _ in range(max_new_tokens):
            logits = self.lm_head(self.transformer(input_ids=input_ids).last_hidden_state[:, -1]).float()
            next_token = torch.multinomial(logits.softmax(-1), 1) if do_sample else logits.argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=1)
        return input_ids


# ---- trlx/utils/modeling.py ----
def findattr(obj, attrs):
    for attr in attrs:
        cur = obj
        try:
            for part in attr.split("."):
                cur = getattr(cur, part)
            return cur
        except AttributeError:
            continue
    raise ValueError(f"Could not find an attribute from `{attrs}` in `{obj}`")


def make_head(n_embd: int, out: int) -> nn.Sequential:
    """Returns a generic sequential MLP head."""
    return nn.Sequential(
        nn.Linear(n_embd, n_embd * 2), nn.ReLU(), nn.Linear(n_embd * 2, out)
    )


def hf_get_causal_base_model(model):
    return findattr(model, ("transformer", "model.decoder", "gpt_neox"))


def hf_get_lm_head(model):
    return model.get_output_embeddings()


def hf_get_hidden_size(config) -> int:
    return findattr(config, ("hidden_size", "n_embd", "d_model"))


def whiten(xs: torch.Tensor, shift_mean=True) -> torch.Tensor:
    var, mean = torch.var_mean(xs)
    whitened = (xs - mean) * torch.rsqrt(var + 1e-8)
    if not shift_mean:
        whitened += mean
    return whitened


def logprobs_from_logits(logits, labels):
    logprobs = F.log_softmax(logits, dim=-1)
    return torch.gather(logprobs, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)


# ---- trlx/trainer/nn/ppo_models.py ----
class CausalLMWithValueHead(nn.Module):
    """The CausalLMWithValueModel class implements a causal language model with a secondary, scalar head."""

    def __init__(self, config: str, torch_dtype=None):
        super().__init__()
        self.config = GPT2Config()
        # the user's change: load the (large) pretrained policy in bfloat16 to fit it in memory
        self.base_model = GPT2LMHeadModel.from_pretrained(config, torch_dtype=torch_dtype)  # root-cause-alt
        self.base_model.transformer = hf_get_causal_base_model(self.base_model)
        self.base_model.lm_head = hf_get_lm_head(self.base_model)
        self.v_head = make_head(hf_get_hidden_size(self.config), 1)  # root-cause

    def generate(self, input_ids, **kwargs):
        return self.base_model.generate(input_ids, **kwargs)

    def forward(self, input_ids=None, attention_mask=None, past_key_values=None, position_ids=None,
                head_mask=None, inputs_embeds=None, return_dict=False):
        transformer_outputs = self.base_model.transformer(input_ids=input_ids, attention_mask=attention_mask)
        last_hidden_state = transformer_outputs.last_hidden_state
        lm_logits = self.base_model.lm_head(last_hidden_state)
        value = self.v_head(last_hidden_state).squeeze(-1)  # fails-here
        return (lm_logits, None, value)


@dataclasses.dataclass
class PPOConfig:
    num_rollouts: int = 8
    chunk_size: int = 4
    init_kl_coef: float = 0.05
    gamma: float = 1.0
    lam: float = 0.95
    gen_kwargs: dict = dataclasses.field(default_factory=lambda: dict(max_new_tokens=8, do_sample=True, top_k=0))

    def get_advantages_and_returns(self, values, rewards, response_length, use_whitening=True):
        lastgaelam = 0
        advantages_reversed = []
        for t in reversed(range(response_length)):
            nextvalues = values[:, t + 1] if t < response_length - 1 else 0.0
            delta = rewards[:, t] + self.gamma * nextvalues - values[:, t]
            lastgaelam = delta + self.gamma * self.lam * lastgaelam
            advantages_reversed.append(lastgaelam)
        advantages = torch.stack(advantages_reversed[::-1], dim=1)
        returns = advantages + values
        if use_whitening:
            advantages = whiten(advantages)
        return advantages.detach(), returns


@dataclasses.dataclass
class PPORLElement:
    query_tensor: torch.Tensor
    response_tensor: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor


POSITIVE = {7, 11, 13}


def reward_fn(samples):
    """The sentiment reward of the example, reduced to the share of 'positive' tokens in the response."""
    return torch.tensor([sum(int(t) in POSITIVE for t in s) / len(s) for s in samples])


def make_experience(model, ref_model, prompts, method: PPOConfig, device):
    elements = []
    for i in range(0, method.num_rollouts, method.chunk_size):
        query_tensors = prompts[i:i + method.chunk_size].to(device)
        samples = model.generate(query_tensors, **method.gen_kwargs)
        response_tensors = samples[:, query_tensors.shape[1]:]
        scores = reward_fn(response_tensors.cpu())
        with torch.no_grad():
            logits, _, v = model(samples)
            ref_logits = ref_model(samples)[0]
        logprobs = logprobs_from_logits(logits[:, :-1, :].float(), samples[:, 1:])
        ref_logprobs = logprobs_from_logits(ref_logits[:, :-1, :].float(), samples[:, 1:])
        start = query_tensors.shape[1] - 1
        values = v[:, start:-1].float()
        kls = logprobs[:, start:] - ref_logprobs[:, start:]
        rewards = -method.init_kl_coef * kls
        rewards[:, -1] += scores.to(device)
        for j in range(len(query_tensors)):
            elements.append(PPORLElement(query_tensors[j], response_tensors[j], logprobs[j, start:], values[j],
                                         rewards[j]))
        print(f"rollouts {i + len(query_tensors)}/{method.num_rollouts}: mean score {scores.mean():.3f}")
    return elements


def main():
    device = "cpu"
    method = PPOConfig()
    model = CausalLMWithValueHead("EleutherAI/gpt-j-6B", torch_dtype=torch.bfloat16).to(device)
    ref_model = CausalLMWithValueHead("EleutherAI/gpt-j-6B", torch_dtype=torch.bfloat16).to(device).eval()
    prompts = torch.randint(0, GPT2Config().vocab_size, (method.num_rollouts, 6))
    elements = make_experience(model, ref_model, prompts, method, device)
    values = torch.stack([e.values for e in elements])
    rewards = torch.stack([e.rewards for e in elements])
    advantages, returns = method.get_advantages_and_returns(values, rewards, rewards.shape[1])
    print(f"{len(elements)} rollouts: mean return {returns.mean():.4f}, advantage std {advantages.std():.3f}")


if __name__ == "__main__":
    main()
