"""The speculators-style Eagle3 draft training of bd02 (vllm-project/speculators PR #765) with fp32 master weights as the PR does: Trainer.setup_model keeps the draft model in float32 when hidden_states_dtype is bfloat16 and the forward runs under torch.autocast(bfloat16), so AdamW (lr=1e-4, weight_decay=0.01) updates float32 weights and the RMSNorm weights leave 1.0; the bfloat16 hidden states fed to the float32 model under autocast, the frozen verifier head and the float32 KL are kept
source: https://github.com/vllm-project/speculators/pull/765
reported-error: (none filed; the fixed situation of bd02)
outcome: ok
root-cause: -
expect: none
"""
import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
VOCAB, DRAFT_VOCAB, HIDDEN, HEADS, SEQ = 256, 256, 32, 4, 24


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class Eagle3Attention(nn.Module):
    """Attention over [input embeds ; hidden] (2H wide), causal."""

    def __init__(self, hidden):
        super().__init__()
        self.q_proj = nn.Linear(2 * hidden, hidden, bias=False)
        self.k_proj = nn.Linear(2 * hidden, hidden, bias=False)
        self.v_proj = nn.Linear(2 * hidden, hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)
        self.q_norm = LlamaRMSNorm(hidden // HEADS)
        self.k_norm = LlamaRMSNorm(hidden // HEADS)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.q_norm(self.q_proj(x).view(b, t, HEADS, -1)).transpose(1, 2)
        k = self.k_norm(self.k_proj(x).view(b, t, HEADS, -1)).transpose(1, 2)
        v = self.v_proj(x).view(b, t, HEADS, -1).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))


class Eagle3FirstLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(hidden)
        self.hidden_norm = LlamaRMSNorm(hidden)
        self.self_attn = Eagle3Attention(hidden)
        self.post_attention_layernorm = LlamaRMSNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden, bias=False), nn.SiLU(), nn.Linear(4 * hidden, hidden, bias=False))

    def forward(self, input_embeds, hidden_states):
        residual = hidden_states
        x = torch.cat([self.input_layernorm(input_embeds), self.hidden_norm(hidden_states)], dim=-1)
        hidden_states = residual + self.self_attn(x)
        residual = hidden_states
        return residual + self.mlp(self.post_attention_layernorm(hidden_states))


class Eagle3DraftModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, HIDDEN)
        self.embed_tokens.weight.requires_grad = False
        self.fc_norm = nn.ModuleList([LlamaRMSNorm(HIDDEN) for _ in range(3)])
        self.fc = nn.Linear(3 * HIDDEN, HIDDEN, bias=False)
        self.layers = nn.ModuleList([Eagle3FirstLayer(HIDDEN)])
        self.norm = LlamaRMSNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, DRAFT_VOCAB, bias=False)
        self.verifier_norm = LlamaRMSNorm(HIDDEN)
        self.verifier_norm.weight.requires_grad = False
        self.verifier_lm_head = nn.Linear(HIDDEN, DRAFT_VOCAB, bias=False)
        self.verifier_lm_head.weight.requires_grad = False

    def forward(self, hidden_states, input_ids, verifier_last_hidden_states, loss_mask):
        chunks = hidden_states.chunk(len(self.fc_norm), dim=-1)
        hidden_states = self.fc(torch.cat([norm(c) for norm, c in zip(self.fc_norm, chunks)], dim=-1))
        with torch.no_grad():
            targets = self.verifier_lm_head(self.verifier_norm(verifier_last_hidden_states))
        input_embeds = self.embed_tokens(input_ids)
        for layer in self.layers:
            hidden_states = layer(input_embeds, hidden_states)
        logits = self.lm_head(self.norm(hidden_states))
        target_p = torch.softmax(targets.float(), dim=-1)
        log_p = torch.log_softmax(logits.float(), dim=-1)
        kl = (target_p * (torch.log(target_p + 1e-12) - log_p)).sum(-1)
        loss = (kl * loss_mask).sum() / loss_mask.sum()
        return logits.argmax(-1), loss, {"loss": loss.detach()}


@dataclass
class TrainerConfig:
    lr: float = 1e-4
    num_epochs: int = 3
    weight_decay: float = 0.01
    scheduler_warmup_steps: int = 4
    hidden_states_dtype: torch.dtype = torch.bfloat16


def build_optimizers(model, config):
    return [torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=config.lr, weight_decay=config.weight_decay)]


class Trainer:
    def __init__(self, model, config, train_loader):
        self.model, self.config, self.train_loader = model, config, train_loader

    @property
    def _fp32_master_mode(self):
        return self.config.hidden_states_dtype != torch.float32

    def setup_model(self):
        # fp32 master weights: the optimizer updates float32 parameters; compute runs in
        # hidden_states_dtype under autocast (the data stays in that dtype)
        model_dtype = torch.float32 if self._fp32_master_mode else self.config.hidden_states_dtype
        self.model.to(model_dtype)
        self.model.to("cpu")

    def setup_optimizer(self):
        self.optimizers = build_optimizers(self.model, self.config)
        total = self.config.num_epochs * len(self.train_loader)
        warm = self.config.scheduler_warmup_steps

        def linear(step):
            return step / max(1, warm) if step < warm else max(0.0, (total - step) / max(1, total - warm))

        self.schedulers = [torch.optim.lr_scheduler.LambdaLR(opt, linear) for opt in self.optimizers]

    def train_epoch(self, epoch):
        self.model.train()
        for batch in self.train_loader:
            batch = {k: (v.to(self.config.hidden_states_dtype) if v.is_floating_point() and k != "loss_mask" else v) for k, v in batch.items()}
            with torch.autocast("cpu", dtype=self.config.hidden_states_dtype, enabled=self._fp32_master_mode):
                _draft_tokens, loss, metrics = self.model(**batch)
            for opt in self.optimizers:
                opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            for opt in self.optimizers:
                opt.step()
            for s in self.schedulers:
                s.step()
        print(f"epoch {epoch}: loss {metrics['loss'].item():.4f}")

    def run_training(self):
        self.setup_model()
        self.setup_optimizer()
        for epoch in range(self.config.num_epochs):
            self.train_epoch(epoch)


def make_loader(n_batches=20, batch=4):
    """Offline-generated verifier data: 3 auxiliary hidden states concatenated, the last hidden state, the tokens."""
    w_aux = torch.randn(HIDDEN, 3 * HIDDEN) / math.sqrt(HIDDEN)
    loader = []
    for _ in range(n_batches):
        last = torch.randn(batch, SEQ, HIDDEN)
        loader.append({
            "hidden_states": last @ w_aux + 0.1 * torch.randn(batch, SEQ, 3 * HIDDEN),
            "input_ids": torch.randint(0, VOCAB, (batch, SEQ)),
            "verifier_last_hidden_states": last,
            "loss_mask": torch.ones(batch, SEQ),
        })
    return loader


if __name__ == "__main__":
    model = Eagle3DraftModel()
    trainer = Trainer(model, TrainerConfig(), make_loader())
    trainer.run_training()

    norm_weights = [p for n, p in model.named_parameters() if p.requires_grad and "norm" in n]
    stuck = sum(int((p == 1.0).sum()) for p in norm_weights)
    total = sum(p.numel() for p in norm_weights)
    print(f"trainable norm weights still exactly 1.0: {stuck}/{total}")
    assert stuck < total // 2, (stuck, total)
