"""HF Trainer fp16=True reduced to plain torch, on a model already cast with .half()
source: https://github.com/pytorch/pytorch/issues/74739
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 53
root-cause: line 72
expect: DG014
"""
import numpy as np
import torch
import torch.nn as nn

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')


class TrainingArguments:
    def __init__(self, fp16=True, learning_rate=2e-4, max_grad_norm=1.0, num_train_epochs=1,
                 per_device_train_batch_size=8):
        self.fp16 = fp16
        self.learning_rate = learning_rate
        self.max_grad_norm = max_grad_norm
        self.num_train_epochs = num_train_epochs
        self.per_device_train_batch_size = per_device_train_batch_size


class Trainer:
    """Trainer reduced to plain torch: what `fp16=True` sets up."""

    def __init__(self, model, args, train_dataset):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, eps=1e-4)
        self.scaler = torch.amp.GradScaler(device.type) if args.fp16 else None

    def compute_loss(self, model, inputs):
        logits = model(inputs['input_ids'])
        return nn.functional.cross_entropy(logits.view(-1, logits.size(-1)).float(), inputs['labels'].view(-1))

    def training_step(self, model, inputs):
        model.train()
        with torch.autocast(device.type, dtype=torch.float16, enabled=self.args.fp16):
            loss = self.compute_loss(model, inputs)
        self.scaler.scale(loss).backward()
        return loss.detach()

    def train(self):
        ids, labels = self.train_dataset
        bs = self.args.per_device_train_batch_size
        for epoch in range(self.args.num_train_epochs):
            for st in range(0, len(ids), bs):
                inputs = {'input_ids': ids[st:st + bs].to(device), 'labels': labels[st:st + bs].to(device)}
                loss = self.training_step(self.model, inputs)
                self.scaler.unscale_(self.optimizer)  # fails-here
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
                self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer.zero_grad()
                print('loss', loss.item())


class TinyLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, vocab))

    def forward(self, input_ids):
        return self.ff(self.emb(input_ids))


model = TinyLM()
model = model.half().to(device)  # root-cause
ids = torch.randint(0, 100, (32, 16))
labels = torch.roll(ids, -1, dims=1)
trainer = Trainer(model=model, args=TrainingArguments(fp16=True), train_dataset=(ids, labels))
trainer.train()
