"""DLRM benchmark training with FlagPerf's trainer_adapter (model_to_fp16, create_grad_scaler) where config.py turns amp on and fp16 off: the model stays float32, the forward runs under torch.autocast(float16) and the GradScaler unscales float32 gradients
source: https://github.com/FlagOpen/FlagPerf/blob/b4bd711ac6ed4a6ce916de045c3de2f55f5f18fd/training/benchmarks/dlrm/pytorch/train/trainer_adapter.py
reported-error: (none: correct code)
outcome: ok (exit 0)
root-cause: -
expect: none
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
    grad_scaler.step(optimizer)
    grad_scaler.update()
    print(f"step {step}: loss {loss.item():.4f}")
