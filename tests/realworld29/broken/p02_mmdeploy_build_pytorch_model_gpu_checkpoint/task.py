import torch

import models
from checkpoint import load_checkpoint


class BaseTask:
    def __init__(self, model_cfg, deploy_cfg, device):
        self.model_cfg = model_cfg
        self.deploy_cfg = deploy_cfg
        self.device = device


class ClassificationTask(BaseTask):
    def build_pytorch_model(self, model_checkpoint=None, cfg_options=None, **kwargs):
        model = models.build(self.model_cfg)
        if model_checkpoint is not None:
            load_checkpoint(model, model_checkpoint)  # root-cause
        model = model.to(self.device)
        model.eval()
        return model
