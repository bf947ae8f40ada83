"""Diffusion-policy RL fine-tuning (ddpo-pytorch scripts/train.py layout) with use_lora=False: the UNet is cast to the fp16 inference dtype together with the frozen VAE and text encoder, although without LoRA it is the module being trained, so torch.optim.AdamW keeps fp16 weights and state and its default eps=1e-8 rounds to zero
source: https://github.com/kvablack/ddpo-pytorch/issues/8
reported-error: none raised; the maintainer explains that training weights must not be low precision or training becomes unstable, which is why the UNet is cast to inference_dtype only when LoRA is used (full fine-tuning keeps it in float32)
outcome: ok (silent: the first AdamW step at line 58 writes NaN/inf into the fp16 UNet weights, printed as "non-finite unet parameters: 32806", and the next losses are nan)
root-cause: line 42
expect: DG012
"""
import torch
import torch.nn as nn

CONFIG = {"use_lora": False, "mixed_precision": "fp16", "lr": 3e-4, "adam_eps": 1e-8, "num_steps": 3, "batch": 8}


# ---- a tiny pipeline standing in for StableDiffusionPipeline
class TinyUNet(nn.Module):
    def __init__(self, dim=32, n_timesteps=1000):
        super().__init__()
        self.time_embedding = nn.Embedding(n_timesteps, dim)
        self.down = nn.Linear(dim, dim)
        self.up = nn.Linear(dim, dim)

    def forward(self, latents, t, text_emb):
        h = torch.relu(self.down(latents + self.time_embedding(t) + text_emb))
        return self.up(h)


class Pipeline:
    def __init__(self, dim=32):
        self.unet = TinyUNet(dim)
        self.vae = nn.Linear(dim, dim)
        self.text_encoder = nn.Embedding(50, dim)


def setup_pipeline(config, device="cpu"):
    pipeline = Pipeline()
    pipeline.vae.requires_grad_(False)
    pipeline.text_encoder.requires_grad_(False)
    pipeline.unet.requires_grad_(not config["use_lora"])
    inference_dtype = torch.float16 if config["mixed_precision"] == "fp16" else torch.float32
    pipeline.vae.to(device, dtype=inference_dtype)
    pipeline.text_encoder.to(device, dtype=inference_dtype)
    pipeline.unet.to(device, dtype=inference_dtype)  # root-cause
    return pipeline, inference_dtype


def ddpo_step(pipeline, optimizer, config, dtype, step):
    g = torch.Generator().manual_seed(step)
    latents = torch.randn(config["batch"], 32, generator=g).to(dtype)
    timesteps = torch.randint(0, 10, (config["batch"],), generator=g)
    with torch.no_grad():
        prompt_embeds = pipeline.text_encoder(torch.randint(0, 50, (config["batch"],), generator=g))
    advantages = torch.randn(config["batch"], generator=g).to(dtype)
    noise_pred = pipeline.unet(latents, timesteps, prompt_embeds)
    log_prob = -(noise_pred - latents).pow(2).mean(-1)
    loss = -(advantages * log_prob).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    pipeline, inference_dtype = setup_pipeline(CONFIG)
    trainable = [p for p in pipeline.unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=CONFIG["lr"], eps=CONFIG["adam_eps"])
    for step in range(CONFIG["num_steps"]):
        loss = ddpo_step(pipeline, optimizer, CONFIG, inference_dtype, step)
        bad = sum(int((~torch.isfinite(p)).sum()) for p in trainable)
        print(f"step {step} loss {loss:.4f} non-finite unet parameters: {bad}")
