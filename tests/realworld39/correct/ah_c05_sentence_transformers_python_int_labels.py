"""NLI training with sentence-transformers' SentencesDataset and SoftmaxLoss (as in ah05) with the LabelEncoder's np.int64 labels turned into Python ints when the InputExamples are built, InputExample(texts=[s1, s2], label=int(label)): SentencesDataset's isinstance(label, int) test picks torch.long and CrossEntropyLoss gets int64 class indices (its float branch stays for regression labels)
source: https://github.com/huggingface/sentence-transformers/issues/418
reported-error: (none filed; the fixed situation of ah05, the workaround named in sentence-transformers issue #418)
outcome: ok
root-cause: -
expect: none
"""
import io
import re

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


# ---- sentence_transformers/readers/InputExample.py
class InputExample:
    """Structure for one input example with texts, the label and a unique id"""

    def __init__(self, guid='', texts=None, label=0):
        self.guid = guid
        self.texts = [text.strip() for text in texts]
        self.label = label
        self.texts_tokenized = None


# ---- sentence_transformers/datasets/SentencesDataset.py
class SentencesDataset(Dataset):
    """Dataset for smart batching: each batch is only padded to its longest sequence."""

    def __init__(self, examples, model):
        self.model = model
        self.examples = examples
        self.label_type = torch.long if isinstance(self.examples[0].label, int) else torch.float

    def __getitem__(self, item):
        label = torch.tensor(self.examples[item].label, dtype=self.label_type)
        if self.examples[item].texts_tokenized is None:
            self.examples[item].texts_tokenized = [self.model.tokenize(text) for text in self.examples[item].texts]
        return self.examples[item].texts_tokenized, label

    def __len__(self):
        return len(self.examples)


# ---- sentence_transformers/models/tokenizer/WhitespaceTokenizer.py
class WhitespaceTokenizer:
    def __init__(self, vocab, do_lower_case=True):
        self.vocab = list(vocab)
        self.word2idx = {word: idx for idx, word in enumerate(self.vocab)}
        self.do_lower_case = do_lower_case

    def tokenize(self, text):
        if self.do_lower_case:
            text = text.lower()
        tokens = re.findall(r"\w+", text)
        return [self.word2idx[t] for t in tokens if t in self.word2idx]


# ---- sentence_transformers/models/WordEmbeddings.py, Pooling.py
class WordEmbeddings(nn.Module):
    def __init__(self, tokenizer, embedding_dim=32):
        super().__init__()
        self.tokenizer = tokenizer
        self.emb_layer = nn.Embedding(len(tokenizer.vocab) + 1, embedding_dim, padding_idx=0)
        self.embeddings_dimension = embedding_dim

    def tokenize(self, text):
        return [i + 1 for i in self.tokenizer.tokenize(text)]

    def forward(self, features):
        features.update({"token_embeddings": self.emb_layer(features["input_ids"])})
        return features


class Pooling(nn.Module):
    def __init__(self, word_embedding_dimension, pooling_mode_mean_tokens=True):
        super().__init__()
        self.word_embedding_dimension = word_embedding_dimension
        self.pooling_mode_mean_tokens = pooling_mode_mean_tokens

    def forward(self, features):
        token_embeddings = features["token_embeddings"]
        input_mask = features["attention_mask"].unsqueeze(-1).float()
        sum_embeddings = (token_embeddings * input_mask).sum(1)
        sum_mask = input_mask.sum(1).clamp(min=1e-9)
        features.update({"sentence_embedding": sum_embeddings / sum_mask})
        return features

    def get_sentence_embedding_dimension(self):
        return self.word_embedding_dimension


# ---- sentence_transformers/SentenceTransformer.py
class SentenceTransformer(nn.Sequential):
    def __init__(self, modules=None, device=None):
        super().__init__(*modules)
        self._target_device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))

    def tokenize(self, text):
        return self._first_module().tokenize(text)

    def _first_module(self):
        return self._modules[next(iter(self._modules))]

    def _last_module(self):
        return self._modules[next(reversed(self._modules))]

    def get_sentence_embedding_dimension(self):
        return self._last_module().get_sentence_embedding_dimension()

    def smart_batching_collate(self, batch):
        num_texts = len(batch[0][0])
        labels = []
        paired_texts = [[] for _ in range(num_texts)]
        max_seq_len = [0] * num_texts
        for tokens, label in batch:
            labels.append(label)
            for i in range(num_texts):
                paired_texts[i].append(tokens[i])
                max_seq_len[i] = max(max_seq_len[i], len(tokens[i]))
        features = []
        for idx in range(num_texts):
            input_ids, attention_mask = [], []
            for tokens in paired_texts[idx]:
                pad = max_seq_len[idx] - len(tokens)
                input_ids.append(tokens + [0] * pad)
                attention_mask.append([1] * len(tokens) + [0] * pad)
            features.append({"input_ids": torch.tensor(input_ids, dtype=torch.long),
                             "attention_mask": torch.tensor(attention_mask, dtype=torch.long)})
        return features, torch.stack(labels)

    def fit(self, train_objectives, epochs=1, warmup_steps=0, optimizer_params={"lr": 2e-5}, weight_decay=0.01,
            max_grad_norm=1):
        self.to(self._target_device)
        dataloaders = [dataloader for dataloader, _ in train_objectives]
        for dataloader in dataloaders:
            dataloader.collate_fn = self.smart_batching_collate
        loss_models = [loss for _, loss in train_objectives]
        for loss_model in loss_models:
            loss_model.to(self._target_device)
        optimizers = [torch.optim.AdamW(loss_model.parameters(), weight_decay=weight_decay, **optimizer_params)
                      for loss_model in loss_models]
        for epoch in range(epochs):
            for loss_model in loss_models:
                loss_model.zero_grad()
                loss_model.train()
            for train_idx in range(len(loss_models)):
                for features, labels in dataloaders[train_idx]:
                    features = [{k: v.to(self._target_device) for k, v in f.items()} for f in features]
                    labels = labels.to(self._target_device)
                    loss_value = loss_models[train_idx](features, labels)
                    loss_value.backward()
                    torch.nn.utils.clip_grad_norm_(loss_models[train_idx].parameters(), max_grad_norm)
                    optimizers[train_idx].step()
                    optimizers[train_idx].zero_grad()
            print(f"epoch {epoch}: last loss {loss_value.item():.4f}")


# ---- sentence_transformers/losses/SoftmaxLoss.py
class SoftmaxLoss(nn.Module):
    def __init__(self, model, sentence_embedding_dimension, num_labels, concatenation_sent_rep=True,
                 concatenation_sent_difference=True, concatenation_sent_multiplication=False):
        super().__init__()
        self.model = model
        self.num_labels = num_labels
        self.concatenation_sent_rep = concatenation_sent_rep
        self.concatenation_sent_difference = concatenation_sent_difference
        self.concatenation_sent_multiplication = concatenation_sent_multiplication
        num_vectors_concatenated = 0
        if concatenation_sent_rep:
            num_vectors_concatenated += 2
        if concatenation_sent_difference:
            num_vectors_concatenated += 1
        if concatenation_sent_multiplication:
            num_vectors_concatenated += 1
        self.classifier = nn.Linear(num_vectors_concatenated * sentence_embedding_dimension, num_labels)

    def forward(self, sentence_features, labels):
        reps = [self.model(sentence_feature)['sentence_embedding'] for sentence_feature in sentence_features]
        rep_a, rep_b = reps
        vectors_concat = []
        if self.concatenation_sent_rep:
            vectors_concat.append(rep_a)
            vectors_concat.append(rep_b)
        if self.concatenation_sent_difference:
            vectors_concat.append(torch.abs(rep_a - rep_b))
        if self.concatenation_sent_multiplication:
            vectors_concat.append(rep_a * rep_b)
        features = torch.cat(vectors_concat, 1)
        output = self.classifier(features)
        loss_fct = nn.CrossEntropyLoss()
        if labels is not None:
            loss = loss_fct(output, labels.view(-1))
            return loss
        return reps, output


# ---- the user's training script (training_nli.py adapted to a CSV export of the NLI data)
def load_nli_csv(n_pairs=120, seed=0):
    rng = np.random.default_rng(seed)
    subjects = ["a man", "a woman", "two kids", "the dog", "a chef", "the band"]
    actions = ["is playing guitar", "is cooking dinner", "runs in the park", "is sleeping", "reads a book"]
    rows = []
    for _ in range(n_pairs):
        s, a = rng.choice(subjects), rng.choice(actions)
        kind = rng.choice(["entailment", "neutral", "contradiction"])
        if kind == "entailment":
            hyp = f"{s} {a} outside" if rng.random() < 0.5 else f"{s} {a}"
        elif kind == "neutral":
            hyp = f"{s} {a} with friends"
        else:
            hyp = f"{s} {rng.choice([x for x in actions if x != a])}"
        rows.append({"sentence1": f"{s} {a}", "sentence2": hyp, "gold_label": kind})
    return pd.read_csv(io.StringIO(pd.DataFrame(rows).to_csv(index=False)))


def main():
    torch.manual_seed(0)
    df = load_nli_csv()
    label_encoder = LabelEncoder()
    labels = label_encoder.fit_transform(df["gold_label"])

    vocab = sorted({w for col in ("sentence1", "sentence2") for text in df[col] for w in re.findall(r"\w+", text.lower())})
    word_embedding_model = WordEmbeddings(WhitespaceTokenizer(vocab), embedding_dim=32)
    pooling_model = Pooling(word_embedding_model.embeddings_dimension)
    model = SentenceTransformer(modules=[word_embedding_model, pooling_model])

    train_samples = []
    for s1, s2, label in zip(df["sentence1"], df["sentence2"], labels):
        train_samples.append(InputExample(texts=[s1, s2], label=int(label)))

    train_dataset = SentencesDataset(train_samples, model=model)
    train_dataloader = DataLoader(train_dataset, shuffle=True, batch_size=16)
    train_loss = SoftmaxLoss(model=model, sentence_embedding_dimension=model.get_sentence_embedding_dimension(),
                             num_labels=len(label_encoder.classes_))
    model.fit(train_objectives=[(train_dataloader, train_loss)], epochs=2, warmup_steps=10,
              optimizer_params={"lr": 1e-3})


if __name__ == "__main__":
    main()
