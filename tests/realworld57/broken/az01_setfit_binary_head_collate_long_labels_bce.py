"""A SetFit few-shot sentiment run (setfit 0.5 style, re-typed): after the contrastive body phase, SetFitModel.fit trains the differentiable SetFitHead with out_features=1, whose get_loss_fn returns BCELoss; SetFitDataset.collate_fn turns the 0/1 labels into int64 with .long(), so BCELoss gets an integer target
source: https://github.com/huggingface/setfit/pull/187
reported-error: "Rather than complaining about a shape mismatch, it now complains about a type mismatch ... the BCELoss wants the target (i.e. the labels) to be the same dtype as the input, so also float32" (PR #187, fixing the differentiable head of issue #186; resolved by PR #203, which dropped BCELoss for a 2-class CrossEntropyLoss)
outcome: RuntimeError: Found dtype Long but expected Float at line 134
root-cause: line 105
expect: DG007
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
    """setfit.modeling.SetFitHead before PR #203 (with the .squeeze() of PR #187's first fix)."""

    def __init__(self, in_features, out_features=1, temperature=1.0, bias=True):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.out_features = out_features
        self.temperature = temperature

    def forward(self, features, temperature=None):
        x = features["sentence_embedding"]
        logits = self.linear(x)
        if self.out_features == 1:  # only has one target
            outputs = torch.sigmoid(logits).squeeze(-1)
        else:  # multiple targets
            temperature = temperature or self.temperature
            outputs = nn.functional.softmax(logits / temperature, dim=-1)
        features.update({"prediction": outputs})
        return features

    def get_loss_fn(self):
        if self.out_features == 1:  # if single target
            return torch.nn.BCELoss()  # root-cause-alt
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
        labels = torch.Tensor(labels).long()  # root-cause
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
                predictions = self.model_head(outputs)["prediction"]
                loss = criterion(predictions, labels)  # fails-here
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")

    def predict(self, texts):
        ds = SetFitDataset(texts, [0] * len(texts), self.model_body.tokenizer, self.model_body.get_max_seq_length())
        features, _ = SetFitDataset.collate_fn([ds[i] for i in range(len(ds))])
        with torch.no_grad():
            probs = self.model_head(self.model_body(features))["prediction"]
        return torch.where(probs >= 0.5, 1, 0)


# A few-shot SST-2-like sample: 8 examples per class (label 1 = positive)
pos = ["a gorgeous and moving film", "the cast is wonderful", "funny warm and smart", "an absolute delight",
       "beautifully shot and acted", "i loved every minute", "a clever charming story", "great fun for everyone"]
neg = ["a dull and lifeless mess", "the plot is a disaster", "boring from start to end", "a tedious waste of time",
       "badly written and acted", "i hated every minute", "a clumsy pointless story", "painful to sit through"]
x_train = pos + neg
y_train = [1] * len(pos) + [0] * len(neg)

body = SentenceTransformerBody()
head = SetFitHead(in_features=32, out_features=1)  # binary: one sigmoid output
model = SetFitModel(body, head)

# trainer.unfreeze(); trainer.train(num_epochs=..., body_learning_rate=..., learning_rate=...) -> model.fit
model.fit(x_train, y_train, num_epochs=5, batch_size=4, learning_rate=1e-2, body_learning_rate=1e-4)
print("predictions:", model.predict(["a wonderful film", "a boring mess"]).tolist())
