"""Char-level GPT training (karpathy/minGPT layout: projects/chargpt, mingpt/model.py GPT.configure_optimizers, mingpt/trainer.py Trainer, mingpt/utils.py CfgNode): the model is cast to bfloat16 to halve its memory and AdamW then owns bfloat16 weights; steps of about lr round away (LayerNorm gains stay exactly 1.0), with no error
source: https://github.com/karpathy/minGPT/blob/990c0c7d9a6476c3b7d99f122223d7ee559631e7/mingpt/trainer.py
reported-error: (the repository file itself: Trainer builds the optimizer from model.configure_optimizers(config) over the model's own parameters; this variant's chargpt script casts the model with .to(torch.bfloat16) first: no error, updates below half the bf16 spacing are lost)
outcome: silent: after 20 AdamW steps every LayerNorm gain is still exactly 1.0 (prints "layernorm gains updated: 0/5") at mingpt/trainer.py:47
root-cause: main.py:50
expect: DG013
"""
import torch

from mingpt.model import GPT
from mingpt.trainer import Trainer
from mingpt.utils import CfgNode as CN, set_seed


class CharDataset(torch.utils.data.Dataset):
    def __init__(self, data, block_size):
        chars = sorted(set(data))
        self.stoi = {ch: i for i, ch in enumerate(chars)}
        self.vocab_size = len(chars)
        self.block_size = block_size
        self.data = data

    def __len__(self):
        return len(self.data) - self.block_size

    def __getitem__(self, idx):
        dix = [self.stoi[s] for s in self.data[idx:idx + self.block_size + 1]]
        return torch.tensor(dix[:-1], dtype=torch.long), torch.tensor(dix[1:], dtype=torch.long)


def get_config():
    C = CN()
    C.model = GPT.get_default_config()
    C.model.model_type = "gpt-nano"
    C.trainer = Trainer.get_default_config()
    C.trainer.learning_rate = 5e-4
    C.trainer.max_iters = 20
    C.trainer.batch_size = 8
    return C


if __name__ == "__main__":
    set_seed(3407)
    config = get_config()
    text = "first citizen: before we proceed any further, hear me speak. " * 20
    train_dataset = CharDataset(text, block_size=16)
    config.model.vocab_size = train_dataset.vocab_size
    config.model.block_size = train_dataset.block_size
    model = GPT(config.model)
    model = model.to(torch.bfloat16)  # root-cause
    gains = {n: p.detach().clone() for n, p in model.named_parameters() if n.endswith("ln_1.weight") or n.endswith("ln_2.weight") or n == "transformer.ln_f.weight"}
    trainer = Trainer(config.trainer, model, train_dataset)
    trainer.run()
    moved = sum(int(not torch.equal(gains[n], p.detach())) for n, p in model.named_parameters() if n in gains)
    print(f"iter {trainer.iter_num}: loss {trainer.loss.item():.4f}; layernorm gains updated: {moved}/{len(gains)}")
