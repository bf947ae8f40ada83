import math
import sys

import numpy as np
import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, epoch):
    model.train()
    losses = []
    for samples, targets in data_loader:
        samples = samples.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        outputs = model(samples)
        loss = criterion(outputs, targets)
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss_value)
    return {"loss": sum(losses) / len(losses)}


@torch.no_grad()
def evaluate(data_loader, model, device):
    model.eval()
    accs = []
    for images, target in data_loader:
        output = model(images.to(device))
        accs.append((output.argmax(-1).cpu() == target).float().mean().item() * 100)
    return {"acc1": np.mean(accs)}  # root-cause
