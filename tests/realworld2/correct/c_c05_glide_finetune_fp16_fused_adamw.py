"""glide-finetune with --use_fp16 and fused AdamW: fp16 weights, but the fused kernel does the Adam math in float32 (stays finite)
source: https://github.com/afiaka87/glide-finetune/issues/5
reported-error: silent
outcome: ok
root-cause: none
expect: none
"""
import argparse

import torch as th
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    """Stand-in for glide_text2im's Text2ImUNet (keeps convert_to_fp16 like the original)."""

    def __init__(self, ch=16):
        super().__init__()
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)
        self.time_embed = nn.Linear(1, ch)
        self.dtype = th.float32

    def convert_to_fp16(self):
        self.half()
        self.dtype = th.float16

    def forward(self, x, timesteps):
        h = self.inp(x.type(self.dtype))
        h = h + self.time_embed(timesteps.type(self.dtype)[:, None] / 1000)[:, :, None, None]
        h = self.mid(F.silu(h))
        return self.out(F.silu(h))


def load_model(glide_path="", use_fp16=False, freeze_transformer=False, freeze_diffusion=False):
    glide_model = TinyUNet()
    glide_diffusion = {"num_timesteps": 100}
    options = {"use_fp16": use_fp16}
    if use_fp16:
        glide_model.convert_to_fp16()
    return glide_model, glide_diffusion, options


def base_train_step(glide_model, glide_diffusion, batch, device):
    reals = batch.to(device)
    timesteps = th.randint(0, glide_diffusion["num_timesteps"] - 1, (reals.shape[0],), device=device).float()
    noise = th.randn_like(reals)
    x_t = reals + noise * (timesteps / glide_diffusion["num_timesteps"])[:, None, None, None]
    model_output = glide_model(x_t, timesteps)
    return F.mse_loss(model_output.float(), noise.float())


def run_glide_finetune(learning_rate=1e-4, adam_weight_decay=0.0, side_x=16, side_y=16, batch_size=4,
                       use_fp16=False, num_epochs=1, device="cpu"):
    th.manual_seed(0)
    glide_model, glide_diffusion, glide_options = load_model(use_fp16=use_fp16)
    glide_model.train()
    glide_model.to(device)
    optimizer = th.optim.AdamW(
        [x for x in glide_model.parameters() if x.requires_grad],
        lr=learning_rate,
        weight_decay=adam_weight_decay,
        fused=True,
    )
    th.manual_seed(0)
    dataloader = [th.rand(batch_size, 3, side_x, side_y) * 2 - 1 for _ in range(10)]
    for epoch in range(num_epochs):
        for train_idx, batch in enumerate(dataloader):
            accumulated_loss = base_train_step(glide_model, glide_diffusion, batch, device)
            accumulated_loss.backward()
            optimizer.step()
            glide_model.zero_grad()
            print(f"loss: {accumulated_loss.item():.4f}")
    n_bad = sum((~th.isfinite(p)).sum().item() for p in glide_model.parameters())
    print("non-finite weights after training:", n_bad)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--learning_rate", "-lr", type=float, default=1e-4)
    parser.add_argument("--adam_weight_decay", "-adam_wd", type=float, default=0.0)
    parser.add_argument("--batch_size", "-bs", type=int, default=4)
    parser.add_argument("--use_fp16", "-fp16", action="store_true")
    parser.add_argument("--device", "-dev", type=str, default="")
    return parser.parse_args(["--use_fp16"])


if __name__ == "__main__":
    args = parse_args()
    device = args.device or ("cuda" if th.cuda.is_available() else "cpu")
    run_glide_finetune(learning_rate=args.learning_rate, adam_weight_decay=args.adam_weight_decay,
                       batch_size=args.batch_size, use_fp16=args.use_fp16, device=device)
