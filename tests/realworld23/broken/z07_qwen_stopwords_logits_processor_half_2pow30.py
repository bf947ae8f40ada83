"""Chat model generation with a stop-words logits processor (Qwen generation-utils style) on a float16 model: when a stop sequence is matched the processor forces EOS by writing float(2**30) into the half-precision scores, which is beyond float16's range and becomes inf, so the sampling distribution turns to NaN
source: https://github.com/QwenLM/Qwen/issues/32
reported-error: scores[i, self.eos_token_id] = float(2**30) RuntimeError: value cannot be converted to type at::Half without overflow (fixed upstream by a value within float16's range)
outcome: ok (silent: the forced EOS score becomes inf in the float16 scores and the softmax gives NaN probabilities, printed as "eos score inf" and "probs nan")
root-cause: line 26
expect: DG018
"""
import torch
import torch.nn as nn

GEN_CONFIG = {"eos_token_id": 1, "stop_words_ids": [[7, 8]], "max_new_tokens": 6, "fp16": True, "vocab_size": 32}


# ---- qwen_generation_utils.py
class StopWordsLogitsProcessor:
    def __init__(self, stop_words_ids, eos_token_id):
        self.stop_words_ids = stop_words_ids
        self.eos_token_id = eos_token_id

    def _matches(self, prev_tokens):
        return [any(row[-len(s):].tolist() == s for s in self.stop_words_ids) for row in prev_tokens]

    def __call__(self, input_ids, scores):
        for i, should_stop in enumerate(self._matches(input_ids)):
            if should_stop:
                scores[i, self.eos_token_id] = float(2**30)  # root-cause  # fails-here
        return scores


# ---- modeling_qwen.py (tiny stand-in)
class TinyLM(nn.Module):
    def __init__(self, vocab, dim=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.block(self.wte(input_ids)))


def load_model():
    model = TinyLM(GEN_CONFIG["vocab_size"]).eval()
    if GEN_CONFIG["fp16"]:
        model = model.half()
    return model


@torch.no_grad()
def sample(model, input_ids, processor):
    for _ in range(GEN_CONFIG["max_new_tokens"]):
        scores = model(input_ids)[:, -1, :]
        scores = processor(input_ids, scores)
        probs = torch.softmax(scores.float(), dim=-1)
        if torch.isnan(probs).any() or torch.isinf(scores).any():
            print("eos score", scores[0, GEN_CONFIG["eos_token_id"]].item(), "probs", probs[0, 0].item())
            return input_ids
        next_tokens = probs.argmax(-1, keepdim=True)
        input_ids = torch.cat([input_ids, next_tokens], dim=1)
        if (next_tokens == GEN_CONFIG["eos_token_id"]).all():
            break
    return input_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    model = load_model()
    prompt = torch.tensor([[3, 4, 5, 7, 8], [3, 9, 10, 7, 8]])
    out = sample(model, prompt, StopWordsLogitsProcessor(GEN_CONFIG["stop_words_ids"], GEN_CONFIG["eos_token_id"]))
    print("generated", out[:, prompt.shape[1]:].tolist())
