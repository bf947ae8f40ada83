"""mmdeploy-style model conversion on a CPU-only machine (open-mmlab/mmdeploy layout: tools script -> task.build_pytorch_model -> mmengine's load_checkpoint): the task calls load_checkpoint(model, model_checkpoint) without map_location even when self.device is 'cpu', so the checkpoint written by a GPU training run is deserialized onto CUDA inside checkpoint.py
source: https://github.com/open-mmlab/mmdeploy/pull/1324
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False (checkpoint load RuntimeError when 'device=cpu')
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at checkpoint.py:5
root-cause: task.py:18
expect: DG010
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
