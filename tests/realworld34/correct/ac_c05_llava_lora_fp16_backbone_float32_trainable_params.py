"""LLaVA LoRA tuning with --fp16 where the frozen backbone is still cast to float16 to save memory, but every trainable parameter (LoRA adapters, mm_projector) is upcast to float32 after get_peft_model, so autocast computes in float16 while the GradScaler only ever unscales float32 gradients
source: https://github.com/haotian-liu/LLaVA/issues/363
reported-error: ValueError: Attempting to unscale FP16 gradients. (python llava/train/train.py --lora_enable True --fp16 True --model_name_or_path vicuna-7b-v1.3 --vision_tower openai/clip-vit-large-patch14 ...)
outcome: ok
root-cause: -
expect: none
"""
import argparse
from dataclasses import dataclass, field, fields

import torch
import torch.nn as nn


@dataclass
class ModelArguments:
    model_name_or_path: str = "lmsys/vicuna-7b-v1.3"
    vision_tower: str = "openai/clip-vit-large-patch14"
    mm_vision_select_layer: int = -2


@dataclass
class TrainingArguments:
    fp16: bool = False
    bf16: bool = False
    bits: int = 16
    lora_enable: bool = False
    lora_r: int = 8
    lora_alpha: int = 16
    learning_rate: float = 2e-4
    num_train_steps: int = 3
    target_modules: list = field(default_factory=lambda: ["q_proj", "v_proj"])


class LlavaLlamaForCausalLM(nn.Module):  # toy-size stand-in: CLIP features -> mm_projector -> LLaMA block
    def __init__(self, vocab=128, hidden=64, vision_hidden=48):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.mm_projector = nn.Sequential(nn.Linear(vision_hidden, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.q_proj, self.v_proj = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, image_features, labels):
        h = torch.cat([self.mm_projector(image_features), self.embed_tokens(input_ids)], dim=1)
        h = h + self.v_proj(torch.softmax(self.q_proj(h) @ h.transpose(1, 2) / 8.0, dim=-1) @ h)
        logits = self.lm_head(h)[:, image_features.shape[1]:]
        return nn.functional.cross_entropy(logits.flatten(0, 1).float(), labels.flatten())


class LoraLinear(nn.Module):  # what peft's get_peft_model puts in place of each target nn.Linear
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base_layer, self.scaling = base, alpha / r
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.lora_A.to(base.weight.dtype)  # adapters follow the base layer's dtype
        self.lora_B.to(base.weight.dtype)

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling


def get_peft_model(model, training_args):
    model.requires_grad_(False)
    for name in training_args.target_modules:
        setattr(model, name, LoraLinear(getattr(model, name), training_args.lora_r, training_args.lora_alpha))
    model.mm_projector.requires_grad_(True)  # tune the multimodal projector as well
    return model


def train(argv):
    parser = argparse.ArgumentParser()
    for f in fields(TrainingArguments):
        if f.type in (bool, "bool"):
            parser.add_argument(f"--{f.name}", type=lambda s: s == "True", default=f.default)
    training_args = TrainingArguments(**vars(parser.parse_args(argv)))
    model_args = ModelArguments()
    compute_dtype = (torch.float16 if training_args.fp16 else (torch.bfloat16 if training_args.bf16 else torch.float32))
    torch.manual_seed(0)
    model = LlavaLlamaForCausalLM()
    if training_args.lora_enable:
        if training_args.bits == 16:
            if training_args.bf16:
                model.to(torch.bfloat16)
            if training_args.fp16:
                model.to(torch.float16)
        print("Adding LoRA adapters...")
        model = get_peft_model(model, training_args)
        if training_args.bits == 16 and training_args.fp16:
            for p in model.parameters():
                if p.requires_grad:  # trainable weights stay float32 for the GradScaler
                    p.data = p.data.float()
    print(f"{model_args.model_name_or_path} + {model_args.vision_tower}, compute dtype {compute_dtype}")

    # ---- transformers Trainer with --fp16: autocast + GradScaler
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=training_args.learning_rate)
    scaler = torch.amp.GradScaler("cpu", enabled=training_args.fp16)
    for step in range(training_args.num_train_steps):
        input_ids, labels = torch.randint(0, 128, (2, 12)), torch.randint(0, 128, (2, 12))
        image_features = torch.randn(2, 4, 48)  # CLIP patch features of the select layer
        with torch.autocast("cpu", dtype=compute_dtype, enabled=training_args.fp16):
            loss = model(input_ids, image_features.to(compute_dtype), labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(["--lora_enable", "True", "--fp16", "True"])
