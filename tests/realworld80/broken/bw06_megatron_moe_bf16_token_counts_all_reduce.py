"""Megatron-Core-style MoE layer with aux-loss-free load balancing (re-typed small: TopKRouter with sigmoid scores and an expert_bias buffer, the local_tokens_per_expert counter buffer, Float16Module's bf16 cast with _maintain_float32_expert_bias, finalize_model_grads' _update_router_expert_bias and get_updated_expert_bias) trained on two CPU data-parallel ranks (gloo, mp.spawn, 8 micro-batches per step): Float16Module casts the float counter buffer to bfloat16, so the per-rank token counts are accumulated and all-reduced in bfloat16 before the sign of (average - count) picks each expert's bias update
source: https://github.com/NVIDIA/Megatron-LM/pull/7081
reported-error: "local_tokens_per_expert was registered as a floating-point buffer. Float16Module consequently converted it to the model dtype, so BF16 training accumulated and reduced integer token counts in BF16. At sufficiently large counts, rounding can erase small differences between experts and change the sign of the bias update, producing an incorrect routing-bias update and a different training trajectory."
outcome: ok (silent: no error; the run prints "bias-update signs that differ from the exact token counts: 3 of 96 (3 steps x 32 experts)", e.g. "expert 12: bf16 all-reduced count 8192, exact 8213, exact average 8192.0", so that expert gets no bias update where its exact count calls for a negative one; the int64 counter of bw_c06 gives 0 of 96)
root-cause: line 30
expect: DG013
"""
import contextlib
import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

WORLD_SIZE = 2
HIDDEN, NUM_EXPERTS, TOPK = 16, 32, 4
MICRO_BATCHES, TOKENS_PER_MICRO_BATCH, STEPS = 8, 4096, 3
BIAS_UPDATE_RATE = 1e-3


class TopKRouter(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_experts, self.topk = NUM_EXPERTS, TOPK
        weight = torch.randn(NUM_EXPERTS, HIDDEN)
        self.weight = nn.Parameter(weight / weight.norm(dim=1, keepdim=True))  # equal-norm rows: a balanced router
        self.register_buffer("expert_bias", torch.zeros(NUM_EXPERTS, dtype=torch.float32))
        self.register_buffer("local_tokens_per_expert", torch.zeros(self.num_experts, dtype=torch.float32),  # root-cause
                             persistent=False)
        self.last_routing_map = None

    def _maintain_float32_expert_bias(self):
        """When using bf16/fp16 the expert bias gets converted to lower precision in Float16Module; keep it in fp32."""
        if self.expert_bias is not None and self.expert_bias.dtype != torch.float32:
            self.expert_bias.data = self.expert_bias.data.to(torch.float32)

    def forward(self, x):
        self._maintain_float32_expert_bias()
        logits = torch.nn.functional.linear(x.to(torch.float32), self.weight.to(torch.float32))
        scores = torch.sigmoid(logits)
        _, top_indices = torch.topk(scores + self.expert_bias, k=self.topk, dim=1)
        probs = torch.gather(scores, 1, top_indices)
        probs = probs / (probs.sum(dim=-1, keepdim=True) + 1e-20)
        routing_map = torch.zeros_like(logits, dtype=torch.bool).scatter(1, top_indices, True)
        with torch.no_grad():
            self.local_tokens_per_expert += routing_map.sum(dim=0)
        self.last_routing_map = routing_map
        return probs.to(x.dtype), top_indices


class MoELayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = TopKRouter()
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(HIDDEN, 2 * HIDDEN), nn.GELU(),
                                                    nn.Linear(2 * HIDDEN, HIDDEN)) for _ in range(NUM_EXPERTS)])

    def forward(self, x):
        probs, top_indices = self.router(x)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.where(top_indices == e)
            if token_idx.numel():
                out.index_add_(0, token_idx, expert(x[token_idx]) * probs[token_idx, slot].unsqueeze(-1))
        return x + out


class Float16Module(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module.bfloat16()

    def forward(self, x):
        return self.module(x.to(torch.bfloat16)).float()


def get_updated_expert_bias(tokens_per_expert, expert_bias, expert_bias_update_rate):
    with torch.no_grad():
        dist.all_reduce(tokens_per_expert)
        average_tokens = tokens_per_expert.sum(dim=-1, keepdim=True) / tokens_per_expert.shape[-1]
        offset = average_tokens - tokens_per_expert
        updated_expert_bias = expert_bias + torch.sign(offset) * expert_bias_update_rate
        return updated_expert_bias


def _update_router_expert_bias(model):
    routers = [m for m in model.modules() if isinstance(m, TopKRouter)]
    stacked_tokens_per_expert = torch.stack([r.local_tokens_per_expert for r in routers], dim=0)
    stacked_expert_bias = torch.stack([r.expert_bias for r in routers], dim=0)
    updated = get_updated_expert_bias(stacked_tokens_per_expert, stacked_expert_bias, BIAS_UPDATE_RATE)
    for router, new_bias in zip(routers, updated):
        router.local_tokens_per_expert.zero_()
        router.expert_bias.copy_(new_bias)
    return stacked_tokens_per_expert[0], stacked_expert_bias[0], updated[0]


def worker(rank, world_size, init_file):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + init_file, rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = Float16Module(MoELayer())
    ddp = nn.parallel.DistributedDataParallel(model, broadcast_buffers=False, find_unused_parameters=True)
    opt = torch.optim.Adam(ddp.parameters(), lr=1e-3)
    target_map = nn.Linear(HIDDEN, HIDDEN)
    g = torch.Generator().manual_seed(100 + rank)
    flipped = total = 0
    for step in range(STEPS):
        exact_counts = torch.zeros(NUM_EXPERTS, dtype=torch.int64)  # the report's ground truth: integer tallies
        opt.zero_grad()
        for micro in range(MICRO_BATCHES):
            x = torch.randn(TOKENS_PER_MICRO_BATCH, HIDDEN, generator=g)
            with torch.no_grad():
                y = torch.tanh(target_map(x))
            with ddp.no_sync() if micro < MICRO_BATCHES - 1 else contextlib.nullcontext():
                loss = ((ddp(x) - y) ** 2).mean() / MICRO_BATCHES
                loss.backward()
            exact_counts += model.module.router.last_routing_map.sum(dim=0)
        opt.step()
        counts, old_bias, new_bias = _update_router_expert_bias(model)
        dist.all_reduce(exact_counts)
        exact_offset = exact_counts.double().mean() - exact_counts.double()
        exact_bias = old_bias + torch.sign(exact_offset).float() * BIAS_UPDATE_RATE
        wrong = (torch.sign(new_bias - old_bias) != torch.sign(exact_bias - old_bias)).nonzero().flatten()
        flipped += wrong.numel()
        total += NUM_EXPERTS
        if rank == 0:
            example = ""
            if wrong.numel():
                e = wrong[0].item()
                example = (f"; e.g. expert {e}: bf16 all-reduced count {counts[e].item():.0f}, "
                           f"exact {exact_counts[e].item()}, exact average {exact_counts.double().mean().item():.1f}")
            print(f"step {step}: loss {loss.item() * MICRO_BATCHES:.4f}, counter dtype {counts.dtype}{example}",
                  flush=True)
    if rank == 0:
        print(f"bias-update signs that differ from the exact token counts: {flipped} of {total} "
              f"({STEPS} steps x {NUM_EXPERTS} experts)", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    init_file = os.path.join(tempfile.mkdtemp(), "dist_init")
    mp.spawn(worker, args=(WORLD_SIZE, init_file), nprocs=WORLD_SIZE)
