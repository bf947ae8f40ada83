"""X3D video classification from the PyTorch Hub entry of pytorchvideo (hub/x3d.py layout: checkpoint_paths per model, _x3d builds create_x3d(...) and, when pretrained, loads checkpoint["model_state"] through load_state_dict_from_url; the hub tutorial then picks its device and runs a Kinetics clip): the published .pyth checkpoints were saved from GPU tensors, and the hub loader gives no map_location, so the CPU-only Colab of the report cannot deserialize them
source: https://github.com/facebookresearch/SlowFast/issues/407
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (model = torch.hub.load('facebookresearch/pytorchvideo', 'x3d_s', pretrained=True))
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 27
root-cause: line 45
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization

HUB_DIR = tempfile.mkdtemp()  # stand-in for ~/.cache/torch/hub/checkpoints
root_dir = "https://dl.fbaipublicfiles.com/pytorchvideo/model_zoo/kinetics"
checkpoint_paths = {
    "x3d_xs": f"{root_dir}/X3D_XS.pyth",
    "x3d_s": f"{root_dir}/X3D_S.pyth",
    "x3d_m": f"{root_dir}/X3D_M.pyth",
}


# ---- torch.hub.load_state_dict_from_url (the download replaced by the local cache file)
def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True):
    cached_file = os.path.join(model_dir or HUB_DIR, os.path.basename(url))
    return torch.load(cached_file, map_location=map_location)  # fails-here


# ---- pytorchvideo/models/x3d.py (toy-size create_x3d)
def create_x3d(input_clip_length=13, input_crop_size=160, model_num_class=400, width=8):
    return nn.Sequential(
        nn.Conv3d(3, width, kernel_size=(1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), bias=False),
        nn.BatchNorm3d(width), nn.ReLU(),
        nn.Conv3d(width, width, kernel_size=(3, 1, 1), padding=(1, 0, 0), groups=width, bias=False),
        nn.BatchNorm3d(width), nn.ReLU(),
        nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Dropout(0.5), nn.Linear(width, model_num_class),
    )


# ---- pytorchvideo/models/hub/x3d.py
def _x3d(pretrained=False, progress=True, checkpoint_path=None, **kwargs):
    model = create_x3d(**kwargs)
    if pretrained and checkpoint_path is not None:
        checkpoint = load_state_dict_from_url(checkpoint_path, progress=progress)  # root-cause
        state_dict = checkpoint["model_state"]
        model.load_state_dict(state_dict)
    return model


def x3d_s(pretrained=False, progress=True, **kwargs):
    return _x3d(pretrained=pretrained, progress=progress, checkpoint_path=checkpoint_paths["x3d_s"],
                input_clip_length=13, input_crop_size=160, **kwargs)


def publish_checkpoint():
    """What the model zoo holds: a SlowFast training checkpoint written from a GPU run."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"model_state": create_x3d().state_dict(), "epoch": 300},
                   os.path.join(HUB_DIR, os.path.basename(checkpoint_paths["x3d_s"])))
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    publish_checkpoint()
    # Set to GPU or CPU
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = x3d_s(pretrained=True)  # torch.hub.load('facebookresearch/pytorchvideo', 'x3d_s', pretrained=True)
    model = model.eval()
    model = model.to(device)
    clip = torch.rand(1, 3, 13, 160, 160, device=device)  # stand-in for the transformed archery.mp4 clip
    with torch.no_grad():
        preds = torch.nn.Softmax(dim=1)(model(clip))
    print("Top 5 predicted labels:", preds.topk(k=5).indices[0].tolist())
