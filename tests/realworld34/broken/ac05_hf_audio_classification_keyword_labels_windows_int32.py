"""Keyword-spotting fine-tuning after the Hugging Face audio_classification notebook (superb/ks labels, label2id/id2label, preprocess_function with a feature extractor truncating to 1 s, a Wav2Vec2ForSequenceClassification-style model computing CrossEntropyLoss inside forward, a Trainer-like loop): the label ids are collected with NumPy's default integer, which is int32 on Windows, so the batched labels reach the cross-entropy loss as torch.int32
source: https://github.com/huggingface/notebooks/issues/486
reported-error: RuntimeError: expected scalar type Long but found Int (trainer.train() in audio_classification.ipynb, Windows, torch/nn/functional.py cross_entropy)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 74
root-cause: line 45
expect: DG006
"""
# NumPy's default integer (dtype=int) is the C long: int32 on Windows, where the report was made.
# np.intc is that same 32-bit int, so the script fails the same way on Linux.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

WINDOWS_DEFAULT_INT = np.intc

labels = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "_silence_", "_unknown_"]
label2id, id2label = dict(), dict()
for i, label in enumerate(labels):
    label2id[label] = str(i)
    id2label[str(i)] = label
num_labels = len(id2label)
max_duration = 1.0  # seconds


class FeatureExtractor:  # stand-in for AutoFeatureExtractor.from_pretrained("facebook/wav2vec2-base")
    sampling_rate = 16000

    def __call__(self, audio_arrays, sampling_rate, max_length, truncation=True):
        out = []
        for a in audio_arrays:
            a = a[:max_length] if truncation else a
            a = np.pad(a, (0, max_length - len(a)))
            out.append(((a - a.mean()) / (a.std() + 1e-7)).astype(np.float32))
        return {"input_values": out}


feature_extractor = FeatureExtractor()


def preprocess_function(examples):
    audio_arrays = [x["array"] for x in examples["audio"]]
    inputs = feature_extractor(audio_arrays, sampling_rate=feature_extractor.sampling_rate,
                               max_length=int(feature_extractor.sampling_rate * max_duration), truncation=True)
    inputs["label"] = np.array([int(label2id[l]) for l in examples["label"]], dtype=WINDOWS_DEFAULT_INT)  # root-cause
    return inputs


class EncodedDataset(Dataset):
    def __init__(self, encoded):
        self.encoded = encoded

    def __len__(self):
        return len(self.encoded["label"])

    def __getitem__(self, i):
        return {"input_values": torch.from_numpy(self.encoded["input_values"][i]), "labels": self.encoded["label"][i]}


class Wav2Vec2ForSequenceClassification(nn.Module):  # toy-size stand-in
    def __init__(self, num_labels):
        super().__init__()
        self.num_labels = num_labels
        self.feature_extractor = nn.Sequential(nn.Conv1d(1, 16, 400, stride=320), nn.GELU())
        self.projector = nn.Linear(16, 32)
        self.classifier = nn.Linear(32, num_labels)

    def forward(self, input_values, labels=None):
        hidden = self.feature_extractor(input_values[:, None, :]).transpose(1, 2)
        logits = self.classifier(self.projector(hidden).mean(dim=1))
        loss = None
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1))  # fails-here
        return loss, logits


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    dataset = {"audio": [{"array": rng.normal(0, 0.1, rng.integers(12000, 20000))} for _ in range(32)],
               "label": list(rng.choice(labels, 32))}
    encoded_dataset = preprocess_function(dataset)
    model = Wav2Vec2ForSequenceClassification(num_labels)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    train_dataloader = DataLoader(EncodedDataset(encoded_dataset), batch_size=8, shuffle=True)
    for epoch in range(2):
        for batch in train_dataloader:
            loss, _ = model(**batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(f"epoch {epoch} loss {loss.item():.4f}")
