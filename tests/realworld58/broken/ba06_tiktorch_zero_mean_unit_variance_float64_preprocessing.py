"""A tiktorch-style prediction pipeline for a bioimage.io model (re-typed over NumPy arrays with named axes: the KNOWN_PREPROCESSING chain built from the spec, the per-sample zero_mean_unit_variance step, add_batch_dim, the PyTorch model adapter, a small float32 U-Net): the uint16 microscopy tile is normalized with NumPy statistics, so zero_mean_unit_variance returns float64, the adapter's torch.from_numpy keeps it, and the float32 network's first convolution fails
source: https://github.com/ilastik/tiktorch/pull/180
reported-error: "maks sure we don't change dtype in zero_mean preprocessing ... return (tensor - mean) / (std + 1.0e-6) -> ret = (tensor - mean) / (std + 1.0e-6); # monkey patch: maks sure we don't change dtype ... Wouldn't it make more sense to always cast to float32? ... we said that models always take float32" (follow-up #184: "Preprocessing operations do not always return float32")
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 62
root-cause: line 29
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Tensor:
    """Stand-in for the xr.DataArray tiktorch passes around: data plus axis names."""

    def __init__(self, data, dims):
        self.data, self.dims = data, tuple(dims)


def zero_mean_unit_variance(tensor, axes=None, eps=1.0e-6, mode="per_sample"):
    if mode != "per_sample":
        raise NotImplementedError(f"Unsupported mode for zero_mean_unit_variance: {mode}")
    ax = tuple(tensor.dims.index(a) for a in axes) if axes else None
    mean = tensor.data.mean(axis=ax, keepdims=True)
    std = tensor.data.std(axis=ax, keepdims=True)
    return Tensor((tensor.data - mean) / (std + 1.0e-6), tensor.dims)  # root-cause


def clip(tensor, *, min, max):
    return Tensor(tensor.data.clip(min, max), tensor.dims)


def add_batch_dim(tensor):
    return Tensor(tensor.data[None], ("b",) + tensor.dims)


KNOWN_PREPROCESSING = {"zero_mean_unit_variance": zero_mean_unit_variance, "clip": clip, "__tiktorch_add_batch_dim": add_batch_dim}


def make_preprocessing(preprocessing_spec):
    functions = [(KNOWN_PREPROCESSING[step["name"]], step.get("kwargs") or {}) for step in preprocessing_spec]

    def _chained(tensor):
        for fn, kwargs in functions:
            tensor = fn(tensor, **kwargs)
        return tensor
    return _chained


class UNet2d(nn.Module):
    def __init__(self, c_in=1, c_out=2, f=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(c_in, f, 3, padding=1), nn.ReLU(), nn.Conv2d(f, f, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(f, 2 * f, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * f, f, 2, stride=2)
        self.out = nn.Conv2d(2 * f, c_out, 1)

    def forward(self, x):
        e = self.enc(x)  # fails-here
        return torch.sigmoid(self.out(torch.cat([e, self.up(self.down(e))], 1)))


class PytorchModelAdapter:
    def __init__(self, model):
        self._model = model.eval()

    def forward(self, *input_tensors):
        with torch.no_grad():
            tensors = [torch.from_numpy(ipt.data) for ipt in input_tensors]
            return [Tensor(r.numpy(), input_tensors[0].dims) for r in [self._model(*tensors)]]


class PredictionPipeline:
    def __init__(self, spec, model):
        self._preprocessing = make_preprocessing(spec["inputs"][0]["preprocessing"] + [{"name": "__tiktorch_add_batch_dim"}])
        self._model = PytorchModelAdapter(model)

    def forward(self, *input_tensors):
        return self._model.forward(*[self._preprocessing(t) for t in input_tensors])


spec = {  # rdf.yaml of an EM mitochondria boundary model: per-sample normalization over the spatial axes
    "inputs": [{"name": "raw", "axes": "cyx", "data_type": "float32",
                "preprocessing": [{"name": "zero_mean_unit_variance", "kwargs": {"mode": "per_sample", "axes": "yx"}}]}],
}
net = UNet2d()
pipeline = PredictionPipeline(spec, net)
tile = Tensor(rng.integers(200, 4000, size=(1, 64, 64)).astype(np.uint16), "cyx")  # raw uint16 EM tile
print("input", tile.data.dtype, "-> preprocessed", make_preprocessing(spec["inputs"][0]["preprocessing"])(tile).data.dtype)
(pred,) = pipeline.forward(tile)
print("prediction", pred.data.shape, pred.data.dtype, float(pred.data.mean()))
