import torch


def build_optimizer(cfg_trainer, model):
    if cfg_trainer.get('mixed_training', False):
        raise NotImplementedError('HalfOptimizer needs the pape package')
    else:
        optimizer = getattr(torch.optim, cfg_trainer.optimizer.type)(
                    model.parameters(), **cfg_trainer.optimizer.kwargs)
    return optimizer
