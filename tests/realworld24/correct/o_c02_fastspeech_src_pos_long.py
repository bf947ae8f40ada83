"""FastSpeech-style text-to-mel inference whose synthesis helper keeps the phoneme sequence and the position indices as int64 (torch.from_numpy(...).long()), so both Embeddings get integer indices; only the mel output is float
source: https://github.com/xcmyz/FastSpeech/issues/89
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

hp = {"vocab_size": 40, "max_seq_len": 64, "encoder_dim": 32, "num_mels": 20}


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_word_emb = nn.Embedding(hp["vocab_size"], hp["encoder_dim"], padding_idx=0)
        self.position_enc = nn.Embedding(hp["max_seq_len"] + 1, hp["encoder_dim"], padding_idx=0)
        self.layer = nn.TransformerEncoderLayer(hp["encoder_dim"], 2, 64, batch_first=True)

    def forward(self, src_seq, src_pos):
        return self.layer(self.src_word_emb(src_seq) + self.position_enc(src_pos))


class FastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.mel_linear = nn.Linear(hp["encoder_dim"], hp["num_mels"])

    def forward(self, src_seq, src_pos):
        return self.mel_linear(self.encoder(src_seq, src_pos))


def text_to_sequence(text):
    return np.array([ord(c) % (hp["vocab_size"] - 1) + 1 for c in text])


def synthesis(model, text):
    text = np.stack([text_to_sequence(text)])
    src_pos = np.stack([np.arange(1, text.shape[1] + 1)])
    sequence = torch.from_numpy(text).long()
    src_pos = torch.from_numpy(src_pos).long()
    with torch.no_grad():
        return model(sequence, src_pos)


if __name__ == "__main__":
    torch.manual_seed(0)
    mel = synthesis(FastSpeech().eval(), "printing in the only sense")
    print("mel", tuple(mel.shape), mel.dtype)
