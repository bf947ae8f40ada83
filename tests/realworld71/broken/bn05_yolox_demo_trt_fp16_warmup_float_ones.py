"""YOLOX-style tools/demo.py image run with --trt --fp16: main() moves the detector to the accelerator and casts it with model.half() for fp16, then the Predictor loads the TensorRT engine and first runs a warm-up pass of the PyTorch model on `torch.ones(1, 3, *test_size)`, a float32 tensor, so the fp16 stem convolution rejects it before any image is read (the CPU stands in for the GPU; the torch2trt engine is a stand-in)
source: https://github.com/Megvii-BaseDetection/YOLOX/issues/1345
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same (python tools/demo.py image -f exps/example/yolox_voc/yolox_myvoc_m.py --path dog.jpg --trt --save_result --fp16; "the dtype of x is torch.float32 but the dtype of the models weights is torch.float16 at this time", fixed locally with x = x.half())
outcome: RuntimeError: expected scalar type Float but found Half at line 30
root-cause: line 114
expect: DG004
"""
import argparse
import io
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
DEVICE = torch.device("cpu")  # stands in for .cuda() on this CPU-only machine
RUN_DIR = tempfile.mkdtemp(prefix="yolox_demo_")


class BaseConv(nn.Module):
    def __init__(self, cin, cout, k, s):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))  # fails-here


class YOLOXHead(nn.Module):
    def __init__(self, num_classes, width=32, strides=(8, 16)):
        super().__init__()
        self.num_classes, self.strides, self.decode_in_inference = num_classes, strides, True
        self.stems = nn.ModuleList([BaseConv(width * 2**i, width, 1, 1) for i in range(len(strides))])
        self.preds = nn.ModuleList([nn.Conv2d(width, 5 + num_classes, 1) for _ in strides])

    def forward(self, feats):
        outputs, self.hw = [], []
        for stem, pred, x in zip(self.stems, self.preds, feats):
            out = pred(stem(x))
            self.hw.append(out.shape[-2:])
            outputs.append(torch.cat([out[:, :4], out[:, 4:].sigmoid()], 1).flatten(2))
        outputs = torch.cat(outputs, 2).permute(0, 2, 1)
        return self.decode_outputs(outputs, dtype=outputs.type()) if self.decode_in_inference else outputs

    def decode_outputs(self, outputs, dtype):
        grids, strides = [], []
        for (h, w), stride in zip(self.hw, self.strides):
            yv, xv = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            grids.append(torch.stack((xv, yv), 2).view(1, -1, 2))
            strides.append(torch.full((1, h * w, 1), stride))
        grids, strides = torch.cat(grids, 1).type(dtype), torch.cat(strides, 1).type(dtype)
        return torch.cat([(outputs[..., :2] + grids) * strides, torch.exp(outputs[..., 2:4]) * strides, outputs[..., 4:]], -1)


class YOLOX(nn.Module):
    def __init__(self, num_classes=20, width=32):
        super().__init__()
        self.backbone = nn.Sequential(BaseConv(3, width // 2, 3, 2), BaseConv(width // 2, width, 3, 2), BaseConv(width, width, 3, 2))
        self.dark4 = BaseConv(width, width * 2, 3, 2)
        self.head = YOLOXHead(num_classes, width)

    def forward(self, x):
        c3 = self.backbone(x)
        return self.head([c3, self.dark4(c3)])


class Exp:
    num_classes, test_size, test_conf, nmsthre, exp_name = 20, (64, 64), 0.3, 0.65, "yolox_myvoc_m"
    output_dir = RUN_DIR

    def get_model(self):
        return YOLOX(self.num_classes)


class TRTModule(nn.Module):
    """Stand-in for torch2trt.TRTModule: its state dict carries a serialized engine (here a TorchScript trace)."""

    def __init__(self, engine=None):
        super().__init__()
        self.engine = engine

    def state_dict(self, *args, **kwargs):
        buf = io.BytesIO()
        torch.jit.save(self.engine, buf)
        return {"engine": buf.getvalue()}

    def load_state_dict(self, state_dict, strict=True):
        self.engine = torch.jit.load(io.BytesIO(state_dict["engine"]))

    def forward(self, x):
        return self.engine(x)


def build_trt_engine(exp, file_name):
    """tools/trt.py: torch2trt(model, [x], fp16_mode=True), then torch.save(model_trt.state_dict(), ...)."""
    model = exp.get_model().eval()
    model.head.decode_in_inference = False
    x = torch.ones(1, 3, *exp.test_size).half()
    model_trt = TRTModule(torch.jit.trace(model.half(), x, check_trace=False))
    torch.save(model_trt.state_dict(), os.path.join(file_name, "model_trt.pth"))


class Predictor:
    def __init__(self, model, exp, trt_file=None, decoder=None, device="cpu", fp16=False):
        self.model, self.decoder, self.num_classes = model, decoder, exp.num_classes
        self.confthre, self.test_size, self.device, self.fp16 = exp.test_conf, exp.test_size, device, fp16
        if trt_file is not None:
            model_trt = TRTModule()
            model_trt.load_state_dict(torch.load(trt_file))
            x = torch.ones(1, 3, exp.test_size[0], exp.test_size[1]).to(DEVICE)  # root-cause
            self.model(x)
            self.model = model_trt

    def inference(self, img):
        img = torch.from_numpy(img.transpose(2, 0, 1).copy()).unsqueeze(0).float()
        if self.device == "gpu":
            img = img.to(DEVICE)
            if self.fp16:
                img = img.half()
        with torch.no_grad():
            outputs = self.model(img)
            if self.decoder is not None:
                outputs = self.decoder(outputs, dtype=outputs.type())
        scores = outputs[0, :, 4] * outputs[0, :, 5:].max(-1).values
        return outputs[0][scores > self.confthre]


def main(exp, args):
    file_name = os.path.join(exp.output_dir, exp.exp_name)
    os.makedirs(file_name, exist_ok=True)
    if args.trt:
        args.device = "gpu"
    model = exp.get_model()
    if args.device == "gpu":
        model.to(DEVICE)
        if args.fp16:
            model.half()  # to FP16
    model.eval()
    if args.trt:
        trt_file = os.path.join(file_name, "model_trt.pth")
        assert os.path.exists(trt_file), "TensorRT model is not found!\n Run python3 tools/trt.py first!"
        model.head.decode_in_inference = False
        decoder = model.head.decode_outputs
    else:
        trt_file, decoder = None, None
    predictor = Predictor(model, exp, trt_file, decoder, args.device, args.fp16)
    img = np.random.default_rng(0).integers(0, 255, (*exp.test_size, 3)).astype(np.float32)
    dets = predictor.inference(img)
    print(f"{len(dets)} detections above conf {exp.test_conf}")


exp = Exp()
os.makedirs(os.path.join(exp.output_dir, exp.exp_name), exist_ok=True)
build_trt_engine(exp, os.path.join(exp.output_dir, exp.exp_name))  # python3 tools/trt.py -f ... -c best_ckpt.pth
parser = argparse.ArgumentParser("YOLOX Demo!")
parser.add_argument("demo", default="image")
parser.add_argument("--device", default="cpu", type=str)
parser.add_argument("--fp16", dest="fp16", default=False, action="store_true")
parser.add_argument("--trt", dest="trt", default=False, action="store_true")
main(exp, parser.parse_args(["image", "--trt", "--fp16"]))
