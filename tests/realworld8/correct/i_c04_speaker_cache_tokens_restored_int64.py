"""CosyVoice-style speaker cache that still packs the embedding and the prompt speech tokens into one float32 .npy, but the loader restores the token slice with .astype(np.int64) before it reaches the speech-token embedding
source: https://github.com/AIFSH/CosyVoice-ComfyUI/issues/70
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

SPK_EMB_DIM = 16


class SpeakerCache:
    def __init__(self, root):
        self.root = root

    def save(self, name, embedding, speech_token):
        packed = np.concatenate([embedding.numpy().ravel(), speech_token.numpy().ravel()]).astype(np.float32)
        np.save(os.path.join(self.root, f"{name}.npy"), packed)

    def load(self, name):
        packed = np.load(os.path.join(self.root, f"{name}.npy"))
        embedding = torch.from_numpy(packed[:SPK_EMB_DIM]).unsqueeze(0)
        tokens = np.rint(packed[SPK_EMB_DIM:]).astype(np.int64)
        return embedding, torch.from_numpy(tokens).unsqueeze(0)


speech_embedding = nn.Embedding(64, 32)
spk_affine = nn.Linear(SPK_EMB_DIM, 32)
cache = SpeakerCache(tempfile.mkdtemp())
cache.save("narrator", torch.randn(1, SPK_EMB_DIM), torch.randint(0, 64, (1, 10)))
embedding, prompt_speech_token = cache.load("narrator")
with torch.no_grad():
    h = torch.cat([spk_affine(embedding).unsqueeze(1), speech_embedding(prompt_speech_token)], dim=1)
print("prompt states", tuple(h.shape), prompt_speech_token.dtype)
