"""Real-time YOLOv3 detection on a video in half precision (ayooshkathuria/pytorch-yolo-v3: video_demo_half.py with darknet.py's Darknet built from a cfg and load_weights from the darknet binary, prep_image, write_results), the state of the issue: on a CUDA machine the script runs model.cuda().half(), then warms the network up with get_test_input, which still returns a float32 CUDA tensor, so the first convolution gets float input against half weights (the video frames themselves are .half()-ed later)
source: https://github.com/ayooshkathuria/pytorch-yolo-v3/issues/29
reported-error: "Problem when running video_demo_half.py": RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same; the reporters wonder whether 16-bit weights were not released
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same (the issue's wording; not run on a GPU for this set) at line 101; on CPU: ok
root-cause: line 146
expect: DG004
"""
from __future__ import division

import argparse
import os
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

CFG = """[net]
height=64
[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
activation=leaky
[convolutional]
batch_normalize=1
filters=16
size=3
stride=2
activation=leaky
[convolutional]
batch_normalize=0
filters=255
size=1
stride=1
activation=linear
[yolo]
anchors=10,13,16,30,33,23
"""


# ---- darknet.py (reduced: convolutional and yolo blocks)
def parse_cfg(cfgfile):
    blocks, block = [], {}
    for line in open(cfgfile).read().split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if block:
                blocks.append(block)
            block = {"type": line[1:-1].strip()}
        else:
            key, value = line.split("=")
            block[key.strip()] = value.strip()
    blocks.append(block)
    return blocks


def create_modules(blocks):
    net_info = blocks[0]
    module_list = nn.ModuleList()
    prev_filters = 3
    for index, x in enumerate(blocks[1:]):
        module = nn.Sequential()
        if x["type"] == "convolutional":
            bn = int(x.get("batch_normalize", 0))
            filters, size, stride = int(x["filters"]), int(x["size"]), int(x["stride"])
            module.add_module(f"conv_{index}", nn.Conv2d(prev_filters, filters, size, stride, (size - 1) // 2, bias=not bn))
            if bn:
                module.add_module(f"batch_norm_{index}", nn.BatchNorm2d(filters))
            if x["activation"] == "leaky":
                module.add_module(f"leaky_{index}", nn.LeakyReLU(0.1, inplace=True))
            prev_filters = filters
        module_list.append(module)
    return net_info, module_list


def predict_transform(prediction, inp_dim, num_anchors, num_classes, CUDA=True):
    batch_size, _, grid, _ = prediction.shape
    bbox_attrs = 5 + num_classes
    prediction = prediction.view(batch_size, bbox_attrs * num_anchors, grid * grid).transpose(1, 2).contiguous()
    prediction = prediction.view(batch_size, grid * grid * num_anchors, bbox_attrs)
    prediction[:, :, 0:2] = torch.sigmoid(prediction[:, :, 0:2]) * (inp_dim // grid)
    prediction[:, :, 4:] = torch.sigmoid(prediction[:, :, 4:])
    return prediction


class Darknet(nn.Module):
    def __init__(self, cfgfile):
        super(Darknet, self).__init__()
        self.blocks = parse_cfg(cfgfile)
        self.net_info, self.module_list = create_modules(self.blocks)

    def forward(self, x, CUDA):
        for i, module in enumerate(self.blocks[1:]):
            if module["type"] == "convolutional":
                x = self.module_list[i](x)  # fails-here
            elif module["type"] == "yolo":
                inp_dim = int(self.net_info["height"])
                x = predict_transform(x.data, inp_dim, 3, 80, CUDA)
        return x

    def load_weights(self, weightfile):
        fp = open(weightfile, "rb")
        np.fromfile(fp, dtype=np.int32, count=5)
        weights = np.fromfile(fp, dtype=np.float32)
        ptr = 0
        for i, model in enumerate(self.module_list):
            if self.blocks[i + 1]["type"] != "convolutional":
                continue
            conv = model[0]
            tensors = []
            if int(self.blocks[i + 1].get("batch_normalize", 0)):
                bn = model[1]
                tensors = [bn.bias, bn.weight, bn.running_mean, bn.running_var]
            else:
                tensors = [conv.bias]
            for t in tensors + [conv.weight]:
                n = t.numel()
                t.data.copy_(torch.from_numpy(weights[ptr:ptr + n]).view_as(t))
                ptr += n


# ---- util.py (reduced)
def write_results(prediction, confidence, num_classes, nms=True, nms_conf=0.4):
    conf_mask = (prediction[:, :, 4] > confidence).float().unsqueeze(2)
    prediction = prediction * conf_mask
    keep = prediction[0][prediction[0][:, 4] > 0]
    if keep.shape[0] == 0:
        return 0
    return keep


# ---- video_demo_half.py
def get_test_input(input_dim, CUDA):
    img = np.random.RandomState(0).randint(0, 255, (input_dim, input_dim, 3)).astype(np.uint8)  # cv2.imread + resize
    img_ = img[:, :, ::-1].transpose((2, 0, 1))
    img_ = img_[np.newaxis, :, :, :] / 255.0
    img_ = torch.from_numpy(img_).float()
    img_ = Variable(img_)
    if CUDA:
        img_ = img_.cuda()  # root-cause
    return img_


def prep_image(img, inp_dim):
    orig_im = img
    dim = orig_im.shape[1], orig_im.shape[0]
    img_ = img[:, :, ::-1].transpose((2, 0, 1)).copy()
    img_ = torch.from_numpy(img_).float().div(255.0).unsqueeze(0)
    return img_, orig_im, dim


def arg_parse(argv):
    parser = argparse.ArgumentParser(description='YOLO v3 Video Detection Module')
    parser.add_argument("--video", dest='video', default="video.avi", type=str)
    parser.add_argument("--confidence", dest="confidence", default=0.5)
    parser.add_argument("--nms_thresh", dest="nms_thresh", default=0.4)
    parser.add_argument("--cfg", dest='cfgfile', default="cfg/yolov3.cfg", type=str)
    parser.add_argument("--weights", dest='weightsfile', default="yolov3.weights", type=str)
    parser.add_argument("--reso", dest='reso', default="64", type=str)
    return parser.parse_args(argv)


if __name__ == '__main__':
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "yolov3.cfg"), "w") as f:
        f.write(CFG)
    n_weights = (8 * 4 + 8 * 3 * 9) + (16 * 4 + 16 * 8 * 9) + (255 + 255 * 16)
    with open(os.path.join(work, "yolov3.weights"), "wb") as f:
        np.zeros(5, dtype=np.int32).tofile(f)
        (np.random.RandomState(1).randn(n_weights).astype(np.float32) * 0.1).tofile(f)
    args = arg_parse(["--cfg", os.path.join(work, "yolov3.cfg"), "--weights", os.path.join(work, "yolov3.weights")])
    confidence = float(args.confidence)
    nms_thesh = float(args.nms_thresh)

    CUDA = torch.cuda.is_available()
    num_classes = 80
    print("Loading network.....")
    model = Darknet(args.cfgfile)
    model.load_weights(args.weightsfile)
    print("Network successfully loaded")
    model.net_info["height"] = args.reso
    inp_dim = int(model.net_info["height"])

    if CUDA:
        model.cuda().half()

    model(get_test_input(inp_dim, CUDA), CUDA)
    model.eval()

    frames_in = [np.random.RandomState(i).randint(0, 255, (inp_dim, inp_dim, 3)).astype(np.uint8) for i in range(4)]  # cv2.VideoCapture
    frames = 0
    start = time.time()
    for frame in frames_in:
        img, orig_im, dim = prep_image(frame, inp_dim)
        im_dim = torch.FloatTensor(dim).repeat(1, 2)
        if CUDA:
            img = img.cuda().half()
            im_dim = im_dim.half().cuda()
        with torch.no_grad():
            output = model(Variable(img), CUDA)
        output = write_results(output, confidence, num_classes, nms=True, nms_conf=nms_thesh)
        frames += 1
        n_det = 0 if type(output) == int else output.shape[0]
        print("detections {:d} FPS of the video is {:5.2f}".format(n_det, frames / (time.time() - start)))
