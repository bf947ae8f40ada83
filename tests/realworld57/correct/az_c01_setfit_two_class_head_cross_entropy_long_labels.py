"""The SetFit few-shot sentiment run of az01 (huggingface/setfit PR #187) with the fix of PR #203: binary classification is a 2-class head whose logits go to CrossEntropyLoss, so the int64 labels that SetFitDataset.collate_fn builds with .long() are the class indices the loss wants; the .long() collate, the .int() token ids fed to nn.Embedding and the sigmoid-free softmax head are kept
source: https://github.com/huggingface/setfit/pull/187
reported-error: (none filed; the fixed situation of az01)
outcome: ok
root-cause: -
expect: none
"""
import zlib

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data import Dataset as TorchDataset

torch.manual_seed(0)
np.random.seed(0)


class WordPieceLikeTokenizer:
    """Stand-in for the body's HF tokenizer: hashes words into a small vocabulary, pads to max_length."""

    def __init__(self, vocab_size=500):
        self.vocab_size = vocab_size

    def __call__(self, text, max_length, padding, truncation, return_attention_mask, return_token_type_ids):
        ids = [101] + [zlib.crc32(w.encode()) % (self.vocab_size - 200) + 200 for w in text.lower().split()] + [102]
        ids = ids[:max_length]
        mask = [1] * len(ids) + [0] * (max_length - len(ids))
        ids = ids + [0] * (max_length - len(ids))
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": [0] * max_length}


class SentenceTransformerBody(nn.Module):
    """Stand-in for the sentence-transformers body: token embeddings + masked mean pooling."""

    def __init__(self, vocab_size=500, dim=32, max_seq_length=16):
        super().__init__()
        self.tokenizer = WordPieceLikeTokenizer(vocab_size)
        self.embed = nn.Embedding(vocab_size, dim)
        self.proj = nn.Linear(dim, dim)
        self.max_seq_length = max_seq_length

    def get_max_seq_length(self):
        return self.max_seq_length

    def forward(self, features):
        tok = self.proj(self.embed(features["input_ids"]))
        mask = features["attention_mask"].unsqueeze(-1).to(tok.dtype)
        features["sentence_embedding"] = (tok * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return features


class SetFitHead(nn.Module):
    """setfit.modeling.SetFitHead after PR #203: binary classification is treated as 2-class classification."""

    def __init__(self, in_features, out_features=2, temperature=1.0, eps=1e-5, bias=True):
        super().__init__()
        if out_features == 1:
            print("Change `out_features` from 1 to 2 since we use `CrossEntropyLoss` for binary classification.")
            out_features = 2
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.out_features = out_features
        self.temperature = temperature
        self.eps = eps

    def forward(self, features, temperature=None):
        temperature = temperature or self.temperature
        x = features["sentence_embedding"]
        logits = self.linear(x)
        logits = logits / (temperature + self.eps)
        probs = nn.functional.softmax(logits, dim=-1)
        features.update({"logits": logits, "probs": probs})
        return features

    def get_loss_fn(self):
        return torch.nn.CrossEntropyLoss()


class SetFitDataset(TorchDataset):
    """setfit.data.SetFitDataset: tokenizes one text per item, the collate_fn builds the tensors."""

    def __init__(self, x, y, tokenizer, max_length=32):
        assert len(x) == len(y)
        self.x, self.y, self.tokenizer, self.max_length = x, y, tokenizer, max_length

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        feature = self.tokenizer(self.x[idx], max_length=self.max_length, padding="max_length", truncation=True,
                                 return_attention_mask=True, return_token_type_ids=True)
        return feature, self.y[idx]

    @staticmethod
    def collate_fn(batch):
        features = {"input_ids": [], "attention_mask": [], "token_type_ids": []}
        labels = []
        for feature, label in batch:
            for k in features:
                features[k].append(feature[k])
            labels.append(label)
        # convert to tensors
        features = {k: torch.Tensor(v).int() for k, v in features.items()}
        labels = torch.Tensor(labels).long()
        return features, labels


class SetFitModel:
    def __init__(self, model_body, model_head, normalize_embeddings=False):
        self.model_body, self.model_head, self.normalize_embeddings = model_body, model_head, normalize_embeddings

    def _prepare_dataloader(self, x_train, y_train, batch_size, shuffle=True):
        dataset = SetFitDataset(x_train, y_train, tokenizer=self.model_body.tokenizer,
                                max_length=self.model_body.get_max_seq_length())
        return DataLoader(dataset, batch_size=batch_size, collate_fn=SetFitDataset.collate_fn, shuffle=shuffle)

    def fit(self, x_train, y_train, num_epochs, batch_size, learning_rate, body_learning_rate):
        self.model_body.train()
        self.model_head.train()
        dataloader = self._prepare_dataloader(x_train, y_train, batch_size)
        criterion = self.model_head.get_loss_fn()
        optimizer = torch.optim.AdamW([
            {"params": self.model_body.parameters(), "lr": body_learning_rate},
            {"params": self.model_head.parameters(), "lr": learning_rate},
        ])
        for epoch in range(num_epochs):
            for features, labels in dataloader:
                optimizer.zero_grad()
                outputs = self.model_body(features)
                if self.normalize_embeddings:
                    outputs["sentence_embedding"] = nn.functional.normalize(outputs["sentence_embedding"], p=2, dim=1)
                logits = self.model_head(outputs)["logits"]
                loss = criterion(logits, labels)
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")

    def predict(self, texts):
        ds = SetFitDataset(texts, [0] * len(texts), self.model_body.tokenizer, self.model_body.get_max_seq_length())
        features, _ = SetFitDataset.collate_fn([ds[i] for i in range(len(ds))])
        with torch.no_grad():
            probs = self.model_head(self.model_body(features))["probs"]
        return torch.argmax(probs, dim=-1)


# A few-shot SST-2-like sample: 8 examples per class (label 1 = positive)
pos = ["a gorgeous and moving film", "the cast is wonderful", "funny warm and smart", "an absolute delight",
       "beautifully shot and acted", "i loved every minute", "a clever charming story", "great fun for everyone"]
neg = ["a dull and lifeless mess", "the plot is a disaster", "boring from start to end", "a tedious waste of time",
       "badly written and acted", "i hated every minute", "a clumsy pointless story", "painful to sit through"]
x_train = pos + neg
y_train = [1] * len(pos) + [0] * len(neg)

body = SentenceTransformerBody()
head = SetFitHead(in_features=32, out_features=1)  # binary: widened to 2 classes by the head
model = SetFitModel(body, head)

# trainer.unfreeze(); trainer.train(num_epochs=..., body_learning_rate=..., learning_rate=...) -> model.fit
model.fit(x_train, y_train, num_epochs=5, batch_size=4, learning_rate=1e-2, body_learning_rate=1e-4)
print("predictions:", model.predict(["a wonderful film", "a boring mess"]).tolist())
