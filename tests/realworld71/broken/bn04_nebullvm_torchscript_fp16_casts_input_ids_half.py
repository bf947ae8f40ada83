"""nebullvm-style optimize_model of a BERT-style classifier with the TorchScript backend and half precision: PytorchBackendCompiler._compile_model casts every tensor of the example input to .half() before torch.jit.trace, including the int64 input_ids and attention mask, so the traced embedding lookup receives float16 indices; the optimizer catches the error, logs a warning and silently drops the fp16 TorchScript candidate
source: https://github.com/nebuly-ai/optimate/issues/163
reported-error: "Optimization failed with DeepLearningFramework.PYTORCH interface of ModelCompiler.TORCHSCRIPT. Got error Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.cuda.HalfTensor instead (while checking arguments for embedding). If possible the compilation will be re-scheduled with another interface." (int inputs gets converted to half(); fixed by PR #164: .half() only when the input is floating point)
outcome: ok (silent: torch.jit.trace at line 88 runs the fp16 model on the example input that line 76 cast to half, the embedding lookup at line 44 raises "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.HalfTensor instead (while checking arguments for embedding)", optimize_model catches it, logs the warning as in the report and keeps the original model: "fp16 TorchScript candidate kept: False", exit 0)
root-cause: line 76
expect: DG005
"""
import copy
import enum
import logging
import time

import torch
import torch.nn as nn
from torch.fx import symbolic_trace

torch.manual_seed(0)
logging.basicConfig(level=logging.INFO, format="%(levelname)-8s | %(message)s")
logger = logging.getLogger("nebullvm")


class QuantizationType(enum.Enum):
    HALF = "HALF"


class TinyBert(nn.Module):
    """BERT-style encoder + classification head; its length guard makes torch.fx give up, its **kwargs make torch.jit.script give up."""

    def __init__(self, vocab=200, hidden=32, heads=4, layers=2, max_len=32, num_labels=2):
        super().__init__()
        self.max_len = max_len
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, hidden)
        self.heads = heads
        self.qkv = nn.ModuleList([nn.Linear(hidden, 3 * hidden) for _ in range(layers)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(hidden, 64), nn.GELU(), nn.Linear(64, hidden)) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(hidden) for _ in range(2 * layers)])
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask, **kwargs):
        if input_ids.size(1) > self.max_len:
            input_ids, attention_mask = input_ids[:, : self.max_len], attention_mask[:, : self.max_len]
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.word_embeddings(input_ids) + self.position_embeddings(positions)
        b, t, d = h.shape
        bias = (1.0 - attention_mask[:, None, None, :].to(h.dtype)) * -10000.0
        for i, (qkv, ffn) in enumerate(zip(self.qkv, self.ffn)):
            q, k, v = qkv(h).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            att = ((q @ k.transpose(-1, -2)) / (d // self.heads) ** 0.5 + bias).softmax(-1)
            h = self.norms[2 * i](h + (att @ v).transpose(1, 2).reshape(b, t, d))
            h = self.norms[2 * i + 1](h + ffn(h))
        return self.classifier(h[:, 0])


class PytorchBackendCompiler:
    """Re-typed nebullvm/operations/optimizations/compilers/pytorch.py at the parent of PR #164."""

    def __init__(self, device):
        self.device = device
        self.compiled_model = None

    def execute(self, model, quantization_type, input_data):
        logger.info(f"Optimizing with {self.__class__.__name__} and q_type: {quantization_type}.")
        if quantization_type is QuantizationType.HALF:
            model = copy.deepcopy(model).eval()
            try:
                model = symbolic_trace(model)
            except Exception:
                logger.warning("Unable to trace model with torch.fx")
            model = model.half()
        self.compiled_model = self._compile_model(model, input_data, quantization_type)

    def _compile_model(self, model, input_data, quantization_type):
        input_sample = input_data[0]
        if quantization_type is QuantizationType.HALF:
            input_sample = [t.to(self.device).half() for t in input_sample]  # root-cause
        else:
            input_sample = [t.to(self.device) for t in input_sample]
        if not isinstance(model, torch.fx.GraphModule):
            model.eval()
            try:
                model_scripted = symbolic_trace(model)
                model_scripted = torch.jit.script(model_scripted)
            except Exception:
                try:
                    model_scripted = torch.jit.script(model)
                except Exception:
                    model_scripted = torch.jit.trace(model, tuple(input_sample))
        else:
            model_scripted = torch.jit.script(model)
        return model_scripted


def latency(model, inputs, n=5):
    with torch.no_grad():
        start = time.perf_counter()
        for _ in range(n):
            model(*inputs)
    return (time.perf_counter() - start) / n


def optimize_model(model, input_data, device="cpu"):
    """The optimizer loop: each compiler failure is logged and the next candidate is tried."""
    best, best_name, best_latency = model, "original", latency(model, input_data[0])
    for compiler_name, q_type in [("TORCHSCRIPT", QuantizationType.HALF)]:
        compiler = PytorchBackendCompiler(device)
        try:
            compiler.execute(model, q_type, input_data)
        except Exception as ex:
            logger.warning(
                f"Optimization failed with DeepLearningFramework.PYTORCH interface of ModelCompiler.{compiler_name}. "
                f"Got error {ex}. If possible the compilation will be re-scheduled with another interface."
            )
            continue
        sample = [t.half() if t.is_floating_point() else t for t in input_data[0]]
        lat = latency(compiler.compiled_model, sample)
        if lat < best_latency:
            best, best_name, best_latency = compiler.compiled_model, f"{compiler_name}/{q_type.value}", lat
    logger.info(f"Best model: {best_name} ({best_latency * 1e3:.2f} ms)")
    return best, best_name


# the BERT example notebook: tokenized sentences (int64 ids and mask) as the optimizer's input data
sentences = [[101, 7, 19, 44, 102], [101, 12, 9, 102, 0], [101, 33, 21, 87, 102]]
input_ids = torch.tensor(sentences)
attention_mask = (input_ids != 0).long()
bert = TinyBert().eval()
optimized_model, name = optimize_model(bert, [(input_ids, attention_mask)])
print(f"optimized model: {name}; fp16 TorchScript candidate kept: {name.startswith('TORCHSCRIPT')}")
