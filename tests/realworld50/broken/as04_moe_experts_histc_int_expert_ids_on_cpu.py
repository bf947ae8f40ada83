"""Training a small mixture-of-experts causal LM whose experts layer follows transformers' integrations/moe.py grouped experts forward (tenstorrent/tt-xla #3793): the token-per-expert counts come from torch.histc over the sorted router expert ids, cast with expert_ids_g.int() as transformers does for non-CPU devices (CUDA's histc takes integers); the thread's run reached that branch with an XLA device whose ops fall back to the CPU, here the model simply runs on the CPU, and the CPU histogram kernel has no integer implementation
source: https://github.com/tenstorrent/tt-xla/issues/3793
reported-error: "NotImplementedError: \"histogram_cpu\" not implemented for 'Int'" at transformers/integrations/moe.py line 271, grouped_mm_experts_forward: num_tokens_per_expert = torch.histc(histc_input, bins=self.num_experts, min=0, max=self.num_experts - 1); proposed fix: cast to float before histc
outcome: NotImplementedError: "histogram_cpu" not implemented for 'Int' at line 49
root-cause: line 48
expect: DG005
"""
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
out_dir = tempfile.mkdtemp()
device = torch.device("cpu")


class Experts(nn.Module):
    """Stacked expert MLPs (gate_up_proj / down_proj as in GptOss / Qwen3-MoE), eager per-expert loop."""

    def __init__(self, num_experts, hidden, inter):
        super().__init__()
        self.num_experts = num_experts
        self.gate_up_proj = nn.Parameter(torch.randn(num_experts, hidden, 2 * inter) / math.sqrt(hidden))
        self.down_proj = nn.Parameter(torch.randn(num_experts, inter, hidden) / math.sqrt(inter))

    def _apply_gate(self, gate_up):
        gate, up = gate_up.chunk(2, dim=-1)
        return F.silu(gate) * up

    def forward(self, hidden_states, top_k_index, top_k_weights):
        num_top_k = top_k_index.size(-1)
        num_tokens = hidden_states.size(0)
        token_idx = torch.arange(num_tokens, device=hidden_states.device).unsqueeze(1).expand(-1, num_top_k).reshape(-1)
        sample_weights = top_k_weights.reshape(-1)
        expert_ids = top_k_index.reshape(-1)
        selected_hidden_states = hidden_states[token_idx]
        # sort by expert for grouped processing
        perm = torch.argsort(expert_ids)
        inv_perm = torch.argsort(perm)
        expert_ids_g = expert_ids[perm]
        sample_weights_g = sample_weights[perm]
        selected_hidden_states_g = selected_hidden_states[perm]
        # using histc instead of bincount to avoid cuda graph issues
        histc_input = expert_ids_g.int()  # root-cause
        num_tokens_per_expert = torch.histc(histc_input, bins=self.num_experts, min=0, max=self.num_experts - 1)  # fails-here
        start_idx = 0
        outputs = []
        for i, num_token in enumerate(num_tokens_per_expert):
            end_idx = start_idx + int(num_token)
            if num_token == 0:
                continue
            tokens_for_this_expert = selected_hidden_states_g[start_idx:end_idx]
            expert_out = self._apply_gate(tokens_for_this_expert @ self.gate_up_proj[i])
            outputs.append(expert_out @ self.down_proj[i])
            start_idx = end_idx
        outs = torch.cat(outputs, dim=0) * sample_weights_g.unsqueeze(-1)
        outs = outs[inv_perm]
        return outs.view(num_tokens, num_top_k, -1).sum(dim=1).to(hidden_states.dtype)


class SparseMoeBlock(nn.Module):
    def __init__(self, hidden, inter, num_experts=8, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(hidden, num_experts, bias=False)
        self.experts = Experts(num_experts, hidden, inter)

    def forward(self, x):
        b, t, d = x.shape
        h = x.reshape(-1, d)
        router_logits = self.gate(h)
        routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)
        top_k_weights, top_k_index = torch.topk(routing_weights, self.top_k, dim=-1)
        top_k_weights = (top_k_weights / top_k_weights.sum(dim=-1, keepdim=True)).to(h.dtype)
        return self.experts(h, top_k_index, top_k_weights).view(b, t, d), router_logits


class DecoderLayer(nn.Module):
    def __init__(self, hidden, heads, inter):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.attn = nn.MultiheadAttention(hidden, heads, batch_first=True)
        self.moe = SparseMoeBlock(hidden, inter)

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        moe_out, router_logits = self.moe(self.ln2(x))
        return x + moe_out, router_logits


class MoeForCausalLM(nn.Module):
    def __init__(self, vocab=512, hidden=64, heads=4, inter=128, layers=2, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_len, hidden)
        self.layers = nn.ModuleList([DecoderLayer(hidden, heads, inter) for _ in range(layers)])
        self.norm = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, ids):
        t = ids.size(1)
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool, device=ids.device), 1)
        x = self.embed(ids) + self.pos(torch.arange(t, device=ids.device))
        all_router_logits = []
        for layer in self.layers:
            x, router_logits = layer(x, mask)
            all_router_logits.append(router_logits)
        return self.lm_head(self.norm(x)), all_router_logits


def load_balancing_loss(router_logits, num_experts=8, top_k=2):
    logits = torch.cat(router_logits, dim=0)
    probs = F.softmax(logits, dim=-1)
    _, selected = torch.topk(probs, top_k, dim=-1)
    expert_mask = F.one_hot(selected, num_experts).float()
    tokens_per_expert = expert_mask.mean(0)
    return num_experts * (tokens_per_expert * probs.mean(0)).sum()


model = MoeForCausalLM().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.randint(0, 512, (64, 33))  # synthetic token stream

for step in range(12):
    batch = data[torch.randint(0, 64, (8,))].to(device)
    inputs, labels = batch[:, :-1], batch[:, 1:]
    logits, router_logits = model(inputs)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
    loss = loss + 0.01 * load_balancing_loss(router_logits)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f}")

torch.save(model.state_dict(), os.path.join(out_dir, "moe_lm.pt"))
