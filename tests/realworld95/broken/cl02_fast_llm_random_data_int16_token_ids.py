"""A Fast-LLM pretraining/fine-tuning run of a small Mistral-style model on `type: random` data (re-typed at the PR's parent commit: get_unsigned_integer_type, GPTRandomSampledDataset sampling tokens in the narrowest integer type that fits the vocab, LanguageModelDocument/TokenBatch.from_documents concatenating and padding documents with -100, the micro-batch's token ids and shifted labels, the embedding and cross-entropy of the language-model head): with a 32000-token vocab the tokens are int16, TokenBatch keeps that dtype and the embedding refuses the ShortTensor indices on the first forward step
source: https://github.com/ServiceNow/Fast-LLM/pull/540
reported-error: "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.ShortTensor instead (while checking arguments for embedding)"
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.ShortTensor instead (while checking arguments for embedding) at line 181
root-cause: line 88
expect: DG005
"""
import dataclasses
import enum
import typing

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class DataType(enum.StrEnum):
    uint8 = "uint8"
    int16 = "int16"
    int32 = "int32"
    int64 = "int64"

    @property
    def torch(self) -> torch.dtype:
        return getattr(torch, self.value)


def get_unsigned_integer_type(max_size: int) -> DataType:
    # TODO: Use uint types (recently added for torch, not enough methods supported yet)
    if max_size < 2**8:
        return DataType.uint8
    elif max_size < 2**15:
        return DataType.int16
    elif max_size < 2**31:
        return DataType.int32
    else:
        return DataType.int64


@dataclasses.dataclass(kw_only=True)
class TokenDocument:
    tokens: torch.Tensor

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def device(self) -> torch.device:
        return self.tokens.device


@dataclasses.dataclass(kw_only=True)
class LanguageModelDocument(TokenDocument):
    pass


@dataclasses.dataclass(kw_only=True)
class TokenModelInput(TokenDocument):
    labels: torch.Tensor = None
    num_documents: int | None = None


@dataclasses.dataclass(kw_only=True)
class TokenBatch(TokenDocument):
    lengths: list[int]
    unpadded_length: int = None

    def __post_init__(self):
        assert sum(self.lengths) == len(self.tokens)
        if self.unpadded_length is None:
            self.unpadded_length = len(self.tokens)

    @classmethod
    def from_documents(cls, documents: typing.Sequence[TokenDocument], pad_to_size: int | None = None) -> typing.Self:
        tokens = [document.tokens for document in documents]
        lengths = [len(document) for document in documents]
        unpadded_length = sum(lengths)
        if pad_to_size is not None:
            assert pad_to_size >= unpadded_length
            padding = pad_to_size - unpadded_length
            if padding > 0:
                tokens.append(tokens[0].new_full([padding], -100))
                lengths.append(padding)
        return cls(
            tokens=torch.cat(tokens),  # root-cause
            lengths=lengths,
            unpadded_length=unpadded_length,
        )

    def get_model_input(self, begin: int, end: int) -> TokenModelInput:
        # inputs are tokens[begin:end], labels the next token (padding and document ends give -100)
        model_input = TokenModelInput(tokens=self.tokens[begin:end])
        labels = self.tokens[begin + 1:end + 1].clone()
        if len(labels) < end - begin:
            labels = torch.cat([labels, labels.new_full([end - begin - len(labels)], -100)])
        model_input.labels = labels
        model_input.num_documents = len(self.lengths) - (1 if self.unpadded_length < len(self.tokens) else 0)
        return model_input


@dataclasses.dataclass
class GPTSamplingConfig:
    vocab_size: int
    sample_size: int


class GPTRandomSampledDataset:
    def __init__(self, sampling: GPTSamplingConfig, name: str, num_samples: int, seed: int):
        self._name = name
        self._seed = seed
        self._config = sampling
        self._num_samples = num_samples
        self._vocab_size = sampling.vocab_size
        self._dtype = get_unsigned_integer_type(self._vocab_size).torch

    def __len__(self) -> int:
        return self._num_samples

    def __getitem__(self, index: int) -> list[LanguageModelDocument]:
        # TODO: Sample in self._dtype (breaking)
        return [
            LanguageModelDocument(
                tokens=torch.from_numpy(
                    np.random.RandomState(self._seed + 48576439 + 74593 * index).randint(
                        0,
                        self._vocab_size,
                        size=(self._config.sample_size,),
                    )
                ).to(self._dtype),  # root-cause-alt
            )
        ]


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class DecoderBlock(nn.Module):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.norm_1 = RMSNorm(hidden)
        self.query = nn.Linear(hidden, hidden, bias=False)
        self.key_value = nn.Linear(hidden, 2 * hidden, bias=False)
        self.dense = nn.Linear(hidden, hidden, bias=False)
        self.norm_2 = RMSNorm(hidden)
        self.gate_up = nn.Linear(hidden, 2 * ffn, bias=False)
        self.down = nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        b, s, d = x.shape
        h = self.norm_1(x)
        q = self.query(h).view(b, s, self.heads, -1).transpose(1, 2)
        k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in self.key_value(h).chunk(2, -1))
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.dense(attn.transpose(1, 2).reshape(b, s, d))
        gate, up = self.gate_up(self.norm_2(x)).chunk(2, -1)
        return x + self.down(F.silu(gate) * up)


class GPTModel(nn.Module):
    """examples/mistral.yaml's architecture (vocab 32000), narrowed: 2 blocks, hidden 32."""

    def __init__(self, vocab_size=32000, hidden=32, heads=4, ffn=64, layers=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.layers = nn.ModuleList(DecoderBlock(hidden, heads, ffn) for _ in range(layers))
        self.final_norm = RMSNorm(hidden)
        self.output_weights = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, model_input: TokenModelInput):
        x = self.word_embeddings(model_input.tokens)  # fails-here
        for layer in self.layers:
            x = layer(x)
        logits = self.output_weights(self.final_norm(x))
        return F.cross_entropy(logits.flatten(0, 1), model_input.labels.flatten(), ignore_index=-100)


def data_loader(dataset, micro_batch_size, sequence_length, num_batches):
    index = 0
    for _ in range(num_batches):
        batches = []
        for _ in range(micro_batch_size):
            documents = dataset[index]
            index += 1
            batches.append(TokenBatch.from_documents(documents, pad_to_size=sequence_length + 1))
        yield batches


def main():
    sequence_length = 64
    sampling = GPTSamplingConfig(vocab_size=32000, sample_size=sequence_length + 1)
    dataset = GPTRandomSampledDataset(sampling, "training", num_samples=64, seed=1234)
    model = GPTModel(vocab_size=sampling.vocab_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1, betas=(0.9, 0.95))
    for step, batches in enumerate(data_loader(dataset, micro_batch_size=4, sequence_length=sequence_length,
                                               num_batches=5)):
        inputs = [batch.get_model_input(0, sequence_length) for batch in batches]
        model_input = TokenModelInput(tokens=torch.stack([m.tokens for m in inputs]),
                                      labels=torch.stack([m.labels for m in inputs]))
        loss = model(model_input)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        print(f"step {step}: lm loss {loss.item():.4f} (tokens {model_input.tokens.dtype})")


if __name__ == "__main__":
    main()
