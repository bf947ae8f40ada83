import torch


class ConfigBase(object):
    def __init__(self, *args, **kwargs):
        super(ConfigBase, self).__init__(*args, **kwargs)

    def __repr__(self):
        return str(self.__dict__)

    def dict(self):
        return self.__dict__.copy()

    def from_dict(self, kwargs):
        for k, v in kwargs.items():
            self.__dict__[k] = v


def parse_torch_device(device_str):
    """ auto, cpu, cuda, cuda:0, ..."""
    if device_str == 'auto':
        return torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')
    return torch.device(device_str)


class RuntimeConfig(ConfigBase):
    def __init__(self, *args, **kwargs):
        self.device = parse_torch_device('auto')
        self.model_dir = ''
        self.from_dict(kwargs)


class TrainingConfig(ConfigBase):
    def __init__(self, *args, **kwargs):
        self.optimizer = 'sgd'
        self.lr = 1e-4
        self.weight_decay = 1e-4
        self.momentum = 0.9
        self.train_batch_size = 128
        self.train_epoch = 30
        self.from_dict(kwargs)
