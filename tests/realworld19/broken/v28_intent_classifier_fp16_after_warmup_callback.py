"""Intent classifier trained with a hand-written Trainer and callbacks: a MixedPrecisionSwitch callback calls model.half() at the end of the warm-up epoch to speed up the rest of training, but the AdamW optimizer created before it already holds float32 exp_avg/exp_avg_sq state, so the first step of epoch 1 mixes Half gradients with Float state
source: https://deadends.dev/huggingface/dtype-mismatch-training/hf4-linux/
reported-error: RuntimeError: expected Float but got Half during training (training dtype conflict between model and optimizer)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 51
root-cause: line 36
expect: DG015
"""
import numpy as np
import torch
import torch.nn as nn

INTENTS = ["book_flight", "cancel", "weather", "greeting"]


class BagOfWordsEncoder(nn.Module):
    def __init__(self, vocab_size=300, dim=32, n_intents=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, n_intents))

    def forward(self, ids, offsets):
        return self.mlp(self.emb(ids, offsets))


class Callback:
    def on_epoch_end(self, trainer, epoch):
        pass


class MixedPrecisionSwitch(Callback):
    def __init__(self, warmup_epochs=1):
        self.warmup_epochs = warmup_epochs

    def on_epoch_end(self, trainer, epoch):
        if epoch + 1 == self.warmup_epochs:
            trainer.model.half()  # root-cause
            print("switched model to fp16 after warm-up")


class Trainer:
    def __init__(self, model, callbacks=(), lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.callbacks = list(callbacks)

    def training_step(self, ids, offsets, labels):
        logits = self.model(ids, offsets)
        loss = nn.functional.cross_entropy(logits.float(), labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()

    def fit(self, batches, epochs=3):
        for epoch in range(epochs):
            losses = [self.training_step(*b) for b in batches]
            print(f"epoch {epoch}: loss {np.mean(losses):.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def make_batches(n_batches=6, batch=16, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_batches):
        labels = rng.integers(0, len(INTENTS), batch)
        lengths = rng.integers(3, 9, batch)
        ids = np.concatenate([rng.integers(l * 70, l * 70 + 70, n) for l, n in zip(labels, lengths)])
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        out.append((torch.from_numpy(ids), torch.from_numpy(offsets), torch.from_numpy(labels)))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(BagOfWordsEncoder(), callbacks=[MixedPrecisionSwitch(warmup_epochs=1)])
    trainer.fit(make_batches())
