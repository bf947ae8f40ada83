"""A BELT (mim-solutions/bert_for_longer_texts) text-classification run (re-typed: BertBase.fit/_train_single_epoch/save/load, BertClassifierTruncated, BertNN with a small BERT stand-in, TokenizedDataset): save() writes params.json, the tokenizer and the whole BertNN with torch.save(module, "model.bin"); BertClassifierTruncated.load() reads it back with a plain torch.load(f=..., map_location=device), which the weights-only default refuses
source: https://github.com/mim-solutions/bert_for_longer_texts/issues/52
reported-error: _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL belt_nlp.bert.BertNN was not an allowed global by default (torch 2.6.0, BertClassifierWithPooling.load())
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.BertNN was not an allowed global by default. ... at line 172
root-cause: line 172
expect: DG011
"""
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import torch
from torch import Tensor
from torch.nn import CrossEntropyLoss, Linear, Module, MSELoss
from torch.optim import AdamW, Optimizer
from torch.utils.data import DataLoader, Dataset, RandomSampler, SequentialSampler

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- stand-ins for transformers' AutoTokenizer / AutoModel (no downloads) -------------------------------------
class WordTokenizer:
    """The tokenizer calls BELT makes: __call__ with padding/truncation, save_pretrained, from_pretrained."""

    def __init__(self, vocab: dict[str, int]):
        self.vocab = vocab

    def __call__(self, texts, max_length=32, padding="max_length", truncation=True, return_tensors="pt"):
        ids, masks = [], []
        for text in texts:
            toks = [1] + [self.vocab.get(w, 3) for w in text.split()][: max_length - 2] + [2]
            mask = [1] * len(toks)
            toks += [0] * (max_length - len(toks))
            mask += [0] * (max_length - len(mask))
            ids.append(toks)
            masks.append(mask)
        return {"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(masks)}

    def save_pretrained(self, model_dir):
        with open(Path(model_dir) / "vocab.json", "w", encoding="utf-8") as f:
            json.dump(self.vocab, f)

    @classmethod
    def from_pretrained(cls, model_dir):
        with open(Path(model_dir) / "vocab.json", encoding="utf-8") as f:
            return cls(json.load(f))


class TinyBertModel(Module):
    """A 1-layer encoder returning (last_hidden_state,) like transformers' BertModel."""

    def __init__(self, vocab_size: int, hidden: int = 768):
        super().__init__()
        self.embeddings = torch.nn.Embedding(vocab_size, hidden)
        layer = torch.nn.TransformerEncoderLayer(hidden, nhead=8, dim_feedforward=128, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)

    def forward(self, input_ids: Tensor, attention_mask: Tensor):
        h = self.encoder(self.embeddings(input_ids), src_key_padding_mask=attention_mask == 0)
        return (h,)


# ---- belt_nlp/bert.py ----------------------------------------------------------------------------------------
class BertBase:
    def __init__(
        self,
        num_labels: int,
        batch_size: int,
        learning_rate: float,
        epochs: int,
        accumulation_steps: int = 1,
        tokenizer: Optional[WordTokenizer] = None,
        neural_network: Optional[Module] = None,
        pretrained_model_name_or_path: Optional[str] = "bert-base-uncased",
        device: str = "cuda:0",
        many_gpus: bool = False,
    ):
        assert num_labels >= 1, "The num_labels parameter must be at least 1."
        self.num_labels = num_labels

        if not tokenizer:
            tokenizer = WordTokenizer(VOCAB)
        if not neural_network:
            bert = TinyBertModel(len(VOCAB) + 4)
            neural_network = BertNN(model=bert, num_labels=num_labels)

        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.accumulation_steps = accumulation_steps
        self._params = {
            "batch_size": self.batch_size,
            "learning_rate": self.learning_rate,
            "epochs": self.epochs,
            "accumulation_steps": self.accumulation_steps,
        }
        self.device = device
        self.many_gpus = many_gpus
        self.tokenizer = tokenizer
        self.neural_network = neural_network
        self.collate_fn = None

        self.neural_network.to(device)

    def fit(self, x_train: list[str], y_train: Union[list[bool], list[float]], epochs: Optional[int] = None) -> None:
        if not epochs:
            epochs = self.epochs
        optimizer = AdamW(self.neural_network.parameters(), lr=self.learning_rate)

        tokens = self._tokenize(x_train)
        dataset = TokenizedDataset(tokens, y_train)
        dataloader = DataLoader(
            dataset, sampler=RandomSampler(dataset), batch_size=self.batch_size, collate_fn=self.collate_fn
        )
        for epoch in range(epochs):
            self._train_single_epoch(dataloader, optimizer)

    def _predict_logits(self, x: list[str], batch_size: Optional[int] = None) -> Tensor:
        if not batch_size:
            batch_size = self.batch_size
        tokens = self._tokenize(x)
        dataset = TokenizedDataset(tokens)
        dataloader = DataLoader(
            dataset, sampler=SequentialSampler(dataset), batch_size=batch_size, collate_fn=self.collate_fn
        )
        total_logits = []
        self.neural_network.eval()
        for step, batch in enumerate(dataloader):
            with torch.no_grad():
                logits = self._evaluate_single_batch(batch)
                total_logits.append(logits)
        return torch.cat(total_logits)

    def _train_single_epoch(self, dataloader: DataLoader, optimizer: Optimizer) -> None:
        self.neural_network.train()

        for step, batch in enumerate(dataloader):
            if self.num_labels > 1:
                labels = batch[-1].long().to(self.device)
                loss_function = CrossEntropyLoss()
                logits = self._evaluate_single_batch(batch)
                loss = loss_function(logits, labels) / self.accumulation_steps
            elif self.num_labels == 1:
                labels = batch[-1].float().to(self.device)
                loss_function = MSELoss()
                scores = torch.flatten(self._evaluate_single_batch(batch))
                loss = loss_function(scores, labels) / self.accumulation_steps
            loss.backward()

            if ((step + 1) % self.accumulation_steps == 0) or (step + 1 == len(dataloader)):
                optimizer.step()
                optimizer.zero_grad()

    def save(self, model_dir: str) -> None:
        model_dir = Path(model_dir)
        model_dir.mkdir(parents=True, exist_ok=True)
        with open(file=model_dir / "params.json", mode="w", encoding="utf-8") as file:
            json.dump(self._params, file)
        self.tokenizer.save_pretrained(model_dir)
        torch.save(self.neural_network, model_dir / "model.bin")  # root-cause-alt

    @classmethod
    def load(cls, model_dir: str, device: str = "cuda:0", many_gpus: bool = False):
        model_dir = Path(model_dir)
        with open(file=model_dir / "params.json", mode="r", encoding="utf-8") as file:
            params = json.load(file)
        tokenizer = WordTokenizer.from_pretrained(model_dir)
        neural_network = torch.load(f=model_dir / "model.bin", map_location=device)  # root-cause  # fails-here
        return cls(
            **params,
            tokenizer=tokenizer,
            neural_network=neural_network,
            pretrained_model_name_or_path=None,
            device=device,
            many_gpus=many_gpus,
        )


class BertNN(Module):
    def __init__(self, model: Module, num_labels: int):
        super().__init__()
        self.model = model
        self.linear = Linear(768, num_labels)

    def forward(self, input_ids: Tensor, attention_mask: Tensor) -> Tensor:
        x = self.model(input_ids, attention_mask)
        x = x[0][:, 0, :]  # take <s> token (equiv. to [CLS])
        x = self.linear(x)
        return x


class TokenizedDataset(Dataset):
    def __init__(self, tokens, labels: Optional[list] = None):
        self.input_ids = tokens["input_ids"]
        self.attention_mask = tokens["attention_mask"]
        self.labels = labels

    def __len__(self) -> int:
        return len(self.input_ids)

    def __getitem__(self, idx: int) -> Union[tuple[Tensor, Tensor, Any], tuple[Tensor, Tensor]]:
        if self.labels:
            return self.input_ids[idx], self.attention_mask[idx], self.labels[idx]
        return self.input_ids[idx], self.attention_mask[idx]


# ---- belt_nlp/bert_truncated.py + bert_classifier_truncated.py --------------------------------------------------
class BertClassifierTruncated(BertBase):
    def __init__(self, num_labels, batch_size, learning_rate, epochs, accumulation_steps=1, tokenizer=None,
                 neural_network=None, pretrained_model_name_or_path="bert-base-uncased", device="cuda:0",
                 many_gpus=False):
        super().__init__(num_labels=num_labels, batch_size=batch_size, learning_rate=learning_rate, epochs=epochs,
                         accumulation_steps=accumulation_steps, tokenizer=tokenizer, neural_network=neural_network,
                         pretrained_model_name_or_path=pretrained_model_name_or_path, device=device,
                         many_gpus=many_gpus)
        self._params.update({"num_labels": self.num_labels})

    def _tokenize(self, texts: list[str]):
        return self.tokenizer(texts, max_length=32, padding="max_length", truncation=True, return_tensors="pt")

    def _evaluate_single_batch(self, batch: tuple[Tensor]) -> Tensor:
        input_ids = batch[0].to(self.device)
        attention_mask = batch[1].to(self.device)
        return self.neural_network(input_ids, attention_mask)

    def predict(self, x: list[str], batch_size: Optional[int] = None) -> Tensor:
        logits = super()._predict_logits(x, batch_size)
        return torch.argmax(logits, dim=1)


# ---- the user's script: IMDB-like reviews, fit, save, load, predict --------------------------------------------
POS = ["great", "wonderful", "superb", "moving", "fun", "brilliant"]
NEG = ["boring", "awful", "dull", "weak", "messy", "terrible"]
FILL = ["the", "film", "plot", "actors", "was", "and", "very", "a", "story", "ending"]
VOCAB = {w: i + 4 for i, w in enumerate(POS + NEG + FILL)}


def make_reviews(n: int):
    texts, labels = [], []
    for _ in range(n):
        positive = bool(rng.integers(0, 2))
        words = list(rng.choice(FILL, size=8)) + list(rng.choice(POS if positive else NEG, size=3))
        rng.shuffle(words)
        texts.append(" ".join(words))
        labels.append(positive)
    return texts, labels


x_train, y_train = make_reviews(64)
x_test, y_test = make_reviews(16)

model = BertClassifierTruncated(num_labels=2, batch_size=16, learning_rate=5e-4, epochs=3, device="cpu")
model.fit(x_train, y_train)
acc_before = (model.predict(x_test) == torch.tensor(y_test).long()).float().mean().item()
print(f"test accuracy after fit: {acc_before:.3f}")

with tempfile.TemporaryDirectory() as tmp:
    model_dir = os.path.join(tmp, "belt_imdb")
    model.save(model_dir)
    loaded = BertClassifierTruncated.load(model_dir, device="cpu")
    acc_after = (loaded.predict(x_test) == torch.tensor(y_test).long()).float().mean().item()
    print(f"test accuracy after load: {acc_after:.3f}")
