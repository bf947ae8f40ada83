import math
import sys

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, device, epoch, max_norm=0):
    model.train()
    criterion.train()
    totals = {}
    for samples, targets in data_loader:
        samples = samples.to(device)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        outputs = model(samples)
        loss_dict = criterion(outputs, targets)
        weight_dict = criterion.weight_dict
        losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict.keys() if k in weight_dict)
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)
        optimizer.zero_grad()
        losses.backward()
        if max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        for k, v in loss_dict.items():
            totals[k] = totals.get(k, 0.0) + v.item()
    return {k: v / len(data_loader) for k, v in totals.items()}
