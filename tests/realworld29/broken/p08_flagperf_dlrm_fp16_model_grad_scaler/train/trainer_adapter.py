import torch
from torch import nn

import config


def convert_model(model: nn.Module) -> nn.Module:
    return model


def model_to_fp16(model: nn.Module) -> nn.Module:
    # To prevent OOM for model sizes that cannot fit in GPU memory in full precision
    if config.fp16:
        print(" > use fp16...")
        model.half()  # root-cause
    return model


def create_grad_scaler():
    """create_grad_scaler for mixed precision training"""
    scaler = torch.amp.GradScaler(config.device, enabled=config.amp, growth_interval=int(1e9))
    return scaler
