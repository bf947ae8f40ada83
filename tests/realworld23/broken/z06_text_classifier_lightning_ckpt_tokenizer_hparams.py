"""fastText-style text classifier trained with a Lightning-like module: save_hyperparameters() puts the fitted NGramTokenizer object into the checkpoint's hyper_parameters, and load_from_checkpoint's torch.load (weights_only default) refuses the pickled tokenizer class
source: https://github.com/InseeFrLab/torchTextClassifiers/pull/48
reported-error: PyTorch 2.6 changed the default value of weights_only in torch.load() from False to True ... loading now requires weights_only=False (fix: Add weights_only=False for PyTorch 2.6 checkpoint loading)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.NGramTokenizer was not an allowed global by default. ... at line 49
root-cause: line 58
expect: DG011
"""
import io
import re

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- torchTextClassifiers/tokenizers/ngram.py
class NGramTokenizer:
    def __init__(self, min_n=3, max_n=4, num_buckets=500):
        self.min_n, self.max_n, self.num_buckets = min_n, max_n, num_buckets
        self.word_to_id = {}

    def fit(self, texts):
        for t in texts:
            for w in re.findall(r"\w+", t.lower()):
                self.word_to_id.setdefault(w, len(self.word_to_id))
        return self

    def encode(self, text, length=12):
        ids = []
        for w in re.findall(r"\w+", text.lower()):
            ids.append(self.word_to_id.get(w, 0))
            w = f"<{w}>"
            ids += [len(self.word_to_id) + hash(w[i:i + n]) % self.num_buckets for n in range(self.min_n, self.max_n + 1) for i in range(len(w) - n + 1)]
        ids = (ids + [0] * length)[:length]
        return torch.tensor(ids)


# ---- torchTextClassifiers/model/lightning.py
class LightningModuleLike(nn.Module):
    def save_hyperparameters(self, **kwargs):
        self.hparams = dict(kwargs)

    def save_checkpoint(self, f, optimizer, epoch):
        torch.save({"epoch": epoch, "state_dict": self.state_dict(), "optimizer_states": [optimizer.state_dict()],
                    "hyper_parameters": self.hparams}, f)

    @classmethod
    def load_from_checkpoint(cls, f):
        ckpt = torch.load(f)  # fails-here
        model = cls(**ckpt["hyper_parameters"])
        model.load_state_dict(ckpt["state_dict"])
        return model


class FastTextModule(LightningModuleLike):
    def __init__(self, tokenizer, embedding_dim=16, num_classes=3):
        super().__init__()
        self.save_hyperparameters(tokenizer=tokenizer, embedding_dim=embedding_dim, num_classes=num_classes)  # root-cause
        self.tokenizer = tokenizer
        self.embeddings = nn.EmbeddingBag(len(tokenizer.word_to_id) + tokenizer.num_buckets, embedding_dim, mode="mean")
        self.fc = nn.Linear(embedding_dim, num_classes)

    def forward(self, ids):
        return self.fc(self.embeddings(ids))


TEXTS = ["boulangerie patisserie artisanale", "vente de pain et viennoiseries", "conseil en informatique",
         "developpement de logiciels", "transport routier de marchandises", "fret et logistique routiere"]
LABELS = torch.tensor([0, 0, 1, 1, 2, 2])

if __name__ == "__main__":
    torch.manual_seed(0)
    tok = NGramTokenizer().fit(TEXTS)
    model = FastTextModule(tok)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    ids = torch.stack([tok.encode(t) for t in TEXTS])
    for epoch in range(20):
        loss = F.cross_entropy(model(ids), LABELS)
        opt.zero_grad()
        loss.backward()
        opt.step()
    buf = io.BytesIO()
    model.save_checkpoint(buf, opt, epoch)
    buf.seek(0)
    restored = FastTextModule.load_from_checkpoint(buf)
    print("restored accuracy", (restored(ids).argmax(1) == LABELS).float().mean().item())
