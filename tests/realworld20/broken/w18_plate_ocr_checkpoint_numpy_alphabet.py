"""License-plate OCR (CRNN + CTC) checkpointing: the trainer stores the alphabet as a NumPy array of characters next to the state_dict, and the inference pipeline's torch.load uses the PyTorch >= 2.6 default weights_only=True, which refuses the pickled NumPy array
source: https://github.com/ria-com/nomeroff-net/issues/319
reported-error: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint. (running the nomeroff-net OCR examples; maybe a pytorch version issue?)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 43
root-cause: line 33
expect: DG011
"""
import io

import numpy as np
import torch
import torch.nn as nn

ALPHABET = "0123456789ABCEHIKMOPTX"


# ---- nomeroff_net/nnmodels/ocr_model.py
class NPOcrNet(nn.Module):
    def __init__(self, n_letters):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
                                 nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 24)))
        self.rnn = nn.GRU(32, 32, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(64, n_letters + 1)

    def forward(self, x):
        f = self.cnn(x).squeeze(2).transpose(1, 2)
        return self.fc(self.rnn(f)[0])


def save_ocr(model, letters, buf):
    torch.save({"state_dict": model.state_dict(),
                "letters": np.array(list(letters)),  # root-cause
                "max_text_len": 9}, buf)


# ---- nomeroff_net/pipes/number_plate_text_readers/base/ocr.py
class OCR:
    def __init__(self):
        self.letters, self.model = None, None

    def load_model(self, buf):
        ckpt = torch.load(buf, map_location="cpu")  # fails-here
        self.letters = list(ckpt["letters"])
        self.model = NPOcrNet(len(self.letters))
        self.model.load_state_dict(ckpt["state_dict"])
        return self.model.eval()

    def decode(self, logits):
        best = logits.argmax(-1)[0].tolist()
        out, prev = [], 0
        for k in best:
            if k != prev and k != 0:
                out.append(self.letters[k - 1])
            prev = k
        return "".join(out)


if __name__ == "__main__":
    buf = io.BytesIO()
    save_ocr(NPOcrNet(len(ALPHABET)), ALPHABET, buf)
    buf.seek(0)
    ocr = OCR()
    model = ocr.load_model(buf)
    with torch.no_grad():
        print("plate:", ocr.decode(model(torch.rand(1, 1, 32, 96))))
