"""ZCls image classification training with --low-precision (ZJCV/ZCls layout: train.py parses the arguments and calls zcls.model.build.build_model(args, memory_format)): the factory casts the whole model to bfloat16, the script then builds Adam over those bfloat16 parameters at lr=1e-4, and every update smaller than half a bfloat16 step of the weight it updates rounds away
source: https://github.com/ZJCV/ZCls/blob/0639858f4a26361ad15a44c8fa7c9a603fafce31/zcls/model/build.py
reported-error: (the repository's build_model moves the model to the GPU and memory format only; the variant's bfloat16 cast under --low-precision trains without any error while about 4 in 10 weight updates round away at every step)
outcome: ok (silent: on average only 61.9% of the 57130 bfloat16 weights change per Adam step at lr=1e-4, vs 100.0% when the same script runs without --low-precision (float32); loss 2.1800 after 20 steps vs 2.1253) at train.py:38
root-cause: zcls/model/build.py:21
expect: DG013
"""
import argparse

import torch
import torch.nn.functional as F

from zcls.model.build import build_model

parser = argparse.ArgumentParser(description="ZCls training")
parser.add_argument("--arch", default="resnet_tiny")
parser.add_argument("--lr", type=float, default=1e-4)
parser.add_argument("--steps", type=int, default=20)
parser.add_argument("--low-precision", action="store_true")
parser.add_argument("--channels-last", action="store_true")
args = parser.parse_args(["--low-precision"])

torch.manual_seed(0)
memory_format = torch.channels_last if args.channels_last else torch.contiguous_format
model = build_model(args, memory_format)
dtype = next(model.parameters()).dtype
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

images = torch.randn(32, 3, 32, 32).to(dtype)
target = torch.randint(0, 10, (32,))
moved = []
for step in range(args.steps):
    before = [p.detach().clone() for p in model.parameters()]
    output = model(images)
    loss = F.cross_entropy(output.float(), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    moved.append(sum((p.detach() != b).sum().item() for p, b in zip(model.parameters(), before)))
total = sum(p.numel() for p in model.parameters())
print(f"{dtype} weights changed per Adam step (mean of {args.steps}): {sum(moved) / len(moved) / total:.1%} of {total}")
print(f"loss {loss.item():.4f}")
