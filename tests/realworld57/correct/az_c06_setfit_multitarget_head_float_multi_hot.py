"""The SetFit multi-label run of az06 (huggingface/setfit #211) with the fix that PR #272 merged: SetFitDataset.collate_fn keeps .long() only for 1-D class-index labels and makes (N, C) multi-hot rows float, and the head built with multitarget=True trains its logits with BCEWithLogitsLoss (sigmoid probabilities for predict); the .long() branch of the collate and the .int() token ids fed to nn.Embedding are kept
source: https://github.com/huggingface/setfit/issues/211
reported-error: (none filed; the fixed situation of az06)
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
    """setfit.modeling.SetFitHead after PR #272: multitarget heads use sigmoid outputs and BCEWithLogitsLoss."""

    def __init__(self, in_features, out_features=2, temperature=1.0, eps=1e-5, bias=True, multitarget=False):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.out_features, self.temperature, self.eps, self.multitarget = out_features, temperature, eps, multitarget

    def forward(self, features, temperature=None):
        temperature = temperature or self.temperature
        x = features["sentence_embedding"]
        logits = self.linear(x) / (temperature + self.eps)
        if self.multitarget:  # multiple targets per item
            probs = torch.sigmoid(logits)
        else:
            probs = nn.functional.softmax(logits, dim=-1)
        features.update({"logits": logits, "prediction": probs})
        return features

    def get_loss_fn(self):
        if self.multitarget:  # if sigmoid output
            return torch.nn.BCEWithLogitsLoss()
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
        labels = torch.Tensor(labels)
        labels = labels.long() if len(labels.size()) == 1 else labels.float()
        return features, labels


class SetFitModel:
    def __init__(self, model_body, model_head, multi_target_strategy=None, normalize_embeddings=False):
        self.model_body, self.model_head, self.normalize_embeddings = model_body, model_head, normalize_embeddings
        self.multi_target_strategy = multi_target_strategy  # used by the logistic-regression head only

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
        ds = SetFitDataset(texts, [[0.0] * self.model_head.out_features] * len(texts), self.model_body.tokenizer,
                           self.model_body.get_max_seq_length())
        features, _ = SetFitDataset.collate_fn([ds[i] for i in range(len(ds))])
        with torch.no_grad():
            probs = self.model_head(self.model_body(features))["prediction"]
        return torch.where(probs >= 0.5, 1, 0)


# GoEmotions-like few-shot sample; labels are multi-hot rows (floats) from a MultiLabelBinarizer-like encoder
EMOTIONS = ["joy", "anger", "sadness", "surprise", "gratitude"]
texts = [("thank you so much this made my day", {"joy", "gratitude"}), ("i cannot believe they did that", {"surprise", "anger"}),
         ("this is so sad and unfair", {"sadness", "anger"}), ("wow what a lovely surprise", {"joy", "surprise"}),
         ("thanks for nothing you ruined it", {"anger"}), ("i miss her every single day", {"sadness"}),
         ("really grateful for all the help", {"gratitude"}), ("no way that is amazing", {"surprise", "joy"}),
         ("so angry i could scream", {"anger"}), ("thank you i feel much better now", {"gratitude", "joy"}),
         ("what a shock i did not expect that", {"surprise"}), ("crying all night after the news", {"sadness"})]


def multilabel_binarize(label_sets, classes):
    return np.array([[1.0 if c in s else 0.0 for c in classes] for s in label_sets])


x_train = [t for t, _ in texts]
y_train = multilabel_binarize([s for _, s in texts], EMOTIONS).tolist()  # float rows, e.g. [1.0, 0.0, 0.0, 0.0, 1.0]

body = SentenceTransformerBody()
head = SetFitHead(in_features=32, out_features=len(EMOTIONS), multitarget=True)
model = SetFitModel(body, head, multi_target_strategy="one-vs-all")

# trainer.freeze(); trainer.train(); trainer.unfreeze(); trainer.train(num_epochs=25, ...) -> model.fit
model.fit(x_train, y_train, num_epochs=5, batch_size=4, learning_rate=1e-2, body_learning_rate=1e-5)
print("predictions:", model.predict(["thank you this is wonderful", "so sad and angry"]).tolist())
