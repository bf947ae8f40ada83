"""minimal-llama's naive pipeline-parallel fine-tuning (re-typed from finetune_pp.py at the issue's date: LLaMAForCausalLM.from_pretrained(..., torch_dtype=torch.float16), layers moved to their devices and chained by model_forward, input_ids[:-1]/input_ids[1:] pairs, plain AdamW over model.parameters(), F.cross_entropy on the float16 logits): the optimizer holds float16 weights and states, its default eps=1e-8 rounds to 0 in float16 and v underflows, so the first step writes NaN into the weights and the loss is NaN from the second step on (silent)
source: https://github.com/zphang/minimal-llama/issues/4
reported-error: "When I run finetune_pp.py and print the loss during training, after the first optimizer step, the loss becomes the following: tensor(nan, device='cuda:1', dtype=torch.float16, grad_fn=<NllLossBackward0>)"
outcome: ok (silent: step 0 has a finite loss, then "step 1 loss nan" and the float16 weights hold NaN after the first AdamW step at line 214)
root-cause: line 201
expect: DG012
"""
import math
import os
import tempfile

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def move_to_device(*x_list, device):
    if len(x_list) > 1:
        return tuple([x.to(device) for x in x_list])
    else:
        return x_list[0].to(device)


def get_devices():
    return [torch.device(f"cuda:{i}") for i in range(torch.cuda.device_count())] or [torch.device("cpu")]


def model_forward(inputs, layer_device_tuples):
    h = inputs
    for layer, device in layer_device_tuples:
        h = h.to(device)
        h = layer(h)
        if isinstance(h, tuple):
            h = h[0]
    return h


# ---- transformers.LLaMAForCausalLM (March 2023), reduced: RMSNorm, rotary attention, SwiGLU MLP ----
class LLaMAConfig:
    vocab_size = 512
    hidden_size = 64
    intermediate_size = 172
    num_attention_heads = 4
    num_hidden_layers = 4
    rms_norm_eps = 1e-6


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        if self.weight.dtype in [torch.float16, torch.bfloat16]:
            hidden_states = hidden_states.to(self.weight.dtype)
        return self.weight * hidden_states


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class LLaMAAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // self.num_heads
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        q, k, v = (proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
                   for proj in (self.q_proj, self.k_proj, self.v_proj))
        t = torch.arange(q_len, device=hidden_states.device, dtype=self.inv_freq.dtype)
        emb = torch.cat([torch.outer(t, self.inv_freq)] * 2, dim=-1)
        cos, sin = emb.cos().to(q.dtype), emb.sin().to(q.dtype)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        attn_weights = q @ k.transpose(2, 3) / math.sqrt(self.head_dim)
        causal = torch.ones(q_len, q_len, dtype=torch.bool, device=q.device).triu(1)
        attn_weights = attn_weights.masked_fill(causal, torch.finfo(attn_weights.dtype).min)
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(q.dtype)
        return self.o_proj((attn_weights @ v).transpose(1, 2).reshape(bsz, q_len, -1))


class LLaMADecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.self_attn = LLaMAAttention(config)
        self.gate_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.down_proj = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)

    def forward(self, hidden_states):
        hidden_states = hidden_states + self.self_attn(self.input_layernorm(hidden_states))
        h = self.post_attention_layernorm(hidden_states)
        return (hidden_states + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h)),)


class LLaMAModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(LLaMADecoderLayer(config) for _ in range(config.num_hidden_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps)


class LLaMAForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = LLaMAModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    @classmethod
    def from_pretrained(cls, model_path, torch_dtype=None):
        model = cls(LLaMAConfig())  # the converted LLaMA weights, here a seeded random init
        return model.to(torch_dtype) if torch_dtype is not None else model


class DatasetDataset(torch.utils.data.Dataset):
    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, idx):
        return (
            torch.LongTensor(self.dataset[idx]["input_ids"])[:-1],
            torch.LongTensor(self.dataset[idx]["input_ids"])[1:],
        )


class RepeatingLoader:
    """From DeepSpeed: wraps an iterator to allow for infinite iteration."""

    def __init__(self, loader):
        self.loader = loader
        self.data_iter = iter(self.loader)

    def __iter__(self):
        return self

    def __next__(self):
        try:
            batch = next(self.data_iter)
        except StopIteration:
            self.data_iter = iter(self.loader)
            batch = next(self.data_iter)
        return batch


def load_tokenized_dataset(n=64, seq_len=33, vocab_size=512):
    """tokenize_dataset.py's output (datasets.load_from_disk): rows of 'input_ids', synthetic here."""
    g = torch.Generator().manual_seed(0)
    return [{"input_ids": torch.randint(1, vocab_size, (seq_len,), generator=g).tolist()} for _ in range(n)]


def main():
    batch_size, learning_rate, gradient_accumulation_steps, num_train_steps = 4, 1e-4, 1, 4
    save_dir = tempfile.mkdtemp()

    print("Setup Data")
    dataset = load_tokenized_dataset()
    dataloader = RepeatingLoader(torch.utils.data.DataLoader(
        DatasetDataset(dataset), batch_size=batch_size, shuffle=True))

    print("Setup Model")
    model = LLaMAForCausalLM.from_pretrained(
        "llama-7b-hf",
        torch_dtype=torch.float16,  # root-cause-alt
    )

    print("Move Model to Devices")
    devices = get_devices()
    allocations = [
        devices[i] for i in
        sorted(list(range(len(devices))) * math.ceil(model.config.num_hidden_layers / len(devices)))
    ]
    layer_device_tuples = [(model.model.embed_tokens, devices[0])] \
        + list(zip(model.model.layers, allocations)) \
        + [(model.model.norm, devices[-1])] \
        + [(model.lm_head, devices[-1])]
    for layer, device in layer_device_tuples:
        layer.to(device)

    print("Setup optimizer")
    opt = torch.optim.AdamW(model.parameters(), lr=learning_rate)  # root-cause

    print("Start training")
    generator = iter(dataloader)
    for step in range(num_train_steps):
        input_ids, labels = next(generator)
        logits = model_forward(input_ids, layer_device_tuples)
        loss = F.cross_entropy(
            logits.view(-1, model.config.vocab_size),
            labels.view(-1).to(logits.device),
        )
        print(f"step {step} loss {loss.item():.4f} ({loss.dtype})")
        loss.backward()
        opt.step()  # fails-here

        actual_step = step + 1
        if actual_step % gradient_accumulation_steps == 0:
            opt.zero_grad()

    nan_params = [n for n, p in model.named_parameters() if torch.isnan(p).any()]
    print(f"parameters holding NaN after training: {len(nan_params)} of {len(list(model.parameters()))}")
    torch.save(model.state_dict(), os.path.join(save_dir, "checkpoint-final.pt"))


if __name__ == "__main__":
    main()
