"""An open-instruct-style conversion of chat SFT data to OLMo-core NumPy token files (re-typed convert_hf_to_numpy_sft) picks the token dtype from tokenizer.vocab_size, which excludes the added chat tokens: a 65,536-entry base vocabulary gives uint16, and the added <|im_start|>/<|im_end|>/<|pad|> ids 65536..65538 wrap to 0..2 when written, so the SFT run reads and trains on the wrong tokens, silently
source: https://github.com/allenai/open-instruct/pull/1862
reported-error: "Hugging Face's tokenizer.vocab_size excludes added tokens. Consequently, using it to select the NumPy token dtype can choose an integer type that cannot represent every token ID the tokenizer emits" (PR: choose the NumPy token dtype from the tokenizer's complete ID space, including added and special tokens)
outcome: ok (silent: the token dtype chosen from tokenizer.vocab_size is uint16, so np.asarray(sample_tokens, dtype=token_dtype) at line 60 wraps every added chat-template token id (65536..65538) to 0..2; printed as "N of M chat-template token positions read back as a different id" with N = M)
root-cause: line 52
expect: DG005
"""
import json
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


class ChatTokenizer:
    """Stand-in for a Hugging Face tokenizer: a 65,536-entry base vocabulary plus added chat tokens."""

    base_size = 65536
    added = {"<|im_start|>": 65536, "<|im_end|>": 65537, "<|pad|>": 65538}

    @property
    def vocab_size(self):  # like PreTrainedTokenizer.vocab_size: the base vocabulary only
        return self.base_size

    def __len__(self):  # the complete id space, added tokens included
        return self.base_size + len(self.added)

    def encode_chat(self, turns):
        ids, labels = [], []
        for role, n_words in turns:
            body = rng.integers(100, self.base_size, n_words).tolist()
            piece = [self.added["<|im_start|>"], 17 if role == "user" else 18] + body + [self.added["<|im_end|>"]]
            ids += piece
            labels += piece if role == "assistant" else [-100] * len(piece)
        return np.asarray(ids, dtype=np.int64), np.asarray(labels, dtype=np.int64)


def _select_token_dtype(vocab_size: int):
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if (vocab_size - 1) <= np.iinfo(dtype).max:
            return dtype
    raise ValueError(f"Vocab size {vocab_size} is too big for any numpy integer dtype!")


def convert_hf_to_numpy_sft(output_dir, train_dataset, tokenizer):
    vocab_size = tokenizer.vocab_size  # root-cause
    token_dtype = _select_token_dtype(vocab_size)
    print(f"Using dtype '{np.dtype(token_dtype).name}' for token_ids based on vocab size {vocab_size}")
    tokens_path = os.path.join(output_dir, "token_ids_part_0000.npy")
    labels_path = os.path.join(output_dir, "labels_mask_part_0000.npy")
    document_boundaries, current_position = [], 0
    with open(tokens_path, "wb") as tokens_fh, open(labels_path, "wb") as labels_fh:
        for sample_tokens, sample_labels in train_dataset:
            tokens_arr = np.asarray(sample_tokens, dtype=token_dtype)  # root-cause-alt  # fails-here
            labels_mask = (np.asarray(sample_labels) != -100).astype(np.uint8)
            tokens_arr.tofile(tokens_fh)
            labels_mask.tofile(labels_fh)
            document_boundaries.append((current_position, current_position + len(sample_tokens)))
            current_position += len(sample_tokens)
    with open(os.path.join(output_dir, "meta.json"), "w") as f:
        json.dump({"token_dtype": np.dtype(token_dtype).name, "documents": document_boundaries}, f)


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)

    def forward(self, ids):
        h = torch.tanh(self.mix(self.emb(ids)))
        return h @ self.emb.weight.T


tokenizer = ChatTokenizer()
dataset = [tokenizer.encode_chat([("user", int(rng.integers(5, 15))), ("assistant", int(rng.integers(5, 15)))])
           for _ in range(40)]

with tempfile.TemporaryDirectory() as out:
    convert_hf_to_numpy_sft(out, dataset, tokenizer)
    meta = json.load(open(os.path.join(out, "meta.json")))
    # the OLMo-core side: memory-map the token file with the recorded dtype, widen to int64 for the model
    tokens = np.memmap(os.path.join(out, "token_ids_part_0000.npy"), dtype=meta["token_dtype"], mode="r")
    mask = np.memmap(os.path.join(out, "labels_mask_part_0000.npy"), dtype=np.uint8, mode="r")
    written = np.concatenate([ids for ids, _ in dataset])
    special = written >= tokenizer.vocab_size
    wrong = int((tokens.astype(np.int64)[special] != written[special]).sum())
    print(f"{wrong} of {int(special.sum())} chat-template token positions read back as a different id "
          f"(e.g. {written[special][0]} -> {int(tokens[special][0])})")

    model = TinyLM(len(tokenizer))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for step, (start, end) in enumerate(meta["documents"][:20]):
        ids = torch.from_numpy(tokens[start:end].astype(np.int64)).unsqueeze(0)
        trainable = torch.from_numpy(mask[start:end].astype(bool))[1:]
        logits = model(ids[:, :-1])[0]
        loss = F.cross_entropy(logits[trainable], ids[0, 1:][trainable])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"SFT loss after {step + 1} documents: {loss.item():.3f}")
