"""DiffSynth-Studio-style SDXL LoRA training (re-typed: DDIMScheduler with alphas_cumprod kept as a Python list and set_timesteps(1000, training=True) giving 999..0, FlowMatchSFTLoss sampling one timestep per step and casting it to pipe.torch_dtype, add_noise indexing alphas_cumprod with int(timestep), a frozen base denoiser with float32 LoRA adapters) with the pipeline loaded in torch.bfloat16 as in the report; bfloat16 cannot hold 999 (nor 998) and rounds it to 1000, so the first time timestep 999 is drawn add_noise indexes past the 1000-entry list
source: https://github.com/modelscope/DiffSynth-Studio/issues/1499
reported-error: "在使用半精度 bfloat16 训练lora时有概率报错: 数组越界" (training a LoRA in bfloat16 randomly fails with an out-of-range index in diffsynth/diffusion/ddim_scheduler.py add_noise; the printed timestep is 1000 because torch.tensor(999.0).to(torch.bfloat16) is tensor(1000., dtype=torch.bfloat16)); fixed by clamping the index in add_noise/training_target (commit d1a6ed4, also PR #1501)
outcome: IndexError: list index out of range at line 36
root-cause: line 104
expect: DG018
"""
import math

import torch
import torch.nn as nn

SEED = 7


class DDIMScheduler():
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012, prediction_type="epsilon"):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.square(torch.linspace(math.sqrt(beta_start), math.sqrt(beta_end), num_train_timesteps, dtype=torch.float32))
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0).tolist()
        self.set_timesteps(10)
        self.prediction_type = prediction_type
        self.training = False

    def set_timesteps(self, num_inference_steps, denoising_strength=1.0, training=False, **kwargs):
        max_timestep = max(round(self.num_train_timesteps * denoising_strength) - 1, 0)
        num_inference_steps = min(num_inference_steps, max_timestep + 1)
        if num_inference_steps == 1:
            self.timesteps = torch.Tensor([max_timestep])
        else:
            step_length = max_timestep / (num_inference_steps - 1)
            self.timesteps = torch.Tensor([round(max_timestep - i * step_length) for i in range(num_inference_steps)])
        self.training = training

    def add_noise(self, original_samples, noise, timestep):
        sqrt_alpha_prod = math.sqrt(self.alphas_cumprod[int(timestep.flatten().tolist()[0])])  # root-cause-alt  # fails-here
        sqrt_one_minus_alpha_prod = math.sqrt(1 - self.alphas_cumprod[int(timestep.flatten().tolist()[0])])
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

    def training_target(self, sample, noise, timestep):
        if self.prediction_type == "epsilon":
            return noise
        sqrt_alpha_prod = math.sqrt(self.alphas_cumprod[int(timestep.flatten().tolist()[0])])
        sqrt_one_minus_alpha_prod = math.sqrt(1 - self.alphas_cumprod[int(timestep.flatten().tolist()[0])])
        return sqrt_alpha_prod * noise - sqrt_one_minus_alpha_prod * sample

    def training_weight(self, timestep):
        return 1.0


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, rank, bias=False)
        self.lora_B = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x.float())).to(x.dtype)


class TinyDenoiser(nn.Module):
    """Stand-in for SDXLUNet2DConditionModel: latents (B, 4, 8, 8) + timestep + text embedding -> noise."""

    def __init__(self, dim=256, text_dim=32):
        super().__init__()
        self.time_proj = nn.Linear(32, dim)
        self.text_proj = nn.Linear(text_dim, dim)
        self.inp = nn.Linear(4 * 8 * 8, dim)
        self.mid = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, 4 * 8 * 8)

    def time_embedding(self, timestep, dtype):
        half = 16
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
        args = timestep.float()[:, None] * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1).to(dtype)

    def forward(self, latents, timestep, text_emb):
        b = latents.shape[0]
        h = self.inp(latents.reshape(b, -1)) + self.time_proj(self.time_embedding(timestep.expand(b), latents.dtype))
        h = h + self.text_proj(text_emb)
        h = self.mid(torch.nn.functional.silu(h))
        return self.out(torch.nn.functional.silu(h)).reshape(latents.shape)


class StableDiffusionXLPipeline:
    def __init__(self, torch_dtype, device="cpu"):
        self.torch_dtype = torch_dtype
        self.device = device
        self.scheduler = DDIMScheduler()
        self.unet = TinyDenoiser().to(dtype=torch_dtype).requires_grad_(False)
        self.in_iteration_models = ("unet",)

    def model_fn(self, unet, latents, timestep, text_emb, **kwargs):
        return unet(latents, timestep, text_emb)


def FlowMatchSFTLoss(pipe, **inputs):
    max_timestep_boundary = int(inputs.get("max_timestep_boundary", 1) * len(pipe.scheduler.timesteps))
    min_timestep_boundary = int(inputs.get("min_timestep_boundary", 0) * len(pipe.scheduler.timesteps))
    timestep_id = torch.randint(min_timestep_boundary, max_timestep_boundary, (1,))
    timestep = pipe.scheduler.timesteps[timestep_id].to(dtype=pipe.torch_dtype, device=pipe.device)  # root-cause
    noise = torch.randn_like(inputs["input_latents"]) * inputs.get("noise_scale", 1.0)
    inputs["latents"] = pipe.scheduler.add_noise(inputs["input_latents"], noise, timestep)
    training_target = pipe.scheduler.training_target(inputs["input_latents"], noise, timestep)
    models = {name: getattr(pipe, name) for name in pipe.in_iteration_models}
    noise_pred = pipe.model_fn(**models, **inputs, timestep=timestep)
    loss = torch.nn.functional.mse_loss(noise_pred.float(), training_target.float())
    return loss * pipe.scheduler.training_weight(timestep)


class StableDiffusionXLTrainingModule(nn.Module):
    def __init__(self, torch_dtype, lora_rank=4):
        super().__init__()
        self.pipe = StableDiffusionXLPipeline(torch_dtype=torch_dtype)
        # switch_pipe_to_training_mode: LoRA on the denoiser, scheduler in training mode (1000 timesteps 999..0)
        unet = self.pipe.unet
        unet.mid = LoRALinear(unet.mid, lora_rank)
        unet.out = LoRALinear(unet.out, lora_rank)
        self.lora = nn.ModuleList([unet.mid, unet.out])
        self.pipe.scheduler.set_timesteps(1000, training=True)

    def trainable_parameters(self):
        return [p for n, p in self.lora.named_parameters() if "lora_" in n]

    def forward(self, data):
        inputs = {"input_latents": data["latents"].to(self.pipe.torch_dtype), "text_emb": data["text_emb"].to(self.pipe.torch_dtype)}
        return FlowMatchSFTLoss(self.pipe, **inputs)


def launch_training_task(model, num_steps=200, learning_rate=1e-4):
    optimizer = torch.optim.AdamW(model.trainable_parameters(), lr=learning_rate)
    g = torch.Generator().manual_seed(0)
    dataset = [{"latents": torch.randn(1, 4, 8, 8, generator=g), "text_emb": torch.randn(1, 32, generator=g)} for _ in range(8)]
    for step in range(num_steps):
        data = dataset[step % len(dataset)]
        optimizer.zero_grad()
        loss = model(data)
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step}: loss {loss.item():.4f}")
    print(f"trained {num_steps} steps, last loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(SEED)
    model = StableDiffusionXLTrainingModule(torch_dtype=torch.bfloat16)
    launch_training_task(model)
