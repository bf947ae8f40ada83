"""FastSpeech-style text-to-mel inference prepared for ONNX export: the synthesis helper builds the phoneme sequence and its position indices with .float() (copied from the mel-target line), and the position Embedding of the encoder receives float indices
source: https://github.com/xcmyz/FastSpeech/issues/89
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.FloatTensor instead (while checking arguments for embedding) (sequence/src_pos converted with .cuda().float())
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 24
root-cause: line 47
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn

hp = {"vocab_size": 40, "max_seq_len": 64, "encoder_dim": 32, "num_mels": 20}


# ---- transformer/Models.py
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_word_emb = nn.Embedding(hp["vocab_size"], hp["encoder_dim"], padding_idx=0)
        self.position_enc = nn.Embedding(hp["max_seq_len"] + 1, hp["encoder_dim"], padding_idx=0)
        self.layer = nn.TransformerEncoderLayer(hp["encoder_dim"], 2, 64, batch_first=True)

    def forward(self, src_seq, src_pos):
        enc = self.src_word_emb(src_seq.long()) + self.position_enc(src_pos)  # fails-here
        return self.layer(enc)


class FastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.mel_linear = nn.Linear(hp["encoder_dim"], hp["num_mels"])

    def forward(self, src_seq, src_pos):
        return self.mel_linear(self.encoder(src_seq, src_pos))


# ---- synthesis.py
def text_to_sequence(text):
    return np.array([ord(c) % (hp["vocab_size"] - 1) + 1 for c in text])


def synthesis(model, text):
    text = np.stack([text_to_sequence(text)])
    src_pos = np.stack([np.arange(1, text.shape[1] + 1)])
    sequence = torch.from_numpy(text).float()
    src_pos = torch.from_numpy(src_pos).float()  # root-cause
    with torch.no_grad():
        return model(sequence, src_pos)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FastSpeech().eval()
    mel = synthesis(model, "printing in the only sense")
    print("mel", tuple(mel.shape))
