"""Role-playing LoRA fine-tuning in the Neeko code base (src/model.py layout, inherited from LLaMA-Efficient-Tuning: load_pretrained loads LLaMA with torch_dtype=torch.float16, prepare_model_for_training casts the 1-D norm weights to float32 and wraps lm_head in CastOutputToFloat, _init_adapter adds LoRA, then the Trainer runs without --fp16 autocast): the float32 RMSNorm weight promotes the normalised hidden states to float32, and the first float16 q_proj refuses them
source: https://github.com/weiyifan1023/Neeko/issues/6
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half (train.py line 19 trainer.train() -> src/trainer.py line 71 self.trainer.train() -> transformers Trainer.compute_loss -> outputs = model(**inputs))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: float != c10::Half at line 91
root-cause: line 69
expect: DG004
"""
from dataclasses import dataclass
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class FinetuningArguments:
    finetuning_type: str = "lora"
    lora_rank: int = 8
    lora_alpha: float = 32.0
    lora_target: tuple = ("q_proj", "v_proj")


@dataclass
class TrainingArguments:
    learning_rate: float = 5e-5
    num_train_steps: int = 3
    fp16: bool = False


# ---- transformers LLaMA (toy size) loaded with torch_dtype=torch.float16
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


class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=200, hidden=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.input_layernorm = LlamaRMSNorm(hidden)
        self.q_proj, self.k_proj = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.v_proj, self.o_proj = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.norm = LlamaRMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, labels):
        h = self.embed_tokens(input_ids)
        x = self.input_layernorm(h)
        attn = F.scaled_dot_product_attention(self.q_proj(x), self.k_proj(x), self.v_proj(x), is_causal=True)
        logits = self.lm_head(self.norm(h + self.o_proj(attn)))
        return F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten())


# ---- src/model.py
def prepare_model_for_training(model, finetuning_type, output_embedding_layer_name="lm_head",
                               layer_norm_names: Optional[List[str]] = ["norm", "ln_f"]):
    for name, param in model.named_parameters():
        if param.ndim == 1 and any(layer_norm_name in name for layer_norm_name in layer_norm_names):
            param.data = param.data.to(torch.float32)  # root-cause
    if finetuning_type != "full" and hasattr(model, output_embedding_layer_name):
        output_embedding_layer = getattr(model, output_embedding_layer_name)
        input_dtype = output_embedding_layer.weight.dtype

        class CastOutputToFloat(torch.nn.Sequential):
            def forward(self, x):
                return super().forward(x.to(input_dtype)).to(torch.float32)

        setattr(model, output_embedding_layer_name, CastOutputToFloat(output_embedding_layer))
    return model


class LoraLinear(nn.Module):  # peft 0.3-style LoRA Linear: base weight kept, adapters created in float32
    def __init__(self, base, r, lora_alpha):
        super().__init__()
        self.weight, self.scaling = base.weight, lora_alpha / r
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        result = F.linear(x, self.weight)  # fails-here
        x = x.to(self.lora_A.weight.dtype)
        return result + self.lora_B(self.lora_A(x)).to(result.dtype) * self.scaling


def _init_adapter(model, finetuning_args):
    if finetuning_args.finetuning_type == "lora":
        model.requires_grad_(False)
        for name in finetuning_args.lora_target:
            setattr(model, name, LoraLinear(getattr(model, name), finetuning_args.lora_rank, finetuning_args.lora_alpha))
    return model


def load_pretrained(finetuning_args, is_trainable=True):
    model = LlamaForCausalLM().to(torch.float16)  # AutoModelForCausalLM.from_pretrained(..., torch_dtype=torch.float16)
    model = prepare_model_for_training(model, finetuning_args.finetuning_type) if is_trainable else model
    model = _init_adapter(model, finetuning_args)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable params: {trainable} || all params: {sum(p.numel() for p in model.parameters())}")
    return model


# ---- train.py / src/trainer.py
if __name__ == "__main__":
    torch.manual_seed(0)
    finetuning_args, training_args = FinetuningArguments(), TrainingArguments()
    model = load_pretrained(finetuning_args)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=training_args.learning_rate)
    for step in range(training_args.num_train_steps):
        inputs = {"input_ids": torch.randint(0, 200, (2, 16)), "labels": torch.randint(0, 200, (2, 16))}
        with torch.autocast("cpu", dtype=torch.float16, enabled=training_args.fp16):
            loss = model(**inputs)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f}")
