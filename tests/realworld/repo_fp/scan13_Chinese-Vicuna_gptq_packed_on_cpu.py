"""Chinese-Vicuna tools/quant_generate.py loads the GPTQ checkpoint that tools/quant_llama.py writes after moving every layer back to the CPU

source: https://github.com/Facico/Chinese-Vicuna/blob/bd1658d70f66113eeb41e05e91f0754fa9dc845a/tools/quant_generate.py#L53
(the writer is tools/quant_llama.py#L34-L137 (llama_sequential), #L232-L243 (llama_pack) and #L336 (torch.save))
false-alarm: DG010 at line 108: the only writer of the quantized file is quant_llama.py, which loads the fp16 model on
the CPU (`from_pretrained(..., torch_dtype=torch.float16)`, no device), moves one decoder layer at a time to
`DEV = torch.device('cuda:0')`, and moves it back (`layers[i] = layer.cpu()`, line 125; the embedding and norm too,
lines 66-68); the quantizer results are stored `.cpu()` (line 120) and `llama_pack` builds and packs the QuantLinear
buffers on the CPU model before `torch.save(model.state_dict(), args.save)`. Every storage in the file is tagged
'cpu', so the load works on any machine. Besides, quant_generate.py cannot run on a CPU-only machine at all: right
after the load, `load_quant` calls `quant.autotune_warmup_linear` (warmup_autotune=True by default), which does
`m.qweight.cuda()` and runs Triton kernels (tools/quant/quant_linear.py:426, 435), and QuantLinear's forward
allocates its output with `device='cuda'` (line 281). The offered `map_location='cpu'` is harmless.
The writer is a separate script in the repo, so the reduction runs it as one (`python -c QUANT_LLAMA`, line 55); with
the writer inlined as a function of the same file the checker sees the CPU save and stays silent. The reduction's
writer falls back to the CPU when CUDA is absent (the repo's hard-codes cuda:0) and the loader leaves out the
CUDA-only Triton warm-up, so that it runs here. This reduction runs on the CPU (exit 0).
"""
# Reduction: LLaMA is two linear "decoder layers" between an embedding and a head, GPTQ is round-to-nearest 4-bit
# quantization, QuantLinear keeps qweight/scales buffers; the layer-by-layer .to(DEV) / .cpu() of the writer and the
# loader's torch.load / load_state_dict(strict=False) / .to(device) are kept.
import argparse
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn


class QuantLinear(nn.Module):
    def __init__(self, infeatures, outfeatures):
        super().__init__()
        self.register_buffer("qweight", torch.zeros((outfeatures, infeatures), dtype=torch.int8))
        self.register_buffer("scales", torch.zeros((outfeatures, 1), dtype=torch.float16))

    def pack(self, linear, scale):
        self.scales = scale.half()
        self.qweight = torch.clamp(torch.round(linear.weight.data / scale), -8, 7).to(torch.int8)

    def forward(self, x):
        return x @ (self.qweight.to(x.dtype) * self.scales.to(x.dtype)).t()


def make_model(quantized):
    layer = QuantLinear if quantized else (lambda i, o: nn.Linear(i, o, bias=False))
    return nn.ModuleDict({"embed_tokens": nn.Embedding(32, 16),
                          "layers": nn.ModuleList([layer(16, 16), layer(16, 16)]),
                          "lm_head": nn.Linear(16, 32, bias=False)})


# tools/quant_llama.py, a separate script in the repo (run as `python quant_llama.py <llama> wikitext2 --wbits 4
# --save llama7b-4bit-128g.pt`): the checker sees it only as another file.
QUANT_LLAMA = r'''
import sys

import torch
import torch.nn as nn


class QuantLinear(nn.Module):
    def __init__(self, infeatures, outfeatures):
        super().__init__()
        self.register_buffer("qweight", torch.zeros((outfeatures, infeatures), dtype=torch.int8))
        self.register_buffer("scales", torch.zeros((outfeatures, 1), dtype=torch.float16))

    def pack(self, linear, scale):
        self.scales = scale.half()
        self.qweight = torch.clamp(torch.round(linear.weight.data / scale), -8, 7).to(torch.int8)

    def forward(self, x):
        return x @ (self.qweight.to(x.dtype) * self.scales.to(x.dtype)).t()


def make_model(quantized):
    layer = QuantLinear if quantized else (lambda i, o: nn.Linear(i, o, bias=False))
    return nn.ModuleDict({"embed_tokens": nn.Embedding(32, 16),
                          "layers": nn.ModuleList([layer(16, 16), layer(16, 16)]),
                          "lm_head": nn.Linear(16, 32, bias=False)})


def quant_llama(save):
    DEV = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = make_model(False)
    quantizers = {}
    for i, layer in enumerate(model["layers"]):
        layer = layer.to(DEV)
        scale = layer.weight.data.abs().amax(dim=1, keepdim=True) / 7
        quantizers[i] = scale.cpu()
        model["layers"][i] = layer.cpu()
    qmodel = make_model(True)
    qmodel["embed_tokens"].load_state_dict(model["embed_tokens"].state_dict())
    qmodel["lm_head"].load_state_dict(model["lm_head"].state_dict())
    for i, qlayer in enumerate(qmodel["layers"]):
        qlayer.pack(model["layers"][i], quantizers[i])
    torch.save(qmodel.state_dict(), save)
    return save


quant_llama(sys.argv[1])
'''


def load_quant(checkpoint):
    model = make_model(True)
    print('Loading model ...')
    model.load_state_dict(torch.load(checkpoint), strict=False)
    return model


parser = argparse.ArgumentParser()
parser.add_argument("--quant_path", type=str, default=None)
args = parser.parse_args()

device = "cuda" if torch.cuda.is_available() else "cpu"

if args.quant_path is None:
    args.quant_path = os.path.join(tempfile.mkdtemp(), "llama7b-4bit-128g.pt")
    subprocess.run([sys.executable, "-c", QUANT_LLAMA, args.quant_path], check=True)

model = load_quant(args.quant_path)
model.to(device)
model.eval()
with torch.no_grad():
    h = model["embed_tokens"](torch.tensor([[1, 2, 3]], device=device))
    for layer in model["layers"]:
        h = layer(h)
    print(model["lm_head"](h).argmax(-1).tolist())
