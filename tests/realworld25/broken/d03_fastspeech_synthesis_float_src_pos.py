"""FastSpeech text-to-mel synthesis (xcmyz/FastSpeech layout, exported for ONNX): synthesis() turns the phoneme ids and the source positions from numpy into tensors and calls .float() on both, so the encoder's positional nn.Embedding receives float indices
source: https://github.com/xcmyz/FastSpeech/issues/89
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 31
root-cause: line 64
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn

# ---- hparams.py
hp = {"vocab_size": 40, "max_seq_len": 64, "encoder_dim": 32, "encoder_head": 2, "n_mel": 20, "PAD": 0}


# ---- text.py
def text_to_sequence(text):
    return [3 + (ord(ch) % (hp["vocab_size"] - 3)) for ch in text.lower() if ch.isalpha() or ch == " "]


# ---- transformer/Models.py
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_word_emb = nn.Embedding(hp["vocab_size"], hp["encoder_dim"], padding_idx=hp["PAD"])
        self.position_enc = nn.Embedding(hp["max_seq_len"] + 1, hp["encoder_dim"], padding_idx=hp["PAD"])
        layer = nn.TransformerEncoderLayer(hp["encoder_dim"], hp["encoder_head"], 64, batch_first=True)
        self.layer_stack = nn.TransformerEncoder(layer, num_layers=2)

    def forward(self, src_seq, src_pos):
        enc_output = self.src_word_emb(src_seq) + self.position_enc(src_pos)  # fails-here
        return self.layer_stack(enc_output, src_key_padding_mask=src_seq.eq(hp["PAD"]))


class LengthRegulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.duration_predictor = nn.Sequential(nn.Linear(hp["encoder_dim"], 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x, alpha=1.0):
        dur = torch.clamp(torch.round(torch.exp(self.duration_predictor(x).squeeze(-1)) * alpha), min=1).long()
        return torch.repeat_interleave(x[0], dur[0], dim=0).unsqueeze(0)


class FastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.length_regulator = LengthRegulator()
        self.mel_linear = nn.Linear(hp["encoder_dim"], hp["n_mel"])

    def forward(self, src_seq, src_pos, alpha=1.0):
        encoder_output = self.encoder(src_seq, src_pos)
        return self.mel_linear(self.length_regulator(encoder_output, alpha))


# ---- synthesis.py
def synthesis(model, text, alpha=1.0, device="cpu"):
    text = np.array(text)
    text = np.stack([text])
    src_pos = np.array([i + 1 for i in range(text.shape[1])])
    src_pos = np.stack([src_pos])
    sequence = torch.from_numpy(text).to(device).float()
    src_pos = torch.from_numpy(src_pos).to(device).float()  # root-cause
    with torch.no_grad():
        mel = model(sequence.long(), src_pos, alpha=alpha)
    return mel[0].cpu().transpose(0, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FastSpeech().eval()
    for sentence in ["I am very happy to see you again", "Durian model is a very good speech synthesis"]:
        mel = synthesis(model, text_to_sequence(sentence))
        print(sentence[:20], "->", tuple(mel.shape))
