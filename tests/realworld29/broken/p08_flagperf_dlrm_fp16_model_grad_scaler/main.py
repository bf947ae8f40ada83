"""DLRM benchmark training (FlagOpen/FlagPerf layout: config.py with fp16/amp flags, train/trainer_adapter.py with model_to_fp16 and create_grad_scaler, run_pretraining.py): with fp16 and amp both on, model_to_fp16 calls model.half() and the GradScaler created next to it then refuses the float16 gradients at scaler.step
source: https://github.com/FlagOpen/FlagPerf/blob/b4bd711ac6ed4a6ce916de045c3de2f55f5f18fd/training/benchmarks/dlrm/pytorch/train/trainer_adapter.py
reported-error: (the repository file itself: model_to_fp16 does model.half() when config.fp16 while create_grad_scaler builds a GradScaler when config.amp; together they fail with ValueError: Attempting to unscale FP16 gradients.)
outcome: ValueError: Attempting to unscale FP16 gradients. at main.py:34
root-cause: train/trainer_adapter.py:15
expect: DG014
"""
import torch
import torch.nn.functional as F

import config
from model import DLRM
from train import trainer_adapter

torch.manual_seed(config.seed)
device = torch.device(config.device)

model = DLRM(config.num_embeddings, config.embedding_dim, config.dense_features)
model = trainer_adapter.convert_model(model)
model = trainer_adapter.model_to_fp16(model)
model = model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=config.learning_rate)
grad_scaler = trainer_adapter.create_grad_scaler()

for step in range(config.max_steps):
    dense = torch.randn(config.batch_size, config.dense_features, device=device)
    sparse = torch.randint(0, config.num_embeddings, (config.batch_size, 3), device=device)
    labels = torch.randint(0, 2, (config.batch_size,), device=device).float()
    with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=config.amp):
        logits = model(dense.to(next(model.parameters()).dtype), sparse)
        loss = F.binary_cross_entropy_with_logits(logits.float(), labels)
    optimizer.zero_grad()
    grad_scaler.scale(loss).backward()
    grad_scaler.step(optimizer)  # fails-here
    grad_scaler.update()
    print(f"step {step}: loss {loss.item():.4f}")
