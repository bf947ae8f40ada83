from .ann_model import ANNModel
