"""mmdeploy-style model conversion on a CPU-only machine from a checkpoint written by a GPU run, where the task passes map_location=self.device to load_checkpoint in checkpoint.py (the fix of the PR), so the CUDA-tagged storages are mapped to the CPU
source: https://github.com/open-mmlab/mmdeploy/pull/1324
reported-error: (none: correct code)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import os
import tempfile

import torch

from gpu_run import save_as_if_on_gpu
from task import ClassificationTask

device = "cuda:0" if torch.cuda.is_available() else "cpu"
work_dir = tempfile.mkdtemp()
model_checkpoint = os.path.join(work_dir, "resnet_tiny_epoch_12.pth")
model_cfg = {"type": "TinyClassifier", "in_channels": 3, "num_classes": 5}

# the checkpoint comes from a training run on a GPU machine
save_as_if_on_gpu(model_cfg, model_checkpoint)

task = ClassificationTask(model_cfg, deploy_cfg={"backend": "onnxruntime"}, device=device)
model = task.build_pytorch_model(model_checkpoint)
dummy = torch.randn(1, 3, 32, 32, device=device)
with torch.no_grad():
    print("logits", tuple(model(dummy).shape))
