"""Adversarial attack evaluation: perturbation norms are computed on the GPU and converted with .numpy() for logging without moving them to the host
source: https://github.com/amirgholami/TRAttack/pull/3
reported-error: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 50; on CPU: ok
root-cause: line 50
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))


def tr_attack(model, data, true_ind, eps=0.05, iters=3):
    x = data.clone().requires_grad_(True)
    for _ in range(iters):
        out = model(x)
        loss = F.cross_entropy(out, true_ind)
        grad, = torch.autograd.grad(loss, x)
        x = (x + eps * grad.sign()).detach().requires_grad_(True)
    return x.detach()


def main():
    parser = argparse.ArgumentParser(description="TR attack")
    parser.add_argument("--test-batch-size", type=int, default=16)
    parser.add_argument("--no-cuda", action="store_true", default=False)
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    model = get_model().to(device).eval()

    num_data, result_acc, result_ent = 0, 0, []
    for batch in range(3):
        data = torch.rand(args.test_batch_size, 3, 16, 16).to(device)
        target = torch.randint(0, 10, (args.test_batch_size,)).to(device)
        x_adv = tr_attack(model, data, target)
        with torch.no_grad():
            out = model(x_adv)
        result_acc += out.argmax(1).eq(target).sum().item()
        num_data += data.size(0)
        diff = (x_adv - data).view(data.size(0), -1)
        perturbation = diff.norm(dim=1) / data.view(data.size(0), -1).norm(dim=1)
        result_ent.append(perturbation.numpy())  # root-cause # fails-here
    result_ent = np.concatenate(result_ent)
    print("Robust acc: {:.3f}  mean perturbation: {:.4f}".format(result_acc / num_data, result_ent.mean()))


if __name__ == "__main__":
    main()
