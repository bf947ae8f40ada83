"""Plain-PyTorch fine-tuning loop for a multimodal 'thinker' LM loaded with torch_dtype='float16' (from_pretrained-style helper): torch.optim.AdamW keeps its default eps=1e-8, which is 0 in float16, so every parameter whose gradient is exactly zero (unused vocabulary rows) gets 0/0 and the weights turn NaN after the very first optim.step()
source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1756
reported-error: if I fine tune a model loaded in fp16, torch's AdamW leads to NaN values after the very first optim.step(), while bnb's AdamW trains perfectly fine without any NaNs
outcome: ok (silent: the float16 weights become NaN after the first AdamW step; the run prints 'step 1 loss nan')
root-cause: line 51
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

training_config = {"learning_rate": 1e-5, "steps": 3, "batch_size": 2, "seq_len": 10}
MODEL_CONFIG = {"vocab_size": 128, "hidden_size": 32, "audio_dim": 16}


# ---- modeling_thinker.py
class ThinkerForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size, hidden_size, audio_dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.audio_proj = nn.Linear(audio_dim, hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 2 * hidden_size), nn.GELU(), nn.Linear(2 * hidden_size, hidden_size))
        self.norm = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    @classmethod
    def from_pretrained(cls, model_id, torch_dtype="float32"):
        torch.manual_seed(0)
        model = cls(**MODEL_CONFIG)
        return model.to(getattr(torch, torch_dtype))

    def forward(self, input_ids, audio_features, labels=None):
        h = self.embed_tokens(input_ids) + self.audio_proj(audio_features).unsqueeze(1)
        h = self.norm(h + self.mlp(h))
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].float().reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return loss, logits


def make_batch(step):
    g = torch.Generator().manual_seed(step)
    input_ids = torch.randint(0, 32, (training_config["batch_size"], training_config["seq_len"]), generator=g)
    audio = torch.randn(training_config["batch_size"], MODEL_CONFIG["audio_dim"], generator=g)
    return input_ids, audio


if __name__ == "__main__":
    model = ThinkerForConditionalGeneration.from_pretrained("Qwen/Qwen2.5-Omni-3B", torch_dtype="float16")
    optim = torch.optim.AdamW(model.parameters(), lr=training_config["learning_rate"])  # root-cause
    model.train()
    for step in range(training_config["steps"]):
        input_ids, audio = make_batch(step)
        loss, _ = model(input_ids, audio.half(), labels=input_ids)
        optim.zero_grad()
        loss.backward()
        optim.step()  # fails-here
        print(f"step {step} loss {loss.item():.4f}")
    print("nan weights:", torch.isnan(model.embed_tokens.weight).any().item())
