"""CosyVoice-style zero-shot TTS node with a speaker cache: the speaker embedding and the prompt speech tokens are saved together in one float32 .npy, and on reuse the tokens come back as floats and go straight into the speech-token nn.Embedding
source: https://github.com/AIFSH/CosyVoice-ComfyUI/issues/70
reported-error: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 29
root-cause: line 50
expect: DG005
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

SPK_EMB_DIM = 16


class TransformerLM(nn.Module):
    def __init__(self, text_vocab=50, speech_vocab=64, dim=32):
        super().__init__()
        self.text_embedding = nn.Embedding(text_vocab, dim)
        self.speech_embedding = nn.Embedding(speech_vocab, dim)
        self.spk_embed_affine_layer = nn.Linear(SPK_EMB_DIM, dim)
        self.llm_decoder = nn.Linear(dim, speech_vocab)

    @torch.no_grad()
    def inference(self, text, prompt_speech_token, embedding, max_len=6):
        spk = self.spk_embed_affine_layer(nn.functional.normalize(embedding, dim=1)).unsqueeze(1)
        prompt = self.speech_embedding(prompt_speech_token)  # fails-here
        h = torch.cat([spk, self.text_embedding(text), prompt], dim=1)
        out = []
        for _ in range(max_len):
            nxt = self.llm_decoder(h[:, -1]).argmax(-1, keepdim=True)
            out.append(nxt)
            h = torch.cat([h, self.speech_embedding(nxt)], dim=1)
        return torch.cat(out, dim=1)


class SpeakerCache:
    def __init__(self, root):
        self.root = root

    def save(self, name, embedding, speech_token):
        packed = np.concatenate([embedding.numpy().ravel(), speech_token.numpy().ravel()]).astype(np.float32)
        np.save(os.path.join(self.root, f"{name}.npy"), packed)

    def load(self, name):
        packed = np.load(os.path.join(self.root, f"{name}.npy"))
        embedding = torch.from_numpy(packed[:SPK_EMB_DIM]).unsqueeze(0)
        prompt_speech_token = torch.from_numpy(packed[SPK_EMB_DIM:]).unsqueeze(0)  # root-cause
        return embedding, prompt_speech_token


class CosyVoiceNode:
    def __init__(self, cache_dir):
        self.llm = TransformerLM().eval()
        self.cache = SpeakerCache(cache_dir)

    def generate(self, text_ids, speaker_name, prompt_wav_tokens=None, spk_embedding=None):
        if prompt_wav_tokens is not None:
            self.cache.save(speaker_name, spk_embedding, prompt_wav_tokens)
            embedding, prompt_speech_token = spk_embedding, prompt_wav_tokens
        else:
            embedding, prompt_speech_token = self.cache.load(speaker_name)
        return self.llm.inference(text_ids, prompt_speech_token, embedding)


node = CosyVoiceNode(tempfile.mkdtemp())
text_ids = torch.randint(0, 50, (1, 7))
first = node.generate(text_ids, "narrator", prompt_wav_tokens=torch.randint(0, 64, (1, 10)), spk_embedding=torch.randn(1, SPK_EMB_DIM))
print("first run tokens:", first.tolist())
second = node.generate(text_ids, "narrator")
print("cached speaker tokens:", second.tolist())
