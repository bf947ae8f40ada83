"""The LLM-agent rollout loop of cd04 (huggingface/transformers #36277) with the fix of PR #36555: convert_to_tensors gives an empty batch of token ids the integer dtype (torch.int64) instead of torch.tensor's float32 default, so appending the empty feedback keeps the sequence int64 and the rollout runs to its end
source: https://github.com/huggingface/transformers/issues/36277
reported-error: (none filed; the fixed situation of cd04)
outcome: ok
root-cause: -
expect: none
"""
import random
import re

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)


# ---- tokenizer (the PreTrainedTokenizer / BatchEncoding path used here) ----
def as_tensor(value, dtype=None):
    # PR #36555: an empty input (e.g. [[]]) keeps the integer dtype of token ids
    if dtype is None and all(isinstance(v, list) and len(v) == 0 for v in value):
        dtype = torch.int64
    return torch.tensor(value, dtype=dtype)


class BatchEncoding(dict):
    def __init__(self, data, tensor_type=None):
        super().__init__(data)
        self.convert_to_tensors(tensor_type)

    def convert_to_tensors(self, tensor_type=None):
        if tensor_type != "pt":
            return
        for key, value in self.items():
            self[key] = as_tensor(value)


class WordTokenizer:
    def __init__(self, corpus):
        self.vocab = {"<pad>": 0, "<unk>": 1, "<eos>": 2}
        for text in corpus:
            for w in re.findall(r"\w+|[^\w\s]", text.lower()):
                self.vocab.setdefault(w, len(self.vocab))
        self.inv = {i: w for w, i in self.vocab.items()}
        self.pad_token_id, self.eos_token_id = 0, 2

    def __call__(self, texts, return_tensors=None, add_special_tokens=True, max_length=None, padding=False, truncation=False):
        ids = []
        for text in texts:
            x = [self.vocab.get(w, 1) for w in re.findall(r"\w+|[^\w\s]", text.lower())]
            if add_special_tokens:
                x = x + [self.eos_token_id]
            if truncation and max_length is not None:
                x = x[-max_length:]
            ids.append(x)
        longest = max(len(x) for x in ids)
        if padding:
            masks = [[0] * (longest - len(x)) + [1] * len(x) for x in ids]
            ids = [[self.pad_token_id] * (longest - len(x)) + x for x in ids]
        else:
            masks = [[1] * len(x) for x in ids]
        return BatchEncoding({"input_ids": ids, "attention_mask": masks}, tensor_type=return_tensors)

    def decode(self, ids):
        return " ".join(self.inv[int(i)] for i in ids if int(i) not in (0, 2))


# ---- the actor: a small causal LM ----
class Actor(nn.Module):
    def __init__(self, vocab_size, dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, attention_mask=None):
        h, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(h)

    @torch.no_grad()
    def generate(self, input_ids, attention_mask, max_new_tokens=6, eos_token_id=2, **kwargs):
        sequences = input_ids
        for _ in range(max_new_tokens):
            logits = self(sequences, attention_mask)[:, -1, :]
            next_token = logits.argmax(-1, keepdim=True)
            sequences = torch.cat([sequences, next_token], dim=1)
            attention_mask = torch.cat([attention_mask, torch.ones_like(next_token)], dim=1)
            if (next_token == eos_token_id).all():
                break
        action_mask = torch.zeros_like(sequences, dtype=torch.bool)
        action_mask[:, input_ids.size(1):] = True
        return sequences, attention_mask, action_mask


# ---- a text environment (feedback can be empty) ----
class TextEnv:
    ROOMS = ["kitchen", "hall", "garden", "office"]

    def reset(self, seed, max_rollout_step):
        self.rng = random.Random(seed)
        self.step_id, self.max_steps = 0, max_rollout_step
        self.goal = self.rng.choice(self.ROOMS)
        return f"you are in the hall . find the {self.goal} . action :"

    def step(self, action):
        self.step_id += 1
        done = self.goal in action
        truncated = self.step_id >= self.max_steps
        # the environment says nothing when the action changes nothing
        feedback = "" if self.step_id == 2 else f"you see a door to the {self.rng.choice(self.ROOMS)} . action :"
        return feedback, float(done), False, truncated, done, {}


corpus = [f"you are in the hall . find the {r} . action : go to the {r} ." for r in TextEnv.ROOMS]
corpus += [f"you see a door to the {r} . action : go to the {r} ." for r in TextEnv.ROOMS]
tokenizer = WordTokenizer(corpus)
actor = Actor(len(tokenizer.vocab))

# warm-up: teach the actor the action format (plain next-token prediction)
opt = torch.optim.AdamW(actor.parameters(), lr=1e-2)
batch = tokenizer(corpus, return_tensors="pt", padding=True)
for step in range(60):
    logits = actor(batch["input_ids"][:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch["input_ids"][:, 1:].reshape(-1), ignore_index=0)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"warm-up LM loss: {loss.item():.3f}")


def get_action(sequences, input_len):
    return tokenizer.decode(sequences[0, input_len:])


env = TextEnv()
actor_prompt = env.reset(seed=42, max_rollout_step=4)
max_length = 64
inputs = tokenizer([actor_prompt], return_tensors="pt", add_special_tokens=False, max_length=max_length, padding=True, truncation=True)
failed = truncated = done = False
while not (failed or truncated or done):
    input_len = inputs["input_ids"].size(1)
    sequences, attention_mask, action_mask = actor.generate(**inputs, max_new_tokens=6)
    action = get_action(sequences, input_len)
    next_app_actor_prompt, reward, failed, truncated, done, _ = env.step(action)
    print(f"step {env.step_id}: action={action!r} reward={reward} feedback={next_app_actor_prompt!r}")
    next_inputs = tokenizer([next_app_actor_prompt], return_tensors="pt", add_special_tokens=False, max_length=max_length, padding=True, truncation=True)
    inputs = {
        "input_ids": torch.cat([sequences, next_inputs["input_ids"]], dim=1),
        "attention_mask": torch.cat([attention_mask, next_inputs["attention_mask"]], dim=1),
    }
print("rollout finished")
