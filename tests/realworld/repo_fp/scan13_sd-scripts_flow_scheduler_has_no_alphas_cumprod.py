"""sd-scripts sd3_train.py: float flow-matching timesteps reach the Huber 'snr' schedule's index_select only behind a hasattr guard that the flow scheduler fails

source: https://github.com/kohya-ss/sd-scripts/blob/48d368fa557731ad0488c07304dfeba8c07910eb/sd3_train.py#L851
(the timesteps come from library/sd3_train_utils.py#L938; the index_select is library/train_util.py#L6121, guarded at #L6119)
false-alarm: DG006 at line 44 (reported in the repo at both sd3_train_utils.py:938 and sd3_train.py:851): `timesteps` is float
(`indices.to(device=device, dtype=dtype)` with the weight dtype), but the only `torch.index_select` on it is in the
`huber_schedule == "snr"` branch, which first checks `hasattr(noise_scheduler, "alphas_cumprod")` and raises
NotImplementedError("Huber schedule 'snr' is not supported with the current model.") when it is missing. sd3_train.py
passes `dummy_scheduler = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000, shift=3.0)` (line 683), a
flow-matching scheduler with no `alphas_cumprod` (its diffusers ConfigMixin `__getattr__` only serves config keys), so
the float index never reaches index_select: 'exponential' and 'constant' use no index, and 'snr' stops at the guard
with its own message. (Checked with the repo's scheduler class and diffusers 0.42.1: hasattr is False, 'snr' raises
NotImplementedError, the other two schedules return float32 thresholds.) The same holds for every flow-matching
trainer (flux_train.py, lumina_train.py use the same scheduler class); the DDPM trainers pass long timesteps.
This reduction runs on the CPU (exit 0) with the repo's defaults (`--loss_type l2`, `--huber_schedule snr`).
"""
# Reduction: the SD3 MMDiT is a 1x1 conv, the latents random, the scheduler a plain class that (like the repo's
# FlowMatchEulerDiscreteScheduler) has a config and timesteps but no alphas_cumprod; the timestep sampling and
# get_huber_threshold_if_needed are kept as in the repo.
import argparse
import math

import torch
import torch.nn as nn


class FlowMatchEulerDiscreteScheduler:
    def __init__(self, num_train_timesteps=1000, shift=1.0):
        self.config = argparse.Namespace(num_train_timesteps=num_train_timesteps, shift=shift)
        timesteps = torch.linspace(1, num_train_timesteps, num_train_timesteps, dtype=torch.float32).flip(0)
        sigmas = timesteps / num_train_timesteps
        self.sigmas = shift * sigmas / (1 + (shift - 1) * sigmas)
        self.timesteps = self.sigmas * num_train_timesteps


def get_noisy_model_input_and_timesteps(args, latents, noise, device, dtype):
    bsz = latents.shape[0]
    u = torch.rand(size=(bsz,), device="cpu")
    t_min = args.min_timestep if args.min_timestep is not None else 0
    t_max = args.max_timestep if args.max_timestep is not None else 1000
    shift = args.training_shift
    u = (u * shift) / (1 + (shift - 1) * u)
    indices = (u * (t_max - t_min) + t_min).long()
    timesteps = indices.to(device=device, dtype=dtype)
    sigmas = timesteps / 1000
    sigmas = sigmas.view(-1, 1, 1, 1)
    noisy_model_input = sigmas * noise + (1.0 - sigmas) * latents
    return noisy_model_input, timesteps, sigmas


def get_huber_threshold_if_needed(args, timesteps, noise_scheduler):
    if not (args.loss_type == "huber" or args.loss_type == "smooth_l1"):
        return None

    b_size = timesteps.shape[0]
    if args.huber_schedule == "exponential":
        alpha = -math.log(args.huber_c) / noise_scheduler.config.num_train_timesteps
        result = torch.exp(-alpha * timesteps) * args.huber_scale
    elif args.huber_schedule == "snr":
        if not hasattr(noise_scheduler, "alphas_cumprod"):
            raise NotImplementedError("Huber schedule 'snr' is not supported with the current model.")
        alphas_cumprod = torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())
        sigmas = ((1.0 - alphas_cumprod) / alphas_cumprod) ** 0.5
        result = (1 - args.huber_c) / (1 + sigmas) ** 2 + args.huber_c
        result = result.to(timesteps.device)
    elif args.huber_schedule == "constant":
        result = torch.full((b_size,), args.huber_c * args.huber_scale, device=timesteps.device)
    else:
        raise NotImplementedError(f"Unknown Huber loss schedule {args.huber_schedule}!")

    return result


def conditional_loss(model_pred, target, loss_type, reduction, huber_c=None):
    if loss_type == "l2":
        return nn.functional.mse_loss(model_pred, target, reduction=reduction)
    if huber_c is None:
        raise NotImplementedError("huber_c not implemented correctly")
    huber_c = huber_c.view(-1, 1, 1, 1)
    return 2 * huber_c * (torch.sqrt((model_pred - target) ** 2 + huber_c**2) - huber_c)


parser = argparse.ArgumentParser()
parser.add_argument("--loss_type", type=str, default="l2", choices=["l1", "l2", "huber", "smooth_l1"])
parser.add_argument("--huber_schedule", type=str, default="snr", choices=["constant", "exponential", "snr"])
parser.add_argument("--huber_c", type=float, default=0.1)
parser.add_argument("--huber_scale", type=float, default=1.0)
parser.add_argument("--min_timestep", type=int, default=None)
parser.add_argument("--max_timestep", type=int, default=None)
parser.add_argument("--training_shift", type=float, default=1.0)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
weight_dtype = torch.float32
mmdit = nn.Conv2d(4, 4, 1).to(device)
optimizer = torch.optim.AdamW(mmdit.parameters(), lr=1e-4)
dummy_scheduler = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000, shift=3.0)

for step in range(2):
    latents = torch.randn(2, 4, 8, 8, device=device)
    noise = torch.randn_like(latents)
    noisy_model_input, timesteps, sigmas = get_noisy_model_input_and_timesteps(
        args, latents, noise, device, weight_dtype
    )
    model_pred = mmdit(noisy_model_input)
    model_pred = model_pred * (-sigmas) + noisy_model_input
    target = latents
    huber_c = get_huber_threshold_if_needed(args, timesteps, dummy_scheduler)
    loss = conditional_loss(model_pred.float(), target.float(), args.loss_type, "none", huber_c)
    loss = loss.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("ok", loss.item())
