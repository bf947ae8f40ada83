import torch
from torch.utils.data.dataloader import DataLoader

from mingpt.utils import CfgNode as CN


class Trainer:
    @staticmethod
    def get_default_config():
        C = CN()
        C.device = "auto"
        C.num_workers = 0
        C.max_iters = None
        C.batch_size = 64
        C.learning_rate = 3e-4
        C.betas = (0.9, 0.95)
        C.weight_decay = 0.1
        C.grad_norm_clip = 1.0
        return C

    def __init__(self, config, model, train_dataset):
        self.config = config
        self.model = model
        self.train_dataset = train_dataset
        self.device = "cuda" if config.device == "auto" and torch.cuda.is_available() else "cpu"
        self.model = self.model.to(self.device)
        self.iter_num = 0

    def run(self):
        model, config = self.model, self.config
        self.optimizer = model.configure_optimizers(config)
        train_loader = DataLoader(self.train_dataset, shuffle=False, batch_size=config.batch_size,
                                  num_workers=config.num_workers)
        model.train()
        data_iter = iter(train_loader)
        while True:
            try:
                batch = next(data_iter)
            except StopIteration:
                data_iter = iter(train_loader)
                batch = next(data_iter)
            x, y = [t.to(self.device) for t in batch]
            logits, self.loss = model(x, y)
            model.zero_grad(set_to_none=True)
            self.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), config.grad_norm_clip)
            self.optimizer.step()  # fails-here
            self.iter_num += 1
            if config.max_iters is not None and self.iter_num >= config.max_iters:
                break
