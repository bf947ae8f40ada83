"""FunAudioLLM-style voice cloning node: the prompt speech tokens come back from the frontend as a JSON list, are batched with torch.tensor(..., dtype=torch.float32) next to the speaker embedding, and reach the LLM's speech-token nn.Embedding as float indices
source: https://github.com/SpenserCai/ComfyUI-FunAudioLLM/issues/19
reported-error: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 39
root-cause: line 24
expect: DG005
"""
import json

import torch
import torch.nn as nn


def frontend_zero_shot(prompt_text, n_tokens=25, seed=0):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 4096, (n_tokens,), generator=g).tolist()
    spk = torch.randn(192, generator=g).tolist()
    return json.dumps({"prompt_text": prompt_text, "prompt_speech_token": tokens, "embedding": spk})


def to_model_input(payload):
    d = json.loads(payload)
    return {
        "prompt_speech_token": torch.tensor([d["prompt_speech_token"]], dtype=torch.float32),  # root-cause
        "embedding": torch.tensor([d["embedding"]], dtype=torch.float32),
    }


class SpeechLM(nn.Module):
    def __init__(self, vocab=4096, d=64, spk_dim=192):
        super().__init__()
        self.speech_embedding = nn.Embedding(vocab, d)
        self.spk_embed_affine_layer = nn.Linear(spk_dim, d)
        self.decoder = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, prompt_speech_token, embedding):
        spk = self.spk_embed_affine_layer(embedding).unsqueeze(1)
        tok = self.speech_embedding(prompt_speech_token)  # fails-here
        h, _ = self.decoder(torch.cat([spk, tok], dim=1))
        return self.out(h[:, -1])


@torch.no_grad()
def clone_voice(model, text):
    model_input = to_model_input(frontend_zero_shot(text))
    logits = model(**model_input)
    return logits.argmax(-1).item()


if __name__ == "__main__":
    print("next speech token:", clone_voice(SpeechLM().eval(), "hello there"))
